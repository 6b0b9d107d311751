/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_convert.c - `pagelab convert`: reads a trace in any format pagelab
 * reads (CLI_READ_OPTIONS) and writes it as page-per-line text or as
 * pagelab's binary format, a batch at a time: memory stays constant
 * however long the trace.  The output file is written beside its final
 * name and renamed only when complete, so a failed conversion never
 * leaves a truncated trace under the name asked for; a device or a FIFO
 * (-o /dev/null) is written in place, never replaced by a file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const struct cli_option convert_options[] = {
	CLI_READ_OPTIONS, { "-o", CLI_VALUE }, { "--to", CLI_VALUE }, { NULL },
};

/* --to text|binary (--format names the input's format here). */
static int target_format(const struct cli_args *a, enum pl_format *format)
{
	const char *name = cli_value(a, "--to");

	*format = PL_FORMAT_TEXT;
	if (name && (pl_format_find(name, format) ||
		     (*format != PL_FORMAT_TEXT && *format != PL_FORMAT_BINARY)))
		return cli_usage_error(a, "--to %s: pagelab writes text or binary traces", name);
	return 0;
}

static int copy(struct pl_reader *r, struct pl_writer *w, uint64_t *count,
		struct pl_error *err)
{
	struct pl_refs b;
	int got;

	while ((got = pl_reader_next(r, &b, err)) > 0) {
		if (pl_writer_write(w, &b, err))
			return -1;
		*count += b.n;
	}
	return got;
}

static int convert(struct pl_reader *r, FILE *out, const char *name, enum pl_format to,
		   uint64_t *count)
{
	struct pl_error err;
	struct pl_writer *w = pl_writer_open(out, name, to, pl_reader_has_pid(r),
					     pl_reader_has_time(r), &err);

	if (!w)
		return cli_fail("%s", err.msg);
	if (copy(r, w, count, &err)) {
		struct pl_error ignored;

		pl_writer_close(w, &ignored);
		return cli_fail("%s", err.msg);
	}
	return pl_writer_close(w, &err) ? cli_fail("%s", err.msg) : 0;
}

static int convert_main(const struct cli_args *a)
{
	const char *path = cli_value(a, "-o");
	char partial[4096];
	struct stat target;
	bool in_place = false;
	struct pl_reader *r;
	enum pl_format to;
	uint64_t count = 0;
	FILE *out = stdout;
	char about[256];
	int ret;

	if (!cli_value(a, "--trace"))
		return cli_usage_error(a, "give the trace to convert with --trace FILE");
	if ((ret = target_format(a, &to)))
		return ret;
	if (!path && to == PL_FORMAT_BINARY)
		return cli_usage_error(a, "a binary trace goes to a file: give -o FILE");
	if ((ret = cli_open_reader(a, &r)))
		return ret;
	if (path && strcmp(path, "-")) {
		/* a device or a FIFO (-o /dev/null) is written in place: renaming the
		 * finished file over it would replace the device with a file */
		in_place = !stat(path, &target) && !S_ISREG(target.st_mode);
		snprintf(partial, sizeof(partial), in_place ? "%s" : "%s.partial", path);
		if (!(out = fopen(partial, "wb"))) {
			pl_reader_close(r);
			return cli_fail("%s: %s", partial, strerror(errno));
		}
	}
	ret = convert(r, out, out == stdout ? "standard output" : path, to, &count);
	pl_reader_describe(r, about, sizeof(about));
	pl_reader_close(r);
	if (out != stdout) {
		if (fclose(out) && !ret)
			ret = cli_fail("%s: %s", path, strerror(errno));
		if (!ret && !in_place && rename(partial, path))
			ret = cli_fail("%s: %s", path, strerror(errno));
		if (ret && !in_place)
			remove(partial);
	}
	if (!ret)
		fprintf(stderr, "pagelab: %llu references from %s (%s) written as %s\n",
			(unsigned long long)count, cli_value(a, "--trace"), about,
			pl_format_name(to));
	return ret;
}

const struct cli_command cli_command_convert = {
	.name = "convert",
	.summary = "convert a trace (Lackey, CSV, libCacheSim, gzip, ...) to text or binary",
	.usage =
	"usage: pagelab convert --trace FILE [--format F] [--page-size B] [--no-instructions]\n"
	"                       [--collapse] [--columns MAP] [--to text|binary] [-o FILE]\n"
	"\n"
	"Reads a trace in any format pagelab reads and writes it as text (one\n"
	"page number per line, 'w' for a write; a 'page time pid' table when\n"
	"it has those columns) or as pagelab's compact binary format, the\n"
	"quickest to read again.  Says on stderr how many references it wrote\n"
	"and how it read the input.\n"
	"\n"
	"  --to F          text (default) or binary\n"
	"  -o FILE         write to FILE (required for binary; default: standard\n"
	"                  output); FILE only appears once it is complete\n",
	.example = "example: pagelab convert --trace ls.lackey.gz --no-instructions --collapse \\\n"
		   "             --to binary -o ls.pltrace\n",
	.reads_trace = true,
	.options = convert_options,
	.run = convert_main,
};

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_list.c - `pagelab list`: every policy with its title, description,
 * parameters (default and range or choices), lists, fields, hands and
 * counters, as text or a JSON array.
 */
#include "cli.h"

static const struct cli_option list_options[] = {
	{ "--json", CLI_FLAG }, { NULL },
};

typedef const char *(*name_fn)(const struct pl_policy_ops *, unsigned);

static void param_text(const struct pl_param *p)
{
	char def[64];

	out_param_value(def, sizeof(def), p, p->def);
	printf("      --param %s=%s", p->name, def);
	if (p->choices) {
		printf("  (one of:");
		for (unsigned c = 0; p->choices[c]; c++)
			printf(" %s", p->choices[c]);
		printf(")");
	} else {
		printf("  (%lld .. %lld)", (long long)p->min, (long long)p->max);
	}
	printf("\n");
	out_wrapped(stdout, 10, p->help);
}

static void names_text(const char *label, unsigned n, name_fn name,
		       const struct pl_policy_ops *ops)
{
	if (!n)
		return;
	printf("    %s:", label);
	for (unsigned i = 0; i < n; i++)
		printf(" %s", name(ops, i));
	printf("\n");
}

static void list_text(void)
{
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];

		printf("%s%-12s %s\n", i ? "\n" : "", pl_policy_name(ops), pl_policy_title(ops));
		out_wrapped(stdout, 4, pl_policy_help(ops));
		if (pl_policy_variable_space(ops))
			printf("    variable space: --frames is optional (default: unbounded)\n");
		for (unsigned p = 0; p < pl_policy_nparams(ops); p++)
			param_text(pl_policy_param(ops, p));
		names_text("lists", pl_policy_nlists(ops), pl_policy_list_name, ops);
		names_text("fields", pl_policy_nfields(ops), pl_policy_field_name, ops);
		names_text("hands", pl_policy_nhands(ops), pl_policy_hand_name, ops);
		names_text("counters", pl_policy_ncounters(ops), pl_policy_counter_name, ops);
		names_text("variables", pl_policy_nvariables(ops), pl_policy_variable_name, ops);
	}
}

static void names_json(const char *key, unsigned n, name_fn name,
		       const struct pl_policy_ops *ops)
{
	printf(",\"%s\":[", key);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? "," : "", stdout);
		out_json_string(stdout, name(ops, i));
	}
	putchar(']');
}

static void param_json(const struct pl_param *p)
{
	fputs("{\"name\":", stdout);
	out_json_string(stdout, p->name);
	fputs(",\"help\":", stdout);
	out_json_string(stdout, p->help);
	printf(",\"default\":%lld,\"min\":%lld,\"max\":%lld", (long long)p->def,
	       (long long)p->min, (long long)p->max);
	if (p->choices) {
		fputs(",\"choices\":[", stdout);
		for (unsigned c = 0; p->choices[c]; c++) {
			fputs(c ? "," : "", stdout);
			out_json_string(stdout, p->choices[c]);
		}
		putchar(']');
	}
	putchar('}');
}

static void list_json(void)
{
	putchar('[');
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];

		fputs(i ? ",\n {\"name\":" : "{\"name\":", stdout);
		out_json_string(stdout, pl_policy_name(ops));
		fputs(",\"title\":", stdout);
		out_json_string(stdout, pl_policy_title(ops));
		fputs(",\"help\":", stdout);
		out_json_string(stdout, pl_policy_help(ops));
		fputs(",\"params\":[", stdout);
		for (unsigned p = 0; p < pl_policy_nparams(ops); p++) {
			fputs(p ? "," : "", stdout);
			param_json(pl_policy_param(ops, p));
		}
		putchar(']');
		names_json("lists", pl_policy_nlists(ops), pl_policy_list_name, ops);
		names_json("fields", pl_policy_nfields(ops), pl_policy_field_name, ops);
		names_json("hands", pl_policy_nhands(ops), pl_policy_hand_name, ops);
		names_json("counters", pl_policy_ncounters(ops), pl_policy_counter_name, ops);
		names_json("variables", pl_policy_nvariables(ops), pl_policy_variable_name, ops);
		printf(",\"variable_space\":%s}", pl_policy_variable_space(ops) ? "true" : "false");
	}
	puts("]");
}

static int list_main(const struct cli_args *a)
{
	if (cli_flag(a, "--json"))
		list_json();
	else
		list_text();
	return 0;
}

const struct cli_command cli_command_list = {
	.name = "list",
	.summary = "list the policies with their parameters",
	.usage =
	"usage: pagelab list [--json]\n"
	"\n"
	"Lists the policies: name, title, description, parameters with their\n"
	"defaults and ranges, lists, per-page fields and counters.\n"
	"\n"
	"  --json   print the same as a JSON array\n",
	.options = list_options,
	.run = list_main,
};

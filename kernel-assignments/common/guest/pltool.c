// SPDX-License-Identifier: GPL-2.0
/*
 * pltool: the guest's shell-level helper (installed as /bin/pltool).
 *
 *   pltool result ID 0|1 MESSAGE...   signed pass/fail line (see pltest.h)
 *   pltool value ID KEY NUMBER        signed numeric line
 *   pltool exit CODE                  power off through QEMU's isa-debug-exit port
 *   pltool hmac KEYHEX MESSAGE        print HMAC-SHA256 (the grader's known-answer test)
 *
 * Exit status 2 on bad usage, with the reason on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>

#include "pltest.h"

#define DEBUG_EXIT_PORT 0xf4	/* matches -device isa-debug-exit,iobase=0xf4 */

static int usage(const char *why)
{
	fprintf(stderr, "pltool: %s\nusage: pltool result ID 0|1 MESSAGE... | value ID KEY NUMBER"
		" | exit CODE | hmac KEYHEX MESSAGE\n", why);
	return 2;
}

static int parse_number(const char *text, long long *value)
{
	char *end;

	*value = strtoll(text, &end, 0);
	return *text != '\0' && *end == '\0';
}

static int join_and_report(const char *id, int passed, int argc, char **argv)
{
	char message[PL_MESSAGE_MAX + 1] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < argc && used < sizeof(message) - 1; i++)
		used += snprintf(message + used, sizeof(message) - used, "%s%s",
				 i ? " " : "", argv[i]);
	pl_result(id, passed, "%s", message);
	return 0;
}

static int power_off(const char *code_text)
{
	long long code;

	if (!parse_number(code_text, &code) || code < 0 || code > 255)
		return usage("exit CODE must be 0..255");
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) != 0) {
		perror("pltool: ioperm");
		return 1;
	}
	outl(code, DEBUG_EXIT_PORT);
	return 1;	/* only reached without the isa-debug-exit device */
}

static int print_hmac(const char *key_hex, const char *message)
{
	unsigned char key[256], mac[32];	/* longer than a block: tests key hashing */
	size_t len = strlen(key_hex) / 2, i;

	if (strlen(key_hex) % 2 || len > sizeof(key))
		return usage("KEYHEX must be an even number of hex digits, at most 512");
	for (i = 0; i < len; i++)
		if (sscanf(key_hex + 2 * i, "%2hhx", &key[i]) != 1)
			return usage("KEYHEX holds a non-hex digit");
	pl_hmac_sha256(key, len, (const unsigned char *)message, strlen(message), mac);
	for (i = 0; i < sizeof(mac); i++)
		printf("%02x", mac[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	long long value;

	if (argc >= 4 && !strcmp(argv[1], "result")) {
		if (strcmp(argv[3], "0") && strcmp(argv[3], "1"))
			return usage("result needs 0 or 1");
		return join_and_report(argv[2], argv[3][0] == '1', argc - 4, argv + 4);
	}
	if (argc == 5 && !strcmp(argv[1], "value")) {
		if (!parse_number(argv[4], &value))
			return usage("value NUMBER is not a number");
		pl_value(argv[2], argv[3], value);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return power_off(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "hmac"))
		return print_hmac(argv[2], argv[3]);
	return usage("unknown or incomplete command");
}

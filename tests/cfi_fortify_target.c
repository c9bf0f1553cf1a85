/* SPDX-License-Identifier: MIT */
/*
 * Field-spanning write vs whole-object FORTIFY (tests/cfi.cmake builds it
 * twice: with the `fortify` config, and with glibc's _FORTIFY_SOURCE=3 alone).
 *   field N   TH_FIELD_MEMCPY(victim.name, src, N): name[16] sits right before
 *             a timer inside the same 80-byte object
 *   object N  the same memcpy, but its size checked only against the object:
 *             glibc's check, for N past the end of the object
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfi/fortify_field.h"

struct test_timer {
	void (*function)(unsigned long);
	unsigned long data;
};

/* The packet-socket shape of DESIGN.md: a name right before the timer. */
struct test_sock {
	char name[16];
	struct test_timer timer;
	long more[6];
};

static struct test_sock victim;
static char src[128];
static volatile size_t len;

int main(int argc, char **argv)
{
	char line[240];
	const char *tok;
	int n;

	if (argc != 3 || (strcmp(argv[1], "field") && strcmp(argv[1], "object"))) {
		fprintf(stderr, "usage: %s field|object N\n", argv[0]);
		return 2;
	}
	memset(src, 0x41, sizeof(src));
	len = strtoul(argv[2], NULL, 0);
	if (!strcmp(argv[1], "field"))
		TH_FIELD_MEMCPY(victim.name, src, len);
	else
		memcpy(victim.name, src, len);
	/* The runner's token (runner/contract.h) ties the lines to the run. */
	tok = getenv("TH_RUN_TOKEN");
	n = snprintf(line, sizeof(line),
		     "TH-LANDED: run=%s %s copied %zu bytes into name[16] of a %zu-byte object\n"
		     "TH-DONE: run=%s field check %s\n", tok ? tok : "-",
		     victim.timer.function ? "yes" : "no", (size_t)len, sizeof(victim), tok ? tok : "-",
#if defined(TH_FORTIFY_FIELD) && TH_FORTIFY_FIELD
		     "on"
#else
		     "off"
#endif
	);
	if (n > 0 && write(STDOUT_FILENO, line, (size_t)n) < 0)
		return 3;
	return 0;
}

// SPDX-License-Identifier: MIT
#include "opts.h"

#include <string.h>

#define MAX_OPTS 64

static bool probing;
static struct { const char *name; bool valued; } seen[MAX_OPTS];
static size_t nseen;

bool th_optname(const char *arg, const char *name, bool valued)
{
	if (probing) {
		size_t i;

		for (i = 0; i < nseen && strcmp(seen[i].name, name); i++)
			;
		if (i == nseen && nseen < MAX_OPTS) {
			seen[nseen].name = name;
			seen[nseen++].valued = valued;
		}
	}
	return !strcmp(arg, name);
}

void th_opt_probe_start(void)
{
	probing = true;
	nseen = 0;
}

size_t th_opt_probe_print(FILE *f)
{
	for (size_t i = 0; i < nseen; i++)
		fprintf(f, "%s\t%s\n", seen[i].name, seen[i].valued ? "value" : "flag");
	return nseen;
}

// SPDX-License-Identifier: MIT
#include "text.h"

#include <stdlib.h>
#include <string.h>

bool th_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list)
		return true;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

bool th_same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

unsigned th_where_line(const char *where)
{
	const char *colon = where ? strrchr(where, ':') : NULL;

	return colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
}

int th_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* SPDX-License-Identifier: MIT */
/* xalloc.h */
#define _GNU_SOURCE
#include "lib/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void oom(void)
{
	fprintf(stderr, "timerharness: out of memory\n");
	exit(1);
}

char *th_xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		oom();
	return d;
}

void *th_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *th_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		oom();
	return s;
}

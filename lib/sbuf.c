// SPDX-License-Identifier: MIT
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>

void th_sbuf_put(struct th_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (b->len + 1 >= b->n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		b->len = b->len + (size_t)w < b->n ? b->len + (size_t)w : b->n - 1;
}

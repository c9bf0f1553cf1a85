/* SPDX-License-Identifier: MIT */
/* A bounded string buffer: text appended up to its size, never past it. */
#ifndef TH_LIB_SBUF_H
#define TH_LIB_SBUF_H

#include <stddef.h>

struct th_sbuf {
	char *p;	/* n bytes, NUL-terminated once something is put */
	size_t n, len;	/* len < n: what is there */
};

/* Append printf(fmt, ...) to b; what does not fit is cut (b stays
 * NUL-terminated, len at most n - 1). A full b takes nothing. */
__attribute__((format(printf, 2, 3))) void th_sbuf_put(struct th_sbuf *b, const char *fmt, ...);

#endif

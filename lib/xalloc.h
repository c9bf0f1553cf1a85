/* SPDX-License-Identifier: MIT */
/*
 * Allocation for the command's own bookkeeping (a plan, a manifest, a list of
 * campaigns): out of memory there ends the process with one line,
 * "timerharness: out of memory", exit 1. Code that must report and go on (a
 * reader handed a file, the results model) checks its allocations instead.
 */
#ifndef TH_LIB_XALLOC_H
#define TH_LIB_XALLOC_H
#include <stddef.h>

/* A copy of @s; NULL copies as "". */
char *th_xstrdup(const char *s);
void *th_xrealloc(void *p, size_t n);
char *th_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif

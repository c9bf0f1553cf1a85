/* SPDX-License-Identifier: MIT */
/* Line scanning over a child's captured stdout/stderr (internal to cfi/). */
#ifndef TH_CFI_OBS_TEXT_H
#define TH_CFI_OBS_TEXT_H

#include <stddef.h>

#include "fortify_field.h"

/* What each defence prints on stderr: the classifier (classify.c) and the probe
 * judge (probe_judge.c) look for the same lines. */
/* cfi-icall diag mode; -fsanitize=function */
#define TH_REPORT_CFI_DIAG "control flow integrity check for type"
#define TH_REPORT_FUNCTION "through pointer to incorrect function type"
/* ASan, then the kind ("heap-buffer-overflow", "SEGV", ...) */
#define TH_REPORT_ASAN "ERROR: AddressSanitizer: "
/* UBSan array-bounds: both on one line */
#define TH_REPORT_BOUNDS "runtime error: index "
#define TH_REPORT_BOUNDS_ALSO "out of bounds"
/* TH_FIELD_MEMCPY (cfi/fortify_field.h); glibc _FORTIFY_SOURCE */
#define TH_REPORT_FIELD_SPANNING TH_FORTIFY_FIELD_REPORT
#define TH_REPORT_GLIBC_FORTIFY "*** buffer overflow detected ***"

/* Copy the line at *pos (without its '\n', truncated to n - 1) into buf and
 * advance *pos past it. Return: 0 at the end of text (or text NULL), else 1. */
int th_next_line(const char **pos, char *buf, size_t n);

/* First line of text that starts with prefix (line_start) or contains it
 * (!line_start), copied into buf. Return: 1 if found. */
int th_find_line(const char *text, const char *prefix, int line_start, char *buf, size_t n);

/* Copy s into buf with leading/trailing blanks removed, truncated with "..." at
 * n - 1. Return: buf. */
char *th_trim_copy(char *buf, size_t n, const char *s);

#endif

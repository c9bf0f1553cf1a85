/* SPDX-License-Identifier: MIT */
/*
 * Lines of a child's captured stdout/stderr (internal to cfi/). The capture is
 * bytes: it may hold NULs, end without a newline (a death, or the runner's
 * 1 MiB cut) or carry lines of any length; nothing here assumes otherwise.
 */
#ifndef TH_CFI_OBS_TEXT_H
#define TH_CFI_OBS_TEXT_H

#include <stddef.h>

#include "fortify_field.h"

/* What each defence prints on stderr: the classifier (classify.c) and the probe
 * judge (probe_judge.c) look for the same lines. */
/* cfi-icall diag mode; -fsanitize=function (after "<file>:<line>:<col>: ") */
#define TH_REPORT_RUNTIME_ERROR ": runtime error: "
#define TH_REPORT_CFI_DIAG "control flow integrity check for type"
#define TH_REPORT_FUNCTION "call to function "
#define TH_REPORT_FUNCTION_ALSO " through pointer to incorrect function type"
/* ASan: "==<pid>==ERROR: AddressSanitizer: <kind> ..." */
#define TH_REPORT_ASAN "ERROR: AddressSanitizer: "
/* UBSan array-bounds, after the location */
#define TH_REPORT_BOUNDS "index "
#define TH_REPORT_BOUNDS_ALSO " out of bounds for type "
/* TH_FIELD_MEMCPY (cfi/fortify_field.h); glibc _FORTIFY_SOURCE */
#define TH_REPORT_FIELD_SPANNING TH_FORTIFY_FIELD_REPORT
#define TH_REPORT_GLIBC_FORTIFY "*** buffer overflow detected ***"

/* One line of a capture: [p, p + len), without its '\n' (or "\r\n"). */
struct th_line {
	const char *p;
	size_t len;
	int complete;	/* ended by '\n': a line cut by a death or the cap is not */
	int has_nul;	/* holds a NUL byte */
};

/* The line at *pos (before end), *pos moved past it. Return: 0 at the end. */
int th_line_next(const char **pos, const char *end, struct th_line *l);

/* Does the line start with prefix? */
int th_line_starts(const struct th_line *l, const char *prefix);

/* Where needle first occurs in the line (NULs included), or NULL. */
const char *th_line_find(const struct th_line *l, const char *needle);

/* The line as printable text: control bytes and NUL as '?', blanks trimmed,
 * cut with "..." to fit n. Return: buf. */
char *th_line_text(const struct th_line *l, char *buf, size_t n);

/* First complete line of [text, text + len) that starts with prefix
 * (line_start) or contains it, as printable text. Return: 1 if found. */
int th_find_line(const char *text, size_t len, const char *prefix, int line_start, char *buf,
		 size_t n);

/* Copy s into buf with blanks trimmed and control bytes as '?', cut with
 * "..." at n - 1. Return: buf. */
char *th_trim_copy(char *buf, size_t n, const char *s);

#endif

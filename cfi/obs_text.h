/* SPDX-License-Identifier: MIT */
/* Line scanning over a child's captured stdout/stderr (internal to cfi/). */
#ifndef TH_CFI_OBS_TEXT_H
#define TH_CFI_OBS_TEXT_H

#include <stddef.h>

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

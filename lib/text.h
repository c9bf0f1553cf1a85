/* SPDX-License-Identifier: MIT */
/* Small string helpers of every folder. */
#ifndef TH_LIB_TEXT_H
#define TH_LIB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Is name an item of list ("a,b,c", as --config takes)? A NULL list holds
 * every name (the option was not given); an empty item matches nothing. */
bool th_list_has(const char *list, const char *name);

/* The next item of the comma list at *s, split in place (its ',' made a
 * NUL) and *s moved past it; empty items are skipped, as strtok_r(3) skips
 * them. Walk a list with: for (char *p = buf, *item; (item = th_list_split(&p));)
 * Return: the item, or NULL at the end of the list. */
char *th_list_split(char **s);

/* Is item one of the items of list, each separated from the next by sep
 * (", " in a line of names: "write_cr4, write_cr4_direct")? An empty list
 * holds nothing. */
bool th_list_has_sep(const char *list, const char *sep, const char *item);

/* The LINE of a "FILE:LINE" position (an expectation rule's); 0 when
 * where is NULL or has no ':'. */
unsigned th_where_line(const char *where);

/* qsort(3)'s comparison of two char * (by strcmp), ascending. */
int th_cmp_str(const void *a, const void *b);

/* a and b are the same string, or both NULL. */
bool th_same_str(const char *a, const char *b);

/* @s for a terminal or a log: every control byte (ESC, newline, DEL) and
 * the backslash written as \xNN and \\, never raw; the rest as it is. For
 * names and paths a user or a file gave. */
void th_put_escaped(FILE *f, const char *s);

/* th_put_escaped() into buf (n bytes, cut short and NUL-terminated).
 * Return: buf. */
char *th_escape(char *buf, size_t n, const char *s);

#endif

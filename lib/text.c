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

bool th_list_has_sep(const char *list, const char *sep, const char *item)
{
	size_t l = strlen(item), ls = strlen(sep);

	for (const char *p = list; *p;) {
		const char *e = strstr(p, sep);
		size_t w = e ? (size_t)(e - p) : strlen(p);

		if (w == l && !strncmp(p, item, l))
			return true;
		p += w + (e ? ls : 0);
	}
	return false;
}

char *th_list_split(char **s)
{
	char *p = *s, *item;

	p += strspn(p, ",");
	if (!*p) {
		*s = p;
		return NULL;
	}
	item = p;
	p += strcspn(p, ",");
	if (*p)
		*p++ = '\0';
	*s = p;
	return item;
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

void th_put_escaped(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
}

char *th_escape(char *buf, size_t n, const char *s)
{
	size_t k = 0;

	if (!n)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p && k + 1 < n; p++) {
		int w;

		if (*p == '\\')
			w = snprintf(buf + k, n - k, "\\\\");
		else if (*p < 0x20 || *p == 0x7f)
			w = snprintf(buf + k, n - k, "\\x%02x", *p);
		else
			w = snprintf(buf + k, n - k, "%c", *p);
		if (w < 0 || (size_t)w >= n - k)
			break;
		k += (size_t)w;
	}
	buf[k] = '\0';
	return buf;
}

/* SPDX-License-Identifier: MIT */
#include "obs_text.h"

#include <string.h>

int th_line_next(const char **pos, const char *end, struct th_line *l)
{
	const char *s = *pos, *nl;

	if (!s || s >= end)
		return 0;
	nl = memchr(s, '\n', (size_t)(end - s));
	l->p = s;
	l->len = nl ? (size_t)(nl - s) : (size_t)(end - s);
	l->complete = nl != NULL;
	*pos = nl ? nl + 1 : end;
	if (l->len && s[l->len - 1] == '\r')
		l->len--;
	l->has_nul = memchr(s, '\0', l->len) != NULL;
	return 1;
}

int th_line_starts(const struct th_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->p, prefix, n);
}

const char *th_line_find(const struct th_line *l, const char *needle)
{
	size_t n = strlen(needle);

	if (!n || n > l->len)
		return n ? NULL : l->p;
	for (size_t i = 0; i + n <= l->len; i++)
		if (l->p[i] == needle[0] && !memcmp(l->p + i, needle, n))
			return l->p + i;
	return NULL;
}

/* Printable copy of [s, s + len) into buf (n > 0), trimmed, cut with "...". */
static char *text_copy(char *buf, size_t n, const char *s, size_t len)
{
	size_t o = 0;

	if (!n)
		return buf;
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n'))
		len--;
	for (size_t i = 0; i < len && o + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[o] = 0;
	if (o < len && n > 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

char *th_line_text(const struct th_line *l, char *buf, size_t n)
{
	return text_copy(buf, n, l->p, l->len);
}

int th_find_line(const char *text, size_t len, const char *prefix, int line_start, char *buf,
		 size_t n)
{
	const char *pos = text, *end = text ? text + len : NULL;
	struct th_line l;

	while (th_line_next(&pos, end, &l)) {
		if (!l.complete)
			continue;
		if (line_start ? th_line_starts(&l, prefix) : th_line_find(&l, prefix) != NULL) {
			th_line_text(&l, buf, n);
			return 1;
		}
	}
	return 0;
}

char *th_trim_copy(char *buf, size_t n, const char *s)
{
	char tmp[4096];
	size_t len = strlen(s);

	/* s may point into buf. */
	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, s, len);
	tmp[len] = 0;
	return text_copy(buf, n, tmp, len);
}

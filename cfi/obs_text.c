/* SPDX-License-Identifier: MIT */
#include "obs_text.h"

#include <string.h>

int th_next_line(const char **pos, char *buf, size_t n)
{
	const char *s = *pos, *end;
	size_t len;

	if (!s || !*s)
		return 0;
	end = strchr(s, '\n');
	len = end ? (size_t)(end - s) : strlen(s);
	*pos = end ? end + 1 : s + len;
	if (len && s[len - 1] == '\r')
		len--;
	if (n) {
		size_t c = len < n - 1 ? len : n - 1;

		memcpy(buf, s, c);
		buf[c] = 0;
	}
	return 1;
}

int th_find_line(const char *text, const char *prefix, int line_start, char *buf, size_t n)
{
	const char *pos = text;
	char line[1024];

	while (th_next_line(&pos, line, sizeof(line))) {
		if (line_start ? !strncmp(line, prefix, strlen(prefix)) : !!strstr(line, prefix)) {
			th_trim_copy(buf, n, line);
			return 1;
		}
	}
	return 0;
}

char *th_trim_copy(char *buf, size_t n, const char *s)
{
	size_t len;

	if (!n)
		return buf;
	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n'))
		len--;
	if (len < n) {
		memmove(buf, s, len); /* s may point into buf */
		buf[len] = 0;
	} else {
		memmove(buf, s, n - 1);
		buf[n - 1] = 0;
		if (n > 4)
			memcpy(buf + n - 4, "...", 3);
	}
	return buf;
}

/* SPDX-License-Identifier: MIT */
/* The project's TSV reader: tsv.h. */
#define _POSIX_C_SOURCE 200809L
#include "lib/tsv.h"
#include "lib/fs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int th_tsv_init(struct th_tsv *t, FILE *f, const char *path, char *err, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->f = f;
	if (!(t->path = strdup(path ? path : "(stream)"))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	return 0;
}

int th_tsv_open(struct th_tsv *t, const char *path, char *err, size_t n)
{
	const char *why;
	/* Never blocks: a FIFO, a device or a directory is refused, said. */
	FILE *f = th_fopen_read(path, "r", &why);

	if (!f) {
		int e = errno;

		memset(t, 0, sizeof(*t));
		snprintf(err, n, "%s: %s", path, why);
		errno = e;
		return -1;
	}
	if (th_tsv_init(t, f, path, err, n)) {
		fclose(f);
		return -1;
	}
	t->own = 1;
	return 0;
}

int th_tsv_fail(const struct th_tsv *t, char *err, size_t n, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, n, "%s:%lu: %s", t->path, t->line, what);
	return -1;
}

int th_tsv_next(struct th_tsv *t, char *err, size_t n)
{
	ssize_t got;

	for (;;) {
		size_t len;

		errno = 0;
		got = getline(&t->buf, &t->cap, t->f);
		if (got < 0) {
			if (ferror(t->f) || (errno && errno != EINVAL)) {
				if (errno == ENOMEM) {
					snprintf(err, n, "%s:%lu: out of memory", t->path, t->line + 1);
					return -1;
				}
				snprintf(err, n, "%s: read error after line %lu: %s", t->path, t->line,
					 strerror(errno ? errno : EIO));
				return -1;
			}
			return 0;
		}
		t->line++;
		t->raw = t->buf;
		t->raw_len = (size_t)got;
		len = (size_t)got;
		if (strlen(t->buf) != len)
			return th_tsv_fail(t, err, n, "NUL byte in the line");
		/* raw and the row share buf: a hash reads raw before the row is
		 * split (th_tsv_fields() ends it at its line ending). */
		if (len && t->buf[len - 1] == '\n')
			len--;
		if (len && t->buf[len - 1] == '\r')
			len--;
		t->len = len;
		if (!t->keep_comments && (!len || t->buf[0] == '#' || strspn(t->buf, " \t") >= len))
			continue;
		return 1;
	}
}

/* The row without its line ending, cut in place (raw then ends there too:
 * read it before splitting). */
static char *row(struct th_tsv *t)
{
	t->buf[t->len] = 0;
	return t->buf;
}

int th_tsv_split(struct th_tsv *t, char **f, int max, char *err, size_t n)
{
	char *p = row(t);
	int k = 0;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (k == max)
			return th_tsv_fail(t, err, n, "more than %d TAB-separated fields", max);
		f[k++] = p;
		if (!tab)
			return k;
		*tab = 0;
		p = tab + 1;
	}
}

int th_tsv_fields(struct th_tsv *t, char **f, int nf, const char *names, char *err, size_t n)
{
	char *p = row(t);
	int k = 1;

	for (const char *q = p; (q = strchr(q, '\t')); q++)
		k++;
	if (k != nf)
		return th_tsv_fail(t, err, n, "%d TAB-separated field%s, expected %d (%s)", k,
				   k == 1 ? "" : "s", nf, names);
	return th_tsv_split(t, f, nf, err, n) == nf ? 0 : -1;
}

void th_tsv_close(struct th_tsv *t)
{
	if (t->own && t->f)
		fclose(t->f);
	free(t->buf);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

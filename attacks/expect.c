/* SPDX-License-Identifier: MIT */
#include "expect.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/outcome.h"
#include "sha256.h"

enum { COL_ATTACK, COL_VARIANT, COL_CONFIG, COL_TOOLCHAIN, COL_OUTCOME, COL_REASON, NCOLS };
static const char *const col_names[NCOLS] = { "attack", "variant", "config",
					       "toolchain", "outcome", "reason" };

struct rule {
	char *col[NCOLS];
	char where[300];	/* FILE:LINE */
};

static struct {
	struct rule *rules;
	size_t n, cap;
	char *path;
	char sha256[65];	/* of every byte read */
} table;

void th_expect_free(void)
{
	for (size_t i = 0; i < table.n; i++)
		free(table.rules[i].col[0]);	/* one allocation per rule */
	free(table.rules);
	free(table.path);
	memset(&table, 0, sizeof(table));
}

const char *th_expect_path(void)
{
	return table.path;
}

const char *th_expect_sha256(void)
{
	return table.n ? table.sha256 : NULL;
}

size_t th_expect_count(void)
{
	return table.n;
}

/* An outcome of the vocabulary (report/outcome.h), but not HARNESS_ERROR:
 * that says the harness failed, never what an attack should do. */
static int valid_outcome(const char *s)
{
	enum th_outcome o = th_outcome_parse(s);

	return o != TH_OUTCOME_INVALID && o != TH_HARNESS_ERROR;
}

/* "HIJACKED PRIVILEGED_WRITE ... NOT_APPLICABLE" for the error message. */
static void outcome_list(char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int o = 0; o < TH_OUTCOME_COUNT && len < n; o++)
		if (o != TH_HARNESS_ERROR)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "",
						th_outcome_name((enum th_outcome)o));
}

/* A glob column: comma-separated fnmatch(3) patterns, none empty. */
static int valid_globs(const char *s)
{
	const char *p = s;

	if (!*s)
		return 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!len)
			return 0;
		if (!p[len])
			return 1;
		p += len + 1;
	}
}

static int glob_match(const char *globs, const char *s)
{
	char pat[256];
	const char *p = globs;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len < sizeof(pat)) {
			memcpy(pat, p, len);
			pat[len] = 0;
			if (!fnmatch(pat, s, 0))
				return 1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

__attribute__((format(printf, 5, 6))) static int fail(char *err, size_t n, const char *path,
							unsigned long line, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, n, "%s:%lu: %s", path, line, what);
	return -1;
}

/* Parse one non-comment line into r (takes ownership of text). */
static int parse_line(char *text, struct rule *r, const char *path, unsigned long line,
		      char *err, size_t n)
{
	char *p = text;
	int i;

	for (i = 0; i < NCOLS; i++) {
		char *tab = strchr(p, '\t');

		r->col[i] = p;
		if (i == NCOLS - 1)
			break;
		if (!tab)
			return fail(err, n, path, line,
				    "%d TAB-separated field(s), expected 6: attack variant config toolchain outcome reason (missing '%s')",
				    i + 1, col_names[i + 1]);
		*tab = 0;
		p = tab + 1;
	}
	if (strchr(r->col[COL_REASON], '\t'))
		return fail(err, n, path, line,
			    "more than 6 TAB-separated fields (a TAB inside the reason?)");
	for (i = 0; i < COL_OUTCOME; i++)
		if (!valid_globs(r->col[i]))
			return fail(err, n, path, line,
				    "empty %s glob '%s' (use * for any; comma-separated alternatives must not be empty)",
				    col_names[i], r->col[i]);
	if (!valid_outcome(r->col[COL_OUTCOME])) {
		char names[256];

		outcome_list(names, sizeof(names));
		return fail(err, n, path, line, "unknown outcome '%.40s' (one of %s)",
			    r->col[COL_OUTCOME], names);
	}
	if (!*r->col[COL_REASON])
		return fail(err, n, path, line, "empty reason: say why this outcome is expected");
	return 0;
}

int th_expect_load(const char *path, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long line = 0;
	struct th_sha256 h;

	if (!f) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return -1;
	}
	th_expect_free();
	th_sha256_init(&h);
	while ((len = getline(&buf, &cap, f)) >= 0) {
		struct rule r;
		char *s;

		th_sha256_update(&h, buf, (size_t)len);
		line++;
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = 0;
		if (!len || buf[0] == '#')
			continue;
		if (strspn(buf, " \t") == (size_t)len)
			continue;
		if (strlen(buf) != (size_t)len) {
			fail(err, n, path, line, "NUL byte in the line");
			goto bad;
		}
		s = strdup(buf);
		if (!s) {
			snprintf(err, n, "%s:%lu: out of memory", path, line);
			goto bad;
		}
		memset(&r, 0, sizeof(r));
		if (parse_line(s, &r, path, line, err, n)) {
			free(s);
			goto bad;
		}
		snprintf(r.where, sizeof(r.where), "%s:%lu", path, line);
		if (table.n == table.cap) {
			size_t ncap = table.cap ? 2 * table.cap : 64;
			struct rule *nr = realloc(table.rules, ncap * sizeof(*nr));

			if (!nr) {
				free(s);
				snprintf(err, n, "%s:%lu: out of memory", path, line);
				goto bad;
			}
			table.rules = nr;
			table.cap = ncap;
		}
		table.rules[table.n++] = r;
	}
	if (ferror(f)) {
		snprintf(err, n, "%s: read error: %s", path, strerror(errno));
		goto bad;
	}
	free(buf);
	fclose(f);
	if (!table.n) {
		snprintf(err, n, "%s:%lu: no rules (every line is a comment or blank)", path, line);
		return -1;
	}
	th_sha256_hex(&h, table.sha256);
	if (!(table.path = strdup(path))) {
		snprintf(err, n, "%s: out of memory", path);
		th_expect_free();
		return -1;
	}
	return 0;
bad:
	free(buf);
	fclose(f);
	th_expect_free();
	return -1;
}

static const struct rule *find(const char *attack, const char *variant, const char *config,
			       const char *toolchain)
{
	const char *cell[COL_OUTCOME] = { attack, variant, config, toolchain };

	for (size_t i = 0; i < table.n; i++) {
		int c;

		for (c = 0; c < COL_OUTCOME; c++)
			if (!cell[c] || !glob_match(table.rules[i].col[c], cell[c]))
				break;
		if (c == COL_OUTCOME)
			return &table.rules[i];
	}
	return NULL;
}

const char *th_expect_lookup(const char *attack, const char *variant, const char *config,
			     const char *toolchain, const char **reason)
{
	const struct rule *r = find(attack, variant, config, toolchain);

	if (reason)
		*reason = r ? r->col[COL_REASON] : NULL;
	return r ? r->col[COL_OUTCOME] : NULL;
}

const char *th_expect_where(const char *attack, const char *variant, const char *config,
			    const char *toolchain)
{
	const struct rule *r = find(attack, variant, config, toolchain);

	return r ? r->where : NULL;
}

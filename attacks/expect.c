/* SPDX-License-Identifier: MIT */
#include "expect.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/difference.h"
#include "results/outcome.h"
#include "results/results.h"
#include "sha256.h"
#include "lib/tsv.h"

enum { COL_ATTACK, COL_VARIANT, COL_CONFIG, COL_TOOLCHAIN, COL_OUTCOME, COL_REASON, NCOLS };
static const char *const col_names[NCOLS] = { "attack", "variant", "config",
					       "toolchain", "outcome", "reason" };

struct rule {
	char *col[NCOLS];
	th_outcome_set set;	/* the outcome column: one outcome, or a set */
	const char *platform;	/* the @platform globs it is under (table.platforms) */
	char where[300];	/* FILE:LINE */
};

/* A declared difference: attack variant config toolchain MODEL KERNEL reason. */
enum { DCOL_MODEL = COL_OUTCOME, DCOL_KERNEL, DCOL_REASON, NDCOLS };

struct difference {
	char *col[NDCOLS];
	const char *platform;	/* the @platform globs it is under */
	char where[300];
	struct th_check_difference pub;
};

static struct {
	struct rule *rules;
	size_t n, cap;
	struct difference *diffs;
	size_t ndiffs, capdiffs;
	char **platforms;	/* every @platform's globs, owned */
	size_t nplatforms, capplatforms;
	char *path;
	char sha256[65];	/* of every byte read */
} table;

void th_expect_free(void)
{
	for (size_t i = 0; i < table.n; i++)
		free(table.rules[i].col[0]);	/* one allocation per rule */
	free(table.rules);
	for (size_t i = 0; i < table.ndiffs; i++)
		free(table.diffs[i].col[0]);
	free(table.diffs);
	for (size_t i = 0; i < table.nplatforms; i++)
		free(table.platforms[i]);
	free(table.platforms);
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

static int glob_match(const char *globs, const char *s);

size_t th_expect_count_on(const char *platform)
{
	size_t n = 0;

	for (size_t i = 0; i < table.n; i++)
		n += glob_match(table.rules[i].platform, platform ? platform : "model");
	return n;
}

/* An outcome of the vocabulary (results/outcome.h), but not HARNESS_ERROR:
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

/* The row's fields (lib/tsv.h split them in its buffer), copied into one
 * block the rule owns (col[0] is it), then the four cell globs checked;
 * names[] for the messages. Return: 0, or -1 via fail(). */
static int own_fields(char **col, int ncols, const char *const *names, const char *path,
		      unsigned long line, char *err, size_t n)
{
	size_t total = 0;
	char *block, *p;

	for (int i = 0; i < ncols; i++)
		total += strlen(col[i]) + 1;
	if (!(block = p = malloc(total)))
		return fail(err, n, path, line, "out of memory");
	for (int i = 0; i < ncols; i++) {
		size_t len = strlen(col[i]) + 1;

		memcpy(p, col[i], len);
		col[i] = p;
		p += len;
	}
	for (int i = 0; i < COL_OUTCOME; i++)
		if (!valid_globs(col[i])) {
			fail(err, n, path, line,
			     "empty %s glob '%s' (use * for any; comma-separated alternatives must not be empty)",
			     names[i], col[i]);
			free(block);
			return -1;
		}
	return 0;
}

static int outcome_col(const char *s, const char *which, const char *path, unsigned long line,
		       char *err, size_t n)
{
	char names[256];

	if (valid_outcome(s))
		return 0;
	if (strchr(s, '|'))
		return fail(err, n, path, line, "a set of %soutcomes '%.60s' in a @differs row: it "
			    "declares the one outcome observed on each side", which, s);
	outcome_list(names, sizeof(names));
	return fail(err, n, path, line, "unknown %soutcome '%.40s' (one of %s)", which, s, names);
}

/* A rule's outcome column: one outcome, or a set "HIJACKED|CRASHED". */
static int outcome_set_col(const char *s, th_outcome_set *set, const char *path,
			   unsigned long line, char *err, size_t n)
{
	char why[300], names[256];

	if (!th_outcome_set_parse(s, set, why, sizeof(why)))
		return 0;
	if (!strncmp(why, "unknown outcome", 15)) {
		outcome_list(names, sizeof(names));
		return fail(err, n, path, line, "%s (one of %s; a probabilistic cell's set joins "
			    "them with '|', most severe first)", why, names);
	}
	return fail(err, n, path, line, "%s", why);
}

/* One rule from its row's fields (r->col, split by th_tsv_fields()): r owns
 * them on success. */
static int parse_line(struct rule *r, const char *path, unsigned long line, char *err, size_t n)
{
	if (own_fields(r->col, NCOLS, col_names, path, line, err, n))
		return -1;
	if (outcome_set_col(r->col[COL_OUTCOME], &r->set, path, line, err, n) ||
	    (!*r->col[COL_REASON] &&
	     fail(err, n, path, line, "empty reason: say why this outcome is expected"))) {
		free(r->col[0]);
		return -1;
	}
	return 0;
}

static const char *const dcol_names[NDCOLS] = { "attack", "variant", "config", "toolchain",
						"model_outcome", "kernel_outcome", "reason" };

/* One row of a @differs section from its fields (d->col): d owns them on
 * success. */
static int parse_difference(struct difference *d, const char *path, unsigned long line,
			    char *err, size_t n)
{
	if (own_fields(d->col, NDCOLS, dcol_names, path, line, err, n))
		return -1;
	if (outcome_col(d->col[DCOL_MODEL], "model ", path, line, err, n) ||
	    outcome_col(d->col[DCOL_KERNEL], "kernel ", path, line, err, n))
		goto bad;
	if (!strcmp(d->col[DCOL_MODEL], d->col[DCOL_KERNEL])) {
		fail(err, n, path, line, "model and kernel outcomes are both %s: that is no "
		     "difference (a @differs row declares two different outcomes)", d->col[DCOL_MODEL]);
		goto bad;
	}
	if (!*d->col[DCOL_REASON]) {
		fail(err, n, path, line, "empty reason: say why the real kernel differs from the model");
		goto bad;
	}
	return 0;
bad:
	free(d->col[0]);
	return -1;
}

/* A directive: "@platform GLOBS" (the rules that follow apply to those
 * platforms) or "@differs" (declared differences follow). */
static int directive(char *line_text, const char **platform, int *differs, const char *path,
		     unsigned long line, char *err, size_t n)
{
	char *arg = line_text + strcspn(line_text, " \t");
	size_t kw = (size_t)(arg - line_text);

	arg += strspn(arg, " \t");
	if (kw == 9 && !strncmp(line_text, "@platform", 9)) {
		char *copy;

		if (!*arg || strpbrk(arg, " \t") || !valid_globs(arg))
			return fail(err, n, path, line, "@platform needs one glob of platforms, like "
				    "'@platform linux-6.1.*' (comma-separated alternatives, no blank)");
		if (table.nplatforms == table.capplatforms) {
			size_t ncap = table.capplatforms ? 2 * table.capplatforms : 8;
			char **np = realloc(table.platforms, ncap * sizeof(*np));

			if (!np)
				return fail(err, n, path, line, "out of memory");
			table.platforms = np;
			table.capplatforms = ncap;
		}
		if (!(copy = strdup(arg)))
			return fail(err, n, path, line, "out of memory");
		table.platforms[table.nplatforms++] = copy;
		*platform = copy;
		*differs = 0;
		return 0;
	}
	if (kw == 8 && !strncmp(line_text, "@differs", 8)) {
		if (*arg)
			return fail(err, n, path, line, "@differs takes nothing after it (its rows follow, "
				    "under the @platform before it)");
		if (!strcmp(*platform, "model"))
			return fail(err, n, path, line, "@differs before any @platform: say first which "
				    "real-kernel platforms differ from the model ('@platform linux-*')");
		if (glob_match(*platform, "model"))
			return fail(err, n, path, line, "@differs under '@platform %s', which matches the "
				    "model itself: the model cannot differ from itself", *platform);
		*differs = 1;
		return 0;
	}
	return fail(err, n, path, line, "unknown directive '%.*s' (@platform GLOB, @differs)",
		    (int)(kw > 40 ? 40 : kw), line_text);
}

int th_expect_load(const char *path, char *err, size_t n)
{
	struct th_tsv t;
	struct th_sha256 h;
	/* Before any @platform, rules are the model's. */
	const char *platform = "model";
	int differs = 0, got;

	if (th_tsv_open(&t, path, err, n))
		return -1;
	/* Every line goes into the hash, comments too. */
	t.keep_comments = 1;
	th_expect_free();
	th_sha256_init(&h);
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		const unsigned long line = t.line;
		struct rule r;

		th_sha256_update(&h, t.raw, t.raw_len);
		if (!t.len || t.buf[0] == '#' || strspn(t.buf, " \t") >= t.len)
			continue;
		if (t.buf[0] == '@') {
			t.buf[t.len] = 0;
			if (directive(t.buf, &platform, &differs, path, line, err, n))
				goto bad;
			continue;
		}
		if (differs) {
			struct difference d;

			memset(&d, 0, sizeof(d));
			if (th_tsv_fields(&t, d.col, NDCOLS, "attack variant config toolchain "
					  "model_outcome kernel_outcome reason, in a @differs section",
					  err, n) ||
			    parse_difference(&d, path, line, err, n))
				goto bad;
			snprintf(d.where, sizeof(d.where), "%s:%lu", path, line);
			d.platform = platform;
			if (table.ndiffs == table.capdiffs) {
				size_t ncap = table.capdiffs ? 2 * table.capdiffs : 16;
				struct difference *nd = realloc(table.diffs, ncap * sizeof(*nd));

				if (!nd) {
					free(d.col[0]);
					snprintf(err, n, "%s:%lu: out of memory", path, line);
					goto bad;
				}
				table.diffs = nd;
				table.capdiffs = ncap;
			}
			table.diffs[table.ndiffs++] = d;
			continue;
		}
		memset(&r, 0, sizeof(r));
		if (th_tsv_fields(&t, r.col, NCOLS, "attack variant config toolchain outcome reason",
				  err, n) ||
		    parse_line(&r, path, line, err, n))
			goto bad;
		snprintf(r.where, sizeof(r.where), "%s:%lu", path, line);
		r.platform = platform;
		if (table.n == table.cap) {
			size_t ncap = table.cap ? 2 * table.cap : 64;
			struct rule *nr = realloc(table.rules, ncap * sizeof(*nr));

			if (!nr) {
				free(r.col[0]);
				snprintf(err, n, "%s:%lu: out of memory", path, line);
				goto bad;
			}
			table.rules = nr;
			table.cap = ncap;
		}
		table.rules[table.n++] = r;
	}
	if (got < 0)
		goto bad;
	if (!table.n) {
		snprintf(err, n, "%s:%lu: no rules (every line is a comment or blank)", path, t.line);
		goto bad;
	}
	th_tsv_close(&t);
	th_sha256_hex(&h, table.sha256);
	if (!(table.path = strdup(path))) {
		snprintf(err, n, "%s: out of memory", path);
		th_expect_free();
		return -1;
	}
	return 0;
bad:
	th_tsv_close(&t);
	th_expect_free();
	return -1;
}

/* Do the four cell globs of col match the cell? */
static int cell_match(char *const *col, const char *attack, const char *variant,
		      const char *config, const char *toolchain)
{
	const char *cell[COL_OUTCOME] = { attack, variant, config, toolchain };

	for (int c = 0; c < COL_OUTCOME; c++)
		if (!cell[c] || !glob_match(col[c], cell[c]))
			return 0;
	return 1;
}

static const struct rule *find(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain)
{
	if (!platform)
		platform = "model";
	for (size_t i = 0; i < table.n; i++)
		if (glob_match(table.rules[i].platform, platform) &&
		    cell_match(table.rules[i].col, attack, variant, config, toolchain))
			return &table.rules[i];
	return NULL;
}

const char *th_expect_lookup_on(const char *platform, const char *attack, const char *variant,
				const char *config, const char *toolchain, const char **reason)
{
	const struct rule *r = find(platform, attack, variant, config, toolchain);

	if (reason)
		*reason = r ? r->col[COL_REASON] : NULL;
	return r ? r->col[COL_OUTCOME] : NULL;
}

th_outcome_set th_expect_set_on(const char *platform, const char *attack, const char *variant,
				const char *config, const char *toolchain)
{
	const struct rule *r = find(platform, attack, variant, config, toolchain);

	return r ? r->set : 0;
}

const char *th_expect_where_on(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain)
{
	const struct rule *r = find(platform, attack, variant, config, toolchain);

	return r ? r->where : NULL;
}

const char *th_expect_lookup(const char *attack, const char *variant, const char *config,
			     const char *toolchain, const char **reason)
{
	return th_expect_lookup_on("model", attack, variant, config, toolchain, reason);
}

const char *th_expect_outcome_on(const char *platform, const char *attack, const char *variant,
				 const char *config, const char *toolchain)
{
	return th_expect_lookup_on(platform, attack, variant, config, toolchain, NULL);
}

const char *th_expect_where(const char *attack, const char *variant, const char *config,
			    const char *toolchain)
{
	return th_expect_where_on("model", attack, variant, config, toolchain);
}

/* ---- declared differences between a real kernel and the model ---- */

size_t th_expect_difference_count(void)
{
	return table.ndiffs;
}

const struct th_check_difference *th_expect_difference(size_t i)
{
	struct difference *d;

	if (i >= table.ndiffs)
		return NULL;
	d = &table.diffs[i];
	d->pub = (struct th_check_difference){
		.platforms = d->platform,
		.attack = d->col[COL_ATTACK], .variant = d->col[COL_VARIANT],
		.config = d->col[COL_CONFIG], .toolchain = d->col[COL_TOOLCHAIN],
		.model = d->col[DCOL_MODEL], .kernel = d->col[DCOL_KERNEL],
		.reason = d->col[DCOL_REASON], .where = d->where,
	};
	return &d->pub;
}

bool th_expect_difference_on(size_t i, const char *platform)
{
	const struct th_check_difference *d = th_expect_difference(i);

	return d && platform && glob_match(d->platforms, platform);
}

long th_expect_differs(const char *platform, const char *attack, const char *variant,
		       const char *config, const char *toolchain)
{
	for (size_t i = 0; i < table.ndiffs; i++)
		if (th_expect_difference_on(i, platform) &&
		    cell_match(table.diffs[i].col, attack, variant, config, toolchain))
			return (long)i;
	return -1;
}

bool th_expect_declared_difference(void *ctx, const char *platform, const char *attack,
				   const char *variant, const char *config, const char *toolchain,
				   enum th_outcome model, enum th_outcome kernel,
				   const char **reason, const char **rule)
{
	long i = th_expect_differs(platform, attack, variant, config, toolchain);
	const struct th_check_difference *d = i >= 0 ? th_expect_difference((size_t)i) : NULL;

	(void)ctx;
	if (!d || model == kernel || th_outcome_parse(d->model) != model ||
	    th_outcome_parse(d->kernel) != kernel)
		return false;
	*reason = d->reason;
	*rule = d->where;
	return true;
}

int th_expect_judge_results(struct th_results *res, char *err, size_t n)
{
	char e[512];

	if (!table.n)
		return snprintf(err, n, "no expectations loaded"), -1;
	if (res->expect_sha256 && strcmp(res->expect_sha256, table.sha256))
		return snprintf(err, n, "the results were judged by %s (sha256 %.12s), not by %s "
				"(sha256 %.12s): judge them by one file", res->expect_path,
				res->expect_sha256, table.path, table.sha256), -1;
	if (!res->expect_sha256 &&
	    th_results_set_expectations(res, table.path, table.sha256, e, sizeof(e)))
		return snprintf(err, n, "%s", e), -1;
	for (size_t i = 0; i < res->ncells; i++) {
		struct th_cell *c = res->cells[i];
		const char *v = th_variant_name(c->variant);
		th_outcome_set set = th_expect_set_on(c->platform, c->attack, v, c->config, c->toolchain);
		const char *w = th_expect_where_on(c->platform, c->attack, v, c->config, c->toolchain);
		const char *colon = w ? strrchr(w, ':') : NULL;

		c->expected = th_outcome_set_worst(set);
		c->expected_set = th_outcome_set_size(set) > 1 ? set : 0;
		c->expected_line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
		c->verdict = th_cell_verdict(c, TH_OUTCOME_INVALID);
	}
	if (th_results_set_agreement(res, th_expect_declared_difference, NULL, e, sizeof(e)))
		return snprintf(err, n, "%s", e), -1;
	return 0;
}

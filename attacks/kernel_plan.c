/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kernel_plan.h"
#include "lib/tsv.h"
#include "results/results.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((format(printf, 4, 5))) static int fail(char *err, size_t n, const char *where,
						       const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, n, "%s: %s", where, what);
	return -1;
}

void th_kernel_plan_free(struct th_kernel_plan *p)
{
	for (size_t i = 0; i < p->nlines_; i++)
		free(p->lines_[i]);
	free(p->lines_);
	free(p->cells);
	free(p->attacks);
	free(p->variants);
	for (size_t i = 0; i < p->nconfigs; i++)
		free((char *)p->configs[i]);
	free(p->configs);
	free(p->cells_path);
	free(p->builds);
	memset(p, 0, sizeof(*p));
}

static int upper_id(const char *s)
{
	if (!isupper((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * Every kernel of kernel/kernels.tsv is 6.1 or 6.12: the timer_list of
 * 4.15+ (fn(timer), no .data: the model's modern timer) and the
 * tasklet_struct of 5.9+ (include/linux/interrupt.h: use_callback, and the
 * union of callback and func with data kept; kernel/softirq.c
 * tasklet_action_common() calls either: the model's transitional tasklet).
 * A kernel before 5.9, or after the tasklet's func and data are removed,
 * would have another generation of it.
 */
const char *th_kernel_variant(const char *api)
{
	switch (th_api_parse(api)) {
	case TH_API_TIMER:
		return "modern";
	case TH_API_TASKLET:
		return "transitional";
	default:
		return NULL;
	}
}

static int load_cells(struct th_kernel_plan *p, char *err, size_t n)
{
	static const char *const names[] = { "attack", "technique", "timing", "payload", "api" };
	struct th_tsv t;
	char where[4200];
	size_t capcells = 0;
	int rc = -1, got;

	if (th_tsv_open(&t, p->cells_path, err, n))
		return -1;
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		char *col[5], *s;
		const char *variant;
		int i;

		snprintf(where, sizeof(where), "%s:%lu", p->cells_path, t.line);
		if (th_tsv_fields(&t, col, 5, "attack technique timing payload api", err, n))
			goto out;
		/* The plan keeps its rows: the cells point into them. */
		if (!(s = malloc(t.len + 1))) {
			fail(err, n, where, "out of memory");
			goto out;
		}
		memcpy(s, t.buf, t.len + 1);
		for (i = 0; i < 5; i++)
			col[i] = s + (col[i] - t.buf);
		if (p->nlines_ % 64 == 0) {
			char **nl = realloc(p->lines_, (p->nlines_ + 64) * sizeof(*nl));

			if (!nl) {
				free(s);
				fail(err, n, where, "out of memory");
				goto out;
			}
			p->lines_ = nl;
		}
		p->lines_[p->nlines_++] = s;
		if (!upper_id(col[0])) {
			fail(err, n, where, "attack '%.60s' is not an upper-case ID ([A-Z][A-Z0-9_]*)", col[0]);
			goto out;
		}
		for (i = 1; i < 5; i++)
			if (!name_ok(col[i])) {
				fail(err, n, where, "empty %s, or one with a blank", names[i]);
				goto out;
			}
		if (strcmp(col[2], "before-arm") && strcmp(col[2], "pending") && strcmp(col[2], "-")) {
			fail(err, n, where, "unknown timing '%.40s' (before-arm, pending or -)", col[2]);
			goto out;
		}
		if (!(variant = th_kernel_variant(col[4]))) {
			fail(err, n, where, "unknown api '%.40s' (%s)", col[4], th_api_names());
			goto out;
		}
		for (size_t k = 0; k < p->ncells; k++)
			if (!strcmp(p->cells[k].attack, col[0])) {
				fail(err, n, where, "%s is planned twice (first on line %u)", col[0],
				     p->cells[k].line);
				goto out;
			}
		if (p->ncells == capcells) {
			size_t nc = capcells ? 2 * capcells : 32;
			struct th_kernel_cell *c = realloc(p->cells, nc * sizeof(*c));

			if (!c) {
				fail(err, n, where, "out of memory");
				goto out;
			}
			p->cells = c;
			capcells = nc;
		}
		p->cells[p->ncells++] = (struct th_kernel_cell){
			col[0], col[1], col[2], col[3], col[4], variant, (unsigned)t.line,
		};
	}
	if (got < 0)
		goto out;
	if (!p->ncells) {
		fail(err, n, p->cells_path, "no cell (every line is a comment or blank)");
		goto out;
	}
	rc = 0;
out:
	th_tsv_close(&t);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int load_configs(struct th_kernel_plan *p, const char *dir, char *err, size_t n)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	size_t cap = 0;

	snprintf(path, sizeof(path), "%s/configs", dir);
	if (!(d = opendir(path)))
		return fail(err, n, path, "%s", strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char full[4400], *name;
		struct stat st;

		if (len <= 7 || strcmp(e->d_name + len - 7, ".config") || e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		if (stat(full, &st) || !S_ISREG(st.st_mode))
			continue;
		if (len == 11 && !strncmp(e->d_name, "base", 4))
			continue;	/* what every config adds to, not a config */
		if (!(name = strndup(e->d_name, len - 7)) || !name_ok(name)) {
			free(name);
			closedir(d);
			return fail(err, n, full, "not a kernel config name (a blank in it?)");
		}
		if (p->nconfigs == cap) {
			size_t nc = cap ? 2 * cap : 8;
			const char **c = realloc(p->configs, nc * sizeof(*c));

			if (!c) {
				free(name);
				closedir(d);
				return fail(err, n, path, "out of memory");
			}
			p->configs = c;
			cap = nc;
		}
		p->configs[p->nconfigs++] = name;
	}
	closedir(d);
	if (!p->nconfigs)
		return fail(err, n, path, "no kernel config (a <name>.config file besides base.config)");
	qsort(p->configs, p->nconfigs, sizeof(*p->configs), cmp_str);
	return 0;
}

/* A row kept by the plan (its fields point into it). */
static char *keep_row(struct th_kernel_plan *p, const struct th_tsv *t)
{
	char *s;

	if (p->nlines_ % 64 == 0) {
		char **nl = realloc(p->lines_, (p->nlines_ + 64) * sizeof(*nl));

		if (!nl)
			return NULL;
		p->lines_ = nl;
	}
	if (!(s = malloc(t->len + 1)))
		return NULL;
	memcpy(s, t->buf, t->len + 1);
	p->lines_[p->nlines_++] = s;
	return s;
}

static int add_config(struct th_kernel_plan *p, const char *name, size_t *cap)
{
	char *c;

	for (size_t i = 0; i < p->nconfigs; i++)
		if (!strcmp(p->configs[i], name))
			return 0;
	if (p->nconfigs == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		const char **cs = realloc(p->configs, nc * sizeof(*cs));

		if (!cs)
			return -1;
		p->configs = cs;
		*cap = nc;
	}
	if (!(c = strdup(name)))
		return -1;
	p->configs[p->nconfigs++] = c;
	return 0;
}

/* DIR/kernels.tsv: 1 read, 0 there is none, -1 with err set. */
static int load_builds(struct th_kernel_plan *p, const char *dir, char *err, size_t n)
{
	static const char *const names[] = { "release", "source", "config", "fragment", "boot" };
	char path[4096], where[4200];
	struct th_tsv t;
	size_t cap = 0, capb = 0;
	int rc = -1, got;
	struct stat st;

	snprintf(path, sizeof(path), "%s/kernels.tsv", dir);
	if (stat(path, &st) && errno == ENOENT)
		return 0;
	if (th_tsv_open(&t, path, err, n))
		return -1;
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		char *col[5], *s, frag[4400];
		struct stat fs;
		int i;

		snprintf(where, sizeof(where), "%s:%lu", path, t.line);
		if (th_tsv_fields(&t, col, 5, "release source config fragment boot", err, n))
			goto out;
		if (!(s = keep_row(p, &t))) {
			fail(err, n, where, "out of memory");
			goto out;
		}
		for (i = 0; i < 5; i++)
			col[i] = s + (col[i] - t.buf);
		for (i = 0; i < 4; i++)
			if (!name_ok(col[i]) || strchr(col[i], '/')) {
				fail(err, n, where, "empty %s, or one with a blank or '/'", names[i]);
				goto out;
			}
		if (!isdigit((unsigned char)col[0][0]) || strspn(col[0], "0123456789.") != strlen(col[0])) {
			fail(err, n, where, "release '%.40s' is not a series like 6.1", col[0]);
			goto out;
		}
		for (const char *b = col[4]; *b; b++)
			if ((unsigned char)*b < ' ' || *b == 0x7f || *b == '"' || *b == '\\') {
				fail(err, n, where, "boot arguments with a control character, a quote or a backslash");
				goto out;
			}
		snprintf(frag, sizeof(frag), "%s/configs/%s.config", dir, col[3]);
		if (stat(frag, &fs) || !S_ISREG(fs.st_mode)) {
			fail(err, n, where, "fragment %s: no file %s", col[3], frag);
			goto out;
		}
		for (size_t k = 0; k < p->nbuilds; k++)
			if (!strcmp(p->builds[k].release, col[0]) && !strcmp(p->builds[k].config, col[2])) {
				fail(err, n, where, "%s %s is planned twice (first on line %u)", col[0], col[2],
				     p->builds[k].line);
				goto out;
			}
		if (p->nbuilds == capb) {
			size_t nc = capb ? 2 * capb : 8;
			struct th_kernel_build *b = realloc(p->builds, nc * sizeof(*b));

			if (!b) {
				fail(err, n, where, "out of memory");
				goto out;
			}
			p->builds = b;
			capb = nc;
		}
		p->builds[p->nbuilds++] = (struct th_kernel_build){
			col[0], col[1], col[2], col[3], th_tsv_value(col[4]), (unsigned)t.line,
		};
		if (add_config(p, col[2], &cap)) {
			fail(err, n, where, "out of memory");
			goto out;
		}
	}
	if (got < 0)
		goto out;
	if (!p->nbuilds) {
		fail(err, n, path, "no kernel (every line is a comment or blank)");
		goto out;
	}
	qsort(p->configs, p->nconfigs, sizeof(*p->configs), cmp_str);
	rc = 1;
out:
	th_tsv_close(&t);
	return rc;
}

/* "linux-6.12.118" is of release "6.12"; "linux-6.1.192" is not. */
static bool of_release(const char *platform, const char *release)
{
	size_t n = strlen(release);

	return !strncmp(platform, "linux-", 6) && !strncmp(platform + 6, release, n) &&
	       (platform[6 + n] == '\0' || platform[6 + n] == '.');
}

bool th_kernel_plan_config_on(const struct th_kernel_plan *p, const char *platform,
			      const char *config)
{
	bool known = false;

	for (size_t k = 0; k < p->nbuilds; k++) {
		if (!of_release(platform, p->builds[k].release))
			continue;
		known = true;
		if (!strcmp(p->builds[k].config, config))
			return true;
	}
	if (known)
		return false;
	for (size_t i = 0; i < p->nconfigs; i++)
		if (!strcmp(p->configs[i], config))
			return true;
	return false;
}

int th_kernel_plan_load(const char *dir, struct th_kernel_plan *p, char *err, size_t n)
{
	int got;

	size_t len = strlen(dir) + sizeof("/cells.tsv");

	memset(p, 0, sizeof(*p));
	if (!(p->cells_path = malloc(len)))
		return fail(err, n, dir, "out of memory");
	snprintf(p->cells_path, len, "%s/cells.tsv", dir);
	if (load_cells(p, err, n) || (got = load_builds(p, dir, err, n)) < 0 ||
	    (!got && load_configs(p, dir, err, n)))
		goto bad;
	if (!(p->attacks = malloc(p->ncells * sizeof(*p->attacks))) ||
	    !(p->variants = malloc(p->ncells * sizeof(*p->variants)))) {
		fail(err, n, dir, "out of memory");
		goto bad;
	}
	for (size_t i = 0; i < p->ncells; i++) {
		p->attacks[i] = p->cells[i].attack;
		p->variants[i] = p->cells[i].variant;
	}
	return 0;
bad:
	th_kernel_plan_free(p);
	return -1;
}

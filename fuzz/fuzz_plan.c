/* SPDX-License-Identifier: MIT */
/* The campaigns' plan (fuzz/campaigns.tsv) and the build (fuzz-manifest.tsv): fuzz_plan.h. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_plan.h"
#include "fuzz_expect.h"
#include "outcome.h"
#include "results_write.h"
#include "results.h"
#include "fuzz_summary.h"
#include "lib/tsv.h"
#include "lib/text.h"
#include "cfi/config_table.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NFIELDS 6

void th_fz_plan_free(struct th_fz_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrows; i++) {
		struct th_fz_plan_row *r = &p->rows[i];

		free(r->target);
		free(r->variant);
		free(r->config);
		free(r->toolchain);
		free(r->reason);
	}
	free(p->rows);
	free(p->path);
	free(p);
}

/* A comma list of names: no glob character, no blank, no empty item. */
static int bad_names(const char *s)
{
	return !*s || strpbrk(s, " \t*?[]") || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,");
}

static int parse_line(struct th_fz_plan *p, struct th_tsv *t, char *err, size_t n)
{
	const char *path = t->path;
	unsigned long lineno = t->line;
	char *f[NFIELDS], configs[1024];
	struct th_fz_plan_row r;

	memset(&r, 0, sizeof(r));
	if (th_tsv_fields(t, f, NFIELDS, "kind target variant config toolchain reason", err, n))
		return -1;
	if (!strcmp(f[0], "campaign"))
		r.kind = TH_FZ_PLAN_CAMPAIGN;
	else if (!strcmp(f[0], "unsupported"))
		r.kind = TH_FZ_PLAN_UNSUPPORTED;
	else {
		snprintf(err, n, "%s:%lu: unknown kind '%s' (campaign, unsupported)", path, lineno, f[0]);
		return -1;
	}
	if (th_fz_target_api(f[1]) == TH_API_INVALID) {
		snprintf(err, n, "%s:%lu: unknown target '%s' (overflow, the timer's; every other API "
			 "family's by its name: %s)", path, lineno, f[1], th_api_names());
		return -1;
	}
	for (int i = 2; i <= 4; i++)
		if (!*f[i] || strpbrk(f[i], " \t")) {
			snprintf(err, n, "%s:%lu: field %d is empty or has a blank", path, lineno, i + 1);
			return -1;
		}
	if (r.kind == TH_FZ_PLAN_CAMPAIGN && !strcmp(f[3], "*")) {
		/* Every config whose row of cfi/configs.tsv fuzzes the target. */
		size_t len = 0;

		configs[0] = '\0';
		for (size_t i = 0; i < th_config_count; i++)
			if (th_list_has(th_configs[i].fuzz, f[1]))
				len += (size_t)snprintf(configs + len, sizeof(configs) - len, "%s%s",
							len ? "," : "", th_configs[i].name);
		if (!*configs || len >= sizeof(configs)) {
			snprintf(err, n, "%s:%lu: config '*': %s", path, lineno,
				 *configs ? "too many configs" :
				 "no config of cfi/configs.tsv names this target in its fuzz column");
			return -1;
		}
		f[3] = configs;
	}
	if (r.kind == TH_FZ_PLAN_CAMPAIGN) {
		char v[256], *vp = v, *t;

		if (bad_names(f[2]) || bad_names(f[3])) {
			snprintf(err, n, "%s:%lu: a campaign row names its variants and configs (comma lists, "
				 "no globs): '%s' '%s'", path, lineno, f[2], f[3]);
			return -1;
		}
		snprintf(v, sizeof(v), "%s", f[2]);
		while ((t = th_list_split(&vp)))
			if (th_variant_parse(t) == TH_VARIANT_INVALID) {
				snprintf(err, n, "%s:%lu: unknown variant '%s' (legacy, transitional, modern)",
					 path, lineno, t);
				return -1;
			}
	}
	if (!*f[5]) {
		snprintf(err, n, "%s:%lu: a row needs its reason", path, lineno);
		return -1;
	}
	r.target = th_results_strdup(f[1]);
	r.variant = th_results_strdup(f[2]);
	r.config = th_results_strdup(f[3]);
	r.toolchain = th_results_strdup(f[4]);
	r.reason = th_results_strdup(f[5]);
	snprintf(r.where, sizeof(r.where), "%s:%lu", path, lineno);
	struct th_fz_plan_row *rows = realloc(p->rows, (p->nrows + 1) * sizeof(*p->rows));

	if (!r.target || !r.variant || !r.config || !r.toolchain || !r.reason || !rows) {
		free(r.target);
		free(r.variant);
		free(r.config);
		free(r.toolchain);
		free(r.reason);
		if (rows)
			p->rows = rows;
		snprintf(err, n, "out of memory");
		return -1;
	}
	p->rows = rows;
	p->rows[p->nrows++] = r;
	return 0;
}

int th_fz_plan_load(const char *path, struct th_fz_plan **out, char *err, size_t n)
{
	struct th_tsv t;
	struct th_fz_plan *p;
	unsigned campaigns = 0;
	int r;

	*out = NULL;
	if (th_tsv_open(&t, path, err, n))
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = th_results_strdup(path))) {
		th_tsv_close(&t);
		th_fz_plan_free(p);
		snprintf(err, n, "out of memory");
		return -1;
	}
	while ((r = th_tsv_next(&t, err, n)) > 0) {
		if (parse_line(p, &t, err, n))
			goto fail;
		campaigns += p->rows[p->nrows - 1].kind == TH_FZ_PLAN_CAMPAIGN;
	}
	if (r < 0)
		goto fail;
	th_tsv_close(&t);
	if (!campaigns) {
		snprintf(err, n, "%s: no campaign row: a plan that holds nothing", path);
		th_fz_plan_free(p);
		return -1;
	}
	*out = p;
	return 0;
fail:
	th_tsv_close(&t);
	th_fz_plan_free(p);
	return -1;
}

const struct th_fz_plan_row *th_fz_plan_campaign(const struct th_fz_plan *p, const char *target,
						 const char *variant, const char *config,
						 const char *toolchain)
{
	for (size_t i = 0; p && i < p->nrows; i++) {
		const struct th_fz_plan_row *r = &p->rows[i];

		if (r->kind == TH_FZ_PLAN_CAMPAIGN && !strcmp(r->target, target) &&
		    th_list_has(r->variant, variant) && th_list_has(r->config, config) &&
		    th_fz_glob_match(r->toolchain, toolchain))
			return r;
	}
	return NULL;
}

const struct th_fz_plan_row *th_fz_plan_unsupported(const struct th_fz_plan *p, const char *target,
						    const char *variant, const char *config,
						    const char *toolchain)
{
	for (size_t i = 0; p && i < p->nrows; i++) {
		const struct th_fz_plan_row *r = &p->rows[i];

		if (r->kind == TH_FZ_PLAN_UNSUPPORTED && !strcmp(r->target, target) &&
		    th_fz_glob_match(r->variant, variant) && th_fz_glob_match(r->config, config) &&
		    th_fz_glob_match(r->toolchain, toolchain))
			return r;
	}
	return NULL;
}

/* ---- the build ---- */

void th_fz_build_free(struct th_fz_build *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nrows; i++) {
		struct th_fz_built *r = &b->rows[i];

		free(r->target);
		free(r->toolchain);
		free(r->variant);
		free(r->config);
		free(r->path);
		free(r->status);
		free(r->reason);
		free(r->engine);
	}
	free(b->rows);
	free(b->root);
	free(b);
}

static int load_manifest(struct th_fz_build *b, const char *path, char *err, size_t n)
{
	struct th_tsv t;
	int got;

	if (th_tsv_open(&t, path, err, n))
		return -1;
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		char *field[8];
		struct th_fz_built r, *rows;

		if (th_tsv_fields(&t, field, 8, "target toolchain variant config path status reason "
				  "engine; rebuild", err, n))
			break;
		memset(&r, 0, sizeof(r));
		r.target = th_results_strdup(field[0]);
		r.toolchain = th_results_strdup(field[1]);
		r.variant = th_results_strdup(field[2]);
		r.config = th_results_strdup(field[3]);
		r.path = th_results_strdup(field[4]);
		r.status = th_results_strdup(field[5]);
		r.reason = th_results_strdup(field[6]);
		r.engine = th_results_strdup(field[7]);
		snprintf(r.where, sizeof(r.where), "%s:%lu", path, t.line);
		rows = realloc(b->rows, (b->nrows + 1) * sizeof(*rows));
		if (rows)
			b->rows = rows;
		if (!rows || !r.target || !r.toolchain || !r.variant || !r.config || !r.path || !r.status ||
		    !r.reason || !r.engine) {
			free(r.target);
			free(r.toolchain);
			free(r.variant);
			free(r.config);
			free(r.path);
			free(r.status);
			free(r.reason);
			free(r.engine);
			th_tsv_close(&t);
			snprintf(err, n, "out of memory");
			return -1;
		}
		b->rows[b->nrows++] = r;
	}
	th_tsv_close(&t);
	return got < 0 ? -1 : 0;
}

int th_fz_build_load(const char *root, struct th_fz_build **out, char *err, size_t n)
{
	struct th_fz_build *b = calloc(1, sizeof(*b));
	char path[4096];
	char **names = NULL;
	size_t nnames = 0;
	DIR *d;
	struct dirent *e;
	int rc = -1;

	*out = NULL;
	if (!b || !(b->root = th_results_strdup(root))) {
		th_fz_build_free(b);
		snprintf(err, n, "out of memory");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/fuzz-manifest.tsv", root);
	if (!access(path, F_OK)) {
		if (load_manifest(b, path, err, n))
			goto out;
		rc = 0;
		goto out;
	}
	d = opendir(root);
	if (!d) {
		snprintf(err, n, "no fuzz build under %s: %s (build first: make build; or name the "
			 "build: --build-root DIR)", root, strerror(errno));
		goto out;
	}
	/* In name order, so that what is said does not depend on the directory. */
	while ((e = readdir(d))) {
		char **nn;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/fuzz-manifest.tsv", root, e->d_name);
		if (access(path, F_OK))
			continue;
		nn = realloc(names, (nnames + 1) * sizeof(*names));
		if (!nn || !(nn[nnames] = th_results_strdup(e->d_name))) {
			if (nn)
				names = nn;
			closedir(d);
			snprintf(err, n, "out of memory");
			goto out;
		}
		names = nn;
		nnames++;
	}
	closedir(d);
	if (!nnames) {
		snprintf(err, n, "no fuzz build under %s (no fuzz-manifest.tsv there or in a preset's "
			 "directory below it): build first (make build), or name the build with "
			 "--build-root DIR", root);
		goto out;
	}
	qsort(names, nnames, sizeof(*names), th_cmp_str);
	for (size_t i = 0; i < nnames; i++) {
		snprintf(path, sizeof(path), "%s/%s/fuzz-manifest.tsv", root, names[i]);
		if (load_manifest(b, path, err, n))
			goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	if (rc)
		th_fz_build_free(b);
	else
		*out = b;
	return rc;
}

const struct th_fz_built *th_fz_build_find(const struct th_fz_build *b, const char *target,
					   const char *variant, const char *config,
					   const char *toolchain)
{
	for (size_t i = 0; b && i < b->nrows; i++) {
		const struct th_fz_built *r = &b->rows[i];

		if (!strcmp(r->engine, "libfuzzer") && !strcmp(r->target, target) &&
		    !strcmp(r->variant, variant) && !strcmp(r->config, config) &&
		    !strcmp(r->toolchain, toolchain))
			return r;
	}
	return NULL;
}

bool th_fz_build_has_toolchain(const struct th_fz_build *b, const char *target, const char *toolchain)
{
	for (size_t i = 0; b && i < b->nrows; i++)
		if (!strcmp(b->rows[i].engine, "libfuzzer") && !strcmp(b->rows[i].target, target) &&
		    !strcmp(b->rows[i].toolchain, toolchain))
			return true;
	return false;
}

/* SPDX-License-Identifier: MIT */
/* Helpers shared by the renderers. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

static int cmp_tc(const void *a, const void *b)
{
	return th_report_natcmp((*(const struct th_toolchain *const *)a)->name,
				(*(const struct th_toolchain *const *)b)->name);
}

const struct th_toolchain **th_report_sorted_toolchains(const struct th_results *res, int *oom)
{
	const struct th_toolchain **t;

	*oom = 0;
	if (!res->ntoolchains)
		return NULL;
	t = malloc(res->ntoolchains * sizeof(*t));
	if (!t) {
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < res->ntoolchains; i++)
		t[i] = &res->toolchains[i];
	qsort(t, res->ntoolchains, sizeof(*t), cmp_tc);
	return t;
}

static size_t config_pos(const struct th_results *res, const char *name)
{
	const struct th_config *c = th_results_find_config(res, name);

	return c ? (size_t)(c - res->configs) : res->nconfigs;
}

int th_report_cmp_display(const struct th_results *res, const struct th_cell *a,
			  const struct th_cell *b)
{
	int r, ra = th_report_technique_rank(a->technique), rb = th_report_technique_rank(b->technique);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = strcmp(a->technique, b->technique)))
		return r;
	ra = th_report_timing_rank(a->timing);
	rb = th_report_timing_rank(b->timing);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = strcmp(a->attack, b->attack)))
		return r;
	if (a->variant != b->variant)
		return a->variant < b->variant ? -1 : 1;
	size_t ca = config_pos(res, a->config), cb = config_pos(res, b->config);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return th_report_natcmp(a->toolchain, b->toolchain);
}

struct dctx {
	const struct th_results *res;
	const struct th_cell *c;
};

static int cmp_d(const void *a, const void *b)
{
	const struct dctx *x = a, *y = b;

	return th_report_cmp_display(x->res, x->c, y->c);
}

const struct th_cell **th_report_attack_rows(const struct th_results *res,
					     const char *toolchain, enum th_variant variant,
					     size_t *n, int *oom)
{
	struct dctx *d;
	const struct th_cell **rows;
	size_t m = 0, k = 0;

	*n = 0;
	*oom = 0;
	if (!res->ncells)
		return NULL;
	d = malloc(res->ncells * sizeof(*d));
	if (!d) {
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];

		if ((!toolchain || !strcmp(c->toolchain, toolchain)) &&
		    (variant == TH_VARIANT_INVALID || c->variant == variant))
			d[m++] = (struct dctx){ res, c };
	}
	if (!m) {
		free(d);
		return NULL;
	}
	qsort(d, m, sizeof(*d), cmp_d);
	rows = malloc(m * sizeof(*rows));
	if (!rows) {
		free(d);
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < m; i++)
		if (!k || strcmp(rows[k - 1]->attack, d[i].c->attack))
			rows[k++] = d[i].c;
	free(d);
	*n = k;
	return rows;
}

int th_report_render_file(const char *path, th_report_render_fn *fn,
			  const struct th_results *res, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return th_report_errf(err, errlen, "%s: out of memory", path);
	rc = fn(f, res, err, errlen);
	if (fclose(f) && !rc)
		rc = th_report_errf(err, errlen, "%s: out of memory", path);
	if (!rc)
		rc = th_report_write_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}

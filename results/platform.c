/* SPDX-License-Identifier: MIT */
/*
 * Real-kernel platforms beside the model: the agreement of their cells with
 * the model's, one platform's cells put into existing results, and the
 * renderers' views of one platform (results.h, report_internal.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "results_internal.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "reach.h"

#define OOM(err, errlen) th_results_errf(err, errlen, "out of memory")

/* ---- views ---- */

const struct th_results *th_results_origin(const struct th_results *res)
{
	return res->origin_ ? res->origin_ : res;
}

const char *th_results_view_platform(const struct th_results *res)
{
	return res->view_platform_ ? res->view_platform_ : TH_PLATFORM_MODEL;
}

/* A stable copy of the name: the platform entry's, or the literal. */
static const char *platform_name(const struct th_results *res, const char *platform)
{
	const struct th_platform *p = th_results_find_platform(res, platform);

	return p ? p->name : TH_PLATFORM_MODEL;
}

static bool toolchain_shown(const struct th_results *res, const char *tc, const char *platform)
{
	bool any = false;

	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];

		if (strcmp(c->toolchain, tc))
			continue;
		if (!strcmp(c->platform, platform))
			return true;
		any = true;
	}
	/* A toolchain no cell names is the model's (its cells are missing). */
	return !any && th_platform_is_model(platform);
}

int th_results_view(const struct th_results *res, const char *platform, struct th_results *view)
{
	const struct th_results *o = th_results_origin(res);
	const char *name = platform_name(o, platform);
	size_t n = 0, t = 0;

	*view = *o;
	view->origin_ = o;
	view->view_platform_ = name;
	view->cells = malloc((o->ncells ? o->ncells : 1) * sizeof(*view->cells));
	view->toolchains = malloc((o->ntoolchains ? o->ntoolchains : 1) * sizeof(*view->toolchains));
	if (!view->cells || !view->toolchains) {
		th_results_view_free(view);
		return -1;
	}
	for (size_t i = 0; i < o->ncells; i++)
		if (!strcmp(o->cells[i]->platform, name))
			view->cells[n++] = o->cells[i];
	for (size_t i = 0; i < o->ntoolchains; i++)
		if (toolchain_shown(o, o->toolchains[i].name, name))
			view->toolchains[t++] = o->toolchains[i];
	view->ncells = n;
	view->ntoolchains = t;
	view->cap_cells_ = view->cap_toolchains_ = 0;
	return 0;
}

void th_results_view_free(struct th_results *view)
{
	free(view->cells);
	free(view->toolchains);
	view->cells = NULL;
	view->toolchains = NULL;
	view->ncells = view->ntoolchains = 0;
}

static int cmp_name(const void *a, const void *b)
{
	return th_results_platform_cmp(*(const char *const *)a, *(const char *const *)b);
}

const char **th_results_kernel_platforms(const struct th_results *res, size_t *n, int *oom)
{
	const struct th_results *o = th_results_origin(res);
	const char **names;

	*n = 0;
	*oom = 0;
	if (!o->nplatforms)
		return NULL;
	if (!(names = malloc(o->nplatforms * sizeof(*names)))) {
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < o->nplatforms; i++)
		names[i] = o->platforms[i].name;
	qsort(names, o->nplatforms, sizeof(*names), cmp_name);
	*n = o->nplatforms;
	return names;
}

int th_results_kernels(const struct th_results *res, const char ***names, size_t *np,
		       struct th_agreement **rows, size_t *nrows)
{
	int oom;

	*rows = NULL;
	*nrows = 0;
	*names = th_results_kernel_platforms(res, np, &oom);
	if (oom)
		return -1;
	if (!*np)
		return 0;
	if (th_results_agreement(res, NULL, NULL, rows, nrows, NULL, 0)) {
		free(*names);
		*names = NULL;
		*np = 0;
		return -1;
	}
	return 0;
}

void th_results_kernels_free(const char **names, struct th_agreement *rows, size_t nrows)
{
	if (rows)
		th_agreement_free(rows, nrows);
	free(names);
}

/* ---- the agreement ---- */

static void row_free(struct th_agreement *r)
{
	free(r->attack);
	free(r->config);
	free(r->toolchain);
	free(r->platform);
	free(r->reason);
	free(r->rule);
}

void th_agreement_free(struct th_agreement *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		row_free(&rows[i]);
	free(rows);
}

/* A copy of row (its strings owned); -1 when out of memory. */
static int row_copy(struct th_agreement *dst, const struct th_agreement *row)
{
	*dst = *row;
	dst->attack = th_results_strdup(row->attack);
	dst->config = th_results_strdup(row->config);
	dst->toolchain = th_results_strdup(row->toolchain);
	dst->platform = th_results_strdup(row->platform);
	dst->reason = row->reason ? th_results_strdup(row->reason) : NULL;
	dst->rule = row->rule ? th_results_strdup(row->rule) : NULL;
	if (!dst->attack || !dst->config || !dst->toolchain || !dst->platform ||
	    (row->reason && !dst->reason) || (row->rule && !dst->rule)) {
		row_free(dst);
		return -1;
	}
	return 0;
}

int th_results_store_agreement_row(struct th_results *res, const struct th_agreement *row,
				   char *err, size_t errlen)
{
	if (res->nagreement == res->cap_agreement_) {
		size_t ncap = res->cap_agreement_ ? 2 * res->cap_agreement_ : 16;
		struct th_agreement *n = realloc(res->agreement, ncap * sizeof(*n));

		if (!n)
			return OOM(err, errlen);
		res->agreement = n;
		res->cap_agreement_ = ncap;
	}
	if (row_copy(&res->agreement[res->nagreement], row))
		return OOM(err, errlen);
	res->nagreement++;
	res->has_agreement = true;
	return 0;
}

/* The declaration a stored row gives the pair: only while its outcomes are
 * the ones observed now, and they differ. */
static bool stored_declared(void *ctx, const char *platform, const char *attack,
			    const char *variant, const char *config, const char *toolchain,
			    enum th_outcome model, enum th_outcome kernel, const char **reason,
			    const char **rule)
{
	const struct th_results *res = ctx;

	for (size_t i = 0; i < res->nagreement; i++) {
		const struct th_agreement *r = &res->agreement[i];

		if (!strcmp(r->platform, platform) && !strcmp(r->attack, attack) &&
		    !strcmp(th_variant_name(r->variant), variant) && !strcmp(r->config, config) &&
		    !strcmp(r->toolchain, toolchain) && r->model == model && r->kernel == kernel &&
		    !r->agrees && r->reason && r->rule) {
			*reason = r->reason;
			*rule = r->rule;
			return true;
		}
	}
	return false;
}

int th_results_agreement(const struct th_results *res, th_difference_fn *declared, void *ctx,
			 struct th_agreement **rows, size_t *nrows, char *err, size_t errlen)
{
	const struct th_results *o = th_results_origin(res);
	const struct th_cell **cells;
	struct th_agreement *out = NULL;
	size_t n = 0;
	char e[256];

	*rows = NULL;
	*nrows = 0;
	if (!declared) {
		declared = stored_declared;
		ctx = (void *)o;
	}
	cells = th_results_sorted_cells(o, e, sizeof(e));
	if (!cells)
		return *e ? th_results_errf(err, errlen, "%s", e) : 0;
	for (size_t i = 0; i < o->ncells; i++) {
		const struct th_cell *k = cells[i], *m;
		const char *reason = NULL, *rule = NULL;

		if (th_platform_is_model(k->platform) ||
		    !(m = th_results_find_cell(o, TH_PLATFORM_MODEL, k->attack, k->variant, k->config,
					       k->toolchain)))
			continue;
		if (!out && !(out = calloc(o->ncells, sizeof(*out))))
			goto oom;
		struct th_agreement r = {
			.attack = k->attack, .variant = k->variant, .config = k->config,
			.toolchain = k->toolchain, .platform = k->platform,
			.model = th_cell_observed(m), .kernel = th_cell_observed(k),
		};
		r.agrees = r.model == r.kernel;
		if (!r.agrees && declared(ctx, k->platform, k->attack, th_variant_name(k->variant),
					  k->config, k->toolchain, r.model, r.kernel, &reason, &rule) &&
		    reason && rule) {
			r.reason = (char *)reason;
			r.rule = (char *)rule;
		}
		if (row_copy(&out[n], &r))
			goto oom;
		n++;
	}
	free(cells);
	*rows = out;
	*nrows = n;
	return 0;
oom:
	free(cells);
	th_agreement_free(out, n);
	return OOM(err, errlen);
}

int th_results_set_agreement(struct th_results *res, th_difference_fn *declared, void *ctx,
			     char *err, size_t errlen)
{
	struct th_agreement *rows;
	size_t n;

	if (th_results_agreement(res, declared, ctx, &rows, &n, err, errlen))
		return -1;
	th_agreement_free(res->agreement, res->nagreement);
	res->agreement = rows;
	res->nagreement = res->cap_agreement_ = n;
	res->has_agreement = true;
	return 0;
}

void th_results_agreement_counts(const struct th_results *res, const struct th_agreement *rows,
				 size_t n, const char *platform, struct th_agreement_counts *k)
{
	const struct th_results *o = th_results_origin(res);
	size_t paired = 0;

	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < o->ncells; i++)
		k->cells += !strcmp(o->cells[i]->platform, platform);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(rows[i].platform, platform))
			continue;
		paired++;
		if (rows[i].agrees)
			k->agree++;
		else if (rows[i].reason)
			k->declared++;
		else
			k->disagree++;
	}
	k->alone = k->cells - paired;
}

/* ---- one platform's cells into existing results ---- */

/* The interrupted reason without the items of platform ("P: why"), items
 * joined by "; ". Return: a malloc'd string ("" when none is left), NULL
 * when out of memory. */
static char *reasons_without(const char *reasons, const char *platform)
{
	size_t pl = strlen(platform);
	char *out = calloc(1, reasons ? strlen(reasons) + 1 : 1);

	if (!out || !reasons)
		return out;
	for (const char *p = reasons; *p;) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (!(len > pl + 1 && !strncmp(p, platform, pl) && p[pl] == ':' && p[pl + 1] == ' ')) {
			if (*out)
				strcat(out, "; ");
			strncat(out, p, len);
		}
		p += len + (end ? 2 : 0);
	}
	return out;
}

/* What src's cells of platform name must mean in dst what they mean in
 * src: a toolchain's version, a config's flags, description and support. */
static int compatible(const struct th_results *dst, const struct th_results *src,
		      const char *platform, char *err, size_t errlen)
{
	if (dst->expect_sha256 && src->expect_sha256 && strcmp(dst->expect_sha256, src->expect_sha256))
		return th_results_errf(err, errlen, "the %s cells were judged by other expectations (%s, "
				       "sha256 %.12s) than the results (%s, sha256 %.12s): rerun one of "
				       "them with the other's", platform, src->expect_path, src->expect_sha256,
				       dst->expect_path, dst->expect_sha256);
	for (size_t i = 0; i < src->ncells; i++) {
		const struct th_cell *c = src->cells[i];
		const struct th_toolchain *st, *dt;
		const struct th_config *sc, *dc;

		if (strcmp(c->platform, platform))
			continue;
		st = th_results_find_toolchain(src, c->toolchain);
		dt = th_results_find_toolchain(dst, c->toolchain);
		if (dt && strcmp(dt->version, st->version))
			return th_results_errf(err, errlen, "toolchain %s is %s in the results and %s in the "
					       "%s run: not the same toolchain", c->toolchain, dt->version,
					       st->version, platform);
		sc = th_results_find_config(src, c->config);
		dc = th_results_find_config(dst, c->config);
		if (!dc)
			continue;
		if (strcmp(dc->flags, sc->flags) || strcmp(dc->description, sc->description))
			return th_results_errf(err, errlen, "config %s: its %s differ between the results and "
					       "the %s run: not the same config", c->config,
					       strcmp(dc->flags, sc->flags) ? "flags" : "descriptions",
					       platform);
		for (size_t s = 0; s < sc->nsupport; s++) {
			const struct th_support *hs = th_config_support(dc, sc->support[s].toolchain);

			if (hs && hs->supported != sc->support[s].supported)
				return th_results_errf(err, errlen, "config %s on %s: %s in the results, %s in "
						       "the %s run: not the same toolchain", c->config,
						       sc->support[s].toolchain,
						       hs->supported ? "supported" : "unsupported",
						       sc->support[s].supported ? "supported" : "unsupported",
						       platform);
		}
	}
	return 0;
}

/* Add to r what src's platform entry, toolchains and configs give. */
/* src's reach entries on @platform (a real kernel's call_timer_fn, read
 * from its vmlinux) into r, through the section's own JSON, so what is put
 * in is what the loader accepts. */
static int adopt_reach(struct th_results *r, const struct th_results *src, const char *platform,
		       char *err, size_t errlen)
{
	json_t *all, *one, *x;
	size_t i;
	int rc = 0;

	if (!src->reach)
		return 0;
	if (!(all = th_reach_to_json(src, err, errlen)))
		return -1;
	if (!(one = json_array())) {
		json_decref(all);
		return OOM(err, errlen);
	}
	json_array_foreach(all, i, x) {
		const char *pl = json_string_value(json_object_get(x, "platform"));

		if (pl && !strcmp(pl, platform) && json_array_append(one, x)) {
			rc = OOM(err, errlen);
			break;
		}
	}
	if (!rc && json_array_size(one))
		rc = th_reach_from_json(one, r, true, err, errlen);
	json_decref(one);
	json_decref(all);
	return rc;
}

static int adopt(struct th_results *r, const struct th_results *src, const struct th_platform *p,
		 char *err, size_t errlen)
{
	struct th_platform_in in = { p->name, p->source, p->compiler, p->qemu, p->cpu,
				     p->boot_seconds_median };

	for (size_t i = 0; i < src->ncells; i++) {
		const struct th_cell *c = src->cells[i];
		const struct th_toolchain *t = th_results_find_toolchain(src, c->toolchain);

		if (strcmp(c->platform, p->name) || th_results_find_toolchain(r, t->name))
			continue;
		if (th_results_add_toolchain(r, t->name, t->version, t->path, err, errlen))
			return -1;
	}
	for (size_t i = 0; i < src->nconfigs; i++) {
		const struct th_config *sc = &src->configs[i];
		bool used = th_platform_find_config(p, sc->name) != NULL;

		for (size_t k = 0; !used && k < src->ncells; k++)
			used = !strcmp(src->cells[k]->platform, p->name) &&
			       !strcmp(src->cells[k]->config, sc->name);
		if (!used)
			continue;
		if (!th_results_find_config(r, sc->name) &&
		    th_results_add_config(r, sc->name, sc->flags, sc->description, err, errlen))
			return -1;
		const struct th_config *dc = th_results_find_config(r, sc->name);

		for (size_t s = 0; s < sc->nsupport; s++) {
			const struct th_support *sp = &sc->support[s];

			if (!th_config_support(dc, sp->toolchain) && th_results_find_toolchain(r, sp->toolchain) &&
			    th_results_set_support(r, sc->name, sp->toolchain, sp->supported, sp->reason,
						   err, errlen))
				return -1;
		}
	}
	if (th_results_add_platform(r, &in, err, errlen))
		return -1;
	for (size_t i = 0; i < p->nconfigs; i++)
		if (th_results_add_platform_config(r, p->name, p->configs[i].name, p->configs[i].kconfig,
						   err, errlen))
			return -1;
	return 0;
}

int th_results_replace_platform(struct th_results *dst, const struct th_results *src,
				const char *platform, char *err, size_t errlen)
{
	const struct th_platform *p;
	struct th_results *r = NULL, swap;
	char e[1024], *why = NULL;

	if (!platform || th_platform_is_model(platform) || !th_platform_name_valid(platform))
		return th_results_errf(err, errlen, "replace: \"%s\" is not a real-kernel platform "
				       "(\"linux-<release>\")", platform ? platform : "");
	if (!(p = th_results_find_platform(src, platform)))
		return th_results_errf(err, errlen, "replace: the %s run declares no platform %s "
				       "(th_results_add_platform)", platform, platform);
	if (compatible(dst, src, platform, err, errlen))
		return -1;
	if (th_results_copy(dst, platform, &r, e, sizeof(e)))
		return th_results_errf(err, errlen, "replace: the results: %s", e);
	if (!r->expect_path && src->expect_path &&
	    th_results_set_expectations(r, src->expect_path, src->expect_sha256, e, sizeof(e)))
		goto fail;
	if (!r->has_selection && src->has_selection &&
	    th_results_set_selection(r, &src->selection, e, sizeof(e)))
		goto fail;
	if (adopt(r, src, p, e, sizeof(e)) || adopt_reach(r, src, platform, e, sizeof(e)))
		goto fail;
	for (size_t i = 0; i < src->ncells; i++) {
		const struct th_cell *c = src->cells[i];

		if (strcmp(c->platform, platform))
			continue;
		/* As stored: the counts, outcome and verdict src says. */
		if (!th_results_copy_cell(r, c, platform, e, sizeof(e)))
			goto fail;
	}
	/* The interrupted reason: the other parts' as they were, this
	 * platform's from this run. */
	if (!(why = reasons_without(r->partial ? r->interrupted : NULL, platform)))
		goto oom;
	if (src->partial) {
		size_t n = strlen(why) + strlen(platform) + strlen(src->interrupted ? src->interrupted : "?") + 8;
		char *w = malloc(n);

		if (!w)
			goto oom;
		snprintf(w, n, "%s%s%s: %s", why, *why ? "; " : "", platform,
			 src->interrupted ? src->interrupted : "?");
		free(why);
		why = w;
	}
	if (th_results_set_partial(r, *why != '\0', *why ? why : NULL, e, sizeof(e)))
		goto fail;
	/* The declarations the platform's cells were stored with, then the
	 * agreement recomputed from the cells. */
	for (size_t i = 0; i < src->nagreement; i++)
		if (!strcmp(src->agreement[i].platform, platform) &&
		    th_results_store_agreement_row(r, &src->agreement[i], e, sizeof(e)))
			goto fail;
	if (th_results_set_count_metrics(r, e, sizeof(e)) ||
	    th_results_set_agreement(r, NULL, NULL, e, sizeof(e)))
		goto fail;
	free(why);
	swap = *dst;
	*dst = *r;
	*r = swap;
	th_results_free(r);
	return 0;
oom:
	snprintf(e, sizeof(e), "out of memory");
fail:
	free(why);
	th_results_free(r);
	return th_results_errf(err, errlen, "replace %s: %s (the results are unchanged)", platform, e);
}

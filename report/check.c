/* SPDX-License-Identifier: MIT */
/*
 * The regression gate. It judges a results file against the declaration
 * (expectations, attack registry, configs), never against what the file
 * says of itself: no stored expectation or verdict is trusted, and a cell
 * that is not there is coverage lost, whether or not a baseline had it.
 */
#define _GNU_SOURCE
#include "check.h"
#include "results.h"
#include "report_internal.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct judge {
	const struct th_check_opts *o;
	const struct th_check_decl *d;
	struct th_results *res, *base;
	FILE *out;
	bool sliced;		/* the plan is the recorded selection (--allow-slice) */
	unsigned n[TH_VERDICT_COUNT];
	size_t harness, missing, doctored, unplanned, lost, other_expect;
	size_t disagree, stale, declared_diff, agree;
	bool no_kernel_plan;	/* real-kernel cells, but no plan to judge them by */
};

/* "ATTACK variant/config/toolchain", and " on PLATFORM" for a real kernel's. */
static void put_cell_name(FILE *out, const char *platform, const char *attack, enum th_variant v,
			  const char *config, const char *toolchain)
{
	fprintf(out, "%s %s/%s/%s", attack, th_variant_name(v), config, toolchain);
	if (!th_platform_is_model(platform))
		fprintf(out, " on %s", platform);
}

static void put_cell(FILE *out, const struct th_cell *c)
{
	put_cell_name(out, c->platform, c->attack, c->variant, c->config, c->toolchain);
}

/* " (counts: NO_EFFECT 3/5, CRASHED 2/5)" when more than one outcome was
 * counted or the counts disagree with the outcome field. */
static void put_counts(FILE *out, const struct th_cell *c)
{
	int kinds = 0, worst = -1;

	for (int i = TH_OUTCOME_COUNT - 1; i >= 0; i--) {
		if (c->counts[i]) {
			kinds++;
			worst = i;
		}
	}
	bool disagree = worst >= 0 && worst != (int)c->outcome;

	if (kinds < 2 && !disagree)
		return;
	fputs(" (counts:", out);
	for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
		if (!c->counts[i])
			continue;
		fprintf(out, "%s %s %u/%u", first ? "" : ",", th_outcome_name((enum th_outcome)i),
			c->counts[i], c->runs);
		first = 0;
	}
	if (disagree)
		fprintf(out, ", which disagree with its outcome field, %s",
			th_outcome_name(c->outcome) ? th_outcome_name(c->outcome) : "?");
	fputc(')', out);
}

static const char *oname(enum th_outcome o)
{
	return o == TH_OUTCOME_INVALID ? "none" : th_outcome_name(o);
}

static bool real(enum th_outcome o)
{
	return o >= 0 && o < TH_UNSUPPORTED;
}

/* ---- the declaration ---- */

static enum th_outcome declared(const struct judge *j, const char *platform, const char *attack,
				enum th_variant v, const char *config, const char *toolchain)
{
	const char *e = j->d->expect(platform, attack, th_variant_name(v), config, toolchain);

	return e ? th_outcome_parse(e) : TH_OUTCOME_INVALID;
}

static const char *declared_where(const struct judge *j, const char *platform, const char *attack,
				  enum th_variant v, const char *config, const char *toolchain)
{
	const char *w = j->d->where(platform, attack, th_variant_name(v), config, toolchain);

	return w ? w : "no rule";
}

static bool in_names(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Is name an item of the comma list? NULL holds everything. */
static bool in_list(const char *list, const char *name, bool globs)
{
	size_t n;

	if (!list)
		return true;
	for (const char *p = list;; p += n + 1) {
		char item[256];

		n = strcspn(p, ",");
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (globs ? !fnmatch(item, name, FNM_CASEFOLD) : !strcmp(item, name))
			return true;
		if (!p[n])
			return false;
	}
}

/* In the plan: the model's, the registry's attacks (and the self-tests when
 * the run added them) x the declared configs; a real kernel's, its plan's
 * attacks x modern x its kernel configs. */
static bool planned(const struct judge *j, const char *platform, const char *attack,
		    enum th_variant v, const char *config)
{
	const struct th_check_decl *d = j->d;

	if (!th_platform_is_model(platform))
		return v == TH_VARIANT_MODERN && in_names(d->kernel_attacks, d->nkernel_attacks, attack) &&
		       in_names(d->kernel_configs, d->nkernel_configs, config);
	return (in_names(d->attacks, d->nattacks, attack) ||
		(j->res->selection.selftests && in_names(d->selftests, d->nselftests, attack))) &&
	       in_names(d->configs, d->nconfigs, config);
}

/* Why a cell is not planned. */
static const char *unplanned_why(const struct judge *j, const struct th_cell *c)
{
	const struct th_check_decl *d = j->d;

	if (!th_platform_is_model(c->platform))
		return !d->nkernel_attacks ? "a real kernel's cell, but no kernel plan to judge it by" :
		       c->variant != TH_VARIANT_MODERN ? "a real kernel's cells are modern (Linux 6.1)" :
		       !in_names(d->kernel_configs, d->nkernel_configs, c->config) ?
		       "not a kernel config of the kernel plan" : "not an attack of the kernel plan";
	return !in_names(d->configs, d->nconfigs, c->config) ? "not a declared config" :
	       "not an attack of the registry";
}

/* A toolchain of the model's plan: one a model cell names, or no cell
 * (its cells are missing); not one only a real kernel's cells name. */
static bool model_toolchain(const struct th_results *r, const char *tc)
{
	bool any = false;

	for (size_t i = 0; i < r->ncells; i++) {
		if (strcmp(r->cells[i]->toolchain, tc))
			continue;
		if (th_platform_is_model(r->cells[i]->platform))
			return true;
		any = true;
	}
	return !any;
}

/* Does platform (a real kernel) have a cell of toolchain (NULL: any)? */
static bool platform_has(const struct th_results *r, const char *platform, const char *tc)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (!strcmp(r->cells[i]->platform, platform) &&
		    (!tc || !strcmp(r->cells[i]->toolchain, tc)))
			return true;
	return false;
}

/* Is the cell one the run was asked for? Everything, unless a slice is
 * judged as one; a real kernel's plan is never sliced. */
static bool selected(const struct judge *j, const char *attack, enum th_variant v,
		     const char *config, const char *toolchain)
{
	const struct th_selection *s = &j->res->selection;

	return !j->sliced ||
	       (in_list(s->toolchains, toolchain, false) && in_list(s->configs, config, false) &&
		in_list(s->variants, th_variant_name(v), false) && in_list(s->attacks, attack, true) &&
		th_results_holds_shard(j->res, attack, v, config, toolchain));
}

/* ---- findings ---- */

/* The line of a "FILE:LINE" rule position; 0 when there is none. */
static unsigned where_line(const char *where)
{
	const char *colon = where ? strrchr(where, ':') : NULL;

	return colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
}

/* What a cell stored about its declaration, before check replaced it. */
struct stored {
	enum th_outcome expected;
	unsigned line;		/* 0: not recorded */
};

/* Replace each stored expectation (and the line declaring it) by the
 * declared one; stored[i] keeps what cells[i] said. */
static void redeclare(struct judge *j, const struct th_cell **cells, struct stored *stored)
{
	for (size_t i = 0; i < j->res->ncells; i++) {
		struct th_cell *c = (struct th_cell *)cells[i];

		stored[i] = (struct stored){ c->expected, c->expected_line };
		c->expected = declared(j, c->platform, c->attack, c->variant, c->config, c->toolchain);
		c->expected_line = where_line(j->d->where(c->platform, c->attack,
							  th_variant_name(c->variant), c->config,
							  c->toolchain));
	}
}

/* A stored expectation that is not the declared one (from the same file:
 * the results were edited), and cells that are not in the plan. */
static void doctored_cells(struct judge *j, const struct th_cell **cells,
			   const struct stored *stored)
{
	bool same_file = !strcmp(j->res->expect_sha256, j->d->expect_sha256);

	for (size_t i = 0; i < j->res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (!planned(j, c->platform, c->attack, c->variant, c->config)) {
			j->unplanned++;
			fputs("unplanned: ", j->out);
			put_cell(j->out, c);
			fprintf(j->out, ": %s\n", unplanned_why(j, c));
		}
		/* A line recorded by an older run may be absent (0). */
		bool line_ok = !stored[i].line || stored[i].line == c->expected_line;

		if (stored[i].expected == c->expected && line_ok)
			continue;
		if (!same_file) {
			j->other_expect++;
			continue;
		}
		j->doctored++;
		fputs("doctored: ", j->out);
		put_cell(j->out, c);
		if (stored[i].expected == c->expected)
			fprintf(j->out, ": stored expected_line %u, declared on line %u (", stored[i].line,
				c->expected_line);
		else
			fprintf(j->out, ": stored expected %s, declared %s (", oname(stored[i].expected),
				oname(c->expected));
		th_report_put_line(j->out, declared_where(j, c->platform, c->attack, c->variant, c->config,
							  c->toolchain));
		fputs(")\n", j->out);
	}
}

static void cell_line(struct judge *j, const struct th_cell *c, const char *what)
{
	const struct th_cell *b = j->base ? th_results_find_cell(j->base, c->platform, c->attack,
								 c->variant, c->config, c->toolchain) : NULL;
	enum th_outcome obs = th_cell_observed(c);
	FILE *out = j->out;

	fprintf(out, "%s: ", what);
	put_cell(out, c);
	fprintf(out, ": expected %s", oname(c->expected));
	if (j->base)
		fprintf(out, ", baseline %s", b ? oname(th_cell_observed(b)) : "none");
	fprintf(out, ", observed %s", th_outcome_name(obs));
	put_counts(out, c);
	if (obs == TH_UNSUPPORTED || obs == TH_NOT_APPLICABLE) {
		const struct th_support *s = th_report_cell_support(j->res, c);

		if (c->verdict == TH_VERDICT_REGRESSION)
			fprintf(out, " (coverage lost: %s did not run on %s)", c->config, c->toolchain);
		if (s && !s->supported && *s->reason) {
			fputs("; reason: ", out);
			th_report_put_line(out, s->reason);
		}
	}
	fputs("; evidence: ", out);
	th_report_put_line(out, c->evidence);
	fputc('\n', out);
}

/* Is platform (a real kernel) one of the results'? */
static bool kernel_judged(const struct judge *j, const char *platform)
{
	return th_results_find_platform(j->res, platform) != NULL;
}

/* Would the plan loop below have listed the baseline's cell c? */
static bool listed_by_plan(const struct judge *j, const struct th_cell *c)
{
	const struct th_results *r = j->res;

	if (th_platform_is_model(c->platform))
		return th_results_find_toolchain(r, c->toolchain) && model_toolchain(r, c->toolchain) &&
		       planned(j, c->platform, c->attack, c->variant, c->config);
	return kernel_judged(j, c->platform) && j->d->nkernel_attacks &&
	       planned(j, c->platform, c->attack, c->variant, c->config) &&
	       (!platform_has(r, c->platform, NULL) || platform_has(r, c->platform, c->toolchain));
}

static void missing_line(struct judge *j, const char *platform, const char *atk, enum th_variant v,
			 const char *config, const char *tc, const char *why)
{
	const struct th_cell *b;

	j->missing++;
	fputs("missing: ", j->out);
	put_cell_name(j->out, platform, atk, v, config, tc);
	fprintf(j->out, ": declared %s", oname(declared(j, platform, atk, v, config, tc)));
	b = j->base ? th_results_find_cell(j->base, platform, atk, v, config, tc) : NULL;
	if (b)
		fprintf(j->out, ", baseline %s", oname(th_cell_observed(b)));
	fprintf(j->out, ", not in the results (%s)\n", why);
}

/* Every cell of a real kernel's plan its platform lacks: for each
 * toolchain its cells name, every attack of the plan x every kernel config
 * (modern: Linux 6.1's layout). */
static void missing_kernel_cells(struct judge *j, const char *platform, const char *why)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;

	if (!d->nkernel_attacks)
		return;
	if (!platform_has(r, platform, NULL)) {
		j->missing += d->nkernel_attacks * d->nkernel_configs;
		fprintf(j->out, "missing: every cell of %s: the results declare the platform but hold "
			"none of its %zu planned cells (", platform, d->nkernel_attacks * d->nkernel_configs);
		th_report_put_line(j->out, d->kernel_plan ? d->kernel_plan : "the kernel plan");
		fprintf(j->out, ") (%s)\n", why);
		return;
	}
	for (size_t t = 0; t < r->ntoolchains; t++) {
		const char *tc = r->toolchains[t].name;

		if (!platform_has(r, platform, tc))
			continue;
		for (size_t c = 0; c < d->nkernel_configs; c++)
			for (size_t a = 0; a < d->nkernel_attacks; a++)
				if (!th_results_find_cell(r, platform, d->kernel_attacks[a], TH_VARIANT_MODERN,
							  d->kernel_configs[c], tc))
					missing_line(j, platform, d->kernel_attacks[a], TH_VARIANT_MODERN,
						     d->kernel_configs[c], tc, why);
	}
}

/* Every cell of the plan (and of the baseline) that the results lack. */
static void missing_cells(struct judge *j)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;
	const char *why = r->partial ? "partial run" : "coverage lost";

	for (size_t t = 0; t < r->ntoolchains; t++) {
		const char *tc = r->toolchains[t].name;

		if (!model_toolchain(r, tc))
			continue;
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			for (size_t c = 0; c < d->nconfigs; c++) {
				for (size_t a = 0; a < d->nattacks + d->nselftests; a++) {
					const char *atk = a < d->nattacks ? d->attacks[a] :
							  d->selftests[a - d->nattacks];

					if ((a >= d->nattacks && !r->selection.selftests) ||
					    !selected(j, atk, v, d->configs[c], tc) ||
					    th_results_find_cell(r, TH_PLATFORM_MODEL, atk, v, d->configs[c], tc))
						continue;
					missing_line(j, TH_PLATFORM_MODEL, atk, v, d->configs[c], tc, why);
				}
			}
		}
	}
	for (size_t p = 0; p < r->nplatforms; p++)
		missing_kernel_cells(j, r->platforms[p].name, why);
	for (size_t i = 0; j->base && i < j->base->ncells; i++) {
		const struct th_cell *c = j->base->cells[i];
		bool model = th_platform_is_model(c->platform);

		/* Cells of the plan were listed above. */
		if (th_results_find_cell(r, c->platform, c->attack, c->variant, c->config, c->toolchain) ||
		    (model && !selected(j, c->attack, c->variant, c->config, c->toolchain)) ||
		    listed_by_plan(j, c))
			continue;
		j->missing++;
		fputs("missing: ", j->out);
		put_cell(j->out, c);
		fprintf(j->out, ": baseline %s, not in the results (%s)\n",
			oname(th_cell_observed(c)), why);
	}
}

/* A config probed unsupported where its cells declare real outcomes, or
 * supported in the baseline and not now: a toolchain lost a defence. */
static void lost_defences(struct judge *j)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;

	for (size_t ci = 0; ci < r->nconfigs; ci++) {
		const struct th_config *cfg = &r->configs[ci];

		for (size_t t = 0; t < r->ntoolchains; t++) {
			const char *tc = r->toolchains[t].name;
			const struct th_support *s = th_config_support(cfg, tc);
			const struct th_config *bcfg = j->base ? th_results_find_config(j->base, cfg->name) : NULL;
			const struct th_support *bs = bcfg ? th_config_support(bcfg, tc) : NULL;
			size_t nreal = 0;
			const char *first = NULL;

			if (!s || s->supported || !model_toolchain(r, tc))
				continue;
			for (int v = 0; v < TH_VARIANT_COUNT; v++)
				for (size_t a = 0; a < d->nattacks; a++)
					if (selected(j, d->attacks[a], v, cfg->name, tc) &&
					    real(declared(j, TH_PLATFORM_MODEL, d->attacks[a], v, cfg->name,
							  tc))) {
						if (!nreal++)
							first = declared_where(j, TH_PLATFORM_MODEL, d->attacks[a],
									       v, cfg->name, tc);
					}
			if (!nreal && !(bs && bs->supported))
				continue;
			j->lost++;
			fprintf(j->out, "lost defence: %s on %s: probed unsupported", cfg->name, tc);
			if (*s->reason) {
				fputs(" (", j->out);
				th_report_put_line(j->out, s->reason);
				fputc(')', j->out);
			}
			if (bs && bs->supported)
				fputs(", supported in the baseline", j->out);
			if (nreal) {
				fprintf(j->out, "; %zu cell%s declare a real outcome (first: ", nreal,
					nreal == 1 ? "" : "s");
				th_report_put_line(j->out, first);
				fputc(')', j->out);
			}
			fputc('\n', j->out);
		}
	}
}

/* ---- a real kernel beside the model ---- */

/* The checkout's declarations as report/results.h's th_difference_fn. */
static bool decl_declared(void *ctx, const char *platform, const char *attack, const char *variant,
			  const char *config, const char *toolchain, enum th_outcome model,
			  enum th_outcome kernel, const char **reason, const char **rule)
{
	const struct th_check_decl *d = ctx;
	long i = d->differs ? d->differs(platform, attack, variant, config, toolchain) : -1;
	const struct th_check_difference *df = i >= 0 ? d->difference((size_t)i) : NULL;

	if (!df || th_outcome_parse(df->model) != model || th_outcome_parse(df->kernel) != kernel)
		return false;
	*reason = df->reason;
	*rule = df->where;
	return true;
}

static bool same_row_key(const struct th_agreement *a, const struct th_agreement *b)
{
	return a->variant == b->variant && !strcmp(a->attack, b->attack) &&
	       !strcmp(a->config, b->config) && !strcmp(a->toolchain, b->toolchain) &&
	       !strcmp(a->platform, b->platform);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void put_row(FILE *out, const struct th_agreement *r)
{
	put_cell_name(out, r->platform, r->attack, r->variant, r->config, r->toolchain);
}

/* The stored agreement against the one the cells and the declarations
 * give: a difference is doctored (from the same expectations file; by
 * other expectations, only the outcomes are compared). */
static void doctored_agreement(struct judge *j, const struct th_agreement *rows, size_t n)
{
	const struct th_results *r = j->res;
	bool same_file = !strcmp(r->expect_sha256, j->d->expect_sha256);

	if (!r->has_agreement) {
		if (n) {
			j->doctored++;
			fprintf(j->out, "doctored: agreement: not in the results, though %zu pair%s of a "
				"real kernel's and the model's cells %s one\n", n, n == 1 ? "" : "s",
				n == 1 ? "gives" : "give");
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct th_agreement *c = &rows[i], *st = NULL;

		for (size_t k = 0; !st && k < r->nagreement; k++)
			if (same_row_key(c, &r->agreement[k]))
				st = &r->agreement[k];
		if (!st) {
			j->doctored++;
			fputs("doctored: agreement: ", j->out);
			put_row(j->out, c);
			fprintf(j->out, ": no stored row; the cells give model %s, kernel %s\n",
				th_outcome_name(c->model), th_outcome_name(c->kernel));
			continue;
		}
		if (st->model != c->model || st->kernel != c->kernel || st->agrees != c->agrees) {
			j->doctored++;
			fputs("doctored: agreement: ", j->out);
			put_row(j->out, c);
			fprintf(j->out, ": stored model %s, kernel %s (%s), the cells say model %s, kernel "
				"%s\n", th_outcome_name(st->model), th_outcome_name(st->kernel),
				st->agrees ? "agree" : "differ", th_outcome_name(c->model),
				th_outcome_name(c->kernel));
			continue;
		}
		if (same_str(st->reason, c->reason) && same_str(st->rule, c->rule))
			continue;
		if (!same_file) {
			j->other_expect++;
			continue;
		}
		j->doctored++;
		fputs("doctored: agreement: ", j->out);
		put_row(j->out, c);
		fputs(": stored declaration ", j->out);
		th_report_put_line(j->out, st->rule ? st->rule : "none");
		fputs(", declared ", j->out);
		th_report_put_line(j->out, c->rule ? c->rule : "none");
		fputc('\n', j->out);
	}
	for (size_t k = 0; k < r->nagreement; k++) {
		bool found = false;

		for (size_t i = 0; !found && i < n; i++)
			found = same_row_key(&rows[i], &r->agreement[k]);
		if (found)
			continue;
		j->doctored++;
		fputs("doctored: agreement: ", j->out);
		put_row(j->out, &r->agreement[k]);
		fputs(": a stored row, but the results hold no such pair of cells\n", j->out);
	}
}

static void put_evidence(FILE *out, const char *what, const struct th_cell *c)
{
	fprintf(out, "; %s evidence: ", what);
	th_report_put_line(out, c ? c->evidence : "(no cell)");
}

/* Each real-kernel cell beside the model's: a difference no @differs row
 * declares is a regression; a row whose outcomes are not the observed
 * ones, or (in a whole run) that no pair of cells uses, is stale. */
static void judge_agreement(struct judge *j, const struct th_agreement *rows, size_t n)
{
	const struct th_check_decl *d = j->d;
	const struct th_results *r = j->res;
	bool *used = d->ndifferences ? calloc(d->ndifferences, sizeof(*used)) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct th_agreement *row = &rows[i];
		const char *v = th_variant_name(row->variant);
		long k = d->differs ? d->differs(row->platform, row->attack, v, row->config,
						 row->toolchain) : -1;
		const struct th_check_difference *df = k >= 0 ? d->difference((size_t)k) : NULL;
		const struct th_cell *mc = th_results_find_cell(r, TH_PLATFORM_MODEL, row->attack,
								row->variant, row->config, row->toolchain);
		const struct th_cell *kc = th_results_find_cell(r, row->platform, row->attack,
								row->variant, row->config, row->toolchain);

		if (k >= 0 && used)
			used[k] = true;
		/* A harness error is no outcome: judged as one (exit 3). */
		if (row->model == TH_HARNESS_ERROR || row->kernel == TH_HARNESS_ERROR)
			continue;
		if (row->agrees) {
			j->agree++;
			if (!df)
				continue;
			j->stale++;
			fputs("stale: ", j->out);
			th_report_put_line(j->out, df->where);
			fprintf(j->out, " declares model %s, kernel %s for ", df->model, df->kernel);
			put_row(j->out, row);
			fprintf(j->out, ", but both observed %s: the declaration no longer holds\n",
				th_outcome_name(row->model));
			continue;
		}
		if (row->reason) {
			j->declared_diff++;
			if (j->o->verbose) {
				fputs("declared difference: ", j->out);
				put_row(j->out, row);
				fprintf(j->out, ": model %s, kernel %s (", th_outcome_name(row->model),
					th_outcome_name(row->kernel));
				th_report_put_line(j->out, row->rule);
				fputs(": ", j->out);
				th_report_put_line(j->out, row->reason);
				fputs(")\n", j->out);
			}
			continue;
		}
		j->disagree++;
		fputs("disagreement: ", j->out);
		put_row(j->out, row);
		fprintf(j->out, ": model %s, kernel %s, ", th_outcome_name(row->model),
			th_outcome_name(row->kernel));
		if (df) {
			j->stale++;
			th_report_put_line(j->out, df->where);
			fprintf(j->out, " declares model %s, kernel %s (stale)", df->model, df->kernel);
		} else {
			fputs("no @differs row declares it", j->out);
		}
		put_evidence(j->out, "model", mc);
		put_evidence(j->out, "kernel", kc);
		fputc('\n', j->out);
	}
	/* A declaration no pair of cells uses declares nothing observed: in a
	 * whole run (a slice may lack the model's side), stale too. */
	for (size_t k = 0; used && k < d->ndifferences && !th_results_is_slice(r); k++) {
		const struct th_check_difference *df = d->difference(k);
		const char *on = NULL;

		if (used[k])
			continue;
		for (size_t p = 0; !on && p < r->nplatforms; p++)
			if (platform_has(r, r->platforms[p].name, NULL) &&
			    d->difference_on(k, r->platforms[p].name))
				on = r->platforms[p].name;
		if (!on)
			continue;
		j->stale++;
		fputs("stale: ", j->out);
		th_report_put_line(j->out, df->where);
		fprintf(j->out, " declares model %s, kernel %s for ", df->model, df->kernel);
		th_report_put_line(j->out, df->attack);
		fputc(' ', j->out);
		th_report_put_line(j->out, df->variant);
		fputc('/', j->out);
		th_report_put_line(j->out, df->config);
		fputc('/', j->out);
		th_report_put_line(j->out, df->toolchain);
		fprintf(j->out, ", but no pair of %s's and the model's cells is such a cell\n", on);
	}
	free(used);
}

/* "check: linux-6.1.192: 38 cells, 30 agree with the model, ..." */
static void agreement_lines(struct judge *j, const struct th_agreement *rows, size_t n)
{
	for (size_t p = 0; p < j->res->nplatforms; p++) {
		struct th_agreement_counts k;
		char line[512], more[64] = "";

		th_report_agreement_counts(j->res, rows, n, j->res->platforms[p].name, &k);
		if (k.alone)
			snprintf(more, sizeof(more), ", %zu without a model cell", k.alone);
		snprintf(line, sizeof(line), "check: %s: %zu cell%s, %zu agree with the model, %zu "
			 "declared difference%s, %zu disagree%s", j->res->platforms[p].name, k.cells,
			 k.cells == 1 ? "" : "s", k.agree, k.declared, k.declared == 1 ? "" : "s",
			 k.disagree, more);
		th_report_put_wrapped(j->out, "", line);
	}
}

/* The recorded selection, for the summary: "configs none,cfi-icall; ...",
 * as it is (the summary is shown escaped, th_report_put_wrapped). */
static void put_selection(FILE *out, const struct th_selection *s)
{
	const char *lists[] = { s->toolchains, s->configs, s->variants, s->attacks };
	static const char *const names[] = { "toolchains", "configs", "variants", "attacks" };

	for (int i = 0, first = 1; i < 4; i++) {
		if (!lists[i])
			continue;
		fprintf(out, "%s%s %s", first ? "" : "; ", names[i], lists[i]);
		first = 0;
	}
}

/* The results must say what they were run with; check cannot judge a file
 * that does not. */
static int provenance(const struct judge *j, const char *path, FILE *err)
{
	if (!j->res->ncells) {
		fputs("check: ", err);
		th_report_put_line(err, path);
		fputs(": no cells: an empty run is no result (was the selection empty?)\n", err);
		return -1;
	}
	if (!j->res->expect_path || !j->res->has_selection) {
		fputs("check: ", err);
		th_report_put_line(err, path);
		fprintf(err, ": records no %s: not made by this timerharness's matrix, or edited; "
			"rerun the matrix\n", !j->res->expect_path ? "expectations file" : "selection");
		return -1;
	}
	return 0;
}

/* path as the reader would type it: relative to the working directory
 * when it lies below it (cwd: a buffer for it). */
const char *th_check_shorter_path(const char *path, char *cwd, size_t n)
{
	size_t len;

	if (*path != '/' || !getcwd(cwd, n))
		return path;
	len = strlen(cwd);
	return !strncmp(path, cwd, len) && path[len] == '/' && len > 1 ? path + len + 1 : path;
}

void th_check_answer(FILE *out, int rc, const char *results, const char *expect,
		     const char *baseline, const char *more)
{
	char cwd[4096], *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	const char *status = rc == TH_CHECK_OK ? "PASS" : rc == TH_CHECK_REGRESSION ? "FAIL" :
			     rc == TH_CHECK_BAD_INPUT ? "BAD INPUT" : "HARNESS ERROR";

	if (!m) {
		fprintf(out, "check: %s (exit %d)\n", status, rc);
		return;
	}
	expect = th_check_shorter_path(expect, cwd, sizeof(cwd));
	fprintf(m, "check: %s (exit %d): %s judged by %s", status, rc, results, expect);
	if (baseline)
		fprintf(m, " and the baseline %s", baseline);
	if (more)
		fprintf(m, " %s", more);
	/* Within 80 columns, as the verdict screen before it (escaped there). */
	if (!fclose(m))
		th_report_put_wrapped(out, "", line);
	else
		fprintf(out, "check: %s (exit %d)\n", status, rc);
	free(line);
}

int th_check_main(const struct th_check_opts *o, const struct th_check_decl *d, FILE *out,
		  FILE *err)
{
	struct judge j = { .o = o, .d = d, .out = out };
	const char *results = o->results ? o->results : TH_CHECK_DEFAULT_RESULTS;
	const struct th_cell **cells = NULL;
	struct stored *stored = NULL;
	struct th_agreement *rows = NULL;
	size_t nrows = 0;
	char e[1024];
	int rc = TH_CHECK_BAD_INPUT;

	if (th_results_load(results, &j.res, e, sizeof(e)) ||
	    (o->baseline && th_results_load(o->baseline, &j.base, e, sizeof(e)))) {
		fputs("check: ", err);
		th_report_put_line(err, e);
		fputc('\n', err);
		goto out;
	}
	if (provenance(&j, results, err))
		goto out;
	cells = th_results_sorted_cells(j.res, e, sizeof(e));
	if (!cells) {
		fprintf(err, "check: %s\n", e);
		goto out;
	}
	j.sliced = o->allow_slice && th_results_is_slice(j.res);
	if (!(stored = malloc(j.res->ncells * sizeof(*stored)))) {
		fputs("check: out of memory\n", err);
		goto out;
	}
	redeclare(&j, cells, stored);
	th_results_apply_baseline(j.res, j.base);
	/* Informational lines first, failures last: they end next to the summary. */
	for (size_t i = 0; i < j.res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (th_cell_observed(c) == TH_HARNESS_ERROR)
			continue;
		j.n[c->verdict]++;
		/* Improvements are counted; a declaration gap (new) is always named. */
		if ((c->verdict == TH_VERDICT_IMPROVEMENT && o->verbose) || c->verdict == TH_VERDICT_NEW)
			cell_line(&j, c, th_verdict_name(c->verdict));
	}
	for (size_t i = 0; i < j.res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (th_cell_observed(c) == TH_HARNESS_ERROR) {
			j.harness++;
			fputs("harness error: ", out);
			put_cell(out, c);
			fputs(": the harness could not run or observe it; evidence: ", out);
			th_report_put_line(out, c->evidence);
			fputc('\n', out);
		} else if (c->verdict == TH_VERDICT_REGRESSION) {
			cell_line(&j, c, "regression");
		}
	}
	missing_cells(&j);
	lost_defences(&j);
	doctored_cells(&j, cells, stored);
	if (th_results_agreement(j.res, decl_declared, (void *)d, &rows, &nrows, e, sizeof(e))) {
		fprintf(err, "check: %s\n", e);
		rc = TH_CHECK_BAD_INPUT;
		goto out;
	}
	judge_agreement(&j, rows, nrows);
	doctored_agreement(&j, rows, nrows);
	if (j.res->nplatforms && !d->nkernel_attacks) {
		j.no_kernel_plan = true;
		fputs("unplanned: the results hold a real kernel's platform but there is no kernel plan "
		      "to judge it by (kernel/cells.tsv and kernel/configs/", out);
		if (d->kernel_plan_error) {
			fputs(": ", out);
			th_report_put_line(out, d->kernel_plan_error);
		}
		fputs(")\n", out);
	}

	bool slice = th_results_is_slice(j.res);

	if (j.other_expect) {
		fputs("expectations: the run judged its cells by ", out);
		th_report_put_line(out, j.res->expect_path);
		fprintf(out, " (sha256 %.12s), check by ", j.res->expect_sha256);
		th_report_put_line(out, d->expect_path);
		fprintf(out, " (sha256 %.12s): %zu stored expectations differ; rerun the matrix, or "
			"name the file it ran with in --expect\n", d->expect_sha256, j.other_expect);
	} else if (strcmp(j.res->expect_sha256, d->expect_sha256)) {
		fputs("expectations: the run recorded ", out);
		th_report_put_line(out, j.res->expect_path);
		fprintf(out, " (sha256 %.12s), check judges by ", j.res->expect_sha256);
		th_report_put_line(out, d->expect_path);
		fprintf(out, " (sha256 %.12s): not the same file\n", d->expect_sha256);
	}
	if (slice && !o->allow_slice)
		fputs("slice: the run was asked for part of the plan only; a slice passes only "
		      "with --allow-slice\n", out);
	if (j.res->partial && !o->allow_partial)
		fputs("partial: the run was interrupted; partial results pass only with "
		      "--allow-partial\n", out);

	agreement_lines(&j, rows, nrows);
	/* The summary, wrapped within 80 columns. */
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *sm = open_memstream(&sum, &sumlen), *so = sm ? sm : fopen("/dev/null", "w");

	if (!so)
		so = out;

	fprintf(so, "check: %zu cells", j.res->ncells);
	if (slice) {
		fputs(" (SLICE: ", so);
		put_selection(so, &j.res->selection);
		if (j.res->shard.count) {
			fprintf(so, "%sshard%s ", th_selection_is_slice(&j.res->selection) ? "; " : "",
				j.res->shard.nindexes == 1 ? "" : "s");
			for (size_t k = 0; k < j.res->shard.nindexes; k++)
				fprintf(so, "%s%u", k ? "," : "", j.res->shard.indexes[k]);
			fprintf(so, " of %u", j.res->shard.count);
		}
		fputc(')', so);
	}
	if (j.res->partial) {
		fprintf(so, " (PARTIAL run, interrupted: %s)", j.res->interrupted ? j.res->interrupted : "?");
	}
	/* Pass and regression always; the rest when there are any (lit's
	 * summary), so the line fits a terminal. */
	fprintf(so, ": %u pass, %u regression", j.n[TH_VERDICT_PASS], j.n[TH_VERDICT_REGRESSION]);
	if (j.n[TH_VERDICT_IMPROVEMENT])
		fprintf(so, ", %u improvement%s", j.n[TH_VERDICT_IMPROVEMENT],
			o->verbose ? "" : " (see --verbose)");
	if (j.n[TH_VERDICT_NEW])
		fprintf(so, ", %u new", j.n[TH_VERDICT_NEW]);
	if (j.missing)
		fprintf(so, ", %zu missing", j.missing);
	if (j.harness)
		fprintf(so, ", %zu harness error%s", j.harness, j.harness == 1 ? "" : "s");
	if (j.lost)
		fprintf(so, ", %zu lost defence%s", j.lost, j.lost == 1 ? "" : "s");
	if (j.doctored)
		fprintf(so, ", %zu doctored", j.doctored);
	if (j.unplanned)
		fprintf(so, ", %zu unplanned", j.unplanned);
	if (j.disagree)
		fprintf(so, ", %zu disagree%s", j.disagree, j.disagree == 1 ? "s" : "");
	if (j.stale)
		fprintf(so, ", %zu stale declaration%s", j.stale, j.stale == 1 ? "" : "s");
	if (sm && !fclose(sm)) {
		th_report_put_wrapped(out, "", sum);
	} else {
		/* Out of memory: the counts at least, nothing unescaped. */
		if (!sm && so != out)
			fclose(so);
		fprintf(out, "%scheck: %zu cells: %u pass, %u regression\n", so == out ? "\n" : "",
			j.res->ncells, j.n[TH_VERDICT_PASS], j.n[TH_VERDICT_REGRESSION]);
	}
	free(sum);

	bool bad = j.doctored || j.unplanned || j.no_kernel_plan ||
		   strcmp(j.res->expect_sha256, d->expect_sha256);
	bool failed = j.n[TH_VERDICT_REGRESSION] || j.lost || j.disagree || j.stale ||
		      (j.missing && !(j.res->partial && o->allow_partial)) ||
		      (slice && !o->allow_slice) || (j.res->partial && !o->allow_partial);

	rc = bad ? TH_CHECK_BAD_INPUT : failed ? TH_CHECK_REGRESSION :
	     j.harness ? TH_CHECK_HARNESS_ERROR : TH_CHECK_OK;
	if (!o->defer_answer)
		th_check_answer(out, rc, results, d->expect_path, o->baseline, NULL);
out:
	/* A verdict nobody can read is no verdict. */
	errno = 0;
	if (fflush(out) || ferror(out)) {
		fprintf(err, "check: cannot write the verdicts: %s\n",
			errno ? strerror(errno) : "write error");
		rc = TH_CHECK_BAD_INPUT;
	}
	free(cells);
	free(stored);
	th_agreement_free(rows, nrows);
	th_results_free(j.res);
	th_results_free(j.base);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/* Verdicts: an observed outcome against its expectation and a baseline. */
#include "results.h"
#include "results_internal.h"

#include <string.h>

static const char *const verdict_names[TH_VERDICT_COUNT] = {
	[TH_VERDICT_PASS] = "pass",
	[TH_VERDICT_REGRESSION] = "regression",
	[TH_VERDICT_IMPROVEMENT] = "improvement",
	[TH_VERDICT_NEW] = "new",
};

const char *th_verdict_name(enum th_verdict v)
{
	return (v >= 0 && v < TH_VERDICT_COUNT) ? verdict_names[v] : NULL;
}

enum th_verdict th_verdict_parse(const char *s)
{
	for (int i = 0; s && i < TH_VERDICT_COUNT; i++)
		if (!strcmp(s, verdict_names[i]))
			return (enum th_verdict)i;
	return TH_VERDICT_INVALID;
}

enum th_verdict th_verdict_set(enum th_outcome observed, th_outcome_set seen,
			       th_outcome_set expected, enum th_outcome baseline)
{
	enum th_outcome worst = th_outcome_set_worst(expected);
	enum th_outcome best = th_outcome_set_best(expected);

	/* The harness failed: nothing was measured, and that is never green. */
	if (observed == TH_HARNESS_ERROR)
		return TH_VERDICT_REGRESSION;
	if (th_outcome_ran(baseline)) {
		/* Coverage loss goes red: the baseline measured this cell. */
		if (!th_outcome_ran(observed))
			return TH_VERDICT_REGRESSION;
		if (th_outcome_more_severe(observed, baseline))
			return TH_VERDICT_REGRESSION;
		if (observed == TH_FALSE_POSITIVE && baseline != TH_FALSE_POSITIVE)
			return TH_VERDICT_REGRESSION;
	}
	/* Could not run: lost coverage where the declaration says the cell
	 * runs (a toolchain lost a defence), else nothing to judge. */
	if (!th_outcome_ran(observed))
		return th_outcome_ran(worst) ? TH_VERDICT_REGRESSION : TH_VERDICT_PASS;
	if (!th_outcome_name(worst))
		return TH_VERDICT_NEW;
	if (!th_outcome_ran(worst))
		return TH_VERDICT_NEW;
	/* Every run: more severe than the whole set, or an outcome inside the
	 * set's span that it does not name, is not what was declared. */
	for (int o = 0; o < TH_UNSUPPORTED; o++) {
		if (!(seen & TH_OUTCOME_BIT(o)) || (expected & TH_OUTCOME_BIT(o)))
			continue;
		if (!th_outcome_more_severe(best, (enum th_outcome)o))
			return TH_VERDICT_REGRESSION;
	}
	if (th_outcome_more_severe(best, observed))
		return TH_VERDICT_IMPROVEMENT;
	return TH_VERDICT_PASS;
}

enum th_verdict th_verdict(enum th_outcome observed, enum th_outcome expected,
			   enum th_outcome baseline)
{
	return th_verdict_set(observed, th_outcome_ran(observed) ? TH_OUTCOME_BIT(observed) : 0,
			      th_outcome_name(expected) ? TH_OUTCOME_BIT(expected) : 0, baseline);
}

void th_results_apply_baseline(struct th_results *res, const struct th_results *baseline)
{
	for (size_t i = 0; i < res->ncells; i++) {
		struct th_cell *c = res->cells[i];
		enum th_outcome b = TH_OUTCOME_INVALID;

		if (baseline) {
			const struct th_cell *bc = th_results_find_cell(baseline, c->platform, c->attack, c->variant,
									c->config, c->toolchain);
			if (bc)
				b = th_cell_observed(bc);
		}
		c->verdict = th_cell_verdict(c, b);
	}
}

enum th_verdict th_results_shown_verdict(const struct th_cell *c)
{
	if (th_cell_verdict(c, TH_OUTCOME_INVALID) == TH_VERDICT_REGRESSION)
		return TH_VERDICT_REGRESSION;
	return c->verdict;
}

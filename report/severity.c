/* SPDX-License-Identifier: MIT */
#include "severity.h"

#include <stdlib.h>
#include <string.h>

#include "report_internal.h"

#define regression TH_VERDICT_REGRESSION
#define new TH_VERDICT_NEW
#define any_outcome TH_OUTCOME_INVALID
#define SEV_OUTCOME_any any_outcome
#define SEV(v, o, w, r, s, g, j)                                                                  \
	{ .verdict = v, .outcome = SEV_OUTCOME_##o, .cfi_block_lost = SEV_WHEN_##w, .rule = #r,   \
	  .security_severity = s, .gitlab = TH_GL_##g, .junit = TH_JU_##j },
#define SEV_WHEN_any false
#define SEV_WHEN_cfi_block_lost true
#define SEV_OUTCOME_HARNESS_ERROR TH_HARNESS_ERROR
#define SEV_OUTCOME_HIJACKED TH_HIJACKED
#define SEV_OUTCOME_PRIVILEGED_WRITE TH_PRIVILEGED_WRITE
#define SEV_OUTCOME_REDIRECTED TH_REDIRECTED
#define SEV_OUTCOME_CRASHED TH_CRASHED
#define SEV_OUTCOME_HANG TH_HANG
#define SEV_OUTCOME_TIMER_LOST TH_TIMER_LOST
#define SEV_OUTCOME_FALSE_POSITIVE TH_FALSE_POSITIVE
#define SEV_OUTCOME_BLOCKED_CFI TH_BLOCKED_CFI

static const struct th_severity rows[] = {
#include "severity.def"
};
#undef new
#undef regression

#define NROWS (sizeof(rows) / sizeof(rows[0]))

const struct th_severity *th_severity_rows(size_t *n)
{
	*n = NROWS;
	return rows;
}

const struct th_severity *th_severity_of(const struct th_cell *c)
{
	enum th_verdict v = th_results_shown_verdict(c);
	enum th_outcome o = th_cell_observed(c);
	bool lost = (th_cell_expected_set(c) & TH_OUTCOME_BIT(TH_BLOCKED_CFI)) && o != TH_BLOCKED_CFI;

	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].verdict == v &&
		    (rows[i].outcome == TH_OUTCOME_INVALID || rows[i].outcome == o) &&
		    (!rows[i].cfi_block_lost || lost))
			return &rows[i];
	return NULL;
}

const char *th_severity_gitlab_name(enum th_sev_gitlab g)
{
	static const char *const names[] = { "info", "minor", "major", "critical", "blocker" };

	return (unsigned)g < sizeof(names) / sizeof(names[0]) ? names[g] : "?";
}

const char *th_severity_github_rank(const char *s)
{
	double x;

	if (!s || !*s)
		return NULL;
	x = atof(s);
	return x > 9.0 ? "critical" : x >= 7.0 ? "high" : x >= 4.0 ? "medium" : "low";
}

const char *th_severity_of_rule(const char *rule)
{
	for (size_t i = 0; i < NROWS; i++)
		if (!strcmp(rows[i].rule, rule))
			return rows[i].security_severity;
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * How a finding of the gate is ranked: report/severity.def, the one table
 * SARIF, Code Quality, JUnit and the verdict screen read (docs/outputs.md,
 * "Severity").
 */
#ifndef TH_REPORT_SEVERITY_H
#define TH_REPORT_SEVERITY_H

#include <stddef.h>

#include "results.h"

enum th_sev_gitlab { TH_GL_info, TH_GL_minor, TH_GL_major, TH_GL_critical, TH_GL_blocker };
enum th_sev_junit { TH_JU_none, TH_JU_failure, TH_JU_error };

struct th_severity {
	enum th_verdict verdict;	/* TH_VERDICT_REGRESSION or TH_VERDICT_NEW */
	enum th_outcome outcome;	/* TH_OUTCOME_INVALID: any */
	bool cfi_block_lost;		/* only a cell declared BLOCKED_CFI that was not */
	const char *rule;		/* SARIF rule, Code Quality check_name */
	const char *security_severity;	/* GitHub's; "" none (not a security alert) */
	enum th_sev_gitlab gitlab;
	enum th_sev_junit junit;
};

/* The row ranking @c (its shown verdict and observed outcome), or NULL:
 * not a finding (a pass, an improvement, a new cell of no row's outcome). */
const struct th_severity *th_severity_of(const struct th_cell *c);

/* The table, in its order. */
const struct th_severity *th_severity_rows(size_t *n);

/* GitLab's word: "minor", "major"... */
const char *th_severity_gitlab_name(enum th_sev_gitlab g);

/* GitHub's rank of a security_severity: "critical", "high", "medium",
 * "low", or NULL for "" (no security alert). */
const char *th_severity_github_rank(const char *security_severity);

/* @rule's security_severity (every row of a rule has the same), or NULL
 * when no row names it. */
const char *th_severity_of_rule(const char *rule);

#endif

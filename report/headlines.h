/* SPDX-License-Identifier: MIT */
/*
 * The headline findings, shared by the renderers that tell the story
 * (report.md, report.html). Each is a question answered only by the cells its
 * selectors pick from the model; the texts around them are fixed and name
 * things in `backticks`, which each renderer turns into its own code markup.
 * Not part of the public API.
 */
#ifndef TH_REPORT_HEADLINES_H
#define TH_REPORT_HEADLINES_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/* The configs of a selector by what their rows of cfi/configs.tsv say. */
enum th_sel_configs {
	TH_SEL_LISTED,		/* the configs list (NULL: any) */
	TH_SEL_TYPE_CFI,	/* every type-based CFI config (scheme not none) */
	TH_SEL_TYPE_CFI_ALONE,	/* those of them with no other defence (th_config_type_cfi_alone) */
	TH_SEL_CARD,		/* the verdict card's (th_config_on_card) */
};

/* NULL-terminated name lists; a NULL list matches anything. */
struct th_selector {
	const char *const *variants;
	const char *const *configs;
	const char *const *payloads;
	const char *const *techniques;
	enum th_sel_configs by;	/* TH_SEL_LISTED unless set */
};

struct th_headline {
	const char *title;		/* the question */
	const char *about;		/* what the selected cells are; th_headline_about() */
	const char *note;		/* a fact about a config, or NULL */
	struct th_selector sel[3];	/* a cell matching any of the first nsel */
	int nsel;
};

extern const struct th_headline th_headlines[];
extern const size_t th_nheadlines;

/* The last finding: regressions and differences between toolchains. */
extern const char th_differences_title[];
extern const char th_differences_about[];

/* h's about, its first selector's configs named where it says, in table
 * order (cfi/configs.tsv), so a new config is never missing from them:
 * "@CONFIGS@" as "configs `a`, `b` and `c`" ("config `a`" for one),
 * "@CONFIG_LIST@" as "`a`, `b`, `c`". Into buf (truncated to n). */
void th_headline_about(const struct th_headline *h, char *buf, size_t n);

bool th_headline_selects(const struct th_headline *h, const struct th_cell *c);

/* The cells h selects among cells[0..ncells) (th_report_display_cells), in
 * that order. malloc'd; NULL when none (*oom tells them apart). */
const struct th_cell **th_headline_cells(const struct th_cell **cells, size_t ncells,
					 const struct th_headline *h, size_t *n, int *oom);

/* Same (attack, variant, config): one row of a per-toolchain table. */
bool th_headline_same_row(const struct th_cell *a, const struct th_cell *b);

/* Per-outcome counts of the observed outcomes of the cells of toolchain
 * among cells[0..n). Return: how many there were. */
unsigned th_headline_observed(const struct th_cell **cells, size_t n,
			      const char *toolchain, unsigned counts[TH_OUTCOME_COUNT]);

struct th_diff_row {
	const struct th_cell *cell;	/* the row's first cell in display order */
	bool regressed;			/* a cell of the row has verdict regression */
	bool differs;			/* real outcomes differ between toolchains */
};

/**
 * th_headline_differences() - the rows of the last finding.
 * @cells:      every cell, in display order (th_report_display_cells).
 * @unsup_only: set to the number of further rows whose outcomes differ only
 *              because a config is unsupported on a toolchain (summed up by
 *              the renderers rather than listed).
 *
 * Return: malloc'd rows, display order, that regressed or whose real
 * outcomes differ between toolchains; NULL when none (*oom tells them apart).
 */
struct th_diff_row *th_headline_differences(const struct th_cell **cells, size_t ncells,
					    size_t *n, size_t *unsup_only, int *oom);

#endif

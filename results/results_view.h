/* SPDX-License-Identifier: MIT */
/*
 * The model as the renderers read it (report/): a platform's view, the real
 * kernels' platforms and agreement, counts, the verdict shown, and the
 * cells, toolchains and metrics in output order.
 */
#ifndef TH_RESULTS_VIEW_H
#define TH_RESULTS_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/* Compare names so that digit runs compare as numbers (clang-9 < clang-14). */
int th_results_natcmp(const char *a, const char *b);

/* Rank of a technique / timing in display order (unknown ones last). */
int th_results_technique_rank(const char *technique);
int th_results_timing_rank(const char *timing);

/* Position of a config in res->configs (declaration order); nconfigs when
 * not declared. */
size_t th_results_config_pos(const struct th_results *res, const char *name);

/* Platforms in output order: "model" first, then by name (natcmp). */
int th_results_platform_cmp(const char *a, const char *b);

/*
 * A renderer's view of one platform: a shallow copy of res whose cells are
 * that platform's only, and whose toolchains are those its cells name (the
 * model's: every toolchain but those only a real kernel's cells name).
 * Every other field is res's (shared, not owned); th_results_find_cell on
 * it finds that platform's cells only; th_results_origin gives res back (for
 * what is attached to res: fuzz.json, the bench's files). The renderers
 * show the model's cells from the model's view exactly as before platforms
 * existed, and each real kernel's below. Free with th_results_view_free.
 * Return: 0, -1 when out of memory.
 */
int th_results_view(const struct th_results *res, const char *platform, struct th_results *view);
void th_results_view_free(struct th_results *view);
const struct th_results *th_results_origin(const struct th_results *res);
/* The platform a view shows ("model" for a model itself). */
const char *th_results_view_platform(const struct th_results *res);
/* The real-kernel platforms with cells or an entry, in output order:
 * malloc'd names (borrowed strings), NULL when none (*oom tells apart). */
const char **th_results_kernel_platforms(const struct th_results *res, size_t *n, int *oom);
/* Those platforms' names (th_results_kernel_platforms) and every real-kernel
 * cell's agreement with the model (th_results_agreement), what a kernel
 * section or line shows. Return: 0, with *np 0 and nothing allocated when
 * there is no real kernel; -1 out of memory. Free both with
 * th_results_kernels_free(). */
struct th_agreement;
int th_results_kernels(const struct th_results *res, const char ***names, size_t *np,
		       struct th_agreement **rows, size_t *nrows);
void th_results_kernels_free(const char **names, struct th_agreement *rows, size_t nrows);

/* The agreement's counts for platform: rows that agree, differ as
 * declared, differ undeclared; and its cells without a model cell. */
struct th_agreement_counts {
	size_t cells, agree, declared, disagree, alone;
};
void th_results_agreement_counts(const struct th_results *res, const struct th_agreement *rows,
				 size_t n, const char *platform, struct th_agreement_counts *k);

/* Per-outcome counts of observed outcomes, over the model's cells (a
 * view's: its platform's) of toolchain (NULL: all). Return: how many cells
 * were counted. */
size_t th_results_count(const struct th_results *res, const char *toolchain,
			unsigned counts[TH_OUTCOME_COUNT]);

/* The verdict a renderer shows: the stored one, or regression when the
 * outcome/expected pair says so (a hand-edited outcome is not hidden). */
enum th_verdict th_results_shown_verdict(const struct th_cell *c);

/* The cells sorted by cmp; malloc'd, res->ncells entries; NULL when there
 * are none (*oom tells out-of-memory apart). */
typedef int th_results_cell_cmp(const struct th_results *res, const struct th_cell *a,
				const struct th_cell *b);
const struct th_cell **th_results_sort_cells(const struct th_results *res,
					     th_results_cell_cmp *cmp, int *oom);

/* Toolchains in output order (clang-9 < clang-14); malloc'd, NULL when none
 * (*oom tells out-of-memory apart). */
const struct th_toolchain **th_results_sorted_toolchains(const struct th_results *res,
							 int *oom);

/* Metrics by name; malloc'd, NULL when none (*oom tells out-of-memory apart). */
const struct th_metric **th_results_sorted_metrics(const struct th_results *res, int *oom);

#endif

/* SPDX-License-Identifier: MIT */
/* Helpers shared by the report/ sources; not part of the public API. */
#ifndef TH_REPORT_INTERNAL_H
#define TH_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* snprintf into err (if any); always returns -1 so callers can return it. */
int th_report_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* strdup that maps NULL to "". */
char *th_report_strdup(const char *s);

/* Compare names so that digit runs compare as numbers (clang-9 < clang-14). */
int th_report_natcmp(const char *a, const char *b);

/* Rank of a technique / timing in display order (unknown ones last). */
int th_report_technique_rank(const char *technique);
int th_report_timing_rank(const char *timing);

/* Atomically replace path with len bytes of buf: path.tmp.<pid>, fsync,
 * rename, fsync of the directory. On failure path is untouched. */
int th_report_write_atomic(const char *path, const char *buf, size_t len,
			   char *err, size_t errlen);

/* Per-outcome counts of observed outcomes, over cells of toolchain (NULL:
 * all). */
void th_report_count(const struct th_results *res, const char *toolchain,
		     unsigned counts[TH_OUTCOME_COUNT]);

/* The verdict a renderer shows: the stored one, or regression when the
 * outcome/expected pair says so (a hand-edited outcome is not hidden). */
enum th_verdict th_report_shown_verdict(const struct th_cell *c);

/* Toolchains in output order (clang-9 < clang-14); malloc'd, NULL when none
 * (*oom tells out-of-memory apart). */
const struct th_toolchain **th_report_sorted_toolchains(const struct th_results *res,
							int *oom);

/* One cell per distinct attack among the cells of toolchain (NULL: any) and
 * variant (TH_VARIANT_INVALID: any), in display order: technique, timing,
 * attack. malloc'd; *n rows; NULL when none (*oom tells them apart). */
const struct th_cell **th_report_attack_rows(const struct th_results *res,
					     const char *toolchain, enum th_variant variant,
					     size_t *n, int *oom);

/* Display order of two cells: technique, timing, attack, variant, config
 * position, toolchain. */
int th_report_cmp_display(const struct th_results *res, const struct th_cell *a,
			  const struct th_cell *b);

/* Render into memory with fn, then replace path atomically. */
typedef int th_report_render_fn(FILE *out, const struct th_results *res,
				char *err, size_t errlen);
int th_report_render_file(const char *path, th_report_render_fn *fn,
			  const struct th_results *res, char *err, size_t errlen);

#endif

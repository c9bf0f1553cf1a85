/* SPDX-License-Identifier: MIT */
/* Helpers shared by the report/ sources (the views and the gate), over the
 * model's public headers (results/results_view.h, results/results_write.h);
 * not part of the public API. */
#ifndef TH_REPORT_INTERNAL_H
#define TH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "render.h"
#include "results_view.h"
#include "results_write.h"

/* The ANSI colour of an outcome in terminal output ("" for none), and the
 * sequence that ends it. */
const char *th_report_ansi_color(enum th_outcome o);
#define TH_ANSI_RESET "\033[0m"

/* How many different outcomes the runs of c counted (more than one: the
 * runs disagreed). */
int th_report_kinds(const struct th_cell *c);

/* The probe of c's config on c's toolchain; NULL when never probed. */
const struct th_support *th_report_cell_support(const struct th_results *res,
						const struct th_cell *c);

/* Paths as a reader of the reports uses them, wherever the run was made:
 * relative to the checkout this was built from (TH_SOURCE_DIR) when they
 * lie in it. th_report_source_relative: path itself, or its tail after the
 * checkout's "/". th_report_source_relative_words: s (a command line) with
 * every word that starts with the checkout's "/" made relative (a word
 * starts s or follows a blank, a quote or '='); malloc'd, NULL when out of
 * memory. */
const char *th_report_source_relative(const char *path);
char *th_report_source_relative_words(const char *s);

/* Every cell in display order: technique, timing, attack, variant, config
 * position, toolchain. Sorted once per document; the renderers and the
 * headlines pick their cells from it. malloc'd, res->ncells entries; NULL
 * when there are none (*oom tells out-of-memory apart). */
const struct th_cell **th_report_display_cells(const struct th_results *res, int *oom);

/* The cells among cells[0..n) that keep() accepts, in the same order.
 * malloc'd; *m of them; NULL when none (*oom tells them apart). */
typedef bool th_report_keep_fn(const struct th_cell *c, const void *ctx);
const struct th_cell **th_report_filter_cells(const struct th_cell **cells, size_t n,
					      th_report_keep_fn *keep, const void *ctx,
					      size_t *m, int *oom);

/* One cell per distinct attack among the cells of toolchain (NULL: any) and
 * variant (TH_VARIANT_INVALID: any) in display (th_report_display_cells)
 * cells[0..n). malloc'd; *nrows rows; NULL when none (*oom tells them apart). */
const struct th_cell **th_report_attack_rows(const struct th_cell **cells, size_t n,
					     const char *toolchain, enum th_variant variant,
					     size_t *nrows, int *oom);

/* Rows a and b (display order) are in the same technique/timing group. */
bool th_report_same_group(const struct th_cell *a, const struct th_cell *b);

/* The columns of a matrix: indexes of the configs (declaration order) that
 * have a cell of toolchain (NULL: any) and variant (TH_VARIANT_INVALID: any);
 * var_on (if not NULL) marks the variants of those cells. malloc'd (never
 * empty-sized); *ncols of them; NULL when out of memory. */
size_t *th_report_config_columns(const struct th_results *res, const char *toolchain,
				 enum th_variant variant, bool var_on[TH_VARIANT_COUNT],
				 size_t *ncols);

/* Render into memory with fn, then replace path atomically. */
typedef int th_report_render_fn(FILE *out, const struct th_results *res,
				char *err, size_t errlen);
int th_report_render_file(const char *path, th_report_render_fn *fn,
			  const struct th_results *res, char *err, size_t errlen);
/* Render into memory with fn: *buf malloc'd, *len bytes. */
int th_report_render_buf(th_report_render_fn *fn, const struct th_results *res,
			 char **buf, size_t *len, char *err, size_t errlen);

/*
 * Text that leaves the program shows, it never acts. A code point is unsafe
 * when a terminal, a viewer or a parser would act on it instead of showing
 * it: C0 controls (TAB, LF and CR are left to the format), DEL, C1 controls
 * (U+009B is a terminal's CSI), the bidirectional overrides, isolates and
 * marks (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069: they
 * reorder what is shown), U+2028 and U+2029 (line breaks to some viewers)
 * and the noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF: not allowed in
 * XML or HTML).
 */
bool th_report_cp_unsafe(unsigned long cp);
/* One code point (its UTF-8 bytes) or one of TAB, LF, CR, in the format's
 * own escaping. */
typedef void th_report_put_fn(FILE *out, const char *bytes, size_t len);
/* Write s through put, every unsafe code point as a visible escape:
 * \xNN below U+0080 (and for a byte that is not UTF-8), \uNNNN in the
 * BMP, \UNNNNNNNN above it. */
void th_report_put_visible(FILE *out, const char *s, th_report_put_fn *put);
/* The same on one line, for terminals and line-based formats: backslash
 * as \\, TAB \t, LF \n, CR \r. */
void th_report_put_line(FILE *out, const char *s);
/* th_report_short_count(), th_report_put_wrapped(): render.h. Markdown's and
 * HTML's escaping: their back ends of the document writer (doc.h). */

#endif

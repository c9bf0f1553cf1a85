/* SPDX-License-Identifier: MIT */
/* The HTML back end's own calls (doc_html.c), for the rows only report.html
 * has (its style, render_html.c; the charts, render_charts.c; the grid,
 * section_matrix.c; the verdict card, section_card.c): escaping, badges and
 * the outcome colours. Not part of the public API. */
#ifndef TH_REPORT_HTML_H
#define TH_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

/* Text and attribute values: markup escaped, every character HTML forbids
 * (controls, noncharacters) and every other unsafe one as a visible escape
 * (report_internal.h); in an attribute a newline is kept as &#10;. */
void th_html_text(FILE *out, const char *s);
void th_html_attr(FILE *out, const char *s);
/* Text as inline <code>. */
void th_html_code(FILE *out, const char *s);

/* An outcome as a coloured badge (reg: framed, a regression), suffix after
 * its name ("" or NULL for none). */
void th_html_badge(FILE *out, enum th_outcome o, bool reg, const char *suffix);
/* A cell's observed outcome as a badge, or one badge per outcome with its
 * count when the runs disagreed; with_verdict adds "(regression; expected
 * X)". Markdown's: doc_markdown.c. */
void th_html_cell_badges(FILE *out, const struct th_cell *c, bool with_verdict);

/* Severe outcomes in reds and purples, defences in greens, neutral greys;
 * an outcome is always also named or shown by its symbol, so colour is
 * never the only signal. */
struct th_html_color {
	const char *bg, *fg;
};
extern const struct th_html_color th_html_palette[TH_OUTCOME_COUNT];

/* The charts of report.html, inline SVG (no script): a 100% bar per
 * config and variant of the outcomes observed (every attack, technique and
 * toolchain), and a heat map of how often each config stops each technique
 * (BLOCKED_CFI or DETECTED, of the attack cells that ran). */
void th_html_chart_outcomes(FILE *out, const struct th_results *res);
void th_html_chart_defences(FILE *out, const struct th_results *res);
/* The outcome chart's numbers as a table, folded (details): what the
 * chart shows, for a screen reader. */
void th_html_chart_outcomes_table(FILE *out, const struct th_results *res);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The matrix (sections.h): every cell of the model. Both formats have it at
 * the same place, as two views, each a row of sections.c: report.md's a
 * table per toolchain and variant, a row per attack, the outcome (or the
 * counts over runs) in each config's column, written against doc.h;
 * report.html's a colour-coded grid per toolchain whose headers stay in
 * view, each cell a link to its evidence (no script), written with html.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "html.h"
#include "report_internal.h"
#include "sections.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- report.md's: a table per toolchain and variant ---- */

/* One toolchain and variant: a row per attack, a column per config. */
static int variant_table(struct th_doc *d, const struct th_results *res, const struct th_cell **all,
			 const struct th_toolchain *tc, enum th_variant v)
{
	size_t nrows, ncols;
	int oom;
	const struct th_cell **rows = th_report_attack_rows(all, res->ncells, tc->name, v, &nrows, &oom);
	size_t *cols;
	const char **heads;

	if (!nrows)
		return oom ? -1 : 0;
	cols = th_report_config_columns(res, tc->name, v, NULL, &ncols);
	heads = cols ? calloc(ncols + 1, sizeof(*heads)) : NULL;
	if (!heads) {
		free(cols);
		free(rows);
		return -1;
	}
	th_doc_heading_begin(d, 3, NULL);
	th_doc_text(d, tc->name);
	th_doc_rawf(d, ", %s", th_variant_name(v));
	th_doc_heading_end(d, 3);
	heads[0] = "attack";
	for (size_t k = 0; k < ncols; k++)
		heads[k + 1] = res->configs[cols[k]].name;
	th_doc_table_head_text(d, heads, ncols + 1);
	for (size_t r = 0; r < nrows; r++) {
		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_code(d, rows[r]->attack);
		th_doc_cell_end(d);
		for (size_t k = 0; k < ncols; k++) {
			const struct th_cell *c = th_results_find_cell(res, rows[r]->platform,
								       rows[r]->attack, v,
								       res->configs[cols[k]].name,
								       tc->name);

			th_doc_cell_begin(d);
			if (c)
				th_doc_cell_outcome(d, c, true);
			th_doc_cell_end(d);
		}
		th_doc_row_end(d);
	}
	th_doc_table_end(d);
	free(heads);
	free(cols);
	free(rows);
	return 0;
}

int th_section_matrix_tables(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_heading(d, 2, "matrix", "Full matrix");
	th_doc_para(d);
	th_doc_raw(d, "One table per toolchain and variant; a cell holds the observed outcome, or the "
		   "counts over runs when they disagreed (randstruct seeds).");
	th_doc_end_para(d);
	for (size_t t = 0; t < c->ntc; t++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			if (variant_table(d, c->res, c->all, c->tcs[t], (enum th_variant)v))
				return -1;
	return 0;
}

/* ---- report.html's: a grid per toolchain (HTML only: html.h) ---- */

/* "ATTACK api/variant/config on toolchain\noutcome: ...": a grid cell's entry in its
 * row's evidence (grid_evidence), shown with white-space:pre-line. */
static void cell_tooltip(FILE *out, const struct th_cell *c)
{
	char buf[200];
	const char *exp = th_cell_expected_text(c, buf, sizeof(buf));

	th_html_attr(out, c->attack);
	fprintf(out, " %s/%s/", th_api_name(c->api), th_variant_name(c->variant));
	th_html_attr(out, c->config);
	fputs(" on ", out);
	th_html_attr(out, c->toolchain);
	fprintf(out, "&#10;outcome: %s&#10;runs: %u", th_outcome_name(th_cell_observed(c)), c->runs);
	if (c->runs) {
		fputs(" (", out);
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			fprintf(out, "%s%s %u", first ? "" : ", ", th_outcome_name((enum th_outcome)i),
				c->counts[i]);
			first = 0;
		}
		fputc(')', out);
	}
	fprintf(out, "&#10;expected: %s&#10;verdict: %s&#10;payload: ", exp ? exp : "none",
		th_verdict_name(th_results_shown_verdict(c)));
	th_html_attr(out, c->payload);
	fputs(", technique: ", out);
	th_html_attr(out, c->technique);
	fputs(", timing: ", out);
	th_html_attr(out, c->timing);
	fputs("&#10;evidence: ", out);
	th_html_attr(out, *c->evidence ? c->evidence : "(none recorded)");
}

/* Columns shared by every toolchain's grid, so the grids line up. */
struct grid {
	bool var_on[TH_VARIANT_COUNT];
	size_t *cols;		/* config indexes with any cell */
	size_t ncols;
};

static int grid_layout(const struct th_results *res, struct grid *g)
{
	memset(g, 0, sizeof(*g));
	g->cols = th_report_config_columns(res, NULL, TH_VARIANT_INVALID, g->var_on, &g->ncols);
	return g->cols ? 0 : -1;
}

static void legend(FILE *out)
{
	fputs("<div class=\"scroll\"><table class=\"grid\">\n<tbody>\n", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		enum th_outcome o = (enum th_outcome)i;

		fprintf(out, "<tr><td class=\"c o-%s\">%c</td><th scope=\"row\" class=\"a\">%s: ", th_outcome_name(o),
			th_outcome_symbol(o), th_outcome_name(o));
		th_html_text(out, th_outcome_meaning(o));
		fputs("</th></tr>\n", out);
	}
	fputs("<tr><td class=\"c o-HIJACKED reg\">H!</td><th scope=\"row\" class=\"a\">black frame and "
	      "<code>!</code>: the cell regressed (observed more severe than expected, or outside its declared set)</th></tr>\n"
	      "<tr><td class=\"c o-CRASHED\">C*</td><th scope=\"row\" class=\"a\"><code>*</code>: the runs "
	      "disagreed (randstruct seeds); the most severe outcome is shown</th></tr>\n"
	      "<tr><td class=\"c missing\"></td><th scope=\"row\" class=\"a\">blank: no such cell in the "
	      "results</th></tr>\n</tbody>\n</table></div>\n", out);
}

/* The cell of row's attack at variant v and column k of the grid, or NULL. */
static const struct th_cell *grid_cell(const struct th_results *res, const struct grid *g,
				       const struct th_toolchain *tc, const struct th_cell *row,
				       int v, size_t k)
{
	return th_results_find_cell(res, row->platform, row->attack, (enum th_variant)v,
				    res->configs[g->cols[k]].name, tc->name);
}

/* How much of row's attack name its group's header already says: the
 * technique and timing it begins with, as the name spells them
 * ("MEMCPY_INTRA_BEFORE_ARM_" of memcpy-intra, before-arm); 0 when the name
 * does not begin so (the grid then shows it whole). */
static size_t group_prefix(const struct th_cell *row)
{
	const char *parts[] = { row->technique, strcmp(row->timing, "-") ? row->timing : "" };
	const char *a = row->attack;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!*parts[i])
			continue;
		for (const char *p = parts[i]; *p; p++, n++) {
			char want = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') :
				    *p == '-' || *p == ':' ? '_' : *p;

			if (a[n] != want)
				return 0;
		}
		if (a[n++] != '_')
			return 0;
	}
	return a[n] ? n : 0;
}

/* A grid row's name: its short form (what the group's header does not
 * say), a line break allowed after each '_', the prefix kept for a screen
 * reader and a copy but not shown; the full name in the title and, one tap
 * or keystroke away, at the head of the row's evidence. */
static void grid_name(FILE *out, const struct th_cell *row)
{
	size_t pre = group_prefix(row);
	char piece[128];

	if (pre) {
		snprintf(piece, sizeof(piece), "%.*s", (int)pre, row->attack);
		fputs("<span class=\"pfx\">", out);
		th_html_text(out, piece);
		fputs("</span>", out);
	}
	for (const char *p = row->attack + pre; *p;) {
		size_t w = strcspn(p, "_");

		w += p[w] == '_';
		if (w >= sizeof(piece))
			w = sizeof(piece) - 1;
		snprintf(piece, sizeof(piece), "%.*s", (int)w, p);
		th_html_text(out, piece);
		p += w;
		if (*p)
			fputs("<wbr>", out);
	}
}

/* Each row's evidence, after its grid: a block per attack (id eT-R) with an
 * entry per cell (eT-R-N), each hidden until a link leads to it (CSS
 * :target; the page has no script). */
static void grid_evidence(FILE *out, const struct th_results *res, const struct grid *g,
			  const struct th_toolchain *tc, size_t idx, const struct th_cell **rows,
			  size_t nrows)
{
	fputs("<div class=\"evs\">\n", out);
	for (size_t r = 0; r < nrows; r++) {
		size_t n = 0;

		fprintf(out, "<div class=\"ev\" id=\"e%zu-%zu\"><p><strong>", idx + 1,
			r + 1);
		th_html_text(out, rows[r]->attack);
		fputs("</strong> on ", out);
		th_html_text(out, tc->name);
		fputs(": every cell, with its evidence</p>\n<ul>\n", out);
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			if (!g->var_on[v])
				continue;
			for (size_t k = 0; k < g->ncols; k++) {
				const struct th_cell *c = grid_cell(res, g, tc, rows[r], v, k);

				if (!c)
					continue;
				fprintf(out, "<li id=\"e%zu-%zu-%zu\">", idx + 1, r + 1, ++n);
				cell_tooltip(out, c);
				fputs("</li>\n", out);
			}
		}
		fprintf(out, "</ul>\n<p><a href=\"#g%zu-%zu\">Back to the grid</a></p></div>\n",
			idx + 1, r + 1);
	}
	fputs("</div>\n", out);
}

static int grid_toolchain(FILE *out, const struct th_results *res, const struct th_cell **all,
			  const struct grid *g, const struct th_toolchain *tc, size_t idx)
{
	unsigned counts[TH_OUTCOME_COUNT];
	size_t nrows, ncells, nreg = 0;
	int oom;
	const struct th_cell **rows = th_report_attack_rows(all, res->ncells, tc->name,
							    TH_VARIANT_INVALID, &nrows, &oom);
	if (oom)
		return -1;
	for (size_t i = 0; i < res->ncells; i++)
		nreg += !strcmp(res->cells[i]->toolchain, tc->name) &&
			th_results_shown_verdict(res->cells[i]) == TH_VERDICT_REGRESSION;
	ncells = th_results_count(res, tc->name, counts);
	fprintf(out, "<h3 id=\"matrix-%zu\">", idx + 1);
	th_html_text(out, tc->name);
	fputs(" (", out);
	th_html_text(out, *tc->version ? tc->version : "version unknown");
	fputs(")</h3>\n", out);
	if (!ncells) {
		fputs("<p>No cells.</p>\n", out);
		free(rows);
		return 0;
	}
	fprintf(out, "<p>%zu cells:", ncells);
	for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
		if (!counts[i])
			continue;
		fputs(first ? " " : ", ", out);
		th_html_badge(out, (enum th_outcome)i, false, NULL);
		fprintf(out, " %u", counts[i]);
		first = 0;
	}
	if (nreg)
		fprintf(out, ". <strong>%zu regression%s</strong> (framed in black)", nreg,
			nreg == 1 ? "" : "s");
	fputs(".</p>\n", out);

	/* Head: variant groups over config names; both rows, and the attack
	 * names, stay in view while the grid scrolls in its box. */
	/* The corner says when the grid goes on past its box's right edge
	 * (CSS: the box's scroll state; no script). */
	fputs("<div class=\"gridwrap\"><table class=\"grid\">\n<thead>\n<tr class=\"vh\">"
	      "<th scope=\"col\" class=\"a\" rowspan=\"2\">attack<span class=\"more\" "
	      "aria-hidden=\"true\">more columns: scroll &#8594;</span></th>", out);
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		if (g->var_on[v])
			fprintf(out, "<th scope=\"colgroup\" class=\"v vs\" colspan=\"%zu\">%s</th>", g->ncols,
				th_variant_name((enum th_variant)v));
	fputs("</tr>\n<tr class=\"ch\">", out);
	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		if (!g->var_on[v])
			continue;
		for (size_t k = 0; k < g->ncols; k++) {
			const struct th_config *cfg = &res->configs[g->cols[k]];

			fprintf(out, "<th scope=\"col\" class=\"cfg%s\" title=\"", k ? "" : " vs");
			th_html_attr(out, *cfg->flags ? cfg->flags : cfg->name);
			fputs("\">", out);
			th_html_text(out, cfg->name);
			fputs("</th>", out);
		}
	}
	fputs("</tr>\n</thead>\n<tbody>\n", out);

	size_t span = 1;

	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		span += g->var_on[v] ? g->ncols : 0;
	for (size_t r = 0; r < nrows; r++) {
		const struct th_cell *row = rows[r];

		if (!r || !th_report_same_group(rows[r - 1], row)) {
			/* The header spans the row; its text stays in view
			 * when the grid scrolls sideways (CSS: sticky). */
			fprintf(out, "<tr class=\"g\"><th scope=\"rowgroup\" colspan=\"%zu\"><span>", span);
			th_html_text(out, row->technique);
			fputs(", ", out);
			th_html_text(out, strcmp(row->timing, "-") ? row->timing : "no timing");
			fputs("</span></th></tr>\n", out);
		}
		/* Reaching a cell's evidence without hover, and without a
		 * tab stop per cell (9,240 in a full run) or a script (the
		 * page's policy forbids one): the attack's name is a link,
		 * one tab stop per row, to the row's evidence, every cell in
		 * it as text; each cell is a link (out of the tab order) to
		 * its own entry, for a tap or a click. A screen reader meets
		 * the cells as links, in the table (its headers name the
		 * cell), with their symbol. The entries replace the tooltips
		 * that held the same text (a cell has no title now), so the
		 * page grows only by the links and entries' markup. */
		fprintf(out, "<tr id=\"g%zu-%zu\"><th scope=\"row\" class=\"a\"><a href=\"#e%zu-%zu\" title=\"",
			idx + 1, r + 1, idx + 1, r + 1);
		th_html_attr(out, row->attack);
		fputs("\">", out);
		grid_name(out, row);
		fputs("</a></th>", out);
		size_t n = 0;

		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			if (!g->var_on[v])
				continue;
			for (size_t k = 0; k < g->ncols; k++) {
				const struct th_cell *c = grid_cell(res, g, tc, row, v, k);
				const char *vs = k ? "" : " vs";

				if (!c) {
					fprintf(out, "<td class=\"c missing%s\"></td>", vs);
					continue;
				}
				enum th_outcome o = th_cell_observed(c);
				bool reg = th_results_shown_verdict(c) == TH_VERDICT_REGRESSION;

				fprintf(out, "<td class=\"c o-%s%s%s\"><a href=\"#e%zu-%zu-%zu\" tabindex=\"-1\">"
					"%c%s</a></td>", th_outcome_name(o), reg ? " reg" : "", vs, idx + 1, r + 1,
					++n, th_outcome_symbol(o), reg ? "!" : th_report_kinds(c) > 1 ? "*" : "");
			}
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
	grid_evidence(out, res, g, tc, idx, rows, nrows);
	free(rows);
	return 0;
}

static int matrix(FILE *out, const struct th_results *res, const struct th_cell **all,
		  const struct th_toolchain **tcs, size_t ntc)
{
	struct grid g;

	fputs("<h2 id=\"matrix\">Matrix</h2>\n<p>One grid per toolchain: a row per attack, grouped "
	      "by technique and timing, named by what its group's header does not say (the full "
	      "name on hover and at the head of its evidence); a column per config, grouped by "
	      "variant. A cell shows its "
	      "observed (most severe) outcome. Click or tap a cell for its counts, expectation, "
	      "verdict and evidence; from the keyboard, an attack's name (one tab stop per row) "
	      "leads to every cell of its row with their evidence. The grid scrolls in its box "
	      "(its corner says when more columns are to the right); its headers stay in "
	      "view.</p>\n<details><summary>Legend</summary>\n", out);
	legend(out);
	fputs("</details>\n", out);
	if (grid_layout(res, &g))
		return -1;
	for (size_t t = 0; t < ntc; t++) {
		if (grid_toolchain(out, res, all, &g, tcs[t], t)) {
			free(g.cols);
			return -1;
		}
	}
	free(g.cols);
	return 0;
}

int th_section_matrix_grid(struct th_doc *d, const struct th_section_ctx *c)
{
	return matrix(d->out, c->res, c->all, c->tcs, c->ntc);
}

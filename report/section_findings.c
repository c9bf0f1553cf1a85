/* SPDX-License-Identifier: MIT */
/*
 * The headline findings and the differences (headlines.h picks their
 * cells), one walk for report.md and report.html (sections.h). A finding
 * is a question and its answer (th_doc_finding_begin(): HTML folds it, the
 * answer in its summary), then its table and the evidence (a fold of its
 * own in HTML).
 */
#define _POSIX_C_SOURCE 200809L
#include "headlines.h"
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>
#include <string.h>

/* Evidence lists this long start folded in HTML. */
#define EVIDENCE_OPEN_MAX 6

/* "Observed: clang-14: HIJACKED in 2 cells; ...". */
static void observed_line(struct th_doc *d, const struct th_cell **cells, size_t n,
			  const struct th_section_ctx *c)
{
	th_doc_raw(d, "Observed:");
	for (size_t t = 0; t < c->ntc; t++) {
		unsigned counts[TH_OUTCOME_COUNT];
		unsigned total = th_headline_observed(cells, n, c->tcs[t]->name, counts);

		th_doc_raw(d, t ? "; " : " ");
		th_doc_strong_begin(d);
		th_doc_text(d, c->tcs[t]->name);
		th_doc_strong_end(d);
		th_doc_raw(d, ":");
		if (!total)
			th_doc_raw(d, " not run");
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!counts[i])
				continue;
			th_doc_raw(d, first ? " " : ", ");
			th_doc_outcome(d, (enum th_outcome)i);
			th_doc_rawf(d, " in %u cell%s", counts[i], counts[i] == 1 ? "" : "s");
			first = 0;
		}
	}
	th_doc_raw(d, ".");
}

/* The head of a table of rows: attack, api, variant, config, a column per
 * toolchain, and extra (NULL: none). */
static int row_table_head(struct th_doc *d, const struct th_section_ctx *c, const char *extra)
{
	const char **heads = calloc(5 + c->ntc, sizeof(*heads));
	size_t n = 0;

	if (!heads)
		return -1;
	heads[n++] = "attack";
	heads[n++] = "api";
	heads[n++] = "variant";
	heads[n++] = "config";
	for (size_t t = 0; t < c->ntc; t++)
		heads[n++] = c->tcs[t]->name;
	if (extra)
		heads[n++] = extra;
	th_doc_table_head_text(d, heads, n);
	free(heads);
	return 0;
}

/* A row's cells (the row itself begun and ended by the caller): its
 * attack, api, variant and config, then each toolchain's cell. */
static void row_cells(struct th_doc *d, const struct th_section_ctx *c, const struct th_cell *row,
		      bool with_verdict)
{
	th_doc_cell_begin(d);
	th_doc_code(d, row->attack);
	th_doc_cell_end(d);
	th_doc_cell(d, th_api_name(row->api));
	th_doc_cell(d, th_variant_name(row->variant));
	th_doc_cell_begin(d);
	th_doc_text(d, row->config);
	th_doc_cell_end(d);
	for (size_t t = 0; t < c->ntc; t++) {
		const struct th_cell *x = th_results_find_cell(c->res, row->platform, row->attack,
							       row->variant, row->config, c->tcs[t]->name);

		th_doc_cell_begin(d);
		if (x)
			th_doc_cell_outcome(d, x, with_verdict);
		else
			th_doc_muted(d, "not run");
		th_doc_cell_end(d);
	}
}

/* Each cell's evidence, verbatim: folded in HTML when the list is long. */
static void evidence(struct th_doc *d, const struct th_cell **cells, size_t n)
{
	char summary[64];

	snprintf(summary, sizeof(summary), "Evidence, verbatim (%zu cell%s)", n, n == 1 ? "" : "s");
	th_doc_fold_begin(d, summary, n <= EVIDENCE_OPEN_MAX, 0, "Evidence, verbatim");
	for (size_t i = 0; i < n; i++) {
		const struct th_cell *c = cells[i];

		th_doc_line_begin(d);
		/* Outside a table: a '|' in the name needs no escape. */
		th_doc_code(d, c->attack);
		th_doc_rawf(d, " %s/%s/", th_api_name(c->api), th_variant_name(c->variant));
		th_doc_text(d, c->config);
		th_doc_raw(d, " on ");
		th_doc_text(d, c->toolchain);
		th_doc_raw(d, ": ");
		th_doc_cell_outcome(d, c, false);
		th_doc_line_end(d);
		th_doc_pre(d, *c->evidence ? c->evidence : "(no evidence recorded)");
	}
	th_doc_fold_end(d);
}

struct headline_answer {
	const struct th_cell **cells;
	size_t n;
	const struct th_section_ctx *c;
};

static void headline_answer(struct th_doc *d, const void *x)
{
	const struct headline_answer *a = x;

	if (!a->n)
		th_doc_raw(d, "Observed: not run (the results hold no such cell).");
	else
		observed_line(d, a->cells, a->n, a->c);
}

static int headline(struct th_doc *d, const struct th_section_ctx *c, const struct th_headline *h)
{
	int oom;
	size_t n;
	const struct th_cell **cells = th_headline_cells(c->all, c->res->ncells, h, &n, &oom);
	struct headline_answer a = { cells, n, c };
	char about[1024];
	struct th_doc_finding f = { .title = h->title, .about = about, .note = h->note,
				    .answer = headline_answer, .x = &a };

	if (oom)
		return -1;
	th_headline_about(h, about, sizeof(about));
	th_doc_finding_begin(d, &f);
	if (!n) {
		th_doc_finding_end(d);
		return 0;
	}
	if (row_table_head(d, c, NULL)) {
		free(cells);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		/* Display order puts a row's toolchains next to each other. */
		if (i && th_headline_same_row(cells[i - 1], cells[i]))
			continue;
		th_doc_row_begin(d);
		row_cells(d, c, cells[i], false);
		th_doc_row_end(d);
	}
	th_doc_table_end(d);
	evidence(d, cells, n);
	th_doc_finding_end(d);
	free(cells);
	return 0;
}

int th_section_findings(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_heading(d, 2, "findings", "Headline findings");
	th_doc_para(d);
	th_doc_raw(d, "Each question is answered only by the cells it names, as they were observed "
		   "in this run; ");
	th_doc_text(d, "\"not run\"");
	th_doc_raw(d, " means the results hold no such cell.");
	th_doc_fold_hint(d, " Open one for its cells and their evidence.");
	th_doc_end_para(d);
	for (size_t h = 0; h < th_nheadlines; h++)
		if (headline(d, c, &th_headlines[h]))
			return -1;
	return 0;
}


/* The configs some toolchain does not support, after "...unsupported on a
 * toolchain:". Return: how many. */
static int unsupported(struct th_doc *d, const struct th_results *res)
{
	int listed = 0;

	for (size_t c = 0; c < res->nconfigs; c++) {
		const struct th_config *cfg = &res->configs[c];

		for (size_t s = 0; s < cfg->nsupport; s++) {
			if (cfg->support[s].supported)
				continue;
			th_doc_raw(d, listed++ ? "; " : " ");
			th_doc_code(d, cfg->name);
			th_doc_raw(d, " on ");
			th_doc_text(d, cfg->support[s].toolchain);
			if (*cfg->support[s].reason) {
				th_doc_raw(d, " (");
				th_doc_text(d, cfg->support[s].reason);
				th_doc_raw(d, ")");
			}
		}
	}
	return listed;
}

/* Rows that regressed or differ between toolchains. Differences caused
 * only by an unsupported config are summed up below the table instead of
 * filling it. */
int th_section_differences(struct th_doc *d, const struct th_section_ctx *c)
{
	size_t n, unsup;
	int oom;
	struct th_diff_row *rows = th_headline_differences(c->all, c->res->ncells, &n, &unsup, &oom);
	char listed[48];
	/* Open when there is something to see; a regression is never folded. */
	struct th_doc_finding f = { .title = th_differences_title, .about = th_differences_about,
				    .open = n != 0, .summary = listed };

	if (oom)
		return -1;
	snprintf(listed, sizeof(listed), "%zu row%s listed.", n, n == 1 ? "" : "s");
	th_doc_finding_begin(d, &f);
	if (n && row_table_head(d, c, "why listed")) {
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (rows[i].regressed)
			th_doc_row_begin_mark(d, "regrow");
		else
			th_doc_row_begin(d);
		row_cells(d, c, rows[i].cell, true);
		th_doc_cell_begin(d);
		if (rows[i].regressed)
			th_doc_alert(d, "regression");
		th_doc_raw(d, rows[i].regressed && rows[i].differs ? ", " : "");
		th_doc_raw(d, rows[i].differs ? "differs between toolchains" : "");
		th_doc_cell_end(d);
		th_doc_row_end(d);
	}
	if (n) {
		th_doc_table_end(d);
	} else {
		th_doc_para(d);
		th_doc_raw(d, "Observed: no cell regressed and no outcome differs between toolchains.");
		th_doc_end_para(d);
	}
	if (unsup) {
		th_doc_para(d);
		th_doc_rawf(d, "%zu more (attack, variant, config) rows differ only because a config "
			    "is unsupported on a toolchain:", unsup);
		th_doc_raw(d, unsupported(d, c->res) ? "." : " (no config is marked unsupported).");
		th_doc_end_para(d);
	}
	th_doc_finding_end(d);
	free(rows);
	return 0;
}

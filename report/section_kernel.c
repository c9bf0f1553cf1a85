/* SPDX-License-Identifier: MIT */
/*
 * The real-kernel section of report.md and report.html (sections.h): one
 * walk for both formats, the platform's cells folded in HTML.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>
#include <string.h>

/* A cell's key, the first four columns of both tables: attack (code),
 * variant, config, toolchain. */
static void key_cells(struct th_doc *d, const char *attack, enum th_variant variant,
		      const char *config, const char *toolchain)
{
	th_doc_cell_begin(d);
	th_doc_code(d, attack);
	th_doc_cell_end(d);
	th_doc_cell(d, th_variant_name(variant));
	th_doc_cell_begin(d);
	th_doc_text(d, config);
	th_doc_cell_end(d);
	th_doc_cell_begin(d);
	th_doc_text(d, toolchain);
	th_doc_cell_end(d);
}

static const char *const agree_heads[] = { "attack", "variant", "config", "toolchain",
					   "model", "kernel", "agreement" };
static const char *const cell_heads[] = { "attack", "variant", "config", "toolchain",
					  "outcome", "evidence" };

/* What the kernel is: source, compiler, QEMU and CPU, configs. */
static void facts(struct th_doc *d, const struct th_platform *pf)
{
	th_doc_list_begin(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Kernel: ");
	th_doc_text(d, *pf->source ? pf->source : "source not recorded");
	th_doc_item_end(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Compiler: ");
	th_doc_text(d, *pf->compiler ? pf->compiler : "not recorded");
	th_doc_item_end(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "QEMU: ");
	th_doc_text(d, *pf->qemu ? pf->qemu : "not recorded");
	th_doc_raw(d, ", CPU ");
	th_doc_text(d, *pf->cpu ? pf->cpu : "not recorded");
	if (pf->boot_seconds_median >= 0)
		th_doc_rawf(d, ", boot %.2f s (median)", pf->boot_seconds_median);
	th_doc_item_end(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Kernel configs:");
	for (size_t c = 0; c < pf->nconfigs; c++) {
		th_doc_raw(d, c ? "; " : " ");
		th_doc_code(d, pf->configs[c].name);
		th_doc_raw(d, ": ");
		th_doc_code(d, pf->configs[c].kconfig);
	}
	th_doc_raw(d, pf->nconfigs ? "" : " none");
	th_doc_item_end(d);
	th_doc_list_end(d);
}

/* "38 cells: 30 agree with the model, ...": a paragraph after the facts,
 * the disagreements marked. */
static void counts(struct th_doc *d, const struct th_agreement_counts *k)
{
	char n[48];

	th_doc_para_mark(d, "gate");
	th_doc_rawf(d, "%zu cell%s: %zu agree with the model, %zu declared difference%s, ", k->cells,
		    k->cells == 1 ? "" : "s", k->agree, k->declared, k->declared == 1 ? "" : "s");
	snprintf(n, sizeof(n), "%zu disagree", k->disagree);
	if (k->disagree)
		th_doc_alert(d, n);
	else
		th_doc_raw(d, n);
	if (k->alone)
		th_doc_rawf(d, ", %zu without a model cell", k->alone);
	th_doc_raw(d, ".");
	th_doc_end_para(d);
}

/* Each of the platform's cells beside the model's of the same attack,
 * variant, config and toolchain; a disagreement not declared marked. */
static void beside(struct th_doc *d, const struct th_agreement *rows, size_t nrows,
		   const char *platform)
{
	size_t shown = 0;

	for (size_t i = 0; i < nrows; i++) {
		const struct th_agreement *r = &rows[i];

		if (strcmp(r->platform, platform))
			continue;
		if (!shown++)
			th_doc_table_head(d, agree_heads, sizeof(agree_heads) / sizeof(agree_heads[0]));
		if (r->agrees || r->reason)
			th_doc_row_begin(d);
		else
			th_doc_row_begin_mark(d, "regrow");
		key_cells(d, r->attack, r->variant, r->config, r->toolchain);
		th_doc_cell_begin(d);
		th_doc_outcome(d, r->model);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_outcome(d, r->kernel);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		if (r->agrees) {
			th_doc_raw(d, "agrees");
		} else if (r->reason) {
			th_doc_raw(d, "declared difference: ");
			th_doc_text(d, r->reason);
			th_doc_raw(d, " (");
			th_doc_code(d, r->rule);
			th_doc_raw(d, ")");
		} else {
			th_doc_strong(d, "disagrees");
			th_doc_raw(d, " (not declared)");
		}
		th_doc_cell_end(d);
		th_doc_row_end(d);
	}
	if (shown) {
		th_doc_table_end(d);
		return;
	}
	th_doc_para(d);
	th_doc_raw(d, "No cell of the model has the same attack, variant, config and toolchain.");
	th_doc_end_para(d);
}

/* The platform's own cells with their evidence: folded in HTML, under a
 * heading in Markdown. */
static int cells(struct th_doc *d, const struct th_results *res, const char *platform)
{
	struct th_results view;
	const struct th_cell **all;
	char summary[64];
	int oom;

	if (th_results_view(res, platform, &view))
		return -1;
	all = th_report_display_cells(&view, &oom);
	snprintf(summary, sizeof(summary), "Its %zu cells, with their evidence", view.ncells);
	th_doc_fold_begin(d, summary, false, 4, "Cells");
	if (!view.ncells) {
		th_doc_para(d);
		th_doc_raw(d, "None: the results declare the platform but hold none of its cells.");
		th_doc_end_para(d);
	} else {
		th_doc_table_head(d, cell_heads, sizeof(cell_heads) / sizeof(cell_heads[0]));
	}
	for (size_t i = 0; all && i < view.ncells; i++) {
		const struct th_cell *c = all[i];

		th_doc_row_begin(d);
		key_cells(d, c->attack, c->variant, c->config, c->toolchain);
		th_doc_cell_begin(d);
		th_doc_cell_outcome(d, c, true);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_text(d, *c->evidence ? c->evidence : "(none recorded)");
		th_doc_cell_end(d);
		th_doc_row_end(d);
	}
	if (view.ncells)
		th_doc_table_end(d);
	th_doc_fold_end(d);
	free(all);
	th_results_view_free(&view);
	return oom ? -1 : 0;
}

static int section(struct th_doc *d, const struct th_results *res)
{
	struct th_agreement *rows;
	size_t nrows, np;
	const char **names;
	int rc = 0;

	if (th_results_kernels(res, &names, &np, &rows, &nrows))
		return -1;
	if (!np)
		return 0;
	th_doc_heading(d, 2, "kernel", "Real kernel");
	th_doc_para(d);
	th_doc_raw(d, "The same attacks on a real Linux kernel, booted under QEMU once per cell, its "
		   "serial console classified into the same outcomes; each cell beside the model's "
		   "cell of the same attack, variant, config and toolchain. Where the two differ, ");
	th_doc_code(d, "timerharness check");
	th_doc_raw(d, " fails unless ");
	th_doc_code(d, "attacks/expected.tsv");
	th_doc_raw(d, " declares the difference (");
	th_doc_code(d, "@differs");
	th_doc_raw(d, ").");
	th_doc_end_para(d);
	for (size_t p = 0; p < np && !rc; p++) {
		const struct th_platform *pf = th_results_find_platform(res, names[p]);
		struct th_agreement_counts k;

		th_results_agreement_counts(res, rows, nrows, names[p], &k);
		th_doc_heading_text(d, 3, NULL, pf->name);
		facts(d, pf);
		counts(d, &k);
		beside(d, rows, nrows, pf->name);
		rc = cells(d, res, pf->name);
	}
	th_results_kernels_free(names, rows, nrows);
	return rc;
}

int th_section_kernel(struct th_doc *d, const struct th_section_ctx *c)
{
	return section(d, c->full);
}

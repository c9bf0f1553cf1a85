/* SPDX-License-Identifier: MIT */
/*
 * The verdict screen: what `timerharness matrix` ends with and `report
 * --format verdict` prints. The answer first (the verdict card, card.h),
 * then what else was looked at (CFI reach, fuzzing campaigns) and the
 * totals, in at most TH_VERDICT_WIDTH columns and a dozen lines, so that a
 * run's last screen holds it beside the gate's findings. Every figure comes
 * from the cells; text from the model is escaped.
 */
#define _POSIX_C_SOURCE 200809L
#include "card.h"
#include "render.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* "4.14 legacy", "4.14-rc3 shim", "4.15 modern": a row's label. */
static void variant_label(enum th_variant v, char *buf, size_t n)
{
	snprintf(buf, n, "%s %s", th_variant_kernel(v),
		 v == TH_VARIANT_TRANSITIONAL ? "shim" : th_variant_name(v));
}

static void put_outcome(FILE *out, enum th_outcome o, int width, int use_color)
{
	const char *name = o == TH_OUTCOME_INVALID ? "not run" : th_outcome_name(o);
	const char *col = o == TH_OUTCOME_INVALID ? "" : th_report_ansi_color(o);

	if (use_color && *col)
		fprintf(out, "%s%s" TH_ANSI_RESET, col, name);
	else
		fputs(name, out);
	for (int i = (int)strlen(name); i < width; i++)
		fputc(' ', out);
}

static int outcome_width(const struct th_card_row *rows, size_t n)
{
	int w = 7;	/* "not run" */

	for (size_t i = 0; i < n; i++)
		if (rows[i].worst != TH_OUTCOME_INVALID &&
		    (int)strlen(th_outcome_name(rows[i].worst)) > w)
			w = (int)strlen(th_outcome_name(rows[i].worst));
	return w;
}

/* One row: label, configs, outcome, distribution; trailing blanks cut. */
static void row_line(FILE *out, const char *label, int lw, const struct th_card_row *r, int ow,
		     int use_color)
{
	char counts[160];

	th_card_counts_text(r, counts, sizeof(counts));
	fprintf(out, "  %-*s  %-14s  ", lw, label, r->configs);
	if (r->worst == TH_OUTCOME_INVALID) {
		fputs("not run\n", out);
		return;
	}
	put_outcome(out, r->worst, ow, use_color);
	fprintf(out, " %s\n", counts);
}

/* The "not run" notes of rows, once when every row has the same. */
static void not_run_notes(FILE *out, const struct th_card_row *rows, size_t n)
{
	bool same = true;
	size_t first = n;

	for (size_t i = 0; i < n; i++) {
		if (!*rows[i].not_run)
			continue;
		if (first == n)
			first = i;
		same &= !strcmp(rows[i].not_run, rows[first].not_run);
	}
	if (first == n)
		return;
	for (size_t i = first; i < n; i++) {
		if (!*rows[i].not_run || (same && i != first))
			continue;
		fputs("    could not run: ", out);
		th_report_put_line(out, rows[i].not_run);
		fputc('\n', out);
	}
}

/* "Outcomes: HIJACKED 402, ..." wrapped at the screen's width. */
static void put_totals(FILE *out, const struct th_results *res)
{
	unsigned counts[TH_OUTCOME_COUNT];
	size_t n = th_report_count(res, NULL, counts);
	int col = fprintf(out, "Outcomes of %zu cells:", n);

	for (int o = 0, first = 1; o < TH_OUTCOME_COUNT; o++) {
		char item[64];
		int len;

		if (!counts[o])
			continue;
		if (!first)
			fputc(',', out), col++;
		len = snprintf(item, sizeof(item), " %s %u", th_outcome_name((enum th_outcome)o),
			       counts[o]);
		if (col + len > TH_VERDICT_WIDTH) {
			fputs("\n ", out);
			col = 1;
		}
		fputs(item, out);
		col += len;
		first = 0;
	}
	fputc('\n', out);
}

int th_render_verdict(FILE *out, const struct th_results *res, int use_color)
{
	int oom, oom_tc;
	const struct th_cell **all = th_report_display_cells(res, &oom);
	const struct th_toolchain **tcs = th_report_sorted_toolchains(res, &oom_tc);
	struct th_card card;
	char label[64];
	int lw = 13, ow;

	if (oom || oom_tc || th_card_build(all, res->ncells, &card)) {
		free(all);
		free(tcs);
		return -1;
	}
	fputs("timerharness ", out);
	th_report_put_line(out, res->version ? res->version : "?");
	fputs(" on", out);
	for (size_t t = 0; t < res->ntoolchains; t++) {
		fprintf(out, "%s ", t ? "," : "");
		th_report_put_line(out, tcs[t]->name);
		if (*tcs[t]->version && strcmp(tcs[t]->version, tcs[t]->name)) {
			fputs(" (", out);
			th_report_put_line(out, tcs[t]->version);
			fputc(')', out);
		}
	}
	fputs(res->ntoolchains ? "\n" : " no toolchain\n", out);
	if (res->partial) {
		fputs("PARTIAL run (interrupted: ", out);
		th_report_put_line(out, res->interrupted ? res->interrupted : "?");
		fputs("): cells that did not finish are missing\n", out);
	}

	fputs("Does type-based CFI stop CVE-2017-7308's overwrite of a timer?\n", out);
	fputs("  (" TH_CARD_CVE_TECHNIQUE ", " TH_CARD_CVE_TIMING " as the exploit: .function = write_cr4,\n"
	      "  and on 4.14 .data = the attacker's CR4 value)\n", out);
	ow = outcome_width(card.cve, card.ncve);
	for (size_t i = 0; i < card.ncve; i++) {
		variant_label(card.cve[i].variant, label, sizeof(label));
		row_line(out, label, lw, &card.cve[i], ow, use_color);
	}
	not_run_notes(out, card.cve, card.ncve);

	if (card.nstill) {
		fputs("What 4.15 + CFI does not stop (the attacker's target ran; any technique):\n", out);
		for (size_t i = 0; i < card.nstill; i++)
			if ((int)strlen(card.still[i].payload) > lw)
				lw = (int)strlen(card.still[i].payload);
		ow = outcome_width(card.still, card.nstill);
		for (size_t i = 0; i < card.nstill; i++)
			row_line(out, card.still[i].payload, lw, &card.still[i], ow, use_color);
		not_run_notes(out, card.still, card.nstill);
	}
	/* Sections other parts of the run add to the results; until a run
	 * records them, the screen says they were not run. */
	fputs("CFI reach at the timer call site: not run\n", out);
	fputs("Fuzzing campaigns: not run\n", out);
	put_totals(out, res);
	th_card_free(&card);
	free(all);
	free(tcs);
	return ferror(out) ? -1 : 0;
}

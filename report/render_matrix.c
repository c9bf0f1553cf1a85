/* SPDX-License-Identifier: MIT */
/* The terminal matrix: one symbol per cell, fitting TH_MATRIX_WIDTH columns. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *th_report_ansi_color(enum th_outcome o)
{
	switch (o) {
	case TH_HIJACKED: case TH_PRIVILEGED_WRITE: case TH_HARNESS_ERROR: return "\033[1;31m";
	case TH_REDIRECTED: return "\033[31m";
	case TH_CRASHED: return "\033[35m";
	case TH_HANG: case TH_TIMER_LOST: return "\033[33m";
	case TH_FALSE_POSITIVE: return "\033[1;33m";
	case TH_BLOCKED_CFI: return "\033[32m";
	case TH_DETECTED: return "\033[36m";
	case TH_UNSUPPORTED: case TH_NOT_APPLICABLE: return "\033[2m";
	default: return "";
	}
}


/* Column key of config column i when names do not fit: 1..9, a..z, then
 * numbers. */
static void column_key(size_t i, char *buf, size_t n)
{
	static const char keys[] = "123456789abcdefghijklmnopqrstuvwxyz";

	if (i < sizeof(keys) - 1)
		snprintf(buf, n, "%c", keys[i]);
	else
		snprintf(buf, n, "%zu", i + 1);
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* s in exactly w columns: padded, or cut with a trailing '~'. */
static void put_fit(FILE *out, const char *s, size_t w)
{
	size_t l = strlen(s);

	if (l <= w) {
		fputs(s, out);
		pad(out, w - l);
	} else if (w) {
		fwrite(s, 1, w - 1, out);
		fputc('~', out);
	}
}

/* "what: N cells: HIJACKED 3, ..." wrapped at TH_MATRIX_WIDTH. */
static void put_counts_line(FILE *out, const char *what, size_t ncells,
			    const unsigned counts[TH_OUTCOME_COUNT])
{
	char item[64];
	int col = fprintf(out, "%s: %zu cells", what, ncells);

	for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
		if (!counts[i])
			continue;
		int n = snprintf(item, sizeof(item), "%s %s %u", first ? ":" : ",",
				 th_outcome_name((enum th_outcome)i), counts[i]);
		if (col + n > TH_MATRIX_WIDTH) {
			fputs("\n   ", out);
			col = 3;
		}
		fputs(item, out);
		col += n;
		first = 0;
	}
	fputc('\n', out);
}

/* Columns shared by every toolchain's table, so the tables line up and a
 * key means the same config everywhere. */
struct layout {
	bool var_on[TH_VARIANT_COUNT];
	size_t *cols;		/* config indexes with any cell */
	size_t ncols;
	bool keyed;		/* config keys instead of names */
	size_t cw;		/* width of a config column */
	size_t gw[TH_VARIANT_COUNT];	/* width of a variant group */
	size_t label_w;
};

static size_t layout_width(struct layout *L)
{
	size_t w = L->label_w;

	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		size_t vl = strlen(th_variant_name((enum th_variant)v)) + 1;

		if (!L->var_on[v])
			continue;
		L->gw[v] = L->ncols * L->cw > vl ? L->ncols * L->cw : vl;
		w += 2 + L->gw[v];
	}
	return w;
}

static int make_layout(const struct th_results *res, struct layout *L)
{
	size_t maxname = 0, width;
	char key[24];

	memset(L, 0, sizeof(*L));
	L->cols = th_report_config_columns(res, NULL, TH_VARIANT_INVALID, L->var_on, &L->ncols);
	if (!L->cols)
		return -1;
	/* "  ATTACK " */
	for (size_t i = 0; i < res->ncells; i++)
		if (strlen(res->cells[i]->attack) + 3 > L->label_w)
			L->label_w = strlen(res->cells[i]->attack) + 3;
	for (size_t k = 0; k < L->ncols; k++)
		if (strlen(res->configs[L->cols[k]].name) > maxname)
			maxname = strlen(res->configs[L->cols[k]].name);
	if (L->label_w < 8)
		L->label_w = 8;
	L->cw = maxname + 1 > 2 ? maxname + 1 : 2;	/* symbol + marker at least */
	width = layout_width(L);
	if (width > TH_MATRIX_WIDTH) {
		L->keyed = true;
		column_key(L->ncols ? L->ncols - 1 : 0, key, sizeof(key));
		L->cw = strlen(key) + 1 > 2 ? strlen(key) + 1 : 2;
		width = layout_width(L);
	}
	if (width > TH_MATRIX_WIDTH) {	/* cut attack IDs, keep every column */
		size_t over = width - TH_MATRIX_WIDTH;

		L->label_w = L->label_w > over + 12 ? L->label_w - over : 12;
	}
	return 0;
}

static void render_toolchain(FILE *out, const struct th_results *res, const struct layout *L,
			     const struct th_toolchain *tc, const struct th_cell **rows,
			     size_t nrows, int use_color, const char *platform)
{
	unsigned counts[TH_OUTCOME_COUNT];
	size_t ncells = th_results_count(res, tc->name, counts);
	char key[24], label[256];

	/* A real kernel's tables name it: "linux-6.1.192, clang-22". */
	snprintf(label, sizeof(label), "%s%s%s", platform ? platform : "", platform ? ", " : "",
		 tc->name);
	fprintf(out, "== %s (", label);
	th_report_put_line(out, *tc->version ? tc->version : "version unknown");
	if (*tc->path) {
		fputs(", ", out);
		th_report_put_line(out, tc->path);
	}
	fputs(") ==\n", out);
	if (!ncells) {
		fputs("no cells\n\n", out);
		return;
	}

	/* Header: variant groups, then config names or keys. */
	pad(out, L->label_w);
	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		if (!L->var_on[v])
			continue;
		fputs("| ", out);
		put_fit(out, th_variant_name((enum th_variant)v), L->gw[v]);
	}
	fputc('\n', out);
	put_fit(out, "attack", L->label_w);
	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		if (!L->var_on[v])
			continue;
		fputs("| ", out);
		for (size_t k = 0; k < L->ncols; k++) {
			column_key(k, key, sizeof(key));
			put_fit(out, L->keyed ? key : res->configs[L->cols[k]].name, L->cw);
		}
		pad(out, L->gw[v] - L->ncols * L->cw);
	}
	fputc('\n', out);

	for (size_t r = 0; r < nrows; r++) {
		const struct th_cell *row = rows[r];

		if (!r || !th_report_same_group(rows[r - 1], row))
			fprintf(out, "%s, %s\n", row->technique,
				strcmp(row->timing, "-") ? row->timing : "no timing");
		fputs("  ", out);
		put_fit(out, row->attack, L->label_w - 3);
		fputc(' ', out);
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			if (!L->var_on[v])
				continue;
			fputs("| ", out);
			for (size_t k = 0; k < L->ncols; k++) {
				const struct th_cell *c = th_results_find_cell(res, row->platform, row->attack,
									       (enum th_variant)v,
									       res->configs[L->cols[k]].name,
									       tc->name);
				if (!c) {
					pad(out, L->cw);
					continue;
				}
				enum th_outcome o = th_cell_observed(c);
				char mark = th_results_shown_verdict(c) == TH_VERDICT_REGRESSION ? '!' :
					    th_report_kinds(c) > 1 ? '*' : ' ';

				if (use_color && *th_report_ansi_color(o))
					fprintf(out, "%s%c" TH_ANSI_RESET, th_report_ansi_color(o), th_outcome_symbol(o));
				else
					fputc(th_outcome_symbol(o), out);
				fputc(mark, out);
				pad(out, L->cw - 2);
			}
			pad(out, L->gw[v] - L->ncols * L->cw);
		}
		fputc('\n', out);
	}
	if (L->keyed) {	/* the column key, wrapped */
		size_t col = 8;

		fputs("columns:", out);
		for (size_t k = 0; k < L->ncols; k++) {
			const char *name = res->configs[L->cols[k]].name;
			size_t l;

			column_key(k, key, sizeof(key));
			l = 1 + strlen(key) + 1 + strlen(name);
			if (col + l > TH_MATRIX_WIDTH) {
				fputs("\n        ", out);
				col = 8;
			}
			fprintf(out, " %s %s", key, name);
			col += l;
		}
		fputc('\n', out);
	}
	put_counts_line(out, label, ncells, counts);
	fputc('\n', out);
}

/* The tables of one platform's view (render_common.c): one per toolchain. */
static int render_tables(FILE *out, const struct th_results *res, const char *platform,
			 int use_color)
{
	int oom, oom_cells;
	const struct th_toolchain **tcs = th_results_sorted_toolchains(res, &oom);
	const struct th_cell **all = th_report_display_cells(res, &oom_cells);
	struct layout L;

	if (oom || oom_cells || make_layout(res, &L)) {
		free(tcs);
		free(all);
		return -1;
	}
	for (size_t i = 0; i < res->ntoolchains; i++) {
		size_t nrows;
		const struct th_cell **rows = th_report_attack_rows(all, res->ncells, tcs[i]->name,
								    TH_VARIANT_INVALID, &nrows, &oom);
		if (oom)
			break;
		render_toolchain(out, res, &L, tcs[i], rows, nrows, use_color, platform);
		free(rows);
	}
	free(L.cols);
	free(tcs);
	free(all);
	return oom ? -1 : 0;
}

static int render_matrix(FILE *out, const struct th_results *full, int use_color)
{
	unsigned counts[TH_OUTCOME_COUNT];
	struct th_results model, view;
	struct th_agreement *rows = NULL;
	size_t np, nrows = 0;
	int oom;
	const char **names = th_results_kernel_platforms(full, &np, &oom);
	const struct th_results *res = &model;

	if (oom || th_results_view(full, TH_PLATFORM_MODEL, &model)) {
		free(names);
		return -1;
	}
	if (full->partial) {
		fputs("PARTIAL results (interrupted: ", out);
		th_report_put_line(out, full->interrupted ? full->interrupted : "?");
		fputs("): cells not shown were not run\n\n", out);
	}
	/* The model's tables as ever, then each real kernel's. */
	oom = render_tables(out, &model, NULL, use_color);
	for (size_t p = 0; p < np && !oom; p++) {
		const struct th_platform *pf = th_results_find_platform(full, names[p]);

		if (th_results_view(full, names[p], &view)) {
			oom = -1;
			break;
		}
		fprintf(out, "Real kernel %s (", pf->name);
		th_report_put_line(out, *pf->source ? pf->source : "source not recorded");
		fputs("; ", out);
		th_report_put_line(out, *pf->qemu ? pf->qemu : "QEMU not recorded");
		fputs(", -cpu ", out);
		th_report_put_line(out, *pf->cpu ? pf->cpu : "?");
		fputs("):\n", out);
		if (!view.ncells)
			fputs("no cells\n\n", out);
		oom = render_tables(out, &view, pf->name, use_color);
		th_results_view_free(&view);
	}
	if (oom || (np && th_results_agreement(full, NULL, NULL, &rows, &nrows, NULL, 0))) {
		th_results_view_free(&model);
		free(names);
		return -1;
	}
	fputs("legend:\n", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		enum th_outcome o = (enum th_outcome)i;

		if (use_color && *th_report_ansi_color(o))
			fprintf(out, "  %s%c" TH_ANSI_RESET, th_report_ansi_color(o), th_outcome_symbol(o));
		else
			fprintf(out, "  %c", th_outcome_symbol(o));
		fprintf(out, " %-15s %s\n", th_outcome_name(o), th_outcome_meaning(o));
	}
	fputs("  x! the cell regressed (observed more severe than expected, or outside its declared set)\n"
	      "  x* the runs disagreed (randstruct seeds): the most severe outcome is shown\n"
	      "  blank: no such cell in the results\n", out);
	th_results_count(res, NULL, counts);
	put_counts_line(out, "total", res->ncells, counts);
	for (size_t p = 0; p < np; p++) {
		struct th_agreement_counts k;

		if (th_results_view(full, names[p], &view)) {
			oom = -1;
			break;
		}
		th_results_count(&view, NULL, counts);
		put_counts_line(out, names[p], view.ncells, counts);
		th_results_view_free(&view);
		th_results_agreement_counts(full, rows, nrows, names[p], &k);
		fprintf(out, "%s beside the model: %zu agree, %zu declared difference%s, %zu disagree",
			names[p], k.agree, k.declared, k.declared == 1 ? "" : "s", k.disagree);
		if (k.alone)
			fprintf(out, ", %zu without a model cell", k.alone);
		fputc('\n', out);
	}
	th_agreement_free(rows, nrows);
	th_results_view_free(&model);
	free(names);
	return oom || ferror(out) ? -1 : 0;
}

/* Columns are padded as they are laid out; the padding at the end of a line
 * is cut here, once, rather than at every place a line can end. */
int th_render_matrix(FILE *out, const struct th_results *res, int use_color)
{
	char *buf = NULL;
	size_t len = 0, start = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	rc = render_matrix(m, res, use_color);
	if (fclose(m))
		rc = -1;
	for (size_t i = 0; !rc && i <= len; i++) {
		if (i < len && buf[i] != '\n')
			continue;
		size_t end = i;

		while (end > start && buf[end - 1] == ' ')
			end--;
		fwrite(buf + start, 1, end - start, out);
		if (i < len)
			fputc('\n', out);
		start = i + 1;
	}
	free(buf);
	return rc || ferror(out) ? -1 : 0;
}

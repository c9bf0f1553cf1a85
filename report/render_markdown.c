/* SPDX-License-Identifier: MIT */
/*
 * report.md: sections.c's table walked in order. This file holds
 * Markdown's escaping, a cell's outcome in Markdown, and the rows only
 * report.md has (th_md_*: the title, the verdict screen, the run, the
 * outcome counts and metrics). The sections both documents have are in
 * their own files (section_*.c, render_reach.c, render_fuzz.c,
 * render_bench.c); the headline findings (headlines.c) among them.
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "render_fuzz.h"
#include "report_internal.h"
#include "sections.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- Markdown escaping ---- */

/* Plain text; in a table a newline would end the row, so it becomes a
 * space. */
static void text_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && (*b == '\n' || *b == '\r'))
		fputc(' ', out);
	else if (n == 1 && strchr("\\`*_[]<>|#~", *b))
		fprintf(out, "\\%c", *b);
	else
		fwrite(b, 1, n, out);
}

/* Every unsafe character (report_internal.h) as a visible escape. */
void th_report_md_text(FILE *out, const char *s)
{
	th_report_put_visible(out, s, text_cp);
}

static void md_text(FILE *out, const char *s)
{
	th_report_md_text(out, s);
}

static void code_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && (*b == '\n' || *b == '\r'))
		fputc(' ', out);
	else
		fwrite(b, 1, n, out);
}

/* ... and '|' in a table, where GFM splits cells on it, even in code. */
static void code_table_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '|')
		fputs("\\|", out);
	else
		code_cp(out, b, n);
}

/* Inline code; in_table escapes '|'. */
void th_report_md_code(FILE *out, const char *s, bool in_table)
{
	size_t run = 0, longest = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	bool padded = *s == '`' || (*s && s[strlen(s) - 1] == '`') || !*s;

	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	if (padded)
		fputc(' ', out);
	th_report_put_visible(out, s, in_table ? code_table_cp : code_cp);
	if (padded)
		fputc(' ', out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

/* In a fenced block the lines stay lines; a CR is shown, not obeyed. */
static void fence_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '\r')
		fputs("\\r", out);
	else
		fwrite(b, 1, n, out);
}

/* A fenced block: the text as it is, but for its unsafe characters, with a
 * fence longer than any run of backticks inside it. */
void th_report_md_fence(FILE *out, const char *s)
{
	size_t run = 0, longest = 0, n;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	n = longest < 3 ? 3 : longest + 1;
	for (size_t i = 0; i < n; i++)
		fputc('`', out);
	fputs("text\n", out);
	th_report_put_visible(out, *s ? s : "(no evidence recorded)", fence_cp);
	if (*s && s[strlen(s) - 1] != '\n')
		fputc('\n', out);
	for (size_t i = 0; i < n; i++)
		fputc('`', out);
	fputs("\n\n", out);
}

/* ---- cell text ---- */

/* "HIJACKED", "NO_EFFECT 3/5, CRASHED 2/5"; with verdict: "**HIJACKED**
 * (regression; expected BLOCKED_CFI)". */
void th_report_md_cell(FILE *out, const struct th_cell *c, bool with_verdict)
{
	enum th_outcome o = th_cell_observed(c);
	enum th_verdict v = th_report_shown_verdict(c);
	bool bold = with_verdict && v == TH_VERDICT_REGRESSION;

	if (bold)
		fputs("**", out);
	if (th_report_kinds(c) > 1) {
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			fprintf(out, "%s%s %u/%u", first ? "" : ", ",
				th_outcome_name((enum th_outcome)i), c->counts[i], c->runs);
			first = 0;
		}
	} else {
		fputs(th_outcome_name(o), out);
	}
	if (bold)
		fputs("**", out);
	char exp[200];

	if (with_verdict && (v == TH_VERDICT_REGRESSION || v == TH_VERDICT_IMPROVEMENT))
		fprintf(out, " (%s; expected %s)", th_verdict_name(v),
			th_cell_expected_text(c, exp, sizeof(exp)));
}

/* A header cell per toolchain: " clang-14 | clang-22 |". */
static void toolchain_heads(FILE *out, const struct th_toolchain **tcs, size_t ntc)
{
	for (size_t t = 0; t < ntc; t++) {
		fputc(' ', out);
		md_text(out, tcs[t]->name);
		fputs(" |", out);
	}
}

/* ---- the document ---- */

static int counts_table(FILE *out, const struct th_results *res,
			const struct th_toolchain **tcs, size_t ntc)
{
	unsigned all[TH_OUTCOME_COUNT], (*per)[TH_OUTCOME_COUNT] = calloc(ntc ? ntc : 1, sizeof(*per));
	unsigned v[TH_VERDICT_COUNT] = { 0 };

	if (!per)
		return -1;
	th_report_count(res, NULL, all);
	for (size_t t = 0; t < ntc; t++)
		th_report_count(res, tcs[t]->name, per[t]);
	fputs("| outcome |", out);
	toolchain_heads(out, tcs, ntc);
	fputs(" all |\n|---|", out);
	for (size_t t = 0; t <= ntc; t++)
		fputs("---:|", out);
	fputc('\n', out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		fprintf(out, "| %s |", th_outcome_name((enum th_outcome)i));
		for (size_t t = 0; t < ntc; t++)
			fprintf(out, " %u |", per[t][i]);
		fprintf(out, " %u |\n", all[i]);
	}
	free(per);
	for (size_t i = 0; i < res->ncells; i++)
		v[th_report_shown_verdict(res->cells[i])]++;
	fprintf(out, "\n%zu cells. Verdicts: %u pass, %u regression, %u improvement, %u new "
		"(as stored; a regression the outcome shows is counted even if not stored; "
		"`timerharness check` recomputes them, with a baseline if given).\n\n",
		res->ncells, v[TH_VERDICT_PASS], v[TH_VERDICT_REGRESSION],
		v[TH_VERDICT_IMPROVEMENT], v[TH_VERDICT_NEW]);
	return 0;
}

static int metrics_table(FILE *out, const struct th_results *res)
{
	int oom;
	const struct th_metric **m = th_report_sorted_metrics(res, &oom);

	if (!m)
		return oom ? -1 : 0;
	fputs("| metric | value |\n|---|---:|\n", out);
	for (size_t i = 0; i < res->nmetrics; i++) {
		fputs("| ", out);
		md_text(out, m[i]->name);
		fputs(" | ", out);
		if (m[i]->type == TH_METRIC_INT)
			fprintf(out, "%lld", m[i]->i);
		else if (m[i]->type == TH_METRIC_REAL)
			fprintf(out, "%.6g", m[i]->d);
		else
			md_text(out, m[i]->s);
		fputs(" |\n", out);
	}
	fputc('\n', out);
	free(m);
	return 0;
}

/* ---- report.md's own sections (rows of sections.c) ---- */

int th_md_title(struct th_doc *d, const struct th_section_ctx *c)
{
	FILE *out = d->out;

	fputs("# timerharness results\n\n", out);
	if (c->res->partial) {
		fputs("> **Partial run**: interrupted (", out);
		md_text(out, c->res->interrupted ? c->res->interrupted : "?");
		fputs("). Cells not listed were not run.\n\n", out);
	}
	return 0;
}

/* The answer first: the verdict screen matrix ends with, on every
 * platform's cells. */
int th_md_verdict(struct th_doc *d, const struct th_section_ctx *c)
{
	char *v = NULL;
	size_t vlen = 0;
	FILE *vf = open_memstream(&v, &vlen);
	int vr;

	if (!vf)
		return -1;
	vr = th_render_verdict(vf, c->full, 0);
	if (fclose(vf) || vr) {
		free(v);
		return -1;
	}
	fputs("## Verdict\n\n", d->out);
	th_report_md_fence(d->out, v);
	free(v);
	return 0;
}

int th_md_run(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_results *res = c->res;
	FILE *out = d->out;

	fputs("## The run\n\n- Created: ", out);
	md_text(out, res->created ? res->created : "?");
	fputs(" (UTC)\n- Host: ", out);
	md_text(out, res->host.hostname ? res->host.hostname : "?");
	fputs(", kernel ", out);
	md_text(out, res->host.kernel ? res->host.kernel : "?");
	fprintf(out, ", %d CPUs\n- timerharness ", res->host.cpus);
	md_text(out, res->version ? res->version : "?");
	fputs(", results schema `" TH_RESULTS_SCHEMA "`\n- Toolchains:", out);
	for (size_t t = 0; t < c->ntc; t++) {
		fprintf(out, "%s ", t ? "," : "");
		md_text(out, c->tcs[t]->name);
		fputs(" (", out);
		md_text(out, *c->tcs[t]->version ? c->tcs[t]->version : "version unknown");
		if (*c->tcs[t]->path) {
			fputs(", ", out);
			th_report_md_code(out, c->tcs[t]->path, false);
		}
		fputc(')', out);
	}
	fputs(c->ntc ? "\n\n" : " none\n\n", out);
	return 0;
}

int th_md_summary(struct th_doc *d, const struct th_section_ctx *c)
{
	fputs("## Summary\n\n", d->out);
	return counts_table(d->out, c->res, c->tcs, c->ntc) || metrics_table(d->out, c->res) ? -1 : 0;
}

/* ---- the document ---- */

/* sections.c's table, walked in order. */
static int markdown_page(FILE *out, const struct th_section_ctx *c)
{
	struct th_doc d = { .out = out };

	return th_sections_write(&d, c);
}

/* The model's cells as ever; each real kernel's in its own section, below
 * them. */
int th_render_markdown_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	return th_sections_document(out, res, markdown_page, "Markdown", err, errlen);
}

int th_render_markdown(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_markdown_to, res, err, errlen);
}

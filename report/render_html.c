/* SPDX-License-Identifier: MIT */
/*
 * report.html: one self-contained page (inline CSS; no script, no external
 * asset) telling what report.md tells, with the matrix as a colour-coded
 * grid. Every text taken from the model is escaped; every outcome shown comes
 * from a cell, and each grid cell carries its outcome, counts, expectation,
 * verdict and evidence in its tooltip.
 */
#define _POSIX_C_SOURCE 200809L
#include "headlines.h"
#include "reach.h"
#include "render.h"
#include "render_fuzz.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping ---- */

/* One code point of text: markup escaped; a CR dropped (a line break is a
 * LF). */
static void text_cp(FILE *out, const char *b, size_t n)
{
	switch (n == 1 ? *b : 0) {
	case '&': fputs("&amp;", out); break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '"': fputs("&quot;", out); break;
	case '\'': fputs("&#39;", out); break;
	case '\r': break;
	default: fwrite(b, 1, n, out);
	}
}

/* In an attribute a newline is kept as a character reference, which a
 * tooltip shows as a line break. */
static void attr_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '\n')
		fputs("&#10;", out);
	else
		text_cp(out, b, n);
}

/* Text or attribute value: markup escaped, every character HTML forbids
 * (controls, noncharacters) and every other unsafe one as a visible
 * escape (report_internal.h). */
static void esc(FILE *out, const char *s, bool attr)
{
	th_report_put_visible(out, s, attr ? attr_cp : text_cp);
}

static void text(FILE *out, const char *s)
{
	esc(out, s, false);
}

static void attr(FILE *out, const char *s)
{
	esc(out, s, true);
}

/* A fixed text of headlines.c: `names` become <code>. */
static void prose(FILE *out, const char *s)
{
	bool in_code = false;

	for (const char *p = s; *p; p++) {
		if (*p == '`') {
			fputs(in_code ? "</code>" : "<code>", out);
			in_code = !in_code;
			continue;
		}
		char one[2] = { *p, 0 };

		text(out, one);
	}
	if (in_code)
		fputs("</code>", out);
}

static void code(FILE *out, const char *s)
{
	fputs("<code>", out);
	text(out, s);
	fputs("</code>", out);
}

/* ---- style ---- */

/* Severe outcomes in reds and purples, defences in greens, neutral greys;
 * every cell also shows th_outcome_symbol(), so colour is never the only
 * signal. */
static const struct {
	const char *bg, *fg;
} palette[TH_OUTCOME_COUNT] = {
	[TH_HIJACKED] = { "#a50f15", "#fff" },
	[TH_PRIVILEGED_WRITE] = { "#cb181d", "#fff" },
	[TH_REDIRECTED] = { "#ef6548", "#fff" },
	[TH_CRASHED] = { "#7a3c9a", "#fff" },
	[TH_HANG] = { "#8c510a", "#fff" },
	[TH_TIMER_LOST] = { "#bf812d", "#fff" },
	[TH_FALSE_POSITIVE] = { "#fdae3b", "#222" },
	[TH_BLOCKED_CFI] = { "#1b7837", "#fff" },
	[TH_DETECTED] = { "#5aae61", "#fff" },
	[TH_NO_EFFECT] = { "#d9d9d9", "#222" },
	[TH_UNSUPPORTED] = { "repeating-linear-gradient(135deg,#eee 0 3px,#d4d4d4 3px 6px)", "#666" },
	[TH_NOT_APPLICABLE] = { "#fff", "#999" },
	[TH_HARNESS_ERROR] = { "#000", "#ff0" },
};

static void style(FILE *out)
{
	fputs("<style>\n"
	      "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328;"
	      "margin:1.5em auto;padding:0 1.2em;max-width:120em}\n"
	      "h1{font-size:1.7em;margin-bottom:.3em}\n"
	      "h2{font-size:1.35em;border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:2em}\n"
	      "h3{font-size:1.1em;margin-top:1.6em}\n"
	      "code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\n"
	      "pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.4em .6em;margin:.2em 0 .8em;"
	      "white-space:pre-wrap;overflow-wrap:anywhere}\n"
	      "table{border-collapse:collapse;margin:.6em 0}\n"
	      "th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	      "thead th{background:#f6f8fa}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      ".banner{background:#fff8c5;border:1px solid #d4a72c;padding:.5em .8em}\n"
	      ".yes{color:#1a7f37}.no{color:#b42318;font-weight:600}.muted{color:#6e7781}\n"
	      ".o{display:inline-block;padding:0 .4em;border-radius:3px;font-weight:600;"
	      "font-size:.9em;white-space:nowrap}\n"
	      ".regrow{background:#ffebe9}\n"
	      "details{margin:.4em 0 1em}summary{cursor:pointer;color:#0969da}\n"
	      "nav a{margin-right:1em}\n"
	      "table.grid{font:600 12px/1 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"
	      "table.grid td,table.grid th{padding:0;border-color:#fff;border-width:1px}\n"
	      "table.grid td.c{width:2em;height:1.7em;text-align:center;vertical-align:middle}\n"
	      "table.grid th.a{font-weight:normal;padding:0 .6em 0 1em;white-space:nowrap;"
	      "vertical-align:middle;background:#fff}\n"
	      "table.grid th.v{text-align:center;padding:.3em;background:#eaeef2;"
	      "font:600 13px/1.2 system-ui,sans-serif}\n"
	      "table.grid th.cfg{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;"
	      "font-weight:normal;padding:.4em .1em;background:#f6f8fa;vertical-align:bottom}\n"
	      "table.grid tr.g th{text-align:left;padding:.6em 0 .2em .2em;background:#fff;"
	      "font:600 13px/1.2 system-ui,sans-serif;color:#444}\n"
	      "table.grid .vs{border-left:4px solid #fff}\n"
	      "td.reg,span.reg{box-shadow:inset 0 0 0 3px #000}\n"
	      "table.grid tbody tr:hover th.a{background:#fff8c5}\n"
	      "td.missing{background:#fff}\n", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		fprintf(out, ".o-%s{background:%s;color:%s}\n", th_outcome_name((enum th_outcome)i),
			palette[i].bg, palette[i].fg);
	fputs("</style>\n", out);
}

/* ---- pieces ---- */

static void badge(FILE *out, enum th_outcome o, bool reg, const char *suffix)
{
	fprintf(out, "<span class=\"o o-%s%s\">%s%s</span>", th_outcome_name(o), reg ? " reg" : "",
		th_outcome_name(o), suffix ? suffix : "");
}

/* The observed outcome as a badge, or one badge per outcome with its count
 * when the runs disagreed; with_verdict adds "(regression; expected X)". */
static void cell_badges(FILE *out, const struct th_cell *c, bool with_verdict)
{
	enum th_verdict v = th_report_shown_verdict(c);
	bool reg = with_verdict && v == TH_VERDICT_REGRESSION;
	char n[48];

	if (th_report_kinds(c) > 1) {
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			snprintf(n, sizeof(n), " %u/%u", c->counts[i], c->runs);
			if (!first)
				fputc(' ', out);
			badge(out, (enum th_outcome)i, reg && (enum th_outcome)i == th_cell_observed(c), n);
			first = 0;
		}
	} else {
		badge(out, th_cell_observed(c), reg, NULL);
	}
	if (with_verdict && (v == TH_VERDICT_REGRESSION || v == TH_VERDICT_IMPROVEMENT))
		fprintf(out, " (%s; expected %s)", th_verdict_name(v),
			th_outcome_name(c->expected) ? th_outcome_name(c->expected) : "none");
}

/* "ATTACK variant/config on toolchain\noutcome: ...": a grid cell's tooltip. */
static void cell_tooltip(FILE *out, const struct th_cell *c)
{
	const char *exp = th_outcome_name(c->expected);

	attr(out, c->attack);
	fprintf(out, " %s/", th_variant_name(c->variant));
	attr(out, c->config);
	fputs(" on ", out);
	attr(out, c->toolchain);
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
		th_verdict_name(th_report_shown_verdict(c)));
	attr(out, c->payload);
	fputs(", technique: ", out);
	attr(out, c->technique);
	fputs(", timing: ", out);
	attr(out, c->timing);
	fputs("&#10;evidence: ", out);
	attr(out, *c->evidence ? c->evidence : "(none recorded)");
}

static void support_cell(FILE *out, const struct th_config *cfg, const char *tc)
{
	const struct th_support *s = th_config_support(cfg, tc);

	fputs("<td>", out);
	if (!s) {
		fputs("<span class=\"muted\">not probed</span></td>", out);
		return;
	}
	fputs(s->supported ? "<span class=\"yes\">yes</span>" : "<span class=\"no\">no</span>", out);
	if (*s->reason) {
		fputs(": ", out);
		text(out, s->reason);
	}
	fputs("</td>", out);
}

static void toolchain_heads(FILE *out, const struct th_toolchain **tcs, size_t ntc)
{
	for (size_t t = 0; t < ntc; t++) {
		fputs("<th>", out);
		text(out, tcs[t]->name);
		fputs("</th>", out);
	}
}

/* ---- sections ---- */

static void facts(FILE *out, const struct th_results *res, const struct th_toolchain **tcs,
		  size_t ntc)
{
	fputs("<h1>timerharness results</h1>\n", out);
	if (res->partial) {
		fputs("<p class=\"banner\"><strong>Partial run</strong>: interrupted (", out);
		text(out, res->interrupted ? res->interrupted : "?");
		fputs("). Cells not shown were not run.</p>\n", out);
	}
	fputs("<ul>\n<li>Created: ", out);
	text(out, res->created ? res->created : "?");
	fputs(" (UTC)</li>\n<li>Host: ", out);
	text(out, res->host.hostname ? res->host.hostname : "?");
	fputs(", kernel ", out);
	text(out, res->host.kernel ? res->host.kernel : "?");
	fprintf(out, ", %d CPUs</li>\n<li>timerharness ", res->host.cpus);
	text(out, res->version ? res->version : "?");
	fputs(", results schema <code>" TH_RESULTS_SCHEMA "</code></li>\n<li>Toolchains:", out);
	for (size_t t = 0; t < ntc; t++) {
		fprintf(out, "%s ", t ? "," : "");
		text(out, tcs[t]->name);
		fputs(" (", out);
		text(out, *tcs[t]->version ? tcs[t]->version : "version unknown");
		if (*tcs[t]->path) {
			fputs(", ", out);
			code(out, tcs[t]->path);
		}
		fputc(')', out);
	}
	fputs(ntc ? "</li>\n</ul>\n" : " none</li>\n</ul>\n", out);
	fputs("<nav><a href=\"#configs\">Configs</a><a href=\"#summary\">Summary</a>"
	      "<a href=\"#findings\">Headline findings</a><a href=\"#matrix\">Matrix</a></nav>\n", out);
}

static void configs(FILE *out, const struct th_results *res, const struct th_toolchain **tcs,
		    size_t ntc)
{
	fputs("<h2 id=\"configs\">Configs</h2>\n<table>\n<thead><tr><th>config</th><th>flags</th>"
	      "<th>description</th>", out);
	toolchain_heads(out, tcs, ntc);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < res->nconfigs; i++) {
		const struct th_config *c = &res->configs[i];

		fputs("<tr><td>", out);
		code(out, c->name);
		fputs("</td><td>", out);
		if (*c->flags)
			code(out, c->flags);
		fputs("</td><td>", out);
		text(out, c->description);
		fputs("</td>", out);
		for (size_t t = 0; t < ntc; t++)
			support_cell(out, c, tcs[t]->name);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static int summary(FILE *out, const struct th_results *res, const struct th_toolchain **tcs,
		   size_t ntc)
{
	unsigned all[TH_OUTCOME_COUNT], (*per)[TH_OUTCOME_COUNT] = calloc(ntc ? ntc : 1, sizeof(*per));
	unsigned v[TH_VERDICT_COUNT] = { 0 };
	const struct th_metric **m;
	int oom;

	if (!per)
		return -1;
	th_report_count(res, NULL, all);
	fputs("<h2 id=\"summary\">Summary</h2>\n<table>\n<thead><tr><th>outcome</th>", out);
	toolchain_heads(out, tcs, ntc);
	fputs("<th>all</th><th>meaning</th></tr></thead>\n<tbody>\n", out);
	for (size_t t = 0; t < ntc; t++)
		th_report_count(res, tcs[t]->name, per[t]);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		fputs("<tr><td>", out);
		badge(out, (enum th_outcome)i, false, NULL);
		fputs("</td>", out);
		for (size_t t = 0; t < ntc; t++)
			fprintf(out, "<td class=\"n\">%u</td>", per[t][i]);
		fprintf(out, "<td class=\"n\">%u</td><td>", all[i]);
		text(out, th_outcome_meaning((enum th_outcome)i));
		fputs("</td></tr>\n", out);
	}
	free(per);
	for (size_t i = 0; i < res->ncells; i++)
		v[th_report_shown_verdict(res->cells[i])]++;
	fprintf(out, "</tbody>\n</table>\n<p>%zu cells. Verdicts: %u pass, %s%u regression%s, "
		"%u improvement, %u new (as stored; a regression the outcome shows is counted even if "
		"not stored; <code>timerharness check</code> recomputes them, with a baseline if "
		"given).</p>\n", res->ncells, v[TH_VERDICT_PASS],
		v[TH_VERDICT_REGRESSION] ? "<strong>" : "", v[TH_VERDICT_REGRESSION],
		v[TH_VERDICT_REGRESSION] ? "</strong>" : "", v[TH_VERDICT_IMPROVEMENT],
		v[TH_VERDICT_NEW]);
	m = th_report_sorted_metrics(res, &oom);
	if (!m)
		return oom ? -1 : 0;
	fputs("<table>\n<thead><tr><th>metric</th><th>value</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < res->nmetrics; i++) {
		fputs("<tr><td>", out);
		text(out, m[i]->name);
		fputs("</td><td class=\"n\">", out);
		if (m[i]->type == TH_METRIC_INT)
			fprintf(out, "%lld", m[i]->i);
		else if (m[i]->type == TH_METRIC_REAL)
			fprintf(out, "%.6g", m[i]->d);
		else
			text(out, m[i]->s);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(m);
	return 0;
}

static void row_table_head(FILE *out, const struct th_toolchain **tcs, size_t ntc,
			   const char *extra)
{
	fputs("<table>\n<thead><tr><th>attack</th><th>variant</th><th>config</th>", out);
	toolchain_heads(out, tcs, ntc);
	if (extra)
		fprintf(out, "<th>%s</th>", extra);
	fputs("</tr></thead>\n<tbody>\n", out);
}

static void row_cells(FILE *out, const struct th_results *res, const struct th_cell *row,
		      const struct th_toolchain **tcs, size_t ntc, bool with_verdict)
{
	fputs("<td>", out);
	code(out, row->attack);
	fprintf(out, "</td><td>%s</td><td>", th_variant_name(row->variant));
	text(out, row->config);
	fputs("</td>", out);
	for (size_t t = 0; t < ntc; t++) {
		const struct th_cell *c = th_results_find_cell(res, row->attack, row->variant,
							       row->config, tcs[t]->name);
		fputs("<td>", out);
		if (c)
			cell_badges(out, c, with_verdict);
		else
			fputs("<span class=\"muted\">not run</span>", out);
		fputs("</td>", out);
	}
}

static void observed_line(FILE *out, const struct th_cell **cells, size_t n,
			  const struct th_toolchain **tcs, size_t ntc)
{
	fputs("<p>Observed:", out);
	for (size_t t = 0; t < ntc; t++) {
		unsigned counts[TH_OUTCOME_COUNT];
		unsigned total = th_headline_observed(cells, n, tcs[t]->name, counts);

		fprintf(out, "%s <strong>", t ? ";" : "");
		text(out, tcs[t]->name);
		fputs("</strong>:", out);
		if (!total)
			fputs(" not run", out);
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!counts[i])
				continue;
			fputs(first ? " " : ", ", out);
			badge(out, (enum th_outcome)i, false, NULL);
			fprintf(out, " in %u cell%s", counts[i], counts[i] == 1 ? "" : "s");
			first = 0;
		}
	}
	fputs(".</p>\n", out);
}

/* Evidence lists this long start folded. */
#define EVIDENCE_OPEN_MAX 6

static int headline(FILE *out, const struct th_results *res, const struct th_cell **all,
		    const struct th_headline *h, const struct th_toolchain **tcs, size_t ntc)
{
	int oom;
	size_t n;
	const struct th_cell **cells = th_headline_cells(all, res->ncells, h, &n, &oom);

	if (oom)
		return -1;
	fputs("<h3>", out);
	prose(out, h->title);
	fputs("</h3>\n<p>Cells: ", out);
	prose(out, h->about);
	fputs("</p>\n", out);
	if (h->note) {
		fputs("<p class=\"banner\">", out);
		prose(out, h->note);
		fputs("</p>\n", out);
	}
	if (!n) {
		fputs("<p>Observed: not run (the results hold no such cell).</p>\n", out);
		return 0;
	}
	observed_line(out, cells, n, tcs, ntc);
	row_table_head(out, tcs, ntc, NULL);
	for (size_t i = 0; i < n; i++) {
		if (i && th_headline_same_row(cells[i - 1], cells[i]))
			continue;
		fputs("<tr>", out);
		row_cells(out, res, cells[i], tcs, ntc, false);
		fputs("</tr>\n", out);
	}
	fprintf(out, "</tbody>\n</table>\n<details%s><summary>Evidence, verbatim (%zu cell%s)"
		"</summary>\n", n <= EVIDENCE_OPEN_MAX ? " open" : "", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct th_cell *c = cells[i];

		fputs("<div>", out);
		code(out, c->attack);
		fprintf(out, " %s/", th_variant_name(c->variant));
		text(out, c->config);
		fputs(" on ", out);
		text(out, c->toolchain);
		fputs(": ", out);
		cell_badges(out, c, false);
		fputs("</div>\n<pre>", out);
		text(out, *c->evidence ? c->evidence : "(no evidence recorded)");
		fputs("</pre>\n", out);
	}
	fputs("</details>\n", out);
	free(cells);
	return 0;
}

static int differences(FILE *out, const struct th_results *res, const struct th_cell **all,
		       const struct th_toolchain **tcs, size_t ntc)
{
	size_t n, unsup;
	int oom, listed = 0;
	struct th_diff_row *rows = th_headline_differences(all, res->ncells, &n, &unsup, &oom);

	if (oom)
		return -1;
	fputs("<h3>", out);
	prose(out, th_differences_title);
	fputs("</h3>\n<p>Cells: ", out);
	prose(out, th_differences_about);
	fputs("</p>\n", out);
	if (n)
		row_table_head(out, tcs, ntc, "why listed");
	for (size_t i = 0; i < n; i++) {
		fputs(rows[i].regressed ? "<tr class=\"regrow\">" : "<tr>", out);
		row_cells(out, res, rows[i].cell, tcs, ntc, true);
		fprintf(out, "<td>%s%s%s</td></tr>\n", rows[i].regressed ? "<strong>regression</strong>" : "",
			rows[i].regressed && rows[i].differs ? ", " : "",
			rows[i].differs ? "differs between toolchains" : "");
	}
	fputs(n ? "</tbody>\n</table>\n"
		: "<p>Observed: no cell regressed and no outcome differs between toolchains.</p>\n", out);
	if (unsup) {
		fprintf(out, "<p>%zu more (attack, variant, config) rows differ only because a config "
			"is unsupported on a toolchain:", unsup);
		for (size_t c = 0; c < res->nconfigs; c++) {
			const struct th_config *cfg = &res->configs[c];

			for (size_t s = 0; s < cfg->nsupport; s++) {
				if (cfg->support[s].supported)
					continue;
				fprintf(out, "%s ", listed++ ? ";" : "");
				code(out, cfg->name);
				fputs(" on ", out);
				text(out, cfg->support[s].toolchain);
				if (*cfg->support[s].reason) {
					fputs(" (", out);
					text(out, cfg->support[s].reason);
					fputc(')', out);
				}
			}
		}
		fputs(listed ? ".</p>\n" : " (no config is marked unsupported).</p>\n", out);
	}
	free(rows);
	return 0;
}

/* ---- the grid ---- */

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
	fputs("<table class=\"grid\">\n<tbody>\n", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		enum th_outcome o = (enum th_outcome)i;

		fprintf(out, "<tr><td class=\"c o-%s\">%c</td><th class=\"a\">%s: ", th_outcome_name(o),
			th_outcome_symbol(o), th_outcome_name(o));
		text(out, th_outcome_meaning(o));
		fputs("</th></tr>\n", out);
	}
	fputs("<tr><td class=\"c o-HIJACKED reg\">H!</td><th class=\"a\">black frame and "
	      "<code>!</code>: the cell regressed (observed more severe than expected)</th></tr>\n"
	      "<tr><td class=\"c o-CRASHED\">C*</td><th class=\"a\"><code>*</code>: the runs "
	      "disagreed (randstruct seeds); the most severe outcome is shown</th></tr>\n"
	      "<tr><td class=\"c missing\"></td><th class=\"a\">blank: no such cell in the "
	      "results</th></tr>\n</tbody>\n</table>\n", out);
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
			th_report_shown_verdict(res->cells[i]) == TH_VERDICT_REGRESSION;
	ncells = th_report_count(res, tc->name, counts);
	fprintf(out, "<h3 id=\"matrix-%zu\">", idx + 1);
	text(out, tc->name);
	fputs(" (", out);
	text(out, *tc->version ? tc->version : "version unknown");
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
		badge(out, (enum th_outcome)i, false, NULL);
		fprintf(out, " %u", counts[i]);
		first = 0;
	}
	if (nreg)
		fprintf(out, ". <strong>%zu regression%s</strong> (framed in black)", nreg,
			nreg == 1 ? "" : "s");
	fputs(".</p>\n", out);

	/* Head: variant groups over config names. */
	fputs("<table class=\"grid\">\n<thead>\n<tr><th class=\"a\" rowspan=\"2\">attack</th>", out);
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		if (g->var_on[v])
			fprintf(out, "<th class=\"v vs\" colspan=\"%zu\">%s</th>", g->ncols,
				th_variant_name((enum th_variant)v));
	fputs("</tr>\n<tr>", out);
	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		if (!g->var_on[v])
			continue;
		for (size_t k = 0; k < g->ncols; k++) {
			const struct th_config *cfg = &res->configs[g->cols[k]];

			fprintf(out, "<th class=\"cfg%s\" title=\"", k ? "" : " vs");
			attr(out, *cfg->flags ? cfg->flags : cfg->name);
			fputs("\">", out);
			text(out, cfg->name);
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
			fprintf(out, "<tr class=\"g\"><th colspan=\"%zu\">", span);
			text(out, row->technique);
			fputs(", ", out);
			text(out, strcmp(row->timing, "-") ? row->timing : "no timing");
			fputs("</th></tr>\n", out);
		}
		fputs("<tr><th class=\"a\">", out);
		text(out, row->attack);
		fputs("</th>", out);
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			if (!g->var_on[v])
				continue;
			for (size_t k = 0; k < g->ncols; k++) {
				const struct th_cell *c = th_results_find_cell(res, row->attack,
									       (enum th_variant)v,
									       res->configs[g->cols[k]].name,
									       tc->name);
				const char *vs = k ? "" : " vs";

				if (!c) {
					fprintf(out, "<td class=\"c missing%s\"></td>", vs);
					continue;
				}
				enum th_outcome o = th_cell_observed(c);
				bool reg = th_report_shown_verdict(c) == TH_VERDICT_REGRESSION;

				fprintf(out, "<td class=\"c o-%s%s%s\" title=\"", th_outcome_name(o),
					reg ? " reg" : "", vs);
				cell_tooltip(out, c);
				fprintf(out, "\">%c%s</td>", th_outcome_symbol(o),
					reg ? "!" : th_report_kinds(c) > 1 ? "*" : "");
			}
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(rows);
	return 0;
}

static int matrix(FILE *out, const struct th_results *res, const struct th_cell **all,
		  const struct th_toolchain **tcs, size_t ntc)
{
	struct grid g;

	fputs("<h2 id=\"matrix\">Matrix</h2>\n<p>One grid per toolchain: a row per attack, grouped "
	      "by technique and timing; a column per config, grouped by variant. A cell shows its "
	      "observed (most severe) outcome; hover over it for the counts, the expectation, the "
	      "verdict and the evidence.</p>\n", out);
	legend(out);
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

/* ---- the page ---- */

int th_render_html_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	int oom, oom_cells;
	size_t ntc = res->ntoolchains;
	const struct th_toolchain **tcs = th_report_sorted_toolchains(res, &oom);
	const struct th_cell **all = th_report_display_cells(res, &oom_cells);

	if (oom || oom_cells)
		goto oom;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>timerharness results: ", out);
	text(out, res->host.hostname ? res->host.hostname : "?");
	fputs(", ", out);
	text(out, res->created ? res->created : "?");
	fputs("</title>\n", out);
	style(out);
	fputs("</head>\n<body>\n", out);
	facts(out, res, tcs, ntc);
	configs(out, res, tcs, ntc);
	if (summary(out, res, tcs, ntc))
		goto oom;
	fputs("<h2 id=\"findings\">Headline findings</h2>\n<p>Each question is answered only by "
	      "the cells it names, as they were observed in this run; &quot;not run&quot; means the "
	      "results hold no such cell.</p>\n", out);
	for (size_t h = 0; h < th_nheadlines; h++)
		if (headline(out, res, all, &th_headlines[h], tcs, ntc))
			goto oom;
	if (differences(out, res, all, tcs, ntc) || th_reach_render_html(out, res, text, code) ||
	    th_render_fuzz_html(out, res) ||
	    matrix(out, res, all, tcs, ntc))
		goto oom;
	fputs("</body>\n</html>\n", out);
	free(tcs);
	free(all);
	if (ferror(out))
		return th_report_errf(err, errlen, "cannot write the HTML report");
	return 0;
oom:
	free(tcs);
	free(all);
	return th_report_errf(err, errlen, "out of memory");
}

int th_render_html(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_html_to, res, err, errlen);
}

/* SPDX-License-Identifier: MIT */
/*
 * report.html: one self-contained page (inline CSS and SVG; no script, no
 * external request: its Content-Security-Policy forbids both) that opens
 * with the verdict: the verdict card (card.h) with the cells that answer
 * it, then the charts, the headline findings (collapsible), the matrix as a
 * colour-coded grid whose headers stay in view, the configs and the run.
 * Laid out for a phone's width as for a desktop's. Every text taken from
 * the model is escaped; every outcome shown comes from a cell, and each grid
 * cell's outcome, counts, expectation, verdict and evidence are one click,
 * tap or keystroke away (section_matrix.c's grid_toolchain says how,
 * without a script).
 *
 * The page is its head and style around sections.c's table walked in
 * order; this file holds HTML's escaping, its badges, and the rows only
 * report.html has (th_html_*: the header, the nav, the charts, the run;
 * the card is section_card.c). The sections both documents have are in
 * their own files (section_*.c, render_reach.c, render_fuzz.c,
 * render_bench.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "html.h"
#include "render.h"
#include "report_internal.h"
#include "sections.h"

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

void th_html_text(FILE *out, const char *s)
{
	text(out, s);
}

void th_html_attr(FILE *out, const char *s)
{
	attr(out, s);
}

void th_html_code(FILE *out, const char *s)
{
	fputs("<code>", out);
	text(out, s);
	fputs("</code>", out);
}

/* ---- style ---- */

/* Text on each outcome's colour at WCAG AA (4.5:1 or more; tests/html_check.py
 * measures every pair in the page). */
const struct th_html_color th_html_palette[TH_OUTCOME_COUNT] = {
	[TH_HIJACKED] = { "#a50f15", "#fff" },
	[TH_PRIVILEGED_WRITE] = { "#cb181d", "#fff" },
	[TH_REDIRECTED] = { "#ef6548", "#222" },
	[TH_CRASHED] = { "#7a3c9a", "#fff" },
	[TH_HANG] = { "#8c510a", "#fff" },
	[TH_TIMER_LOST] = { "#bf812d", "#222" },
	[TH_FALSE_POSITIVE] = { "#fdae3b", "#222" },
	[TH_BLOCKED_CFI] = { "#1b7837", "#fff" },
	[TH_DETECTED] = { "#5aae61", "#222" },
	[TH_NO_EFFECT] = { "#d9d9d9", "#222" },
	[TH_UNSUPPORTED] = { "repeating-linear-gradient(135deg,#eee 0 3px,#d4d4d4 3px 6px)", "#555" },
	[TH_NOT_APPLICABLE] = { "#fff", "#666" },
	[TH_HARNESS_ERROR] = { "#000", "#ff0" },
};

static void style(FILE *out)
{
	fputs("<style>\n"
	      "*{box-sizing:border-box}\n"
	      "body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328;"
	      "margin:0 auto;padding:1em 1.2em 3em;max-width:76em}\n"
	      /* A word longer than the line (a finding's name, a path) breaks
	       * rather than widen the page. */
	      "main{overflow-wrap:break-word}\n"
	      "h1{font-size:1.5em;margin:.2em 0}\n"
	      "h2{font-size:1.3em;border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:2em}\n"
	      "h3{font-size:1.05em;margin:0;display:inline}\n"
	      "code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;"
	      "overflow-wrap:anywhere}\n"
	      "pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.4em .6em;margin:.2em 0 .8em;"
	      "white-space:pre-wrap}\n"
	      "table{border-collapse:collapse;margin:.6em 0}\n"
	      "th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	      "thead th{background:#f6f8fa}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      ".scroll{overflow:auto;max-width:100%}\n"
	      ".banner{background:#fff8c5;border:1px solid #d4a72c;padding:.5em .8em}\n"
	      ".yes{color:#1a7f37}.no{color:#b42318;font-weight:600}.muted{color:#6e7781}\n"
	      ".o{display:inline-block;padding:0 .4em;border-radius:3px;font-weight:600;"
	      "font-size:.85em;white-space:nowrap}\n"
	      ".regrow{background:#ffebe9}\n"
	      "details{margin:.3em 0}summary{cursor:pointer}\n"
	      "details.finding{border:1px solid #d0d7de;border-radius:6px;padding:.5em .8em;margin:.6em 0}\n"
	      "details.finding>summary{list-style-position:outside;margin-left:1em}\n"
	      "details.finding[open]>summary{margin-bottom:.5em}\n"
	      "summary .ans{display:block;font-size:.9em;margin-top:.2em}\n"
	      "nav{display:flex;flex-wrap:wrap;gap:.3em 1.2em;margin:1em 0}\n"
	      ".facts{color:#57606a;font-size:.9em;margin:.2em 0 1em}\n"
	      /* The verdict card. */
	      ".card{border:2px solid #1f2328;border-radius:8px;padding:.8em 1.1em;margin:1em 0;"
	      "background:#fff}\n"
	      ".card h2{border:0;margin:0 0 .2em;font-size:1.3em}\n"
	      ".card .q{color:#57606a;margin:0 0 .6em;font-size:.92em}\n"
	      ".vrow{display:flex;flex-wrap:wrap;align-items:baseline;gap:.2em .8em;padding:.35em 0;"
	      "border-top:1px solid #eaeef2}\n"
	      ".vrow>*{min-width:0}.vrow .gen{font-weight:700;min-width:11.5em}\n"
	      ".vrow .cfg{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;"
	      "min-width:9em}\n"
	      ".vrow .big{font-size:1.05em}\n"
	      ".vrow .cnt{color:#57606a;font-size:.9em}\n"
	      ".card h3{display:block;font-size:1em;margin:.9em 0 .2em}\n"
	      ".card .gate{margin:.8em 0 0;font-size:.92em}\n"
	      ".card .other{margin:.5em 0 0}\n"
	      ".card p.cnt{margin:.2em 0;color:#57606a;font-size:.9em}\n"
	      ".card details{font-size:.9em}\n"
	      /* Charts. */
	      "figure{margin:1em 0}figcaption{color:#57606a;font-size:.9em;max-width:40em}\n"
	      "svg.chart{width:100%;max-width:40em;height:auto;display:block;"
	      "font-family:system-ui,sans-serif}\n"
	      "svg .cl{font-size:11px;font-weight:600;text-anchor:start}\n"
	      "svg .vl{font-size:10px;text-anchor:end;fill:#57606a}\n"
	      "svg .th{font-size:11px;fill:#1f2328}\n"
	      "svg .cr{font-size:11px;font-weight:600;text-anchor:end}\n"
	      "svg .hv{font-size:11px;text-anchor:middle;fill:#1f2328}\n"
	      "svg .hv.dark{fill:#fff}svg .hv.none{fill:#8c959f}\n"
	      "svg .sy{font-size:10px;font-weight:700;text-anchor:middle}\n"
	      "svg .sc{font-size:10px;fill:#57606a}\n"
	      ".legend{display:flex;flex-wrap:wrap;gap:.2em .5em;margin:.3em 0;font-size:.85em}\n"
	      /* The grid: headers and attack names stay in view while it scrolls. */
	      ".gridwrap{overflow:auto;max-height:85vh;border:1px solid #d0d7de;"
	      "container-type:scroll-state}\n"
	      /* The cue that the grid goes on to the right, from the box's
	       * scroll state (no script); the names cast a shadow over what
	       * scrolled under them. Where a browser cannot tell, the cue is
	       * always there. */
	      "table.grid .more{display:none;font:11px/1.3 system-ui,sans-serif;color:#57606a;"
	      "margin-top:.5em}\n"
	      "@container scroll-state(scrollable:right){table.grid .more{display:block}}\n"
	      "@container scroll-state(scrollable:left){table.grid th.a{box-shadow:5px 0 5px -3px "
	      "rgba(0,0,0,.35)}}\n"
	      "@supports not (container-type:scroll-state){table.grid .more{display:block}}\n"
	      "table.grid{font:600 12px/1 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}\n"
	      "table.grid td,table.grid th{padding:0;border-color:#fff;border-width:1px}\n"
	      "table.grid td.c{width:2em;min-width:2em;height:1.7em;text-align:center;"
	      "vertical-align:middle}\n"
	      "table.grid th.a{font-weight:normal;padding:0 .6em 0 .4em;"
	      "vertical-align:middle;background:#fff;position:sticky;left:0;z-index:1}\n"
	      /* The pinned names: a third of a phone's width at most, broken
	       * after a '_' (section_matrix.c's grid_name), inside a segment
	       * only when one alone is longer. */
	      "table.grid th.a a{display:block;width:max-content;max-width:min(calc(33vw - 2.5em),20em);"
	      "overflow-wrap:break-word;line-height:1.2;padding:.15em 0}\n"
	      ".pfx{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);"
	      "white-space:nowrap}\n"
	      "table.grid thead th{position:sticky;z-index:2}\n"
	      "table.grid thead tr.vh th{top:0;height:2em}\n"
	      "table.grid thead tr.ch th{top:2em}\n"
	      "table.grid thead th.a{z-index:3;background:#f6f8fa}\n"
	      "table.grid th.v{text-align:center;padding:.3em;background:#eaeef2;"
	      "font:600 13px/1.2 system-ui,sans-serif}\n"
	      "table.grid th.cfg{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;"
	      "font-weight:normal;padding:.4em .1em;background:#f6f8fa;vertical-align:bottom}\n"
	      "table.grid tr.g th{text-align:left;padding:.6em 0 .2em .2em;background:#fff;"
	      "font:600 13px/1.2 system-ui,sans-serif;color:#444}\n"
	      "table.grid tr.g th span{position:sticky;left:.2em}\n"
	      "table.grid .vs{border-left:4px solid #fff}\n"
	      "td.reg,span.reg{box-shadow:inset 0 0 0 3px #000}\n"
	      "table.grid tbody tr:hover th.a{background:#fff8c5}\n"
	      "td.missing{background:#fff}\n"
	      /* A cell is a link to its evidence, which shows only when a link
	       * leads to it (:target). */
	      "table.grid td.c a{display:block;color:inherit;text-decoration:none;line-height:1.7em}\n"
	      "table.grid th.a a{color:inherit}\n"
	      ".ev{display:none;border:2px solid #0969da;border-radius:6px;padding:.4em .8em;"
	      "margin:.6em 0;scroll-margin-top:1em}\n"
	      ".ev:target,.ev:has(:target){display:block}\n"
	      ".ev ul{margin:.3em 0;padding-left:1.2em}\n"
	      ".ev li{white-space:pre-line;overflow-wrap:anywhere;margin:.3em 0}\n"
	      ".ev li:target{background:#fff8c5;outline:2px solid #d4a72c}\n"
	      "@media (max-width:40em){body{padding:.6em .7em 2em;font-size:14px}"
	      ".vrow .gen,.vrow .cfg{min-width:0}.card{padding:.6em .7em}}\n", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		const char *bg = th_html_palette[i].bg;

		fprintf(out, ".o-%s{background:%s;color:%s}\n", th_outcome_name((enum th_outcome)i),
			bg, th_html_palette[i].fg);
		/* SVG fills take a colour, not a pattern; white would not show. */
		fprintf(out, ".f-%s{fill:%s}\n", th_outcome_name((enum th_outcome)i),
			i == TH_NOT_APPLICABLE ? "#eaeef2" : *bg == '#' ? bg : "#bdbdbd");
	}
	fputs("</style>\n", out);
}

/* ---- pieces ---- */

void th_html_badge(FILE *out, enum th_outcome o, bool reg, const char *suffix)
{
	fprintf(out, "<span class=\"o o-%s%s\">%s%s</span>", th_outcome_name(o), reg ? " reg" : "",
		th_outcome_name(o), suffix ? suffix : "");
}

/* The observed outcome as a badge, or one badge per outcome with its count
 * when the runs disagreed; with_verdict adds "(regression; expected X)". */
void th_html_cell_badges(FILE *out, const struct th_cell *c, bool with_verdict)
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
			th_html_badge(out, (enum th_outcome)i, reg && (enum th_outcome)i == th_cell_observed(c), n);
			first = 0;
		}
	} else {
		th_html_badge(out, th_cell_observed(c), reg, NULL);
	}
	char exp[200];

	if (with_verdict && (v == TH_VERDICT_REGRESSION || v == TH_VERDICT_IMPROVEMENT))
		fprintf(out, " (%s; expected %s)", th_verdict_name(v),
			th_cell_expected_text(c, exp, sizeof(exp)));
}

static void toolchain_heads(FILE *out, const struct th_toolchain **tcs, size_t ntc)
{
	for (size_t t = 0; t < ntc; t++) {
		fputs("<th scope=\"col\">", out);
		text(out, tcs[t]->name);
		fputs("</th>", out);
	}
}

/* ---- sections ---- */

/* The page's head: what was run, in one line; a partial run or a slice
 * said before anything else. */
static void header(FILE *out, const struct th_results *res, const struct th_toolchain **tcs,
		   size_t ntc)
{
	fputs("<h1>timerharness: what type-based CFI stops in the kernel's timer</h1>\n"
	      "<p class=\"facts\">", out);
	fprintf(out, "%zu cells on", res->ncells);
	for (size_t t = 0; t < ntc; t++) {
		fputs(t ? ", " : " ", out);
		text(out, tcs[t]->name);
		if (*tcs[t]->version) {
			fputs(" ", out);
			text(out, tcs[t]->version);
		}
	}
	fputs(ntc ? "" : " no toolchain", out);
	fputs("; ", out);
	text(out, res->host.hostname ? res->host.hostname : "?");
	fputs(", ", out);
	text(out, res->created ? res->created : "?");
	fputs(" (UTC); timerharness ", out);
	text(out, res->version ? res->version : "?");
	fputs("</p>\n", out);
	if (res->partial) {
		fputs("<p class=\"banner\"><strong>Partial run</strong>: interrupted (", out);
		text(out, res->interrupted ? res->interrupted : "?");
		fputs("). Cells not shown were not run.</p>\n", out);
	}
	if (th_results_is_slice(res))
		fputs("<p class=\"banner\"><strong>A slice of the plan</strong>: the run was asked for "
		      "part of the cells only (see <a href=\"#run\">the run</a>); answers below cover "
		      "what it ran.</p>\n", out);
}

static void charts(FILE *out, const struct th_results *res)
{
	fputs("<h2 id=\"charts\">At a glance</h2>\n<figure>\n", out);
	th_html_chart_outcomes(out, res);
	fputs("<figcaption>Outcomes of every cell of each config, per API generation (4.14, the "
	      "4.14-rc3 shim, 4.15): all attacks, techniques and toolchains. Under each bar, its "
	      "segments left to right by symbol and count; a wide segment carries its symbol."
	      "</figcaption>\n<div class=\"legend\">", out);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		th_html_badge(out, (enum th_outcome)i, false,
		      (char[]){ ' ', '(', th_outcome_symbol((enum th_outcome)i), ')', 0 });
	fputs("</div>\n", out);
	th_html_chart_outcomes_table(out, res);
	fputs("</figure>\n<figure>\n", out);
	th_html_chart_defences(out, res);
	fputs("<figcaption>Which defence stops which technique: the share of attack cells (control "
	      "runs, and cells that could not run, left out) where a defence named itself "
	      "(<code>BLOCKED_CFI</code> or <code>DETECTED</code>), over every variant, payload, "
	      "timing and toolchain.</figcaption>\n</figure>\n", out);
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
	fputs("<h2 id=\"run\">The run</h2>\n<ul>\n<li>Created: ", out);
	text(out, res->created ? res->created : "?");
	fputs(" (UTC) on ", out);
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
			th_html_code(out, tcs[t]->path);
		}
		fputc(')', out);
	}
	fputs(ntc ? "</li>\n" : " none</li>\n", out);
	if (res->expect_path) {
		fputs("<li>Expectations: ", out);
		th_html_code(out, res->expect_path);
		fputs(" (SHA-256 ", out);
		th_html_code(out, res->expect_sha256);
		fputs(")</li>\n", out);
	}
	if (th_results_is_slice(res)) {
		const char *lists[] = { res->selection.toolchains, res->selection.configs,
					res->selection.variants, res->selection.attacks };
		static const char *const names[] = { "toolchains", "configs", "variants", "attacks" };

		fputs("<li>A slice of the plan:", out);
		for (int i = 0; i < 4; i++) {
			if (!lists[i])
				continue;
			fprintf(out, " %s ", names[i]);
			th_html_code(out, lists[i]);
			fputc(';', out);
		}
		if (res->shard.count) {
			fputs(" shards", out);
			for (size_t k = 0; k < res->shard.nindexes; k++)
				fprintf(out, "%s%u", k ? "," : " ", res->shard.indexes[k]);
			fprintf(out, " of %u", res->shard.count);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\">outcome</th>", out);
	toolchain_heads(out, tcs, ntc);
	fputs("<th scope=\"col\">all</th><th scope=\"col\">meaning</th></tr></thead>\n<tbody>\n", out);
	for (size_t t = 0; t < ntc; t++)
		th_report_count(res, tcs[t]->name, per[t]);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		fputs("<tr><td>", out);
		th_html_badge(out, (enum th_outcome)i, false, NULL);
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
	fprintf(out, "</tbody>\n</table></div>\n<p>%zu cells. Verdicts: %u pass, %s%u regression%s, "
		"%u improvement, %u new (as stored; a regression the outcome shows is counted even if "
		"not stored; <code>timerharness check</code> recomputes them, with a baseline if "
		"given).</p>\n", res->ncells, v[TH_VERDICT_PASS],
		v[TH_VERDICT_REGRESSION] ? "<strong>" : "", v[TH_VERDICT_REGRESSION],
		v[TH_VERDICT_REGRESSION] ? "</strong>" : "", v[TH_VERDICT_IMPROVEMENT],
		v[TH_VERDICT_NEW]);
	m = th_report_sorted_metrics(res, &oom);
	if (!m)
		return oom ? -1 : 0;
	fputs("<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\">metric</th><th scope=\"col\">value</th></tr></thead>\n"
	      "<tbody>\n", out);
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
	fputs("</tbody>\n</table></div>\n", out);
	free(m);
	return 0;
}

/* ---- report.html's own sections (rows of sections.c) ---- */

int th_html_header(struct th_doc *d, const struct th_section_ctx *c)
{
	header(d->out, c->res, c->tcs, c->ntc);
	return 0;
}

int th_html_nav(struct th_doc *d, const struct th_section_ctx *c)
{
	th_sections_nav(d, c);
	return 0;
}

int th_html_charts(struct th_doc *d, const struct th_section_ctx *c)
{
	charts(d->out, c->res);
	return 0;
}

int th_html_run(struct th_doc *d, const struct th_section_ctx *c)
{
	return summary(d->out, c->res, c->tcs, c->ntc);
}

/* ---- the page ---- */

/* The page around the sections: its head (title, style), then
 * sections.c's table walked in order. */
static int html_page(FILE *out, const struct th_section_ctx *c)
{
	struct th_doc d = { .out = out, .html = true };

	/* No script, no request: the policy says so, and a browser enforces it. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<title>timerharness results: ", out);
	text(out, c->res->host.hostname ? c->res->host.hostname : "?");
	fputs(", ", out);
	text(out, c->res->created ? c->res->created : "?");
	fputs("</title>\n", out);
	style(out);
	fputs("</head>\n<body>\n<main>\n", out);
	if (th_sections_write(&d, c))
		return -1;
	fputs("</main>\n</body>\n</html>\n", out);
	return 0;
}

/* The model's cells as ever; each real kernel's in its own section. */
int th_render_html_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	return th_sections_document(out, res, html_page, "HTML", err, errlen);
}

int th_render_html(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_html_to, res, err, errlen);
}

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
 * order, through the HTML back end of the document writer (doc_html.c:
 * HTML's escaping, its badges and colours). Every section is in its own
 * file (section_*.c, render_charts.c, render_reach.c, render_fuzz.c,
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

/* ---- style ---- */

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

/* ---- the page ---- */

/* The page around the sections: its head (title, style), then
 * sections.c's table walked in order. */
static int html_page(FILE *out, const struct th_section_ctx *c)
{
	struct th_doc d = { .out = out, .ops = &th_doc_html };

	/* No script, no request: the policy says so, and a browser enforces it. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<title>timerharness results: ", out);
	th_html_text(out, c->res->host.hostname ? c->res->host.hostname : "?");
	fputs(", ", out);
	th_html_text(out, c->res->created ? c->res->created : "?");
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

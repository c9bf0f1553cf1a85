/* SPDX-License-Identifier: MIT */
/*
 * report.html's charts, as inline SVG: drawn from the cells, sized in
 * viewBox units so they scale to the page (a phone included), every mark
 * with a <title> that says what it counts, and none whose meaning rests on
 * colour alone (the outcome bars carry symbols and counts in text, the heat
 * map its percentages). No script. The row of sections.c that puts them
 * in the page, th_section_charts(), is at the end.
 */
#define _POSIX_C_SOURCE 200809L
#include "card.h"
#include "html.h"
#include "report_internal.h"
#include "sections.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- outcomes per config and variant ---- */

#define OW 400		/* viewBox width */
#define OX0 64		/* bars start here; variant labels end left of it */
#define OBAR 12		/* bar height */
#define OCNT 12		/* the counts line under a bar */
#define OSYM 9		/* a segment this wide or wider carries its symbol */

/* The cells of each config and variant by observed outcome; NULL when out
 * of memory. */
static unsigned (*outcome_counts(const struct th_results *res,
				 unsigned (**tot)[TH_VARIANT_COUNT]))[TH_VARIANT_COUNT][TH_OUTCOME_COUNT]
{
	size_t nc = res->nconfigs;
	unsigned (*n)[TH_VARIANT_COUNT][TH_OUTCOME_COUNT] = calloc(nc ? nc : 1, sizeof(*n));

	*tot = calloc(nc ? nc : 1, sizeof(**tot));
	if (!n || !*tot) {
		free(n);
		free(*tot);
		return NULL;
	}
	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];
		size_t k = th_results_config_pos(res, c->config);

		if (k < nc) {
			n[k][c->variant][th_cell_observed(c)]++;
			(*tot)[k][c->variant]++;
		}
	}
	return n;
}

/* Colour is never the only signal: a segment wide enough carries the
 * outcome's symbol (the grid's), and under every bar a line names each of
 * its segments, left to right, by symbol and count ("B 160, D 12, . 8"),
 * however narrow; th_html_chart_outcomes_table gives the same numbers as a
 * table for a screen reader, to which the SVG is one image. */
void th_html_chart_outcomes(FILE *out, const struct th_results *res)
{
	size_t nc = res->nconfigs;
	unsigned (*tot)[TH_VARIANT_COUNT];
	unsigned (*n)[TH_VARIANT_COUNT][TH_OUTCOME_COUNT] = outcome_counts(res, &tot);
	int h = 4;

	if (!n) {
		fputs("<p>(chart not drawn: out of memory)</p>\n", out);
		return;
	}
	for (size_t k = 0; k < nc; k++) {
		int nv = 0;

		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			nv += tot[k][v] != 0;
		if (nv)
			h += 16 + nv * (OBAR + OCNT + 3) + 6;
	}
	fprintf(out, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"aria-labelledby=\"chart-outcomes-t\"><title id=\"chart-outcomes-t\">Outcomes of the "
		"cells of each config, per API generation</title>\n", OW, h);
	int y = 4;

	for (size_t k = 0; k < nc; k++) {
		int nv = 0;

		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			nv += tot[k][v] != 0;
		if (!nv)
			continue;
		fprintf(out, "<text class=\"cl\" x=\"0\" y=\"%d\">", y + 11);
		th_html_text(out, res->configs[k].name);
		fputs("</text>\n", out);
		y += 16;
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			double x = OX0, w = OW - OX0 - 2;
			bool first = true;

			if (!tot[k][v])
				continue;
			fprintf(out, "<g class=\"bar\"><text class=\"vl\" x=\"%d\" y=\"%d\">%s</text>",
				OX0 - 4, y + OBAR - 2, th_variant_kernel((enum th_variant)v));
			for (int o = 0; o < TH_OUTCOME_COUNT; o++) {
				double sw = w * n[k][v][o] / tot[k][v];

				if (!n[k][v][o])
					continue;
				fprintf(out, "<rect class=\"f-%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
					"height=\"%d\"><title>", th_outcome_name((enum th_outcome)o), x, y, sw,
					OBAR);
				th_html_text(out, res->configs[k].name);
				fprintf(out, ", %s %s: %s in %u of %u cells</title></rect>",
					th_variant_kernel((enum th_variant)v),
					th_variant_name((enum th_variant)v), th_outcome_name((enum th_outcome)o),
					n[k][v][o], tot[k][v]);
				/* The symbol in the text colour of its outcome's
				 * badge (the striped UNSUPPORTED is a plain grey
				 * here: dark text). */
				if (sw >= OSYM) {
					fprintf(out, "<text class=\"sy\" x=\"%.2f\" y=\"%d\" fill=\"%s\" "
						"aria-hidden=\"true\">", x + sw / 2, y + OBAR - 2,
						o == TH_UNSUPPORTED ? "#222" : th_html_palette[o].fg);
					th_html_text(out, (char[]){ th_outcome_symbol((enum th_outcome)o), 0 });
					fputs("</text>", out);
				}
				x += sw;
			}
			fprintf(out, "<text class=\"sc\" x=\"%d\" y=\"%d\">", OX0, y + OBAR + OCNT - 2);
			for (int o = 0; o < TH_OUTCOME_COUNT; o++) {
				if (!n[k][v][o])
					continue;
				fprintf(out, "%s%c %u", first ? "" : ", ", th_outcome_symbol((enum th_outcome)o),
					n[k][v][o]);
				first = false;
			}
			fputs("</text></g>\n", out);
			y += OBAR + OCNT + 3;
		}
		y += 6;
	}
	fputs("</svg>\n", out);
	free(n);
	free(tot);
}

void th_html_chart_outcomes_table(FILE *out, const struct th_results *res)
{
	unsigned (*tot)[TH_VARIANT_COUNT];
	unsigned (*n)[TH_VARIANT_COUNT][TH_OUTCOME_COUNT] = outcome_counts(res, &tot);
	bool on[TH_OUTCOME_COUNT] = { false };

	if (!n)
		return;
	for (size_t k = 0; k < res->nconfigs; k++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			for (int o = 0; o < TH_OUTCOME_COUNT; o++)
				on[o] |= n[k][v][o] != 0;
	fputs("<details class=\"chartdata\"><summary>The chart as a table</summary>\n"
	      "<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\">config</th>"
	      "<th scope=\"col\">API</th><th scope=\"col\">cells</th>", out);
	for (int o = 0; o < TH_OUTCOME_COUNT; o++)
		if (on[o])
			fprintf(out, "<th scope=\"col\">%s</th>", th_outcome_name((enum th_outcome)o));
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t k = 0; k < res->nconfigs; k++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			if (!tot[k][v])
				continue;
			fputs("<tr><th scope=\"row\">", out);
			th_html_text(out, res->configs[k].name);
			fprintf(out, "</th><td>%s</td><td class=\"n\">%u</td>",
				th_variant_kernel((enum th_variant)v), tot[k][v]);
			for (int o = 0; o < TH_OUTCOME_COUNT; o++)
				if (on[o])
					fprintf(out, "<td class=\"n\">%u</td>", n[k][v][o]);
			fputs("</tr>\n", out);
		}
	fputs("</tbody>\n</table></div>\n</details>\n", out);
	free(n);
	free(tot);
}

/* ---- which defence stops which technique ---- */

#define HX0 136		/* cells start here; config names end left of it */
/* Cell width: room for "not run"; narrower past 6 techniques (the timer's
 * 6 and the tasklet's 2: 8), so that the chart's text stays above 8 px on a
 * 412 px phone, where "100%" at 11 px still fits. */
#define HCW_WIDE 48
#define HCW_NARROW 40
#define HRH 22		/* row height */
/* Room above the cells for the technique names, rotated by 55 degrees: an
 * 11 px name of n characters (about 6.5 px each) rises n * 6.5 * sin 55 px,
 * so the longest sets it (a fixed 70 px cut "ring-block-overflow"). */
static size_t names_room(const char *const *tech, size_t nt)
{
	size_t longest = 0;

	for (size_t t = 0; t < nt; t++)
		if (strlen(tech[t]) > longest)
			longest = strlen(tech[t]);
	return 16 + (longest * 65 * 82) / 1000;
}

/* The techniques of the cells, in display order (self-tests left out). */
static size_t techniques(const struct th_results *res, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < res->ncells; i++) {
		const char *t = res->cells[i]->technique;
		bool seen = !strcmp(t, "selftest");

		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(out[j], t);
		if (!seen && n < max)
			out[n++] = t;
	}
	for (size_t i = 1; i < n; i++)	/* display order: th_results_technique_rank */
		for (size_t j = i; j > 0; j--) {
			int a = th_results_technique_rank(out[j - 1]), b = th_results_technique_rank(out[j]);

			if (a < b || (a == b && strcmp(out[j - 1], out[j]) <= 0))
				break;
			const char *tmp = out[j - 1];

			out[j - 1] = out[j];
			out[j] = tmp;
		}
	return n;
}

/* Room right of the cells for the last technique's name, which rises to
 * the right from its column's middle: n * 6.5 * cos 55 px. */
static size_t right_room(const char *const *tech, size_t nt, size_t cw)
{
	size_t need = nt ? 8 + (strlen(tech[nt - 1]) * 65 * 574) / 10000 : 0;

	return need > cw / 2 + 46 ? need - cw / 2 : 46;
}

void th_html_chart_defences(FILE *out, const struct th_results *res)
{
	const char *tech[32];
	size_t nt = techniques(res, tech, 32), nc = res->nconfigs, htop = names_room(tech, nt);

	const size_t cw = nt > 6 ? HCW_NARROW : HCW_WIDE;	/* cell width */

	fprintf(out, "<svg class=\"chart\" viewBox=\"0 0 %zu %zu\" role=\"img\" "
		"aria-labelledby=\"chart-defences-t\"><title id=\"chart-defences-t\">How often each "
		"config stops each technique: BLOCKED_CFI or DETECTED, of the attack cells that ran"
		"</title>\n", HX0 + nt * cw + right_room(tech, nt, cw), htop + nc * HRH + 4);
	for (size_t t = 0; t < nt; t++) {
		fprintf(out, "<text class=\"th\" transform=\"translate(%zu %zu) rotate(-55)\">",
			HX0 + t * cw + cw / 2, htop - 6);
		th_html_text(out, tech[t]);
		fputs("</text>\n", out);
	}
	for (size_t k = 0; k < nc; k++) {
		const char *cfg = res->configs[k].name;
		size_t y = htop + k * HRH;

		fprintf(out, "<text class=\"cr\" x=\"%d\" y=\"%zu\">", HX0 - 6, y + HRH / 2 + 4);
		th_html_text(out, cfg);
		fputs("</text>\n", out);
		for (size_t t = 0; t < nt; t++) {
			unsigned ran = 0, blocked = 0, detected = 0;
			size_t x = HX0 + t * cw;

			for (size_t i = 0; i < res->ncells; i++) {
				const struct th_cell *c = res->cells[i];
				enum th_outcome o = th_cell_observed(c);

				/* An attack that ran: no control run, nothing that
				 * could not run or was not observed. */
				if (strcmp(c->config, cfg) || strcmp(c->technique, tech[t]) ||
				    !strcmp(c->payload, "none") || o >= TH_UNSUPPORTED)
					continue;
				ran++;
				blocked += o == TH_BLOCKED_CFI;
				detected += o == TH_DETECTED;
			}
			double f = ran ? (double)(blocked + detected) / ran : 0;
			/* From #f6f8fa (none stopped) to #1b7837 (all). */
			int r = (int)(0xf6 + (0x1b - 0xf6) * f), g = (int)(0xf8 + (0x78 - 0xf8) * f),
			    b = (int)(0xfa + (0x37 - 0xfa) * f);

			fprintf(out, "<g><rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" "
				"fill=\"#%02x%02x%02x\" stroke=\"#fff\"/>", x, y, (int)cw, HRH, r, g, b);
			if (ran)
				fprintf(out, "<text class=\"hv%s\" x=\"%zu\" y=\"%zu\">%.0f%%</text>",
					f > 0.5 ? " dark" : "", x + cw / 2, y + HRH / 2 + 4, 100 * f);
			else
				fprintf(out, "<text class=\"hv none\" x=\"%zu\" y=\"%zu\">not run</text>",
					x + cw / 2, y + HRH / 2 + 4);
			fputs("<title>", out);
			th_html_text(out, cfg);
			fputs(" against ", out);
			th_html_text(out, tech[t]);
			if (ran)
				fprintf(out, ": stopped %u of %u attack cells (BLOCKED_CFI %u, DETECTED %u)",
					blocked + detected, ran, blocked, detected);
			else
				fputs(": no attack cell ran", out);
			fputs("</title></g>\n", out);
		}
	}
	fputs("</svg>\n", out);
}

/* ---- the section ---- */

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

int th_section_charts(struct th_doc *d, const struct th_section_ctx *c)
{
	charts(d->out, c->res);
	return 0;
}

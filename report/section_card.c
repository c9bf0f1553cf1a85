/* SPDX-License-Identifier: MIT */
/*
 * report.html's verdict card (sections.h, th_html_card): the question the
 * project answers (does type-based CFI stop CVE-2017-7308's overwrite of a
 * timer?) row by row from card.h's selection, with the cells behind each
 * answer one click away; then what the reach, the fuzzing campaigns and a
 * real kernel add, and the verdict counts. HTML only: report.md opens with
 * the verdict screen as text instead (th_md_verdict).
 */
#define _POSIX_C_SOURCE 200809L
#include "card.h"
#include "html.h"
#include "reach.h"
#include "render_fuzz.h"
#include "report_internal.h"
#include "sections.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The "could not run" note every row of rows[0..n) shares, or NULL. */
static const char *shared_note(const struct th_card_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].not_run, rows[0].not_run))
			return NULL;
	return n && *rows[0].not_run ? rows[0].not_run : NULL;
}

static void note_line(FILE *out, const char *note)
{
	if (!note)
		return;
	fputs("<p class=\"cnt\">Could not run: ", out);
	th_html_text(out, note);
	fputs("</p>\n", out);
}

/* One row of the card: the generation (or payload), the configs, the
 * answer in large, how many cells gave it, what could not run (unless
 * every row says the same: said once, under them). */
static void card_row(FILE *out, const char *label, const struct th_card_row *r, bool note)
{
	char counts[160];

	fputs("<div class=\"vrow\"><span class=\"gen\">", out);
	th_html_text(out, label);
	fputs("</span><span class=\"cfg\">", out);
	th_html_text(out, r->configs);
	fputs("</span><span class=\"big\">", out);
	if (r->worst == TH_OUTCOME_INVALID)
		fputs("<span class=\"muted\">not run</span>", out);
	else
		th_html_badge(out, r->worst, false, NULL);
	fputs("</span>", out);
	if (r->ncells) {
		th_card_counts_text(r, counts, sizeof(counts));
		fputs("<span class=\"cnt\">", out);
		th_html_text(out, counts);
		fputs("</span>", out);
	}
	if (note && *r->not_run) {
		fputs("<span class=\"cnt\">could not run: ", out);
		th_html_text(out, r->not_run);
		fputs("</span>", out);
	}
	fputs("</div>\n", out);
}

/* The cells a card row stands on, folded: outcome and evidence verbatim. */
static void card_cells(FILE *out, const struct th_card_row *rows, size_t n, const char *what)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += rows[i].n;
	if (!total)
		return;
	fprintf(out, "<details><summary>The %zu cell%s that answer %s</summary>\n"
		"<div class=\"scroll\"><table>\n<thead><tr><th scope=\"col\">attack</th><th scope=\"col\">variant</th>"
		"<th scope=\"col\">config</th><th scope=\"col\">toolchain</th><th scope=\"col\">outcome</th><th scope=\"col\">evidence</th></tr></thead>\n"
		"<tbody>\n", total, total == 1 ? "" : "s", what);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < rows[i].n; k++) {
			const struct th_cell *c = rows[i].cells[k];

			fputs("<tr><td>", out);
			th_html_code(out, c->attack);
			fprintf(out, "</td><td>%s</td><td>", th_variant_name(c->variant));
			th_html_text(out, c->config);
			fputs("</td><td>", out);
			th_html_text(out, c->toolchain);
			fputs("</td><td>", out);
			th_html_cell_badges(out, c, true);
			fputs("</td><td><code>", out);
			th_html_text(out, *c->evidence ? c->evidence : "(no evidence recorded)");
			fputs("</code></td></tr>\n", out);
		}
	}
	fputs("</tbody>\n</table></div>\n</details>\n", out);
}

/* What the campaigns of fuzz.json beside the results found, one sentence
 * per API generation (the section "Fuzzing campaigns" further down has
 * every chain), and where the exploit's row above says otherwise, how both
 * hold (th_card_reconcile()); "not run" without one. */
static void fuzz_lines(FILE *out, const struct th_results *res, const struct th_card *card)
{
	const struct th_fz_summary *s = th_render_fuzz_summary(res);
	char line[1024], a[32], b[32];
	bool any = false;

	for (int i = 0; s && i < TH_API_COUNT * TH_VARIANT_COUNT; i++) {
		enum th_api api = (enum th_api)(i / TH_VARIANT_COUNT);
		int v = i % TH_VARIANT_COUNT;
		const char *obj = api == TH_API_TIMER ? "timer" : th_api_name(api);
		struct th_fz_generation g;

		if (!th_fz_generation(s, api, (enum th_variant)v, &g))
			continue;
		if (!any) {
			bool other = false;

			/* The timer's words as before the families; with another
			 * family's campaigns, each family's call. */
			for (size_t k = 0; k < s->ncampaigns; k++)
				other |= s->campaigns[k].api != TH_API_TIMER;
			fprintf(out, "<h3><a href=\"#fuzzing\">Fuzzing the overwrite</a>: %s, by any write "
				"the campaigns found, not the exploit's alone%s</h3>\n",
				other ? "each family's own call (the timer's, the tasklet's)" : "the timer's own call",
				s->partial ? " (PARTIAL: the campaigns were interrupted)" : "");
		}
		any = true;
		if (api == TH_API_TIMER)
			snprintf(line, sizeof(line), "%s %s", th_variant_kernel((enum th_variant)v),
				 v == TH_VARIANT_TRANSITIONAL ? "(rc3 shim)" : th_variant_name((enum th_variant)v));
		else
			snprintf(line, sizeof(line), "%s %s", th_api_name(api),
				 v == TH_VARIANT_TRANSITIONAL ? "6.1 (use_callback)" :
				 th_variant_name((enum th_variant)v));
		fputs("<div class=\"vrow\"><span class=\"gen\">", out);
		th_html_text(out, line);
		snprintf(line, sizeof(line), "%zu config%s", g.configs, g.configs == 1 ? "" : "s");
		fputs("</span><span class=\"cfg\">", out);
		th_html_text(out, line);
		fputs("</span><span class=\"big\">", out);
		if (g.own) {
			th_html_badge(out, TH_HIJACKED, false, NULL);
			snprintf(line, sizeof(line), "under %zu of %zu, first after %.2f s", g.own, g.configs,
				 g.first);
		} else {
			fputs("never hijacked", out);
			th_report_short_count(g.runs, a, sizeof(a));
			th_report_short_count(g.blocks, b, sizeof(b));
			snprintf(line, sizeof(line), "%s runs, %s CFI blocks", a, b);
		}
		fputs("</span><span class=\"cnt\">", out);
		th_html_text(out, line);
		if (!g.own && th_fz_own_call_by_construction(api, (enum th_variant)v)) {
			struct th_fz_reach r[32];
			size_t ncfi, nr = th_fz_reach(s, api, (enum th_variant)v, r, sizeof(r) / sizeof(r[0]), &ncfi);
			const char *said[32];
			size_t nsaid = th_fz_reach_labels(r, nr, said, sizeof(said) / sizeof(said[0]));

			snprintf(line, sizeof(line), " (by construction: its call gets the %s, never bytes the "
				 "attacker wrote)", obj);
			th_html_text(out, line);
			if (ncfi) {
				th_html_text(out, nr ? "; under CFI it still reached: " :
					       "; under CFI: no privileged write or redirect found");
				/* Each label once (th_fz_reach_labels()). */
				for (size_t k = 0; k < nsaid; k++) {
					th_html_text(out, k ? ", " : "");
					th_html_text(out, said[k]);
				}
			}
		}
		if (g.foreign) {
			snprintf(line, sizeof(line), "; through process_timeout: HIJACKED under %zu of %zu",
				 g.foreign, g.configs);
			th_html_text(out, line);
		}
		fputs("</span></div>\n", out);
		if (api == TH_API_TIMER && th_card_reconcile(card, res, s, (enum th_variant)v, line, sizeof(line))) {
			fputs("<p class=\"cnt\">", out);
			th_html_text(out, line);
			fputs("</p>\n", out);
		}
	}
	if (!any) {
		fputs("<p class=\"other\"><strong>Fuzzing campaigns:</strong> not run "
		      "<span class=\"cnt\">(no fuzz.json beside these results)</span></p>\n", out);
		return;
	}
	fputs("<details><summary>What the campaigns found, in full</summary>\n", out);
	for (int i = 0; i < TH_API_COUNT * TH_VARIANT_COUNT; i++) {
		if (!th_fz_verdict(s, (enum th_api)(i / TH_VARIANT_COUNT), (enum th_variant)(i % TH_VARIANT_COUNT),
				   line, sizeof(line)))
			continue;
		fputs("<p class=\"other\">", out);
		th_html_text(out, line);
		fputs("</p>\n", out);
	}
	fputs("</details>\n", out);
}

/* What 4.15's call site can still call under the card's configs, read from
 * the binaries (th_card_reach(); the reach section, further down); "not
 * run" without one. Return: 0, or -1 when out of memory. */
static int reach_lines(FILE *out, const struct th_results *res)
{
	struct th_reach_call c;
	bool any = false;
	char buf[64];

	if (th_card_reach(res, TH_API_TIMER, NULL, TH_VARIANT_MODERN, &c))
		return -1;
	for (size_t k = 0; k < c.n; k++) {
		const struct th_reach_admits *r = &c.rows[k];

		if (!any)
			fputs("<h3>What 4.15's <code>call_timer_fn</code> can still call</h3>\n", out);
		any = true;
		fputs("<div class=\"vrow\"><span class=\"gen\">4.15 modern</span><span class=\"cfg\">", out);
		th_html_text(out, r->config);
		snprintf(buf, sizeof(buf), "%zu of %zu functions", r->members, r->functions);
		fputs("</span><span class=\"big\">", out);
		th_html_text(out, buf);
		fputs("</span><span class=\"cnt\">", out);
		if (r->privileged) {
			fputs("privileged: ", out);
			th_html_text(out, r->names);
		} else {
			fputs("none privileged", out);
		}
		if (*r->hops) {
			fputs("; one call further, ", out);
			th_html_text(out, r->hops);
		}
		fputs(" (", out);
		th_html_text(out, r->toolchain);
		fputs(")</span></div>\n", out);
	}
	th_reach_call_free(&c);
	/* A real kernel's entries: a row each, naming the platform. */
	for (size_t i = 0; res->reach && i < res->reach->n; i++) {
		const struct th_reach_entry *e = &res->reach->entries[i];
		size_t np = th_reach_privileged_count(e);

		if (!th_reach_is_kernel(e) || e->api != TH_API_TIMER)
			continue;
		if (!any)
			fputs("<h3>What <code>call_timer_fn</code> can still call</h3>\n", out);
		any = true;
		fputs("<div class=\"vrow\"><span class=\"gen\">", out);
		th_html_text(out, e->platform);
		fputs(" (real kernel)</span><span class=\"cfg\">", out);
		th_html_text(out, e->config);
		snprintf(buf, sizeof(buf), "%zu of %zu functions", e->nmembers, e->functions_total);
		fputs("</span><span class=\"big\">", out);
		th_html_text(out, buf);
		fputs("</span><span class=\"cnt\">", out);
		if (np) {
			fputs("privileged: ", out);
			for (size_t k = 0, shown = 0; k < e->nmembers; k++)
				if (e->members[k].privileged) {
					fputs(shown++ ? ", " : "", out);
					th_html_text(out, th_reach_member_name(&e->members[k]));
				}
		} else {
			fputs("none privileged", out);
		}
		fputs(" (", out);
		th_html_text(out, e->toolchain);
		fputs(")</span></div>\n", out);
	}
	if (any)
		fputs("<p class=\"cnt\">Read from the built binaries: <a href=\"#reach\">what the "
		      "timer dispatch can still call</a>.</p>\n", out);
	else
		fputs("<p class=\"other\"><strong>CFI reach at the timer call site:</strong> not run "
		      "<span class=\"cnt\">(these results hold no target set)</span></p>\n", out);
	return 0;
}

/* "Real kernel (linux-6.1.192): 38 cells, 30 agree with the model, ...":
 * a line per real-kernel platform, its table below (#kernel). */
static int kernel_card_lines(FILE *out, const struct th_results *res)
{
	const struct th_results *o = th_results_origin(res);
	struct th_agreement *rows;
	size_t nrows;

	if (!o->nplatforms)
		return 0;
	if (th_results_agreement(o, NULL, NULL, &rows, &nrows, NULL, 0))
		return -1;
	for (size_t p = 0; p < o->nplatforms; p++) {
		struct th_agreement_counts k;

		th_results_agreement_counts(o, rows, nrows, o->platforms[p].name, &k);
		fputs("<p class=\"cnt\"><a href=\"#kernel\">Real kernel</a> (", out);
		th_html_text(out, o->platforms[p].name);
		fprintf(out, "): %zu cell%s, %zu agree with the model, %zu declared difference%s, %s%zu "
			"disagree%s", k.cells, k.cells == 1 ? "" : "s", k.agree, k.declared, k.declared == 1 ? "" : "s",
			k.disagree ? "<strong>" : "", k.disagree, k.disagree ? "</strong>" : "");
		if (k.alone)
			fprintf(out, ", %zu without a model cell", k.alone);
		fputs(".</p>\n", out);
	}
	th_agreement_free(rows, nrows);
	return 0;
}

/* The tasklet's question (card.h TH_CARD_TASKLET_*), when the results
 * hold tasklet cells: the downgrade on each generation, then the function
 * word with use_callback kept, then what the func(data) call admits.
 * Return: 0, or -1 when out of memory. */
static int tasklet_card(FILE *out, const struct th_results *res, const struct th_card *card)
{
	struct th_reach_call c;
	char label[96];
	bool any = false;

	for (size_t i = 0; i < card->ntasklet; i++)
		any |= card->tasklet[i].worst != TH_OUTCOME_INVALID || *card->tasklet[i].not_run;
	if (!any)
		return 0;
	fputs("<h3>Does type-based CFI stop the same write on a tasklet?</h3>\n<p class=\"q\">"
	      "6.1's <code>struct tasklet_struct</code> keeps <code>func</code> and <code>data</code> "
	      "beside <code>callback</code>, behind <code>bool use_callback</code>: the overwrite "
	      "(technique <code>" TH_CARD_TASKLET_TECHNIQUE "</code>, timing <code>"
	      TH_CARD_TASKLET_TIMING "</code>) clears it and writes <code>func</code> = "
	      "<code>write_cr4</code>, <code>data</code> = 0x407f0, the same bytes on each "
	      "generation, against a tasklet set up with <code>tasklet_setup()</code> where it "
	      "exists.</p>\n<div class=\"cve\">\n", out);
	for (size_t i = 0; i < card->ntasklet; i++) {
		const struct th_card_row *r = &card->tasklet[i];

		if (strcmp(r->payload, TH_CARD_TASKLET_PAYLOAD))
			snprintf(label, sizeof(label), "%s (%s), %s alone, use_callback kept",
				 th_variant_name(r->variant), th_tasklet_kernel(r->variant), r->payload);
		else
			snprintf(label, sizeof(label), "%s (%s)", th_variant_name(r->variant),
				 th_tasklet_kernel(r->variant));
		card_row(out, label, r, !shared_note(card->tasklet, card->ntasklet));
	}
	fputs("</div>\n", out);
	note_line(out, shared_note(card->tasklet, card->ntasklet));
	card_cells(out, card->tasklet, card->ntasklet, "it");
	/* What the func(data) call the downgrade reaches admits (reach). */
	if (th_card_reach(res, TH_API_TASKLET, "func", TH_VARIANT_TRANSITIONAL, &c))
		return -1;
	for (size_t k = 0; k < c.n; k++) {
		const struct th_reach_admits *r = &c.rows[k];

		fprintf(out, "<p class=\"cnt\">6.1's <code>func(data)</code> call under <code>%s</code> "
			"(%s's binaries) admits %zu of %zu functions", r->config, r->toolchain, r->members,
			r->functions);
		if (r->privileged) {
			fputs("; privileged: ", out);
			th_html_text(out, r->names);
		}
		fputs(".</p>\n", out);
	}
	th_reach_call_free(&c);
	return 0;
}

/* The verdict, first: the question the project answers, row by row, with
 * the cells behind each answer one click away. */
static int verdict_card(FILE *out, const struct th_results *res, const struct th_cell **all)
{
	struct th_card card;
	char label[64];
	unsigned v[TH_VERDICT_COUNT] = { 0 };

	if (th_card_build(all, res->ncells, &card))
		return -1;
	fputs("<section class=\"card\" id=\"verdict\">\n<h2>Does type-based CFI stop "
	      "CVE-2017-7308's overwrite of a timer?</h2>\n<p class=\"q\">The overwrite as the exploit "
	      "made it (technique <code>" TH_CARD_CVE_TECHNIQUE "</code>, timing <code>"
	      TH_CARD_CVE_TIMING "</code>: the ring's retire timer armed first, then a frame "
	      "written past a ring block into the next socket) points <code>.function</code> at "
	      "<code>write_cr4</code>, and on 4.14 <code>.data</code> at the attacker's CR4 "
	      "value; asked on each API generation under the CFI a kernel ships.</p>\n", out);
	fputs("<div class=\"cve\">\n", out);
	for (size_t i = 0; i < card.ncve; i++) {
		enum th_variant va = card.cve[i].variant;

		snprintf(label, sizeof(label), "%s %s", th_variant_kernel(va),
			 va == TH_VARIANT_TRANSITIONAL ? "(rc3 shim)" : th_variant_name(va));
		card_row(out, label, &card.cve[i], !shared_note(card.cve, card.ncve));
	}
	fputs("</div>\n", out);
	note_line(out, shared_note(card.cve, card.ncve));
	card_cells(out, card.cve, card.ncve, "it");
	fputs("<h3>What 4.15 + CFI does not stop</h3>\n", out);
	if (!card.nstill) {
		char cfgs[256];

		th_card_configs_text(cfgs, sizeof(cfgs), ", ", " or ");
		fputs("<p class=\"cnt\">With no other payload did the attacker's target run on 4.15 "
		      "under ", out);
		th_html_text(out, cfgs);
		fputs(" (in these results).</p>\n", out);
	}
	for (size_t i = 0; i < card.nstill; i++)
		card_row(out, card.still[i].payload, &card.still[i],
			 !shared_note(card.still, card.nstill));
	note_line(out, shared_note(card.still, card.nstill));
	if (card.nstill)
		card_cells(out, card.still, card.nstill, "it");
	/* The tasklet's question; then sections other parts of a run add to
	 * the results: until a run records them, the card says they were not
	 * run. */
	if (tasklet_card(out, res, &card) || reach_lines(out, res)) {
		th_card_free(&card);
		return -1;
	}
	fuzz_lines(out, res, &card);
	if (kernel_card_lines(out, res)) {
		th_card_free(&card);
		return -1;
	}
	for (size_t i = 0; i < res->ncells; i++)
		v[th_results_shown_verdict(res->cells[i])]++;
	fprintf(out, "<p class=\"gate\">Against the declared expectations: %u pass, %s%u "
		"regression%s%s, %u improvement, %u new (as stored; <code>timerharness check</code> "
		"recomputes them).</p>\n</section>\n", v[TH_VERDICT_PASS],
		v[TH_VERDICT_REGRESSION] ? "<strong>" : "", v[TH_VERDICT_REGRESSION],
		v[TH_VERDICT_REGRESSION] == 1 ? "" : "s", v[TH_VERDICT_REGRESSION] ? "</strong>" : "",
		v[TH_VERDICT_IMPROVEMENT], v[TH_VERDICT_NEW]);
	th_card_free(&card);
	return 0;
}

int th_html_card(struct th_doc *d, const struct th_section_ctx *c)
{
	return verdict_card(d->out, c->res, c->all);
}

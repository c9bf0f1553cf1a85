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
#include "reach.h"
#include "render_reach.h"
#include "render.h"
#include "report_internal.h"

#include "render_fuzz.h"
#include "severity.h"

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

/* One row: label, configs, outcome, distribution; trailing blanks cut. A
 * distribution that would pass the screen's width goes on under itself
 * (under the row's start when its column leaves no room), broken before
 * its parenthesis or after a comma. */
static void row_line(FILE *out, const char *label, int lw, const struct th_card_row *r, int ow,
		     int use_color)
{
	char counts[160];
	int col, hang;

	th_card_counts_text(r, counts, sizeof(counts));
	col = fprintf(out, "  %-*s  %-14s  ", lw, label, r->configs);
	if (r->worst == TH_OUTCOME_INVALID) {
		fputs("not run\n", out);
		return;
	}
	put_outcome(out, r->worst, ow, use_color);
	col += ow;
	hang = col + 1;
	if (hang > TH_VERDICT_WIDTH - 20)
		hang = 6;
	/* Pieces break before "(" and after ",": "16 of 20 cells", "(CRASHED
	 * 4,", "HANG 1)". */
	for (const char *p = counts; *p;) {
		int w = 0;

		while (p[w] && !(p[w] == ' ' && (p[w + 1] == '(' || (w && p[w - 1] == ','))))
			w++;
		if (col + 1 + w > TH_VERDICT_WIDTH && col > hang) {
			fprintf(out, "\n%*s", hang, "");
			col = hang;
		} else {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", w, p);
		col += w;
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

/* Each distinct "could not run" note of rows, once: a note already said
 * (in *said, for the rows before) is not said again. */
static void not_run_notes(FILE *out, const struct th_card_row *rows, size_t n, char *said,
			  size_t cap)
{
	for (size_t i = 0; i < n; i++) {
		if (!*rows[i].not_run || strstr(said, rows[i].not_run))
			continue;
		char line[256];

		snprintf(line, sizeof(line), "could not run: %s", rows[i].not_run);
		th_report_put_wrapped(out, "    ", line);
		if (strlen(said) + strlen(rows[i].not_run) + 2 < cap) {
			strcat(said, rows[i].not_run);
			strcat(said, "\n");
		}
	}
}

/* The dispatch call each family's block asks about, as its line names it:
 * the timer's 4.15 call_timer_fn, at the screen's first level, "not run"
 * without an entry and with what a member reaches one call further (its
 * words as before the families); the tasklet's 6.1 func(data) call, the
 * one the downgrade reaches, inside its block and nothing without one. */
static const struct reach_call {
	const char *site;	/* NULL: the family's only call */
	enum th_variant variant;
	const char *what;	/* "4.15's call_timer_fn" */
	const char *indent;	/* the line's; its text goes two further in */
	bool not_run, hops;
} reach_calls[TH_API_COUNT] = {
	[TH_API_TIMER] = { NULL, TH_VARIANT_MODERN, "4.15's call_timer_fn", "", true, true },
	[TH_API_TASKLET] = { "func", TH_VARIANT_TRANSITIONAL, "6.1's func(data) call", "  ", false,
			     false },
};

/* What family @api's call (reach_calls) can still call under each card
 * config, read from the binaries (th_card_reach(): the results' reach
 * section). Return: 0, or -1 when out of memory. */
static int reach_call_lines(FILE *out, const struct th_results *res, enum th_api api)
{
	const struct reach_call *rc = &reach_calls[api];
	struct th_reach_call c;
	char line[768], priv[512] = "", in[16];
	size_t len = 0, plen = 0;

	if (th_card_reach(res, api, rc->site, rc->variant, &c))
		return -1;
	for (size_t k = 0; k < c.n; k++) {
		const struct th_reach_admits *r = &c.rows[k];

		len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
					"%s%s %zu of %zu%s", k ? ", " : "", r->config, r->members,
					r->functions, k ? "" : " functions");
		if (r->privileged)
			plen += (size_t)snprintf(priv + plen, plen < sizeof(priv) ? sizeof(priv) - plen : 0,
						 "; privileged under %s: %s", r->config, r->names);
	}
	if (!c.n) {
		if (rc->not_run)
			fprintf(out, "%sWhat %s can still call: not run\n", rc->indent, rc->what);
		th_reach_call_free(&c);
		return 0;
	}
	fprintf(out, "%sWhat %s can still call (%s's binaries):\n", rc->indent, rc->what,
		c.rows[c.n - 1].toolchain);
	snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0, "%s",
		 plen ? priv : "; none privileged");
	snprintf(in, sizeof(in), "%s  ", rc->indent);
	th_report_put_wrapped(out, in, line);
	if (rc->hops && *c.hops) {
		snprintf(line, sizeof(line), "one call further: %s", c.hops);
		th_report_put_wrapped(out, in, line);
	}
	th_reach_call_free(&c);
	return 0;
}

/* The timer's call (reach_call_lines()), then a real kernel's entries: a
 * line each, naming the platform. Return: 0, or -1 when out of memory. */
static int reach_lines(FILE *out, const struct th_results *res)
{
	char line[768];

	if (reach_call_lines(out, res, TH_API_TIMER))
		return -1;
	for (size_t i = 0; res->reach && i < res->reach->n; i++) {
		const struct th_reach_entry *e = &res->reach->entries[i];

		if (!th_reach_is_kernel(e) || e->api != TH_API_TIMER)
			continue;
		th_reach_kernel_line(e, line, sizeof(line));
		th_report_put_wrapped(out, "  ", line);
	}
	return 0;
}

/* "Outcomes: HIJACKED 402, ..." wrapped at the screen's width. */
static void put_totals(FILE *out, const struct th_results *res)
{
	unsigned counts[TH_OUTCOME_COUNT];
	size_t n = th_results_count(res, NULL, counts);
	int col = fprintf(out, "Outcomes:"), last = 0;

	(void)n;
	for (int o = 0; o < TH_OUTCOME_COUNT; o++)
		last = counts[o] ? o : last;

	for (int o = 0; o < TH_OUTCOME_COUNT; o++) {
		char item[64];
		int len;

		if (!counts[o])
			continue;
		/* The comma stays with the item before it. */
		len = snprintf(item, sizeof(item), " %s %u%s", th_outcome_name((enum th_outcome)o),
			       counts[o], o < last ? "," : "");
		if (col + len > TH_VERDICT_WIDTH) {
			fputs("\n ", out);
			col = 1;
		}
		fputs(item, out);
		col += len;
	}
	fputc('\n', out);
}

/* What the campaigns of fuzz.json beside the results found (render_fuzz.h),
 * a line per API generation: under how many of the configs that ran the
 * timer's own call was hijacked and how soon, or after how many runs and
 * CFI blocks it never was (on 4.15: by construction, and what the
 * campaigns under CFI still reached, th_fz_reach()), and then whether
 * another subsystem's callback (the foreign-callback chain) was; where the
 * exploit's row above says otherwise, how both hold (th_card_reconcile()).
 * "not run" without a summary. Every figure is the summary's; its
 * sentences in full are in report.md. */
static void fuzz_lines(FILE *out, const struct th_results *res, const struct th_card *card)
{
	const struct th_fz_summary *s = th_render_fuzz_summary(res);
	char label[64], a[32], b[32], tcs[128] = "";
	long long runs = 0;
	size_t ran = 0;

	for (size_t i = 0; s && i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		if (strcmp(c->status, "ran"))
			continue;
		ran++;
		runs += c->executions;
		if (!strstr(tcs, c->toolchain) && strlen(tcs) + strlen(c->toolchain) + 3 < sizeof(tcs))
			snprintf(tcs + strlen(tcs), sizeof(tcs) - strlen(tcs), "%s%s", *tcs ? ", " : "",
				 c->toolchain);
	}
	if (!ran) {
		fputs("Fuzzing campaigns: not run\n", out);
		return;
	}
	th_report_short_count(runs, a, sizeof(a));
	snprintf(label, sizeof(label), "%zu campaign%s", ran, ran == 1 ? "" : "s");
	{
		char head[512];

		snprintf(head, sizeof(head), "Fuzzing the overwrite (fuzz.json: %s of %.0f s, %s, %s runs%s):",
			 label, s->budget_seconds, tcs, a, s->partial ? ", PARTIAL: interrupted" : "");
		th_report_put_wrapped(out, "", head);
		/* Which question it answers, as the exploit's block says its
		 * own under its question. */
		fputs("  (any write the campaigns found, not the exploit's alone)\n", out);
	}
	/* Each API family's generations (the timer's first, labelled as before
	 * the families; another family's with its name: "tasklet 6.1"). */
	for (int i = 0; i < TH_API_COUNT * TH_VARIANT_COUNT; i++) {
		enum th_api api = (enum th_api)(i / TH_VARIANT_COUNT);
		int v = i % TH_VARIANT_COUNT;
		const char *obj = api == TH_API_TIMER ? "timer" : th_api_name(api);
		struct th_fz_generation g;
		char line[256];

		if (!th_fz_generation(s, api, (enum th_variant)v, &g))
			continue;
		if (api == TH_API_TIMER)
			variant_label((enum th_variant)v, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "%s %s", th_api_name(api),
				 v == TH_VARIANT_TRANSITIONAL ? "6.1" : th_variant_name((enum th_variant)v));
		if (g.own) {
			snprintf(line, sizeof(line), "  %-14s own call HIJACKED under %zu of %zu configs, first %.2f s",
				 label, g.own, g.configs, g.first);
		} else {
			th_report_short_count(g.runs, a, sizeof(a));
			th_report_short_count(g.blocks, b, sizeof(b));
			snprintf(line, sizeof(line), "  %-14s own call never hijacked: %s runs, %s CFI blocks",
				 label, a, b);
		}
		fprintf(out, "%s\n", line);
		if (!g.own && th_fz_own_call_by_construction(api, (enum th_variant)v)) {
			/* The figure is the oracle's construction, not a search
			 * that came up empty: say so, and what was reached. */
			struct th_fz_reach r[32];
			size_t ncfi, nr = th_fz_reach(s, api, (enum th_variant)v, r, sizeof(r) / sizeof(r[0]), &ncfi);
			const char *said[32];
			size_t nsaid = th_fz_reach_labels(r, nr, said, sizeof(said) / sizeof(said[0]));
			char text[2048];
			size_t len;

			/* The timer's words as before the families; the tasklet's
			 * fit the same 80 columns. */
			snprintf(text, sizeof(text), api == TH_API_TIMER ?
				 "(by construction: its call gets the %s, not attacker bytes)" :
				 "(by construction: its call gets the %s, no attacker bytes)", obj);
			th_report_put_wrapped(out, "                 ", text);
			if (ncfi) {
				len = (size_t)snprintf(text, sizeof(text), "under CFI%s",
						       nr ? " it still reached:" : ": no privileged write or redirect found");
				/* Each label once (th_fz_reach_labels()). */
				for (size_t k = 0; k < nsaid && len < sizeof(text); k++)
					len += (size_t)snprintf(text + len, sizeof(text) - len, "%s %s",
								k ? "," : "", said[k]);
				th_report_put_wrapped(out, "                 ", text);
			}
		}
		if (g.foreign && !g.own)
			fprintf(out, "  %-14s via process_timeout: HIJACKED under %zu of %zu configs\n", "",
				g.foreign, g.configs);
		if (api == TH_API_TIMER) {
			/* The exploit's rows above are the timer's. */
			char text[1024];

			if (th_card_reconcile(card, res, s, (enum th_variant)v, text, sizeof(text)))
				th_report_put_wrapped(out, "                 ", text);
		}
	}
}

/* "Real kernel (linux-6.1.192) vs model: 38 cells, 30 agree, 6 declared, 2
 * disagree" (80 columns with two-digit counts; wrapped beyond): a line per
 * real-kernel platform, computed from the cells; nothing when there is
 * none. */
static int kernel_lines(FILE *out, const struct th_results *res)
{
	struct th_agreement *rows;
	size_t nrows, np;
	const char **names;

	if (th_results_kernels(res, &names, &np, &rows, &nrows))
		return -1;
	if (!np)
		return 0;
	for (size_t p = 0; p < np; p++) {
		struct th_agreement_counts k;
		char line[512], more[64] = "";

		th_results_agreement_counts(res, rows, nrows, names[p], &k);
		if (k.alone)
			snprintf(more, sizeof(more), " (%zu without a model cell)", k.alone);
		snprintf(line, sizeof(line), "Real kernel (%s) vs model: %zu cell%s, %zu agree, %zu "
			 "declared, %zu disagree%s", names[p], k.cells, k.cells == 1 ? "" : "s", k.agree,
			 k.declared, k.disagree,
			 more);
		th_report_put_wrapped(out, "", line);
	}
	th_results_kernels_free(names, rows, nrows);
	return 0;
}

/* What the gate fails, ranked by the severity table (severity.h), a rule
 * at a time in its order, the security findings first: "Failing the gate:
 * CFI_BLOCK_LOST 2 (critical), REGRESSION 1 (high), HARNESS_ERROR 1 (not a
 * security finding: the run failed)". Nothing when nothing regressed. */
static void gate_line(FILE *out, const struct th_results *res)
{
	size_t nrows, len = 0;
	const struct th_severity *rows = th_severity_rows(&nrows);
	char line[1024];

	/* The security findings first, then what is not one (a harness
	 * error: the run failed). */
	for (size_t k = 0; k < 2 * nrows; k++) {
		size_t r = k % nrows, n = 0;
		bool first = true;

		if (rows[r].verdict != TH_VERDICT_REGRESSION || (k < nrows) != !!*rows[r].security_severity)
			continue;
		/* Each rule once, at its first row. */
		for (size_t j = 0; j < r; j++)
			first &= strcmp(rows[j].rule, rows[r].rule) != 0;
		if (!first)
			continue;
		for (size_t i = 0; i < res->ncells; i++) {
			const struct th_severity *s = th_severity_of(res->cells[i]);

			n += s && s->verdict == TH_VERDICT_REGRESSION && !strcmp(s->rule, rows[r].rule);
		}
		if (!n || len >= sizeof(line))
			continue;
		const char *gh = th_severity_github_rank(rows[r].security_severity);

		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %zu (%s)",
					len ? "," : "Failing the gate:", rows[r].rule, n,
					gh ? gh : "not a security finding: the run failed");
	}
	if (len)
		th_report_put_wrapped(out, "", line);
}

static int verdict_model(FILE *out, const struct th_results *res, int use_color);

/* The tasklet's question, its own block (card.h TH_CARD_TASKLET_*): the
 * downgrade on each generation, then the function word with use_callback
 * kept, then what the func(data) call admits. Nothing when the results hold
 * no tasklet cell. Return: 0, or -1 when out of memory. */
static int tasklet_lines(FILE *out, const struct th_results *res, const struct th_card *card,
			  int use_color, char *said, size_t n)
{
	char label[64];
	int lw = 0, ow;
	bool any = false;

	for (size_t i = 0; i < card->ntasklet; i++)
		any |= card->tasklet[i].worst != TH_OUTCOME_INVALID || *card->tasklet[i].not_run;
	if (!any)
		return 0;
	fputs("Does type-based CFI stop the same write on a tasklet?\n"
	      "  (" TH_CARD_TASKLET_TECHNIQUE ", " TH_CARD_TASKLET_TIMING ": 6.1's bytes, use_callback cleared,\n"
	      "  func = write_cr4, data = 0x407f0; tasklet_setup() where it exists)\n", out);
	for (size_t i = 0; i < card->ntasklet; i++) {
		const struct th_card_row *r = &card->tasklet[i];

		if (strcmp(r->payload, TH_CARD_TASKLET_PAYLOAD))
			snprintf(label, sizeof(label), "%s kept", "use_callback");
		else
			snprintf(label, sizeof(label), "%s %s", th_tasklet_kernel(r->variant),
				 th_variant_name(r->variant));
		if ((int)strlen(label) > lw)
			lw = (int)strlen(label);
	}
	ow = outcome_width(card->tasklet, card->ntasklet);
	for (size_t i = 0; i < card->ntasklet; i++) {
		const struct th_card_row *r = &card->tasklet[i];

		if (strcmp(r->payload, TH_CARD_TASKLET_PAYLOAD)) {
			fprintf(out, "  %s (%s, %s alone):\n", th_variant_name(r->variant),
				th_tasklet_kernel(r->variant), r->payload);
			snprintf(label, sizeof(label), "%s kept", "use_callback");
		} else {
			snprintf(label, sizeof(label), "%s %s", th_tasklet_kernel(r->variant),
				 th_variant_name(r->variant));
		}
		row_line(out, label, lw, r, ow, use_color);
	}
	not_run_notes(out, card->tasklet, card->ntasklet, said, n);
	return reach_call_lines(out, res, TH_API_TASKLET);
}

int th_render_verdict(FILE *out, const struct th_results *res, int use_color)
{
	struct th_results view;
	int rc;

	/* The model's cells answer the questions, as ever; each real kernel
	 * says in a line how it agrees with them. */
	if (th_results_view(res, TH_PLATFORM_MODEL, &view))
		return -1;
	rc = verdict_model(out, &view, use_color);
	th_results_view_free(&view);
	return rc;
}

static int verdict_model(FILE *out, const struct th_results *res, int use_color)
{
	int oom, oom_tc;
	const struct th_cell **all = th_report_display_cells(res, &oom);
	const struct th_toolchain **tcs = th_results_sorted_toolchains(res, &oom_tc);
	struct th_card card;
	char label[64], said[512] = "";
	int lw = 13, ow;

	if (oom || oom_tc || th_card_build(all, res->ncells, &card)) {
		free(all);
		free(tcs);
		return -1;
	}
	/* One line: what ran, how long, with which compilers (their versions
	 * are in the reports); wrapped when many compilers make it longer. */
	{
		char *head = NULL;
		size_t hlen = 0;
		FILE *h = open_memstream(&head, &hlen);

		if (!h) {
			th_card_free(&card);
			free(all);
			free(tcs);
			return -1;
		}
		fprintf(h, "timerharness %s: %zu cells", res->version ? res->version : "?", res->ncells);
		for (size_t i = 0; i < res->nmetrics; i++)
			if (!strcmp(res->metrics[i].name, "runs") && res->metrics[i].type == TH_METRIC_INT)
				fprintf(h, ", %lld runs", res->metrics[i].i);
		for (size_t i = 0; i < res->nmetrics; i++)
			if (!strcmp(res->metrics[i].name, "run_seconds") &&
			    res->metrics[i].type != TH_METRIC_STRING)
				fprintf(h, " in %.1f s", res->metrics[i].type == TH_METRIC_INT ?
					(double)res->metrics[i].i : res->metrics[i].d);
		fputs(res->ntoolchains ? ", on" : ", no toolchain", h);
		for (size_t t = 0; t < res->ntoolchains; t++)
			fprintf(h, "%s%s", t == 0 ? " " : t + 1 == res->ntoolchains ? " and " : ", ",
				tcs[t]->name);
		if (fclose(h)) {
			free(head);
			th_card_free(&card);
			free(all);
			free(tcs);
			return -1;
		}
		th_report_put_wrapped(out, "", head);
		free(head);
	}
	if (res->partial) {
		char line[512];

		snprintf(line, sizeof(line), "PARTIAL run (interrupted: %s): cells that did not finish are "
			 "missing", res->interrupted ? res->interrupted : "?");
		th_report_put_wrapped(out, "", line);
	}
	if (th_results_is_slice(res))
		fputs("A SLICE of the plan (a filter or a shard): the other cells were not run\n", out);

	fputs("Does type-based CFI stop CVE-2017-7308's overwrite of a timer?\n"
	      "  (" TH_CARD_CVE_TECHNIQUE ", " TH_CARD_CVE_TIMING ", as the exploit: .function, "
	      "and .data on 4.14)\n", out);
	ow = outcome_width(card.cve, card.ncve);
	for (size_t i = 0; i < card.ncve; i++) {
		variant_label(card.cve[i].variant, label, sizeof(label));
		row_line(out, label, lw, &card.cve[i], ow, use_color);
	}
	not_run_notes(out, card.cve, card.ncve, said, sizeof(said));
	if (card.nstill) {
		fputs("What 4.15 + CFI does not stop (a target ran or privileged state changed):\n", out);
		for (size_t i = 0; i < card.nstill; i++)
			if ((int)strlen(card.still[i].payload) > lw)
				lw = (int)strlen(card.still[i].payload);
		ow = outcome_width(card.still, card.nstill);
		for (size_t i = 0; i < card.nstill; i++)
			row_line(out, card.still[i].payload, lw, &card.still[i], ow, use_color);
		not_run_notes(out, card.still, card.nstill, said, sizeof(said));
	}
	if (tasklet_lines(out, res, &card, use_color, said, sizeof(said)) || reach_lines(out, res)) {
		th_card_free(&card);
		free(all);
		free(tcs);
		return -1;
	}
	fuzz_lines(out, res, &card);
	if (kernel_lines(out, th_results_origin(res))) {
		th_card_free(&card);
		free(all);
		free(tcs);
		return -1;
	}
	gate_line(out, th_results_origin(res));
	put_totals(out, res);
	th_card_free(&card);
	free(all);
	free(tcs);
	return ferror(out) ? -1 : 0;
}

/* SPDX-License-Identifier: MIT */
/* "Fuzzing campaigns" in report.md and report.html (render_fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include "render_fuzz.h"
#include "doc.h"
#include "report_internal.h"
#include "sections.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const struct th_fz_summary *summary_for(const struct th_results *res)
{
	/* A renderer's view of res (one platform's cells) shows the model's. */
	return th_results_origin(res)->fuzz;
}

const struct th_fz_summary *th_render_fuzz_summary(const struct th_results *res)
{
	return summary_for(res);
}

/* What each variant is, in the kernel's terms. */
static const char *const generation[TH_API_COUNT][TH_VARIANT_COUNT] = {
	[TH_API_TIMER] = {
		[TH_VARIANT_LEGACY] = "4.14 setup_timer(): legacy",
		[TH_VARIANT_TRANSITIONAL] = "4.14-rc3 timer_setup() shim: transitional",
		[TH_VARIANT_MODERN] = "4.15 timer_setup(): modern",
	},
	[TH_API_TASKLET] = {
		[TH_VARIANT_LEGACY] = "Tasklet, before 5.9 tasklet_init(): legacy",
		[TH_VARIANT_TRANSITIONAL] = "Tasklet, 6.1 tasklet_setup() beside use_callback: transitional",
		[TH_VARIANT_MODERN] = "Tasklet, callback only: modern",
	},
};

static const char *const intro =
	"`timerharness fuzz` searched for the hijack with the overflow target: an attacker who "
	"knows the victim's addresses (a leak table) writes through the victim's own bugs "
	"(memcpy, index, strcpy, heap neighbour, use-after-free refill) in an order of its "
	"choosing, then the wheel runs; every run is judged like a matrix cell, from the "
	"targets' own reports and what they did. A finding is a run in which a privileged "
	"target ran (HIJACKED: with the attacker's argument and its effect; REDIRECTED: "
	"otherwise) or the privileged state changed (PRIVILEGED_WRITE), named by every step "
	"of it in order, replayed in a fresh process before it counted; CFI blocks, crashes "
	"and hangs are counted, not reported.";

/* Findings of one variant, one entry per signature: the first campaign that
 * found it gives the chain; every campaign that found it is listed. */
struct sig_row {
	const struct th_fz_finding *f;
	const struct th_fz_campaign *c;
};

static size_t variant_sigs(const struct th_fz_summary *s, enum th_api a, enum th_variant v,
			   struct sig_row *rows, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		if (c->variant != v || c->api != a)
			continue;
		for (size_t k = 0; k < c->nfindings; k++) {
			size_t j;

			for (j = 0; j < n && strcmp(rows[j].f->sig, c->findings[k].sig); j++)
				;
			if (j == n && n < max)
				rows[n++] = (struct sig_row){ &c->findings[k], c };
		}
	}
	return n;
}

/* ---- one writer for both formats (doc.h) ---- */

/* A chain, one step a line (its parts are " | "-separated), kept as it
 * is: the block that ends its finding's item. */
static void chain_block(struct th_doc *d, const char *chain)
{
	char *lines = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&lines, &len);

	if (!m) {
		th_doc_item_end_block(d, chain);
		return;
	}
	for (const char *p = chain; *p; p++) {
		if (!strncmp(p, " | ", 3)) {
			fputs("\n  | ", m);
			p += 2;
		} else {
			fputc(*p, m);
		}
	}
	if (fclose(m)) {
		free(lines);
		th_doc_item_end_block(d, chain);
		return;
	}
	th_doc_item_end_block(d, lines);
	free(lines);
}

static void first_cell(struct th_doc *d, const struct th_fz_first *f, long long executions)
{
	th_doc_cell_begin(d);
	if (f->reached)
		th_doc_rawf(d, "%.3f s (%lld execs)", f->seconds, f->executions);
	else
		th_doc_rawf(d, "none in %lld execs", executions);
	th_doc_cell_end(d);
}

static void campaign_row(struct th_doc *d, const struct th_fz_campaign *c)
{
	char fig[128];

	th_doc_row_begin(d);
	th_doc_cell_begin(d);
	th_doc_code(d, c->config);
	th_doc_cell_end(d);
	th_doc_cell_begin(d);
	th_doc_text(d, c->toolchain);
	if (strcmp(c->engine, "libfuzzer")) {
		th_doc_raw(d, " (");
		th_doc_text(d, c->engine);
		th_doc_raw(d, ")");
	}
	th_doc_cell_end(d);
	if (strcmp(c->status, "ran")) {
		/* Not run: why, across the figures' nine columns. */
		th_doc_cell_span_begin(d, 9);
		th_doc_text(d, c->status);
		th_doc_raw(d, ": ");
		th_doc_text(d, c->reason);
		th_doc_cell_span_end(d, 9);
		th_doc_row_end(d);
		return;
	}
	snprintf(fig, sizeof(fig), "%lld", c->executions);
	th_doc_cell(d, fig);
	snprintf(fig, sizeof(fig), "%.0f (%.0f per CPU s)", c->exec_per_second,
		 c->cpu_seconds > 0 ? (double)c->executions / c->cpu_seconds : 0.0);
	th_doc_cell(d, fig);
	first_cell(d, &c->first_hijack, c->executions);
	if (c->goal_reached.reached)
		snprintf(fig, sizeof(fig), "%.2f s", c->goal_reached.seconds);
	else
		snprintf(fig, sizeof(fig), "not reached");
	th_doc_cell(d, fig);
	{
		const long long n[4] = { c->outcomes[TH_BLOCKED_CFI],
					 c->outcomes[TH_CRASHED] + c->outcomes[TH_HANG],
					 c->outcomes[TH_REDIRECTED], c->outcomes[TH_PRIVILEGED_WRITE] };

		for (int i = 0; i < 4; i++) {
			snprintf(fig, sizeof(fig), "%lld", n[i]);
			th_doc_cell(d, fig);
		}
	}
	snprintf(fig, sizeof(fig), "%zu", c->nfindings);
	th_doc_cell(d, fig);
	th_doc_row_end(d);
}

/* Escaped per format (th_doc_table_head_text): Markdown's '\_', HTML's '_'. */
static const char *const heads[] = {
	"config", "toolchain", "executions", "exec/s", "first hijack", "write_cr4(0x407f0)",
	"BLOCKED_CFI", "CRASHED+HANG", "REDIRECTED", "PRIVILEGED_WRITE", "findings"
};

static void variant_part(struct th_doc *d, const struct th_fz_summary *s, enum th_api a, enum th_variant v)
{
	char verdict[4096];
	struct sig_row rows[128];
	size_t nrows = variant_sigs(s, a, v, rows, sizeof(rows) / sizeof(rows[0]));
	int any = 0;

	for (size_t i = 0; i < s->ncampaigns; i++)
		any |= s->campaigns[i].variant == v && s->campaigns[i].api == a;
	if (!any)
		return;
	th_doc_heading(d, 3, NULL, generation[a][v] ? generation[a][v] : th_variant_name(v));
	th_doc_table_head_text(d, heads, sizeof(heads) / sizeof(heads[0]));
	for (size_t i = 0; i < s->ncampaigns; i++)
		if (s->campaigns[i].variant == v && s->campaigns[i].api == a)
			campaign_row(d, &s->campaigns[i]);
	th_doc_table_end(d);
	if (th_fz_verdict(s, a, v, verdict, sizeof(verdict))) {
		th_doc_para(d);
		th_doc_strong(d, "Verdict.");
		th_doc_raw(d, " ");
		th_doc_text(d, verdict);
		th_doc_end_para(d);
	}
	if (!nrows) {
		th_doc_para(d);
		th_doc_raw(d, "No finding: no run reached a privileged target or changed the privileged "
			   "state.");
		th_doc_end_para(d);
		return;
	}
	th_doc_list_begin(d);
	for (size_t r = 0; r < nrows; r++) {
		const struct th_fz_finding *f = rows[r].f;
		int first = 1;

		th_doc_item_begin(d);
		th_doc_strong(d, th_outcome_name(f->outcome));
		th_doc_raw(d, " ");
		th_doc_code(d, f->chain_id);
		th_doc_raw(d, ", found on");
		for (size_t i = 0; i < s->ncampaigns; i++) {
			const struct th_fz_campaign *c = &s->campaigns[i];

			for (size_t k = 0; c->variant == v && c->api == a && k < c->nfindings; k++) {
				const struct th_fz_finding *g = &c->findings[k];

				if (strcmp(g->sig, f->sig))
					continue;
				th_doc_raw(d, first ? " " : "; ");
				th_doc_code(d, c->config);
				th_doc_raw(d, "/");
				th_doc_text(d, c->toolchain);
				th_doc_rawf(d, " after %.3f s (%lld execs)%s", g->first_seconds,
					g->first_executions, g->reproduced ? "" :
					", replayed to this signature but not the one the run reported");
				first = 0;
			}
		}
		th_doc_raw(d, ". Reproducer ");
		th_doc_code(d, f->reproducer);
		th_doc_raw(d, " (of ");
		th_doc_code(d, rows[r].c->config);
		th_doc_raw(d, "). Chain:");
		chain_block(d, f->chain);
	}
	th_doc_list_end(d);
}

static int section(struct th_doc *d, const struct th_fz_summary *s)
{
	th_doc_heading(d, 2, "fuzzing", "Fuzzing campaigns");
	th_doc_para(d);
	th_doc_prose(d, intro);
	th_doc_rawf(d, " %zu campaigns of %.0f s each, created ", s->ncampaigns, s->budget_seconds);
	th_doc_text(d, s->created);
	th_doc_raw(d, " UTC (schema ");
	th_doc_code(d, TH_FUZZ_SCHEMA);
	th_doc_raw(d, ").");
	th_doc_end_para(d);
	if (s->partial) {
		th_doc_banner(d);
		th_doc_strong(d, "Partial");
		th_doc_raw(d, ": the campaigns were interrupted (");
		th_doc_text(d, s->interrupted ? s->interrupted : "?");
		th_doc_raw(d, "); campaigns not listed did not run.");
		th_doc_end_para(d);
	}
	/* Each API family's campaigns (results/api.def), each generation. */
	for (int a = 0; a < TH_API_COUNT; a++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			variant_part(d, s, (enum th_api)a, (enum th_variant)v);
	return ferror(d->out) ? -1 : 0;
}

/* sections.c's row: the campaigns' section in d's format. */
int th_section_fuzz(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_fz_summary *s = summary_for(c->res);

	return s ? section(d, s) : 0;
}

int th_render_fuzz_markdown(FILE *out, const struct th_results *res)
{
	struct th_doc d = { .out = out, .ops = &th_doc_markdown };
	const struct th_fz_summary *s = summary_for(res);

	return s ? section(&d, s) : 0;
}

int th_render_fuzz_html(FILE *out, const struct th_results *res)
{
	struct th_doc d = { .out = out, .ops = &th_doc_html };
	const struct th_fz_summary *s = summary_for(res);

	return s ? section(&d, s) : 0;
}

/* SPDX-License-Identifier: MIT */
/* "Fuzzing campaigns" in report.md and report.html (render_fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include "render_fuzz.h"
#include "render_bench.h"
#include "html.h"
#include "render.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct th_fz_summary *summary_for(const struct th_results *res)
{
	/* A renderer's view of res (one platform's cells) shows the model's. */
	return th_report_origin(res)->fuzz;
}

const struct th_fz_summary *th_render_fuzz_summary(const struct th_results *res)
{
	return summary_for(res);
}

/* What each variant is, in the kernel's terms. */
static const char *const generation[TH_VARIANT_COUNT] = {
	[TH_VARIANT_LEGACY] = "4.14 setup_timer(): legacy",
	[TH_VARIANT_TRANSITIONAL] = "4.14-rc3 timer_setup() shim: transitional",
	[TH_VARIANT_MODERN] = "4.15 timer_setup(): modern",
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

static size_t variant_sigs(const struct th_fz_summary *s, enum th_variant v, struct sig_row *rows,
			   size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		if (c->variant != v)
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

/* ---- Markdown ---- */

/* Text from the summary: Markdown's escaping, every unsafe character visible. */
static void md_text(FILE *out, const char *s)
{
	th_report_md_text(out, s);
}

/* A chain in a fenced block, one step a line (its parts are " | "-separated). */
static void md_chain(FILE *out, const char *chain)
{
	char *lines = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&lines, &len);

	if (!m) {
		th_report_md_fence(out, chain);
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
		th_report_md_fence(out, chain);
		return;
	}
	th_report_md_fence(out, lines);
	free(lines);
}

static void md_first(FILE *out, const struct th_fz_first *f, long long executions)
{
	if (f->reached)
		fprintf(out, "%.3f s (%lld execs)", f->seconds, f->executions);
	else
		fprintf(out, "none in %lld execs", executions);
}

static void md_campaign_row(FILE *out, const struct th_fz_campaign *c)
{
	fputs("| ", out);
	th_report_md_code(out, c->config, true);
	fputs(" | ", out);
	md_text(out, c->toolchain);
	if (strcmp(c->engine, "libfuzzer")) {
		fputs(" (", out);
		md_text(out, c->engine);
		fputc(')', out);
	}
	fputs(" | ", out);
	if (strcmp(c->status, "ran")) {
		md_text(out, c->status);
		fputs(": ", out);
		md_text(out, c->reason);
		for (int i = 0; i < 8; i++)
			fputs(" |", out);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%lld | %.0f (%.0f per CPU s) | ", c->executions, c->exec_per_second,
		c->cpu_seconds > 0 ? (double)c->executions / c->cpu_seconds : 0.0);
	md_first(out, &c->first_hijack, c->executions);
	fputs(" | ", out);
	if (c->goal_reached.reached)
		fprintf(out, "%.2f s", c->goal_reached.seconds);
	else
		fputs("not reached", out);
	fprintf(out, " | %lld | %lld | %lld | %lld | %zu |\n", c->outcomes[TH_BLOCKED_CFI],
		c->outcomes[TH_CRASHED] + c->outcomes[TH_HANG], c->outcomes[TH_REDIRECTED],
		c->outcomes[TH_PRIVILEGED_WRITE], c->nfindings);
}

static void md_variant(FILE *out, const struct th_fz_summary *s, enum th_variant v)
{
	char verdict[4096];
	struct sig_row rows[128];
	size_t nrows = variant_sigs(s, v, rows, sizeof(rows) / sizeof(rows[0]));
	int any = 0;

	for (size_t i = 0; i < s->ncampaigns; i++)
		any |= s->campaigns[i].variant == v;
	if (!any)
		return;
	fprintf(out, "### %s\n\n", generation[v]);
	fputs("| config | toolchain | executions | exec/s | first hijack | write\\_cr4(0x407f0) | "
	      "BLOCKED\\_CFI | CRASHED+HANG | REDIRECTED | PRIVILEGED\\_WRITE | findings |\n"
	      "|---|---|---|---|---|---|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < s->ncampaigns; i++)
		if (s->campaigns[i].variant == v)
			md_campaign_row(out, &s->campaigns[i]);
	fputc('\n', out);
	if (th_fz_verdict(s, v, verdict, sizeof(verdict))) {
		fputs("**Verdict.** ", out);
		md_text(out, verdict);
		fputs("\n\n", out);
	}
	if (!nrows) {
		fputs("No finding: no run reached a privileged target or changed the privileged state.\n\n", out);
		return;
	}
	for (size_t r = 0; r < nrows; r++) {
		const struct th_fz_finding *f = rows[r].f;
		int first = 1;

		fprintf(out, "- **%s** ", th_outcome_name(f->outcome));
		th_report_md_code(out, f->chain_id, false);
		fputs(", found on", out);
		for (size_t i = 0; i < s->ncampaigns; i++) {
			const struct th_fz_campaign *c = &s->campaigns[i];

			if (c->variant != v)
				continue;
			for (size_t k = 0; k < c->nfindings; k++) {
				const struct th_fz_finding *g = &c->findings[k];

				if (strcmp(g->sig, f->sig))
					continue;
				fprintf(out, "%s ", first ? "" : ";");
				th_report_md_code(out, c->config, false);
				fputc('/', out);
				md_text(out, c->toolchain);
				fprintf(out, " after %.3f s (%lld execs)%s", g->first_seconds, g->first_executions,
					g->reproduced ? "" : ", replayed to this signature but not the one "
							     "the run reported");
				first = 0;
			}
		}
		fputs(". Reproducer ", out);
		th_report_md_code(out, f->reproducer, false);
		fputs(" (of ", out);
		th_report_md_code(out, rows[r].c->config, false);
		fputs("). Chain:\n\n", out);
		md_chain(out, f->chain);
	}
}

int th_render_fuzz_markdown(FILE *out, const struct th_results *res)
{
	const struct th_fz_summary *s = summary_for(res);

	if (!s)
		return 0;
	fputs("## Fuzzing campaigns\n\n", out);
	fputs(intro, out);
	fprintf(out, " %zu campaigns of %.0f s each, created ", s->ncampaigns, s->budget_seconds);
	md_text(out, s->created);
	fputs(" UTC (schema `" TH_FUZZ_SCHEMA "`).\n\n", out);
	if (s->partial) {
		fputs("> **Partial**: the campaigns were interrupted (", out);
		md_text(out, s->interrupted ? s->interrupted : "?");
		fputs("); campaigns not listed did not run.\n\n", out);
	}
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		md_variant(out, s, (enum th_variant)v);
	return ferror(out) ? -1 : 0;
}

/* ---- HTML ---- */

static void html_first(FILE *out, const struct th_fz_first *f, long long executions)
{
	if (f->reached)
		fprintf(out, "%.3f s (%lld execs)", f->seconds, f->executions);
	else
		fprintf(out, "none in %lld execs", executions);
}

static void html_variant(FILE *out, const struct th_fz_summary *s, enum th_variant v)
{
	char verdict[4096];
	struct sig_row rows[128];
	size_t nrows = variant_sigs(s, v, rows, sizeof(rows) / sizeof(rows[0]));
	int any = 0;

	for (size_t i = 0; i < s->ncampaigns; i++)
		any |= s->campaigns[i].variant == v;
	if (!any)
		return;
	fputs("<h3>", out);
	th_html_text(out, generation[v]);
	fputs("</h3>\n<div class=\"scroll\"><table>\n<tr><th scope=\"col\">config</th><th scope=\"col\">toolchain</th><th scope=\"col\">executions</th><th scope=\"col\">exec/s</th>"
	      "<th scope=\"col\">first hijack</th><th scope=\"col\">write_cr4(0x407f0)</th><th scope=\"col\">BLOCKED_CFI</th>"
	      "<th scope=\"col\">CRASHED+HANG</th><th scope=\"col\">REDIRECTED</th><th scope=\"col\">PRIVILEGED_WRITE</th><th scope=\"col\">findings</th></tr>\n",
	      out);
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		if (c->variant != v)
			continue;
		fputs("<tr><td><code>", out);
		th_html_text(out, c->config);
		fputs("</code></td><td>", out);
		th_html_text(out, c->toolchain);
		if (strcmp(c->engine, "libfuzzer")) {
			fputs(" (", out);
			th_html_text(out, c->engine);
			fputc(')', out);
		}
		fputs("</td>", out);
		if (strcmp(c->status, "ran")) {
			fputs("<td colspan=\"9\">", out);
			th_html_text(out, c->status);
			fputs(": ", out);
			th_html_text(out, c->reason);
			fputs("</td></tr>\n", out);
			continue;
		}
		fprintf(out, "<td>%lld</td><td>%.0f (%.0f per CPU s)</td><td>", c->executions, c->exec_per_second,
			c->cpu_seconds > 0 ? (double)c->executions / c->cpu_seconds : 0.0);
		html_first(out, &c->first_hijack, c->executions);
		fputs("</td><td>", out);
		if (c->goal_reached.reached)
			fprintf(out, "%.2f s", c->goal_reached.seconds);
		else
			fputs("not reached", out);
		fprintf(out, "</td><td>%lld</td><td>%lld</td><td>%lld</td><td>%lld</td><td>%zu</td></tr>\n",
			c->outcomes[TH_BLOCKED_CFI], c->outcomes[TH_CRASHED] + c->outcomes[TH_HANG],
			c->outcomes[TH_REDIRECTED], c->outcomes[TH_PRIVILEGED_WRITE], c->nfindings);
	}
	fputs("</table></div>\n", out);
	if (th_fz_verdict(s, v, verdict, sizeof(verdict))) {
		fputs("<p><strong>Verdict.</strong> ", out);
		th_html_text(out, verdict);
		fputs("</p>\n", out);
	}
	if (!nrows) {
		fputs("<p>No finding: no run hijacked a target or changed the privileged state.</p>\n", out);
		return;
	}
	fputs("<ul>\n", out);
	for (size_t r = 0; r < nrows; r++) {
		const struct th_fz_finding *f = rows[r].f;
		int first = 1;

		fprintf(out, "<li><strong>%s</strong> <code>", th_outcome_name(f->outcome));
		th_html_text(out, f->chain_id);
		fputs("</code>, found on", out);
		for (size_t i = 0; i < s->ncampaigns; i++) {
			const struct th_fz_campaign *c = &s->campaigns[i];

			for (size_t k = 0; c->variant == v && k < c->nfindings; k++) {
				if (strcmp(c->findings[k].sig, f->sig))
					continue;
				fprintf(out, "%s <code>", first ? "" : ";");
				th_html_text(out, c->config);
				fputs("</code>/", out);
				th_html_text(out, c->toolchain);
				fprintf(out, " after %.3f s (%lld execs)", c->findings[k].first_seconds,
					c->findings[k].first_executions);
				first = 0;
			}
		}
		fputs(". Reproducer <code>", out);
		th_html_text(out, f->reproducer);
		fputs("</code>.<pre>", out);
		for (const char *p = f->chain; *p; p++) {
			if (!strncmp(p, " | ", 3)) {
				fputs("\n  | ", out);
				p += 2;
			} else {
				char one[2] = { *p, 0 };

				th_html_text(out, one);
			}
		}
		fputs("</pre></li>\n", out);
	}
	fputs("</ul>\n", out);
}

int th_render_fuzz_html(FILE *out, const struct th_results *res)
{
	const struct th_fz_summary *s = summary_for(res);

	if (!s)
		return 0;
	fputs("<h2 id=\"fuzzing\">Fuzzing campaigns</h2>\n<p>", out);
	for (const char *p = intro; *p; p++) {
		if (*p == '`')
			continue;
		char one[2] = { *p, 0 };

		th_html_text(out, one);
	}
	fprintf(out, " %zu campaigns of %.0f s each, created ", s->ncampaigns, s->budget_seconds);
	th_html_text(out, s->created);
	fputs(" UTC.</p>\n", out);
	if (s->partial) {
		fputs("<p><strong>Partial</strong>: the campaigns were interrupted (", out);
		th_html_text(out, s->interrupted ? s->interrupted : "?");
		fputs(").</p>\n", out);
	}
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		html_variant(out, s, (enum th_variant)v);
	return ferror(out) ? -1 : 0;
}

/* ---- after a campaign ---- */

int th_render_fuzz_rerender(const char *results_path, const char *fuzz_path, char *err, size_t errlen)
{
	struct th_results *res = NULL;
	struct th_fz_summary *s = NULL;
	char md[4096], html[4096];
	const char *slash = strrchr(results_path, '/');
	int rc = -1;

	if (th_results_load(results_path, &res, err, errlen) ||
	    th_fz_summary_load(fuzz_path, &s, err, errlen))
		goto out;
	snprintf(md, sizeof(md), "%.*s%sreport.md", slash ? (int)(slash - results_path) : 0,
		 results_path, slash ? "/" : "");
	snprintf(html, sizeof(html), "%.*s%sreport.html", slash ? (int)(slash - results_path) : 0,
		 results_path, slash ? "/" : "");
	/* The bench's figures beside the results stay in the reports; one that
	 * no longer loads stops the re-render (the old reports kept), said. */
	if (th_results_load_bench_beside(res, results_path, err, errlen))
		goto out;
	th_results_set_fuzz(res, s);
	s = NULL;
	rc = th_render_markdown(res, md, err, errlen) || th_render_html(res, html, err, errlen) ? -1 : 0;
out:
	th_fz_summary_free(s);
	th_results_free(res);
	return rc;
}

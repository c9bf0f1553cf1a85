/* SPDX-License-Identifier: MIT */
/* JUnit XML: one testcase per cell, so CI dashboards list every cell. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One code point of XML 1.0 text: markup escaped; a CR as a reference, or
 * the parser would turn it into a LF. */
static void xml_text_cp(FILE *out, const char *b, size_t n)
{
	switch (n == 1 ? *b : 0) {
	case '&': fputs("&amp;", out); break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '"': fputs("&quot;", out); break;
	case '\'': fputs("&apos;", out); break;
	case '\r': fputs("&#13;", out); break;
	default: fwrite(b, 1, n, out);
	}
}

/* In an attribute value the parser turns TAB, LF and CR into spaces unless
 * they are references. */
static void xml_attr_cp(FILE *out, const char *b, size_t n)
{
	switch (n == 1 ? *b : 0) {
	case '\t': fputs("&#9;", out); break;
	case '\n': fputs("&#10;", out); break;
	default: xml_text_cp(out, b, n);
	}
}

/* Text content: every character XML 1.0 forbids (C0 controls, U+FFFE,
 * U+FFFF) and every other unsafe one as a visible escape. */
static void xml(FILE *out, const char *s)
{
	th_report_put_visible(out, s, xml_text_cp);
}

static void xml_attr(FILE *out, const char *s)
{
	th_report_put_visible(out, s, xml_attr_cp);
}

struct tally {
	size_t tests, failures, skipped;
};

/* The testcases of toolchain (NULL: all) among cells[0..n). */
static struct tally tally(const struct th_cell **cells, size_t n, const char *toolchain)
{
	struct tally t = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (toolchain && strcmp(cells[i]->toolchain, toolchain))
			continue;
		bool failed = th_report_shown_verdict(cells[i]) == TH_VERDICT_REGRESSION;

		t.tests++;
		t.failures += failed;
		/* A failed cell (a HARNESS_ERROR, a lost one) is not also skipped. */
		t.skipped += !failed && th_cell_observed(cells[i]) >= TH_UNSUPPORTED;
	}
	return t;
}

int th_render_junit_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	int oom;
	const struct th_toolchain **tcs = th_report_sorted_toolchains(res, &oom);
	const struct th_cell **cells = th_results_sorted_cells(res, err, errlen);
	struct tally all;

	if (oom || (res->ncells && !cells)) {
		free(tcs);
		free(cells);
		return th_report_errf(err, errlen, "out of memory");
	}
	all = tally(cells, res->ncells, NULL);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"timerharness\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		all.tests, all.failures, all.skipped);
	for (size_t t = 0; t < res->ntoolchains; t++) {
		struct tally ts = tally(cells, res->ncells, tcs[t]->name);

		fputs("  <testsuite name=\"", out);
		xml_attr(out, tcs[t]->name);
		fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" timestamp=\"",
			ts.tests, ts.failures, ts.skipped);
		xml_attr(out, res->created ? res->created : "");
		fputs("\">\n", out);
		for (size_t i = 0; i < res->ncells; i++) {
			const struct th_cell *c = cells[i];
			enum th_outcome o = th_cell_observed(c);
			const char *exp = th_outcome_name(c->expected);

			if (strcmp(c->toolchain, tcs[t]->name))
				continue;
			fputs("    <testcase classname=\"timerharness.", out);
			xml_attr(out, c->toolchain);
			fprintf(out, ".%s.", th_variant_name(c->variant));
			xml_attr(out, c->config);
			fputs("\" name=\"", out);
			xml_attr(out, c->attack);
			fputs("\">\n", out);
			if (th_report_shown_verdict(c) == TH_VERDICT_REGRESSION) {
				fprintf(out, "      <failure type=\"regression\" message=\"observed %s, "
					"expected %s\">", th_outcome_name(o), exp ? exp : "none");
				xml(out, c->evidence);
				fputs("</failure>\n", out);
			} else if (o >= TH_UNSUPPORTED) {
				const struct th_support *sp = th_report_cell_support(res, c);

				fprintf(out, "      <skipped message=\"%s", th_outcome_name(o));
				if (sp && *sp->reason) {
					fputs(": ", out);
					xml_attr(out, sp->reason);
				}
				fputs("\"/>\n", out);
			}
			fprintf(out, "      <system-out>outcome %s, expected %s, verdict %s, runs %u\n",
				th_outcome_name(o), exp ? exp : "none",
				th_verdict_name(th_report_shown_verdict(c)), c->runs);
			xml(out, c->evidence);
			fputs("</system-out>\n    </testcase>\n", out);
		}
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
	free(tcs);
	free(cells);
	if (ferror(out))
		return th_report_errf(err, errlen, "cannot write the JUnit report");
	return 0;
}

int th_render_junit(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_junit_to, res, err, errlen);
}

/* SPDX-License-Identifier: MIT */
/* JUnit XML: one testcase per cell, so CI dashboards list every cell. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"
#include "severity.h"

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

/*
 * The file is valid against both schemas CI tools validate JUnit with:
 * Jenkins xunit's junit-10.xsd and the Ant JUnit task's (windyroad
 * JUnit.xsd); copies in tests/data/junit. What both allow: a bare
 * <testsuites>; per suite name, package, id, a timestamp without a zone,
 * hostname, tests, failures, errors, skipped and time (at most three
 * decimals), then <properties>, the testcases, <system-out> and
 * <system-err>, in that order; per testcase name, classname and time, and
 * at most one of <skipped>, <error>, <failure>, nothing else (so a cell's
 * evidence goes into the suite's <system-out>, one line per cell).
 */
struct tally {
	size_t tests, failures, errors, skipped;
	double seconds;
};

/* Error or failure: the severity table's (report/severity.def). */
static bool is_error(const struct th_cell *c)
{
	const struct th_severity *s = th_severity_of(c);

	return s && s->junit == TH_JU_error;
}

static bool is_failure(const struct th_cell *c)
{
	const struct th_severity *s = th_severity_of(c);

	return s && s->junit == TH_JU_failure;
}

static bool is_skipped(const struct th_cell *c)
{
	return !is_failure(c) && !is_error(c) && th_cell_observed(c) >= TH_UNSUPPORTED;
}

/* The testcases of toolchain among cells[0..n). */
static struct tally tally(const struct th_cell **cells, size_t n, const char *toolchain)
{
	struct tally t = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (strcmp(cells[i]->toolchain, toolchain))
			continue;
		t.tests++;
		t.errors += is_error(cells[i]);
		t.failures += is_failure(cells[i]);
		t.skipped += is_skipped(cells[i]);
		t.seconds += cells[i]->seconds > 0 ? cells[i]->seconds : 0;
	}
	return t;
}

static void property(FILE *out, const char *name, const char *value)
{
	fprintf(out, "      <property name=\"%s\" value=\"", name);
	xml_attr(out, value);
	fputs("\"/>\n", out);
}

/* "ATTACK api/variant/config: OUTCOME (expected X, verdict v, runs n): evidence" */
static void cell_summary(FILE *out, const struct th_cell *c, bool attr)
{
	char buf[200];
	const char *exp = th_cell_expected_text(c, buf, sizeof(buf));
	char head[512];

	snprintf(head, sizeof(head), "%s %s/%s/%s: %s (expected %s, verdict %s, runs %u",
		 c->attack, th_api_name(c->api), th_variant_name(c->variant), c->config,
		 th_outcome_name(th_cell_observed(c)), exp ? exp : "none",
		 th_verdict_name(th_results_shown_verdict(c)), c->runs);
	(attr ? xml_attr : xml)(out, head);
	if (c->expected_line)
		fprintf(out, ", declared on line %u", c->expected_line);
	fputs("): ", out);
	(attr ? xml_attr : xml)(out, *c->evidence ? c->evidence : "(no evidence recorded)");
}

static void testcase(FILE *out, const struct th_results *res, const struct th_cell *c)
{
	enum th_outcome o = th_cell_observed(c);
	char buf[200];
	const char *exp = th_cell_expected_text(c, buf, sizeof(buf));

	fputs("    <testcase classname=\"timerharness.", out);
	/* A real kernel's cells name their platform; the model's as ever. */
	if (!th_platform_is_model(c->platform)) {
		xml_attr(out, c->platform);
		fputc('.', out);
	}
	xml_attr(out, c->toolchain);
	fprintf(out, ".%s.%s.", th_api_name(c->api), th_variant_name(c->variant));
	xml_attr(out, c->config);
	fputs("\" name=\"", out);
	xml_attr(out, c->attack);
	fprintf(out, "\" time=\"%.3f\"", c->seconds > 0 ? c->seconds : 0.0);
	if (is_skipped(c)) {
		const struct th_support *sp = th_report_cell_support(res, c);

		fprintf(out, ">\n      <skipped message=\"%s", th_outcome_name(o));
		if (o == TH_UNSUPPORTED && sp && *sp->reason) {
			fputs(": ", out);
			xml_attr(out, sp->reason);
		} else if (*c->evidence) {
			fputs(": ", out);
			xml_attr(out, c->evidence);
		}
		fputs("\"/>\n    </testcase>\n", out);
		return;
	}
	if (!is_error(c) && !is_failure(c)) {
		fputs("/>\n", out);
		return;
	}
	/* Ant's "error": the test could not be carried out (the harness); a
	 * "failure": the cell regressed. */
	fprintf(out, ">\n      <%s type=\"%s\" message=\"observed %s, expected %s", is_error(c) ? "error" : "failure",
		is_error(c) ? "HARNESS_ERROR" : "regression", th_outcome_name(o), exp ? exp : "none");
	if (o == TH_UNSUPPORTED || o == TH_NOT_APPLICABLE) {
		const struct th_support *sp = th_report_cell_support(res, c);

		fprintf(out, " (coverage lost: %s did not run)", th_outcome_name(o));
		if (sp && *sp->reason) {
			fputs(": ", out);
			xml_attr(out, sp->reason);
		}
	}
	/* Its rank in the severity table: GitHub's and GitLab's words. */
	{
		const struct th_severity *s = th_severity_of(c);
		const char *gh = th_severity_github_rank(s->security_severity);

		fprintf(out, "; severity: %s%s%s (GitLab %s)", s->rule, gh ? ", " : ", not a security finding",
			gh ? gh : "", th_severity_gitlab_name(s->gitlab));
	}
	fputs("\">", out);
	cell_summary(out, c, false);
	if (*c->rerun) {
		/* As run from the repository's root. */
		char *rerun = th_report_source_relative_words(c->rerun);

		fputs("\nrerun: ", out);
		xml(out, rerun ? rerun : c->rerun);
		free(rerun);
	}
	fprintf(out, "</%s>\n    </testcase>\n", is_error(c) ? "error" : "failure");
}

/* The suites of one platform's view (render_common.c): one per toolchain
 * its cells name (the model: every toolchain), numbered from *id on. */
static int suites(FILE *out, const struct th_results *res, const char *platform, size_t *id,
		  const char *stamp, char *err, size_t errlen)
{
	int oom;
	const struct th_toolchain **tcs = th_results_sorted_toolchains(res, &oom);
	const struct th_cell **cells = th_results_sorted_cells(res, err, errlen);
	const struct th_platform *pf = platform ? th_results_find_platform(res, platform) : NULL;

	if (oom || (res->ncells && !cells)) {
		free(tcs);
		free(cells);
		return th_results_errf(err, errlen, "out of memory");
	}
	for (size_t t = 0; t < res->ntoolchains; t++) {
		struct tally ts = tally(cells, res->ncells, tcs[t]->name);

		fputs("  <testsuite name=\"", out);
		if (platform) {
			xml_attr(out, platform);
			fputc('/', out);
		}
		xml_attr(out, tcs[t]->name);
		fprintf(out, "\" package=\"timerharness\" id=\"%zu\" timestamp=\"", (*id)++);
		xml_attr(out, stamp);
		fputs("\" hostname=\"", out);
		xml_attr(out, res->host.hostname && *res->host.hostname ? res->host.hostname : "localhost");
		fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
			"time=\"%.3f\">\n", ts.tests, ts.failures, ts.errors, ts.skipped, ts.seconds);
		fputs("    <properties>\n", out);
		property(out, "toolchain.version", tcs[t]->version);
		property(out, "schema", TH_RESULTS_SCHEMA);
		property(out, "timerharness.version", res->version ? res->version : "");
		property(out, "partial", res->partial ? "true" : "false");
		if (res->partial)
			property(out, "interrupted", res->interrupted ? res->interrupted : "");
		if (res->expect_path) {
			property(out, "expectations", th_report_source_relative(res->expect_path));
			property(out, "expectations.sha256", res->expect_sha256);
		}
		if (pf) {
			property(out, "platform", pf->name);
			property(out, "platform.source", pf->source);
			property(out, "platform.compiler", pf->compiler);
			property(out, "platform.qemu", pf->qemu);
			property(out, "platform.cpu", pf->cpu);
		}
		fputs("    </properties>\n", out);
		for (size_t i = 0; i < res->ncells; i++)
			if (!strcmp(cells[i]->toolchain, tcs[t]->name))
				testcase(out, res, cells[i]);
		/* Every cell's outcome and evidence, one line each: what a
		 * testcase element cannot carry in Ant's schema. */
		fputs("    <system-out>", out);
		for (size_t i = 0; i < res->ncells; i++) {
			if (strcmp(cells[i]->toolchain, tcs[t]->name))
				continue;
			cell_summary(out, cells[i], false);
			fputc('\n', out);
		}
		fputs("</system-out>\n    <system-err></system-err>\n  </testsuite>\n", out);
	}
	free(tcs);
	free(cells);
	return 0;
}

int th_render_junit_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	struct th_results view;
	char stamp[20];
	size_t id = 0, np;
	int oom, rc;
	const char **names = th_results_kernel_platforms(res, &np, &oom);

	if (oom)
		return th_results_errf(err, errlen, "out of memory");
	/* Ant's timestamp has no zone: created is UTC, without its Z (or
	 * fraction). */
	snprintf(stamp, sizeof(stamp), "%.19s", res->created ? res->created : "1970-01-01T00:00:00");
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<!-- timerharness: a testsuite per toolchain, a testcase per cell (failure: it\n"
	      "     regressed; error: the harness could not run it). Timestamps are UTC. -->\n"
	      "<testsuites>\n", out);
	/* The model's suites as ever, then a suite per real kernel and
	 * toolchain ("linux-6.1.192/clang-22"). */
	for (size_t p = 0; p <= np; p++) {
		if (th_results_view(res, p ? names[p - 1] : TH_PLATFORM_MODEL, &view)) {
			free(names);
			return th_results_errf(err, errlen, "out of memory");
		}
		rc = suites(out, &view, p ? names[p - 1] : NULL, &id, stamp, err, errlen);
		th_results_view_free(&view);
		if (rc) {
			free(names);
			return -1;
		}
	}
	free(names);
	fputs("</testsuites>\n", out);
	rc = ferror(out) ? th_results_errf(err, errlen, "cannot write the JUnit report") : 0;
	return rc;
}

int th_render_junit(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_junit_to, res, err, errlen);
}

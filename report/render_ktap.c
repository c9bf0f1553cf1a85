/* SPDX-License-Identifier: MIT */
/*
 * KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst), so kernel
 * test tooling reads the matrix like a KUnit run: a test per toolchain, a
 * subtest per cell named <attack>.<api>.<variant>.<config>. ok: pass, improvement,
 * new; not ok: regression; ok # SKIP: UNSUPPORTED, NOT_APPLICABLE. Each
 * result line follows a diagnostic line with what the cell observed.
 *
 * Subtests are indented by four spaces, as KUnit prints them
 * (KUNIT_SUBTEST_INDENT); ktap.rst's own examples use two, and its parsers
 * (kunit_tool) take either.
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define INDENT "    "

/* A test name: one word without '#', which would start a directive. */
static void name_part(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c == '#' || c <= ' ' || c == 0x7f ? '_' : c, out);
	}
}

/* One code point of free text: a line break as "\\n" or "\\r", so that
 * nothing a cell printed can start a KTAP line of its own. */
static void line_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '\n')
		fputs("\\n", out);
	else if (n == 1 && *b == '\r')
		fputs("\\r", out);
	else
		fwrite(b, 1, n, out);
}

/* Free text on one line, every unsafe character visible (report_internal.h). */
static void one_line(FILE *out, const char *s)
{
	th_report_put_visible(out, s, line_cp);
}

/* Why a cell that could not run was skipped: the config's probe, else the
 * cell's own evidence. */
static const char *skip_reason(const struct th_results *res, const struct th_cell *c)
{
	const struct th_support *s = th_report_cell_support(res, c);

	if (th_cell_observed(c) == TH_UNSUPPORTED && s && !s->supported && *s->reason)
		return s->reason;
	return c->evidence;
}

static void diagnostic(FILE *out, const struct th_cell *c)
{
	char buf[200];
	const char *exp = th_cell_expected_text(c, buf, sizeof(buf));

	fprintf(out, INDENT "# outcome=%s", th_outcome_name(th_cell_observed(c)));
	if (th_report_kinds(c) > 1) {
		fputs(" counts=", out);
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			fprintf(out, "%s%s:%u", first ? "" : ",", th_outcome_name((enum th_outcome)i),
				c->counts[i]);
			first = 0;
		}
	}
	fprintf(out, " runs=%u expected=%s verdict=%s evidence=", c->runs, exp ? exp : "none",
		th_verdict_name(th_results_shown_verdict(c)));
	one_line(out, c->evidence);
	fputc('\n', out);
}

/* A test's name: the toolchain, "PLATFORM/TOOLCHAIN" for a real kernel's. */
static void test_name(FILE *out, const char *platform, const struct th_toolchain *tc)
{
	if (platform) {
		name_part(out, platform);
		fputc('/', out);
	}
	name_part(out, tc->name);
}

static void toolchain(FILE *out, const struct th_results *res, const struct th_cell **cells,
		      const struct th_toolchain *tc, size_t number, const char *platform)
{
	size_t n = 0, k = 0, failed = 0, skipped = 0;

	for (size_t i = 0; i < res->ncells; i++)
		n += !strcmp(cells[i]->toolchain, tc->name);
	fputs(INDENT "KTAP version 1\n" INDENT "# Subtest: ", out);
	test_name(out, platform, tc);
	fprintf(out, "\n" INDENT "1..%zu\n", n);
	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = cells[i];
		enum th_outcome o = th_cell_observed(c);
		bool regressed = th_results_shown_verdict(c) == TH_VERDICT_REGRESSION;

		if (strcmp(c->toolchain, tc->name))
			continue;
		diagnostic(out, c);
		fprintf(out, INDENT "%s %zu ", regressed ? "not ok" : "ok", ++k);
		name_part(out, c->attack);
		fprintf(out, ".%s.%s.", th_api_name(c->api), th_variant_name(c->variant));
		name_part(out, c->config);
		/* A lost cell (UNSUPPORTED where the baseline ran it) is a failure,
		 * not a skip. */
		if (o >= TH_UNSUPPORTED && !regressed) {
			const char *why = skip_reason(res, c);

			fprintf(out, " # SKIP %s: ", th_outcome_name(o));
			one_line(out, *why ? why : "no reason recorded");
			skipped++;
		}
		failed += regressed;
		fputc('\n', out);
	}
	fputs("# ", out);
	if (platform) {
		one_line(out, platform);
		fputc(' ', out);
	}
	one_line(out, tc->name);
	fputs(" (", out);
	one_line(out, *tc->version ? tc->version : "version unknown");
	fprintf(out, "): %zu cells: %zu ok, %zu not ok, %zu skipped\n", n, n - failed - skipped,
		failed, skipped);
	fprintf(out, "%s %zu ", failed ? "not ok" : "ok", number);
	test_name(out, platform, tc);
	if (!n)
		fputs(" # SKIP no cells in the results", out);
	else if (!failed && skipped == n)
		fputs(" # SKIP every cell is UNSUPPORTED or NOT_APPLICABLE", out);
	fputc('\n', out);
}

/* The tests of one platform's view: one per toolchain it names. */
static int platform_tests(FILE *out, const struct th_results *res, const char *platform,
			  size_t *number, char *err, size_t errlen)
{
	int oom;
	const struct th_toolchain **tcs = th_results_sorted_toolchains(res, &oom);
	const struct th_cell **cells = oom ? NULL : th_results_sorted_cells(res, err, errlen);

	if (oom || (res->ncells && !cells)) {
		free(tcs);
		free(cells);
		return th_results_errf(err, errlen, "out of memory");
	}
	for (size_t t = 0; t < res->ntoolchains; t++)
		toolchain(out, res, cells, tcs[t], ++*number, platform);
	free(tcs);
	free(cells);
	return 0;
}

int th_render_ktap_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	struct th_results view;
	size_t np, ntests = 0, number = 0;
	int oom, rc = 0;
	const char **names = th_results_kernel_platforms(res, &np, &oom);

	if (oom)
		return th_results_errf(err, errlen, "out of memory");
	/* The model's toolchains as ever, then each real kernel's
	 * ("linux-6.1.192/clang-22"): counted first, for the plan line. */
	for (size_t p = 0; p <= np; p++) {
		if (th_results_view(res, p ? names[p - 1] : TH_PLATFORM_MODEL, &view)) {
			free(names);
			return th_results_errf(err, errlen, "out of memory");
		}
		ntests += view.ntoolchains;
		th_results_view_free(&view);
	}
	fputs("KTAP version 1\n# timerharness ", out);
	one_line(out, res->version ? res->version : "?");
	fputs(" results of ", out);
	one_line(out, res->created ? res->created : "?");
	fputs(" on ", out);
	one_line(out, res->host.hostname ? res->host.hostname : "?");
	fputc('\n', out);
	if (res->partial) {
		fputs("# partial run (interrupted: ", out);
		one_line(out, res->interrupted ? res->interrupted : "?");
		fputs("): cells not listed were not run\n", out);
	}
	fprintf(out, "1..%zu\n", ntests);
	for (size_t p = 0; p <= np && !rc; p++) {
		if (th_results_view(res, p ? names[p - 1] : TH_PLATFORM_MODEL, &view)) {
			rc = th_results_errf(err, errlen, "out of memory");
			break;
		}
		rc = platform_tests(out, &view, p ? names[p - 1] : NULL, &number, err, errlen);
		th_results_view_free(&view);
	}
	free(names);
	if (rc)
		return -1;
	if (ferror(out))
		return th_results_errf(err, errlen, "cannot write the KTAP report");
	return 0;
}

int th_render_ktap(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_ktap_to, res, err, errlen);
}

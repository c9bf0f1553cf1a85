/* SPDX-License-Identifier: MIT */
/* Every renderer by format name, for `timerharness report`. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int matrix_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	if (th_render_matrix(out, res, 0))
		return th_results_errf(err, errlen, "cannot write the matrix (out of memory or write error)");
	return 0;
}

static int verdict_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	if (th_render_verdict(out, res, 0))
		return th_results_errf(err, errlen, "cannot write the verdict (out of memory or write error)");
	return 0;
}

int th_render_color_ok(int fd)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(fd) && !(nc && *nc);
}

/* Every format, once: its name, its renderer and what `report --help` says
 * of it (continuation lines start at the description's column, 21: a line
 * of it at most 59 characters, so that the help keeps 80 columns). A format is
 * added here, in render.h's enum and in its own file; `report` and the
 * goldens (tests/golden.py, which asks `report --list-formats`) follow. */
static const struct {
	const char *name;
	th_report_render_fn *to;
	const char *help;
} formats[TH_RENDER_FORMAT_COUNT] = {
	[TH_RENDER_MARKDOWN] = { "md", th_render_markdown_to,
		"Markdown: run facts, configs, counts, headline findings,\n"
		"matrix" },
	[TH_RENDER_HTML] = { "html", th_render_html_to,
		"one self-contained page; the matrix as a colour-coded grid" },
	[TH_RENDER_JUNIT] = { "junit", th_render_junit_to,
		"JUnit XML: a testcase per cell, failure on regression" },
	[TH_RENDER_SARIF] = { "sarif", th_render_sarif_to,
		"SARIF 2.1.0 for code scanning: a result per regressed cell\n"
		"(error) or new cell of a severe outcome (warning); none\n"
		"when the gate passes" },
	[TH_RENDER_KTAP] = { "ktap", th_render_ktap_to,
		"KTAP version 1: a test per toolchain, a subtest per cell" },
	[TH_RENDER_MATRIX] = { "matrix", matrix_to,
		"the terminal matrix (coloured on a terminal unless\n"
		"NO_COLOR is set)" },
	[TH_RENDER_VERDICT] = { "verdict", verdict_to,
		"the verdict screen matrix ends with: does CFI stop the\n"
		"CVE-2017-7308 overwrite on each API generation, totals" },
	[TH_RENDER_CODEQUALITY] = { "codequality", th_render_codequality_to,
		"GitLab's Code Quality report: sarif's findings, for a\n"
		"merge request's widget; [] when the gate passes" },
};

void th_render_format_usage(FILE *f, const char *first, const char *indent)
{
	for (int i = 0; i < TH_RENDER_FORMAT_COUNT; i++) {
		const char *h = formats[i].help;
		int w = (int)strlen(formats[i].name);

		/* The name in a column of 7, or 1 space past a longer one. */
		fprintf(f, "%s%s%*s", i ? indent : first, formats[i].name, w < 8 ? 8 - w : 2, "");
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%s        ", (int)(nl - h), h, indent);
		fprintf(f, "%s\n", h);
	}
}

const char *th_render_format_name(enum th_render_format f)
{
	return f >= 0 && f < TH_RENDER_FORMAT_COUNT ? formats[f].name : NULL;
}

enum th_render_format th_render_format_parse(const char *s)
{
	for (int i = 0; s && i < TH_RENDER_FORMAT_COUNT; i++)
		if (!strcmp(s, formats[i].name))
			return (enum th_render_format)i;
	return TH_RENDER_FORMAT_INVALID;
}

int th_render_format_to(FILE *out, enum th_render_format f, const struct th_results *res,
			int use_color, char *err, size_t errlen)
{
	if (!th_render_format_name(f))
		return th_results_errf(err, errlen, "unknown report format %d", (int)f);
	if (f == TH_RENDER_MATRIX) {
		if (th_render_matrix(out, res, use_color))
			return th_results_errf(err, errlen, "cannot write the matrix");
		return 0;
	}
	if (f == TH_RENDER_VERDICT) {
		if (th_render_verdict(out, res, use_color))
			return th_results_errf(err, errlen, "cannot write the verdict");
		return 0;
	}
	return formats[f].to(out, res, err, errlen);
}

int th_render_format_file(const char *path, enum th_render_format f,
			  const struct th_results *res, char *err, size_t errlen)
{
	if (!th_render_format_name(f))
		return th_results_errf(err, errlen, "unknown report format %d", (int)f);
	return th_report_render_file(path, formats[f].to, res, err, errlen);
}

int th_render_out_ok(const char *path, char *err, size_t errlen)
{
	struct stat st;
	bool exists;

	return th_results_check_target(path, &st, &exists, err, errlen);
}

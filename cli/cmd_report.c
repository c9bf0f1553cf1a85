/* SPDX-License-Identifier: MIT */
/* `timerharness report`: options, then one renderer of report/. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "render.h"
#include "render_bench.h"
#include "render_fuzz.h"
#include "results.h"

#define DEFAULT_RESULTS "out/results.json"

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness report [--results FILE] --format FORMAT [--out FILE|-]\n"
		"\n"
		"Renders a results file (schema " TH_RESULTS_SCHEMA ") in one format; md and\n"
		"html also show fuzz.json, bench.json and bench-configs-*.json found beside it.\n"
		"  --results  the results to render (default " DEFAULT_RESULTS ")\n");
	th_render_format_usage(f, "  --format   ", "             ");
	fprintf(f,
		"  --list-formats  the format names, one a line, and nothing else\n"
		"  --out      the file to write, replaced atomically and keeping its mode; only a\n"
		"             regular file is replaced (never a symbolic link, a device node, a\n"
		"             FIFO or a directory); - (default) is standard output\n"
		"Exit: 0 written; 1 could not write (the file is left as it was); 2 bad input\n"
		"(unreadable, corrupt or invalid results or files beside them, unknown format\n"
		"or option, an --out that is not a regular file; nothing written).\n");
}

static void unknown_format(const char *f)
{
	fprintf(stderr, "timerharness report: unknown format '%s' (formats:", f);
	for (int i = 0; i < TH_RENDER_FORMAT_COUNT; i++)
		fprintf(stderr, "%s %s", i ? "," : "", th_render_format_name((enum th_render_format)i));
	fputs(")\n", stderr);
}


int th_cli_report(int argc, char **argv)
{
	const char *results = DEFAULT_RESULTS, *format = NULL, *out = "-", *v;
	struct th_results *res;
	enum th_render_format f;
	char err[2048] = "";
	int bad = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			report_usage(stdout);
			return 0;
		} else if (th_optname(argv[i], "--list-formats", false)) {
			for (int k = 0; k < TH_RENDER_FORMAT_COUNT; k++)
				puts(th_render_format_name((enum th_render_format)k));
			return fflush(stdout) ? 1 : 0;
		} else if ((v = th_optval(argc, argv, &i, "report", "--results", &bad))) {
			results = v;
		} else if ((v = th_optval(argc, argv, &i, "report", "--format", &bad))) {
			format = v;
		} else if ((v = th_optval(argc, argv, &i, "report", "--out", &bad))) {
			out = v;
		} else if (bad) {
			return 2;
		} else {
			fprintf(stderr, "timerharness report: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	if (!format) {
		fputs("timerharness report: --format is required (", stderr);
		for (int k = 0; k < TH_RENDER_FORMAT_COUNT; k++)
			fprintf(stderr, "%s%s", k ? (k + 1 < TH_RENDER_FORMAT_COUNT ? ", " : " or ") : "",
				th_render_format_name((enum th_render_format)k));
		fputs("; see --help)\n", stderr);
		return 2;
	}
	f = th_render_format_parse(format);
	if (f == TH_RENDER_FORMAT_INVALID) {
		unknown_format(format);
		return 2;
	}
	if (!*results || !*out) {
		fprintf(stderr, "timerharness report: %s must not be empty\n",
			*results ? "--out" : "--results");
		return 2;
	}
	/* Never read what would block or never end (a FIFO, /dev/zero). */
	if (th_optpath(stderr, "report", "--results", results, TH_OPT_FILE))
		return 2;
	if (strcmp(out, "-")) {
		/* Refused before anything is rendered; checked again when replaced. */
		if (th_render_out_ok(out, err, sizeof(err))) {
			fprintf(stderr, "timerharness report: --out %s (use --out - for standard output)\n",
				err);
			return 2;
		}
		/* A size limit is a write error (the file is left as it was), not
		 * a death that leaves a temporary file behind. */
		signal(SIGXFSZ, SIG_IGN);
	}
	if (th_results_load(results, &res, err, sizeof(err))) {
		fprintf(stderr, "timerharness report: %s\n", err);
		if (access(results, F_OK))
			fprintf(stderr, "timerharness report: run 'timerharness matrix' to make it, or "
				"name a results file with --results\n");
		return 2;
	}
	/* The campaigns beside the results, if any, join report.md and .html. */
	if (th_results_load_fuzz_beside(res, results, err, sizeof(err)) ||
	    /* So do the bench's figures beside them (bench.json, bench-configs-*.json). */
	    th_results_load_bench_beside(res, results, err, sizeof(err))) {
		fprintf(stderr, "timerharness report: %s\n", err);
		th_results_free(res);
		return 2;
	}
	if (!strcmp(out, "-")) {
		rc = th_render_format_to(stdout, f, res, th_render_color_ok(STDOUT_FILENO), err, sizeof(err));
		if (!rc && fflush(stdout)) {
			snprintf(err, sizeof(err), "standard output: %s", strerror(errno));
			rc = -1;
		}
	} else {
		rc = th_render_format_file(out, f, res, err, sizeof(err));
	}
	/* Code scanning keeps 5,000 results of a run: said when the log is cut. */
	if (!rc && f == TH_RENDER_SARIF && th_render_sarif_cap_note(res, err, sizeof(err)) > 0)
		fprintf(stderr, "timerharness report: %s\n", err);
	th_results_free(res);
	if (rc) {
		fprintf(stderr, "timerharness report: %s\n", err);
		return 1;
	}
	return 0;
}

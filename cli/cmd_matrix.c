/* SPDX-License-Identifier: MIT */
/*
 * `timerharness matrix`: options; the out folder locked; loops/matrix.c
 * runs the cells into a results model; report/ writes its set and shows
 * its verdict.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "lib/clock.h"
#include "lib/fs.h"
#include "matrix.h"
#include "paths.h"
#include "render.h"
#include "results.h"

static void matrix_usage(FILE *f, const struct th_paths *p)
{
	fprintf(f,
		"usage: timerharness matrix [--toolchain T,..] [--config C,..] [--variant V,..]\n"
		"                           [--attack GLOB,..] [--shard I/N] [--jobs N]\n"
		"                           [--timeout S] [--lockup-ms MS] [--out DIR]\n"
		"                           [--replace] [--build-root DIR] [--expect FILE]\n"
		"                           [--selftests] [--no-fork-server] [--grid] [--quiet]\n"
		"\n"
		"Runs every cell (attack x variant x config x toolchain) in its own process and\n"
		"writes, as one set, DIR/results.json (schema " TH_RESULTS_SCHEMA "),\n"
		"DIR/report.md, DIR/report.html, DIR/junit.xml and DIR/report.sarif: all of them\n"
		"from this run, or none replaced. One run at a time per DIR (a second is\n"
		"refused).\n"
		"Then prints the verdict screen (see: timerharness report --format verdict).\n"
		"  --toolchain   toolchains to run, comma-separated (default: every one built\n"
		"                under --build-root)\n"
		"  --config      hardening configs (cfi/configs.tsv; default: all)\n"
		"  --variant     legacy,transitional,modern (default: all)\n"
		"  --attack      shell globs on attack IDs, comma-separated, case-insensitive,\n"
		"                e.g. 'MEMCPY_INTRA_*,UAF_*' (attack IDs: an attack binary's\n"
		"                --list)\n"
		"  --shard I/N   run shard I of N (1 <= I <= N <= %u) of the selected cells; a\n"
		"                cell's shard depends on the cell alone, so N machines split the\n"
		"                plan the same way; join their results with timerharness merge\n"
		"                (--toolchain, --config, --variant, --attack and --shard make the\n"
		"                results a slice: check judges one only with --allow-slice)\n"
		"  --jobs        cells run at once, 1 to 32 (default: 8 a CPU, at most 32: a\n"
		"                run mostly waits on the runner at its ptrace stops)\n"
		"  --timeout     seconds, 1 to 3600, before a run is killed and counted HANG\n"
		"                (default 10)\n"
		"  --lockup-ms   after MS of wall time, and every MS again, a running cell is\n"
		"                stopped and, when it spins in the model's v4.14\n"
		"                lock_timer_base() (a turn of its loop, single-stepped, writes\n"
		"                nothing and leaves every register as it was), killed at once:\n"
		"                HANG, a soft lockup; else it resumes untouched (0 to 3600000,\n"
		"                0: never; default %u)\n"
		"  --out         output directory (default " TH_MATRIX_OUT "; a slice or a shard goes to\n"
		"                " TH_MATRIX_SLICE_OUT " by default, so it never replaces a full run's results)\n"
		"  --replace     let a slice or a shard replace a full run's results in --out\n"
		"                (refused otherwise, exit 2)\n"
		"  --build-root  where the presets were built, or one build dir\n"
		"                (default %s)\n"
		"  --expect      declared expectations; its path and SHA-256 are recorded in\n"
		"                results.json\n"
		"                (default %s)\n"
		"  --selftests   also run the runner's self-test cells SELFTEST_HANG,\n"
		"                SELFTEST_SEGV\n"
		"  --no-fork-server\n"
		"                an exec of the attack binary per run, as before fork servers:\n"
		"                by default each binary is exec'd once, in its --fork-server\n"
		"                mode, and forks each run (its own process all the same,\n"
		"                traced, limited and judged as an exec'd one; ASLR and the\n"
		"                sanitizers' exitcode are then per server, not per run)\n"
		"  --grid        also print the terminal matrix (one symbol per cell; wide)\n"
		"  --quiet       no verdict screen: the summary lines only\n"
		"Progress goes to standard error: one line rewritten in place on a terminal, a\n"
		"line per quarter elsewhere. Colour only on a terminal, and never when NO_COLOR\n"
		"is set (no-color.org).\n"
		"Exit: 0 every cell ran and was observed (check judges the outcomes);\n"
		"      1 the files could not be written (the previous set is kept);\n"
		"      2 bad input: an option, the build, the expectations, an empty selection,\n"
		"        DIR in use by another run, or a slice that would replace a full run's\n"
		"        results (nothing run, nothing written);\n"
		"      3 written, but some cells are HARNESS_ERROR: a binary or probe missing or\n"
		"        unrunnable, a child that could not start (check exits 3 on them);\n"
		"      4 written and every cell observed, but standard output could not be\n"
		"        written (the verdict is lost; the files are whole);\n"
		"      130 interrupted (partial results written).\n",
		TH_SHARD_MAX, TH_MATRIX_LOCKUP_MS, p->build_root, p->expect);
}

/* The set written, the verdict shown; the lines the verdict leaves out. */
static int show(const struct th_matrix_opts *o, struct th_matrix *m, bool grid, bool use_color)
{
	struct th_results *res = th_matrix_results(m);
	const char *dir = th_matrix_out_dir(m);
	struct th_matrix_stats st;
	char warn[2048], err[2048];
	int wrc;

	th_matrix_stats(m, &st);
	/* All of the run's files, or none: the previous set stays whole. The
	 * campaigns of `timerharness fuzz` and the bench's figures beside the
	 * results are shown with them (the reports' sections, the verdict's
	 * lines), as `report` and `check` take them; one that does not load is
	 * left out, said. */
	wrc = th_render_write_set(res, dir, warn, sizeof(warn), err, sizeof(err));
	for (char *p = warn, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		fprintf(stderr, "timerharness matrix: %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
	}
	if (wrc) {
		fprintf(stderr, "timerharness matrix: %s; the previous results in %s are kept\n", err, dir);
		return TH_MATRIX_NOT_WRITTEN;
	}
	if (grid)
		th_render_matrix(stdout, res, use_color);
	if (!o->quiet)
		th_render_verdict(stdout, res, use_color);
	/* The verdict's first line says what ran and how long. */
	if (o->quiet || st.interrupted != TH_MATRIX_RAN_ALL)
		printf("matrix: %zu cells, %zu runs in %.1f s with %d jobs%s\n", st.ncells, st.nruns,
		       th_now_s() - st.started, st.jobs,
		       st.interrupted != TH_MATRIX_RAN_ALL ? " (INTERRUPTED: partial results)" : "");
	if (st.harness)
		printf("matrix: %ld cell%s could not be run or observed (HARNESS_ERROR)\n", st.harness,
		       st.harness == 1 ? "" : "s");
	if (st.slice && !o->out_dir)
		printf("matrix: a %s of the plan, written apart from a full run's results\n",
		       o->shard_count ? "shard" : "slice");
	th_render_outputs_line(stdout, dir);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "timerharness matrix: standard output: %s (the files in %s are written)\n",
			strerror(errno), dir);
		if (st.interrupted == TH_MATRIX_RAN_ALL && !st.harness)
			return TH_MATRIX_STDOUT_LOST;
	}
	if (st.interrupted == TH_MATRIX_STOPPED_BY_HARNESS || st.harness)
		return TH_MATRIX_HARNESS_ERROR;
	return st.interrupted ? TH_MATRIX_INTERRUPTED : TH_MATRIX_OK;
}

/*
 * Plan; lock the out folder (one writer of a set at a time: the lock is
 * held from before the run reads the results it replaces until its set is
 * written, and released however the process ends); check that every file
 * of the set can be replaced, now and not after the run; run; write and
 * show.
 */
static int run(const struct th_matrix_opts *o, bool grid, bool use_color)
{
	struct th_matrix *m;
	const char *dir;
	char err[2048];
	int lock = -1, rc = TH_MATRIX_BAD_INPUT;

	if (!(m = th_matrix_plan(o, err, sizeof(err)))) {
		fprintf(stderr, "timerharness matrix: %s\n", err);
		return TH_MATRIX_BAD_INPUT;
	}
	dir = th_matrix_out_dir(m);
	if (th_mkdir_p(dir)) {
		if (errno == ENOTDIR)
			snprintf(err, sizeof(err), "%s is not a directory", dir);
		else
			snprintf(err, sizeof(err), "cannot create %s: %s", dir, strerror(errno));
		goto bad;
	}
	if ((lock = th_render_lock_dir(dir, "matrix", err, sizeof(err))) < 0 ||
	    th_matrix_check_out(m, err, sizeof(err)))
		goto bad;
	for (size_t i = 0; th_render_set_name(i); i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, th_render_set_name(i));
		if (th_render_out_ok(path, err, sizeof(err)))
			goto bad;
	}
	if (th_matrix_run(m, err, sizeof(err)) < 0) {
		fprintf(stderr, "timerharness matrix: %s (nothing written)\n", err);
		rc = TH_MATRIX_NOT_WRITTEN;
		goto done;
	}
	rc = show(o, m, grid, use_color);
	goto done;
bad:
	fprintf(stderr, "timerharness matrix: %s\n", err);
done:
	th_matrix_free(m);
	th_render_unlock_dir(lock, dir);
	return rc;
}

int th_cli_matrix(int argc, char **argv)
{
	struct th_paths p;
	struct th_matrix_opts o = { .timeout = 10, .lockup_ms = TH_MATRIX_LOCKUP_MS, .fork_server = 1 };
	char self[PATH_MAX], err[256];
	int grid = 0;
	const char *v;
	long x;
	int bad = 0;

	if (th_paths_get(&p))
		return 2;
	o.build_root = o.default_build_root = p.build_root;
	o.build_hint = p.build_hint;
	o.expect_path = o.default_expect = p.expect;
	o.default_timeout = o.timeout;
	o.default_lockup_ms = o.lockup_ms;
	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			matrix_usage(stdout, &p);
			return 0;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--toolchain", &bad))) {
			o.toolchains = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--config", &bad))) {
			o.configs = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--variant", &bad))) {
			o.variants = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--attack", &bad))) {
			o.attack_glob = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--shard", &bad))) {
			if (th_shard_parse(v, &o.shard_index, &o.shard_count, err, sizeof(err))) {
				fprintf(stderr, "timerharness matrix: --shard %s\n", err);
				return 2;
			}
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--jobs", &bad))) {
			bad = th_optnum("matrix", "--jobs", v, 1, 32, &x);
			o.jobs = (int)x;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--timeout", &bad))) {
			bad = th_optnum("matrix", "--timeout", v, 1, 3600, &x);
			o.timeout = (double)x;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--lockup-ms", &bad))) {
			bad = th_optnum("matrix", "--lockup-ms", v, 0, 3600000, &x);
			o.lockup_ms = (unsigned)x;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--out", &bad))) {
			o.out_dir = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--build-root", &bad))) {
			o.build_root = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--expect", &bad))) {
			o.expect_path = v;
		} else if (bad) {
			break;
		} else if (th_optname(argv[i], "--quiet", false)) {
			o.quiet = 1;
		} else if (th_optname(argv[i], "--grid", false)) {
			grid = 1;
		} else if (th_optname(argv[i], "--replace", false)) {
			o.replace = 1;
		} else if (th_optname(argv[i], "--selftests", false)) {
			o.selftests = 1;
		} else if (th_optname(argv[i], "--no-fork-server", false)) {
			o.fork_server = 0;
		} else {
			fprintf(stderr, "timerharness matrix: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	if (bad)
		return 2;
	if (th_paths_installed_ok(&p, o.expect_path, "matrix"))
		return 2;
	if (o.out_dir && !*o.out_dir) {
		fprintf(stderr, "timerharness matrix: --out must not be empty\n");
		return 2;
	}
	/* Never read what would block or never end (a FIFO, /dev/zero). */
	if (th_optpath(stderr, "matrix", "--expect", o.expect_path, TH_OPT_FILE) ||
	    th_optpath(stderr, "matrix", "--build-root", o.build_root, TH_OPT_DIR) ||
	    (o.out_dir && th_optpath(stderr, "matrix", "--out", o.out_dir, TH_OPT_DIR)))
		return 2;
	/* Each cell's rerun command names this very program. */
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		o.self = self;
	}
	o.progress = isatty(STDERR_FILENO);
	return run(&o, grid, th_render_color_ok(STDOUT_FILENO));
}

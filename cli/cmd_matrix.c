/* SPDX-License-Identifier: MIT */
/* `timerharness matrix` and `timerharness check`: options, then dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "check.h"
#include "cli.h"
#include "matrix.h"

static void matrix_usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness matrix [--toolchain T,..] [--config C,..] [--variant V,..]\n"
		"                           [--attack GLOB] [--jobs N] [--timeout S] [--out DIR]\n"
		"                           [--build-root DIR] [--expect FILE] [--quiet] [--selftests]\n"
		"\n"
		"Runs every cell (attack x variant x config x toolchain) in its own process and\n"
		"writes DIR/results.json (schema timerharness/results/v1) and DIR/report.md.\n"
		"  --toolchain   clang-14,clang-22 (default: every toolchain built under --build-root)\n"
		"  --config      hardening configs (cfi/configs.tsv; default: all)\n"
		"  --variant     legacy,transitional,modern (default: all)\n"
		"  --attack      shell globs on attack IDs, comma-separated, e.g. 'MEMCPY_INTRA_*,UAF_*'\n"
		"  --jobs        parallel cells (default: online CPUs)\n"
		"  --timeout     seconds before a cell is HANG (default 10)\n"
		"  --out         output directory (default out)\n"
		"  --build-root  where the presets were built (default %s), or one build dir\n"
		"  --selftests   also run the runner's self-test cells SELFTEST_HANG, SELFTEST_SEGV\n"
		"  --expect      declared expectations (default %s)\n"
		"Exit: 0 ran; 2 bad input (nothing written); 130 interrupted (partial results written).\n",
		TH_BUILD_ROOT, TH_EXPECT_PATH);
}

int th_cli_matrix(int argc, char **argv)
{
	struct th_matrix_opts o = {
		.build_root = TH_BUILD_ROOT, .out_dir = "out", .expect_path = TH_EXPECT_PATH,
		.timeout = 10,
	};
	const char *v;
	long x;
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			matrix_usage(stdout);
			return 0;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--toolchain", &bad))) {
			o.toolchains = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--config", &bad))) {
			o.configs = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--variant", &bad))) {
			o.variants = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--attack", &bad))) {
			o.attack_glob = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--jobs", &bad))) {
			bad = th_optnum("matrix", "--jobs", v, 1, 32, &x);
			o.jobs = (int)x;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--timeout", &bad))) {
			bad = th_optnum("matrix", "--timeout", v, 1, 3600, &x);
			o.timeout = (double)x;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--out", &bad))) {
			o.out_dir = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--build-root", &bad))) {
			o.build_root = v;
		} else if ((v = th_optval(argc, argv, &i, "matrix", "--expect", &bad))) {
			o.expect_path = v;
		} else if (bad) {
			break;
		} else if (!strcmp(argv[i], "--quiet")) {
			o.quiet = 1;
		} else if (!strcmp(argv[i], "--selftests")) {
			o.selftests = 1;
		} else {
			fprintf(stderr, "timerharness matrix: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	if (bad)
		return 2;
	return th_matrix_main(&o);
}

int th_cli_check(int argc, char **argv)
{
	const char *results = "out/results.json", *baseline = NULL, *v;
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: timerharness check [--results FILE] [--baseline FILE]\n"
			       "\n"
			       "Compares each cell's observed outcome with its declared expectation and,\n"
			       "with --baseline, with an earlier results.json.\n"
			       "Exit: 0 nothing regressed; 1 a cell is more severe than expected or than the\n"
			       "baseline, or a new FALSE_POSITIVE; 2 bad input (missing, corrupt, wrong schema,\n"
			       "unknown names).\n");
			return 0;
		} else if ((v = th_optval(argc, argv, &i, "check", "--results", &bad))) {
			results = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--baseline", &bad))) {
			baseline = v;
		} else if (!bad) {
			fprintf(stderr, "timerharness check: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	if (bad)
		return 2;
	return th_check_main(results, baseline, stdout, stderr);
}

/* SPDX-License-Identifier: MIT */
/* `timerharness matrix`: options, then attacks/matrix.c does the work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
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
		"writes, as one set, DIR/results.json (schema timerharness/results/v1),\n"
		"DIR/report.md, DIR/report.html and DIR/junit.xml: all four from this run, or\n"
		"none replaced. One run at a time per DIR (a second is refused).\n"
		"  --toolchain   clang-14,clang-22 (default: every toolchain built under --build-root)\n"
		"  --config      hardening configs (cfi/configs.tsv; default: all)\n"
		"  --variant     legacy,transitional,modern (default: all)\n"
		"  --attack      shell globs on attack IDs, comma-separated, e.g. 'MEMCPY_INTRA_*,UAF_*'\n"
		"                (any of these four makes the results a slice: check --allow-slice)\n"
		"  --jobs        parallel cells (default: online CPUs)\n"
		"  --timeout     seconds before a cell is HANG (default 10)\n"
		"  --out         output directory (default out)\n"
		"  --build-root  where the presets were built (default %s), or one build dir\n"
		"  --selftests   also run the runner's self-test cells SELFTEST_HANG, SELFTEST_SEGV\n"
		"  --expect      declared expectations (default %s); its path and SHA-256\n"
		"                are recorded in results.json\n"
		"Exit: 0 every cell ran and was observed (check judges the outcomes);\n"
		"      1 the files could not be written (the previous set is kept);\n"
		"      2 bad input: an option, the build, the expectations, an empty selection,\n"
		"        or DIR in use by another run (nothing run, nothing written);\n"
		"      3 written, but some cells are HARNESS_ERROR: a binary or probe missing or\n"
		"        unrunnable, a child that could not start (check exits 3 on them);\n"
		"      130 interrupted (partial results written).\n",
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

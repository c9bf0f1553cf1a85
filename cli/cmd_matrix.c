/* SPDX-License-Identifier: MIT */
/* `timerharness matrix` and `timerharness check`: options, then dispatch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char *optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (!strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (!strcmp(a, name)) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "timerharness: %s needs a value\n", name);
			exit(2);
		}
		return argv[++*i];
	}
	return NULL;
}

static long num(const char *opt, const char *v, long lo, long hi)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (!*v || *end || errno || x < lo || x > hi) {
		fprintf(stderr, "timerharness: %s needs a number from %ld to %ld (got '%s')\n", opt, lo, hi, v);
		exit(2);
	}
	return x;
}

int th_cli_matrix(int argc, char **argv)
{
	struct th_matrix_opts o = {
		.build_root = TH_BUILD_ROOT, .out_dir = "out", .expect_path = TH_EXPECT_PATH,
		.timeout = 10,
	};
	const char *v;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			matrix_usage(stdout);
			return 0;
		} else if ((v = optval(argc, argv, &i, "--toolchain"))) {
			o.toolchains = v;
		} else if ((v = optval(argc, argv, &i, "--config"))) {
			o.configs = v;
		} else if ((v = optval(argc, argv, &i, "--variant"))) {
			o.variants = v;
		} else if ((v = optval(argc, argv, &i, "--attack"))) {
			o.attack_glob = v;
		} else if ((v = optval(argc, argv, &i, "--jobs"))) {
			o.jobs = (int)num("--jobs", v, 1, 32);
		} else if ((v = optval(argc, argv, &i, "--timeout"))) {
			o.timeout = (double)num("--timeout", v, 1, 3600);
		} else if ((v = optval(argc, argv, &i, "--out"))) {
			o.out_dir = v;
		} else if ((v = optval(argc, argv, &i, "--build-root"))) {
			o.build_root = v;
		} else if ((v = optval(argc, argv, &i, "--expect"))) {
			o.expect_path = v;
		} else if (!strcmp(argv[i], "--quiet")) {
			o.quiet = 1;
		} else if (!strcmp(argv[i], "--selftests")) {
			o.selftests = 1;
		} else {
			fprintf(stderr, "timerharness matrix: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	return th_matrix_main(&o);
}

int th_cli_check(int argc, char **argv)
{
	const char *results = "out/results.json", *baseline = NULL, *v;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: timerharness check [--results FILE] [--baseline FILE]\n"
			       "\n"
			       "Compares each cell's observed outcome with its declared expectation and,\n"
			       "with --baseline, with an earlier results.json.\n"
			       "Exit: 0 nothing regressed; 1 a cell is more severe than expected or than the\n"
			       "baseline, or a new FALSE_POSITIVE; 2 bad input (missing, corrupt, wrong schema,\n"
			       "unknown names).\n");
			return 0;
		} else if ((v = optval(argc, argv, &i, "--results"))) {
			results = v;
		} else if ((v = optval(argc, argv, &i, "--baseline"))) {
			baseline = v;
		} else {
			fprintf(stderr, "timerharness check: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	return th_check_main(results, baseline, stdout, stderr);
}

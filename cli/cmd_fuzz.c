/* SPDX-License-Identifier: MIT */
/* `timerharness fuzz`: options, then the campaign runner (fuzz/campaign.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "campaign.h"
#include "cli.h"

static void fuzz_usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness fuzz [--target T] [--variant V,..] [--config C,..] [--toolchain T,..]\n"
		"                         [--time S] [--jobs N] [--engine libfuzzer|afl] [--out DIR]\n"
		"                         [--build-root DIR] [--seeds DIR] [--value-profile] [--no-leak]\n"
		"                         [--seed N] [--quiet]\n"
		"\n"
		"Fuzzing campaigns of the overflow target (fuzz/overflow.c, the attacker), one per\n"
		"variant x config x toolchain built, each searching for the hijack for --time\n"
		"seconds; writes DIR/fuzz.json (schema timerharness/fuzz/v1) and, when\n"
		"DIR/results.json exists, adds the campaigns to DIR/report.md and report.html.\n"
		"  --target      overflow (the only target with campaigns)\n"
		"  --variant     legacy,transitional,modern (default: all; globs allowed)\n"
		"  --config      configs (default: every config the target is built for)\n"
		"  --toolchain   clang-14,clang-22 (default: every toolchain built)\n"
		"  --time        seconds per campaign (default 60)\n"
		"  --jobs        campaigns at once (default: online CPUs)\n"
		"  --engine      libfuzzer (default) or afl (the AFL++ builds of the target)\n"
		"  --out         output directory (default out)\n"
		"  --build-root  where the presets were built (default %s), or one build dir\n"
		"  --seeds       the seed corpus (default %s)\n"
		"  --value-profile  libFuzzer -use_value_profile=1 (finds write_cr4(0x407f0) sooner)\n"
		"  --no-leak     the attacker without an info leak: relocations ignored\n"
		"  --seed        the engine's first seed (default: from the clock)\n"
		"  --quiet       no progress line\n"
		"A progress line shows executions, exec/s and the outcomes so far. Ctrl-C stops\n"
		"the engines and writes a partial fuzz.json. One writer of DIR at a time (the\n"
		"lock matrix and kernel take); the campaigns' files go to DIR/fuzz/<run>/, and\n"
		"fuzz.json, with each finding's SHA-256, replaces the previous one last: a run\n"
		"killed on the way leaves the previous summary and its files whole.\n"
		"Exit: 0 done; 1 a file could not be written (the previous summary kept);\n"
		"2 bad input (nothing run), DIR in use; 130 interrupted (partial summary\n"
		"written). Gate the result with 'timerharness check' (it reads DIR/fuzz.json\n"
		"beside DIR/results.json; --fuzz-allow-slice for a run of part of the plan).\n",
		TH_BUILD_ROOT, TH_FUZZ_SEEDS);
}

int th_cli_fuzz(int argc, char **argv)
{
	struct th_fz_opts o = {
		.build_root = TH_BUILD_ROOT, .out_dir = "out", .seeds_dir = TH_FUZZ_SEEDS,
		.seconds = 60, .engine = "libfuzzer", .version = TH_VERSION,
	};
	const char *v;
	long x;
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fuzz_usage(stdout);
			return 0;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--target", &bad))) {
			o.targets = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--variant", &bad))) {
			o.variants = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--config", &bad))) {
			o.configs = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--toolchain", &bad))) {
			o.toolchains = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--time", &bad))) {
			bad = th_optnum("fuzz", "--time", v, 1, 7 * 24 * 3600, &x);
			o.seconds = (double)x;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--jobs", &bad))) {
			bad = th_optnum("fuzz", "--jobs", v, 1, 64, &x);
			o.jobs = (int)x;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--engine", &bad))) {
			if (strcmp(v, "libfuzzer") && strcmp(v, "afl")) {
				fprintf(stderr, "timerharness fuzz: --engine must be libfuzzer or afl, not '%s'\n", v);
				return 2;
			}
			o.engine = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--out", &bad))) {
			o.out_dir = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--build-root", &bad))) {
			o.build_root = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--seeds", &bad))) {
			o.seeds_dir = v;
		} else if ((v = th_optval(argc, argv, &i, "fuzz", "--seed", &bad))) {
			bad = th_optnum("fuzz", "--seed", v, 1, 2000000000L, &x);
			o.seed = (unsigned long)x;
		} else if (bad) {
			break;
		} else if (!strcmp(argv[i], "--value-profile")) {
			o.value_profile = 1;
		} else if (!strcmp(argv[i], "--no-leak")) {
			o.no_leak = 1;
		} else if (!strcmp(argv[i], "--quiet")) {
			o.quiet = 1;
		} else {
			fprintf(stderr, "timerharness fuzz: unknown argument '%s' (see --help)\n", argv[i]);
			return 2;
		}
	}
	if (bad)
		return 2;
	if (!*o.out_dir) {
		fprintf(stderr, "timerharness fuzz: --out must not be empty\n");
		return 2;
	}
	return th_fz_campaigns_main(&o);
}

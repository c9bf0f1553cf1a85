/* SPDX-License-Identifier: MIT */
/*
 * The `timerharness` command: argument parsing and dispatch, nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "complete.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness <command> [options]\n"
		"       timerharness --version | --help\n"
		"\n"
		"commands:\n"
		"  trace [--variant legacy|transitional|modern] [--hz N] [--check] [FILE|-]\n"
		"        drive a variant's timer wheel from a trace; prints fire/ret lines\n"
		"  bench [--quick] [--reps N] [--seed S] [--sizes N,..] [--order O] [--step J]\n"
		"        [--json FILE] [--no-instructions]\n"
		"        wheel vs binary min-heap: ns/op, ratios, instructions per op\n"
		"  reach --binary FILE --function NAME\n"
		"        what the indirect calls of NAME can still call under FILE's CFI\n"
#ifdef TH_HAVE_MATRIX
		"  matrix [--toolchain T,..] [--config C,..] [--variant V,..] [--attack GLOB,..]\n"
		"         [--shard I/N] [--jobs N] [--timeout S] [--lockup-ms MS] [--out DIR]\n"
		"         [--replace] [--build-root DIR] [--expect FILE] [--selftests] [--grid]\n"
		"         [--no-fork-server] [--quiet]\n"
		"        run every attack cell; writes results.json and its reports to DIR,\n"
		"        then prints the verdict\n"
		"  check [--results FILE] [--baseline FILE] [--expect FILE] [--kernel DIR]\n"
		"        [--consoles DIR|none] [--allow-slice] [--allow-partial] [--verbose]\n"
		"        [--fuzz FILE|none]\n"
		"        [--fuzz-expect FILE] [--fuzz-plan FILE] [--build-root DIR]\n"
		"        [--fuzz-allow-slice] [--fuzz-no-replay] [--json]\n"
		"        or: check --fuzz-only FILE [--fuzz-expect FILE] [--fuzz-plan FILE]\n"
		"                  [--build-root DIR] [--allow-slice] [--json]\n"
		"        judge results by the declaration: exit 0 nothing regressed, 1 a\n"
		"        regression or lost coverage, 2 bad input, 3 a harness error\n"
		"        (--json: the answer, counts and findings as data)\n"
		"  merge A.json B.json ... --out DIR\n"
		"        join the results of shards (matrix --shard) into one results.json\n"
		"        and every report\n"
		"  kernel [--config C,..] [--cells GLOB,..] [--jobs N] [--timeout S] [--out DIR]\n"
		"         [--bzimage FILE --dotconfig FILE [--vmlinux FILE] --name CONFIG]\n"
		"        boot each real-kernel cell (kernel/cells.tsv) under QEMU; its cells go\n"
		"        into DIR/results.json beside the model's\n"
		"  report [--results FILE] --format FORMAT [--out FILE|-] | --list-formats\n"
		"        render results.json in another format (Markdown, HTML, JUnit, SARIF,\n"
		"        KTAP...: --list-formats names them, report --help says what each is)\n"
#endif
#ifdef TH_HAVE_FUZZ
		"  fuzz [--variant V,..] [--config C,..] [--toolchain T,..] [--time S] [--jobs N]\n"
		"       [--engine libfuzzer|afl] [--out DIR]\n"
		"        fuzzing campaigns searching for the hijack; writes DIR/fuzz.json\n"
#endif
		"\n"
		"run 'timerharness <command> --help' for a command's options\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("timerharness " TH_VERSION "\n");
		return fflush(stdout) ? 1 : 0;
	}
	/* For the bash completion (cli/complete.c), not in the help. */
	if (!strcmp(argv[1], "--complete-options"))
		return th_cli_complete_options(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--complete-values"))
		return th_cli_complete_values(argc - 1, argv + 1);
	if (!strcmp(argv[1], "trace"))
		return th_cli_trace(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return th_cli_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "reach"))
		return th_cli_reach(argc - 1, argv + 1);
#ifdef TH_HAVE_MATRIX
	if (!strcmp(argv[1], "matrix"))
		return th_cli_matrix(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return th_cli_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return th_cli_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return th_cli_merge(argc - 1, argv + 1);
#endif
#ifdef TH_HAVE_KERNEL
	if (!strcmp(argv[1], "kernel"))
		return th_cli_kernel(argc - 1, argv + 1);
#endif
#ifdef TH_HAVE_FUZZ
	if (!strcmp(argv[1], "fuzz"))
		return th_cli_fuzz(argc - 1, argv + 1);
#endif
	fprintf(stderr, "timerharness: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}

/* SPDX-License-Identifier: MIT */
/* `timerharness bench`: bench/bench.c does the work. */
#include <stdio.h>

#include "cli.h"
#ifdef TH_HAVE_BENCH
#include "bench.h"
#include "bench_configs.h"
#endif

int th_cli_bench(int argc, char **argv)
{
#ifdef TH_HAVE_BENCH
	if (th_bench_wants_configs(argc, argv))
		return th_bench_configs_main(argc, argv);
	return th_bench_main(argc, argv);
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "timerharness bench: not built in this build\n");
	return 2;
#endif
}

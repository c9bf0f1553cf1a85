/* SPDX-License-Identifier: MIT */
/* `timerharness trace`: options, then timer_core/trace.c does the work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "lib/fs.h"
#include "cli.h"
#include "trace.h"

static void trace_usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness trace [--variant legacy|transitional|modern] [--hz N]\n"
		"                          [--check] [--max-fires N] [FILE|-]\n"
		"\n"
		"Reads a wheel trace (one op a line; '#' comments; numbers decimal or 0x-hex):\n"
		"  start J        set jiffies and the base clock (first op only; default\n"
		"                 INITIAL_JIFFIES = (unsigned long)(unsigned int)(-300*HZ))\n"
		"  add ID E       arm with add_timer() semantics at expiry E\n"
		"  mod ID E       mod_timer()            -> prints 'ret LINE VALUE'\n"
		"  modp ID E      mod_timer_pending()    -> prints 'ret LINE VALUE'\n"
		"  reduce ID E    timer_reduce()         -> prints 'ret LINE VALUE'\n"
		"  del ID         del_timer()            -> prints 'ret LINE VALUE'\n"
		"  every ID IV    from now on ID's callback re-arms it at jiffies + IV\n"
		"  run J          jiffies becomes J, then the wheel runs\n"
		"A callback prints 'fire CLK ID' (CLK: the base clock whose buckets were\n"
		"collected).\n"
		"\n"
		"  --variant V    legacy (default), transitional or modern: same output for all\n"
		"  --hz N         HZ of the wheel (depth 9 if N > 100, else 8); default 1000\n"
		"  --check        run the wheel's consistency checker after every op and\n"
		"                 callback (beyond ~1400 timers as often as keeps it linear;\n"
		"                 always at the end)\n"
		"  --max-fires N  callbacks one 'run' may fire (default %lu): a timer\n"
		"                 re-arming itself on a long jump fires without end; more is\n"
		"                 an error\n"
		"Lines are at most %d bytes.\n"
		"Exit: 0 ok; 1 the output could not be written; 2 bad input ('FILE:LINE: what\n"
		"is wrong' on stderr, one line); 3 checker failure.\n", TH_TRACE_MAX_FIRES, TH_TRACE_MAX_LINE);
}

int th_cli_trace(int argc, char **argv)
{
	struct th_trace_opts opts = { .variant = &th_trace_legacy, .hz = 1000 };
	const char *path = NULL, *v, *why;
	FILE *in;
	int ret, bad = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || th_optname(a, "--help", false)) {
			trace_usage(stdout);
			return 0;
		} else if ((v = th_optval(argc, argv, &i, "trace", "--variant", &bad))) {
			if (!(opts.variant = th_trace_variant(v))) {
				fprintf(stderr, "timerharness trace: --variant needs legacy, transitional or modern (got '%s')\n", v);
				return 2;
			}
		} else if ((v = th_optval(argc, argv, &i, "trace", "--hz", &bad))) {
			long hz;

			if (th_optnum("trace", "--hz", v, 1, 100000, &hz))
				return 2;
			opts.hz = (unsigned int)hz;
		} else if ((v = th_optval(argc, argv, &i, "trace", "--max-fires", &bad))) {
			long n;

			if (th_optnum("trace", "--max-fires", v, 1, 1000000000L, &n))
				return 2;
			opts.max_fires = (unsigned long)n;
		} else if (bad) {
			return 2;
		} else if (th_optname(a, "--check", false)) {
			opts.check = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "timerharness trace: unknown option '%s' (see --help)\n", a);
			return 2;
		} else if (path) {
			fprintf(stderr, "timerharness trace: one trace file at a time ('%s' and '%s')\n", path, a);
			return 2;
		} else {
			path = a;
		}
	}
	if (!path || !strcmp(path, "-")) {
		in = stdin;
		path = "<stdin>";
	} else if (th_optpath(stderr, "trace", "", path, TH_OPT_FILE)) {
		return 2;
	} else if (!(in = th_fopen_read(path, "r", &why))) {
		fprintf(stderr, "timerharness trace: %s: %s\n", path, why);
		return 2;
	}
	opts.out_name = "stdout";
	ret = th_trace_run(&opts, in, path, stdout, stderr);
	if (in != stdin)
		fclose(in);
	return ret;
}

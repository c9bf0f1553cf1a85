/* SPDX-License-Identifier: MIT */
/* `timerharness merge`: load the parts, results/merge.c joins them, write
 * the set as matrix does. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "lib/fs.h"
#include "merge.h"
#include "render.h"
#include "results.h"

static void merge_usage(FILE *f)
{
	fputs("usage: timerharness merge A.json B.json ... --out DIR [--quiet]\n"
	      "\n"
	      "Joins the results of the shards of one plan (matrix --shard I/N on N machines),\n"
	      "or of one run per toolchain, into DIR/results.json and every report of a run\n"
	      "(report.md, report.html, junit.xml, report.sarif), written as one set, then\n"
	      "prints the verdict screen. Every cell is kept as its file stored it; nothing\n"
	      "a part did not observe is filled in. Refused (exit 2, nothing written):\n"
	      "another schema or timerharness version, other expectations (by SHA-256),\n"
	      "selections that differ in more than one of toolchains, configs, variants,\n"
	      "attacks, shards of different counts or a shard given twice, a toolchain of\n"
	      "another version, a config whose flags, description or support differ, a cell\n"
	      "in two files, a reach entry that differs between files. A merge of every\n"
	      "shard is the whole selection (the reach section taken once); of some, a slice\n"
	      "(check judges it only with --allow-slice, and lists the missing cells).\n"
	      "  --out    the output directory (created if missing)\n"
	      "  --quiet  no verdict screen\n"
	      "Exit: 0 written; 1 could not write (the previous set in DIR is kept); 2 bad\n"
	      "input.\n", f);
}

int th_cli_merge(int argc, char **argv)
{
	const char *out = NULL, *v, **names = calloc((size_t)argc, sizeof(*names));
	struct th_results **in = calloc((size_t)argc, sizeof(*in)), *merged = NULL;
	size_t n = 0;
	char err[2048], warn[2048];
	int bad = 0, quiet = 0, rc = 2, lock = -1;

	if (!names || !in) {
		fprintf(stderr, "timerharness merge: out of memory\n");
		goto done;
	}
	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			merge_usage(stdout);
			rc = fflush(stdout) ? 1 : 0;
			goto done;
		} else if ((v = th_optval(argc, argv, &i, "merge", "--out", &bad))) {
			out = v;
		} else if (bad) {
			break;
		} else if (th_optname(argv[i], "--quiet", false)) {
			quiet = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "timerharness merge: unknown argument '%s' (see --help)\n", argv[i]);
			goto done;
		} else {
			names[n++] = argv[i];
		}
	}
	if (bad)
		goto done;
	if (!out || !*out || !n) {
		fprintf(stderr, "timerharness merge: %s (see --help)\n",
			!n ? "name the results files to merge" : "--out DIR is required");
		goto done;
	}
	/* Never read what would block or never end (a FIFO, /dev/zero). */
	for (size_t i = 0; i < n; i++)
		if (th_optpath(stderr, "merge", "", names[i], TH_OPT_FILE))
			goto done;
	if (th_optpath(stderr, "merge", "--out", out, TH_OPT_DIR))
		goto done;
	for (size_t i = 0; i < n; i++) {
		if (th_results_load(names[i], &in[i], err, sizeof(err))) {
			fprintf(stderr, "timerharness merge: %s\n", err);
			goto done;
		}
	}
	if (th_results_merge(in, names, n, &merged, err, sizeof(err))) {
		fprintf(stderr, "timerharness merge: %s (nothing written)\n", err);
		goto done;
	}
	if (th_mkdir_p(out)) {
		fprintf(stderr, "timerharness merge: --out %s: %s\n", out, strerror(errno));
		goto done;
	}
	signal(SIGXFSZ, SIG_IGN);
	/* One writer of out at a time, as matrix and kernel. */
	if ((lock = th_render_lock_dir(out, "merge", err, sizeof(err))) < 0) {
		fprintf(stderr, "timerharness merge: %s\n", err);
		goto done;
	}
	/* As matrix writes a run's set: the campaigns and the bench's figures
	 * lying in out (they are not the shards', which merge never combines)
	 * join the merged reports, so that they are what `timerharness report`
	 * renders from the merged results.json. */
	if (th_render_write_set(merged, out, warn, sizeof(warn), err, sizeof(err))) {
		fprintf(stderr, "timerharness merge: %s; the previous results in %s are kept\n", err, out);
		rc = 1;
		goto done;
	}
	for (char *p = warn, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		fprintf(stderr, "timerharness merge: %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
	}
	if (!quiet)
		th_render_verdict(stdout, merged, th_render_color_ok(STDOUT_FILENO));
	printf("merge: %zu files, %zu cells", n, merged->ncells);
	if (merged->shard.count) {
		fputs(" (shards", stdout);
		for (size_t k = 0; k < merged->shard.nindexes; k++)
			printf("%s%u", k ? "," : " ", merged->shard.indexes[k]);
		printf(" of %u: a slice)", merged->shard.count);
	} else if (th_results_is_slice(merged)) {
		fputs(" (a slice of the plan)", stdout);
	}
	putchar('\n');
	th_render_outputs_line(stdout, out);
	rc = fflush(stdout) ? 1 : 0;
done:
	th_render_unlock_dir(lock, out);
	for (size_t i = 0; in && i < n; i++)
		th_results_free(in[i]);
	th_results_free(merged);
	free(in);
	free(names);
	return rc;
}

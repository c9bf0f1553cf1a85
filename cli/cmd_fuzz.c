/* SPDX-License-Identifier: MIT */
/*
 * `timerharness fuzz`: options; then the campaign loop (loops/campaign.h)
 * with the out folder locked, and what it shows; then the reports beside
 * the summary re-rendered (report/), the lock still held.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "lib/xalloc.h"
#include "loops/campaign.h"
#include "report/render.h"
#include "results.h"

static void fuzz_usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness fuzz [--target T] [--variant V,..] [--config C,..]\n"
		"                         [--toolchain T,..] [--time S] [--jobs N]\n"
		"                         [--engine libfuzzer|afl] [--out DIR] [--build-root DIR]\n"
		"                         [--seeds DIR] [--value-profile] [--no-leak] [--seed N]\n"
		"                         [--slice] [--quiet]\n"
		"\n"
		"Fuzzing campaigns of the overflow target (fuzz/overflow.c, the attacker), one\n"
		"per API family x variant x config x toolchain built (target overflow: the\n"
		"timer's world; tasklet: fuzz/tasklet/'s), each searching for the hijack for\n"
		"--time seconds; writes DIR/fuzz.json (schema timerharness/fuzz/v1) and, when\n"
		"DIR/results.json exists, adds the campaigns to DIR/report.md and report.html.\n"
		"  --target      overflow (the timer's), tasklet (default: both)\n"
		"  --variant     legacy,transitional,modern (default: all; globs allowed)\n"
		"  --config      configs (default: every config the target is built for)\n"
		"  --toolchain   clang-14,clang-22 (default: every toolchain built)\n"
		"  --time        seconds per campaign (default 60)\n"
		"  --jobs        campaigns at once (default: online CPUs)\n"
		"  --engine      libfuzzer (default) or afl (the AFL++ builds of the target)\n"
		"  --out         output directory (default out)\n"
		"  --build-root  where the presets were built, or one build dir\n"
		"                (default %s)\n"
		"  --seeds       the overflow target's seed corpus\n"
		"                (default %s);\n"
		"                another target's is beside it, named as the target\n"
		"                (corpora/tasklet)\n"
		"  --value-profile  libFuzzer -use_value_profile=1 (finds write_cr4(0x407f0)\n"
		"                sooner)\n"
		"  --no-leak     the attacker without an info leak: relocations ignored\n"
		"  --seed        the engine's first seed (default: from the clock)\n"
		"  --slice       the selection (--target, --variant, --config, --toolchain) is\n"
		"                this run's plan: fuzz.json records it so, and check judges\n"
		"                the campaigns by it, naming it, without --fuzz-allow-slice\n"
		"                (every campaign of the slice must be there)\n"
		"  --quiet       no progress line\n"
		"A progress line shows executions, exec/s and the outcomes so far. Ctrl-C stops\n"
		"the engines and writes a partial fuzz.json. One writer of DIR at a time (the\n"
		"lock matrix and kernel take); the campaigns' files go to DIR/fuzz/<run>/, and\n"
		"fuzz.json, with each finding's SHA-256, replaces the previous one last: a run\n"
		"killed on the way leaves the previous summary and its files whole.\n"
		"Exit: 0 done; 1 a file could not be written (the previous summary kept);\n"
		"2 bad input (nothing run), DIR in use; 130 interrupted (partial summary\n"
		"written). Gate the result with 'timerharness check' (it reads DIR/fuzz.json\n"
		"beside DIR/results.json; a run of part of the plan passes only with --slice\n"
		"here or --fuzz-allow-slice there).\n",
		TH_BUILD_ROOT, TH_FUZZ_SEEDS);
}

/* ---- the screen: the loop shows nothing itself -------------------------------------------- */

static void show_start(int runnable, size_t unsupported, int jobs, void *arg)
{
	const struct th_fz_opts *o = arg;
	char line[4352];

	/* The folder named as a path ("into out/"): "out out" read as a typo. */
	snprintf(line, sizeof(line), "fuzz: %d campaigns of %.0f s, %d at a time (about %.0f s); "
		 "%zu unsupported; into %s/%s", runnable, o->seconds, jobs,
		 ceil((double)runnable / jobs) * o->seconds, unsupported, o->out_dir, TH_FUZZ_FILE);
	th_report_put_wrapped(stderr, "", line);
}

static void show_progress(const struct th_fz_progress *p, int final, void *arg)
{
	int tty = isatty(STDERR_FILENO);
	double el = p->seconds;

	(void)arg;
	/* One line of at most 80 columns (rewritten in place on a terminal):
	 * time, campaigns, executions and rate, findings, and as many of the
	 * outcomes so far as fit, most severe first (fuzz.json has them all). */
	static const enum th_outcome shown[] = { TH_HIJACKED, TH_PRIVILEGED_WRITE, TH_BLOCKED_CFI,
						 TH_REDIRECTED, TH_CRASHED, TH_DETECTED, TH_HANG };
	char head[160], tail[48], outs[160] = "", run[32] = "", a[32], b[32];
	size_t room;

	th_report_short_count(p->executions, a, sizeof(a));
	th_report_short_count(el > 0 ? (long long)(p->executions / el) : 0, b, sizeof(b));
	if (p->running)
		snprintf(run, sizeof(run), ", %d running", p->running);
	snprintf(head, sizeof(head), "fuzz: %.0f s, %d/%zu done%s | %s execs, %s/s", el, p->done,
		 p->campaigns, run, a, b);
	snprintf(tail, sizeof(tail), " | %d finding%s", p->findings, p->findings == 1 ? "" : "s");
	room = strlen(head) + strlen(tail) < TH_VERDICT_WIDTH ?
	       TH_VERDICT_WIDTH - strlen(head) - strlen(tail) : 0;
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
		char item[64], c[32];

		if (!p->outcomes[shown[k]])
			continue;
		th_report_short_count(p->outcomes[shown[k]], c, sizeof(c));
		snprintf(item, sizeof(item), "%s%s %s", *outs ? ", " : " | ", th_outcome_name(shown[k]), c);
		if (strlen(outs) + strlen(item) > room)
			break;
		strcat(outs, item);
	}
	fprintf(stderr, "%s%s%s%s%s%s", tty ? "\r" : "", head, outs, tail, tty ? "\033[K" : "",
		tty && !final ? "" : "\n");
}

/* Each campaign's figures, wrapped within 80 columns, then where they went. */
static void show_figures(const struct th_fz_run *run, const struct th_fz_opts *o)
{
	for (size_t i = 0; i < th_fz_campaigns_count(run); i++) {
		int nfnd;
		const struct th_fz_campaign *r = th_fz_campaigns_record(run, i, &nfnd);
		char line[1024], a[32], b[32], c[32], d[32];
		size_t len;

		if (strcmp(r->status, "ran"))
			continue;
		th_report_short_count(r->executions, a, sizeof(a));
		th_report_short_count((long long)r->exec_per_second, b, sizeof(b));
		th_report_short_count(r->cpu_seconds > 0 ? (long long)(r->executions / r->cpu_seconds) : 0,
				      c, sizeof(c));
		/* Another family's campaign named by its target ("tasklet
		 * transitional/kcfi"); the timer's as before. */
		len = (size_t)snprintf(line, sizeof(line), "%s%s%s/%s on %s: %s execs, %s exec/s (%s per "
				       "CPU s); ", strcmp(r->target, "overflow") ? r->target : "",
				       strcmp(r->target, "overflow") ? " " : "", th_variant_name(r->variant),
				       r->config, r->toolchain, a, b, c);
		th_report_short_count(r->first_hijack.executions, d, sizeof(d));
		if (r->first_hijack.reached)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"first hijack after %.3f s (%s execs)",
						r->first_hijack.seconds, d);
		else
			len += (size_t)snprintf(line + len, sizeof(line) - len, "no hijack in %s execs", a);
		if (r->goal_reached.reached && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"; write_cr4(0x407f0) after %.2f s", r->goal_reached.seconds);
		th_report_short_count(r->outcomes[TH_BLOCKED_CFI], d, sizeof(d));
		if (len < sizeof(line))
			snprintf(line + len, sizeof(line) - len, "; %s CFI blocks, %d finding%s", d,
				 nfnd, nfnd == 1 ? "" : "s");
		th_report_put_wrapped(stderr, "  ", line);
	}
	char line[4200];

	snprintf(line, sizeof(line), "wrote %s/%s", o->out_dir, TH_FUZZ_FILE);
	th_report_put_wrapped(stderr, "", line);
}

/* ---- the run ---------------------------------------------------------------------------- */

/*
 * report.md and report.html beside results_path rendered again with the
 * campaigns of fuzz_path; the other files of the set are untouched (they
 * show no campaigns). Return: 0, or -1 with err (the old reports left as
 * they were).
 */
static int render_with_campaigns(const char *out_dir, const char *results_path,
				 const char *fuzz_path, char *err, size_t errlen)
{
	struct th_results *res = NULL;
	struct th_fz_summary *s = NULL;
	char *md = NULL, *html = NULL;
	int rc = -1;

	if (th_results_load(results_path, &res, err, errlen) ||
	    th_fz_summary_load(fuzz_path, &s, err, errlen))
		goto out;
	/* The bench's figures beside the results stay in the reports; one that
	 * no longer loads stops the re-render (the old reports kept), said. */
	if (th_results_load_bench_beside(res, results_path, err, errlen))
		goto out;
	th_results_set_fuzz(res, s);
	s = NULL;
	md = th_xasprintf("%s/report.md", out_dir);
	html = th_xasprintf("%s/report.html", out_dir);
	rc = th_render_markdown(res, md, err, errlen) || th_render_html(res, html, err, errlen) ? -1 : 0;
out:
	free(md);
	free(html);
	th_fz_summary_free(s);
	th_results_free(res);
	return rc;
}

/* The report beside the summary gains its campaigns (results.json, if there). */
static void rerender(const char *out_dir)
{
	char *results = th_xasprintf("%s/results.json", out_dir);
	char *fuzz = th_xasprintf("%s/%s", out_dir, TH_FUZZ_FILE);
	char err[1024];

	if (!access(results, R_OK) && render_with_campaigns(out_dir, results, fuzz, err, sizeof(err)))
		fprintf(stderr, "timerharness fuzz: report not updated: %s\n", err);
	free(results);
	free(fuzz);
}

/*
 * The run's summary (NULL: it could not be made, said) written as
 * DIR/fuzz.json in one rename, then the runs it no longer names removed;
 * the previous summary and its run kept when it cannot be.
 * Return: true when written.
 */
static bool write_summary(const struct th_fz_run *run, const struct th_fz_summary *s,
			  const struct th_fz_opts *o, bool interrupted)
{
	char err[1024], *path = th_xasprintf("%s/%s", o->out_dir, TH_FUZZ_FILE);
	bool ok = s && !th_fz_summary_write(s, path, err, sizeof(err));

	if (s && !ok)
		fprintf(stderr, "timerharness fuzz: %s\n", err);
	free(path);
	if (!ok && interrupted)
		fprintf(stderr, "timerharness fuzz: interrupted; the summary could not be written "
			"(the previous one is kept; this run's files are in %s/%s)\n", o->out_dir,
			th_fz_campaigns_run_dir(run));
	else if (!ok)
		fprintf(stderr, "timerharness fuzz: the previous summary is kept; this run's files "
			"are in %s/%s\n", o->out_dir, th_fz_campaigns_run_dir(run));
	if (!ok)
		return false;
	th_fz_campaigns_prune(run);
	if (interrupted)
		fprintf(stderr, "timerharness fuzz: interrupted; partial summary in %s/%s\n",
			o->out_dir, TH_FUZZ_FILE);
	return true;
}

static int fuzz_run(struct th_fz_opts *o, int quiet)
{
	struct th_fz_summary *summary = NULL;
	struct th_fz_run *run;
	char err[1024];
	int rc, lock;

	if (!quiet) {
		o->show_start = show_start;
		o->show_progress = show_progress;
		o->show_arg = o;
	}
	rc = th_fz_campaigns_plan(o, &run);
	if (rc)
		return rc;
	/* One writer of DIR at a time, as matrix and kernel (the same lock):
	 * taken before the loop makes its run's directory, held until the
	 * summary is written and the reports re-rendered, and released however
	 * the process ends. */
	lock = th_render_lock_dir(o->out_dir, "fuzz", err, sizeof(err));
	if (lock < 0) {
		fprintf(stderr, "timerharness fuzz: %s\n", err);
		th_fz_campaigns_free(run);
		return 2;
	}
	rc = th_fz_campaigns_run(run, &summary);
	if (rc != 1 && !write_summary(run, summary, o, rc == 130))
		rc = rc ? rc : 1;
	th_fz_summary_free(summary);
	if (!rc)
		rerender(o->out_dir);
	/* Released and removed, as matrix, kernel and merge leave it: a
	 * closed descriptor alone left the file behind (docs/outputs.md). */
	th_render_unlock_dir(lock, o->out_dir);
	if (!rc && !quiet)
		show_figures(run, o);
	th_fz_campaigns_free(run);
	return rc;
}

int th_cli_fuzz(int argc, char **argv)
{
	struct th_fz_opts o = {
		.build_root = TH_BUILD_ROOT, .out_dir = "out", .seeds_dir = TH_FUZZ_SEEDS,
		.seconds = 60, .engine = "libfuzzer", .version = TH_VERSION,
	};
	const char *v;
	long x;
	int bad = 0, quiet = 0;

	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
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
		} else if (th_optname(argv[i], "--value-profile", false)) {
			o.value_profile = 1;
		} else if (th_optname(argv[i], "--no-leak", false)) {
			o.no_leak = 1;
		} else if (th_optname(argv[i], "--quiet", false)) {
			quiet = 1;
		} else if (th_optname(argv[i], "--slice", false)) {
			o.planned_slice = 1;
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
	if (o.planned_slice && !o.targets && !o.variants && !o.configs && !o.toolchains) {
		fprintf(stderr, "timerharness fuzz: --slice without --target, --variant, --config or "
			"--toolchain: the whole plan is no slice\n");
		return 2;
	}
	/* Never read what would block or never end (a FIFO, /dev/zero). */
	if (th_optpath(stderr, "fuzz", "--build-root", o.build_root, TH_OPT_DIR) ||
	    th_optpath(stderr, "fuzz", "--seeds", o.seeds_dir, TH_OPT_DIR) ||
	    th_optpath(stderr, "fuzz", "--out", o.out_dir, TH_OPT_DIR))
		return 2;
	return fuzz_run(&o, quiet);
}

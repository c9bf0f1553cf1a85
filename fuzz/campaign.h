/* SPDX-License-Identifier: MIT */
/*
 * `timerharness fuzz`: fuzzing campaigns of the overflow target, one per
 * variant x config x toolchain built (the build's fuzz-manifest.tsv), each
 * with a time budget, summarised in DIR/fuzz.json (results/fuzz_summary.h).
 *
 * A campaign runs the engine in-process (libFuzzer: CFI blocks, wheel crashes
 * and hangs are caught and counted inside the target, which is measured to be
 * about 90x faster than leaving them to -fork), restarting it after each
 * finding it reports (the target aborts on a signature it has not reported
 * before, TH_FUZZ_KNOWN) and after each process a sanitizer ends, until the
 * budget is spent. Every artifact the engine writes is replayed in a fresh
 * process (TH_FUZZ_REPLAY=1): a finding counts only as what the replay says,
 * and says whether it reproduced. Counts come from the target's own records
 * (TH_FUZZ_STATS); coverage from the engine's last report.
 *
 * Layout under DIR: fuzz.json; fuzz/<run>/<toolchain>/<variant>-<config>[-afl]/
 * {corpus/, artifacts/, findings/<OUTCOME>-<CHAIN_ID>.bin and .chain,
 * engine.log, stats, known, recheck.log and disagreement-* (an artifact whose
 * replay said something else than its run)}, <run> being this run's own
 * directory (<UTC>-<pid>, fuzz.json's "run"). Each campaign starts from the
 * seed corpus (fuzz/corpora/overflow), so its times are its own.
 *
 * DIR is written as a set, as `matrix` writes its own: its lock
 * (th_render_lock_dir, shared with matrix and kernel) is held from before
 * the first campaign until the summary is written and the reports beside it
 * re-rendered; a run writes only under its own run directory, then replaces
 * fuzz.json in one rename (interrupted: a partial one), then removes the
 * run directories the new summary does not name. A run killed on the way
 * leaves the previous fuzz.json and the files it names as they were. Each
 * finding's reproducer is recorded with its SHA-256, which `check` compares.
 */
#ifndef TH_FUZZ_CAMPAIGN_H
#define TH_FUZZ_CAMPAIGN_H

struct th_fz_opts {
	const char *build_root;	/* build/ (every preset) or one build dir */
	const char *targets;	/* comma lists; NULL: all */
	const char *variants;
	const char *configs;
	const char *toolchains;
	double seconds;		/* per campaign */
	int jobs;		/* campaigns at once; 0: online CPUs */
	const char *engine;	/* "libfuzzer" (default) or "afl" */
	const char *out_dir;
	const char *seeds_dir;	/* the seed corpus */
	int value_profile;	/* -use_value_profile=1 */
	int no_leak;		/* TH_FUZZ_NO_LEAK=1: the attacker without a leak */
	unsigned long seed;	/* engine seed of the first run; 0: from the clock */
	int quiet;		/* no progress line */
	const char *version;
};

/* Run the campaigns. Return: 0 done, 2 bad input (nothing run: an unknown
 * selection, no build, --out in use by another run), 1 a write failed (the
 * previous summary kept), 130 interrupted (a partial fuzz.json written). */
int th_fz_campaigns_main(const struct th_fz_opts *o);

#endif

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
 * DIR is written as a set, as `matrix` writes its own, by the caller
 * (cli/cmd_fuzz.c): it takes DIR's lock (th_render_lock_dir, shared with
 * matrix and kernel) between th_fz_campaigns_plan() and
 * th_fz_campaigns_run(), and holds it until the summary is written and the
 * reports beside it re-rendered. This loop fills the model and never
 * writes it, never renders, never takes the lock: before the lock it only
 * reads the build and the seeds and makes DIR; after it, a run writes only
 * under its own run directory and hands back the summary (interrupted: a
 * partial one), which the caller writes as fuzz.json in one rename
 * (th_fz_summary_write()) before th_fz_campaigns_prune() removes the run
 * directories the new summary does not name. A run killed on the way
 * leaves the previous fuzz.json and the files it names as they were. Each
 * finding's reproducer is recorded with its SHA-256, which `check`
 * compares.
 */
#ifndef TH_LOOPS_CAMPAIGN_H
#define TH_LOOPS_CAMPAIGN_H

#include <stddef.h>

#include "results/fuzz_summary.h"
#include "results/outcome.h"

/* How far a run is, for the caller's screen (the loop shows nothing). */
struct th_fz_progress {
	double seconds;			/* since the campaigns were planned */
	size_t campaigns;		/* planned, unsupported ones included */
	int done, running, findings;
	long long executions, outcomes[TH_OUTCOME_COUNT];
};

struct th_fz_opts {
	const char *build_root;	/* build/ (every preset) or one build dir */
	const char *targets;	/* comma lists; NULL: all */
	const char *variants;
	const char *configs;
	const char *toolchains;
	int planned_slice;	/* fuzz --slice: the selection is the run's plan */
	double seconds;		/* per campaign */
	int jobs;		/* campaigns at once; 0: online CPUs */
	const char *engine;	/* "libfuzzer" (default) or "afl" */
	const char *out_dir;
	const char *seeds_dir;	/* the overflow target's seed corpus; another family's
				 * target's lies beside it, named as the target
				 * (fuzz/corpora/tasklet), when there */
	int value_profile;	/* -use_value_profile=1 */
	int no_leak;		/* TH_FUZZ_NO_LEAK=1: the attacker without a leak */
	unsigned long seed;	/* engine seed of the first run; 0: from the clock */
	const char *version;
	/* The caller's screen; NULL: nothing shown (and the campaigns' stats
	 * read only at the end). show_start: the run's directory is made and
	 * it begins; show_progress: every second on a terminal, every ten
	 * otherwise, and once more (final) when the engines have stopped. */
	void (*show_start)(int runnable, size_t unsupported, int jobs, void *arg);
	void (*show_progress)(const struct th_fz_progress *p, int final, void *arg);
	void *show_arg;
};

/* A run: its options, its build, its directory and its campaigns, planned
 * (loops/campaign.c). */
struct th_fz_run;

/* Plan the campaigns from the build (o must outlive the run): the
 * selection, the seed corpus; DIR made. Nothing else in DIR is read or
 * written. Return: 0 (*r set), 2 bad input (an unknown selection, no
 * build), 1 DIR cannot be made; each said on stderr. */
int th_fz_campaigns_plan(const struct th_fz_opts *o, struct th_fz_run **r);

/* Run them, with DIR locked by the caller, and fill *summary with the
 * model of DIR/fuzz.json for the caller to write (partial when
 * interrupted); *summary is NULL when it could not be made (said on
 * stderr) or the run did not start. Return: 0 done, 1 the run's directory
 * could not be made (said), 130 interrupted. */
int th_fz_campaigns_run(struct th_fz_run *r, struct th_fz_summary **summary);

/* Once DIR/fuzz.json names this run: remove the runs under DIR/fuzz/ it
 * does not name (only directories named as runs, never anything else). */
void th_fz_campaigns_prune(const struct th_fz_run *r);

/* This run's directory, "fuzz/<id>" relative to DIR (fuzz.json's "run"). */
const char *th_fz_campaigns_run_dir(const struct th_fz_run *r);

/* The i-th campaign of the plan (i < th_fz_campaigns_count()), as the run
 * recorded it; *nfindings: its findings. */
size_t th_fz_campaigns_count(const struct th_fz_run *r);
const struct th_fz_campaign *th_fz_campaigns_record(const struct th_fz_run *r, size_t i, int *nfindings);

void th_fz_campaigns_free(struct th_fz_run *r);


#endif

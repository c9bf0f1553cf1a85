/* SPDX-License-Identifier: MIT */
/*
 * fuzz.json, schema timerharness/fuzz/v1: what `timerharness fuzz` found,
 * beside results.json. Written by the campaign loop (loops/campaign.c), read
 * by `check` (check_fuzz.c) and the renderers (render_fuzz.c); nothing else is
 * a source of truth for campaigns.
 *
 * File layout (keys in this order; every key is required, null where noted):
 *   schema          "timerharness/fuzz/v1"
 *   version         timerharness version
 *   created         UTC, "YYYY-MM-DDTHH:MM:SSZ"
 *   partial         bool: interrupted, or still running
 *   interrupted     why partial ("SIGINT", "running"), or null
 *   host            {hostname, kernel, cpus}
 *   budget_seconds  the time budget of each campaign
 *   goal            the exact hijack timed separately: "write_cr4(0x407f0)"
 *   selection       {targets, variants, configs, toolchains, planned}: what the
 *                   run was asked for (--target, --variant, --config,
 *                   --toolchain, as given), each null when not asked: a slice
 *                   when any is set; planned (optional, false when absent):
 *                   the run was asked for this slice as its plan (fuzz
 *                   --slice), so check judges it by it without
 *                   --fuzz-allow-slice
 *   run             "fuzz/<id>": the directory, relative to the file's, that
 *                   holds this run's campaigns and nothing else's
 *   campaigns       [{
 *     target        "overflow" (the timer's victim world) or another API
 *                   family's name ("tasklet": fuzz/tasklet/): th_fz_target_api()
 *     api           the API family of its victim (results/api.def: "timer",
 *                   "tasklet"), the target's (optional when reading: a
 *                   campaign without it is the timer's)
 *     variant       legacy | transitional | modern
 *     config        cfi/configs.tsv name
 *     toolchain     "clang-22"
 *     engine        "libfuzzer" | "afl"
 *     status        "ran" | "unsupported" | "failed"
 *     reason        why not "ran" (or ""), e.g. "clang 14 < 16 required by kcfi"
 *     options       the engine's extra options, "" if none
 *     seconds       wall time the campaign ran
 *     cpu_seconds   CPU time (user + system) of its engine processes: the
 *                   per-core rate is executions / cpu_seconds
 *     executions    inputs run (the target's own count, every engine process)
 *     exec_per_second
 *     restarts      engine processes started
 *     coverage      {edges, features, corpus}: the engine's last report
 *     first_hijack  {seconds, executions} of the first HIJACKED run, or null
 *     goal_reached  {seconds, executions} of the first hijack of `goal`, or null
 *     outcomes      {OUTCOME: count}: every run, by the oracle's outcome
 *     rechecked     engine artifacts replayed in a fresh process
 *     disagreements of those, how many replayed to another signature
 *     findings      [{sig, outcome, chain_id, first_seconds, first_executions,
 *                     reproducer (path relative to the file's directory:
 *                       <run>/<toolchain>/[<target>-]<variant>-<config>[-afl]/
 *                       findings/<OUTCOME>-<CHAIN_ID>.bin, the target's name
 *                       for every target but overflow),
 *                     sha256 (of the reproducer's bytes, 64 lower-case hex),
 *                     replayed (outcome of the fresh-process replay: the
 *                       finding's own outcome, which is what it replayed to),
 *                     reproduced (bool: the run reported the same signature),
 *                     chain}]
 *   }]
 * Names are validated (variant, outcome, sig = OUTCOME:CHAIN_ID with the same
 * outcome), counts are non-negative, outcomes sum to executions, a finding's
 * outcome is HIJACKED, PRIVILEGED_WRITE or REDIRECTED, one campaign per (target, variant,
 * config, toolchain, engine), one finding per sig in a campaign. Unknown
 * fields are errors. And every field is held to what the writer makes of
 * it (th_fz_summary_load() says which and where): a campaign that did not
 * run (unsupported) has no executions, restarts, artifacts or findings; one
 * that ran was started (restarts >= 1); a first hit (first_hijack,
 * goal_reached, a finding's first_executions and first_seconds) lies within
 * the campaign's executions and time; first_hijack is there exactly when
 * HIJACKED runs were counted; a finding the run reported (reproduced) was
 * counted under its outcome, and (unless a replay disagreed with its run,
 * or the summary is partial) runs counted HIJACKED, PRIVILEGED_WRITE or REDIRECTED
 * have a finding of that outcome; findings <= rechecked artifacts; replayed is
 * the finding's outcome; exec_per_second is executions / seconds; the
 * reproducer lies where the writer puts it.
 */
#ifndef TH_RESULTS_FUZZ_SUMMARY_H
#define TH_RESULTS_FUZZ_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "outcome.h"
#include "results.h"

#define TH_FUZZ_SCHEMA "timerharness/fuzz/v1"
/* The summary's name, beside results.json. */
#define TH_FUZZ_FILE "fuzz.json"

struct th_fz_first {
	bool reached;
	double seconds;
	long long executions;
};

struct th_fz_finding {
	char *sig;		/* "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER" */
	enum th_outcome outcome;
	char *chain_id;		/* "WRITE_CR4_VIA_FORGED_TIMER" */
	double first_seconds;
	long long first_executions;
	char *reproducer;	/* relative to the summary's directory */
	char sha256[65];	/* of the reproducer's bytes: 64 lower-case hex digits */
	enum th_outcome replayed;
	bool reproduced;
	char *chain;
};

struct th_fz_campaign {
	char *target, *config, *toolchain, *engine, *status, *reason, *options;
	enum th_variant variant;
	enum th_api api;	/* th_fz_target_api(target); TH_API_TIMER (0) when not
				 * set */
	double seconds, cpu_seconds, exec_per_second;
	long long executions, restarts, rechecked, disagreements;
	long long edges, features, corpus;
	struct th_fz_first first_hijack, goal_reached;
	long long outcomes[TH_OUTCOME_COUNT];
	struct th_fz_finding *findings;
	size_t nfindings, cap_findings_;
};

struct th_fz_summary {
	char *version, *created;
	bool partial;
	char *interrupted;
	struct {
		char *hostname, *kernel;
		int cpus;
	} host;
	double budget_seconds;
	char *goal;
	/* What the run was asked for, as given; NULL: not asked (everything). */
	struct {
		char *targets, *variants, *configs, *toolchains;
		bool planned;	/* fuzz --slice: this slice is the run's plan */
	} selection;
	char *run;		/* "fuzz/<id>", relative to the summary's directory */
	struct th_fz_campaign *campaigns;
	size_t ncampaigns, cap_campaigns_;
};

/* The API family whose victim a fuzz target attacks: "overflow" the
 * timer's (its name from before the families), every other family's
 * target its own name ("tasklet"). TH_API_INVALID: no such target. A third
 * family's campaigns are a world folder (fuzz/<api>/) and rows, named
 * by results/api.def. */
enum th_api th_fz_target_api(const char *target);
/* A fuzz target's name for family a ("overflow", "tasklet"). */
const char *th_fz_api_target(enum th_api a);

/* An empty summary (created now, this host), with a new run directory
 * (th_fz_run_new()). NULL when out of memory. */
struct th_fz_summary *th_fz_summary_create(const char *version, double budget_seconds,
					   const char *goal);
/* Set a selection list (NULL: not asked). Return: 0, or -1 out of memory. */
int th_fz_summary_set_selection(struct th_fz_summary *s, const char *targets, const char *variants,
				const char *configs, const char *toolchains);
/* Was the run asked for part of the plan (--target, --variant, --config,
 * --toolchain)? */
bool th_fz_summary_is_slice(const struct th_fz_summary *s);
/* A new run directory, "fuzz/<YYYYMMDD>T<HHMMSS>Z-<pid>", into buf. Return: buf. */
char *th_fz_run_new(char *buf, size_t n);
/* Is name the last part of a run directory's ("<YYYYMMDD>T<HHMMSS>Z-<pid>")?
 * The campaign runner removes only those. */
bool th_fz_run_dir_name(const char *name);
/* Set the run directory ("fuzz/" and a th_fz_run_dir_name()).
 * Return: 0, or -1 with err. */
int th_fz_summary_set_run(struct th_fz_summary *s, const char *run, char *err, size_t errlen);
/* Where the writer puts a finding's reproducer, relative to the summary's
 * directory: "<run>/<toolchain>/[<target>-]<variant>-<config>[-afl]/findings/
 * <OUTCOME>-<CHAIN_ID>.bin" (the target's name but for overflow's). Return:
 * buf ("" when it does not fit). */
/* A campaign's folder, relative to the summary's directory:
 * "<run>/<toolchain>/[<target>-]<variant>-<config>[-afl]" (the target's
 * name for every target but overflow; -afl for an engine other than
 * libfuzzer). Return: buf ("" when it does not fit). */
char *th_fz_campaign_dir(const char *run, const char *toolchain, const char *target, const char *variant,
			 const char *config, const char *engine, char *buf, size_t n);
char *th_fz_reproducer_path(const struct th_fz_summary *s, const struct th_fz_campaign *c,
			    const char *sig, char *buf, size_t n);
void th_fz_summary_free(struct th_fz_summary *s);

/* Add a campaign: strings copied; findings added with th_fz_campaign_add_finding().
 * Return: the campaign (valid until the next add or free), NULL with err. */
struct th_fz_campaign *th_fz_summary_add_campaign(struct th_fz_summary *s,
						  const struct th_fz_campaign *in,
						  char *err, size_t errlen);
/* Return: 0, or -1 with err (a duplicate sig, a sig that is not OUTCOME:CHAIN_ID). */
int th_fz_campaign_add_finding(struct th_fz_campaign *c, const struct th_fz_finding *in,
			       char *err, size_t errlen);

/* Write atomically after validating as th_fz_summary_load() would.
 * Return: 0, or -1 with err (path untouched). */
int th_fz_summary_write(const struct th_fz_summary *s, const char *path, char *err, size_t errlen);

/* Read and strictly validate. Errors name the file and the place
 * ("out/fuzz.json: campaigns[2].outcomes: unknown outcome \"FOO\"").
 * Return: 0 with *out set, or -1 with err. */
int th_fz_summary_load(const char *path, struct th_fz_summary **out, char *err, size_t errlen);

/* "<dir of results_path>/fuzz.json" into buf. Return: buf. */
char *th_fz_summary_beside(const char *results_path, char *buf, size_t n);

/*
 * The steps of a chain ID (fuzz/overflow_oracle.h): every target that ran,
 * and the privileged write no target made, in order. One step alone is the
 * chain ID, its outcome the finding's; several are each WHAT_VIA_HOW
 * followed by _HIJACKED, _PRIVILEGED_WRITE or _REDIRECTED (their own
 * outcome), joined by _THEN_.
 */
#define TH_FZ_STEPS_MAX 32
/* What joins a chain ID's steps (fuzz/overflow_oracle.h: chain IDs). */
#define TH_FZ_CHAIN_SEP "_THEN_"
struct th_fz_step {
	char id[96];		/* WHAT_VIA_HOW: "WRITE_CR4_VIA_RING_TIMER" */
	enum th_outcome outcome;
};
/* Split chain_id (of a finding whose outcome is o) into out[max].
 * Return: the number of steps; 0 for "-" or an ID that is not steps (a
 * step without its outcome among several, _THEN_MORE: more than the
 * oracle could name), which no rule declares. */
size_t th_fz_chain_steps(const char *chain_id, enum th_outcome o, struct th_fz_step *out, size_t max);

/* A hijack through the timer's own call: a HIJACKED step of a privileged
 * target through the ring's .function, a forged timer's, or one the oracle
 * could not name (not another subsystem's callback, PROCESS_TIMEOUT_*). */
bool th_fz_direct_hijack(const struct th_fz_finding *f);

/* A HIJACKED step through another subsystem's timer callback of the call
 * site's type (process_timeout, PROCESS_TIMEOUT_*: the attacker's task
 * woken). */
bool th_fz_foreign_hijack(const struct th_fz_finding *f);

/* What the campaigns of one API generation found, in figures (the verdict
 * card and screen): the campaigns that ran, under how many of them the
 * timer's own call was hijacked (th_fz_direct_hijack) and the earliest
 * first time, under how many another subsystem's callback was, and the
 * runs and CFI blocks of all of them. */
struct th_fz_generation {
	size_t configs, own, foreign;
	long long runs, blocks;
	double first;		/* seconds; < 0 when own == 0 */
};

/* Fill g for variant v of API family a (the campaigns of its target). Return:
 * g->configs (0: no campaign of it ran). */
size_t th_fz_generation(const struct th_fz_summary *s, enum th_api a, enum th_variant v,
			struct th_fz_generation *g);

/* Is the own call of variant v of family a (the timer's, the tasklet's)
 * never HIJACKED by construction of the oracle (fuzz/overflow_oracle.c
 * judge_slot())? The modern layouts have no .data: the call passes the
 * timer (the tasklet) itself, never bytes the attacker wrote,
 * so only another subsystem's callback that reads beyond the timer
 * (process_timeout's process_timer->task, the word after it) can carry the
 * attacker's choice. A figure of "never hijacked" there says
 * so beside it. */
bool th_fz_own_call_by_construction(enum th_api a, enum th_variant v);

/* What the campaigns of variant v of family a still reached under CFI: the steps of
 * their findings (but a HIJACKED one through another subsystem's callback,
 * said apart), from the campaigns in which a CFI check stopped some runs
 * (BLOCKED_CFI or FALSE_POSITIVE counted: observed, not named in advance),
 * each once. */
struct th_fz_reach {
	char step[96];		/* "CRED_VIA_LIST" */
	enum th_outcome outcome;	/* the most severe the step had */
	char changed[96];	/* "uid 0, gid 0": the fields as a run of that step
				 * alone left them (its chain), or "" */
	char configs[256];	/* "cfi-icall, kcfi" (config/toolchain with several) */
	char label[192];	/* "uid 0, gid 0 via the list's writes",
				 * "ring_force_close redirected", "CR4 0x2c via
				 * write_cr4" */
};
/* Fill out[max]; *ncfi: the campaigns of v under CFI. Return: how many. */
size_t th_fz_reach(const struct th_fz_summary *s, enum th_api a, enum th_variant v, struct th_fz_reach *out,
		   size_t max, size_t *ncfi);
/* The labels of r[0..nr) (th_fz_reach()'s), each once, in its order: two
 * chains can end in the same words (process_timeout redirected directly and
 * through the list). Fill labels[max] (pointers into r). Return: how many. */
size_t th_fz_reach_labels(const struct th_fz_reach *r, size_t nr, const char **labels, size_t max);

/* Is o a finding's outcome: a privileged target ran (HIJACKED, REDIRECTED)
 * or the privileged state changed (PRIVILEGED_WRITE)? */
bool th_fz_is_finding(enum th_outcome o);

/*
 * One sentence on what the campaigns of variant v of family a found, plain
 * text, led by the variant's name (another family's: "tasklet legacy: "):
 * where the timer's (the tasklet's) own call was hijacked (the ring's
 * .function or a forged timer's; the neighbour's func/callback or a forged
 * tasklet's; on the tasklet's transitional, the downgrade: use_callback
 * cleared) and how soon, where it was not and after how many executions and
 * CFI blocks (on 4.15, that this holds by construction, and what the
 * campaigns under CFI still reached: th_fz_reach()); where another
 * subsystem's callback was; the PRIVILEGED_WRITE and REDIRECTED chains. buf is empty (return 0) when no campaign of v ran.
 * Return: its length.
 */
size_t th_fz_verdict(const struct th_fz_summary *s, enum th_api a, enum th_variant v, char *buf, size_t n);

#endif

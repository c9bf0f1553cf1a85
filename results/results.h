/* SPDX-License-Identifier: MIT */
/*
 * The results model and results.json, schema timerharness/results/v1
 * (docs/results.md). Every renderer and `timerharness check` read this
 * model or the file; nothing else is a source of truth.
 *
 * File layout (keys in this order; every key is required but expectations,
 * selection, shard, platforms and agreement, and a cell's seconds, rerun,
 * expected_line, platform and expected_set, which files written before them
 * lack):
 *   schema       "timerharness/results/v1"
 *   version      timerharness version string
 *   created      UTC, "YYYY-MM-DDTHH:MM:SSZ"
 *   partial      bool: the run was interrupted
 *   interrupted  reason string, or null
 *   host         {hostname, kernel (uname -r), cpus}
 *   expectations {path, sha256}: the declared expectations the run judged its
 *                cells by (the matrix's --expect, as given) and the SHA-256 of
 *                the bytes it read. Optional in the schema; `check` refuses
 *                results without it.
 *   selection    {toolchains, configs, variants, attacks: [names] or null for
 *                all (attacks: the --attack globs), selftests: bool}: what the
 *                matrix was asked to run. Any list not null makes the file a
 *                slice, which `check` judges as one only with --allow-slice.
 *                Optional in the schema; `check` refuses results without it.
 *   shard        {count, indexes: [i, ...]}: the file holds the cells of
 *                these shards (1..count) of its selection only (matrix
 *                --shard I/N, or a merge of some of the shards); absent when
 *                it holds them all. A shard is a slice to `check`.
 *   toolchains   [{name, version, path}]
 *   configs      [{name, flags, description,
 *                  support: {<toolchain>: {supported, reason}}}]
 *   platforms    optional: [{name, source, compiler, qemu, cpu,
 *                  configs: [{name, kconfig}], boot_seconds_median}], one
 *                per real-kernel platform its cells ran on (the model's own
 *                userspace builds, platform "model", have none); written
 *                when there is one
 *   metrics      {<name>: number | string}. The matrix writes:
 *                run_seconds (wall time of the whole run: plan, probes, cells),
 *                run_cpu_seconds (user + system CPU of the runner and every
 *                child it waited for, over the same span), runs, jobs,
 *                cells_total, cells_<OUTCOME>, and build_seconds_<toolchain>
 *                (wall time of that build tree's cold build, configure
 *                included, as `make build` measured it when the tree was
 *                empty; absent when not measured) with build_seconds their
 *                sum when every toolchain of the run has one.
 *   cells        [{attack, technique, timing, payload, variant, config,
 *                  toolchain, platform, outcome, runs, counts: {OUTCOME: n}, evidence,
 *                  expected (OUTCOME or null), expected_set (only for a
 *                  probabilistic cell's declared set: [OUTCOME, ...], most
 *                  severe first, its first expected), verdict, seconds (wall time
 *                  of its runs, summed), rerun (the command that runs this
 *                  cell alone), expected_line (the line of the expectations
 *                  file that declares it, or null)}]
 *   reach        optional: what the timer dispatch can still call, per
 *                toolchain, variant and config (results/reach.h)
 *   agreement    optional: [{attack, variant, config, toolchain, platform,
 *                  model_outcome, kernel_outcome, agrees, reason, rule}]: a
 *                row per real-kernel cell whose (attack, variant, config,
 *                toolchain) is also a model cell (th_results_agreement);
 *                written as stored (th_results_set_agreement stores it);
 *                `check` recomputes it and refuses a stored one that differs
 *
 * A cell's platform: "model" (the userspace model, every cell of a file
 * written before platforms) or "linux-<release>" (a real kernel booted
 * under QEMU, declared in platforms). A file without any "platform" field
 * and without platforms loads as the model's; once a cell or the file has
 * one, every cell must say its platform.
 *
 * Output is deterministic: toolchains by name (clang-9 < clang-14), configs
 * in the order they were added, cells by (platform: the model first, then
 * by name; toolchain, variant, config in that order, attack), platforms by
 * name, metrics by name, counts in severity order, agreement rows in the
 * order of their real-kernel cells.
 *
 * Ownership: the model owns copies of every string handed to it. Read the
 * structs freely; change them only through the functions below (they keep
 * the cell index and the verdicts consistent). No function exits or prints:
 * each failing call returns -1 (or NULL) and writes a message to err.
 */
#ifndef TH_RESULTS_H
#define TH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "outcome.h"

#define TH_RESULTS_SCHEMA "timerharness/results/v1"

enum th_variant {
	TH_VARIANT_LEGACY,
	TH_VARIANT_TRANSITIONAL,
	TH_VARIANT_MODERN,
	TH_VARIANT_COUNT,
	TH_VARIANT_INVALID = -1
};

/* "legacy", "transitional", "modern"; NULL when invalid. */
const char *th_variant_name(enum th_variant v);
enum th_variant th_variant_parse(const char *s);

/* The API families (results/api.def, one row each): a cell's "api". */
enum th_api {
#define X(id, name, folder, dispatch, kstruct) TH_API_##id,
#include "api.def"
#undef X
	TH_API_COUNT,
	TH_API_INVALID = -1
};

/* "timer", "tasklet"; NULL when invalid. */
const char *th_api_name(enum th_api a);
enum th_api th_api_parse(const char *s);
/* The family's dispatch function (call_timer_fn, tasklet_action_common):
 * where its callback is called through a pointer. NULL when invalid. */
const char *th_api_dispatch(enum th_api a);
/* "timer, tasklet": every name, for a message. */
const char *th_api_names(void);

enum th_verdict {
	TH_VERDICT_PASS,
	TH_VERDICT_REGRESSION,
	TH_VERDICT_IMPROVEMENT,
	TH_VERDICT_NEW,
	TH_VERDICT_COUNT,
	TH_VERDICT_INVALID = -1
};

/* "pass", "regression", "improvement", "new"; NULL when invalid. */
const char *th_verdict_name(enum th_verdict v);
enum th_verdict th_verdict_parse(const char *s);

/**
 * th_verdict() - judge one observed outcome.
 * @observed: what the cell did.
 * @expected: the declared expectation, TH_OUTCOME_INVALID when none.
 * @baseline: the same cell's outcome in a baseline file, TH_OUTCOME_INVALID
 *            when there is no baseline or no such cell in it.
 *
 * Regression: HARNESS_ERROR (nothing was observed); observed more severe
 * than expected or than the baseline; a FALSE_POSITIVE the baseline did not
 * have; UNSUPPORTED/NOT_APPLICABLE where the expectation or the baseline is
 * a real outcome (a toolchain lost a defence). Otherwise:
 * UNSUPPORTED/NOT_APPLICABLE observed -> pass; no expectation -> new; less
 * severe than expected -> improvement; a real outcome where UNSUPPORTED or
 * NOT_APPLICABLE was expected -> new (nothing was declared for it); else pass.
 *
 * Return: the verdict.
 */
enum th_verdict th_verdict(enum th_outcome observed, enum th_outcome expected,
			   enum th_outcome baseline);

/**
 * th_verdict_set() - judge a cell against a declared set of outcomes.
 * @observed: what the cell did (the most severe over its runs).
 * @seen:     every outcome a run of it showed (observed's bit included).
 * @expected: the declared set (0: none declared); one member is
 *            th_verdict()'s single expectation.
 * @baseline: as for th_verdict().
 *
 * As th_verdict(), the expectation being the set: a run more severe than
 * every member, or a real outcome the set does not name that is not less
 * severe than every member (HANG where HIJACKED|TIMER_LOST is declared), is
 * a regression; the observed outcome less severe than every member is an
 * improvement; one of the set is a pass.
 */
enum th_verdict th_verdict_set(enum th_outcome observed, th_outcome_set seen,
			       th_outcome_set expected, enum th_outcome baseline);

struct th_toolchain {
	char *name;		/* "clang-14": the name cells refer to */
	char *version;		/* "14.0.6" */
	char *path;		/* "/usr/bin/clang-14", or "" */
};

struct th_support {
	char *toolchain;
	bool supported;
	char *reason;		/* why (not) supported; "" when none given */
};

struct th_config {
	char *name;		/* "cfi-icall" */
	char *flags;		/* "-flto -fvisibility=hidden -fsanitize=cfi-icall" */
	char *description;
	struct th_support *support;
	size_t nsupport;
	size_t cap_support_;
};

/* The userspace model's platform: every cell of the matrix. */
#define TH_PLATFORM_MODEL "model"

/* "model", or "linux-" and a release of letters, digits and ._+~- . */
bool th_platform_name_valid(const char *s);
/* s is "model" (NULL too: what a cell_in without platform means). */
bool th_platform_is_model(const char *s);

struct th_cell {
	char *attack;		/* upper-case ID */
	char *technique;	/* "memcpy-intra", ... */
	char *timing;		/* "before-arm", "pending" or "-" */
	char *payload;		/* "func+data:write_cr4", ... */
	enum th_api api;	/* the family its victim is (TH_API_TIMER: a file
				 * without "api") */
	enum th_variant variant;
	char *config;
	char *toolchain;
	enum th_outcome outcome;	/* the most severe over the runs */
	unsigned runs;
	unsigned counts[TH_OUTCOME_COUNT];	/* sums to runs */
	char *evidence;
	enum th_outcome expected;	/* TH_OUTCOME_INVALID: none declared; with a set,
					 * its most severe member */
	th_outcome_set expected_set;	/* the declared set when it has more than one
					 * member (results.json's expected_set); else 0 */
	enum th_verdict verdict;	/* as stored; check recomputes it */
	double seconds;			/* wall time of its runs; < 0: not recorded */
	char *rerun;			/* command running it alone; "" when none */
	unsigned expected_line;		/* its rule's line; 0: none (or not recorded) */
	char *platform;			/* "model" or "linux-<release>" (th_platform) */
};

/* One kernel config a real-kernel platform's cells ran under: the results'
 * config of that name, as the kernel's Kconfig says it. */
struct th_platform_config {
	char *name;		/* "kcfi": a config of the results */
	char *kconfig;		/* "CONFIG_CFI_CLANG=y" */
};

/* A real-kernel platform (the results' "platforms" section). */
struct th_platform {
	char *name;		/* "linux-6.1.192" */
	char *source;		/* "Debian linux-source-6.1 6.1.192-3" */
	char *compiler;		/* "clang version 22.1.8 ..." */
	char *qemu;		/* "QEMU emulator version 7.2.15" */
	char *cpu;		/* QEMU's -cpu: "max" */
	struct th_platform_config *configs;
	size_t nconfigs;
	double boot_seconds_median;	/* < 0: not recorded */
	size_t cap_configs_;
};

/* What th_results_add_platform() copies from; strings are borrowed. */
struct th_platform_in {
	const char *name;	/* "linux-<release>" */
	const char *source, *compiler, *qemu, *cpu;	/* NULL means "" */
	double boot_seconds_median;	/* < 0: not recorded */
};

/*
 * A row of the agreement: a real-kernel cell beside the model's cell of
 * the same (attack, variant, config, toolchain).
 */
struct th_agreement {
	char *attack;
	enum th_variant variant;
	char *config;
	char *toolchain;
	char *platform;			/* the kernel cell's */
	enum th_outcome model;		/* th_cell_observed() of the model's cell */
	enum th_outcome kernel;		/* ... and of the kernel's */
	bool agrees;			/* model == kernel */
	char *reason;			/* a declared difference's reason; NULL: none */
	char *rule;			/* where it is declared, "FILE:LINE"; NULL: none */
};

enum th_metric_type { TH_METRIC_INT, TH_METRIC_REAL, TH_METRIC_STRING };

struct th_metric {
	char *name;
	enum th_metric_type type;
	long long i;
	double d;
	char *s;
};

struct th_cell_index;
struct th_reach_section;	/* results/reach.h */

/* What the matrix was asked to run: comma-separated lists as given, NULL
 * for everything (attacks: fnmatch globs on attack IDs, case-insensitive). */
struct th_selection {
	char *toolchains;
	char *configs;
	char *variants;
	char *attacks;
	bool selftests;		/* SELFTEST_* cells added */
};

/* Which shards of its selection a file holds (th_shard_of). count 0: all. */
struct th_shard {
	unsigned count;
	unsigned *indexes;	/* sorted, distinct, each 1..count */
	size_t nindexes;
};

struct th_fz_summary;
struct th_bench_set;

struct th_results {
	char *version;
	char *created;
	bool partial;
	char *interrupted;	/* NULL unless partial */
	struct {
		char *hostname;
		char *kernel;
		int cpus;
	} host;
	/* The expectations file the run used; both NULL when not recorded. */
	char *expect_path;
	char *expect_sha256;	/* 64 lower-case hex digits */
	bool has_selection;	/* false: not recorded */
	struct th_selection selection;
	struct th_shard shard;
	struct th_toolchain *toolchains;
	size_t ntoolchains;
	struct th_config *configs;
	size_t nconfigs;
	struct th_cell **cells;	/* insertion order; pointers stay valid */
	size_t ncells;
	struct th_metric *metrics;
	size_t nmetrics;
	/* The optional "reach" section (results/reach.h); NULL when absent. */
	struct th_reach_section *reach;
	/* The sections kept in files beside results.json, read by
	 * th_results_load_fuzz_beside() and th_results_load_bench_beside(): the
	 * campaigns (fuzz.json, results/fuzz_summary.h) and the bench's figures
	 * (bench.json, bench-configs-*.json; results/bench_figures.h). NULL:
	 * none beside, or not read. Owned: th_results_free() frees them. */
	struct th_fz_summary *fuzz;
	struct th_bench_set *bench;
	/* Real-kernel platforms, by th_results_add_platform(). */
	struct th_platform *platforms;
	size_t nplatforms;
	/* The agreement as stored (loaded, or by th_results_set_agreement);
	 * has_agreement false: none stored. What it should be is
	 * th_results_agreement()'s. */
	struct th_agreement *agreement;
	size_t nagreement;
	bool has_agreement;
	/* private */
	size_t cap_toolchains_, cap_configs_, cap_cells_, cap_metrics_, cap_platforms_,
	       cap_agreement_;
	struct th_cell_index *index_;
	/* A renderer's view (report_internal.h): the results it shows part of,
	 * and the one platform whose cells it holds; NULL for a model itself. */
	const struct th_results *origin_;
	const char *view_platform_;
};

/* What th_results_add_cell() copies from; strings are borrowed. */
struct th_cell_in {
	const char *attack;
	const char *technique;
	const char *timing;	/* NULL means "-" */
	const char *payload;
	enum th_variant variant;
	const char *config;	/* must have been added */
	const char *toolchain;	/* must have been added */
	/* Observed outcome. With counts == NULL it is counted runs times (runs
	 * 0: never ran, e.g. UNSUPPORTED). With counts, it may be
	 * TH_OUTCOME_INVALID (computed) and must otherwise be their most severe. */
	enum th_outcome outcome;
	unsigned runs;		/* with counts: 0 or their sum */
	const unsigned *counts;	/* [TH_OUTCOME_COUNT] or NULL */
	const char *evidence;	/* NULL means "" */
	enum th_outcome expected;	/* TH_OUTCOME_INVALID: none declared */
	double seconds;		/* wall time of its runs; 0 when it never ran */
	const char *rerun;	/* NULL means "" */
	unsigned expected_line;	/* 0: none */
	/* NULL means "model"; any other must have been added
	 * (th_results_add_platform), with config among its configs. */
	const char *platform;
	/* A declared set of outcomes (more than one member; expected becomes
	 * its most severe), or 0: expected alone. */
	th_outcome_set expected_set;
	/* The family (results/api.def); 0, TH_API_TIMER, when not set. Last, so
	 * that a positional initializer of the fields above still reads. */
	enum th_api api;
};

/**
 * th_results_create() - an empty model.
 * @version: timerharness version written to the file.
 *
 * created is set to now, host to this machine (uname, online CPUs); both can
 * be overridden. Return: the model, NULL when out of memory.
 */
struct th_results *th_results_create(const char *version);
void th_results_free(struct th_results *res);

int th_results_set_created(struct th_results *res, const char *iso_utc,
			   char *err, size_t errlen);
int th_results_set_host(struct th_results *res, const char *hostname,
			const char *kernel, int cpus, char *err, size_t errlen);
/* partial = true needs a reason ("SIGINT", "time budget"...). */
int th_results_set_partial(struct th_results *res, bool partial,
			   const char *reason, char *err, size_t errlen);

/* Record the expectations file (path as given, sha256 as 64 hex digits). */
int th_results_set_expectations(struct th_results *res, const char *path,
				const char *sha256, char *err, size_t errlen);
/* Record the selection (copied; each list non-empty, without empty items). */
int th_results_set_selection(struct th_results *res, const struct th_selection *sel,
			     char *err, size_t errlen);
/* The selection restricts something: the file is a slice. */
bool th_selection_is_slice(const struct th_selection *sel);
/* Record which shards the file holds (count 0: all; indexes copied, sorted,
 * each 1..count, no duplicate). */
int th_results_set_shard(struct th_results *res, unsigned count, const unsigned *indexes,
			 size_t n, char *err, size_t errlen);
/* The file holds part of its plan only: a slice, or some shards. */
bool th_results_is_slice(const struct th_results *res);

/**
 * th_shard_of() - the shard (1..count) a cell belongs to.
 *
 * FNV-1a (64 bit) of "attack/variant/config/toolchain", modulo count, plus
 * one: a cell's shard depends on the cell alone, never on what else is
 * planned, so every machine of a CI job matrix splits the plan the same way.
 * This function is part of the results contract (docs/results.md): changing
 * it moves cells between shards.
 */
unsigned th_shard_of(const char *attack, const char *variant, const char *config,
		     const char *toolchain, unsigned count);
/* "I/N" with 1 <= I <= N <= TH_SHARD_MAX. Return: 0, or -1 with err set. */
int th_shard_parse(const char *s, unsigned *index, unsigned *count, char *err, size_t errlen);
#define TH_SHARD_MAX 1024
/* Does the file hold cell (attack, ...) by its shard? true when not sharded. */
bool th_results_holds_shard(const struct th_results *res, const char *attack,
			    enum th_variant v, const char *config, const char *toolchain);

/* Names are unique; adding one twice is an error. */
int th_results_add_toolchain(struct th_results *res, const char *name,
			     const char *version, const char *path,
			     char *err, size_t errlen);
int th_results_add_config(struct th_results *res, const char *name,
			  const char *flags, const char *description,
			  char *err, size_t errlen);
/* Set (or replace) whether config is supported by toolchain, and why. */
int th_results_set_support(struct th_results *res, const char *config,
			   const char *toolchain, bool supported,
			   const char *reason, char *err, size_t errlen);

/**
 * th_results_add_platform() - declare a real-kernel platform.
 *
 * Its name is "linux-<release>" (th_platform_name_valid; never "model": the
 * model needs no declaration), unique. Its kernel configs are added with
 * th_results_add_platform_config(). Return: 0, or -1 with err set.
 */
int th_results_add_platform(struct th_results *res, const struct th_platform_in *in,
			    char *err, size_t errlen);
/* A kernel config platform's cells run under: config must be a config of
 * the results (th_results_add_config), once per platform. */
int th_results_add_platform_config(struct th_results *res, const char *platform,
				   const char *config, const char *kconfig,
				   char *err, size_t errlen);
/* The platform entry, NULL for "model" or one not added. */
const struct th_platform *th_results_find_platform(const struct th_results *res,
						   const char *name);
/* The platform's entry for config, NULL when it has none. */
const struct th_platform_config *th_platform_find_config(const struct th_platform *p,
							 const char *config);

/**
 * th_results_add_cell() - add one measured cell.
 *
 * Validates names (declared toolchain and config, known variant and timing,
 * upper-case attack ID, a platform that is "model" or added, with the
 * cell's config among its configs) and refuses a second cell with the same
 * (platform, attack, variant, config, toolchain): the same attack, variant,
 * config and toolchain on the model and on a real kernel are two cells.
 * The stored verdict is computed from outcome and expected (no baseline).
 * Amortised O(1).
 *
 * Return: the cell (valid until th_results_free), NULL on error.
 */
struct th_cell *th_results_add_cell(struct th_results *res,
				    const struct th_cell_in *in,
				    char *err, size_t errlen);
/* Count one more run of a cell (randstruct seeds); keeps outcome the most
 * severe and the verdict current. */
int th_cell_record_run(struct th_cell *cell, enum th_outcome o,
		       char *err, size_t errlen);
int th_cell_set_evidence(struct th_cell *cell, const char *evidence,
			 char *err, size_t errlen);
int th_cell_set_rerun(struct th_cell *cell, const char *rerun, char *err, size_t errlen);

/* Set (or replace) a metric. */
int th_results_set_metric_int(struct th_results *res, const char *name,
			      long long v, char *err, size_t errlen);
int th_results_set_metric_real(struct th_results *res, const char *name,
			       double v, char *err, size_t errlen);
int th_results_set_metric_string(struct th_results *res, const char *name,
				 const char *v, char *err, size_t errlen);
/* Set cells_total and cells_<OUTCOME> (every outcome, by observed outcome)
 * over the model's cells: a real-kernel platform's are counted in its own
 * section of the reports and in the agreement. */
int th_results_set_count_metrics(struct th_results *res, char *err,
				 size_t errlen);

const struct th_toolchain *th_results_find_toolchain(const struct th_results *res,
						     const char *name);
const struct th_config *th_results_find_config(const struct th_results *res,
					       const char *name);
/* The support entry, NULL when never probed. */
const struct th_support *th_config_support(const struct th_config *cfg,
					   const char *toolchain);
/* The cell of that key; platform NULL means "model". */
struct th_cell *th_results_find_cell(const struct th_results *res, const char *platform,
				     const char *attack, enum th_variant variant,
				     const char *config, const char *toolchain);

/* The outcome a cell is judged by: HARNESS_ERROR if its outcome field or
 * any counted run says so, else the most severe of its outcome field and of
 * every outcome it counted (a hand-edited file cannot hide a run). */
enum th_outcome th_cell_observed(const struct th_cell *cell);
/* Every outcome a run of the cell showed, the observed one included. */
th_outcome_set th_cell_seen(const struct th_cell *cell);
/* The declared set: expected_set, or {expected} (0 when none declared). */
th_outcome_set th_cell_expected_set(const struct th_cell *cell);
/* "HIJACKED" or "HIJACKED|CRASHED" ("none" when none declared) in buf (n
 * bytes; 200 hold any set); returns buf. */
char *th_cell_expected_text(const struct th_cell *cell, char *buf, size_t n);
/* th_verdict_set() of the cell against its declared set and baseline. */
enum th_verdict th_cell_verdict(const struct th_cell *cell, enum th_outcome baseline);
/* Recompute every stored verdict from observed and expected, against the
 * matching cell (same platform too) of baseline when baseline is not NULL. */
void th_results_apply_baseline(struct th_results *res,
			       const struct th_results *baseline);

/**
 * th_difference_fn - is the difference of a cell pair declared?
 * @model, @kernel: the outcomes observed on the model and on the platform
 *                  (they differ).
 * Return: true with *reason and *rule ("FILE:LINE") set when a declaration
 * names exactly this pair of outcomes for the cell; false otherwise.
 * (attacks/expect.h: th_expect_declared_difference, from expected.tsv's
 * @differs sections.)
 */
typedef bool th_difference_fn(void *ctx, const char *platform, const char *attack,
			      const char *variant, const char *config, const char *toolchain,
			      enum th_outcome model, enum th_outcome kernel,
			      const char **reason, const char **rule);

/**
 * th_results_agreement() - the agreement, computed from the cells.
 * @declared: the declarations; NULL takes them from the stored agreement
 *            (a stored row's reason and rule count only while its outcomes
 *            are the cells' and they differ).
 * @rows:     a malloc'd array (th_agreement_free), NULL when there is none.
 *
 * A row per real-kernel cell whose (attack, variant, config, toolchain) is
 * also a model cell, in output order of the kernel cells: both observed
 * outcomes (th_cell_observed), whether they agree, and for a difference
 * the declaration @declared gives (reason and rule; NULL otherwise). Never
 * reads the stored rows' outcomes. Return: 0, or -1 with err set.
 */
int th_results_agreement(const struct th_results *res, th_difference_fn *declared, void *ctx,
			 struct th_agreement **rows, size_t *nrows, char *err, size_t errlen);
void th_agreement_free(struct th_agreement *rows, size_t n);
/* Compute (as above) and store it: the section results.json will hold
 * (has_agreement true). Return: 0, or -1 with err set (nothing changed). */
int th_results_set_agreement(struct th_results *res, th_difference_fn *declared, void *ctx,
			     char *err, size_t errlen);

/**
 * th_results_replace_platform() - put one platform's cells into dst.
 * @dst:      the results to change (loaded, or th_results_create()d).
 * @src:      a run on @platform: its platforms entry and its cells.
 * @platform: a real-kernel platform of src ("linux-<release>").
 *
 * dst's cells of @platform, its platforms entry and its reach entries (the
 * kernel's call_timer_fn read from its vmlinux) are replaced by src's;
 * every other cell and entry of dst is kept as it was. The toolchains and
 * configs src's cells name that dst lacks are added (with src's support
 * entries dst lacks); a toolchain whose version differs, or a config whose
 * flags or description (or a support entry) differ, is refused, as merge
 * refuses them: the two platforms' cells must name the same things. So are
 * expectations of another SHA-256 than dst records (dst without any takes
 * src's, and src's selection when it has none). When src is partial, dst
 * is too, its interrupted reason naming the platform ("linux-6.1.192:
 * SIGINT"); a reason of that platform's earlier run is dropped. Metrics
 * cells_* are recounted; the stored agreement is recomputed from the cells
 * with the stored declarations (th_results_set_agreement with NULL; the
 * caller sets the checkout's, attacks/expect.h th_expect_judge_results).
 * Pointers to dst's cells are invalid afterwards.
 *
 * Return: 0, or -1 with err set and dst unchanged.
 */
int th_results_replace_platform(struct th_results *dst, const struct th_results *src,
				const char *platform, char *err, size_t errlen);

/**
 * th_results_sorted_cells() - the cells in output order.
 * Return: a malloc'd array of ncells pointers (free() it), NULL on error
 * (or when there are no cells, with *err left empty).
 */
const struct th_cell **th_results_sorted_cells(const struct th_results *res,
					       char *err, size_t errlen);

/**
 * th_results_write() - write results.json atomically.
 *
 * Serialises and validates first (a model th_results_load would reject is
 * not written), then writes path.tmp.<pid>, fsyncs it, renames it over path
 * and fsyncs the directory. Only a regular file is replaced (a symbolic
 * link, a device node, a FIFO or a directory at path is refused), and it
 * keeps its mode. On any failure path is untouched and the temporary file
 * removed. The model is not changed, so a runner may write
 * after every cell and again when interrupted (not from a signal handler:
 * this allocates).
 *
 * Return: 0, or -1 with err set.
 */
int th_results_write(const struct th_results *res, const char *path,
		     char *err, size_t errlen);

/**
 * th_results_load() - read and strictly validate a results file.
 *
 * Errors name the file and the place: "out/results.json: cells[12].outcome:
 * unknown outcome \"FOO\"", "...: not JSON: line 3 column 5: ...". Unknown
 * fields, unknown names (outcome, verdict, variant, timing, toolchains and
 * configs not declared at the top level) and duplicate cells are errors.
 *
 * Return: 0 with *res set (th_results_free it), or -1 with err set.
 */
int th_results_load(const char *path, struct th_results **res,
		    char *err, size_t errlen);

/*
 * The sections beside the results: th_results_load_fuzz_beside() reads the
 * fuzz.json beside results_path into res->fuzz, th_results_load_bench_beside()
 * the bench's files beside it into res->bench (what was there before is
 * freed first). Return: 0 (none there: the section NULL; or read), -1 with
 * err when one is there but does not load (the section NULL).
 */
int th_results_load_fuzz_beside(struct th_results *res, const char *results_path,
				char *err, size_t errlen);
int th_results_load_bench_beside(struct th_results *res, const char *results_path,
				 char *err, size_t errlen);
/* Give res a section (NULL: none); res owns it from now on. */
void th_results_set_fuzz(struct th_results *res, struct th_fz_summary *s);
void th_results_set_bench(struct th_results *res, struct th_bench_set *s);

#endif

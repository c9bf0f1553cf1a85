/* SPDX-License-Identifier: MIT */
/*
 * The bench's figures beside results.json, read strictly: what
 * `timerharness bench --json FILE` (bench/bench.c, timerharness/bench/v1)
 * and `timerharness bench --configs C,... --json FILE`
 * (bench/bench_configs.c, timerharness/bench-configs/v1) wrote. The layouts
 * are bench/README.md's and docs/schema/bench.schema.json's,
 * docs/schema/bench-configs.schema.json's. The renderers (render_bench.c)
 * read only this model; nothing here measures.
 *
 * Beside results.json: bench.json (one toolchain's wheel against the heap)
 * and bench-configs-<anything>.json (one toolchain's configs each), as
 * `make bench` writes them. Unknown fields, a wrong schema, a wrong type,
 * an unknown implementation or op, a cell twice, a cell of an undeclared
 * config or size, or two files of one toolchain's configs are bad input,
 * said with the file and the place ("out/bench.json: cells[3]: ...").
 * A figure is a non-negative number, or null where the writer had none
 * (NAN in the model).
 */
#ifndef TH_RESULTS_BENCH_FIGURES_H
#define TH_RESULTS_BENCH_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#define TH_BENCH_SCHEMA		"timerharness/bench/v1"
#define TH_BENCH_CONFIGS_SCHEMA	"timerharness/bench-configs/v1"
#define TH_BENCH_FILE		"bench.json"
#define TH_BENCH_CONFIGS_PREFIX	"bench-configs-"

/* Implementations and ops, in the writers' order. */
enum { TH_BENCH_LEGACY, TH_BENCH_TRANSITIONAL, TH_BENCH_MODERN, TH_BENCH_HEAP, TH_BENCH_NIMPL };
enum { TH_BENCH_ADD, TH_BENCH_MOD, TH_BENCH_DEL, TH_BENCH_EXPIRE, TH_BENCH_STEP, TH_BENCH_NOP };
extern const char *const th_bench_impl_names[TH_BENCH_NIMPL];
extern const char *const th_bench_op_names[TH_BENCH_NOP];

struct th_bench_late {
	double mean;
	long long max;
};

struct th_bench_size {
	long long n, rounds;
	struct th_bench_late wheel, wheel_stepped, heap_stepped;
};

struct th_bench_cell {
	long long n;
	int impl, op;
	double ns, ns_min, ns_max, ratio_to_heap, instructions;	/* NAN: null */
	bool whole_phase;
};

/* timerharness/bench/v1 */
struct th_bench {
	char *path, *version, *created, *hostname, *kernel;
	char *toolchain, *toolchain_version, *config;
	long long cpus, hz, spread_bits, reps, step;
	unsigned long long seed;
	char *order, *clock, *instr_tool, *instr_status;
	bool quick;
	double clock_read_ns;	/* NAN: null */
	long long instr_max_n;
	struct th_bench_size *sizes;
	size_t nsizes;
	struct th_bench_cell *cells;
	size_t ncells;
};

struct th_bench_config {
	char *name, *program, *instructions;	/* instructions: callgrind's status */
};

struct th_bench_cfg_cell {
	long long n;
	size_t config;	/* index in configs */
	int impl, op;
	double ns, ns_min, ns_max, ratio, ratio_min, ratio_max, instructions, instructions_ratio;
};

/* timerharness/bench-configs/v1 */
struct th_bench_configs {
	char *path, *version, *created, *hostname, *kernel, *toolchain, *clock;
	long long cpus, runs, reps;
	double confirm_median;
	struct th_bench_config *configs;
	size_t nconfigs;
	size_t base;	/* the index of none */
	struct th_bench_cfg_cell *cells;
	size_t ncells;
};

/* What lies beside one results.json. */
struct th_bench_set {
	struct th_bench *bench;			/* NULL: no bench.json */
	struct th_bench_configs **configs;	/* by file name */
	size_t nconfigs;
};

/* Return: 0 with *out, or -1 with err naming the file and the place. */
int th_bench_load(const char *path, struct th_bench **out, char *err, size_t errlen);
int th_bench_configs_load(const char *path, struct th_bench_configs **out, char *err, size_t errlen);
void th_bench_free(struct th_bench *b);
void th_bench_configs_free(struct th_bench_configs *c);

/*
 * Load bench.json and every bench-configs-*.json in the directory of
 * results_path. Return: 0 with *out (NULL when there is none of them), or
 * -1 with err when one exists but is invalid (nothing loaded).
 */
int th_bench_set_load_beside(const char *results_path, struct th_bench_set **out, char *err,
			     size_t errlen);
void th_bench_set_free(struct th_bench_set *s);

#endif

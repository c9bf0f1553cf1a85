// SPDX-License-Identifier: MIT
/*
 * `timerharness bench --configs`: each config's build of the bench run side
 * by side (bench_configs.h).
 *
 * Method. K runs (--runs); in run k every config's program runs once, the
 * configs in an order rotated by k, so that no config always goes first or
 * last while the machine drifts. Each program measures as `timerharness
 * bench` does (thread CPU time, --reps samples, the median; add, mod, del per
 * call, expire and step per timer: expire is the dispatch loop, each timer's
 * callback called through call_timer_fn) and writes its figures as JSON
 * (timerharness/bench/v1). For every cell, the ratio to `none` is taken
 * within run k (both sides from the same minute), then the median over the
 * K runs; ns/op is the median over the runs. Instructions per op come from
 * one more run of each program under callgrind (N = 1000): a count, not a
 * timing, the same on any machine.
 */
#define _GNU_SOURCE
#include "bench_configs.h"
#include "lib/opts.h"
#include "lib/proc.h"
#include "lib/stats.h"
#include "lib/text.h"
#include "results/bench_figures.h"
#include "results/results_write.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TH_BENCH_CONFIG_DIR
#define TH_BENCH_CONFIG_DIR "."
#endif
#ifndef TH_BENCH_CONFIGS_BUILT
#define TH_BENCH_CONFIGS_BUILT ""
#endif
#ifndef TH_BENCH_CONFIGS_SKIPPED
#define TH_BENCH_CONFIGS_SKIPPED ""
#endif
#ifndef TH_TOOLCHAIN
#define TH_TOOLCHAIN "clang"
#endif
#ifndef TH_VERSION
#define TH_VERSION "unknown"
#endif

#define SCHEMA		"timerharness/bench-configs/v1"
#define MAX_CONFIGS	8
#define MAX_RUNS	50
#define MAX_SIZES	4
#define NIMPL		4
#define NOP		5
#define COUNT_N		1000u
/* ConFIRM (Xu et al., "CONFIRM: Evaluating Compatibility and Relevance of
 * Control-flow Integrity Protections for Modern Software", USENIX Security
 * 2019): LLVM CFI's median overhead on its indirect-call microbenchmarks. */
#define CONFIRM_LLVM_CFI_MEDIAN	0.05

extern char **environ;

/* The implementations and ops in bench.json's order (results/bench_figures.h). */
_Static_assert(NIMPL == TH_BENCH_NIMPL && NOP == TH_BENCH_NOP, "bench.json's impls and ops");

struct opts {
	const char *configs[MAX_CONFIGS];
	int nconfigs;
	char configs_buf[256];
	unsigned sizes[MAX_SIZES];
	int nsizes;
	unsigned reps, runs;
	bool instructions;
	const char *json;
};

/* Figures of one config: [run][size][impl][op] ns/op; instructions at COUNT_N. */
struct fig {
	double ns[MAX_RUNS][MAX_SIZES][NIMPL][NOP];
	double instr[NIMPL][NOP];
	char instr_status[160];
};

struct cellout {
	double ns, ns_min, ns_max, ratio, ratio_min, ratio_max;
};

/* ---- messages and arguments ------------------------------------------------------ */

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("timerharness bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\ntry 'timerharness bench --configs --help'\n", stderr);
	return 2;
}

static void usage(FILE *f)
{
	const char *built = *TH_BENCH_CONFIGS_BUILT ? TH_BENCH_CONFIGS_BUILT : "none";
	int col = 46;

	fprintf(f,
		"usage: timerharness bench --configs C,... [--sizes N,...] [--reps R] [--runs K]\n"
		"                          [--quick] [--json FILE] [--no-instructions]\n"
		"\n"
		"what each hardening config costs the timer wheel: each config's build of the\n"
		"bench (th-bench-<config>) run as its own process, the configs interleaved,\n"
		"ns/op of add, mod, del and expire (per fired timer: the dispatch loop through\n"
		"call_timer_fn, where the CFI check sits), ratios to `none` taken within each\n"
		"run (median over runs), and instructions per op counted by callgrind.\n"
		"\n"
		"  --configs C,...    configs to compare; none (the baseline) is required.\n"
		"                     Built for this toolchain:");
	/* The configs built, as --configs takes them, wrapped within 80
	 * columns after a comma. */
	for (const char *p = built; *p;) {
		int n = (int)strcspn(p, ",") + (p[strcspn(p, ",")] == ',');

		if (col + n > 80) {
			fputs("\n                     ", f);
			col = 21;
		} else if (p == built) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, p);
		col += n;
		p += n;
	}
	fprintf(f, "\n"
		"  --sizes N,...      numbers of pending timers (default 1000,100000; at most %d)\n"
		"  --reps R           timed repetitions inside each program run (default 3)\n"
		"  --runs K           interleaved runs of every config (default 5; 1..%d)\n"
		"  --quick            N = 1000, 3 runs of 3 repetitions\n"
		"  --json FILE        also write the figures (%s)\n"
		"  --no-instructions  skip the callgrind runs\n"
		"\n"
		"Exit: 0 ran; 1 a config's program failed; 2 bad arguments or a config not built\n"
		"here; 3 the output could not be written.\n", MAX_SIZES, MAX_RUNS, SCHEMA);
}

const char *th_bench_configs_built(void)
{
	return TH_BENCH_CONFIGS_BUILT;
}

int th_bench_wants_configs(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (th_optname(argv[i], "--configs", true) || !strncmp(argv[i], "--configs=", 10))
			return 1;
	return 0;
}

/* @name in the comma list @list? */
/* Why @config was not built here ("kcfi: clang: error: ..."), or NULL. */
static const char *skipped_reason(const char *config, char *buf, size_t n)
{
	size_t len = strlen(config);

	for (const char *p = TH_BENCH_CONFIGS_SKIPPED; *p;) {
		size_t l = strcspn(p, ";");

		if (l > len && !strncmp(p, config, len) && p[len] == '=') {
			snprintf(buf, n, "%.*s", (int)(l - len - 1), p + len + 1);
			return buf;
		}
		p += l;
		if (*p == ';')
			p++;
	}
	return NULL;
}

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	bool quick = false, runs_given = false, reps_given = false, sizes_given = false, none = false;

	memset(o, 0, sizeof(*o));
	o->reps = 3;
	o->runs = 5;
	o->instructions = true;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			usage(stdout);
			return 1;
		}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq = strchr(a, '=');
		char name[32];

		if (!strcmp(a, "-h") || th_optname(a, "--help", false)) {
			usage(stdout);
			return 1;
		}
		if (th_optname(a, "--quick", false)) {
			quick = true;
			continue;
		}
		if (th_optname(a, "--no-instructions", false)) {
			o->instructions = false;
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
		if (!th_optname(name, "--configs", true) && !th_optname(name, "--sizes", true) &&
		    !th_optname(name, "--reps", true) && !th_optname(name, "--runs", true) &&
		    !th_optname(name, "--json", true))
			return bad("unknown argument '%s' (with --configs)", a);
		if (eq)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else
			return bad("%s needs a value", name);
		if (!strcmp(name, "--configs")) {
			char *p = o->configs_buf, *tok;

			if (strlen(v) >= sizeof(o->configs_buf))
				return bad("--configs: list too long");
			snprintf(o->configs_buf, sizeof(o->configs_buf), "%s", v);
			o->nconfigs = 0;
			while ((tok = th_list_split(&p))) {
				for (int k = 0; k < o->nconfigs; k++)
					if (!strcmp(o->configs[k], tok))
						return bad("--configs: %s twice", tok);
				if (o->nconfigs == MAX_CONFIGS)
					return bad("--configs: at most %d configs", MAX_CONFIGS);
				o->configs[o->nconfigs++] = tok;
				none |= !strcmp(tok, "none");
			}
			if (!o->nconfigs)
				return bad("--configs: no config named");
		} else if (!strcmp(name, "--sizes")) {
			char buf[128], *p = buf, *tok;

			snprintf(buf, sizeof(buf), "%s", v);
			o->nsizes = 0;
			while ((tok = th_list_split(&p))) {
				if (o->nsizes == MAX_SIZES)
					return bad("--sizes: at most %d sizes", MAX_SIZES);
				if (parse_uint(tok, 100, 10000000, &o->sizes[o->nsizes]))
					return bad("--sizes: '%s' is not a number of timers in 100..10000000", tok);
				o->nsizes++;
			}
			sizes_given = o->nsizes > 0;
			if (!sizes_given)
				return bad("--sizes: no size given");
		} else if (!strcmp(name, "--reps")) {
			if (parse_uint(v, 1, 100, &o->reps))
				return bad("--reps: expected a whole number 1..100, got '%s'", v);
			reps_given = true;
		} else if (!strcmp(name, "--runs")) {
			if (parse_uint(v, 1, MAX_RUNS, &o->runs))
				return bad("--runs: expected a whole number 1..%d, got '%s'", MAX_RUNS, v);
			runs_given = true;
		} else {
			if (!*v)
				return bad("--json needs a file name");
			o->json = v;
		}
	}
	if (!o->nconfigs)
		return bad("--configs needs a list of configs");
	if (!none)
		return bad("--configs: none is required (the baseline of every ratio)");
	for (int k = 0; k < o->nconfigs; k++) {
		char why[512];

		if (th_list_has(TH_BENCH_CONFIGS_BUILT, o->configs[k]))
			continue;
		if (skipped_reason(o->configs[k], why, sizeof(why)))
			return bad("--configs: %s is not built by %s: %s", o->configs[k], TH_TOOLCHAIN, why);
		return bad("--configs: no build of the bench for config '%s' (built here: %s)",
			   o->configs[k], *TH_BENCH_CONFIGS_BUILT ? TH_BENCH_CONFIGS_BUILT : "none");
	}
	if (!sizes_given) {
		o->sizes[0] = 1000;
		o->sizes[1] = 100000;
		o->nsizes = quick ? 1 : 2;
	}
	if (quick && !runs_given)
		o->runs = 3;
	if (quick && !reps_given)
		o->reps = 3;
	if (o->json) {
		struct stat st;

		if (!lstat(o->json, &st) && !S_ISREG(st.st_mode))
			return bad("--json %s: exists and is not a regular file; refusing to replace it",
				   o->json);
	}
	return 0;
}

/* ---- running a config's program --------------------------------------------------- */

static void program(const char *config, char *buf, size_t n)
{
	const char *dir = getenv("TH_BENCH_CONFIG_DIR");

	snprintf(buf, n, "%s/th-bench-%s", dir && *dir ? dir : TH_BENCH_CONFIG_DIR, config);
}

/* Run @argv with stdout and stderr into @log. Return: exit status, or -1. */
static int run_logged(char *const argv[], const char *log)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errno = rc;
		return -1;
	}
	if (th_wait_child(pid, &st))
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The last lines of @log, for an error message. */
static void log_tail(const char *log, char *buf, size_t n)
{
	FILE *f = fopen(log, "r");
	long size;
	size_t got;

	buf[0] = 0;
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > (long)n - 1 ? size - (long)n + 1 : 0, SEEK_SET);
	got = fread(buf, 1, n - 1, f);
	buf[got] = 0;
	fclose(f);
}

/* Read a timerharness/bench/v1 file as results/ reads one (th_bench_load():
 * strictly, what `make bench` puts beside results.json): ns/op into
 * @ns[size][impl][op] (NaN where absent), instructions into @instr when not
 * NULL. Return: 0 or -1. */
static int read_figures(const char *path, const struct opts *o, const char *config,
			double ns[MAX_SIZES][NIMPL][NOP], double instr[NIMPL][NOP], char *status,
			size_t statlen, char *err, size_t errlen)
{
	struct th_bench *b;

	if (th_bench_load(path, &b, err, errlen))
		return -1;
	if (strcmp(b->config ? b->config : "", config)) {
		snprintf(err, errlen, "%s: not the figures of config %s", path, config);
		th_bench_free(b);
		return -1;
	}
	if (status)
		snprintf(status, statlen, "%s", b->instr_status ? b->instr_status : "?");
	for (size_t i = 0; i < b->ncells; i++) {
		const struct th_bench_cell *c = &b->cells[i];

		for (int si = 0; ns && si < o->nsizes; si++)
			if ((long long)o->sizes[si] == c->n)
				ns[si][c->impl][c->op] = c->ns;
		if (instr && c->n == COUNT_N)
			instr[c->impl][c->op] = c->instructions;
	}
	th_bench_free(b);
	return 0;
}

/* One run of @config's program; figures into @ns (or, @counting, the
 * instructions into f->instr). Return: 0, or -1 with @err. */
static int run_config(const struct opts *o, const char *dir, const char *config, bool counting,
		      double ns[MAX_SIZES][NIMPL][NOP], struct fig *f, char *err, size_t errlen)
{
	char prog[4096], json[4096], log[4096], sizes[96] = "", reps[16], tail[600];
	char *argv[12];
	int argc = 0, st;

	program(config, prog, sizeof(prog));
	snprintf(json, sizeof(json), "%s/%s.json", dir, config);
	snprintf(log, sizeof(log), "%s/%s.log", dir, config);
	for (int si = 0; si < o->nsizes && !counting; si++) {
		size_t len = strlen(sizes);

		snprintf(sizes + len, sizeof(sizes) - len, "%s%u", si ? "," : "", o->sizes[si]);
	}
	if (counting)
		snprintf(sizes, sizeof(sizes), "%u", COUNT_N);
	snprintf(reps, sizeof(reps), "%u", counting ? 1u : o->reps);
	argv[argc++] = prog;
	argv[argc++] = "--sizes";
	argv[argc++] = sizes;
	argv[argc++] = "--reps";
	argv[argc++] = reps;
	if (!counting)
		argv[argc++] = "--no-instructions";
	argv[argc++] = "--json";
	argv[argc++] = json;
	argv[argc] = NULL;
	unlink(json);
	st = run_logged(argv, log);
	if (st) {
		log_tail(log, tail, sizeof(tail));
		snprintf(err, errlen, "config %s: %s %s %s %s %s%s: %s %d; its output ends:\n%s",
			 config, prog, argv[1], argv[2], argv[3], argv[4],
			 counting ? "" : " --no-instructions", st < 0 ? "cannot run:" : "exit", st < 0 ? errno : st,
			 tail);
		return -1;
	}
	return read_figures(json, o, config, counting ? NULL : ns, counting ? f->instr : NULL,
			    counting ? f->instr_status : NULL, sizeof(f->instr_status), err, errlen);
}

/* ---- figures ------------------------------------------------------------------------ */

/* Median, min and max of the non-NaN values of v[0..n); NaN when none. */
static void stats(double *v, unsigned n, double *med, double *lo, double *hi)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	if (!k) {
		*med = *lo = *hi = NAN;
		return;
	}
	*med = th_median(v, k);
	*lo = v[0];
	*hi = v[k - 1];
}

static struct cellout cell(const struct opts *o, struct fig *figs, int cfg, int base, int si, int im,
			   int op)
{
	double v[MAX_RUNS], r[MAX_RUNS];
	struct cellout c;

	for (unsigned k = 0; k < o->runs; k++) {
		v[k] = figs[cfg].ns[k][si][im][op];
		r[k] = v[k] / figs[base].ns[k][si][im][op];
	}
	stats(v, o->runs, &c.ns, &c.ns_min, &c.ns_max);
	stats(r, o->runs, &c.ratio, &c.ratio_min, &c.ratio_max);
	return c;
}

/* Impls shown: the two layouts CFI sees (modern, legacy) and the heap (its
 * expiry also calls each callback through a pointer, its add/mod/del not). */
static const int shown[] = { 2, 0, 3 };
/* Ops shown: add, mod, del, expire (step is expire's loop with idle ticks). */
static const int shown_ops[] = { 0, 1, 2, 3 };

/* One table: a row per shown implementation x op, a column per config,
 * each entry written by @entry into a 40-byte buffer. */
typedef void entry_fn(const struct opts *o, struct fig *figs, int k, int base, int si, int im,
		      int op, char *buf, size_t n);

static void table(const struct opts *o, struct fig *figs, int base, int si, entry_fn *entry)
{
	printf("  %-16s", "");
	for (int k = 0; k < o->nconfigs; k++)
		printf(" %20s", o->configs[k]);
	printf("\n");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		for (size_t j = 0; j < sizeof(shown_ops) / sizeof(shown_ops[0]); j++) {
			char label[32];

			snprintf(label, sizeof(label), "%s %s", th_bench_impl_names[shown[i]],
				 th_bench_op_names[shown_ops[j]]);
			printf("  %-16s", label);
			for (int k = 0; k < o->nconfigs; k++) {
				char b[40];

				entry(o, figs, k, base, si, shown[i], shown_ops[j], b, sizeof(b));
				printf(" %20s", b);
			}
			printf("\n");
		}
}

/* "3.6 1.135x": ns/op and the ratio to none. */
static void ns_entry(const struct opts *o, struct fig *figs, int k, int base, int si, int im,
		     int op, char *b, size_t n)
{
	struct cellout c = cell(o, figs, k, base, si, im, op);

	if (isnan(c.ns))
		snprintf(b, n, "-");
	else if (k == base)
		snprintf(b, n, "%.1f", c.ns);
	else
		snprintf(b, n, "%.1f %5.3fx", c.ns, c.ratio);
}

/* "55.1 +6.4": instructions per op and the difference to none. */
static void instr_entry(const struct opts *o, struct fig *figs, int k, int base, int si, int im,
			int op, char *b, size_t n)
{
	double v = figs[k].instr[im][op], w = figs[base].instr[im][op];

	(void)o;
	(void)si;
	if (isnan(v))
		snprintf(b, n, "%s", strcmp(figs[k].instr_status, "counted") ? "not counted" : "-");
	else if (k == base)
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "%.1f %+.1f", v, v - w);
}

static void print_tables(const struct opts *o, struct fig *figs, int base)
{
	for (int si = 0; si < o->nsizes; si++) {
		printf("\nN = %u: ns/op (median of %u runs), and the ratio to none (median of per-run ratios)\n",
		       o->sizes[si], o->runs);
		table(o, figs, base, si, ns_entry);
	}
}

static void print_instructions(const struct opts *o, struct fig *figs, int base)
{
	printf("\ninstructions per op at N = %u (callgrind; expire per fired timer)\n", COUNT_N);
	table(o, figs, base, 0, instr_entry);
	for (int k = 0; k < o->nconfigs; k++)
		if (strcmp(figs[k].instr_status, "counted"))
			printf("  %s: %s\n", o->configs[k], figs[k].instr_status);
}

/* Where the dispatch loop sits against ConFIRM's median for LLVM CFI. */
static void print_confirm(const struct opts *o, struct fig *figs, int base)
{
	int si = o->nsizes - 1;

	printf("\nthe dispatch loop (modern expire, per fired timer, N = %u) against ConFIRM's\n"
	       "~%.0f%% median overhead for LLVM CFI on indirect-call microbenchmarks:\n",
	       o->sizes[si], 100 * CONFIRM_LLVM_CFI_MEDIAN);
	for (int k = 0; k < o->nconfigs; k++) {
		struct cellout c = cell(o, figs, k, base, si, 2, 3);
		double di = figs[k].instr[2][3] - figs[base].instr[2][3];

		if (k == base)
			continue;
		printf("  %-20s %+6.1f%% (runs: %+.1f%% .. %+.1f%%)", o->configs[k], 100 * (c.ratio - 1),
		       100 * (c.ratio_min - 1), 100 * (c.ratio_max - 1));
		if (!isnan(di))
			printf(", %+.1f instructions per fired timer", di);
		printf("; %s ConFIRM's median\n",
		       isnan(c.ratio) ? "not comparable with" :
		       c.ratio - 1 > CONFIRM_LLVM_CFI_MEDIAN ? "above" : "within");
	}
}

/* ---- JSON ---------------------------------------------------------------------------- */

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static int write_json(const struct opts *o, struct fig *figs, int base)
{
	json_t *root = json_object(), *cfgs = json_array(), *cells = json_array(), *host = json_object();
	char created[32], hostname[256] = "", err[4096 + 256], *text;
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	int rc = 0;

	gethostname(hostname, sizeof(hostname) - 1);
	if (uname(&u))
		u.release[0] = 0;
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(root, "schema", json_string(SCHEMA));
	json_object_set_new(root, "version", json_string(TH_VERSION));
	json_object_set_new(root, "created", json_string(created));
	json_object_set_new(host, "hostname", json_string(hostname));
	json_object_set_new(host, "kernel", json_string(u.release));
	json_object_set_new(host, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(root, "host", host);
	json_object_set_new(root, "toolchain", json_string(TH_TOOLCHAIN));
	json_object_set_new(root, "settings",
			    json_pack("{s:i, s:i, s:s, s:f}", "runs", (int)o->runs, "reps", (int)o->reps,
				      "clock", "CLOCK_THREAD_CPUTIME_ID", "confirm_llvm_cfi_median",
				      CONFIRM_LLVM_CFI_MEDIAN));
	for (int k = 0; k < o->nconfigs; k++) {
		char prog[4096];

		program(o->configs[k], prog, sizeof(prog));
		json_array_append_new(cfgs, json_pack("{s:s, s:s, s:s}", "name", o->configs[k],
						      "program", prog, "instructions",
						      figs[k].instr_status));
	}
	json_object_set_new(root, "configs", cfgs);
	for (int si = 0; si < o->nsizes; si++)
		for (int k = 0; k < o->nconfigs; k++)
			for (int im = 0; im < NIMPL; im++)
				for (int op = 0; op < NOP; op++) {
					struct cellout c = cell(o, figs, k, base, si, im, op);
					double ins = o->sizes[si] == COUNT_N ? figs[k].instr[im][op] : NAN;
					double bins = o->sizes[si] == COUNT_N ? figs[base].instr[im][op] : NAN;
					json_t *x;

					if (isnan(c.ns))
						continue;	/* not run in this build */
					x = json_pack("{s:i, s:s, s:s, s:s}", "n", (int)o->sizes[si],
						      "config", o->configs[k], "impl", th_bench_impl_names[im],
						      "op", th_bench_op_names[op]);
					json_object_set_new(x, "ns_per_op", num(c.ns));
					json_object_set_new(x, "ns_min", num(c.ns_min));
					json_object_set_new(x, "ns_max", num(c.ns_max));
					json_object_set_new(x, "ratio_to_none", num(c.ratio));
					json_object_set_new(x, "ratio_min", num(c.ratio_min));
					json_object_set_new(x, "ratio_max", num(c.ratio_max));
					json_object_set_new(x, "instructions_per_op", num(ins));
					json_object_set_new(x, "instructions_ratio_to_none", num(ins / bins));
					json_array_append_new(cells, x);
				}
	json_object_set_new(root, "cells", cells);
	/* Written as results/ writes its files: whole or not at all, never
	 * through a link. */
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
		snprintf(err, sizeof(err), "%s: %s", o->json, strerror(ENOMEM));
	if (!text || th_results_write_atomic(o->json, text, strlen(text), err, sizeof(err))) {
		fprintf(stderr, "timerharness bench: cannot write %s\n", err);
		rc = 3;
	}
	free(text);
	json_decref(root);
	return rc;
}

/* ---- main ------------------------------------------------------------------------------ */

int th_bench_configs_main(int argc, char **argv)
{
	struct opts o;
	struct fig *figs;
	char dir[] = "/tmp/th-bench-configs-XXXXXX", err[2048];
	int ret = parse(argc, argv, &o), base = 0;

	if (ret)
		return ret == 1 ? (fflush(stdout) ? 3 : 0) : ret;
	for (int k = 0; k < o.nconfigs; k++)
		if (!strcmp(o.configs[k], "none"))
			base = k;
	figs = calloc((size_t)o.nconfigs, sizeof(*figs));
	if (!figs || !mkdtemp(dir)) {
		free(figs);
		fprintf(stderr, "timerharness bench: cannot make a work directory: %s\n", strerror(errno));
		return 1;
	}
	printf("timerharness bench --configs: the wheel built per config, %s\n", TH_TOOLCHAIN);
	printf("  %u interleaved runs (--runs) of every config, each program %u repetitions (--reps);\n"
	       "  thread CPU time; ratios to none taken within a run, then the median\n", o.runs, o.reps);
	for (int k = 0; k < o.nconfigs; k++) {
		for (unsigned r = 0; r < MAX_RUNS; r++)
			for (int si = 0; si < MAX_SIZES; si++)
				for (int im = 0; im < NIMPL; im++)
					for (int op = 0; op < NOP; op++)
						figs[k].ns[r][si][im][op] = NAN;
		for (int im = 0; im < NIMPL; im++)
			for (int op = 0; op < NOP; op++)
				figs[k].instr[im][op] = NAN;
		snprintf(figs[k].instr_status, sizeof(figs[k].instr_status), "not counted: --no-instructions");
	}
	fflush(stdout);
	for (unsigned r = 0; r < o.runs && !ret; r++)
		for (int i = 0; i < o.nconfigs && !ret; i++) {
			int k = (int)((i + r) % (unsigned)o.nconfigs);

			if (run_config(&o, dir, o.configs[k], false, figs[k].ns[r], &figs[k], err, sizeof(err))) {
				fprintf(stderr, "timerharness bench: %s\n", err);
				ret = 1;
			}
		}
	for (int k = 0; k < o.nconfigs && !ret && o.instructions; k++)
		if (run_config(&o, dir, o.configs[k], true, NULL, &figs[k], err, sizeof(err))) {
			fprintf(stderr, "timerharness bench: %s\n", err);
			ret = 1;
		}
	if (!ret) {
		print_tables(&o, figs, base);
		print_instructions(&o, figs, base);
		print_confirm(&o, figs, base);
		printf("\nnotes: expire is per fired timer, its callback called through call_timer_fn\n"
		       "  (the dispatch loop, where the check is); add, mod and del make no indirect\n"
		       "  call: their ratios show what the flags (LTO, visibility, a sanitizer runtime)\n"
		       "  do to code without a check. The heap's expiry calls each callback through a\n"
		       "  pointer too. transitional is not run under type-based CFI (its legitimate\n"
		       "  calls trap: the rc3 shim's false positive). Times move by several percent\n"
		       "  between runs on a shared machine (the min..max of the runs is in the JSON);\n"
		       "  instruction counts do not.\n");
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "timerharness bench: cannot write stdout\n");
			ret = 3;
		}
	}
	if (!ret && o.json)
		ret = write_json(&o, figs, base);
	/* The work directory: the per-run JSON and logs. */
	for (int k = 0; k < o.nconfigs; k++) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/%s.json", dir, o.configs[k]);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%s.log", dir, o.configs[k]);
		if (!ret)
			unlink(p);
	}
	if (!ret)
		rmdir(dir);
	else
		fprintf(stderr, "timerharness bench: the programs' output is kept in %s\n", dir);
	free(figs);
	return ret;
}

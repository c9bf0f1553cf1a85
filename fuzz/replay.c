/* SPDX-License-Identifier: MIT */
/*
 * The replay driver: runs inputs through a fuzz target without any engine,
 * so corpora and saved findings replay as plain tests (CTest) on every
 * toolchain, and a target can be benchmarked on its corpus. Linked in place
 * of libFuzzer when the build has no engine (curl-fuzzer's standalone
 * runner, OpenSSL's fuzz/test-corpus.c).
 *
 *   <target>-replay [--expect clean|finding] [--fork] [--timeout S]
 *                   [--bench S] [-v] PATH...
 *
 * PATH is an input file or a directory (its files, recursively, in name
 * order; names starting with '.' and README* are skipped).
 *   --expect clean    (default) every input returns normally
 *   --expect finding  every input ends in a finding: abort() (TH_FUZZ_FAIL),
 *                     a signal or a non-zero exit (a sanitizer's report);
 *                     implies --fork. One that returns normally no longer
 *                     reproduces: the run fails.
 *   --fork            each input in its own child process, judged by how it
 *                     ended; without it inputs run in this process, as
 *                     libFuzzer runs them, and the first finding ends it.
 *   --timeout S       per input under --fork (default 25, OSS-Fuzz's):
 *                     past it the input is a timeout, which fails both
 *                     expectations (a hang is neither clean nor the finding).
 *   --bench S         after the replay, run every input again and again for
 *                     S seconds in this process and print executions per
 *                     second of CPU time (median of the passes) and of wall
 *                     clock: a figure, not a test.
 *   -v                name every input as it runs.
 * Exit status: 0 every input as expected; 1 one was not; 2 bad usage or no
 * input at all (an empty corpus must not pass as replayed).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "../lib/clock.h"
#include "../lib/proc.h"
#include "../lib/stats.h"
#include "../lib/text.h"

/* Optional: only some targets have one-time setup. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);
/* The sanitizers' runtime, when linked: says which input was running. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*cb)(void));

struct inputs {
	char **path;
	size_t n, cap;
};

static const char *current;	/* the input running in this process */

static void say_current(void)
{
	if (current) {
		/* write(2): async-signal-safe, and nothing buffered is lost. */
		static const char pre[] = "replay: finding in ";
		ssize_t r;

		r = write(2, pre, sizeof(pre) - 1);
		r = write(2, current, strlen(current));
		r = write(2, "\n", 1);
		(void)r;
	}
}

static void on_fatal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Name the input that dies, without taking a signal a sanitizer handles. */
static void install_death_notes(void)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };

	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_current);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			signal(sigs[i], on_fatal);
	}
}

static void add_input(struct inputs *in, const char *path)
{
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 64;
		in->path = realloc(in->path, in->cap * sizeof(*in->path));
		if (!in->path) {
			fprintf(stderr, "replay: out of memory\n");
			exit(2);
		}
	}
	in->path[in->n] = strdup(path);
	if (!in->path[in->n++]) {
		fprintf(stderr, "replay: out of memory\n");
		exit(2);
	}
}

static int collect(struct inputs *in, const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	size_t first = in->n;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		add_input(in, path);
		return 0;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "README", 6))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (collect(in, sub)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	qsort(in->path + first, in->n - first, sizeof(*in->path), th_cmp_str);
	return 0;
}

/* The whole file in a buffer of exactly its size: ASan sees an overread. */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *exact;
	size_t len = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t r;

		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "replay: out of memory reading %s\n", path);
				exit(2);
			}
		}
		r = fread(buf + len, 1, cap - len, f);
		len += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	exact = malloc(len ? len : 1);
	if (!exact) {
		fprintf(stderr, "replay: out of memory reading %s\n", path);
		exit(2);
	}
	memcpy(exact, buf, len);
	free(buf);
	*size = len;
	return exact;
}

static int run_one(const char *path)
{
	size_t size;
	uint8_t *data = slurp(path, &size);

	if (!data)
		return -1;
	current = path;
	LLVMFuzzerTestOneInput(data, size);
	current = NULL;
	free(data);
	return 0;
}

enum end { END_CLEAN, END_FINDING, END_TIMEOUT, END_ERROR };

static const char *end_name[] = { "clean", "finding", "timeout", "error" };

/* One input in a child: how did it end? */
static enum end run_forked(const char *path, unsigned timeout, char *how, size_t n)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(how, n, "fork: %s", strerror(errno));
		return END_ERROR;
	}
	if (pid == 0) {
		alarm(timeout);
		_exit(run_one(path) ? 3 : 0);
	}
	if (th_wait_child(pid, &status)) {
		snprintf(how, n, "waitpid: %s", strerror(errno));
		return END_ERROR;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		snprintf(how, n, "still running after %u s", timeout);
		return END_TIMEOUT;
	}
	if (WIFSIGNALED(status)) {
		snprintf(how, n, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
		return END_FINDING;
	}
	if (WEXITSTATUS(status) == 3) {
		snprintf(how, n, "unreadable");
		return END_ERROR;
	}
	if (WEXITSTATUS(status)) {
		snprintf(how, n, "exit status %d", WEXITSTATUS(status));
		return END_FINDING;
	}
	snprintf(how, n, "returned normally");
	return END_CLEAN;
}

/*
 * Executions per second over the inputs: the median of timed passes, per
 * second of this process's CPU time (what one core does, whatever else
 * the machine runs), then the wall-clock rate of the whole run.
 */
static void bench(const struct inputs *in, double seconds)
{
	uint8_t **data = calloc(in->n, sizeof(*data));
	size_t *size = calloc(in->n, sizeof(*size)), passes = 0, cap = 64;
	double *rate = malloc(cap * sizeof(*rate)), start = th_now_s(), t;
	double cpu0 = th_clock_s(CLOCK_PROCESS_CPUTIME_ID);

	if (!data || !size || !rate) {
		fprintf(stderr, "replay: out of memory\n");
		exit(2);
	}
	for (size_t i = 0; i < in->n; i++)
		if (!(data[i] = slurp(in->path[i], &size[i])))
			exit(2);
	do {
		double c0 = th_clock_s(CLOCK_PROCESS_CPUTIME_ID), c;

		for (size_t i = 0; i < in->n; i++)
			LLVMFuzzerTestOneInput(data[i], size[i]);
		c = th_clock_s(CLOCK_PROCESS_CPUTIME_ID);
		t = th_now_s();
		if (passes == cap) {
			cap *= 2;
			rate = realloc(rate, cap * sizeof(*rate));
			if (!rate)
				exit(2);
		}
		rate[passes++] = (double)in->n / (c - c0 > 1e-9 ? c - c0 : 1e-9);
	} while (t - start < seconds);
	qsort(rate, passes, sizeof(*rate), th_cmp_double);
	printf("replay: bench: %zu inputs x %zu passes = %zu executions in %.2f s (%.2f s CPU): "
	       "median %.0f exec/s per CPU second (min %.0f, max %.0f); %.0f exec/s wall clock\n",
	       in->n, passes, in->n * passes, t - start, th_clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0,
	       rate[passes / 2], rate[0], rate[passes - 1], (double)(in->n * passes) / (t - start));
	for (size_t i = 0; i < in->n; i++)
		free(data[i]);
	free(data);
	free(size);
	free(rate);
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--expect clean|finding] [--fork] [--timeout S] [--bench S] [-v] PATH...\n"
		"Run each input file (or every file under a directory) through the fuzz target once.\n",
		argv0);
}

int main(int argc, char **argv)
{
	enum end want = END_CLEAN;
	bool fork_each = false, verbose = false;
	unsigned timeout = 25;
	double bench_s = 0;
	struct inputs in = { 0 };
	size_t bad = 0;
	double t0;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--expect") && i + 1 < argc) {
			a = argv[++i];
			if (!strcmp(a, "clean")) {
				want = END_CLEAN;
			} else if (!strcmp(a, "finding")) {
				want = END_FINDING;
				fork_each = true;
			} else {
				fprintf(stderr, "replay: --expect needs clean or finding, got '%s'\n", a);
				return 2;
			}
		} else if (!strcmp(a, "--fork")) {
			fork_each = true;
		} else if (!strcmp(a, "--timeout") && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 10);

			if (*end || !v || v > 86400) {
				fprintf(stderr, "replay: --timeout needs seconds (1..86400), got '%s'\n", argv[i]);
				return 2;
			}
			timeout = (unsigned)v;
		} else if (!strcmp(a, "--bench") && i + 1 < argc) {
			char *end;

			bench_s = strtod(argv[++i], &end);
			if (*end || !(bench_s > 0)) {
				fprintf(stderr, "replay: --bench needs seconds > 0, got '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "-v")) {
			verbose = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(argv[0]);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "replay: unknown option '%s'\n", a);
			usage(argv[0]);
			return 2;
		} else if (collect(&in, a)) {
			return 2;
		}
	}
	if (!in.n) {
		fprintf(stderr, "replay: no input files (an empty corpus is not a replay)\n");
		usage(argv[0]);
		return 2;
	}
	if (bench_s && (fork_each || want != END_CLEAN)) {
		fprintf(stderr, "replay: --bench runs clean inputs in this process: not with --fork or --expect finding\n");
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (!fork_each)
		install_death_notes();

	t0 = th_now_s();
	for (size_t k = 0; k < in.n; k++) {
		char how[128];
		enum end got;

		if (verbose)
			fprintf(stderr, "replay: %s\n", in.path[k]);
		if (!fork_each) {
			if (run_one(in.path[k]))
				return 2;
			continue;
		}
		got = run_forked(in.path[k], timeout, how, sizeof(how));
		if (got != want) {
			fprintf(stderr, "replay: %s: %s (%s), expected %s\n", in.path[k],
				end_name[got], how, end_name[want]);
			bad++;
		} else if (verbose) {
			fprintf(stderr, "replay: %s: %s as expected (%s)\n", in.path[k], end_name[got], how);
		}
	}
	fprintf(stderr, "replay: %zu input%s, %zu not %s, %.2f s\n", in.n, in.n == 1 ? "" : "s",
		bad, end_name[want], th_now_s() - t0);
	if (bad)
		return 1;
	if (bench_s)
		bench(&in, bench_s);
	for (size_t k = 0; k < in.n; k++)
		free(in.path[k]);
	free(in.path);
	return 0;
}

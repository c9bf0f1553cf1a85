/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "overflow_session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "overflow_oracle.h"

/* Steps (WHAT_VIA_HOW at an outcome) of the signatures reported so far. */
#define MAX_KNOWN 512
#define STEP_ID 96

struct kstep {
	char id[STEP_ID];
	int outcome;
};

static struct {
	int replay, stats_fd, known_fd;
	struct kstep known[MAX_KNOWN];
	int nknown;
	unsigned outcomes_known;	/* a bit per outcome some known signature has */
	unsigned long long execs, counts[TH_OUTCOME_COUNT];
	unsigned long long first_hijack, first_hijack_t, goal, goal_t;
	unsigned long long last_flush;
	int died;
} s = { .stats_fd = -1, .known_fd = -1 };

/*
 * A finding ends the engine with abort() (below: the engine saves the
 * input), and libFuzzer's crash handler prints the stack, which the
 * sanitizer runtime linked into every build (UBSan's, within ASan's in the
 * asan builds) would symbolize by starting llvm-symbolizer: about 0.1-0.2
 * s of CPU a finding (perf stat of the engine and its children to its
 * first finding, median 90 ms against 265 ms), most of it the symbolizer
 * reading this binary's debug information, for a trace nobody reads. Its
 * frames are printed as module+offset instead, as the matrix's runner has
 * them (runner/child.c), ASan's reports' too; UBSAN_OPTIONS or
 * ASAN_OPTIONS symbolize=1 in the environment turns it back on.
 */
__attribute__((used, visibility("default"))) const char *__ubsan_default_options(void);
__attribute__((used, visibility("default"))) const char *__ubsan_default_options(void)
{
	return "symbolize=0";
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* One line, one write(2): records from a dying process stay whole. */
static void put_line(int fd, const char *line, size_t len)
{
	while (len) {
		ssize_t w = write(fd, line, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		line += w;
		len -= (size_t)w;
	}
}

static void flush_stats(void)
{
	char line[1024];
	int n;

	if (s.stats_fd < 0)
		return;
	n = snprintf(line, sizeof(line), TH_FZ_STATS_PREFIX "pid=%ld t=%llu execs=%llu", (long)getpid(),
		     now_ns(), s.execs);
	for (int i = 0; i < TH_OUTCOME_COUNT && n > 0 && (size_t)n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s=%llu",
			      th_outcome_name((enum th_outcome)i), s.counts[i]);
	if (n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      " first_hijack=%llu first_hijack_t=%llu goal=%llu goal_t=%llu died=%d\n",
			      s.first_hijack, s.first_hijack_t, s.goal, s.goal_t, s.died);
	if (n > 0 && (size_t)n < sizeof(line))
		put_line(s.stats_fd, line, (size_t)n);
	s.last_flush = now_ns();
}

static void at_exit(void)
{
	flush_stats();
}

static char known_path[4096];

/* a == b (n bytes of a, b NUL-terminated there) without strcmp(): libFuzzer
 * hooks it during a run and would fill its dictionary with signature names. */
static int same_n(const char *a, size_t n, const char *b)
{
	const volatile char *x = a, *y = b;
	size_t i = 0;

	for (; i < n && y[i] && x[i] == y[i]; i++)
		;
	return i == n && !y[i];
}

/* "_THEN_" at p. */
static int is_sep(const char *p)
{
	return p[0] == '_' && p[1] == 'T' && p[2] == 'H' && p[3] == 'E' && p[4] == 'N' && p[5] == '_';
}

static size_t len_of(const char *p)
{
	size_t n = 0;

	while (p[n])
		n++;
	return n;
}

/*
 * The steps of a signature OUTCOME:CHAIN_ID (overflow_oracle.h): one step
 * alone at the signature's outcome, several each at its own (the suffix),
 * joined by _THEN_. Return: how many (at most max), or -1 when it is not
 * one (then it is new by definition).
 */
static int sig_steps(const char *sig, struct kstep *out, int max)
{
	static const int own[] = { TH_HIJACKED, TH_PRIVILEGED_WRITE, TH_REDIRECTED };
	const char *p = sig;
	int o = -1, n = 0, several = 0;

	while (*p && *p != ':')
		p++;
	if (!*p)
		return -1;
	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
		if (same_n(sig, (size_t)(p - sig), th_outcome_name((enum th_outcome)own[k])))
			o = own[k];
	if (o < 0)
		return -1;
	for (const char *q = ++p; *q; q++)
		several |= is_sep(q);
	while (*p) {
		const char *e = p;
		size_t len;
		int so = o;

		while (*e && !is_sep(e))
			e++;
		len = (size_t)(e - p);
		if (several) {
			size_t k;

			for (k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
				const char *name = th_outcome_name((enum th_outcome)own[k]);
				size_t nl = len_of(name);

				if (len > nl + 1 && p[len - nl - 1] == '_' && same_n(p + len - nl, nl, name)) {
					so = own[k];
					len -= nl + 1;
					break;
				}
			}
			if (k == sizeof(own) / sizeof(own[0]))
				return -1;
		}
		if (n == max || !len || len >= STEP_ID)
			return -1;
		for (size_t i = 0; i < len; i++)
			out[n].id[i] = p[i];
		out[n].id[len] = 0;
		out[n++].outcome = so;
		p = *e ? e + 6 : e;
	}
	return n;
}

static int step_known(const struct kstep *k)
{
	for (int i = 0; i < s.nknown; i++)
		if (s.known[i].outcome == k->outcome && same_n(k->id, len_of(k->id), s.known[i].id))
			return 1;
	return 0;
}

/* The outcome a signature OUTCOME:CHAIN_ID names, or -1. */
static int sig_outcome(const char *sig)
{
	static const int own[] = { TH_HIJACKED, TH_PRIVILEGED_WRITE, TH_REDIRECTED };
	size_t n = 0;

	while (sig[n] && sig[n] != ':')
		n++;
	for (size_t k = 0; sig[n] && k < sizeof(own) / sizeof(own[0]); k++)
		if (same_n(sig, n, th_outcome_name((enum th_outcome)own[k])))
			return own[k];
	return -1;
}

/* Learn the steps of sig, and its outcome. */
static void learn(const char *sig)
{
	struct kstep st[TH_FZ_CHAIN_ID_MAX / 8];
	int n = sig_steps(sig, st, (int)(sizeof(st) / sizeof(st[0]))), o = sig_outcome(sig);

	if (o >= 0)
		s.outcomes_known |= 1u << o;

	for (int i = 0; i < n && s.nknown < MAX_KNOWN; i++)
		if (!step_known(&st[i]))
			s.known[s.nknown++] = st[i];
}

static char known_path[4096];

/* The signatures in the known file, all of them again. */
static void read_known(void)
{
	FILE *f;
	char line[TH_FZ_CHAIN_ID_MAX + 64];

	if (!known_path[0] || !(f = fopen(known_path, "r")))
		return;	/* what this process knows, as it is */
	s.nknown = 0;
	s.outcomes_known = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (*line)
			learn(line);
	}
	fclose(f);
}

static void load_known(const char *path)
{
	snprintf(known_path, sizeof(known_path), "%s", path);
	read_known();
	s.known_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (s.known_fd < 0) {
		fprintf(stderr, "timerharness overflow: TH_FUZZ_KNOWN=%s: %s\n", path, strerror(errno));
		exit(2);
	}
}

/*
 * Is every step of sig, at its outcome, known already, and a signature of
 * its outcome? A run is reported when it brings a step the campaign has not
 * seen at that outcome (a target that ran, a write, through what), or is
 * the first of its outcome: each step is saved in the first chain that has
 * it, with the steps around it, every outcome counted has a finding of its
 * own (fuzz.json's loader holds the counts to that), and a chain of known
 * steps in another order or combination is counted, not reported (the
 * engine would restart for every permutation).
 */
static int is_known(const char *sig)
{
	struct kstep st[TH_FZ_CHAIN_ID_MAX / 8];
	int n = sig_steps(sig, st, (int)(sizeof(st) / sizeof(st[0]))), o = sig_outcome(sig);

	if (n <= 0 || o < 0 || !(s.outcomes_known & (1u << o)))
		return 0;
	for (int i = 0; i < n; i++)
		if (!step_known(&st[i]))
			return 0;
	return 1;
}

static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

void th_fz_session_init(void)
{
	struct th_fz_oracle_opts o = { 0 };
	const char *v;
	char err[512];

	s.replay = env_on("TH_FUZZ_REPLAY");
	o.no_leak = env_on("TH_FUZZ_NO_LEAK");
	o.tee = s.replay;
	if ((v = getenv("TH_FUZZ_STATS")) && *v) {
		s.stats_fd = open(v, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (s.stats_fd < 0) {
			fprintf(stderr, "timerharness overflow: TH_FUZZ_STATS=%s: %s\n", v, strerror(errno));
			exit(2);
		}
	}
	if ((v = getenv("TH_FUZZ_KNOWN")) && *v)
		load_known(v);
	if (th_fz_oracle_init(&o, err, sizeof(err))) {
		fprintf(stderr, "timerharness overflow (%s/%s): cannot run: %s\n", TH_ATK_VARIANT,
			TH_ATK_CONFIG, err);
		exit(2);
	}
	if (s.replay) {
		char line[300];
		int n = snprintf(line, sizeof(line), "TH-FUZZ-INFO: variant=%s config=%s traps=\"%s\"\n",
				 TH_ATK_VARIANT, TH_ATK_CONFIG, th_fz_oracle_traps_how());

		if (n > 0 && (size_t)n < sizeof(line))
			put_line(th_fz_oracle_stdout(), line, (size_t)n);
	}
	s.last_flush = now_ns();
	atexit(at_exit);
}

static void print_result(const struct th_fz_result *r)
{
	char line[sizeof(r->chain) + 256];
	int n = snprintf(line, sizeof(line), TH_FZ_RESULT_PREFIX "outcome=%s sig=%s goal=%d chain=%s\n",
			 th_outcome_name(r->outcome), r->sig, r->goal, r->chain);

	if (n > 0)
		put_line(th_fz_oracle_stdout(), line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void count(const struct th_fz_result *r)
{
	s.execs++;
	if (r->outcome >= 0 && r->outcome < TH_OUTCOME_COUNT)
		s.counts[r->outcome]++;
	if (r->outcome == TH_HIJACKED && !s.first_hijack) {
		s.first_hijack = s.execs;
		s.first_hijack_t = now_ns();
	}
	if (r->goal && !s.goal) {
		s.goal = s.execs;
		s.goal_t = now_ns();
	}
}

static void record_finding(const struct th_fz_result *r)
{
	char line[sizeof(r->chain) + 256];
	int n;

	if (s.stats_fd >= 0) {
		n = snprintf(line, sizeof(line), TH_FZ_FINDING_PREFIX "pid=%ld t=%llu execs=%llu sig=%s chain=%s\n",
			     (long)getpid(), now_ns(), s.execs, r->sig, r->chain);
		if (n > 0)
			put_line(s.stats_fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	}
	if (s.known_fd >= 0) {
		n = snprintf(line, sizeof(line), "%s\n", r->sig);
		if (n > 0 && (size_t)n < sizeof(line))
			put_line(s.known_fd, line, (size_t)n);
	}
	learn(r->sig);
}

int th_fz_session_one(const uint8_t *data, size_t size)
{
	struct th_fz_result r;

	th_fz_exec(data, size, &r);
	count(&r);
	if (s.replay) {
		print_result(&r);
		return 0;
	}
	if (r.outcome == TH_HARNESS_ERROR) {
		fprintf(stderr, "timerharness overflow: harness error: %s\n", r.chain);
		flush_stats();
		abort();
	}
	/* A signature not known here may be by now: AFL++ forks each run's
	 * process from one that read the file at start, and a sibling may
	 * have reported it since (the file is read again, rarely: a finding). */
	if (th_outcome_got_through(r.outcome) && !is_known(r.sig) && (read_known(), !is_known(r.sig))) {
		th_fz_explain(&r);
		record_finding(&r);
		flush_stats();
		fprintf(stderr, "timerharness overflow: FINDING %s\n  chain: %s\n", r.sig, r.chain);
		abort();	/* the engine saves the input */
	}
	if ((s.execs & 1023) == 0 && now_ns() - s.last_flush >= TH_FZ_STATS_MS * 1000000ULL)
		flush_stats();
	/* A hang is counted, and kept out of the corpus (libFuzzer: -1 rejects
	 * an input whatever its coverage): a callback that calls itself runs
	 * to the watchdog, tens of milliseconds, and every mutant of it too. */
	return r.outcome == TH_HANG ? -1 : 0;
}

void th_fz_session_death(struct th_fz_result *r)
{
	count(r);
	s.died = 1;
	if (s.replay) {
		print_result(r);
		return;
	}
	if (th_outcome_got_through(r->outcome) && !is_known(r->sig)) {
		th_fz_explain(r);
		record_finding(r);
	}
	if (s.stats_fd >= 0) {
		char line[256];
		int n = snprintf(line, sizeof(line), TH_FZ_DEATH_PREFIX "pid=%ld t=%llu execs=%llu sig=%s\n",
				 (long)getpid(), now_ns(), s.execs, r->sig);

		if (n > 0 && (size_t)n < sizeof(line))
			put_line(s.stats_fd, line, (size_t)n);
	}
	flush_stats();
}

/* SPDX-License-Identifier: MIT */
/*
 * th-bench-floor: what this machine charges for the things every matrix run
 * and every fuzz execution is made of, measured here, so that a throughput
 * figure can be read against its floor (bench/README.md, "The machine's
 * floor"):
 *
 *  - a process: fork(), the child's _exit(0), the parent's waitpid(), from a
 *    small process; one at a time, then from two processes at once (the
 *    matrix's --jobs 2), as processes per wall second in all;
 *  - a page a fresh child touches first, by reading and by writing (copy on
 *    write), of memory its parent had written: what a run pays per page of
 *    the server's memory it uses;
 *  - a ptrace stop: a traced child's int3, the tracer's waitpid() and
 *    PTRACE_CONT (the runner's breakpoints, its fork and exit events);
 *  - a caught fault: SIGSEGV to a handler that siglongjmp()s back (the fuzz
 *    oracle's CRASHED and BLOCKED_CFI executions), and a system call.
 *
 * Each figure is the median of --reps samples (default 5) of a loop timed
 * on CLOCK_MONOTONIC; the lines say so. Nothing here is compared with a
 * fixed number: it prints what it measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/proc.h"
#include "lib/stats.h"

#define MAX_REPS 101
#define TOUCH_PAGES 256
#define PAGE 4096

static void die(const char *what)
{
	fprintf(stderr, "th-bench-floor: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void reap(pid_t pid)
{
	int st;

	if (th_wait_child(pid, &st))
		die("waitpid");
	if (!WIFEXITED(st))
		errno = ECHILD, die("a child did not exit");
}

/* Seconds for @n fork/_exit/waitpid of this process. */
static double forks(unsigned n)
{
	double t0 = th_now_s();

	for (unsigned i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (!p)
			_exit(0);
		reap(p);
	}
	return th_now_s() - t0;
}

/* Processes per wall second with two forking at once (each @n forks). */
static double forks_two(unsigned n)
{
	int go[2];
	pid_t w[2];
	double t0;

	if (pipe(go))
		die("pipe");
	for (int k = 0; k < 2; k++) {
		if ((w[k] = fork()) < 0)
			die("fork");
		if (!w[k]) {
			char c;

			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(1);
			forks(n);
			_exit(0);
		}
	}
	close(go[0]);
	t0 = th_now_s();
	close(go[1]);	/* both start */
	reap(w[0]);
	reap(w[1]);
	return 2.0 * n / (th_now_s() - t0);
}

/* Microseconds a page for a fresh child's first touch of @pages pages its
 * parent wrote, by reading (@by_write 0) or writing, less a child that
 * touches none. */
static double touch(unsigned char *m, unsigned pages, int by_write, unsigned n)
{
	double t[2];

	for (int with = 0; with < 2; with++) {
		double t0 = th_now_s();

		for (unsigned i = 0; i < n; i++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			if (!p) {
				volatile unsigned char *v = m;
				unsigned s = 0;

				for (unsigned k = 0; with && k < pages; k++) {
					if (by_write)
						v[(size_t)k * PAGE] = 2;
					else
						s += v[(size_t)k * PAGE];
				}
				_exit((int)(s & 0));
			}
			reap(p);
		}
		t[with] = th_now_s() - t0;
	}
	return (t[1] - t[0]) / n / pages * 1e6;
}

/* Microseconds a ptrace stop: a traced child's int3, waitpid, PTRACE_CONT. */
static double stops(unsigned n)
{
	pid_t p = fork();
	double t0;
	int st;

	if (p < 0)
		die("fork");
	if (!p) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(3);
		raise(SIGSTOP);
		for (unsigned i = 0; i < n; i++)
			__asm__ volatile("int3");
		_exit(0);
	}
	if (waitpid(p, &st, 0) != p || !WIFSTOPPED(st))
		errno = ECHILD, die("the traced child did not stop (ptrace denied?)");
	ptrace(PTRACE_CONT, p, NULL, NULL);
	t0 = th_now_s();
	for (unsigned i = 0; i < n; i++) {
		if (waitpid(p, &st, 0) != p || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
			errno = ECHILD, die("the traced child did not stop at its int3");
		ptrace(PTRACE_CONT, p, NULL, NULL);
	}
	t0 = th_now_s() - t0;
	reap(p);
	return t0 / n * 1e6;
}

static sigjmp_buf back;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

/* Microseconds a SIGSEGV caught and left by siglongjmp() (no mask saved,
 * as the fuzz oracle's sigsetjmp(.., 0)). */
static double faults(unsigned n)
{
	struct sigaction sa;
	double t0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		die("sigaction");
	t0 = th_now_s();
	for (volatile unsigned i = 0; i < n; i++)
		if (!sigsetjmp(back, 0))
			*(volatile int *)(uintptr_t)8 = 1;
	t0 = th_now_s() - t0;
	signal(SIGSEGV, SIG_DFL);
	return t0 / n * 1e6;
}

static double syscalls(unsigned n)
{
	double t0 = th_now_s();

	for (unsigned i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (th_now_s() - t0) / n * 1e6;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: th-bench-floor [--reps R] [--scale S]\n"
		   "What this machine charges for a process, a page first touched, a ptrace\n"
		   "stop, a caught fault and a system call: each the median of R samples\n"
		   "(1 to %d, default 5) of a timed loop; S (1 to 100, default 10) scales\n"
		   "the loops (S 1: a quick look). bench/README.md says how to read it.\n",
		MAX_REPS);
}

int main(int argc, char **argv)
{
	double v[6][MAX_REPS];
	unsigned reps = 5, scale = 10;
	unsigned char *m;

	for (int i = 1; i < argc; i += 2) {
		char *end;
		unsigned long x;

		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (i + 1 >= argc || (strcmp(argv[i], "--reps") && strcmp(argv[i], "--scale"))) {
			fprintf(stderr, "th-bench-floor: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
		errno = 0;
		x = strtoul(argv[i + 1], &end, 10);
		if (errno || *end || end == argv[i + 1] || x < 1 ||
		    x > (argv[i][2] == 'r' ? MAX_REPS : 100)) {
			fprintf(stderr, "th-bench-floor: %s: '%s' is not a number in range\n", argv[i],
				argv[i + 1]);
			return 2;
		}
		*(argv[i][2] == 'r' ? &reps : &scale) = (unsigned)x;
	}
	m = mmap(NULL, (size_t)TOUCH_PAGES * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die("mmap");
	memset(m, 1, (size_t)TOUCH_PAGES * PAGE);
	for (unsigned r = 0; r < reps; r++) {
		v[0][r] = forks(50 * scale) / (50 * scale) * 1e6;
		v[1][r] = forks_two(50 * scale);
		v[2][r] = touch(m, TOUCH_PAGES, 0, 5 * scale);
		v[3][r] = touch(m, TOUCH_PAGES, 1, 5 * scale);
		v[4][r] = stops(500 * scale);
		v[5][r] = faults(2000 * scale);
	}
	printf("th-bench-floor: median of %u samples each, CLOCK_MONOTONIC, not pinned\n", reps);
	printf("process (fork, _exit, waitpid), one at a time  %8.1f us\n", th_median(v[0], reps));
	printf("processes, two forking at once                 %8.0f a second in all\n",
	       th_median(v[1], reps));
	printf("page first read by a fresh child               %8.2f us\n", th_median(v[2], reps));
	printf("page first written by a fresh child (COW)      %8.2f us\n", th_median(v[3], reps));
	printf("ptrace stop (int3, waitpid, PTRACE_CONT)       %8.2f us\n", th_median(v[4], reps));
	printf("SIGSEGV caught, siglongjmp back                %8.2f us\n", th_median(v[5], reps));
	printf("system call (getppid)                          %8.2f us\n", syscalls(200000 * scale / 10));
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "th-bench-floor: standard output: %s\n", strerror(errno));
		return 3;
	}
	return 0;
}

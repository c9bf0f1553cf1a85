/* SPDX-License-Identifier: MIT */
/*
 * A crafted child for the classifier's tests (tests/cfi_test.c), built by
 * tests/cfi.cmake under several configs. Shaped like an attack binary where
 * the classifier looks: a dispatch function named call_timer_fn whose
 * indirect call the configs guard, the legitimate callback under its real
 * name, the privileged state (sim_cpu, current_cred) with its state map. Each
 * mode either does a real thing the classifier must see, or forges what a
 * payload could print to pass for a defence, a hijack or a clean run.
 *
 * The dispatch's type is void (*)(unsigned long) and the legitimate callback
 * takes a struct forge_timer *, as in the 4.14-rc3 shim: under CFI the
 * legitimate call traps (legit-trap), which is a false positive.
 *
 *   legit            call_timer_fn(legitimate callback), done (run without CFI)
 *   legit-trap       the same under CFI: the check stops the legitimate call
 *   bad-call         call_timer_fn(a function of another type): CFI stops it
 *   fake-trap-line <vaddr>
 *                    print a TH-TRAP line for the check at file address
 *                    <vaddr> (a real guard of call_timer_fn), then raise(SIGILL)
 *   fake-diag        print the cfi-icall diagnostic on stderr, then run clean
 *   fake-chosen      a target prints ` chosen=1` inside its argument
 *   fake-token       a TH-TARGET line with another run's token, then run clean
 *   nul-line         a TH-TARGET chosen=1 line with a NUL byte in it
 *   fake-asan        an AddressSanitizer report on stderr, then exit(1)
 *   asan-cut         `==<pid>==ERROR: AddressSanitizer: ` and nothing after it,
 *                    exiting with the sanitizer code of this run
 *   huge             clean run, then MiBs of output: NULs, one endless line,
 *                    an ASan report past the cut
 *   trap-elsewhere   a ud2 in call_timer_fn_prepare (a name containing
 *                    call_timer_fn), not in the dispatch
 *   cfi-elsewhere    a wrong-type indirect call in other_dispatch: a real CFI
 *                    check (kcfi: listed in .kcfi_traps) of another function
 *   lost-timer       never dispatches, prints TH-LEGIT intended=1 and TH-DONE
 *   cr4-write        writes CR4 directly (as a planted pprev would), runs clean
 *   segv             a store to address 0x10
 *   wild-jump        a call to address 0x10 (run without CFI)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfi/hardening.h"
#include "cfi/trap_report.h"
#include "runner/contract.h"

struct forge_timer {
	void (*function)(unsigned long);
	unsigned long data;
};

struct forge_cpu {
	unsigned long cr4, writes;
};
struct forge_cred {
	unsigned int usage, uid, gid, euid;
};

struct forge_cpu sim_cpu = { 0x3407f0UL, 0 };
struct forge_cred current_cred = { 1, 1000, 1000, 1000 };

TH_STATE_MAP_ATTR const struct th_state_field TH_STATE_MAP[] = {
	{ "sim_cpu", "cr4", 0, sizeof(sim_cpu.cr4) },
	{ "current_cred", "uid", 4, 4 },
	{ "current_cred", "euid", 12, 4 },
	{ "", "", 0, 0 },
};

static char token[TH_TOKEN_LEN + 1] = "-";

/* One line, one write(2): "TH-<kind>: run=<token> <text>". */
static void emit(const char *kind, const char *text)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "TH-%s: run=%s %s\n", kind, token, text);

	if (n > 0 && write(STDOUT_FILENO, line, (size_t)n) < 0)
		_exit(3);
}

static void put(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) < 0)
		_exit(3);
}

/* ---- the callbacks -------------------------------------------------------------------- */

__attribute__((noinline)) void prb_retire_rx_blk_timer_expired(struct forge_timer *t);
__attribute__((noinline)) void prb_retire_rx_blk_timer_expired(struct forge_timer *t)
{
	emit("LEGIT", t ? "intended=1 the legitimate callback on its own timer" : "intended=0 NULL");
}

/* A target of the call site's own type, printing what the attacker wants read. */
__attribute__((noinline)) void forge_path_target(unsigned long data);
__attribute__((noinline)) void forge_path_target(unsigned long data)
{
	(void)data;
	emit("TARGET", "name=call_usermodehelper_stub chosen=0 path=0x1000 \" chosen=1\"");
}

/* Of another type: every CFI scheme stops it at the dispatch. */
__attribute__((noinline)) void forge_commit_creds(struct forge_cred *c);
__attribute__((noinline)) void forge_commit_creds(struct forge_cred *c)
{
	(void)c;
	emit("TARGET", "name=commit_creds_stub chosen=0 ran through a wrong-type pointer");
}

typedef void forge_fn(unsigned long);

/* The dispatch: the classifier proves checks guarding this call only. */
static __attribute__((noinline)) void call_timer_fn(struct forge_timer *timer, forge_fn *fn,
						     unsigned long data)
{
	(void)timer;
	fn(data);
}

/* ---- elsewhere --------------------------------------------------------------------------- */

/* Named like the dispatch, but not it: its trap proves nothing. */
__attribute__((noinline)) void call_timer_fn_prepare(int mode);
__attribute__((noinline)) void call_timer_fn_prepare(int mode)
{
	if (mode)
		__builtin_trap();
}

typedef void other_fn(int);
static other_fn *volatile other_target;

__attribute__((noinline)) void other_wrong(long v);
__attribute__((noinline)) void other_wrong(long v)
{
	(void)v;
	emit("NOTE", "other_wrong ran");
}

__attribute__((noinline)) void other_right(int v);
__attribute__((noinline)) void other_right(int v)
{
	(void)v;
	emit("NOTE", "other_right ran");
}

/* Another function's indirect call, with a CFI check of its own. */
__attribute__((noinline)) void other_dispatch(void);
__attribute__((noinline)) void other_dispatch(void)
{
	other_target(7);
}

/* ---- modes ------------------------------------------------------------------------------- */

static void dispatch(forge_fn *fn, unsigned long data)
{
	static struct forge_timer timer;

	timer.function = fn;
	timer.data = data;
	call_timer_fn(&timer, timer.function, timer.data);
}

static void done(void)
{
	emit("DONE", "fired=1");
}

extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

/* The sanitizer exit code this run was given (ASAN_OPTIONS exitcode=). */
static int runtime_exitcode(void)
{
	const char *o = getenv("ASAN_OPTIONS"), *e = o ? strstr(o, "exitcode=") : NULL;

	return e ? atoi(e + 9) : 1;
}

static int run(const char *mode, const char *arg)
{
	static struct forge_timer own;
	/* Deliberate casts: the legitimate callback stored as the call site's type
	 * (the rc3 shim), and a wrong-type target. */
	forge_fn *legit = TH_DELIBERATE_FN_CAST(forge_fn *, prb_retire_rx_blk_timer_expired);
	forge_fn *wrong = TH_DELIBERATE_FN_CAST(forge_fn *, forge_commit_creds);
	char line[256];

	if (!strcmp(mode, "legit") || !strcmp(mode, "legit-trap")) {
		dispatch(legit, (unsigned long)&own);
	} else if (!strcmp(mode, "bad-call")) {
		emit("LANDED", "yes function=forge_commit_creds");
		dispatch(wrong, (unsigned long)&current_cred);
	} else if (!strcmp(mode, "fake-trap-line")) {
		uintptr_t pc = (uintptr_t)__ehdr_start + (uintptr_t)strtoull(arg ? arg : "0", NULL, 0);

		snprintf(line, sizeof(line), "sig=4 name=SIGILL pc=0x%lx ehdr=0x%lx bytes=670fb940 addr=0x%lx",
			 (unsigned long)pc, (unsigned long)(uintptr_t)__ehdr_start, (unsigned long)pc);
		emit("TRAP", line);
		raise(SIGILL);
		return 1;
	} else if (!strcmp(mode, "fake-diag")) {
		static const char diag[] =
			"timer_core/legacy.c:22:2: runtime error: control flow integrity check for type "
			"'void (unsigned long)' failed during indirect function call\n";

		put(STDERR_FILENO, diag, sizeof(diag) - 1);
		dispatch(legit, (unsigned long)&own);
	} else if (!strcmp(mode, "fake-chosen")) {
		dispatch(forge_path_target, 0);
	} else if (!strcmp(mode, "fake-token")) {
		static const char fake[] = "TH-TARGET: run=0123456789abcdef name=write_cr4 chosen=1 val=0x407f0\n";

		put(STDOUT_FILENO, fake, sizeof(fake) - 1);
		dispatch(legit, (unsigned long)&own);
	} else if (!strcmp(mode, "nul-line")) {
		int n = snprintf(line, sizeof(line), "TH-TARGET: run=%s name=write_cr4 chosen=1", token);

		line[n++] = '\0';
		n += snprintf(line + n, sizeof(line) - (size_t)n, " val=0x407f0\n");
		put(STDOUT_FILENO, line, (size_t)n);
		dispatch(legit, (unsigned long)&own);
	} else if (!strcmp(mode, "fake-asan")) {
		snprintf(line, sizeof(line), "==%d==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n",
			 (int)getpid());
		put(STDERR_FILENO, line, strlen(line));
		return 1;
	} else if (!strcmp(mode, "asan-cut")) {
		snprintf(line, sizeof(line), "junk ERROR: AddressSanitizer: \n==%d==ERROR: AddressSanitizer: ",
			 (int)getpid());
		put(STDERR_FILENO, line, strlen(line));
		return runtime_exitcode();
	} else if (!strcmp(mode, "huge")) {
		static char junk[1 << 16];

		dispatch(legit, (unsigned long)&own);
		done();
		/* 3 MiB of stdout: NULs, one line without end. */
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = i % 7 ? 'x' : '\0';
		for (int i = 0; i < 48; i++)
			put(STDOUT_FILENO, junk, sizeof(junk));
		/* 1.5 MiB of stderr, then a report the runner never keeps. */
		memset(junk, 'e', sizeof(junk));
		for (int i = 0; i < 24; i++)
			put(STDERR_FILENO, junk, sizeof(junk));
		snprintf(line, sizeof(line), "\n==%d==ERROR: AddressSanitizer: heap-buffer-overflow\n",
			 (int)getpid());
		put(STDERR_FILENO, line, strlen(line));
		return 0;
	} else if (!strcmp(mode, "trap-elsewhere")) {
		call_timer_fn_prepare(1);
		return 1;
	} else if (!strcmp(mode, "cfi-elsewhere")) {
		other_dispatch();
		return 1;
	} else if (!strcmp(mode, "lost-timer")) {
		emit("LEGIT", "intended=1 the legitimate callback on its own timer");
	} else if (!strcmp(mode, "cr4-write")) {
		*(volatile unsigned long *)&sim_cpu.cr4 = 0x407f0UL;
		dispatch(legit, (unsigned long)&own);
	} else if (!strcmp(mode, "segv")) {
		*(volatile int *)(uintptr_t)0x10 = 1;
		return 1;
	} else if (!strcmp(mode, "wild-jump")) {
		dispatch((forge_fn *)(uintptr_t)0x10, 0); /* deliberate: a non-code address */
		return 1;
	} else {
		fprintf(stderr, "cfi_forge: unknown mode '%s'\n", mode);
		return 2;
	}
	done();
	return 0;
}

int main(int argc, char **argv)
{
	const char *t = getenv(TH_TOKEN_ENV);

	if (t && strlen(t) == TH_TOKEN_LEN)
		memcpy(token, t, sizeof(token));
	th_install_trap_reporter();
	/* Both kinds stored, so no build can fold other_dispatch's check away. */
	other_target = argc > 3 ? other_right : TH_DELIBERATE_FN_CAST(other_fn *, other_wrong);
	if (argc < 2) {
		fprintf(stderr, "usage: %s <mode> [arg]\n", argv[0]);
		return 2;
	}
	return run(argv[1], argc > 2 ? argv[2] : NULL);
}

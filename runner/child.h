/* SPDX-License-Identifier: MIT */
/*
 * The child runner: runs a program (an attack cell, a probe, a fuzz input's
 * replay) in its own process and observes it from outside, so that what the
 * classifier judges never rests on what the program printed about itself:
 *
 *  - its own process group, stdout and stderr captured (each cut at
 *    TH_CHILD_OUT_CAP), a time limit, resource limits;
 *  - ties to this run: a per-run token (environment TH_RUN_TOKEN) the child
 *    puts in its protocol lines, and per-run exit codes for the sanitizer
 *    runtimes (ASAN_OPTIONS / UBSAN_OPTIONS exitcode=; per server for a run
 *    a fork server made, below), so a report printed without the runtime's
 *    own exit is not a report;
 *  - with opts.trace, ptrace (PTRACE_TRACEME, PTRACE_O_EXITKILL): at the
 *    signal-delivery-stop of the first SIGILL, SIGTRAP, SIGSEGV, SIGBUS or
 *    SIGFPE the kernel raised (si_code > 0: not kill(2) or raise(3)) the
 *    registers, the bytes at pc and the load address (/proc/PID/maps) are
 *    read from the process; with opts.site_func, breakpoints on that
 *    function's entry (each dispatch and its call target, computed by the
 *    binary reader from the entry state) and on the sanitizer handler calls
 *    that guard its indirect calls; with opts.state_map, the program's
 *    privileged state (runner/contract.h) read at its exit;
 *  - with opts.lockup_func, a soft lockup seen in a fraction of the time
 *    limit, as kernel/watchdog.c's watchdog_timer_fn() sees one (it only
 *    observes; the task spins on): after opts.lockup_ms of wall time, and
 *    every as many again, the child is stopped (kill(2) SIGSTOP: a
 *    signal-delivery-stop, never delivered), and when its pc is in the
 *    function of that name (or its LTO copy, name.llvm.N) a turn of its
 *    loop is single-stepped from there, each instruction decoded from the
 *    binary (binread/binread.h th_bin_insn()) before it runs: a turn that stays
 *    in the function, writes no memory (no store, push, call, syscall: an
 *    allow-list) and comes back to the same pc with every register as it
 *    was (general-purpose, flags, segments, the whole XSAVE state) starts
 *    the same turn again, from the same state, for ever; the child is then
 *    killed as at the time limit (obs.lockup). Otherwise it resumes where
 *    the steps left it, untouched, and the time limit applies.
 *
 * Several children run at once: spawn them, pump them until done. The pump
 * waits in poll(2) on the children's pipes and on a SIGCHLD self-pipe (ptrace
 * stops arrive as SIGCHLD too), never sleeping past a state change or the
 * next time limit. It installs a SIGCHLD handler (SA_RESTART) on first use.
 *
 * A fork server (struct th_fsrv; the program's side: runner/fork_server.h)
 * pays the exec, the loading and the runtimes' start once per binary: the
 * server is spawned and traced as a child is (PTRACE_TRACEME at its exec,
 * then PTRACE_O_TRACEFORK too), the breakpoints are planted in it once and
 * its load address read once, and each run is a request on its socket
 * (argv, token, CPU limit; the run's stdout and stderr pipes, made here, as
 * SCM_RIGHTS). The server forks; the child arrives traced (the server's
 * PTRACE_EVENT_FORK names it, then its own SIGSTOP), with the server's
 * breakpoints in its copy of memory, and from there it is a child as
 * above: its own process group, its pipes, rlimits (RLIMIT_CPU counts
 * from 0 at the fork; the address-space cap is the server's, set before its
 * exec as for a child), the time limit from the fork and the kill of its
 * group, the soft-lockup proof, the state map read at its exit, the first
 * trap, the same options (never PTRACE_O_TRACEFORK: a run's own children are
 * not traced, as at an exec). What differs, and where:
 *  - the sanitizer runtimes read ASAN_OPTIONS/UBSAN_OPTIONS once, at the
 *    server's start: exitcode= is random per server, not per run (each
 *    run's obs.san_exitcode is its server's), so a report still needs the
 *    runtime's own exit; TH_RUN_TOKEN is still per run;
 *  - address-space layout is the server's: every run of one server has
 *    its addresses (a traced child starts with ASLR off, ADDR_NO_RANDOMIZE,
 *    so an exec'd run of the same binary has them too);
 *  - obs.seconds counts from the fork, not from before an exec.
 * A server that dies, stops forking (no fork within the run's time limit)
 * or forks what was not asked is killed and marked failed: every run it
 * still held (asked, not forked) is a harness error naming it, never an
 * outcome; runs already forked are processes of their own and go on. Its
 * caller starts another for the runs left.
 */
#ifndef TH_RUNNER_CHILD_H
#define TH_RUNNER_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "binread/binread.h"
#include "runner/contract.h"

/* Per stream; a child printing more is cut (the protocol lines come first). */
#define TH_CHILD_OUT_CAP	(1 << 20)
#define TH_CHILD_MAX_DISPATCH	16
#define TH_CHILD_MAX_STATE	8

struct th_child_opts {
	double timeout;		/* seconds of wall time; then SIGKILL to the group */
	bool cap_memory;	/* a 4 GiB address space (never for ASan: terabytes of shadow) */
	bool trace;		/* observe with ptrace (signals, registers, breakpoints) */
	const char *site_func;	/* with trace: the dispatch function watched (call_timer_fn) */
	const char *state_map;	/* with trace: TH_STATE_MAP_SYMBOL, or NULL */
	const char *lockup_func;	/* with trace: the spin a soft lockup is proven in
					 * ("lock_timer_base"), or NULL: never probed */
	unsigned lockup_ms;	/* the first probe after this much wall time, and every
				 * as many again; 0: never */
};

/* A load the proven turn made: where, how wide, what it read (run-time). */
struct th_lockup_load {
	uint64_t addr, value;
	unsigned size;
};
#define TH_LOCKUP_MAX_LOADS 4

/* The first hardware trap, as the kernel delivered it (signal-delivery-stop). */
struct th_trap_obs {
	int sig;
	int code;			/* si_code: > 0, raised by the CPU/kernel */
	uint64_t pc;			/* run-time rip */
	uint64_t addr;			/* si_addr */
	uint64_t vaddr;			/* pc - bias: the address in the file */
	uint64_t regs[TH_NREGS];
	unsigned char bytes[16];	/* read from the process at pc */
	size_t nbytes;
	int file_bytes_match;		/* -1 unknown, 0 differ (not this binary), 1 same */
	/* Where it is, by the binary reader (opts.site_func): */
	int site;			/* index of the site whose guard this is, -1: none */
	int guard;			/* index of that guard, -1: none */
	int target_known;
	uint64_t target;		/* run-time call target, from the guard's register */
	int admits;			/* the check re-evaluated on that target: 1, 0, -1 */
};

/* One entry into opts.site_func: what its indirect call will jump to. */
struct th_dispatch_obs {
	int known;
	uint64_t target;		/* run-time */
	int admits;			/* the check on it, evaluated in the live process */
};

/* One field of the state map, before (the file) and after (the process). */
struct th_state_obs {
	char object[24], field[16];
	uint64_t before, after;
};

/* What the runner saw of one child process; the classifier's only input. */
struct th_child_obs {
	const char *config;		/* configs.tsv name */
	const char *binary;		/* the executable that ran */
	const char *toolchain;		/* "clang-14": the compiler that built it; may be NULL */
	int exited, exit_code;
	int signaled, signo;
	int timed_out;
	double seconds;
	const char *out, *err;		/* captured bytes, NUL-terminated, may hold NULs */
	size_t out_len, err_len;
	int out_cut, err_cut;		/* cut at TH_CHILD_OUT_CAP */

	/* Ties to this run. */
	pid_t pid;
	char token[TH_TOKEN_LEN + 1];
	int san_exitcode;		/* ASan's and UBSan's exitcode= for this run (one:
					 * a runtime holding both reads both options) */

	/* ptrace (opts.trace). */
	int traced;			/* traced from exec to its end */
	int execed;			/* exec succeeded */
	char harness_error[256];	/* "" or why the runner could not run/observe it */
	uint64_t bias;			/* run-time - file address of the main binary */
	const char *site_func;
	int have_trap;
	struct th_trap_obs trap;
	unsigned ndispatch;		/* entries into site_func (may exceed the array) */
	struct th_dispatch_obs dispatch[TH_CHILD_MAX_DISPATCH];
	int handler_hit;		/* a sanitizer handler guarding site_func was called */
	int handler_site, handler_guard;
	int handler_target_known;
	uint64_t handler_target;	/* run-time */
	int state_read;			/* the state map was read at exit */
	size_t nstate;
	struct th_state_obs state[TH_CHILD_MAX_STATE];
	/* A soft lockup proven in opts.lockup_func (then killed, as timed out): */
	int lockup;
	double lockup_seconds;		/* wall time at the proof */
	char lockup_where[160];		/* "lock_timer_base+0x1c", where the turn starts */
	char lockup_insn[64];		/* the instruction there */
	unsigned lockup_insns;		/* the turn's length in instructions */
	unsigned lockup_probes;		/* probes before (the proof's included) */
	size_t lockup_nloads;
	struct th_lockup_load lockup_load[TH_LOCKUP_MAX_LOADS];
};

struct th_bp {
	uint64_t addr;			/* run-time */
	unsigned char orig;
	int kind;			/* entry, handler */
	int site, guard;
};

struct th_fsrv;

struct th_child {
	pid_t pid;			/* 0: slot not in use, or asked of a server and
					 * not forked yet (srv set) */
	int fd[2];			/* stdout, stderr; -1 when closed */
	int exec_fd;			/* reads the errno of a failed exec; -1 */
	char *buf[2];
	size_t len[2];
	bool cut[2];
	bool reaped;
	int status;			/* waitpid() status once reaped */
	bool timed_out;			/* killed at the time limit */
	bool lockup;			/* killed at a proven soft lockup */
	bool probe_sent;		/* the probe's SIGSTOP is on its way */
	double probe_at;		/* seconds from start: the next probe */
	struct timespec start, end;
	double timeout;
	struct th_child_opts opts;
	char *binary;
	/* tracing */
	int phase;			/* internal: before the first stop, running */
	int stepping;			/* breakpoint being stepped over, -1 */
	struct th_bin *bin;
	const struct th_func_sites *sites;
	struct th_bp bps[TH_SITE_MAX_GUARDS + 2];
	size_t nbps;
	/* fork server */
	struct th_fsrv *srv;		/* asked of this server, not forked yet */
	uint32_t req_id;
	struct th_fsrv *own;		/* this process is that server */
	struct th_child_obs obs;	/* filled as it runs */
};

#define TH_FSRV_PENDING 64

/* One fork server: a traced process of one binary, forking runs on request. */
struct th_fsrv {
	struct th_child proc;		/* the server itself (proc.pid 0: none) */
	int sock;			/* requests; -1 once closed */
	uint32_t next_id;
	uint32_t fifo[TH_FSRV_PENDING];	/* ids asked, not forked, in order */
	unsigned head, npending;
	pid_t born[TH_FSRV_PENDING];	/* forks seen, not yet given to a run */
	unsigned nborn;
	unsigned nforked, nasked;
	bool failed;			/* dead, hung or misbehaving: ask nothing more */
	char why[200];			/* why it failed */
};

/*
 * Start @argv (argv[0] a path) with @o. Return: 0, or -1 with errno set
 * (nothing left open). A failed exec is not an error here: the child exits
 * 127 and the observation says the exec failed.
 */
int th_child_spawn(struct th_child *c, const char *const argv[], const struct th_child_opts *o);

/* Wait until something happens (output, a stop, an exit, a time limit) and
 * handle it, for @n children. */
void th_child_pump(struct th_child *cs, int n);

/* Reaped, and both pipes read to the end. */
bool th_child_done(const struct th_child *c);

/* What the classifier reads, of a finished child; strings stay owned by @c. */
void th_child_observe(struct th_child_obs *o, const struct th_child *c, const char *config,
		      const char *toolchain);

/* Close and free; the slot is reusable. */
void th_child_free(struct th_child *c);

/* Kill @c (and its group), wait for it, free it; a run still waiting for
 * its server is dropped. Safe on a free slot. */
void th_child_abort(struct th_child *c);

/* Does @binary have the fork-server mode (runner/fork_server.h)? */
bool th_fsrv_capable(const char *binary);

/* Start a server of @binary: traced as @o says (trace, site_func,
 * state_map: the breakpoints and load address every run inherits;
 * cap_memory: the server's address space, which its runs inherit).
 * Return: 0, or -1 (errno; nothing left open). */
int th_fsrv_start(struct th_fsrv *s, const char *binary, const struct th_child_opts *o);

/* Ask @s for a run of @argv (argv[0] its binary), observed as th_child_spawn()
 * with @o would. Return: 0, or -1 (errno; the server failed: s->why). */
int th_child_spawn_fsrv(struct th_child *c, struct th_fsrv *s, const char *const argv[],
			const struct th_child_opts *o);

/* th_child_pump() over @cs and the servers @ss (NULL: a free slot) they
 * were asked of. */
void th_child_pump_fsrv(struct th_child *cs, int n, struct th_fsrv **ss, int ns);

/* Holds no run that was asked and not forked. */
bool th_fsrv_idle(const struct th_fsrv *s);

/* Close its socket, kill it (never its runs), wait for it, free it. */
void th_fsrv_stop(struct th_fsrv *s);

/* Spawn and pump one child to completion. Return: 0, or -1 (errno). */
int th_child_run(struct th_child *c, const char *const argv[], const struct th_child_opts *o);

/* "SIGSEGV", ... or "SIG<n>" into buf. Return: buf. */
const char *th_signal_name(int sig, char *buf, size_t n);

#endif

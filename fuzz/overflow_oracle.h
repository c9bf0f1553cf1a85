/* SPDX-License-Identifier: MIT */
/*
 * The overflow target's oracle: runs one attacker program against the victim
 * world and says what happened, in the matrix's vocabulary
 * (results/outcome.h), to the matrix's standard of proof. Built without
 * coverage or comparison tracing: it handles victim addresses.
 *
 * What it trusts:
 *  - the targets' own reports (TH-TARGET/TH-LEGIT lines, attacks/victim.c),
 *    which th_emit() hands to the oracle (th_emit_mem_put(),
 *    attacks/victim.h) as a record (the line's format, its arguments,
 *    copies of its strings) in a buffer of the oracle's outside the world,
 *    where no planted pointer leads (a wild write stays in the world,
 *    below), and made text only where it is read (overflow_oracle.c); a
 *    line counts only with this run's token (16 hex digits, fresh each run,
 *    compared where the engine does not see it), so bytes that got there
 *    otherwise are no report;
 *  - the attacker's program as decoded (harness memory, outside the world):
 *    which bytes it wrote where, which of them were its own literals;
 *  - signals, with the pc from their ucontext, and the trap addresses read
 *    from the binary at start-up (overflow_traps.h).
 * It never reads the victim's counters or its recorded intent (a wild write
 * can forge them: the TARGET lines' chosen= is the matrix's, never read
 * here). The world state it reads is the simulated privileged state (CR4,
 * the cred the attacker's task runs with): that state changing IS the
 * PRIVILEGED_WRITE outcome, whoever wrote it; and the attacker's task
 * (its cred pointers, its state), where a target's effect is seen. CR4 is a register outside the
 * world (attacks/victim.h): only write_cr4's MOV to CR4 changes it, and a
 * value the CPU refuses is #GP(0) there (CRASHED), so a CR4 change is always
 * a write_cr4 that ran (the chain names it), never a data write.
 *
 * What keeps the victim's wild writes and jumps in the world: addresses come
 * only from the leak table (bounded, overflow_world.h); every 8-byte window
 * of a write that looks like an address of this process is neutralised
 * before the write (th_fz_filter_op()); after it, every word it touched that
 * points outside the world, or into code other than a leak-table entry (a
 * pointer composed by a partial overwrite, a stack address copied from the
 * wheel's local lists), or holds an address with three or more of the
 * attacker's literal bytes, is made non-canonical (th_fz_check_written());
 * the victim's and the wheel's code has no comparison tracing, and the
 * oracle compares world bytes without memcmp() (libFuzzer hooks it and
 * would put the timer's function address in its dictionary), so the engine
 * never learns an address. A blind pointer then faults (CRASHED) instead of
 * reaching the engine's memory.
 *
 * Outcomes (the most severe observation of the run wins, but a fault after
 * a target ran, below):
 *  HIJACKED          a privileged target reported an argument the attacker
 *                    wrote, did what it does for the attacker (its effect,
 *                    observed in the world when its line is judged), and the
 *                    run did not fault after it: write_cr4(v) /
 *                    ring_force_close(v) where v is the attacker's literal 8
 *                    bytes in .data beside the .function it planted (the 4.14
 *                    layout's fn(data)), CR4 now v / the ring it names closed
 *                    with owner uid 0; commit_creds(c) (kernel/cred.c) on a
 *                    cred whose usage, uid, gid and euid are the attacker's
 *                    literals, the attacker's task now running with c (it
 *                    acts on the task the timer interrupt hit, the idle task
 *                    in this model: never seen); call_usermodehelper(p, argv,
 *                    envp, UMH_NO_WAIT) (kernel/umh.c) on the attacker's
 *                    path with argv and envp NULL or readable (its worker
 *                    execs it; the model stops there); process_timeout(task)
 *                    (kernel/time/timer.c) waking the attacker's own task,
 *                    planted where it reads it (.data on 4.14, the word after
 *                    the timer on 4.15). A target that faults at once on a
 *                    NULL or garbage argument did nothing: no TARGET line;
 *  PRIVILEGED_WRITE  CR4 or the cred's uid/gid/euid changed otherwise (CR4:
 *                    write_cr4 loaded a value that is not the attacker's);
 *  REDIRECTED        a privileged target ran, without the attacker's
 *                    argument or without its effect;
 *  CRASHED           SIGSEGV, SIGBUS, SIGFPE, or a SIGILL/SIGTRAP not at a
 *                    dispatch trap, during the run (caught, the world reset);
 *                    a SIGSEGV at write_cr4's MOV to CR4 is its #GP(0),
 *                    named with the value and the SDM's reason; a ud2 is a
 *                    BUG() of the victim's (commit_creds()'s BUG_ON, a sleep
 *                    in the softirq, the #UD of an FPU use after a CR4 load
 *                    that cleared OSXSAVE or OSFXSR), named with its note.
 *                    After a target ran or the privileged state changed, such
 *                    a fault is CRASHED whatever came before, each step at
 *                    most CRASHED: an oops in the timer softirq (or the switch
 *                    after it) panics, and the attacker keeps nothing
 *                    (cfi/classify.c judges the matrix's runs alike);
 *  HANG              a soft lockup proven: a turn of a spin loop of
 *                    lock_timer_base() or try_to_wake_up() that starts the
 *                    next from the same state (overflow_oracle.c: from int3s
 *                    on the loop's jump back, exits and xchgs; at the first
 *                    tick by single steps when the int3s cannot be written);
 *                    or the watchdog (a per-thread CPU-time timer, a tick
 *                    every TH_FZ_WATCHDOG_MS) found the run in the model's
 *                    code at two ticks;
 *  TIMER_LOST        the run ended, no callback ran;
 *  FALSE_POSITIVE    a dispatch check stopped the legitimate callback: the
 *                    call target, read as the matrix reads it (cfi/classify.c:
 *                    the register the binary reader names at the trap guard;
 *                    for -fsanitize=function's handler, the running timer's
 *                    .function), is prb_retire_rx_blk_timer_expired,
 *                    whatever the attacker wrote before;
 *  BLOCKED_CFI       a SIGILL/SIGTRAP whose pc is a dispatch trap; or the
 *                    -fsanitize=function report at the dispatch (its runtime
 *                    then ends the process); the call it stopped is another;
 *  DETECTED          a FORTIFY abort during the run (its report captured from
 *                    fd 2), an ASan report, a UBSan array-bounds report
 *                    (the last two end the process, as in the matrix);
 *  NO_EFFECT         the legitimate callback ran, nothing else happened.
 *
 * The chain ID names every step of the run, in the order each first
 * happened: a step is WHAT_VIA_HOW, WHAT a target that ran (WRITE_CR4,
 * WRITE_CR4_407F0 for a hijacked write_cr4 of the goal's value,
 * COMMIT_CREDS, USERMODEHELPER, FORCE_CLOSE, PROCESS_TIMEOUT) or a
 * privileged write no target made (CRED; CR4, the model broken), HOW the
 * timer it ran through (RING_TIMER, FORGED_TIMER, UNKNOWN) or what wrote
 * (LIST, CALLBACK; UNKNOWN). Each distinct step is named once, with the most
 * severe outcome of its runs; the write no target made comes after the
 * targets (its place among them is not observed). One step alone is the
 * chain ID; several are each followed by their own outcome and joined by
 * _THEN_: FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_VIA_FORGED_TIMER_HIJACKED.
 * So no target that ran is left out of a signature, and fuzz/expected.tsv
 * judges each step by itself (fuzz/fuzz_expect.h).
 */
#ifndef TH_FUZZ_OVERFLOW_ORACLE_H
#define TH_FUZZ_OVERFLOW_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "overflow_drive.h"
#include "results/outcome.h"

/* A run using this much CPU time is a HANG (a forged list can cycle). */
#define TH_FZ_WATCHDOG_MS 5

/* The longest chain ID; one that would be longer ends in _THEN_MORE. A
 * finding's file is named OUTCOME-CHAIN_ID.chain (under NAME_MAX). */
#define TH_FZ_CHAIN_ID_MAX 200

struct th_fz_result {
	enum th_outcome outcome;
	/* What ran or changed, and through what, step by step (above):
	 * WRITE_CR4_VIA_FORGED_TIMER, CRED_VIA_LIST, ...; "-" when nothing did. */
	char chain_id[TH_FZ_CHAIN_ID_MAX + 1];
	/* OUTCOME:CHAIN_ID: one finding per distinct value. */
	char sig[TH_FZ_CHAIN_ID_MAX + 32];
	/* The chain in full, on one line: the program's writes (technique,
	 * offsets, planted values), what ran with what, through which
	 * callback, what changed; and the evidence of the outcome. Empty
	 * outside a replay but for a harness error (verbose_chain) until
	 * th_fz_explain() writes it (a new finding's). */
	char chain[2048];
	int goal;		/* write_cr4(0x407f0) was hijacked (a WRITE_CR4_407F0 step) */
	int died;		/* decided in a sanitizer's hook: the process ends */
};

struct th_fz_oracle_opts {
	int no_leak;		/* ignore relocations (the attacker without a leak) */
	int tee;		/* copy the victim's lines to the original stdout */
	int verbose_chain;	/* describe every run's chain, not only findings and harness
				 * errors (tee: a replay does) */
};

/* Set up the world, the victim's report buffer, the trap set. Return: 0 or
 * -1 with err. */
int th_fz_oracle_init(const struct th_fz_oracle_opts *o, char *err, size_t n);

/* Where replays print (fd 1: the victim's lines go to the oracle's buffer). */
int th_fz_oracle_stdout(void);

/* The dispatch traps found at start-up. */
const char *th_fz_oracle_traps_how(void);

/* Run one input. The first call installs the signal handlers (after the
 * engine's own, which they chain to outside a run). */
void th_fz_exec(const uint8_t *data, size_t size, struct th_fz_result *r);

/* Write r's chain (r as th_fz_exec() or a sanitizer's hook just judged it:
 * before the next run, while its program, lines and world are as it left
 * them). The session asks for it for a new finding only. */
void th_fz_explain(struct th_fz_result *r);

/* Called when a sanitizer's report is about to end the process during a run
 * (the result has died = 1). Defined by the session (overflow_session.c). */
void th_fz_session_death(struct th_fz_result *r);

#endif

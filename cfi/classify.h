/* SPDX-License-Identifier: MIT */
/*
 * Classification of one cell run: what the runner observed of the child
 * (runner/child.h) -> an outcome (results/outcome.h) and one line of evidence,
 * the decisive observation.
 *
 * What the classifier trusts, and from where:
 *  - from the process, through ptrace (never from its output): the first
 *    trap the kernel raised (pc, registers, bytes at pc), every entry into
 *    the dispatch function TH_CFI_SITE_FUNC and its call target, a call into
 *    a sanitizer's check-failure handler guarding that dispatch, and the
 *    simulated machine's privileged state at exit (its state map,
 *    runner/contract.h, against the binary's initial values);
 *  - from the binary (binread/binread.h): which instructions are the checks
 *    guarding that function's indirect call, and which function a target is;
 *  - from the exit status: the sanitizer runtimes exit with this run's codes
 *    (obs.san_exitcode, obs.san_exitcode), so a report counts only with
 *    its runtime's exit;
 *  - from stdout, only protocol lines of this run: each is one write(2),
 *    `TH-<KIND>: run=<token> <fields>` with the runner's per-run token, its
 *    fields parsed in order (a line without the token, or cut, is ignored):
 *      TH-LANDED: run=T yes|no|partial <detail>   the overwrite, checked
 *      TH-TARGET: run=T name=<fn> chosen=<0|1> <what it received>
 *                 an attacker target ran; chosen=1 iff with the attacker's argument
 *      TH-LEGIT: run=T intended=<0|1> <detail>   the legitimate callback ran
 *                 on its own object (1) or on a corrupted argument (0)
 *      TH-DONE: run=T <detail>                    normal end
 *      TH-NOTE: run=T <narration>                 never decides anything
 *  - from stderr, only the sanitizer reports tied to the run as above.
 *
 * Decision order (first match wins):
 *  0. the runner could not run or observe the child: HARNESS_ERROR;
 *  1. a TH-TARGET line with chosen=1: HIJACKED, whatever happened afterwards;
 *  2. a field of the privileged state differs at exit from the binary's
 *     initial value: PRIVILEGED_WRITE (CR4 or the cred written, though no
 *     target got the attacker's argument);
 *  3. any other TH-TARGET line: REDIRECTED;
 *  4. a soft lockup the runner proved (obs.lockup: a turn of the loop of
 *     lock_timer_base() that changes nothing, runner/child.h), or timed
 *     out: HANG;
 *  5. the dispatch's CFI check stopped the call: a SIGILL (or SIGTRAP) whose pc
 *     is a guard of TH_CFI_SITE_FUNC's indirect call (exactly that function,
 *     that call site; the bytes at pc as in the file), the process dying by
 *     it; or, in a diag build, the guard's call into the sanitizer handler
 *     (a breakpoint), the runtime's exit with this run's code, and its
 *     diagnostic at the guard's source location. The call target is read
 *     from the register the binary reader names at that guard: when it is
 *     a victim's own callback (th_is_legit_callback()) that no other check of
 *     the dispatch admits, FALSE_POSITIVE (the check stopped the legitimate
 *     call, as in every control run of that build); else BLOCKED_CFI (a
 *     legitimate callback another check admits was sent down the wrong path
 *     by the write: 6.1's tasklet with use_callback cleared);
 *  6. a memory-safety report: ASan (`==<pid>==ERROR: AddressSanitizer:` with
 *     the child's pid, other than a SEGV-like kind) with its exit code,
 *     UBSan index out of bounds with its exit code, TH_FIELD_MEMCPY or glibc
 *     FORTIFY with SIGABRT: DETECTED;
 *  7. any other end without TH-DONE and exit 0 (a signal, an unproven trap,
 *     a non-zero exit): CRASHED;
 *  8. TH-DONE and exit 0, the dispatch function never entered: TIMER_LOST;
 *  9. TH-DONE and exit 0: NO_EFFECT (the evidence says whether the legitimate
 *     callback ran on its own object).
 * In a control run (is_control) BLOCKED_CFI and DETECTED become FALSE_POSITIVE:
 * there was no attack, so the defence stopped a legitimate call.
 */
#ifndef TH_CFI_CLASSIFY_H
#define TH_CFI_CLASSIFY_H

#include <stddef.h>

#include "binread/binread.h"
#include "results/outcome.h"
#include "runner/child.h"

/* The wheel's dispatch: the function whose indirect call CFI must guard. */
#define TH_CFI_SITE_FUNC "call_timer_fn"
/* The victims' own callbacks: af_packet's socket's (attacks/af_packet.h)
 * and the generic neighbour's (attacks/victim.h) timer callbacks. */
#define TH_LEGIT_CALLBACK "prb_retire_rx_blk_timer_expired"
#define TH_LEGIT_CALLBACK_NEIGHBOUR "neighbour_timer_fn"
/* The tasklet victims' (attacks/tasklet_victim.h): the generic tasklet
 * neighbour's and hso_serial's. */
#define TH_LEGIT_TASKLET_NEIGHBOUR "neighbour_tasklet_fn"
#define TH_LEGIT_TASKLET_HSO "hso_unthrottle_tasklet"
/* Is @name one of them? */
int th_is_legit_callback(const char *name);

/* Return: the outcome; evidence gets one line (always NUL-terminated,
 * control bytes replaced). */
enum th_outcome th_classify(const struct th_child_obs *obs, int is_control, char *evidence,
			    size_t n);

/* A protocol line of this run: kind ("TARGET"), and the text after the
 * token. Return: 1 when @l is `TH-<kind>: run=<token> ...` with obs->token. */
struct th_line;
int th_protocol_line(const struct th_child_obs *obs, const struct th_line *l, const char *kind,
		     const char **rest, size_t *rest_len);

/* The diagnostic line of the sanitizer runtime at a guard's source location:
 * `<file>:<line>:<col>: runtime error: <what>...` on stderr. Return: 1 found. */
struct th_guard;
int th_diag_at(const struct th_child_obs *obs, const struct th_guard *g, const char *what,
	       char *line, size_t n);

/* Did a CFI check guarding obs->site_func's indirect call stop the run?
 * (Step 5 above; the probe judge asks it of the probe's call too.) */
struct th_cfi_proof {
	int proven;
	enum th_cfi_scheme scheme;	/* of the check that stopped it */
	enum th_guard_kind kind;	/* a trap, or the runtime's handler */
	int legit;			/* the call target was a victim's own callback */
	char target[160];		/* the call target's name */
	char ev[512];			/* where; or, not proven, why ("" if no trap) */
};
void th_cfi_prove(const struct th_child_obs *obs, struct th_cfi_proof *p);

/* The name of what a file address is in the binary: "write_cr4",
 * "write_cr4+0x4", "sim_cpu (data)" or "0x..."; @exact set when it is a
 * function's start. */
void th_name_target(const struct th_bin *b, uint64_t vaddr, char *buf, size_t n, int *exact);

#endif

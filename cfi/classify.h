/* SPDX-License-Identifier: MIT */
/*
 * Classification of one cell run: what the child did -> an outcome
 * (report/outcome.h) and one line of evidence, the decisive observation.
 *
 * The child speaks on stdout, one line each, each written by one write(2):
 *   TH-NOTE: <narration>
 *   TH-LANDED: yes|no|partial <detail>   the overwrite checked before the trigger
 *   TH-TARGET: name=<fn> chosen=<0|1> <detail>
 *                                        an attacker target ran; chosen=1 iff it
 *                                        received what the attacker chose
 *   TH-LEGIT: intended=1 <detail>        the legitimate callback ran on its object
 *   TH-TRAP: sig=... pc=... ...          cfi/trap_report.h
 *   TH-DONE: <detail>                    normal end
 * Sanitizer and fortify reports arrive on stderr.
 *
 * Decision order (first match wins):
 *  1. a TH-TARGET line: HIJACKED if any has chosen=1, else REDIRECTED, whatever
 *     happened afterwards;
 *  2. timed out: HANG;
 *  3. a CFI diagnostic on stderr (cfi-icall diag mode, -fsanitize=function):
 *     BLOCKED_CFI;
 *  4. death by SIGILL/SIGTRAP whose TH-TRAP pc is proven a CFI check site
 *     (cfi/elf_traps.h: listed in .kcfi_traps; or, for a cfi-icall trap-mode
 *     config, ud1/ud2 inside call_timer_fn): BLOCKED_CFI;
 *  5. a memory-safety report (ASan other than its SEGV/deadly-signal kinds,
 *     UBSan index out of bounds, TH_FIELD_MEMCPY, glibc FORTIFY): DETECTED;
 *  6. any other end without TH-DONE and exit 0 (a signal, an unproven SIGILL,
 *     a non-zero exit): CRASHED;
 *  7. TH-DONE: NO_EFFECT (the evidence says whether the legitimate callback ran).
 * In a control run (is_control) BLOCKED_CFI and DETECTED become FALSE_POSITIVE:
 * there was no attack, so the defence stopped a legitimate call.
 */
#ifndef TH_CFI_CLASSIFY_H
#define TH_CFI_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "report/outcome.h"

/* What the runner saw of one child process. Strings may be NULL (= ""). */
struct th_child_obs {
	const char *config; /* configs.tsv name: picks the trap proofs */
	const char *binary; /* the executable that ran: read to prove a trap site */
	int exited;         /* normal exit, with exit_code */
	int exit_code;
	int signaled; /* killed by signo */
	int signo;
	int timed_out;
	double seconds;
	const char *out; /* captured stdout */
	const char *err; /* captured stderr */
};

/* Name the check-site function of the wheel's expiry path must contain. */
#define TH_CFI_SITE_FUNC "call_timer_fn"

/* Return: the outcome; evidence gets one line (always NUL-terminated). */
enum th_outcome th_classify(const struct th_child_obs *obs, int is_control, char *evidence,
			    size_t n);

/* A parsed TH-TRAP line. */
struct th_trap_line {
	int sig;
	char name[16];
	uint64_t pc, ehdr, addr;
	unsigned char bytes[4];
	size_t nbytes; /* 0: "??" */
};

/* Parse one line starting with "TH-TRAP: ". Return: 0, or -1 if malformed. */
int th_parse_trap_line(const char *line, struct th_trap_line *t);

/* Find and parse the first TH-TRAP line of out. Return: 1 found, 0 none. */
int th_find_trap(const char *out, struct th_trap_line *t);

/* "SIGSEGV", ... or "SIG<n>" into buf. Return: buf. */
const char *th_signal_name(int sig, char *buf, size_t n);

#endif

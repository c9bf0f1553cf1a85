/* SPDX-License-Identifier: MIT */
/*
 * How the overflow target talks to whoever runs it (overflow.c is only the
 * engine's two entry points). Chosen by the environment, read once:
 *
 *   (nothing)            an engine run: every input is judged; the first input
 *                        of each new finding (HIJACKED, PRIVILEGED_WRITE or
 *                        REDIRECTED: a privileged target ran or the
 *                        privileged state changed) is reported to the engine
 *                        by abort(), its chain on stderr first. New: a step
 *                        of its chain ID (overflow_oracle.h; the exact goal
 *                        a step of its own, WRITE_CR4_407F0) at an outcome
 *                        no signature reported before had, or the first run
 *                        of its outcome; a chain of known steps, in another
 *                        order or combination, is counted.
 *   TH_FUZZ_KNOWN=FILE   signatures already found, one a line: their steps
 *                        are known, not reported again; each new signature
 *                        is appended before the abort (a campaign restarts
 *                        the engine after it).
 *   TH_FUZZ_STATS=FILE   append the counters (TH_FZ_STATS_FORMAT below) every
 *                        TH_FZ_STATS_MS, at exit, before a finding's abort and
 *                        when a sanitizer ends the process.
 *   TH_FUZZ_REPLAY=1     replay: nothing is reported to the engine; each input
 *                        prints the victim's lines and then one line
 *                          TH-FUZZ-RESULT: outcome=O sig=S goal=0|1 chain=C
 *                        on stdout (also when a sanitizer ends the process).
 *   TH_FUZZ_NO_LEAK=1    relocations are ignored: the attacker without a leak.
 *
 * Stats records, one write(2) each:
 *   TH-FZ-STATS pid=P t=NS execs=N <OUTCOME>=n ... first_hijack=N|0
 *       first_hijack_t=NS|0 goal=N|0 goal_t=NS|0 died=0|1
 *   TH-FZ-FINDING pid=P t=NS execs=N sig=S chain=C
 *   TH-FZ-DEATH pid=P t=NS execs=N sig=S     a sanitizer ends the process
 * t is CLOCK_MONOTONIC in ns; execs counts this process's inputs; the
 * first_* fields count to that event (0: not yet).
 */
#ifndef TH_FUZZ_OVERFLOW_SESSION_H
#define TH_FUZZ_OVERFLOW_SESSION_H

#include <stddef.h>
#include <stdint.h>

#define TH_FZ_STATS_MS 250
#define TH_FZ_RESULT_PREFIX "TH-FUZZ-RESULT: "
#define TH_FZ_STATS_PREFIX "TH-FZ-STATS "
#define TH_FZ_FINDING_PREFIX "TH-FZ-FINDING "
#define TH_FZ_DEATH_PREFIX "TH-FZ-DEATH "

/* Read the environment, set up the oracle. Exits with a message on a
 * harness error (nothing can be judged). */
void th_fz_session_init(void);

/* Judge one input (and report a new finding). Return: 0, or -1 for a hang
 * (libFuzzer: not added to the corpus). */
int th_fz_session_one(const uint8_t *data, size_t size);

#endif

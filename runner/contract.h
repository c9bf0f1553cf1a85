/* SPDX-License-Identifier: MIT */
/*
 * What a program run by the runner (runner/child.h) can rely on, with no
 * library to link:
 *
 * The per-run token: the environment variable TH_TOKEN_ENV holds
 * TH_TOKEN_LEN lower-case hex digits, fresh for each run; a program puts it
 * in its protocol lines so that a line from anything else is not one.
 *
 * The state map: how a program tells the runner, inside its own binary and
 * never in its output, which bytes are its simulated privileged state.
 *
 * A binary defines one array, terminated by an entry with an empty object:
 *   TH_STATE_MAP_ATTR const struct th_state_field TH_STATE_MAP[] = {
 *           { "cpu_regs", "cr4", offsetof(struct th_cpu_regs, cr4), 8 }, ...
 *           { "" } };
 * The runner (runner/child.h) finds it by its symbol, reads each field's
 * initial value from the file (.data) and its final value from the process
 * at its exit (ptrace), so a program cannot print its way to a clean state.
 * Fixed-size names: the array needs no relocation, the file holds it as is.
 *
 * Beside it, what the program and its observers agree a state change means:
 * which functions are privileged (runner/privileged.h) and which values the
 * CPU loads into CR4 (runner/x86_cr4.h); the victim (attacks/), the
 * classifier (cfi/) and the fuzz oracle (fuzz/) read the same rules.
 */
#ifndef TH_RUNNER_CONTRACT_H
#define TH_RUNNER_CONTRACT_H

#include <stdint.h>

#define TH_TOKEN_ENV		"TH_RUN_TOKEN"
#define TH_TOKEN_LEN		16

#define TH_STATE_MAP		th_privileged_state
#define TH_STATE_MAP_SYMBOL	"th_privileged_state"
/* Kept by the linker and LTO although no code reads it. */
#define TH_STATE_MAP_ATTR	__attribute__((used))

struct th_state_field {
	char object[24];	/* a data symbol of the binary: "cpu_regs" */
	char field[16];		/* its field, for the report: "cr4" */
	uint32_t offset;	/* offsetof() in this build (randstruct moves it) */
	uint32_t size;		/* 1, 2, 4 or 8 */
};

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Outcomes of a cell, most severe first (docs/outcomes.md). The enum order
 * IS the severity order: a smaller value is more severe. Names are the public
 * contract (results.json, check, every renderer).
 */
#ifndef TH_RESULTS_OUTCOME_H
#define TH_RESULTS_OUTCOME_H

#include <stdbool.h>

enum th_outcome {
	TH_HIJACKED,
	TH_PRIVILEGED_WRITE,
	TH_REDIRECTED,
	TH_CRASHED,
	TH_HANG,
	TH_TIMER_LOST,
	TH_FALSE_POSITIVE,
	TH_BLOCKED_CFI,
	TH_DETECTED,
	TH_NO_EFFECT,
	TH_UNSUPPORTED,
	TH_NOT_APPLICABLE,
	/* Not an outcome of the attack: the harness could not run or observe
	 * the cell. Never compared by severity; always fails the gate. */
	TH_HARNESS_ERROR,
	TH_OUTCOME_COUNT,
	TH_OUTCOME_INVALID = -1
};

/* "HIJACKED", ...; NULL for an invalid value. */
const char *th_outcome_name(enum th_outcome o);
/* Exact, case-sensitive; TH_OUTCOME_INVALID for anything else. */
enum th_outcome th_outcome_parse(const char *s);
/* One character for the terminal matrix ('H' hijacked, 'R', 'C', ...). */
char th_outcome_symbol(enum th_outcome o);
/* One line of the legend: what the outcome means. */
const char *th_outcome_meaning(enum th_outcome o);
/* The attack got through: a target ran (HIJACKED, REDIRECTED) or the
 * privileged state changed (PRIVILEGED_WRITE, also with no target: a
 * campaign's finding, "not stopped" on the verdict card. */
bool th_outcome_got_through(enum th_outcome o);
/* An outcome of the attack: the cell ran and was observed (not
 * UNSUPPORTED, NOT_APPLICABLE, HARNESS_ERROR or invalid). */
bool th_outcome_ran(enum th_outcome o);
/* a is strictly more severe than b (both valid). UNSUPPORTED,
 * NOT_APPLICABLE and HARNESS_ERROR are never more severe than anything. */
int th_outcome_more_severe(enum th_outcome a, enum th_outcome b);

/*
 * A set of outcomes (attacks/expected.tsv's "HIJACKED|CRASHED": what a
 * probabilistic cell, a randstruct build per seed, may show): bit o for
 * outcome o; 0 is the empty set.
 */
typedef unsigned th_outcome_set;
#define TH_OUTCOME_BIT(o) (1u << (unsigned)(o))

/*
 * Parse "OUTCOME" or "OUTCOME|OUTCOME|...": each a name of the vocabulary
 * but HARNESS_ERROR, listed most severe first, none twice, none empty;
 * UNSUPPORTED and NOT_APPLICABLE only alone (a cell that cannot run is not
 * probabilistic). Return: 0, or -1 with what is wrong in why.
 */
int th_outcome_set_parse(const char *s, th_outcome_set *set, char *why, unsigned long n);
/* Its most (least) severe member; TH_OUTCOME_INVALID for the empty set. */
enum th_outcome th_outcome_set_worst(th_outcome_set s);
enum th_outcome th_outcome_set_best(th_outcome_set s);
/* Number of members. */
int th_outcome_set_size(th_outcome_set s);
/* "HIJACKED|CRASHED" (most severe first), "none" for the empty set, in buf
 * (n bytes: 200 hold every outcome); returns buf. */
char *th_outcome_set_format(th_outcome_set s, char *buf, unsigned long n);

#endif

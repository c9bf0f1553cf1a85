/* SPDX-License-Identifier: MIT */
#include "outcome.h"

#include <string.h>

static const struct {
	const char *name;
	char symbol;
	const char *meaning;
} outcomes[TH_OUTCOME_COUNT] = {
	[TH_HIJACKED] = { "HIJACKED", 'H', "attacker's target ran with the argument the attacker chose" },
	[TH_PRIVILEGED_WRITE] = { "PRIVILEGED_WRITE", 'P', "privileged state (CR4, cred) changed without a chosen-argument call" },
	[TH_REDIRECTED] = { "REDIRECTED", 'R', "attacker's target ran, with an argument the attacker did not choose" },
	[TH_CRASHED] = { "CRASHED", 'C', "process died without a defence naming itself" },
	[TH_HANG] = { "HANG", 'T', "cell ran past its time limit" },
	[TH_TIMER_LOST] = { "TIMER_LOST", 'L', "the timer never fired, nothing crashed, no defence named itself" },
	[TH_FALSE_POSITIVE] = { "FALSE_POSITIVE", 'F', "a defence stopped a legitimate call (control run)" },
	[TH_BLOCKED_CFI] = { "BLOCKED_CFI", 'B', "a CFI check stopped the indirect call" },
	[TH_DETECTED] = { "DETECTED", 'D', "a memory-safety check stopped the overwrite before the call" },
	[TH_NO_EFFECT] = { "NO_EFFECT", '.', "the legitimate callback ran as intended" },
	[TH_UNSUPPORTED] = { "UNSUPPORTED", 'u', "the cell cannot run on this toolchain" },
	[TH_NOT_APPLICABLE] = { "NOT_APPLICABLE", '-', "the cell cannot exist for this variant" },
	[TH_HARNESS_ERROR] = { "HARNESS_ERROR", 'E', "the harness could not run or observe the cell (not an attack outcome)" },
};

const char *th_outcome_name(enum th_outcome o)
{
	return (o >= 0 && o < TH_OUTCOME_COUNT) ? outcomes[o].name : NULL;
}

enum th_outcome th_outcome_parse(const char *s)
{
	for (int i = 0; s && i < TH_OUTCOME_COUNT; i++)
		if (!strcmp(s, outcomes[i].name))
			return (enum th_outcome)i;
	return TH_OUTCOME_INVALID;
}

char th_outcome_symbol(enum th_outcome o)
{
	return (o >= 0 && o < TH_OUTCOME_COUNT) ? outcomes[o].symbol : '?';
}

const char *th_outcome_meaning(enum th_outcome o)
{
	return (o >= 0 && o < TH_OUTCOME_COUNT) ? outcomes[o].meaning : "";
}

int th_outcome_more_severe(enum th_outcome a, enum th_outcome b)
{
	if (a >= TH_UNSUPPORTED || a < 0)
		return 0;
	if (b >= TH_UNSUPPORTED || b < 0)
		return 1;
	return a < b;
}

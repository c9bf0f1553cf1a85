/* SPDX-License-Identifier: MIT */
#include "outcome.h"

#include <stdio.h>
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

int th_outcome_set_parse(const char *s, th_outcome_set *set, char *why, unsigned long n)
{
	th_outcome_set got = 0;
	enum th_outcome prev = TH_OUTCOME_INVALID;
	int members = 0;
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, "|");
		char name[64];
		enum th_outcome o;

		if (!len) {
			snprintf(why, n, "an empty outcome in '%.60s' (outcomes are joined by '|', as "
				 "HIJACKED|CRASHED)", s);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), p);
		o = len < 63 ? th_outcome_parse(name) : TH_OUTCOME_INVALID;
		if (o == TH_OUTCOME_INVALID || o == TH_HARNESS_ERROR) {
			snprintf(why, n, "unknown outcome '%.40s'", name);
			return -1;
		}
		if (got & TH_OUTCOME_BIT(o)) {
			snprintf(why, n, "%s twice in the set '%.60s'", name, s);
			return -1;
		}
		if (prev != TH_OUTCOME_INVALID && o < prev) {
			char want[200];

			snprintf(why, n, "the set '%.60s' lists %s after %s: list its outcomes most "
				 "severe first (%s)", s, name, th_outcome_name(prev),
				 th_outcome_set_format(got | TH_OUTCOME_BIT(o), want, sizeof(want)));
			return -1;
		}
		got |= TH_OUTCOME_BIT(o);
		prev = o;
		members++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (members > 1 && (got & (TH_OUTCOME_BIT(TH_UNSUPPORTED) | TH_OUTCOME_BIT(TH_NOT_APPLICABLE)))) {
		snprintf(why, n, "%s in the set '%.60s': a cell that cannot run is declared alone, "
			 "never as one outcome of a set",
			 got & TH_OUTCOME_BIT(TH_UNSUPPORTED) ? "UNSUPPORTED" : "NOT_APPLICABLE", s);
		return -1;
	}
	*set = got;
	return 0;
}

enum th_outcome th_outcome_set_worst(th_outcome_set s)
{
	for (int o = 0; o < TH_OUTCOME_COUNT; o++)
		if (s & TH_OUTCOME_BIT(o))
			return (enum th_outcome)o;
	return TH_OUTCOME_INVALID;
}

enum th_outcome th_outcome_set_best(th_outcome_set s)
{
	for (int o = TH_OUTCOME_COUNT - 1; o >= 0; o--)
		if (s & TH_OUTCOME_BIT(o))
			return (enum th_outcome)o;
	return TH_OUTCOME_INVALID;
}

int th_outcome_set_size(th_outcome_set s)
{
	int k = 0;

	for (int o = 0; o < TH_OUTCOME_COUNT; o++)
		k += !!(s & TH_OUTCOME_BIT(o));
	return k;
}

char *th_outcome_set_format(th_outcome_set s, char *buf, unsigned long n)
{
	size_t len = 0;

	if (!n)
		return buf;
	buf[0] = '\0';
	if (!(s & (TH_OUTCOME_BIT(TH_OUTCOME_COUNT) - 1))) {
		snprintf(buf, n, "none");
		return buf;
	}
	for (int o = 0; o < TH_OUTCOME_COUNT && len < n; o++)
		if (s & TH_OUTCOME_BIT(o))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "|" : "",
						th_outcome_name((enum th_outcome)o));
	return buf;
}

bool th_outcome_got_through(enum th_outcome o)
{
	return o == TH_HIJACKED || o == TH_PRIVILEGED_WRITE || o == TH_REDIRECTED;
}

bool th_outcome_ran(enum th_outcome o)
{
	return o >= 0 && o < TH_UNSUPPORTED;
}

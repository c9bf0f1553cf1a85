/* SPDX-License-Identifier: MIT */
/*
 * Declared expectations of the fuzzing campaigns (fuzz/expected.tsv; its
 * header comment documents the format): which finding chains are expected
 * where, which must be found, and what each saved regression input must
 * replay to. Read by `check` (check_fuzz.c) and by the replay tests
 * (fuzz/overflow_replay_check.c); derived from first principles, never from
 * an observation.
 */
#ifndef TH_FUZZ_FUZZ_EXPECT_H
#define TH_FUZZ_FUZZ_EXPECT_H

#include <stddef.h>

#include "outcome.h"

enum th_fz_rule_kind {
	TH_FZ_RULE_FINDING,	/* a step that may be found, up to an outcome */
	TH_FZ_RULE_REQUIRE,	/* a chain every matching campaign must find */
	TH_FZ_RULE_REPLAY,	/* what a saved input replays to, exactly */
};

struct th_fz_rule {
	enum th_fz_rule_kind kind;
	char *chain;		/* glob on CHAIN_ID; replay: on the input's file name */
	char *variant, *config, *toolchain;	/* globs, comma alternatives */
	enum th_outcome outcome;
	char *sig;		/* replay: "OUTCOME:CHAIN_ID" */
	char *reason;
	char where[300];	/* "FILE:LINE" */
};

struct th_fz_expect {
	struct th_fz_rule *rules;
	size_t nrules;
	char *path;
};

/* Return: 0 with *out set, or -1 with "FILE:LINE: what is wrong" in err. */
int th_fz_expect_load(const char *path, struct th_fz_expect **out, char *err, size_t n);
void th_fz_expect_free(struct th_fz_expect *e);

/*
 * The first rule of kind that matches (chain or file name, variant, config,
 * toolchain), or NULL. A finding's chain ID of several steps
 * (th_fz_chain_steps()) is judged step by step, each by the first finding
 * rule whose glob matches that step alone: NULL when a step has none (the
 * finding is undeclared); else the rule of the first step more severe than
 * its rule allows (the finding is more severe than that rule: a
 * regression); else the rule of its most severe step (the finding's own
 * outcome is within it). So a step is never declared by another's rule.
 */
const struct th_fz_rule *th_fz_expect_match(const struct th_fz_expect *e, enum th_fz_rule_kind kind,
					    const char *chain, const char *variant,
					    const char *config, const char *toolchain);

/* Does a finding (chain_id, outcome o) satisfy the require rule r: one of
 * its steps matches r's glob, at least as severe as r's outcome? */
int th_fz_expect_satisfies(const struct th_fz_rule *r, const char *chain_id, enum th_outcome o);

/* Does value match the glob list pattern ("a,b*": fnmatch alternatives)? */
int th_fz_glob_match(const char *pattern, const char *value);

#endif

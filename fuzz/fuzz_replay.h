/* SPDX-License-Identifier: MIT */
/*
 * One saved input of the overflow target, replayed: what the build that ran
 * a campaign says the input does. The campaign loop (loops/campaign.c)
 * confirms its artifacts with it, and `check` (report/check_fuzz.c) the
 * findings a summary claims.
 */
#ifndef TH_FUZZ_FUZZ_REPLAY_H
#define TH_FUZZ_FUZZ_REPLAY_H

#include <stddef.h>

#include "results/outcome.h"

/* Seconds one replay may take before it is killed (a HARNESS_ERROR). */
#define TH_FZ_REPLAY_TIMEOUT_S 30

/**
 * th_fz_replay_input() - replay one input of the overflow target.
 * @binary: the build that ran the campaign (its fuzz-manifest.tsv path)
 * @options: the campaign's recorded options ("no-leak" replays without the
 *	     leak table, as it ran), or NULL
 *
 * Runs @binary on @input in a fresh process (its own process group, ASLR
 * off: one layout for every replay of an input) with TH_FUZZ_REPLAY=1 and
 * reads its TH-FUZZ-RESULT line: the outcome into *@o,
 * the signature ("OUTCOME:CHAIN_ID") into @sig, the chain's text into
 * @chain. No result line within TH_FZ_REPLAY_TIMEOUT_S is HARNESS_ERROR,
 * said in @chain.
 * Return: 0, or -1 when the process could not be started.
 */
/* "key=<value>" of a result or protocol line, the value up to a blank
 * (cut to @n - 1 bytes) into @buf. Return: @buf, or NULL when absent. */
const char *th_fz_kv(const char *line, const char *key, char *buf, size_t n);

int th_fz_replay_input(const char *binary, const char *options, const char *input,
		       enum th_outcome *o, char *sig, size_t sign, char *chain, size_t chn);

#endif

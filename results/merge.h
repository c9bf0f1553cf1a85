/* SPDX-License-Identifier: MIT */
/*
 * Joining the results of several runs of one plan (the shards of a CI job
 * matrix, or one run per toolchain) into one results model, which the gate
 * then judges like any other: a merge of every shard is the whole
 * selection, a merge of some is still a slice, and nothing a part did not
 * observe is ever filled in.
 */
#ifndef TH_RESULTS_MERGE_H
#define TH_RESULTS_MERGE_H

#include <stddef.h>

#include "results.h"

/**
 * th_results_merge() - one model from the models of n runs.
 * @in:    the runs' models (loaded, so each is a valid results file).
 * @names: what to call each in messages (its file name).
 *
 * Refused, with the file and the difference named: another timerharness
 * version; expectations other than the first file's (by SHA-256), or none
 * recorded; selections that differ in more than one of toolchains,
 * configs, variants, attacks (the one that differs is joined), or in
 * selftests; shards of different counts, a shard given twice, sharded and
 * whole files mixed, a cell outside its file's shard; a toolchain whose
 * version differs; a config whose flags, description or support on a
 * toolchain differ; a cell in two files; a reach entry that differs between
 * files (the binary's path aside). The merge holds every cell of
 * every file as it was stored; its shard is the union of the files' (none
 * when every shard is there), every reach entry once; it is partial when a
 * file is; its created
 * time is the latest, its host every distinct host; the metrics run_seconds,
 * run_cpu_seconds and runs are summed, jobs and build_seconds_<toolchain>
 * the largest, cells_* recounted.
 *
 * Return: 0 with *out set (th_results_free it), or -1 with err set.
 */
int th_results_merge(struct th_results *const *in, const char *const *names, size_t n,
		     struct th_results **out, char *err, size_t errlen);

#endif

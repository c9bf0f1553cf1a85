/* SPDX-License-Identifier: MIT */
/* `timerharness kernel`'s results: the booted cells into the results model. */
#ifndef TH_CLI_KERNEL_RESULTS_H
#define TH_CLI_KERNEL_RESULTS_H

#include <stddef.h>

#include "attacks/kernel_plan.h"
#include "kernel/run.h"

struct th_results;

/*
 * Put @rs (the boots of @targets, cells selected by @globs) into @dst (out's
 * results.json, loaded by the caller, who holds out's lock and the loaded
 * expectations) as platform "linux-<release>" cells, replacing that
 * platform's cells (a slice, @globs, keeps the ones it did not boot), judge
 * them, write the set into @out and print the verdict. @build: kernel/build's
 * directory (NULL: your own kernel). Return: the command's exit status.
 */
int th_kernel_results_write(struct th_results *dst, const char *out, const char *build,
			    const char *qemu, const char *globs,
			    const struct th_kernel_target *targets, size_t ntargets,
			    const struct th_kernel_result *rs, size_t nrs);

#endif

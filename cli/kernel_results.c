/* SPDX-License-Identifier: MIT */
#include "kernel_results.h"

#include <stdio.h>
#include <string.h>

#include "report/outcome.h"

int th_kernel_results_write(const char *out, const struct th_kernel_plan *plan, const char *globs,
			    const struct th_kernel_target *targets, size_t ntargets,
			    const struct th_kernel_result *rs, size_t nrs, const char *kernel_dir)
{
	size_t herr = 0, i;

	(void)out;
	(void)plan;
	(void)globs;
	(void)kernel_dir;
	for (i = 0; i < ntargets; i++)
		printf("kernel: %s: linux-%s, %s, %s\n", targets[i].config, targets[i].release,
		       targets[i].toolchain, targets[i].kconfig);
	for (i = 0; i < nrs; i++) {
		printf("%-5s %-50s %-16s %s\n", rs[i].target->config, rs[i].cell->attack,
		       th_outcome_name(rs[i].v.outcome), rs[i].v.evidence);
		herr += rs[i].v.outcome == TH_HARNESS_ERROR;
	}
	return herr ? 3 : 0;
}

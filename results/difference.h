/* SPDX-License-Identifier: MIT */
#ifndef TH_RESULTS_DIFFERENCE_H
#define TH_RESULTS_DIFFERENCE_H

/* A declared difference between a real kernel's cell and the model's
 * (expected.tsv's @differs rows, read by attacks/expect.h; judged by the
 * gate, report/check.h): data both sides share, so it lives below both. */
struct th_check_difference {
	const char *platforms;	/* the @platform globs it is under */
	const char *attack, *variant, *config, *toolchain;	/* globs */
	const char *model, *kernel;	/* the two outcomes' names */
	const char *reason;
	const char *where;	/* "FILE:LINE" */
};

#endif

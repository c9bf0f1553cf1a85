/* SPDX-License-Identifier: MIT */
/*
 * Seconds on a clock, as a double: CLOCK_MONOTONIC for how long something
 * took, a CPU clock for what it cost. Header-only, so that a program that
 * links nothing of the project's (fuzz/replay.c, the engine-less driver)
 * includes it by its path and has the same one.
 */
#ifndef TH_LIB_CLOCK_H
#define TH_LIB_CLOCK_H

#include <time.h>

static inline double th_clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline double th_now_s(void)
{
	return th_clock_s(CLOCK_MONOTONIC);
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The tasklet lists and their softirq of this binary's generation
 * (tasklet_core/tasklet_<variant>.c: tasklet_vec, tasklet_hi_vec, the pending
 * softirqs, tasklet_action_common()), compiled unchanged into the victim
 * world's sections (fuzz/overflow_world.h): a planted next pointer and the
 * list code's writes through it stay in the world, and every run starts
 * from the lists as softirq_init() left them.
 */
#pragma clang section bss = "th_world_bss" data = "th_world_data"
__attribute__((used)) char th_fz_guard_sq_lo_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_sq_lo_bss[256] = { 0 };

#if defined(TH_ATK_LEGACY)
#include "tasklet_core/tasklet_legacy.c"
#elif defined(TH_ATK_TRANSITIONAL)
#include "tasklet_core/tasklet_transitional.c"
#else
#include "tasklet_core/tasklet_modern.c"
#endif

__attribute__((used)) char th_fz_guard_sq_hi_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_sq_hi_bss[256] = { 0 };
#pragma clang section bss = "" data = ""

/* SPDX-License-Identifier: MIT */
/*
 * The tasklet victims (attacks/tasklet_victim.c), compiled unchanged into
 * the victim world's sections (fuzz/overflow_world.h), between guard arrays
 * of their own: a translation unit's globals are emitted in definition
 * order, so these open and close its part of each section. Its own unit:
 * the generation's tasklet header maps the kernel's names (tasklet_struct,
 * tasklet_setup) that the timer's headers, in overflow_world.c, do not know.
 */
#pragma clang section bss = "th_world_bss" data = "th_world_data"
__attribute__((used)) char th_fz_guard_tl_lo_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_tl_lo_bss[256] = { 0 };

#include "attacks/tasklet_victim.c"

__attribute__((used)) char th_fz_guard_tl_hi_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_tl_hi_bss[256] = { 0 };
#pragma clang section bss = "" data = ""

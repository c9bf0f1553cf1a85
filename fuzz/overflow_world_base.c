/* SPDX-License-Identifier: MIT */
/*
 * The wheel's shared globals (timer_core/base.c: the per-CPU bases, the
 * debugobjects switch, WARN's state) in the victim world's sections
 * (overflow_world.h), compiled unchanged. Its own translation unit: base.c
 * names a parameter `jiffies`, which the victim's variant header defines as
 * a macro.
 */
#define _GNU_SOURCE

#pragma clang section bss = "th_world_bss" data = "th_world_data"
__attribute__((used)) char th_fz_guard_base_lo_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_base_lo_bss[256] = { 0 };

#include "timer_core/base.c"

__attribute__((used)) char th_fz_guard_base_hi_data[256] = { 1 };
__attribute__((used)) char th_fz_guard_base_hi_bss[256] = { 0 };
#pragma clang section bss = "" data = ""

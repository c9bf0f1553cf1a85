// SPDX-License-Identifier: MIT
/*
 * The wheel in the benchmark: its three variants as struct bench_impl. This
 * file and timer_core's sources are all a build needs to measure the wheel
 * under other compiler flags (bench/CMakeLists.txt th_bench_executable()).
 */
#define TH_NO_KERNEL_NAMES
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_impl.h"
#include "th/compiler.h"

#ifndef TH_BENCH_TYPE_CFI
#define TH_BENCH_TYPE_CFI 0	/* 1: built with cfi-icall, kcfi or -fsanitize=function */
#endif
#include "th/timer_modern.h"
#include "th/timer_transitional.h"

static struct timer_base bench_base;
/* Callbacks count here: the least work, and proof that each one ran. */
static unsigned long bench_fired;
/* Set during validation runs: where the checking callbacks report. */
static struct bench_late *cur_late;

static int wheel_reset(const struct bench_work *w)
{
	th_base_release(&bench_base);
	if (th_base_init(&bench_base, BENCH_CPU, BENCH_HZ, w->start) || th_set_cpu(BENCH_CPU))
		return bench_fail("cannot attach a timer base as CPU %d", BENCH_CPU);
	return 0;
}

/* ---- callbacks ------------------------------------------------------------- */

static void fired_check(unsigned long expires)
{
	bench_fired++;
	if (cur_late)
		bench_late_add(cur_late, th_this_base()->running_clk, expires);
}

static void legacy_fire(unsigned long data)
{
	(void)data;
	bench_fired++;
}

static void legacy_fire_check(unsigned long data)
{
	fired_check(((struct legacy_timer_list *)(uintptr_t)data)->expires);
}

static void transitional_fire(struct legacy_timer_list *t)
{
	(void)t;
	bench_fired++;
}

static void transitional_fire_check(struct legacy_timer_list *t)
{
	fired_check(t->expires);
}

static void modern_fire(struct modern_timer_list *t)
{
	(void)t;
	bench_fired++;
}

static void modern_fire_check(struct modern_timer_list *t)
{
	fired_check(t->expires);
}

/* ---- setup (untimed) --------------------------------------------------------- */

static void legacy_setup_all(struct legacy_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		legacy___setup_timer(&t[i], check ? legacy_fire_check : legacy_fire,
				     (unsigned long)(uintptr_t)&t[i], 0);
}

static void transitional_setup_all(struct legacy_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		transitional_timer_setup(&t[i], check ? transitional_fire_check : transitional_fire, 0);
}

static void modern_setup_all(struct modern_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		modern_timer_setup(&t[i], check ? modern_fire_check : modern_fire, 0);
}

/* ---- bench_wheel_impl.h once per layout ---------------------------------------- */

#define BW_TIMER	struct legacy_timer_list
#define BW_P(name)	legacy_##name
#define BW_B(name)	bw_legacy_##name
#include "bench_wheel_impl.h"
#undef BW_TIMER
#undef BW_P
#undef BW_B

#define BW_TIMER	struct modern_timer_list
#define BW_P(name)	modern_##name
#define BW_B(name)	bw_modern_##name
#include "bench_wheel_impl.h"
#undef BW_TIMER
#undef BW_P
#undef BW_B

/* ---- the three implementations --------------------------------------------- */

static int wheel_init(uint32_t n_max)
{
	(void)n_max;
	return 0;
}

static void wheel_fini(void)
{
	th_base_release(&bench_base);
}

static int legacy_validate(void *t, const struct bench_work *w, struct bench_late late[NR_MODE])
{
	return bw_legacy_validate(t, w, legacy_setup_all, late, "legacy");
}

static int transitional_validate(void *t, const struct bench_work *w,
				 struct bench_late late[NR_MODE])
{
	return bw_legacy_validate(t, w, transitional_setup_all, late, "transitional");
}

static int modern_validate(void *t, const struct bench_work *w, struct bench_late late[NR_MODE])
{
	return bw_modern_validate(t, w, modern_setup_all, late, "modern");
}

static int legacy_reset(void *t, const struct bench_work *w)
{
	if (wheel_reset(w))
		return -1;
	legacy_setup_all(t, w->n, false);
	return 0;
}

static int transitional_reset(void *t, const struct bench_work *w)
{
	if (wheel_reset(w))
		return -1;
	transitional_setup_all(t, w->n, false);
	return 0;
}

static int modern_reset(void *t, const struct bench_work *w)
{
	if (wheel_reset(w))
		return -1;
	modern_setup_all(t, w->n, false);
	return 0;
}

static long legacy_phase(void *t, const struct bench_work *w, enum bench_op op)
{
	return bw_legacy_phase(t, w, op);
}

static long modern_phase(void *t, const struct bench_work *w, enum bench_op op)
{
	return bw_modern_phase(t, w, op);
}

#define WHEEL_API(v)	{ [OP_ADD] = #v "_mod_timer", [OP_MOD] = #v "_mod_timer", \
			  [OP_DEL] = #v "_del_timer", [OP_EXPIRE] = #v "_run_timers", \
			  [OP_STEP] = #v "_run_timers" }

const struct bench_impl bench_legacy = {
	.name = "legacy", .label = "legacy", .wheel = true,
	.timer_size = sizeof(struct legacy_timer_list), .api = WHEEL_API(legacy),
	.init = wheel_init, .fini = wheel_fini, .validate = legacy_validate,
	.reset = legacy_reset, .phase = legacy_phase,
};

const struct bench_impl bench_transitional = {
	.name = "transitional", .label = "transitional", .wheel = true,
#if TH_BENCH_TYPE_CFI
	/* The rc3 shim stores a void (*)(struct timer_list *) callback and the
	 * wheel calls it as void (*)(unsigned long): every type-based check
	 * stops the legitimate call (the false positive of the matrix). */
	.unavailable = "type-based CFI stops the rc3 shim's legitimate callbacks",
#endif
	.timer_size = sizeof(struct legacy_timer_list), .api = WHEEL_API(legacy),
	.init = wheel_init, .fini = wheel_fini, .validate = transitional_validate,
	.reset = transitional_reset, .phase = legacy_phase,
};

const struct bench_impl bench_modern = {
	.name = "modern", .label = "modern", .wheel = true,
	.timer_size = sizeof(struct modern_timer_list), .api = WHEEL_API(modern),
	.init = wheel_init, .fini = wheel_fini, .validate = modern_validate,
	.reset = modern_reset, .phase = modern_phase,
};

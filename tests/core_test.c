/* SPDX-License-Identifier: MIT */
/*
 * timer_core: the kernel's level table, never early, ordering, the
 * __mod_timer shortcuts, wrap-around, callbacks that re-arm, arm and delete,
 * API misuse, and a differential test of every variant against a brute-force
 * reference. The consistency checker runs after every step.
 * Run one case: core_test CASE (CTest registers one test per case).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define TH_NO_KERNEL_NAMES
#include "th/timer_legacy.h"
#include "th/timer_modern.h"
#include "th/timer_transitional.h"
#include "trace.h"
#include "wheel_ref.h"

#define CHECK_LEGACY(base) do {						\
	char err_[512];							\
	if (legacy_timers_check((base), err_, sizeof(err_)))		\
		fail_msg("line %d: wheel inconsistent: %s", __LINE__, err_); \
} while (0)
#define CHECK_MODERN(base) do {						\
	char err_[512];							\
	if (modern_timers_check((base), err_, sizeof(err_)))		\
		fail_msg("line %d: wheel inconsistent: %s", __LINE__, err_); \
} while (0)

/* ---- layouts: 4.14 and 4.15 on x86-64, as the attacks assume them ------- */
static void layout_legacy(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct legacy_timer_list, entry), 0);
	assert_int_equal(offsetof(struct legacy_timer_list, expires), 16);
	assert_int_equal(offsetof(struct legacy_timer_list, function), 24);
	assert_int_equal(offsetof(struct legacy_timer_list, data), 32);
	assert_int_equal(offsetof(struct legacy_timer_list, flags), 40);
	assert_int_equal(sizeof(struct legacy_timer_list), 48);
}

static void layout_modern(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct modern_timer_list, entry), 0);
	assert_int_equal(offsetof(struct modern_timer_list, expires), 16);
	assert_int_equal(offsetof(struct modern_timer_list, function), 24);
	assert_int_equal(offsetof(struct modern_timer_list, flags), 32);
	assert_int_equal(sizeof(struct modern_timer_list), 40);
}

/* ---- the level table ---------------------------------------------------- */
static void level_table(unsigned int hz)
{
	unsigned int depth = TH_LVL_DEPTH(hz);
	unsigned long clk = TH_INITIAL_JIFFIES(hz), be;
	unsigned int idx;

	assert_int_equal(depth, hz > 100 ? 9 : 8);
	/* Delta 0 and LVL_START(1) - 1 stay on level 0, rounded up by one. */
	idx = th_calc_wheel_index(clk, clk, depth, &be);
	assert_int_equal(idx, (clk + 1) & 63);
	assert_true(be == clk + 1);
	for (unsigned int n = 1; n < depth; n++) {
		unsigned long e_below = clk + LVL_START(n) - 1, e_at = clk + LVL_START(n);
		unsigned int s_below = 3 * (n - 1), s_at = 3 * n;

		idx = th_calc_wheel_index(e_below, clk, depth, &be);
		assert_int_equal(idx / 64, n - 1);
		assert_int_equal(idx % 64, ((e_below >> s_below) + 1) & 63);
		assert_true(be == ((e_below >> s_below) + 1) << s_below);
		assert_true(be > e_below && be - e_below <= (1UL << s_below));

		idx = th_calc_wheel_index(e_at, clk, depth, &be);
		assert_int_equal(idx / 64, n);
		assert_int_equal(idx % 64, ((e_at >> s_at) + 1) & 63);
		assert_true(be == ((e_at >> s_at) + 1) << s_at);
		assert_true(be > e_at && be - e_at <= (1UL << s_at));
	}
	/* Past expiries: the bucket of the current clock, due now. */
	idx = th_calc_wheel_index(clk - 1, clk, depth, &be);
	assert_int_equal(idx, clk & 63);
	assert_true(be == clk);
	idx = th_calc_wheel_index(clk - 100000, clk, depth, &be);
	assert_int_equal(idx, clk & 63);
	/* Beyond the capacity: clamped to clk + WHEEL_TIMEOUT_MAX (e2a71bdea816). */
	{
		unsigned long cutoff = LVL_START(depth), max = cutoff - (1UL << (3 * (depth - 1)));
		unsigned long be2, s = 3 * (depth - 1);

		idx = th_calc_wheel_index(clk + cutoff, clk, depth, &be);
		assert_int_equal(idx / 64, depth - 1);
		assert_true(be == (((clk + max) >> s) + 1) << s);
		th_calc_wheel_index(clk + (ULONG_MAX >> 2), clk, depth, &be2);
		assert_true(be2 == be);
		/* Just below the cutoff: last level, not clamped. */
		idx = th_calc_wheel_index(clk + cutoff - 1, clk, depth, &be);
		assert_int_equal(idx / 64, depth - 1);
		assert_true(be == (((clk + cutoff - 1) >> s) + 1) << s);
	}
}

static void level_table_hz1000(void **state) { (void)state; level_table(1000); }
static void level_table_hz100(void **state) { (void)state; level_table(100); }

/* ---- legacy helpers ------------------------------------------------------- */
struct fired {
	unsigned long clk[256];
	int id[256];
	int n;
};
static struct fired fired;
static struct timer_base lbase;
static struct legacy_timer_list lt[64];

static void rec_cb(unsigned long data)
{
	fired.clk[fired.n] = lbase.running_clk;
	fired.id[fired.n++] = (int)data;
}

static void lsetup(unsigned int hz, unsigned long start)
{
	memset(&fired, 0, sizeof(fired));
	/* The previous case's timers are forgotten with their base. */
	th_base_release(&lbase);
	memset(lt, 0, sizeof(lt));
	assert_int_equal(th_base_init(&lbase, 0, hz, start), 0);
	th_set_cpu(0);
	for (int i = 0; i < 64; i++)
		legacy___setup_timer(&lt[i], rec_cb, (unsigned long)i, 0);
}

/* ---- never early, lateness within the level's granularity ------------------ */
static void never_early(void **state)
{
	unsigned long start = TH_INITIAL_JIFFIES(1000), seed = 12345;
	unsigned long exp[64], armed_clk = start;

	(void)state;
	lsetup(1000, start);
	for (int i = 0; i < 64; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		exp[i] = start + (seed >> 33) % (1UL << (3 * (i % 8) + 6));
		assert_int_equal(legacy_mod_timer(&lt[i], exp[i]), 0);
		CHECK_LEGACY(&lbase);
	}
	/* Run in uneven steps so the wheel advances through every level. */
	for (unsigned long now = start; fired.n < 64; now += 977) {
		assert_true(legacy_run_timers(&lbase, now) >= 0);
		CHECK_LEGACY(&lbase);
	}
	for (int k = 0; k < fired.n; k++) {
		int i = fired.id[k];
		unsigned long delta = exp[i] - armed_clk, late = fired.clk[k] - exp[i];
		unsigned int lvl = 0;

		while (lvl < 8 && delta >= LVL_START(lvl + 1))
			lvl++;
		if (time_before_eq(fired.clk[k], exp[i]))
			fail_msg("timer %d expires %lu fired early at %lu", i, exp[i], fired.clk[k]);
		if (late > LVL_GRAN(lvl))
			fail_msg("timer %d (level %u) late by %lu > granularity %lu", i, lvl, late, LVL_GRAN(lvl));
	}
}

/* ---- order within one jiffy -------------------------------------------------- */
static void order_within_jiffy(void **state)
{
	unsigned long s = 0;

	(void)state;
	lsetup(1000, s);
	/* Level 0 bucket of jiffy 512 (armed when 512 - clk < 63). */
	/* Level 1: expires 504..511 armed at clk 0 round up to 512. */
	legacy_mod_timer(&lt[1], 505);
	legacy_mod_timer(&lt[2], 510);		/* same level-1 bucket, newer */
	/* Level 2: 448..511 armed at clk 0 with delta >= 504 -> no; use 511 at level 1 */
	legacy_run_timers(&lbase, 460);		/* clk 461 */
	CHECK_LEGACY(&lbase);
	legacy_mod_timer(&lt[3], 511);		/* delta 50: level 0 -> due 512 */
	legacy_mod_timer(&lt[4], 511);		/* same bucket, newest */
	CHECK_LEGACY(&lbase);
	legacy_run_timers(&lbase, 600);
	CHECK_LEGACY(&lbase);
	assert_int_equal(fired.n, 4);
	/* Highest level first, each bucket from its head (newest first). */
	assert_int_equal(fired.id[0], 2);
	assert_int_equal(fired.id[1], 1);
	assert_int_equal(fired.id[2], 4);
	assert_int_equal(fired.id[3], 3);
	for (int k = 0; k < 4; k++)
		assert_true(fired.clk[k] == 512);
}

/* ---- __mod_timer shortcuts ------------------------------------------------- */
static void mod_shortcuts(void **state)
{
	unsigned int idx;

	(void)state;
	lsetup(1000, 0);
	assert_int_equal(legacy_mod_timer(&lt[0], 1000), 0);	/* level 2 */
	assert_int_equal(legacy_mod_timer(&lt[1], 1001), 0);
	idx = lt[0].flags >> TIMER_ARRAYSHIFT;
	/* Same expiry: returns 1, nothing moves. */
	assert_int_equal(legacy_mod_timer(&lt[0], 1000), 1);
	assert_ptr_equal(lbase.vectors[idx].first, &lt[1].entry);
	/* Same bucket (level 2 spans 64 jiffies): expiry updated in place, the
	 * list order is kept (lt[1] stays ahead of lt[0]). */
	assert_int_equal(legacy_mod_timer(&lt[0], 1010), 1);
	assert_true(lt[0].expires == 1010);
	assert_ptr_equal(lbase.vectors[idx].first, &lt[1].entry);
	CHECK_LEGACY(&lbase);
	/* Another bucket: requeued at the head of its new bucket. */
	assert_int_equal(legacy_mod_timer(&lt[0], 50), 1);
	assert_int_equal(lt[0].flags >> TIMER_ARRAYSHIFT, 51);
	CHECK_LEGACY(&lbase);
	/* timer_reduce: a later expiry is ignored, an earlier one applied. */
	assert_int_equal(legacy_timer_reduce(&lt[0], 60), 1);
	assert_true(lt[0].expires == 50);
	assert_int_equal(legacy_timer_reduce(&lt[0], 40), 1);
	assert_true(lt[0].expires == 40);
	/* mod_timer_pending never activates. */
	assert_int_equal(legacy_mod_timer_pending(&lt[5], 10), 0);
	assert_false(legacy_timer_pending(&lt[5]));
	assert_int_equal(legacy_mod_timer_pending(&lt[0], 45), 1);
	CHECK_LEGACY(&lbase);
	assert_int_equal(legacy_del_timer(&lt[0]), 1);
	assert_int_equal(legacy_del_timer(&lt[0]), 0);
	CHECK_LEGACY(&lbase);
}

/* ---- wrap across ULONG_MAX ----------------------------------------------- */
static void wrap(void **state)
{
	unsigned long s = ULONG_MAX - 100;

	(void)state;
	lsetup(1000, s);
	legacy_mod_timer(&lt[0], s + 50);		/* before the wrap */
	legacy_mod_timer(&lt[1], s + 150);		/* after: 49 */
	legacy_mod_timer(&lt[2], s + 5000);		/* level 2, after */
	legacy_mod_timer(&lt[3], s - 10);		/* past due */
	CHECK_LEGACY(&lbase);
	for (unsigned long now = s; fired.n < 4; now += 7) {
		legacy_run_timers(&lbase, now);
		CHECK_LEGACY(&lbase);
	}
	assert_int_equal(fired.id[0], 3);
	assert_true(fired.clk[0] == s);
	assert_int_equal(fired.id[1], 0);
	assert_true(fired.clk[1] == s + 51);
	assert_int_equal(fired.id[2], 1);
	assert_true(fired.clk[2] == 56);	/* delta 150: level 1, ((49 >> 3) + 1) << 3 */
	assert_int_equal(fired.id[3], 2);
	assert_true(time_after(fired.clk[3], s + 5000));
	assert_true(fired.clk[3] - (s + 5000) <= 512);	/* level 3 */
}

/* ---- idle stretches cost nothing ---------------------------------------- */
static void idle_hour(void **state)
{
	(void)state;
	lsetup(1000, 0);
	legacy_mod_timer(&lt[0], 3600UL * 1000);
	legacy_run_timers(&lbase, 3600UL * 1000 + 300000);
	assert_int_equal(fired.n, 1);
	/* One collection, not 3.6 million single-jiffy steps. */
	assert_true(lbase.collections == 1);
	CHECK_LEGACY(&lbase);
}

/* ---- callbacks that re-arm, arm others, delete others (modern API) ----- */
static struct timer_base mbase;
static struct mt {
	struct modern_timer_list timer;
	int id;
} mt[8];
static int mlog[64], mn;

static void mt_cb(struct modern_timer_list *t)
{
	struct mt *m = modern_from_timer(m, t, timer);
	char err[512];

	mlog[mn++] = m->id;
	if (modern_timers_check(&mbase, err, sizeof(err)))
		fail_msg("in callback %d: %s", m->id, err);
	switch (m->id) {
	case 0:	/* re-arm self, twice */
		if (mn < 4)
			modern_mod_timer(t, mbase.jiffies + 5);
		break;
	case 1:	/* the softirq does not nest */
		th_warn_set_quiet(true);
		assert_int_equal(modern_run_timers(&mbase, mbase.jiffies + 100), -1);
		assert_non_null(strstr(th_warn_last(), "own callbacks"));
		th_warn_set_quiet(false);
		/* delete 2, collected in the same run and not yet run */
		assert_int_equal(modern_del_timer(&mt[2].timer), 1);
		/* arm 3, also collected now: it leaves the batch for a new bucket */
		assert_int_equal(modern_mod_timer(&mt[3].timer, mbase.jiffies + 20), 1);
		/* arm an inactive one */
		assert_int_equal(modern_mod_timer(&mt[4].timer, mbase.jiffies + 1), 0);
		break;
	default:
		break;
	}
}

static void callbacks_rearm_arm_delete(void **state)
{
	(void)state;
	th_base_release(&mbase);
	memset(mt, 0, sizeof(mt));
	mn = 0;
	assert_int_equal(th_base_init(&mbase, 0, 1000, 0), 0);
	th_set_cpu(0);
	for (int i = 0; i < 8; i++) {
		mt[i].id = i;
		modern_timer_setup(&mt[i].timer, mt_cb, 0);
	}
	/* 3, 2, 1 share a bucket: run newest first -> 1 runs before 2 and 3. */
	modern_mod_timer(&mt[3].timer, 10);
	modern_mod_timer(&mt[2].timer, 10);
	modern_mod_timer(&mt[1].timer, 10);
	modern_mod_timer(&mt[0].timer, 3);
	CHECK_MODERN(&mbase);
	modern_run_timers(&mbase, 11);
	CHECK_MODERN(&mbase);
	/* 0 at 4 (re-armed at 11+5: due 16); 1 at 11 (deletes 2, moves 3 to
	 * 11+20: due 32, arms 4 at 12: due 13). */
	assert_int_equal(mn, 2);
	assert_int_equal(mlog[0], 0);
	assert_int_equal(mlog[1], 1);
	assert_false(modern_timer_pending(&mt[2].timer));
	assert_true(modern_timer_pending(&mt[3].timer));
	modern_run_timers(&mbase, 100);
	CHECK_MODERN(&mbase);
	/* then 4 at 13, 0 at 16 (no more re-arming), 3 at 32 */
	assert_int_equal(mn, 5);
	assert_int_equal(mlog[2], 4);
	assert_int_equal(mlog[3], 0);
	assert_int_equal(mlog[4], 3);
	assert_true(th_base_idle(&mbase));
}

/* ---- API misuse -------------------------------------------------------------- */
/* Count-only WARNs (the fuzz targets): the same refusals, the same count,
 * no text made; text again once switched back. */
static void misuse_count_only(void **state)
{
	unsigned long warns;

	(void)state;
	lsetup(1000, 0);
	legacy_mod_timer(&lt[0], 10);
	th_warn_set_count_only(true);
	warns = th_warn_count();
	assert_int_equal(legacy_add_timer(&lt[0]), TH_EPENDING);
	assert_true(th_warn_count() == warns + 1);
	assert_non_null(strstr(th_warn_last(), "count only"));
	/* debugobjects' init of an active timer: refused, counted. */
	legacy___setup_timer(&lt[0], rec_cb, 0, 0);
	assert_true(th_warn_count() == warns + 2);
	assert_true(legacy_timer_pending(&lt[0]));
	CHECK_LEGACY(&lbase);
	th_warn_set_count_only(false);
	th_warn_set_quiet(true);
	assert_int_equal(legacy_add_timer(&lt[0]), TH_EPENDING);
	assert_true(th_warn_count() == warns + 3);
	assert_non_null(strstr(th_warn_last(), "already pending"));
	th_warn_set_quiet(false);
}

static void misuse_refused(void **state)
{
	struct legacy_timer_list stray;
	unsigned long warns;

	(void)state;
	th_warn_set_quiet(true);
	lsetup(1000, 0);
	legacy_mod_timer(&lt[0], 10);
	warns = th_warn_count();
	/* add_timer on a pending timer: the kernel BUG()s. */
	assert_int_equal(legacy_add_timer(&lt[0]), TH_EPENDING);
	assert_true(th_warn_count() == warns + 1);
	assert_non_null(strstr(th_warn_last(), "already pending"));
	assert_non_null(strstr(th_warn_last(), "callback"));
	CHECK_LEGACY(&lbase);
	/* No function. */
	lt[1].function = NULL;
	assert_int_equal(legacy_mod_timer(&lt[1], 10), TH_ENOFUNC);
	assert_non_null(strstr(th_warn_last(), "no function"));
	assert_false(legacy_timer_pending(&lt[1]));
	/* Never set up (debugobjects). */
	memset(&stray, 0, sizeof(stray));
	stray.function = rec_cb;
	stray.expires = 5;
	assert_int_equal(legacy_add_timer(&stray), TH_EUNINIT);
	assert_int_equal(legacy_del_timer(&stray), TH_EUNINIT);
	assert_non_null(strstr(th_warn_last(), "never set up"));
	/* Init flags outside TIMER_INIT_FLAGS are masked with a WARN. */
	legacy___setup_timer(&lt[3], rec_cb, 3, TIMER_DEFERRABLE | 0x40000);
	assert_int_equal(lt[3].flags & ~TIMER_ARRAYMASK, TIMER_DEFERRABLE);
	/* Kernel flag values are accepted as-is. */
	legacy___setup_timer(&lt[4], rec_cb, 4, TIMER_PINNED | TIMER_IRQSAFE | TIMER_DEFERRABLE);
	assert_int_equal(legacy_mod_timer(&lt[4], 20), 0);
	/* Jiffies never go backwards. */
	legacy_run_timers(&lbase, 100);
	assert_int_equal(legacy_run_timers(&lbase, 99), -1);
	CHECK_LEGACY(&lbase);
	assert_int_equal(fired.n, 2);
	th_warn_set_quiet(false);
}

/*
 * Flags naming no running base are not refused: v4.14's lock_timer_base()
 * takes whatever they name (timer_core/wheel_impl.h). A CPU that is not
 * possible (a slot without a base) gives the per-CPU template's base, and
 * __mod_timer() migrates the timer to the running CPU, repairing the CPU
 * bits; a pending one is detached through the template's bucket, leaving
 * the real bucket's bit stale until its collection.
 */
static void flags_without_base_migrate(void **state)
{
	unsigned long start = TH_INITIAL_JIFFIES(1000);
	char err[512];

	(void)state;
	lsetup(1000, start);
	assert_null(th_cpu_base(5));
	/* Not pending: locked on the template, queued here. */
	lt[2].flags = (lt[2].flags & ~TIMER_CPUMASK) | 5;
	assert_int_equal(legacy_mod_timer(&lt[2], start + 10), 0);
	assert_true(legacy_timer_pending(&lt[2]));
	assert_int_equal(lt[2].flags & TIMER_CPUMASK, 0);
	CHECK_LEGACY(&lbase);
	/* Pending, its CPU bits rewritten: detached through the template's
	 * bucket, so the bucket it leaves keeps its bit. */
	lt[2].flags = (lt[2].flags & ~TIMER_CPUMASK) | 5;
	assert_int_equal(legacy_mod_timer(&lt[2], start + 1000), 1);
	assert_int_equal(lt[2].flags & TIMER_CPUMASK, 0);
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bitmap bit 1 but list empty"));
	/* Its collection moves an empty list and clears the bit. */
	assert_int_equal(legacy_run_timers(&lbase, start + 20), 0);
	CHECK_LEGACY(&lbase);
	/* del_timer() of a pending one: the same detach, the same stale bit. */
	lt[2].flags = (lt[2].flags & ~TIMER_CPUMASK) | 7;
	assert_int_equal(legacy_del_timer(&lt[2]), 1);
	assert_false(legacy_timer_pending(&lt[2]));
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	/* Armed again (still CPU 7: migrated), it fires as any other timer. */
	assert_int_equal(legacy_mod_timer(&lt[2], start + 30), 0);
	assert_int_equal(lt[2].flags & TIMER_CPUMASK, 0);
	assert_int_equal(legacy_run_timers(&lbase, start + 2000), 1);
	assert_int_equal(fired.n, 1);
	assert_int_equal(fired.id[0], 2);
	CHECK_LEGACY(&lbase);
}

/* Run @fn in a child; return its wait status, or -1 if it still ran after
 * @ms milliseconds (then it is killed). */
static int in_child(void (*fn)(void), int ms)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		/* The kernel's outcome, not cmocka's handler (inherited). */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		fn();
		_exit(0);
	}
	assert_true(pid > 0);
	for (int waited = 0; waited < ms; waited += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void modern_nop(struct modern_timer_list *t)
{
	(void)t;
}

static void arm_wild_cpu(void)
{
	lt[3].flags = (lt[3].flags & ~TIMER_CPUMASK) | 0x97a0;
	legacy_mod_timer(&lt[3], lbase.jiffies + 10);
}

static void arm_migrating(void)
{
	lt[3].flags |= TIMER_MIGRATING;
	legacy_mod_timer(&lt[3], lbase.jiffies + 10);
}

static void del_pending_migrating(void)
{
	legacy_mod_timer(&lt[3], lbase.jiffies + 10);
	lt[3].flags |= TIMER_MIGRATING;
	legacy_del_timer(&lt[3]);
}

/*
 * Past NR_CPUS the CPU field indexes beyond __per_cpu_offset[]: the base is
 * no base, and its lock faults (the model: a word 0 there, timer_bases'
 * zero-based address). TIMER_MIGRATING left set: lock_timer_base() spins for
 * ever, in mod_timer() always, in del_timer() for a pending timer only.
 */
static void flags_without_base_fault_or_spin(void **state)
{
	int st;

	(void)state;
	lsetup(1000, TH_INITIAL_JIFFIES(1000));
	st = in_child(arm_wild_cpu, 5000);
	assert_true(st != -1 && WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
	assert_int_equal(in_child(arm_migrating, 300), -1);
	assert_int_equal(in_child(del_pending_migrating, 300), -1);
	/* Not pending: del_timer() does not lock, so does not spin. */
	lt[4].flags |= TIMER_MIGRATING;
	assert_int_equal(legacy_del_timer(&lt[4]), 0);
	/* The same code on the 4.15 layout: a CPU that is not possible. */
	{
		static struct modern_timer_list t;

		modern_timer_setup(&t, modern_nop, 0);
		t.flags = (t.flags & ~TIMER_CPUMASK) | 6;
		assert_int_equal(modern_mod_timer(&t, lbase.jiffies + 10), 0);
		assert_int_equal(t.flags & TIMER_CPUMASK, 0);
		assert_int_equal(modern_del_timer(&t), 1);
		th_debugobj_forget(&t);
	}
}

/* The checker is not a test that cannot fail: corrupt the wheel, see it. */
static void checker_catches_corruption(void **state)
{
	char err[512];

	(void)state;
	lsetup(1000, 0);
	legacy_mod_timer(&lt[0], 1000);
	legacy_mod_timer(&lt[1], 10);
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), 0);
	lt[0].expires = 5000;		/* bucket no longer matches */
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "calc_wheel_index"));
	lt[0].expires = 1000;
	{
		unsigned long map0 = lbase.pending_map[0];

		lbase.pending_map[0] = 0;	/* bit lost */
		assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "bitmap"));
		lbase.pending_map[0] = map0;
	}
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), 0);
	assert_false(lbase.next_expiry_recalc);
	lbase.timers_pending = false;	/* would make run_timers skip them */
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "timers_pending"));
	lbase.timers_pending = true;
	lbase.next_expiry++;		/* would fire a jiffy late */
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "next_expiry"));
	lbase.next_expiry--;
	/* A cycle ends the walk at its second visit (pprev check). */
	lt[1].entry.next = &lt[1].entry;
	assert_int_equal(legacy_timers_check(&lbase, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pprev"));
	lt[1].entry.next = NULL;
}

/* ---- misuse debugobjects catches (CONFIG_DEBUG_OBJECTS_TIMERS) ------------ */

static struct timer_base *reinit_base;
static int reinit_ret;

/* A callback that re-initialises the base its softirq is running. */
static void reinit_cb(unsigned long data)
{
	(void)data;
	fired.id[fired.n++] = -1;
	reinit_ret = th_base_init(reinit_base, 0, 1000, 0);
}

static int mfired;

static void mcount_cb(struct modern_timer_list *t)
{
	(void)t;
	mfired++;
}

/* setup_timer()/timer_setup() on a queued timer: debug_object_init() warns
 * "init active"; the harness refuses, the timer stays queued and intact
 * (on main it was wiped and the next run crashed in __hlist_del). */
static void setup_on_pending_refused(void **state)
{
	unsigned long warns;

	(void)state;
	th_warn_set_quiet(true);
	lsetup(1000, 0);
	assert_int_equal(legacy_mod_timer(&lt[0], 10), 0);
	assert_int_equal(legacy_mod_timer(&lt[1], 10), 0);	/* same bucket, after it */
	warns = th_warn_count();
	legacy___setup_timer(&lt[0], rec_cb, 99, 0);
	assert_true(th_warn_count() == warns + 1);
	assert_non_null(strstr(th_warn_last(), "ODEBUG: init active"));
	assert_non_null(strstr(th_warn_last(), "setup_timer"));
	assert_non_null(strstr(th_warn_last(), "refused"));
	assert_true(legacy_timer_pending(&lt[0]));
	assert_true(lt[0].data == 0);
	CHECK_LEGACY(&lbase);
	legacy_run_timers(&lbase, 100);
	CHECK_LEGACY(&lbase);
	assert_int_equal(fired.n, 2);
	/* Fired, so inactive: set up again without a word. */
	legacy___setup_timer(&lt[0], rec_cb, 7, 0);
	assert_true(th_warn_count() == warns + 1);
	assert_true(lt[0].data == 7);
	/* Deleted, so inactive too. */
	assert_int_equal(legacy_mod_timer(&lt[2], 300), 0);
	assert_int_equal(legacy_del_timer(&lt[2]), 1);
	legacy___setup_timer(&lt[2], rec_cb, 2, 0);
	assert_true(th_warn_count() == warns + 1);

	/* timer_setup() (4.15) the same way. */
	th_base_release(&mbase);
	assert_int_equal(th_base_init(&mbase, 0, 1000, 0), 0);
	mfired = 0;
	modern_timer_setup(&mt[0].timer, mcount_cb, 0);
	assert_int_equal(modern_mod_timer(&mt[0].timer, 20), 0);
	modern_timer_setup(&mt[0].timer, mcount_cb, TIMER_PINNED);
	assert_true(th_warn_count() == warns + 2);
	assert_non_null(strstr(th_warn_last(), "ODEBUG: init active"));
	assert_non_null(strstr(th_warn_last(), "timer_setup"));
	assert_true(modern_timer_pending(&mt[0].timer));
	assert_int_equal(mt[0].timer.flags & TIMER_PINNED, 0);
	CHECK_MODERN(&mbase);
	modern_run_timers(&mbase, 100);
	assert_int_equal(mfired, 1);
	th_base_release(&mbase);
	th_warn_set_quiet(false);
}

/* th_base_init() on a base that still holds timers, or from one of its
 * own callbacks: refused, the wheel untouched. */
static void base_init_with_timers_refused(void **state)
{
	static struct timer_base junk;
	unsigned long warns;

	(void)state;
	th_warn_set_quiet(true);
	lsetup(1000, 0);
	assert_int_equal(legacy_mod_timer(&lt[0], 10), 0);
	warns = th_warn_count();
	assert_int_equal(th_base_init(&lbase, 0, 1000, 0), -1);
	assert_true(th_warn_count() == warns + 1);
	assert_non_null(strstr(th_warn_last(), "still holds timers"));
	assert_true(legacy_timer_pending(&lt[0]));
	CHECK_LEGACY(&lbase);
	legacy_run_timers(&lbase, 100);
	assert_int_equal(fired.n, 1);
	/* Empty now: accepted. */
	assert_int_equal(th_base_init(&lbase, 0, 1000, 200), 0);
	/* Released: its timers are forgotten, the base may be set up again. */
	assert_int_equal(legacy_mod_timer(&lt[1], 300), 0);
	th_base_release(&lbase);
	assert_int_equal(th_base_init(&lbase, 0, 1000, 0), 0);
	/* Memory never attached is never read as holding timers. */
	memset(&junk, 0xa5, sizeof(junk));
	assert_int_equal(th_base_init(&junk, 1, 1000, 0), 0);
	th_base_release(&junk);
	assert_true(th_warn_count() == warns + 1);

	/* From a callback of its own softirq: the collection is in progress. */
	legacy___setup_timer(&lt[2], reinit_cb, 0, 0);
	assert_int_equal(legacy_mod_timer(&lt[2], 10), 0);
	assert_int_equal(legacy_mod_timer(&lt[3], 10), 0);
	reinit_base = &lbase;
	reinit_ret = 0;
	legacy_run_timers(&lbase, 50);
	assert_int_equal(reinit_ret, -1);
	assert_non_null(strstr(th_warn_last(), "softirq is running"));
	assert_int_equal(fired.n, 3);	/* and now lt[3] (newest first), lt[2] */
	CHECK_LEGACY(&lbase);
	th_warn_set_quiet(false);
}

/* debug_check_no_obj_freed(): freeing a queued timer is reported, from the
 * state debugobjects keeps apart from the timer's memory, and nothing else
 * changes (the attacks free one on purpose, CVE-2016-8655's shape). */
/* setup then forget (destroy_timer_on_stack()), again and again at new
 * addresses: the table stays the size of what is tracked at once. */
static void debugobjects_bounded(void **state)
{
	enum { N = 4096, ROUNDS = 64 };
	struct legacy_timer_list *t = calloc(N * ROUNDS, sizeof(*t));

	(void)state;
	assert_non_null(t);
	th_debugobj_reset();
	lsetup(1000, 0);
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < N; i++)
			legacy___setup_timer(&t[r * N + i], rec_cb, i, 0);
		for (int i = 0; i < N; i++)
			th_debugobj_forget(&t[r * N + i]);
	}
	/* 4096 live at most: 4 * 4096 slots after a rehash, never 64 times that. */
	assert_true(th_debugobj_slots() <= 4 * 4 * N);
	free(t);
}

static void free_pending_reported(void **state)
{
	struct legacy_timer_list *t = calloc(2, sizeof(*t));
	unsigned long warns;

	(void)state;
	assert_non_null(t);
	th_warn_set_quiet(true);
	lsetup(1000, 0);
	legacy___setup_timer(&t[0], rec_cb, 10, 0);
	legacy___setup_timer(&t[1], rec_cb, 11, 0);
	warns = th_warn_count();
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 0);
	assert_int_equal(legacy_mod_timer(&t[1], 10), 0);
	assert_true(th_debugobj_active(&t[1]));
	/* Only the freed range counts. */
	assert_int_equal(th_debug_check_no_obj_freed(t, sizeof(*t)), 0);
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 1);
	assert_true(th_warn_count() == warns + 1);
	assert_non_null(strstr(th_warn_last(), "ODEBUG: free active"));
	assert_non_null(strstr(th_warn_last(), "timer_list"));
	/* A report only: still queued, and it fires. */
	assert_true(legacy_timer_pending(&t[1]));
	CHECK_LEGACY(&lbase);
	legacy_run_timers(&lbase, 100);
	assert_int_equal(fired.n, 1);
	assert_int_equal(fired.id[0], 11);
	assert_false(th_debugobj_active(&t[1]));
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 0);
	/* del_timer() deactivates too. */
	assert_int_equal(legacy_mod_timer(&t[0], 200), 0);
	assert_int_equal(legacy_del_timer(&t[0]), 1);
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 0);
	/* The memory cannot lie: a queued timer whose bytes were reused
	 * (pprev now NULL) is still active, for init and for free. */
	assert_int_equal(legacy_mod_timer(&t[0], 300), 0);
	memset(&t[0], 0, sizeof(t[0]));
	assert_true(th_debugobj_active(&t[0]));
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 1);
	legacy___setup_timer(&t[0], rec_cb, 12, 0);
	assert_non_null(strstr(th_warn_last(), "ODEBUG: init active"));
	/* Forgetting the (now corrupt) wheel deactivates its timers. */
	th_base_release(&lbase);
	assert_false(th_debugobj_active(&t[0]));
	assert_int_equal(th_debug_check_no_obj_freed(t, 2 * sizeof(*t)), 0);
	th_debugobj_forget(&t[0]);
	th_debugobj_forget(&t[1]);
	free(t);
	th_warn_set_quiet(false);
}

/* What fires comes from the buckets, as in the kernel. A planted pprev
 * makes del_timer() "detach" a timer that was never queued (returns 1, as
 * the kernel would); a harness count went 0 -> -1 -> 0 and the next run
 * skipped a queued timer the kernel fires. */
static void corrupted_pprev_hides_no_timer(void **state)
{
	struct hlist_node *planted = NULL;

	(void)state;
	lsetup(1000, 0);
	lt[5].entry.pprev = &planted;
	assert_int_equal(legacy_del_timer(&lt[5]), 1);
	assert_int_equal(legacy_mod_timer(&lt[0], 10), 0);
	legacy_run_timers(&lbase, 100);
	assert_int_equal(fired.n, 1);
	assert_int_equal(fired.id[0], 0);
	/* And an idle wheel does not make anything up either. */
	lt[6].entry.pprev = &planted;
	assert_int_equal(legacy_del_timer(&lt[6]), 1);
	legacy_run_timers(&lbase, 1000);
	assert_int_equal(fired.n, 1);
	CHECK_LEGACY(&lbase);
}

/* trace --check stays linear: a wheel of 20000 timers is checked as often
 * as TH_TRACE_CHECK_BUDGET per op allows (on main: the whole wheel after
 * every op, 40000 lines in 79 s); a small one after every op and callback. */
static void trace_check_linear(void **state)
{
	struct th_trace_stats st;
	struct th_trace_opts o = { .variant = &th_trace_modern, .hz = 1000, .check = true,
				   .stats = &st };
	char *text, *out;
	size_t tlen, olen;
	FILE *f = open_memstream(&text, &tlen), *in, *of;
	unsigned long work_units;

	(void)state;
	fprintf(f, "start 0\n");
	for (int i = 0; i < 20000; i++)
		fprintf(f, "mod t%d %d\n", i, 1000 + (i * 7919) % 100000);
	for (int i = 0; i < 20000; i++)
		fprintf(f, "del t%d\n", (i * 13) % 20000);
	fprintf(f, "run 200000\n");
	fclose(f);
	in = fmemopen(text, tlen, "r");
	of = open_memstream(&out, &olen);
	assert_int_equal(th_trace_run(&o, in, "big", of, stderr), 0);
	fclose(in);
	fclose(of);
	work_units = st.ops + st.fires + 1;
	assert_true(st.ops == 40002);
	assert_true(st.checks >= 40);
	if (st.check_steps > TH_TRACE_CHECK_BUDGET * work_units + WHEEL_SIZE_MAX + 20000)
		fail_msg("check cost %lu steps for %lu ops and callbacks: not linear",
			 st.check_steps, work_units);
	free(text);
	free(out);

	/* Small: every op and every callback checked, and once at the end. */
	f = open_memstream(&text, &tlen);
	fprintf(f, "start 0\nmod a 10\nmod b 10\nevery a 5\nrun 40\nmod c 3\nrun 100\n");
	fclose(f);
	in = fmemopen(text, tlen, "r");
	of = open_memstream(&out, &olen);
	assert_int_equal(th_trace_run(&o, in, "small", of, stderr), 0);
	fclose(in);
	fclose(of);
	assert_true(st.checks == st.ops + st.fires + 1);
	free(text);
	free(out);
}

/* ---- differential: every variant and the reference, random traces -------- */
static void gen_trace(unsigned long seed, unsigned int hz, char **text, size_t *len,
		      struct ref_wheel *ref, FILE *ref_out)
{
	FILE *f = open_memstream(text, len);
	unsigned long x = seed, start, now;
	const int ntimers = 40;

#define RND() (x = x * 6364136223846793005ULL + 1442695040888963407ULL, x >> 33)
	start = (RND() & 1) ? ULONG_MAX - (RND() % 5000) : TH_INITIAL_JIFFIES(hz) + RND() % 1000;
	now = start;
	fprintf(f, "start %lu\n", start);
	ref_init(ref, hz, start, ntimers, ref_out);
	for (int line = 2; line < 600; line++) {
		unsigned long id = RND() % ntimers, r = RND() % 100;
		unsigned long span = 1UL << (RND() % (hz > 100 ? 30 : 27));
		unsigned long e = now + RND() % span;

		if (RND() % 4 == 0)
			e -= RND() % 100;

		if (r < 25) {
			fprintf(f, "mod t%lu %lu\n", id, e);
			fprintf(ref_out, "ret %d %d\n", line, ref_mod(ref, id, e, 0));
		} else if (r < 35) {
			fprintf(f, "add t%lu %lu\n", id, e);
			ref_add(ref, id, e);
		} else if (r < 45) {
			fprintf(f, "modp t%lu %lu\n", id, e);
			fprintf(ref_out, "ret %d %d\n", line, ref_mod(ref, id, e, REF_PENDING_ONLY));
		} else if (r < 55) {
			fprintf(f, "reduce t%lu %lu\n", id, e);
			fprintf(ref_out, "ret %d %d\n", line, ref_mod(ref, id, e, REF_REDUCE));
		} else if (r < 65) {
			fprintf(f, "del t%lu\n", id);
			fprintf(ref_out, "ret %d %d\n", line, ref_del(ref, id));
		} else if (r < 70) {
			unsigned long iv = RND() % 3 ? RND() % 100 : RND() % 100000;

			fprintf(f, "every t%lu %lu\n", id, iv);
			ref->t[id].every = true;
			ref->t[id].interval = iv;
		} else {
			now += RND() % 4 ? RND() % 200 : RND() % (1UL << 22);
			fprintf(f, "run %lu\n", now);
			ref_run(ref, now);
		}
	}
	now += 1UL << 31;
	fprintf(f, "run %lu\n", now);
	ref_run(ref, now);
	fclose(f);
#undef RND
}

static void differential(unsigned int hz)
{
	const char *variants[] = { "legacy", "transitional", "modern" };
	unsigned long seed0 = getenv("TH_SEED") ? strtoul(getenv("TH_SEED"), NULL, 0) : 20261203;

	th_warn_set_quiet(true);
	for (unsigned long seed = seed0; seed < seed0 + 40; seed++) {
		char *text, *want, *got;
		size_t tlen, wlen, glen;
		struct ref_wheel ref;
		FILE *rout = open_memstream(&want, &wlen);

		gen_trace(seed, hz, &text, &tlen, &ref, rout);
		fclose(rout);
		for (int v = 0; v < 3; v++) {
			struct th_trace_opts o = { .variant = th_trace_variant(variants[v]), .hz = hz, .check = true };
			FILE *in = fmemopen(text, tlen, "r"), *out = open_memstream(&got, &glen);
			int rc = th_trace_run(&o, in, "random", out, stderr);

			fclose(in);
			fclose(out);
			if (rc || strcmp(got, want)) {
				char path[64];
				FILE *dump;

				snprintf(path, sizeof(path), "differential-%lu.trace", seed);
				dump = fopen(path, "w");
				if (dump) {
					fputs(text, dump);
					fclose(dump);
				}
				fail_msg("seed %lu (TH_SEED=%lu), HZ %u, variant %s: rc %d, output differs from the reference; trace saved as %s",
					 seed, seed, hz, variants[v], rc, path);
			}
			free(got);
		}
		ref_free(&ref);
		free(text);
		free(want);
	}
	th_warn_set_quiet(false);
}

static void differential_hz1000(void **state) { (void)state; differential(1000); }
static void differential_hz100(void **state) { (void)state; differential(100); }

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_legacy),
		cmocka_unit_test(layout_modern),
		cmocka_unit_test(level_table_hz1000),
		cmocka_unit_test(level_table_hz100),
		cmocka_unit_test(never_early),
		cmocka_unit_test(order_within_jiffy),
		cmocka_unit_test(mod_shortcuts),
		cmocka_unit_test(wrap),
		cmocka_unit_test(idle_hour),
		cmocka_unit_test(callbacks_rearm_arm_delete),
		cmocka_unit_test(misuse_refused),
		cmocka_unit_test(misuse_count_only),
		cmocka_unit_test(flags_without_base_migrate),
		cmocka_unit_test(flags_without_base_fault_or_spin),
		cmocka_unit_test(checker_catches_corruption),
		cmocka_unit_test(setup_on_pending_refused),
		cmocka_unit_test(base_init_with_timers_refused),
		cmocka_unit_test(free_pending_reported),
		cmocka_unit_test(debugobjects_bounded),
		cmocka_unit_test(corrupted_pprev_hides_no_timer),
		cmocka_unit_test(trace_check_linear),
		cmocka_unit_test(differential_hz1000),
		cmocka_unit_test(differential_hz100),
	};

	if (argc > 1) {
		if (!strcmp(argv[1], "--list")) {
			for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
				printf("%s\n", tests[i].name);
			return 0;
		}
		cmocka_set_test_filter(argv[1]);
	}
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}

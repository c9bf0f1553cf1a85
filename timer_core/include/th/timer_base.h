/* SPDX-License-Identifier: MIT */
/*
 * The timer wheel's base (one per simulated CPU) and its geometry, after
 * kernel/time/timer.c (Linux 4.8+, "timers: Switch to a non-cascading wheel").
 *
 * The wheel has LVL_DEPTH array levels. Each level provides an array of
 * LVL_SIZE buckets. Each level is driven by its own clock and therefore each
 * level has a different granularity: level n ticks every LVL_GRAN(n)
 * jiffies, so a timer is queued at the level whose range covers its delta
 * and is rounded up to that level's granularity. Timers never fire early;
 * they fire late by at most the granularity of the level they were queued
 * at. There is no cascading.
 *
 * HZ 1000 steps (depth 9)
 * Level Offset  Granularity            Range
 *  0      0         1 ms                0 ms -         63 ms
 *  1     64         8 ms               64 ms -        511 ms
 *  2    128        64 ms              512 ms -       4095 ms (512ms - ~4s)
 *  3    192       512 ms             4096 ms -      32767 ms (~4s - ~32s)
 *  4    256      4096 ms (~4s)      32768 ms -     262143 ms (~32s - ~4m)
 *  5    320     32768 ms (~32s)    262144 ms -    2097151 ms (~4m - ~34m)
 *  6    384    262144 ms (~4m)    2097152 ms -   16777215 ms (~34m - ~4h)
 *  7    448   2097152 ms (~34m)  16777216 ms -  134217727 ms (~4h - ~1d)
 *  8    512  16777216 ms (~4h)  134217728 ms - 1073741822 ms (~1d - ~12d)
 *
 * HZ 100 steps (depth 8)
 * Level Offset  Granularity            Range
 *  0      0         10 ms               0 ms -        630 ms
 *  1     64         80 ms             640 ms -       5110 ms (640ms - ~5s)
 *  2    128        640 ms            5120 ms -      40950 ms (~5s - ~40s)
 *  3    192       5120 ms (~5s)     40960 ms -     327670 ms (~40s - ~5m)
 *  4    256      40960 ms (~40s)   327680 ms -    2621430 ms (~5m - ~43m)
 *  5    320     327680 ms (~5m)   2621440 ms -   20971510 ms (~43m - ~5h)
 *  6    384    2621440 ms (~43m) 20971520 ms -  167772150 ms (~5h - ~1d)
 *  7    448   20971520 ms (~5h) 167772160 ms - 1342177270 ms (~1d - ~15d)
 *
 * Two knobs are chosen (LVL_CLK_SHIFT, LVL_BITS); everything else derives.
 * HZ, and so the depth, is a per-wheel parameter here (the kernel fixes it
 * at build time), so one process can hold wheels of both depths.
 */
#ifndef TH_TIMER_BASE_H
#define TH_TIMER_BASE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "th/kernel.h"

/* Clock divisor for the next level */
#define LVL_CLK_SHIFT	3
#define LVL_CLK_DIV	(1UL << LVL_CLK_SHIFT)
#define LVL_CLK_MASK	(LVL_CLK_DIV - 1)
#define LVL_SHIFT(n)	((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n)	(1UL << LVL_SHIFT(n))

/*
 * The time start value for each level to select the bucket at enqueue
 * time. We start from the last possible delta of the previous level
 * so that we can later add an extra LVL_GRAN(n) to n (see calc_index()).
 */
#define LVL_START(n)	((LVL_SIZE - 1) << (((n) - 1) * LVL_CLK_SHIFT))

/* Size of each clock level */
#define LVL_BITS	6
#define LVL_SIZE	(1UL << LVL_BITS)
#define LVL_MASK	(LVL_SIZE - 1)
#define LVL_OFFS(n)	((n) * LVL_SIZE)

/* Level depth: 9 for HZ > 100, else 8 (the kernel's #if HZ > 100). */
#define LVL_DEPTH_MAX	9
#define TH_LVL_DEPTH(hz)	((hz) > 100 ? 9 : 8)

/* The cutoff (evaluated in the future): timeouts beyond are clamped. */
#define WHEEL_TIMEOUT_CUTOFF(depth)	(LVL_START(depth))
#define WHEEL_TIMEOUT_MAX(depth)	(WHEEL_TIMEOUT_CUTOFF(depth) - LVL_GRAN((depth) - 1))
#define WHEEL_SIZE_MAX	(LVL_SIZE * LVL_DEPTH_MAX)

/* One bitmap word per level: the scan for the next bucket relies on it. */
_Static_assert(LVL_SIZE == 8 * sizeof(unsigned long), "one pending_map word per level");
/* th_calc_wheel_index() is the kernel's if-chain for depth 8 and 9. */
_Static_assert(LVL_DEPTH_MAX == 9 && TH_LVL_DEPTH(1) == 8,
	       "calc_wheel_index covers depths 8 and 9");

/* include/linux/jiffies.h: wrap 5 minutes after boot. */
#define TH_INITIAL_JIFFIES(hz)	((unsigned long)(unsigned int)(-300 * (int)(hz)))

/* include/linux/timer.h (4.14): the bits of timer->flags. */
#define TIMER_CPUMASK		0x0003FFFF
#define TIMER_MIGRATING		0x00040000
#define TIMER_BASEMASK		(TIMER_CPUMASK | TIMER_MIGRATING)
#define TIMER_DEFERRABLE	0x00080000
#define TIMER_PINNED		0x00100000
#define TIMER_IRQSAFE		0x00200000
#define TIMER_INIT_FLAGS	(TIMER_DEFERRABLE | TIMER_PINNED | TIMER_IRQSAFE)
#define TIMER_ARRAYSHIFT	22
#define TIMER_ARRAYMASK		0xFFC00000

/*
 * Simulated CPUs: a timer's flags name the base it belongs to, as in the
 * kernel (v4.14 kernel/time/timer.c get_timer_base(tflags) =
 * per_cpu_ptr(&timer_bases[BASE_STD], tflags & TIMER_CPUMASK)). TH_NR_CPUS is
 * the simulated kernel's NR_CPUS, the size of __per_cpu_offset[]; a CPU slot
 * with a base (th_base_init()) is a possible CPU, one without is not. What a
 * CPU field that names no running base gives is th_per_cpu_timer_base().
 */
#define TH_NR_CPUS	8

/* Errors the API returns where the kernel would BUG or WARN. */
#define TH_EPENDING	(-16)	/* -EBUSY: add_timer() on a pending timer */
#define TH_ENOFUNC	(-22)	/* -EINVAL: armed with no function */
#define TH_EUNINIT	(-2)	/* -ENOENT: never set up (debugobjects) */
/* Not a kernel error: the running CPU has no base (the program never set up
 * its wheel, th_base_init()). Flags naming no base are not refused. */
#define TH_ENOBASE	(-19)

struct timer_base {
	/* First: a bucket's address is then base + 8 * idx, one instruction. */
	struct hlist_head vectors[WHEEL_SIZE_MAX];
	unsigned long clk;		/* next jiffy whose buckets are collected */
	unsigned long jiffies;		/* "now": callbacks see the run's target */
	/*
	 * The kernel's (v5.10+) next-expiry bookkeeping, from the buckets
	 * alone: when !next_expiry_recalc, timers_pending says whether any
	 * bucket holds a timer and next_expiry is the first jiffy at which one
	 * is collected. A bucket emptied by a delete asks for a recalculation.
	 */
	unsigned long next_expiry;
	bool next_expiry_recalc;
	bool timers_pending;
	unsigned int hz;
	unsigned int depth;		/* LVL_DEPTH of this wheel */
	unsigned int cpu;
	unsigned long collections;	/* jiffies whose buckets were collected */
	/* raw_spinlock_t lock: one simulated CPU runs at a time, so it is
	 * never held across calls; lock_timer_base() reads it (at a base
	 * that is not one, the read is the kernel's fault at the lock). */
	unsigned int lock;
	void *running_timer;		/* the timer whose callback runs */
	unsigned long running_clk;	/* baseclk of the running callbacks */
	/* While expiring: the lists collected from the buckets (checker). */
	struct hlist_head *collected;
	int ncollected;
	unsigned long pending_map[LVL_DEPTH_MAX];	/* bit per bucket */
};

/**
 * th_base_init() - set up a wheel and attach it as simulated CPU @cpu
 * @base: the wheel
 * @cpu: 0 .. TH_NR_CPUS-1
 * @hz: HZ of this wheel (depth 9 if > 100, else 8)
 * @jiffies: initial jiffies and base clock (TH_INITIAL_JIFFIES(hz) in the kernel)
 *
 * A base that is attached and still holds timers (in its buckets, or on
 * the lists its softirq is expiring) is refused with a WARN and left as it
 * is: wiping it would leave those timers pointing into lists that no longer
 * exist (the kernel's debugobjects warn on init of an active object the
 * same way, debug_object_init()). th_base_release() it first.
 *
 * Return: 0, or -1 for a bad @cpu or @hz (0), or a base still in use.
 */
int th_base_init(struct timer_base *base, unsigned int cpu, unsigned int hz,
		 unsigned long jiffies);
/* Detach @base from its CPU slot. The timers it holds are forgotten: for
 * debugobjects they are inactive from now on. */
void th_base_release(struct timer_base *base);

/* Does @base hold no timer (no bucket, no list being expired)? From the
 * bitmap and the expiry lists, never from a counter. */
bool th_base_idle(const struct timer_base *base);

/* raw_smp_processor_id(): the CPU timers are set up and armed on. */
unsigned int th_this_cpu(void);
/* Run as CPU @cpu from now on. Return: 0, or -1 if @cpu has no base. */
int th_set_cpu(unsigned int cpu);

/* "jiffies" as the timer API sees it: the current CPU base's time. */
unsigned long th_jiffies(void);

/*
 * calc_wheel_index() of kernel/time/timer.c: the bucket for @expires given
 * the base clock @clk, and the jiffy at which that bucket is collected.
 */
static inline unsigned int th_calc_wheel_index(unsigned long expires, unsigned long clk,
					       unsigned int depth, unsigned long *bucket_expiry);

/*
 * Level @lvl is looked at by collect_expired_timers() only when the low
 * LVL_SHIFT(lvl) bits of clk are zero, and then at bucket (clk >> shift) &
 * LVL_MASK. Return: the first such look at or after @clk, in level ticks
 * (shift it left by LVL_SHIFT(lvl) for the jiffy).
 */
static inline unsigned long th_level_clk_ceil(unsigned long clk, unsigned int lvl)
{
	return (clk >> LVL_SHIFT(lvl)) + ((clk & (LVL_GRAN(lvl) - 1)) != 0);
}

/*
 * The first jiffy >= base->clk at which collect_expired_timers() finds a
 * non-empty bucket, from the pending bitmap alone. Return: false if empty.
 */
bool th_next_collect_clk(const struct timer_base *base, unsigned long *clk);

/* include/linux/timer.h: the farthest a next expiry can be; beyond the
 * last bucket expiry (clk + LVL_START(depth)) at both depths. */
#define NEXT_TIMER_MAX_DELTA	((1UL << 30) - 1)
_Static_assert(NEXT_TIMER_MAX_DELTA >= LVL_START(LVL_DEPTH_MAX), "beyond every bucket");

/*
 * timer_recalc_next_expiry() / __next_timer_interrupt(): next_expiry from
 * the bitmap, or clk + NEXT_TIMER_MAX_DELTA with timers_pending false when
 * nothing is queued, so that any enqueue is earlier.
 */
void th_recalc_next_expiry(struct timer_base *base);

/*
 * calc_index() of kernel/time/timer.c (64-bit since v5.x): the timer wheel
 * has to guarantee that a timer does not fire early. Early expiry can
 * happen due to a timer armed at the edge of a tick, or truncation of the
 * expiry time in the outer levels, so round up with the level granularity.
 */
static inline unsigned int th_calc_index(unsigned long expires, unsigned int lvl,
					 unsigned long *bucket_expiry)
{
	expires = (expires >> LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = expires << LVL_SHIFT(lvl);
	return LVL_OFFS(lvl) + (expires & LVL_MASK);
}

/* The last level, and the clamp of obscene timeouts, which compares the
 * delta, not the expiry (commit e2a71bdea816, "timer: Fix wheel index
 * calculation on last level"). */
static inline unsigned int th_calc_last_level(unsigned long expires, unsigned long clk,
					      unsigned int depth, unsigned long *bucket_expiry)
{
	unsigned long delta = expires - clk;

	if ((long)delta < 0) {
		*bucket_expiry = clk;
		return clk & LVL_MASK;
	}
	/* Force expire obscene large timeouts to expire at the capacity
	 * limit of the wheel. */
	if (delta >= WHEEL_TIMEOUT_CUTOFF(depth))
		expires = clk + WHEEL_TIMEOUT_MAX(depth);
	return th_calc_index(expires, depth - 1, bucket_expiry);
}

/*
 * calc_wheel_index() of kernel/time/timer.c, as the kernel writes it: an
 * if-chain on compile-time constants, most deltas leaving early. Split in
 * two so the wheel's fast paths can inline the near part alone (levels 0-6,
 * deltas below ~4 h at HZ 1000) and finish the rest out of line: the near
 * part returns UINT_MAX for a delta beyond level 6, or a past-due timer.
 */
static inline unsigned int th_calc_wheel_index_near(unsigned long expires, unsigned long clk,
						    unsigned long *bucket_expiry)
{
	unsigned long delta = expires - clk;

	if (delta < LVL_START(1))
		return th_calc_index(expires, 0, bucket_expiry);
	else if (delta < LVL_START(2))
		return th_calc_index(expires, 1, bucket_expiry);
	else if (delta < LVL_START(3))
		return th_calc_index(expires, 2, bucket_expiry);
	else if (delta < LVL_START(4))
		return th_calc_index(expires, 3, bucket_expiry);
	else if (delta < LVL_START(5))
		return th_calc_index(expires, 4, bucket_expiry);
	else if (delta < LVL_START(6))
		return th_calc_index(expires, 5, bucket_expiry);
	else if (delta < LVL_START(7))
		return th_calc_index(expires, 6, bucket_expiry);
	return UINT_MAX;
}

/* The whole chain. The one difference from the kernel: LVL_DEPTH is per
 * wheel here, so `LVL_DEPTH > 8` reads @depth. */
static inline unsigned int th_calc_wheel_index(unsigned long expires, unsigned long clk,
					       unsigned int depth, unsigned long *bucket_expiry)
{
	unsigned int idx = th_calc_wheel_index_near(expires, clk, bucket_expiry);

	if (idx != UINT_MAX)
		return idx;
	if (depth > 8 && expires - clk < LVL_START(8))
		return th_calc_index(expires, 7, bucket_expiry);
	return th_calc_last_level(expires, clk, depth, bucket_expiry);
}

/* The per-CPU bases and the debugobjects switch. Written only by
 * th_base_init()/th_base_release(), th_set_cpu() and th_debugobj_enable().
 * Hidden: linked into each program, never exported, so a read is one
 * instruction, not a GOT load and one. */
#define TH_HIDDEN __attribute__((visibility("hidden")))
extern TH_HIDDEN struct timer_base *th_cpu_bases_[TH_NR_CPUS];
extern TH_HIDDEN unsigned int th_this_cpu_;
extern TH_HIDDEN bool th_debugobj_off_;
/*
 * What the fast path of every timer call reads: indexed by the CPU field of
 * the flags unchecked, as per_cpu() indexes __per_cpu_offset[] (2 MiB of
 * zero pages, TH_NR_CPUS entries ever set), and NULL while debugobjects is
 * on, so that one test sends a timer naming no base, and every call while
 * debugobjects has bookkeeping to do, to the checked path.
 */
extern TH_HIDDEN struct timer_base *th_fast_bases_[TIMER_CPUMASK + 1];

/* The base of CPU @cpu, or NULL. */
static inline struct timer_base *th_cpu_base(unsigned int cpu)
{
	return cpu < TH_NR_CPUS ? th_cpu_bases_[cpu] : NULL;
}

/* The base of the current CPU (NULL if none attached). */
static inline struct timer_base *th_this_base(void)
{
	return th_cpu_bases_[th_this_cpu_];
}

/*
 * What per_cpu_ptr(&timer_bases[BASE_STD], cpu) gives for a CPU field that
 * names no possible CPU (v4.14: get_timer_cpu_base() -> per_cpu_ptr() adds
 * __per_cpu_offset[cpu], arch/x86/kernel/setup_percpu.c, to the per-CPU
 * symbol's zero-based address; no bounds check anywhere on the way):
 *  - cpu < NR_CPUS, not possible: __per_cpu_offset[cpu] still holds its boot
 *    value, BOOT_PERCPU_OFFSET (= __per_cpu_load, the template of the per-CPU
 *    areas, which setup_per_cpu_areas() copies to each possible CPU): a
 *    timer_base no CPU owns and no softirq runs, as init left it, zero
 *    (init_timer_cpus() sets up possible CPUs only): th_percpu_template_base;
 *  - cpu >= NR_CPUS: a word read past __per_cpu_offset[], no per-CPU offset
 *    at all. The model takes it as 0, the commonest word of a kernel image's
 *    data: the base is then timer_bases' own link-time address, zero-based
 *    on x86-64 SMP (arch/x86/kernel/vmlinux.lds.S, PERCPU_VADDR(..., 0, ...)),
 *    a user-space address that is not mapped (or SMAP): the lock's access
 *    faults, an oops. TH_PERCPU_WILD_BASE is such an address in the model's
 *    process: below vm.mmap_min_addr, never mapped. (A non-zero word would
 *    make some kernel address instead, whose lock word decides: a spin if it
 *    is not 0, else the call goes on; the model does not guess those.)
 * A possible CPU's base is its own (th_cpu_base()).
 */
#define TH_PERCPU_WILD_BASE	((struct timer_base *)(uintptr_t)0x1000)
extern TH_HIDDEN struct timer_base th_percpu_template_base;
static inline struct timer_base *th_per_cpu_timer_base(unsigned int cpu)
{
	if (cpu >= TH_NR_CPUS)
		return TH_PERCPU_WILD_BASE;
	return th_cpu_bases_[cpu] ? th_cpu_bases_[cpu] : &th_percpu_template_base;
}

/*
 * ---- debugobjects (lib/debugobjects.c, CONFIG_DEBUG_OBJECTS_TIMERS) -----
 * The timers that went through init_timer_key(), each inactive or active
 * (queued on a base), tracked by address away from the timer's memory as
 * the kernel tracks them: a freed or overwritten timer cannot lie about its
 * state. Arming or deleting an unknown timer, setting up an active one, are
 * refused with a WARN; freeing an active one is reported. While off
 * (th_debugobj_enable(false), as in a production kernel) nothing is tracked
 * and nothing checked. Every check only reports: none changes what the
 * wheel does with a call it accepts.
 */
void th_debugobj_enable(bool on);
bool th_debugobj_enabled(void);
/*
 * debug_object_init() from init_timer_key(): track @timer as inactive. On an
 * active one (still queued) the kernel WARNs "init active" and its fixup
 * (timer_fixup_init()) del_timer_sync()s it; the harness WARNs and refuses,
 * as for every misuse: the caller must leave the timer untouched. @op and
 * @fn (the callback being set, a code address) name it in the message.
 * Return: true to go ahead.
 */
bool th_debugobj_init(const void *timer, const char *op, const void *fn);
bool th_debugobj_lookup_(const void *timer);
/* Was @timer set up (debug_object_assert_init())? True while off. */
static inline bool th_debugobj_known(const void *timer)
{
	return th_debugobj_off_ || th_debugobj_lookup_(timer);
}
/* debug_object_activate() / _deactivate(): @timer was queued on CPU @cpu's
 * base (@fn: its callback, the hint of later messages), or left it. */
void th_debugobj_activate(const void *timer, unsigned int cpu, const void *fn);
void th_debugobj_deactivate(const void *timer);
/* Is @timer tracked as active (queued)? */
bool th_debugobj_active(const void *timer);
/*
 * debug_check_no_obj_freed(), what kfree() calls under
 * CONFIG_DEBUG_OBJECTS_FREE: WARN "free active" for each timer in
 * [@addr, @addr + @size) that is still queued. Only reports: the kernel's
 * fixup (timer_fixup_free(): del_timer_sync()) is not applied, so what a
 * missing del_timer_sync() leads to still happens, observably. Reads no
 * byte of the freed memory. Return: how many active timers it found.
 */
unsigned int th_debug_check_no_obj_freed(const void *addr, size_t size);
/* debug_object_free() without the check (destroy_timer_on_stack()). */
void th_debugobj_forget(const void *timer);
void th_debugobj_reset(void);
/* Slots of the tracking table: bounded by the timers tracked now (a
 * forgotten timer's slot is reclaimed), not by every timer ever set up. */
size_t th_debugobj_slots(void);

/* ---- WARN(): misuse reports. Printed to stderr unless quiet; counted.
 * th_warn() is a macro so that a count-only caller (a fuzz target running
 * thousands of refusals a second, th_warn_set_count_only()) does not
 * evaluate its arguments: naming the callback costs a dladdr(). What is
 * refused, and the count, are the same either way; only the text is not
 * made (th_warn_last() then says so). */
void th_warn_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void th_warn_counted_(void);
extern bool th_warn_text_;
#define th_warn(...)                          \
	do {                                  \
		if (th_warn_text_)            \
			th_warn_(__VA_ARGS__); \
		else                          \
			th_warn_counted_();   \
	} while (0)
void th_warn_set_quiet(bool quiet);
/* Count WARNs without making their text (implies quiet). */
void th_warn_set_count_only(bool count_only);
unsigned long th_warn_count(void);
const char *th_warn_last(void);
/* "0x55d0c0 (name)" for a code address, name from the dynamic symbols. */
const char *th_symbolize(const void *addr, char *buf, size_t n);

#endif

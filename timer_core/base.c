/* SPDX-License-Identifier: MIT */
/*
 * What the variants share: the per-CPU bases, the bucket arithmetic
 * (calc_wheel_index), the scan for the next bucket, debugobjects and WARN.
 */
#define _GNU_SOURCE
#include "th/timer_base.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct timer_base *cpu_bases[TH_NR_CPUS];
static unsigned int this_cpu;

int th_base_init(struct timer_base *base, unsigned int cpu, unsigned int hz,
		 unsigned long jiffies)
{
	if (cpu >= TH_NR_CPUS || hz == 0)
		return -1;
	memset(base, 0, sizeof(*base));
	base->cpu = cpu;
	base->hz = hz;
	base->depth = TH_LVL_DEPTH(hz);
	base->clk = jiffies;
	base->jiffies = jiffies;
	base->next_expiry_valid = true;	/* nothing pending: vacuously exact */
	base->next_expiry = jiffies;
	cpu_bases[cpu] = base;
	return 0;
}

void th_base_release(struct timer_base *base)
{
	if (base->cpu < TH_NR_CPUS && cpu_bases[base->cpu] == base)
		cpu_bases[base->cpu] = NULL;
}

unsigned int th_this_cpu(void)
{
	return this_cpu;
}

int th_set_cpu(unsigned int cpu)
{
	if (cpu >= TH_NR_CPUS || !cpu_bases[cpu])
		return -1;
	this_cpu = cpu;
	return 0;
}

struct timer_base *th_cpu_base(unsigned int cpu)
{
	return cpu < TH_NR_CPUS ? cpu_bases[cpu] : NULL;
}

struct timer_base *th_this_base(void)
{
	return cpu_bases[this_cpu];
}

unsigned long th_jiffies(void)
{
	struct timer_base *base = th_this_base();

	return base ? base->jiffies : 0;
}

/*
 * calc_index() of kernel/time/timer.c (64-bit since v5.x): the timer wheel
 * has to guarantee that a timer does not fire early. Early expiry can
 * happen due to a timer armed at the edge of a tick, or truncation of the
 * expiry time in the outer levels, so round up with the level granularity.
 */
static inline unsigned int calc_index(unsigned long expires, unsigned int lvl,
				      unsigned long *bucket_expiry)
{
	expires = (expires >> LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = expires << LVL_SHIFT(lvl);
	return LVL_OFFS(lvl) + (expires & LVL_MASK);
}

/*
 * calc_wheel_index(): the kernel's if-chain over LVL_START(1..depth-1),
 * written as a loop because the depth is a per-wheel parameter here. The
 * clamp of obscene timeouts compares the delta, not the expiry (commit
 * e2a71bdea816, "timer: Fix wheel index calculation on last level").
 */
unsigned int th_calc_wheel_index(unsigned long expires, unsigned long clk,
				 unsigned int depth, unsigned long *bucket_expiry)
{
	unsigned long delta = expires - clk;
	unsigned int lvl;

	for (lvl = 0; lvl < depth - 1; lvl++)
		if (delta < LVL_START(lvl + 1))
			return calc_index(expires, lvl, bucket_expiry);

	if ((long)delta < 0) {
		*bucket_expiry = clk;
		return clk & LVL_MASK;
	}
	/* Force expire obscene large timeouts to expire at the capacity
	 * limit of the wheel. */
	if (delta >= WHEEL_TIMEOUT_CUTOFF(depth))
		expires = clk + WHEEL_TIMEOUT_MAX(depth);
	return calc_index(expires, depth - 1, bucket_expiry);
}

static inline unsigned long ror_long(unsigned long w, unsigned int s)
{
	s &= BITS_PER_LONG - 1;
	return s ? (w >> s) | (w << (BITS_PER_LONG - s)) : w;
}

/*
 * Level n is looked at by collect_expired_timers() only when the low
 * LVL_SHIFT(n) bits of clk are zero, and then at bucket (clk >> shift) &
 * LVL_MASK. So the first collection of a level's buckets at or after clk
 * is at the next multiple of LVL_GRAN(n), plus the distance to the next
 * set bit of that level, in level ticks. The minimum over the levels is
 * exactly the next jiffy at which running the wheel one jiffy at a time
 * would collect something (what __next_timer_interrupt() answers).
 */
bool th_next_collect_clk(const struct timer_base *base, unsigned long *next)
{
	unsigned long clk = base->clk, best = 0;
	bool found = false;

	for (unsigned int lvl = 0; lvl < base->depth; lvl++) {
		unsigned long word = base->pending_map[lvl];
		unsigned int shift = LVL_SHIFT(lvl);
		unsigned long lclk, at;

		if (!word)
			continue;
		lclk = (clk >> shift) + ((clk & (LVL_GRAN(lvl) - 1)) != 0);
		lclk += (unsigned long)__builtin_ctzl(ror_long(word, lclk & LVL_MASK));
		at = lclk << shift;
		if (!found || at - clk < best - clk) {
			best = at;
			found = true;
		}
	}
	if (found)
		*next = best;
	return found;
}

/* ---- debugobjects ---------------------------------------------------- */
/*
 * A set of timer addresses that went through init_timer_key(), as
 * CONFIG_DEBUG_OBJECTS_TIMERS tracks them: arming or deleting an unknown
 * timer is refused. Open addressing; an address is never removed except by
 * th_debugobj_forget() (destroy_timer_on_stack()).
 */
static struct {
	uintptr_t *slots;	/* 0 empty, 1 deleted */
	size_t cap, used;
	bool off;
} dobj;

void th_debugobj_enable(bool on)
{
	dobj.off = !on;
}

bool th_debugobj_enabled(void)
{
	return !dobj.off;
}

static size_t dobj_hash(uintptr_t p, size_t cap)
{
	p ^= p >> 33;
	p *= 0xff51afd7ed558ccdULL;
	p ^= p >> 33;
	return (size_t)p & (cap - 1);
}

static uintptr_t *dobj_find(uintptr_t p, bool insert)
{
	uintptr_t *tomb = NULL;

	if (!dobj.cap)
		return NULL;
	for (size_t i = dobj_hash(p, dobj.cap), n = 0; n < dobj.cap;
	     i = (i + 1) & (dobj.cap - 1), n++) {
		if (dobj.slots[i] == p)
			return &dobj.slots[i];
		if (dobj.slots[i] == 1 && !tomb)
			tomb = &dobj.slots[i];
		if (dobj.slots[i] == 0)
			return insert ? (tomb ? tomb : &dobj.slots[i]) : NULL;
	}
	return insert ? tomb : NULL;
}

static void dobj_grow(void)
{
	size_t old = dobj.cap;
	uintptr_t *slots = dobj.slots;

	dobj.cap = old ? old * 2 : 1024;
	dobj.slots = calloc(dobj.cap, sizeof(*dobj.slots));
	if (!dobj.slots) {
		fprintf(stderr, "timerharness: out of memory (debugobjects)\n");
		abort();
	}
	dobj.used = 0;
	for (size_t i = 0; i < old; i++)
		if (slots[i] > 1) {
			*dobj_find(slots[i], true) = slots[i];
			dobj.used++;
		}
	free(slots);
}

void th_debugobj_init(const void *timer)
{
	uintptr_t p = (uintptr_t)timer, *slot;

	if (dobj.off)
		return;
	if ((dobj.used + 1) * 2 > dobj.cap)
		dobj_grow();
	slot = dobj_find(p, true);
	if (*slot != p) {
		*slot = p;
		dobj.used++;
	}
}

bool th_debugobj_known(const void *timer)
{
	return dobj.off || dobj_find((uintptr_t)timer, false) != NULL;
}

void th_debugobj_forget(const void *timer)
{
	uintptr_t *slot = dobj_find((uintptr_t)timer, false);

	if (slot)
		*slot = 1;
}

void th_debugobj_reset(void)
{
	free(dobj.slots);
	dobj.slots = NULL;
	dobj.cap = dobj.used = 0;
}

/* ---- WARN ------------------------------------------------------------ */
static struct {
	bool quiet;
	unsigned long count;
	char last[512];
} warn_state;

void th_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(warn_state.last, sizeof(warn_state.last), fmt, ap);
	va_end(ap);
	warn_state.count++;
	if (!warn_state.quiet)
		fprintf(stderr, "WARNING: %s\n", warn_state.last);
}

void th_warn_set_quiet(bool quiet)
{
	warn_state.quiet = quiet;
}

unsigned long th_warn_count(void)
{
	return warn_state.count;
}

const char *th_warn_last(void)
{
	return warn_state.last;
}

const char *th_symbolize(const void *addr, char *buf, size_t n)
{
	Dl_info info;

	if (addr && dladdr(addr, &info) && info.dli_sname && info.dli_saddr)
		snprintf(buf, n, "%p (%s+0x%lx)", addr, info.dli_sname,
			 (unsigned long)((const char *)addr - (const char *)info.dli_saddr));
	else
		snprintf(buf, n, "%p", addr);
	return buf;
}

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

struct timer_base *th_cpu_bases_[TH_NR_CPUS];
bool th_debugobj_off_;
unsigned int th_this_cpu_;

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
	th_cpu_bases_[cpu] = base;
	return 0;
}

void th_base_release(struct timer_base *base)
{
	if (base->cpu < TH_NR_CPUS && th_cpu_bases_[base->cpu] == base)
		th_cpu_bases_[base->cpu] = NULL;
}

unsigned int th_this_cpu(void)
{
	return th_this_cpu_;
}

int th_set_cpu(unsigned int cpu)
{
	if (cpu >= TH_NR_CPUS || !th_cpu_bases_[cpu])
		return -1;
	th_this_cpu_ = cpu;
	return 0;
}

unsigned long th_jiffies(void)
{
	struct timer_base *base = th_this_base();

	return base ? base->jiffies : 0;
}

static inline unsigned long ror_long(unsigned long w, unsigned int s)
{
	s &= BITS_PER_LONG - 1;
	return s ? (w >> s) | (w << (BITS_PER_LONG - s)) : w;
}

/*
 * The first collection of a level's buckets at or after clk is at
 * th_level_clk_ceil(), plus the distance to the next set bit of that level,
 * in level ticks. The minimum over the levels is exactly the next jiffy at
 * which running the wheel one jiffy at a time would collect something (what
 * __next_timer_interrupt() answers).
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
		lclk = th_level_clk_ceil(clk, lvl);
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
} dobj;

void th_debugobj_enable(bool on)
{
	th_debugobj_off_ = !on;
}

bool th_debugobj_enabled(void)
{
	return !th_debugobj_off_;
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

	if (th_debugobj_off_)
		return;
	if ((dobj.used + 1) * 2 > dobj.cap)
		dobj_grow();
	slot = dobj_find(p, true);
	if (*slot != p) {
		*slot = p;
		dobj.used++;
	}
}

bool th_debugobj_lookup_(const void *timer)
{
	return dobj_find((uintptr_t)timer, false) != NULL;
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

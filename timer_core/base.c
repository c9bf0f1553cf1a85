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
/* The per-CPU template's timer_base (timer_base.h, th_per_cpu_timer_base()):
 * zero, as a CPU that is not possible never initialises it. */
struct timer_base th_percpu_template_base;
struct timer_base *th_fast_bases_[TIMER_CPUMASK + 1];
bool th_debugobj_off_;
unsigned int th_this_cpu_;

/* th_fast_bases_ mirrors th_cpu_bases_ while debugobjects is off. */
static void fast_bases_sync(void)
{
	for (unsigned int cpu = 0; cpu < TH_NR_CPUS; cpu++)
		th_fast_bases_[cpu] = th_debugobj_off_ ? th_cpu_bases_[cpu] : NULL;
}

/* Is @base attached to a CPU slot (set up by th_base_init(), not released)? */
static bool base_attached(const struct timer_base *base)
{
	for (unsigned int cpu = 0; cpu < TH_NR_CPUS; cpu++)
		if (th_cpu_bases_[cpu] == base)
			return true;
	return false;
}

bool th_base_idle(const struct timer_base *base)
{
	if (base->collected)
		return false;
	for (unsigned int lvl = 0; lvl < LVL_DEPTH_MAX; lvl++)
		if (base->pending_map[lvl])
			return false;
	return true;
}

int th_base_init(struct timer_base *base, unsigned int cpu, unsigned int hz,
		 unsigned long jiffies)
{
	if (cpu >= TH_NR_CPUS || hz == 0)
		return -1;
	/* Only an attached base was set up by us: anything else may be
	 * uninitialised memory, whatever its bytes say. */
	if (base_attached(base) && !th_base_idle(base)) {
		th_warn("th_base_init: the timer base of CPU %u still holds timers%s; refused "
			"(th_base_release() it first)",
			base->cpu, base->collected ? " (its softirq is running)" : "");
		return -1;
	}
	memset(base, 0, sizeof(*base));
	base->cpu = cpu;
	base->hz = hz;
	base->depth = TH_LVL_DEPTH(hz);
	base->clk = jiffies;
	base->jiffies = jiffies;
	base->next_expiry = jiffies + NEXT_TIMER_MAX_DELTA;	/* nothing pending */
	th_cpu_bases_[cpu] = base;
	fast_bases_sync();
	return 0;
}

static void dobj_deactivate_cpu(unsigned int cpu);

void th_base_release(struct timer_base *base)
{
	if (base->cpu < TH_NR_CPUS && th_cpu_bases_[base->cpu] == base) {
		th_cpu_bases_[base->cpu] = NULL;
		fast_bases_sync();
		dobj_deactivate_cpu(base->cpu);
	}
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

void th_recalc_next_expiry(struct timer_base *base)
{
	base->timers_pending = th_next_collect_clk(base, &base->next_expiry);
	if (!base->timers_pending)
		base->next_expiry = base->clk + NEXT_TIMER_MAX_DELTA;
	base->next_expiry_recalc = false;
}

/* ---- debugobjects ---------------------------------------------------- */
/*
 * Tracked timers by address, open addressing; an entry goes only through
 * th_debugobj_forget() (destroy_timer_on_stack()) or th_debugobj_reset().
 * Each entry keeps what the kernel's struct debug_obj keeps: the state, and
 * for messages the callback it was armed with (the kernel's debug_hint).
 */
enum dobj_state { DOBJ_INACTIVE, DOBJ_ACTIVE };

struct dobj_entry {
	uintptr_t addr;		/* 0 empty, 1 deleted */
	const void *fn;
	unsigned char state;
	unsigned char cpu;	/* the base it is queued on, when active */
};

static struct {
	struct dobj_entry *slots;
	size_t cap, used;
} dobj;

void th_debugobj_enable(bool on)
{
	th_debugobj_off_ = !on;
	fast_bases_sync();
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

static struct dobj_entry *dobj_find(uintptr_t p, bool insert)
{
	struct dobj_entry *tomb = NULL;

	if (!dobj.cap)
		return NULL;
	for (size_t i = dobj_hash(p, dobj.cap), n = 0; n < dobj.cap;
	     i = (i + 1) & (dobj.cap - 1), n++) {
		struct dobj_entry *e = &dobj.slots[i];

		if (e->addr == p)
			return e;
		if (e->addr == 1 && !tomb)
			tomb = e;
		if (e->addr == 0)
			return insert ? (tomb ? tomb : e) : NULL;
	}
	return insert ? tomb : NULL;
}

/* Rebuild the table for its live entries: tombstones (forgotten timers)
 * are dropped, so a setup/forget cycle never grows it without bound. */
static void dobj_rehash(void)
{
	size_t old = dobj.cap, live = 0, cap = 1024;
	struct dobj_entry *slots = dobj.slots;

	for (size_t i = 0; i < old; i++)
		live += slots[i].addr > 1;
	while (cap < 4 * (live + 1))
		cap *= 2;
	dobj.cap = cap;
	dobj.slots = calloc(dobj.cap, sizeof(*dobj.slots));
	if (!dobj.slots) {
		fprintf(stderr, "timerharness: out of memory (debugobjects)\n");
		abort();
	}
	dobj.used = 0;
	for (size_t i = 0; i < old; i++)
		if (slots[i].addr > 1) {
			*dobj_find(slots[i].addr, true) = slots[i];
			dobj.used++;
		}
	free(slots);
}

/* "ODEBUG: <what> active (active state 0) object: <p> object type:
 * timer_list hint: <callback>": debug_print_object()'s line. */
static void dobj_warn_active(const char *what, const struct dobj_entry *e, const char *tail)
{
	char hint[160];

	th_warn("ODEBUG: %s active (active state 0) object: %p object type: timer_list hint: %s%s",
		what, (void *)e->addr, th_symbolize(e->fn, hint, sizeof(hint)), tail);
}

bool th_debugobj_init(const void *timer, const char *op, const void *fn)
{
	uintptr_t p = (uintptr_t)timer;
	struct dobj_entry *e;

	if (th_debugobj_off_)
		return true;
	e = dobj_find(p, false);
	if (e && e->state == DOBJ_ACTIVE) {
		char tail[256], name[160];

		if (th_warn_text_)
			snprintf(tail, sizeof(tail), "; %s(callback %s) of a queued timer refused",
				 op, th_symbolize(fn, name, sizeof(name)));
		dobj_warn_active("init", e, th_warn_text_ ? tail : "");
		return false;
	}
	if (!e) {
		if ((dobj.used + 1) * 2 > dobj.cap)
			dobj_rehash();
		e = dobj_find(p, true);
		dobj.used++;
	}
	*e = (struct dobj_entry){ .addr = p, .fn = fn, .state = DOBJ_INACTIVE };
	return true;
}

bool th_debugobj_lookup_(const void *timer)
{
	return dobj_find((uintptr_t)timer, false) != NULL;
}

void th_debugobj_activate(const void *timer, unsigned int cpu, const void *fn)
{
	struct dobj_entry *e = dobj_find((uintptr_t)timer, false);

	if (e) {
		e->state = DOBJ_ACTIVE;
		e->cpu = (unsigned char)cpu;
		e->fn = fn;
	}
}

void th_debugobj_deactivate(const void *timer)
{
	struct dobj_entry *e = dobj_find((uintptr_t)timer, false);

	if (e)
		e->state = DOBJ_INACTIVE;
}

bool th_debugobj_active(const void *timer)
{
	const struct dobj_entry *e = dobj_find((uintptr_t)timer, false);

	return e && e->state == DOBJ_ACTIVE;
}

static void dobj_deactivate_cpu(unsigned int cpu)
{
	for (size_t i = 0; i < dobj.cap; i++)
		if (dobj.slots[i].addr > 1 && dobj.slots[i].state == DOBJ_ACTIVE &&
		    dobj.slots[i].cpu == cpu)
			dobj.slots[i].state = DOBJ_INACTIVE;
}

unsigned int th_debug_check_no_obj_freed(const void *addr, size_t size)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + size;
	unsigned int found = 0;

	if (th_debugobj_off_ || !addr)
		return 0;
	/* The kernel walks the hash buckets covering the range; a scan of
	 * the table finds the same entries. */
	for (size_t i = 0; i < dobj.cap; i++) {
		const struct dobj_entry *e = &dobj.slots[i];

		if (e->addr > 1 && e->addr >= lo && e->addr < hi && e->state == DOBJ_ACTIVE) {
			dobj_warn_active("free", e, "; freed while queued (no del_timer_sync())");
			found++;
		}
	}
	return found;
}

void th_debugobj_forget(const void *timer)
{
	struct dobj_entry *e = dobj_find((uintptr_t)timer, false);

	if (e)
		e->addr = 1;	/* a tombstone: still counted in used */
}

size_t th_debugobj_slots(void)
{
	return dobj.cap;
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

bool th_warn_text_ = true;

void th_warn_counted_(void)
{
	warn_state.count++;
}

void th_warn_set_count_only(bool count_only)
{
	th_warn_text_ = !count_only;
	if (count_only)
		snprintf(warn_state.last, sizeof(warn_state.last),
			 "(count only: th_warn_set_count_only() keeps no text)");
}

void th_warn_(const char *fmt, ...)
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

/* SPDX-License-Identifier: MIT */
/* The wheel model of wheel_model.h. Every rule names the kernel code it follows. */
#include "wheel_model.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* The model is the oracle: no coverage feedback from it (fuzz.h). */
TH_FUZZ_ORACLE_BEGIN

/* Wrap-safe comparisons of include/linux/jiffies.h. */
static bool after(unsigned long a, unsigned long b) { return (long)(b - a) < 0; }
static bool after_eq(unsigned long a, unsigned long b) { return (long)(a - b) >= 0; }

/* The wheel's geometry (kernel/time/timer.c): 64 slots a level, each level
 * 8 times coarser than the one below. */
#define SLOTS		64u
#define GRAN_SHIFT(l)	(3u * (l))

/* The first delta that no longer fits level l - 1 (LVL_START(l)). */
static unsigned long level_start(unsigned int l)
{
	return (unsigned long)(SLOTS - 1) << GRAN_SHIFT(l - 1);
}

/* calc_index(): round up to the level's granularity, so a timer never
 * fires early; its slot is that rounded time modulo 64. */
static unsigned int slot_at(unsigned long expires, unsigned int lvl, unsigned long *due)
{
	unsigned long t = (expires >> GRAN_SHIFT(lvl)) + 1;

	*due = t << GRAN_SHIFT(lvl);
	return lvl * SLOTS + (unsigned int)(t % SLOTS);
}

void wm_init(struct wm_wheel *w, unsigned int hz, unsigned long jiffies)
{
	memset(w, 0, sizeof(*w));
	w->clk = w->jiffies = jiffies;
	w->depth = hz > 100 ? 9 : 8;	/* LVL_DEPTH: #if HZ > 100 */
}

/* calc_wheel_index(): the smallest level whose range holds the delta; a
 * past expiry goes to the slot collected next; a delta past the last
 * level's capacity is clamped to it (commit e2a71bdea816 compares the delta). */
unsigned int wm_bucket(const struct wm_wheel *w, unsigned long expires, unsigned long *due)
{
	unsigned long delta = expires - w->clk;
	unsigned long cutoff = level_start(w->depth);

	for (unsigned int l = 0; l + 1 < w->depth; l++)
		if (delta < level_start(l + 1))
			return slot_at(expires, l, due);
	if ((long)delta < 0) {
		*due = w->clk;
		return (unsigned int)(w->clk % SLOTS);
	}
	if (delta >= cutoff)
		expires = w->clk + cutoff - (1UL << GRAN_SHIFT(w->depth - 1));
	return slot_at(expires, w->depth - 1, due);
}

static void enqueue(struct wm_wheel *w, struct wm_timer *t, unsigned long expires)
{
	t->expires = expires;
	t->idx = wm_bucket(w, expires, &t->due);
	t->pending = true;
	t->collected = false;
	t->seq = ++w->seq;
	w->npending++;
}

static void detach(struct wm_wheel *w, struct wm_timer *t)
{
	t->pending = t->collected = false;
	w->npending--;
}

void wm_setup(struct wm_wheel *w, unsigned int id)
{
	/* init_timer_key() on a queued timer corrupts the wheel in the kernel
	 * too (debugobjects: "init active"): the caller never asks for it. */
	w->t[id].setup = true;
}

#define OPT_PENDING_ONLY	1
#define OPT_REDUCE		2
#define OPT_NOTPENDING		4

/* __mod_timer(): the same-expiry and same-bucket shortcuts, then detach
 * and enqueue relative to the current base clock. */
static int mod(struct wm_wheel *w, unsigned int id, unsigned long expires, unsigned int opt)
{
	struct wm_timer *t = &w->t[id];
	int was;

	if (!t->setup)
		return WM_EUNINIT;
	if ((opt & OPT_NOTPENDING) && t->pending)
		return WM_EPENDING;
	if (!(opt & OPT_NOTPENDING) && t->pending) {
		unsigned long due;

		if (t->expires == expires)
			return 1;
		if ((opt & OPT_REDUCE) && (long)(t->expires - expires) <= 0)
			return 1;
		if (wm_bucket(w, expires, &due) == t->idx) {
			/* Only the expiry changes: the timer keeps its place. */
			t->expires = expires;
			return 1;
		}
	}
	was = t->pending;
	if (was)
		detach(w, t);
	if (!was && (opt & OPT_PENDING_ONLY))
		return 0;
	enqueue(w, t, expires);
	return was;
}

int wm_add(struct wm_wheel *w, unsigned int id, unsigned long e) { return mod(w, id, e, OPT_NOTPENDING); }
int wm_mod(struct wm_wheel *w, unsigned int id, unsigned long e) { return mod(w, id, e, 0); }
int wm_mod_pending(struct wm_wheel *w, unsigned int id, unsigned long e) { return mod(w, id, e, OPT_PENDING_ONLY); }
int wm_reduce(struct wm_wheel *w, unsigned int id, unsigned long e) { return mod(w, id, e, OPT_REDUCE); }

/* del_timer(): a pending timer leaves the wheel (or the run's list). */
int wm_del(struct wm_wheel *w, unsigned int id)
{
	struct wm_timer *t = &w->t[id];

	if (!t->setup)
		return WM_EUNINIT;
	if (!t->pending)
		return 0;
	detach(w, t);
	return 1;
}

bool wm_next_due(const struct wm_wheel *w, unsigned long *due)
{
	bool found = false;

	for (unsigned int i = 0; i < WM_TIMERS; i++) {
		const struct wm_timer *t = &w->t[i];

		if (t->pending && !t->collected && (!found || t->due - w->clk < *due - w->clk)) {
			*due = t->due;
			found = true;
		}
	}
	return found;
}

static void log_fire(struct wm_log *log, unsigned long clk, unsigned int id)
{
	if (log->n == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 64;
		log->fire = realloc(log->fire, log->cap * sizeof(*log->fire));
		if (!log->fire)
			abort();
	}
	log->fire[log->n++] = (struct wm_fire){ clk, id };
}

/* expire_timers() order within one collection: collect_expired_timers()
 * fills one list per level from level 0 up and __run_timers() runs them
 * from the last down; each list runs from its head, where hlist_add_head()
 * put the newest timer. */
static bool runs_before(const struct wm_timer *a, const struct wm_timer *b)
{
	if (a->idx / SLOTS != b->idx / SLOTS)
		return a->idx / SLOTS > b->idx / SLOTS;
	return a->seq > b->seq;
}

/* __run_timers() of a kernel without NOHZ: while jiffies >= clk, collect
 * what is due at clk, advance clk, run it. Empty jiffies change nothing,
 * so jump to the next due one. */
void wm_run(struct wm_wheel *w, unsigned long now, struct wm_log *log)
{
	w->jiffies = now;
	while (after_eq(now, w->clk)) {
		unsigned int batch[WM_TIMERS], nb = 0;
		unsigned long due;

		if (!wm_next_due(w, &due) || after(due, now)) {
			w->clk = now + 1;
			break;
		}
		for (unsigned int i = 0; i < WM_TIMERS; i++) {
			struct wm_timer *t = &w->t[i];

			if (t->pending && !t->collected && t->due == due) {
				unsigned int k = nb++;

				t->collected = true;
				/* Insertion sort into run order. */
				while (k && runs_before(t, &w->t[batch[k - 1]])) {
					batch[k] = batch[k - 1];
					k--;
				}
				batch[k] = i;
			}
		}
		/* "base->clk is set 1 offset ahead of jiffies to avoid endless
		 * requeuing to current jiffies" */
		w->clk = due + 1;
		for (unsigned int k = 0; k < nb; k++) {
			struct wm_timer *t = &w->t[batch[k]];

			if (!t->collected)	/* an earlier callback deleted or moved it */
				continue;
			detach(w, t);
			log_fire(log, due, batch[k]);
			if (t->every && t->rearms) {
				int r;

				t->rearms--;
				r = wm_mod(w, batch[k], w->jiffies + t->interval);
				if (r && !log->rearm_ret)
					log->rearm_ret = r;
			}
		}
	}
}
TH_FUZZ_ORACLE_END

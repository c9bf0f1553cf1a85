/* SPDX-License-Identifier: MIT */
/*
 * A model of the timer wheel's observable behaviour for wheel_diff,
 * written from kernel/time/timer.c's rules and sharing no code with
 * timer_core (not even th_calc_wheel_index()): no buckets, no bitmap, no
 * lists. A pending timer remembers the jiffy its bucket is collected at
 * (`due`), its level and bucket index; running the wheel scans for the
 * nearest due jiffy and fires that batch highest level first, newest first,
 * as collect_expired_timers() and expire_timers() do.
 *
 * Return values follow timer_core's API (th/timer_api.h): the kernel's 0/1,
 * and its refusals of misuse (-2 never set up, -16 add_timer() on a pending
 * timer) where the kernel would BUG or WARN.
 */
#ifndef TH_FUZZ_WHEEL_MODEL_H
#define TH_FUZZ_WHEEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#define WM_TIMERS	16
#define WM_EUNINIT	(-2)
#define WM_EPENDING	(-16)

struct wm_timer {
	bool setup;		/* init_timer_key() ran */
	bool pending;		/* queued, or collected and not yet run */
	bool collected;		/* on the softirq's list of the current run */
	unsigned long expires;
	unsigned long due;	/* the jiffy its bucket is collected at */
	unsigned int idx;	/* level * 64 + slot: what the kernel compares */
	unsigned long seq;	/* enqueue order: newer is larger */
	bool every;		/* the callback re-arms it at jiffies + interval */
	unsigned long interval;
	unsigned int rearms;	/* re-arms left: bounds the work of a run */
};

struct wm_fire {
	unsigned long clk;	/* the jiffy whose collection ran it */
	unsigned int id;
};

/* Where a run's firings go; grown as needed. */
struct wm_log {
	struct wm_fire *fire;
	size_t n, cap;
	int rearm_ret;		/* first non-zero mod_timer() return of a re-arm, else 0 */
};

struct wm_wheel {
	unsigned long clk;	/* next jiffy to collect */
	unsigned long jiffies;
	unsigned int depth;	/* levels: 9 for HZ > 100, else 8 */
	unsigned long seq;
	unsigned long npending;
	struct wm_timer t[WM_TIMERS];
};

void wm_init(struct wm_wheel *w, unsigned int hz, unsigned long jiffies);
/* The bucket index and collection jiffy of @expires armed now. */
unsigned int wm_bucket(const struct wm_wheel *w, unsigned long expires, unsigned long *due);

void wm_setup(struct wm_wheel *w, unsigned int id);
int wm_add(struct wm_wheel *w, unsigned int id, unsigned long expires);
int wm_mod(struct wm_wheel *w, unsigned int id, unsigned long expires);
int wm_mod_pending(struct wm_wheel *w, unsigned int id, unsigned long expires);
int wm_reduce(struct wm_wheel *w, unsigned int id, unsigned long expires);
int wm_del(struct wm_wheel *w, unsigned int id);
/* Jiffies become @now (never backwards: the caller makes sure); firings
 * are appended to @log. */
void wm_run(struct wm_wheel *w, unsigned long now, struct wm_log *log);
/* The next collection jiffy, if anything is pending. */
bool wm_next_due(const struct wm_wheel *w, unsigned long *due);

#endif

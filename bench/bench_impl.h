/* SPDX-License-Identifier: MIT */
/*
 * What the bench driver (bench.c) sees of an implementation it measures:
 * the wheel's three variants (bench_wheel.c, compiled together with the
 * wheel, so that a build per hardening config needs no other change) and
 * the binary heap (bench_heap.c). Every implementation gets the same work
 * (struct bench_work) and keeps its own state; the timers live in one array
 * the driver owns, sized for the largest timer.
 */
#ifndef TH_BENCH_IMPL_H
#define TH_BENCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_HZ	1000
#define BENCH_CPU	0
#define SPREAD_BITS	20
#define SPREAD		(1UL << SPREAD_BITS)	/* expiries in [1, SPREAD) from now */

/* add, mod, del: one call per timer; expire: the wheel run once to the
 * last collection (the heap popped to the same jiffy); step: the same time
 * range run every --step jiffies, as a kernel's tick does. */
enum bench_op { OP_ADD, OP_MOD, OP_DEL, OP_EXPIRE, OP_STEP, NR_OP };

/* The work, the same for every implementation. */
struct bench_work {
	uint32_t n;
	unsigned long start;		/* jiffies when the timers are armed */
	const uint32_t *d_add;		/* each timer's first expiry - start, in [1, SPREAD) */
	const uint32_t *d_mod;		/* the delta it is re-armed to */
	const uint32_t *order;		/* the order timers are visited in */
	unsigned long step;		/* OP_STEP: jiffies per run */
	unsigned long end;		/* the wheel's last collection: expiry runs to it */
};

/* How late callbacks ran (jiffies after their timer's expiry), untimed. */
struct bench_late {
	unsigned long fired, early;
	unsigned long sum, max;
	unsigned long last;		/* the last jiffy a callback ran at */
};

enum bench_mode { MODE_JUMP, MODE_STEP, NR_MODE };

struct bench_impl {
	const char *name;		/* "legacy", "transitional", "modern", "heap" */
	const char *label;		/* in tables */
	/* NULL, or why this build cannot run it (then it is neither validated,
	 * timed nor counted: its figures are absent, NaN). */
	const char *unavailable;
	bool wheel;
	size_t timer_size;
	/* What each op calls, by its symbol: callgrind's counts are its
	 * inclusive cost per call. */
	const char *api[NR_OP];
	/* Room for @n_max timers beyond the shared array. Return: 0 or -1. */
	int (*init)(uint32_t n_max);
	void (*fini)(void);
	/*
	 * Untimed, and everything checked: each call's result, the whole
	 * structure after every phase, every expiry in both modes (never
	 * early; the jump's last callback at w->end). Fills @late per mode.
	 * Return: 0, or -1 after bench_fail().
	 */
	int (*validate)(void *timers, const struct bench_work *w, struct bench_late late[NR_MODE]);
	/* A fresh structure, every timer set up. Return: 0 or -1. */
	int (*reset)(void *timers, const struct bench_work *w);
	/*
	 * One phase over all n timers: what is timed (and counted). OP_EXPIRE
	 * and OP_STEP find every timer armed by OP_ADD on a fresh structure.
	 * Return: the sum of the calls' results (add 0; mod, del n; expire,
	 * step: the callbacks run).
	 */
	long (*phase)(void *timers, const struct bench_work *w, enum bench_op op);
};

extern const struct bench_impl bench_legacy, bench_transitional, bench_modern, bench_heap;

/* "timerharness bench: FAILED: <message>" on stderr. Return: -1. */
int bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The untimed loops the validations share. */
void bench_late_add(struct bench_late *l, unsigned long ran_at, unsigned long expires);

#endif

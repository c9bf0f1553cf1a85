/* SPDX-License-Identifier: MIT */
/*
 * The baseline the wheel is measured against: an indexed binary min-heap of
 * timers, what most event loops use (libevent's min_heap, libuv's timer heap).
 * Each timer records its slot, so deleting or modifying an arbitrary timer is
 * O(log n); each slot caches its key, so sifting compares without chasing the
 * timer pointer. The heap fires exactly at the expiry; the wheel fires late by
 * up to its level's granularity.
 *
 * Expiries are compared wrap-safely (as time_before()), so any set of keys
 * within 2^63 of each other is totally ordered, like the wheel's jiffies.
 */
#ifndef TH_BENCH_HEAP_H
#define TH_BENCH_HEAP_H

#include <stddef.h>
#include <stdint.h>

#define TH_HEAP_NOT_QUEUED	UINT32_MAX

struct th_heap_timer {
	uint64_t expires;
	uint32_t slot;		/* index in the heap, or TH_HEAP_NOT_QUEUED */
	void (*function)(struct th_heap_timer *);
};

struct th_heap_slot {
	uint64_t expires;	/* copy of timer->expires, for cache-local compares */
	struct th_heap_timer *timer;
};

struct th_heap {
	struct th_heap_slot *slot;
	uint32_t n;		/* queued timers */
	uint32_t cap;
};

/* Allocate room for @cap timers. Return: 0, or -1 if out of memory or too big. */
int th_heap_init(struct th_heap *h, uint32_t cap);
void th_heap_free(struct th_heap *h);
/* Forget every queued timer (they are marked not queued). */
void th_heap_clear(struct th_heap *h);

/* Mark @t not queued and set its callback. */
void th_heap_timer_setup(struct th_heap_timer *t, void (*fn)(struct th_heap_timer *));
/* mod_timer(): (re)arm @t at @expires. Return: 0 was not queued, 1 was, -1 full. */
int th_heap_mod(struct th_heap *h, struct th_heap_timer *t, uint64_t expires);
/* del_timer(): Return: 0 was not queued, 1 was. */
int th_heap_del(struct th_heap *h, struct th_heap_timer *t);
/* Pop and call every timer whose expiry is not after @now, earliest first.
 * Return: callbacks run. */
size_t th_heap_run(struct th_heap *h, uint64_t now);
/* Oracle: heap order, cached keys and back-indices. Return: 0, or -1 with
 * what is wrong in @err. */
int th_heap_check(const struct th_heap *h, char *err, size_t n);

#endif

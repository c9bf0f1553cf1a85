/* SPDX-License-Identifier: MIT */
/*
 * A brute-force reference of the wheel's observable behaviour, for the
 * differential tests: no buckets, no bitmap, no lists. Each pending timer
 * remembers the jiffy its bucket is collected at and its level; running
 * scans every timer for the next such jiffy and fires the batch highest
 * level first, newest first, as collect_expired_timers()/expire_timers() do.
 */
#ifndef TH_WHEEL_REF_H
#define TH_WHEEL_REF_H

#include <stdbool.h>
#include <stdio.h>

struct ref_timer {
	bool pending, collected, every;
	unsigned long expires, due, seq, interval;
	unsigned int idx;
};

struct ref_wheel {
	unsigned long clk, jiffies, seq;
	unsigned int depth;
	struct ref_timer *t;
	size_t n;
	FILE *out;
};

void ref_init(struct ref_wheel *w, unsigned int hz, unsigned long start, size_t ntimers, FILE *out);
void ref_free(struct ref_wheel *w);
void ref_add(struct ref_wheel *w, size_t id, unsigned long e);
int ref_mod(struct ref_wheel *w, size_t id, unsigned long e, unsigned int opts);
int ref_del(struct ref_wheel *w, size_t id);
void ref_run(struct ref_wheel *w, unsigned long now);

#define REF_PENDING_ONLY	0x01
#define REF_REDUCE		0x02
#define REF_NOTPENDING		0x04

#endif

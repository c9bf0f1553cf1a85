/* SPDX-License-Identifier: MIT */
/*
 * `timerharness trace`: drive a variant's wheel from a text trace (the
 * format: `timerharness trace --help`, cli/cmd_trace.c) so its behaviour
 * can be compared with the kernel's, line by line. Every variant prints the same lines for the same trace.
 */
#ifndef TH_TRACE_H
#define TH_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "th/timer_base.h"

struct th_trace_timer;

/* What a variant plugs into the interpreter: its setup and timer API. */
struct th_trace_variant {
	const char *name;
	void *(*create)(struct th_trace_timer *node);	/* set up a new timer */
	void (*destroy)(void *timer);
	int (*add)(void *timer, unsigned long expires);	/* .expires = E; add_timer() */
	int (*mod)(void *timer, unsigned long expires);
	int (*modp)(void *timer, unsigned long expires);
	int (*reduce)(void *timer, unsigned long expires);
	int (*del)(void *timer);
	long (*run)(struct timer_base *base, unsigned long now);
	int (*check)(const struct timer_base *base, char *err, size_t n);
};

extern const struct th_trace_variant th_trace_legacy, th_trace_transitional,
	th_trace_modern;

/* The variant called @name ("legacy", "transitional", "modern"), or NULL. */
const struct th_trace_variant *th_trace_variant(const char *name);

/* What a run did, for tests of its cost. */
struct th_trace_stats {
	unsigned long ops, fires;
	unsigned long checks;		/* whole-wheel checks run */
	unsigned long check_steps;	/* their cost: buckets + timers */
};

/* Limits that keep a trace's cost and output bounded by its input. */
#define TH_TRACE_MAX_LINE	4096	/* bytes in a line, newline excluded */
#define TH_TRACE_MAX_FIRES	1000000UL	/* callbacks one `run` may fire */
/* --check: the whole wheel is checked after an op or a callback whenever
 * the checks so far cost at most this many steps (a queued timer or a
 * bucket each) per op and callback: after every one of them for a wheel of
 * up to ~1400 timers, and as often as that allows beyond (linear in all). */
#define TH_TRACE_CHECK_BUDGET	2048UL

struct th_trace_opts {
	const struct th_trace_variant *variant;
	unsigned int hz;	/* default 1000 */
	bool check;		/* run the consistency checker (see above) */
	unsigned long max_fires;	/* 0: TH_TRACE_MAX_FIRES */
	const char *out_name;	/* for messages; default "stdout" */
	struct th_trace_stats *stats;	/* if set, what the run did */
};

/*
 * Run the trace read from @in (named @fname in messages), printing `fire`
 * and `ret` lines to @out. Return: 0; 1 if @out could not be written; 2 on
 * bad input (`FILE:LINE: what` printed to @err, nothing after it run: an
 * unknown op, a bad number, a line longer than TH_TRACE_MAX_LINE, a NUL
 * byte, a `run` firing more than max_fires callbacks); 3 if the checker
 * found the wheel inconsistent (printed to @err).
 */
int th_trace_run(const struct th_trace_opts *opts, FILE *in, const char *fname,
		 FILE *out, FILE *err);

/* For the variant files: a timer of @node fired; prints its line and
 * re-arms it if `every` asked for that. */
void th_trace_fired(struct th_trace_timer *node, void *timer);

#endif

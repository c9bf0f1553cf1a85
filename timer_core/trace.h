/* SPDX-License-Identifier: MIT */
/*
 * `timerharness trace`: drive a variant's wheel from a text trace (DESIGN.md
 * "Wheel trace") so its behaviour can be compared with the kernel's, line
 * by line. Every variant prints the same lines for the same trace.
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

struct th_trace_opts {
	const struct th_trace_variant *variant;
	unsigned int hz;	/* default 1000 */
	bool check;		/* run the consistency checker after every op */
};

/*
 * Run the trace read from @in (named @fname in messages), printing `fire`
 * and `ret` lines to @out. Return: 0; 2 on bad input (`FILE:LINE: what`
 * printed to @err, nothing after it run); 3 if the checker found the
 * wheel inconsistent (printed to @err).
 */
int th_trace_run(const struct th_trace_opts *opts, FILE *in, const char *fname,
		 FILE *out, FILE *err);

/* For the variant files: a timer of @node fired; prints its line and
 * re-arms it if `every` asked for that. */
void th_trace_fired(struct th_trace_timer *node, void *timer);

#endif

/* SPDX-License-Identifier: MIT */
/* The trace driving the `legacy` API: setup_timer(), fn(data). */
#include "th/timer_legacy.h"

#include <stdint.h>
#include <stdlib.h>

#include "trace.h"

struct legacy_node {
	struct timer_list timer;
	struct th_trace_timer *node;
};

static void legacy_trace_cb(unsigned long data)
{
	struct legacy_node *n = (struct legacy_node *)data;

	th_trace_fired(n->node, &n->timer);
}

static void *legacy_create(struct th_trace_timer *node)
{
	struct legacy_node *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->node = node;
	setup_timer(&n->timer, legacy_trace_cb, (unsigned long)n);
	return &n->timer;
}

static void legacy_destroy(void *t)
{
	th_debugobj_forget(t);
	free(container_of(t, struct legacy_node, timer));
}

static int legacy_add(void *t, unsigned long e)
{
	struct timer_list *timer = t;

	/* add_timer() arms at .expires: only an inactive timer's may change. */
	if (timer_pending(timer))
		return add_timer(timer);
	timer->expires = e;
	return add_timer(timer);
}

static int legacy_mod(void *t, unsigned long e) { return mod_timer(t, e); }
static int legacy_modp(void *t, unsigned long e) { return mod_timer_pending(t, e); }
static int legacy_reduce(void *t, unsigned long e) { return timer_reduce(t, e); }
static int legacy_del(void *t) { return del_timer(t); }

const struct th_trace_variant th_trace_legacy = {
	.name = "legacy",
	.create = legacy_create,
	.destroy = legacy_destroy,
	.add = legacy_add,
	.mod = legacy_mod,
	.modp = legacy_modp,
	.reduce = legacy_reduce,
	.del = legacy_del,
	.run = legacy_run_timers,
	.check = legacy_timers_check,
};

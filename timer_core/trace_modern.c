/* SPDX-License-Identifier: MIT */
/* The trace driving the `modern` API: timer_setup(), fn(timer). */
#include "th/timer_modern.h"

#include <stdint.h>
#include <stdlib.h>

#include "trace.h"

struct modern_node {
	struct timer_list timer;
	struct th_trace_timer *node;
};

static void modern_trace_cb(struct timer_list *t)
{
	struct modern_node *n = from_timer(n, t, timer);

	th_trace_fired(n->node, &n->timer);
}

static void *modern_create(struct th_trace_timer *node)
{
	struct modern_node *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->node = node;
	timer_setup(&n->timer, modern_trace_cb, 0);
	return &n->timer;
}

static void modern_destroy(void *t)
{
	th_debugobj_forget(t);
	free(container_of(t, struct modern_node, timer));
}

static int modern_add(void *t, unsigned long e)
{
	struct timer_list *timer = t;

	if (timer_pending(timer))
		return add_timer(timer);
	timer->expires = e;
	return add_timer(timer);
}

static int modern_mod(void *t, unsigned long e) { return mod_timer(t, e); }
static int modern_modp(void *t, unsigned long e) { return mod_timer_pending(t, e); }
static int modern_reduce(void *t, unsigned long e) { return timer_reduce(t, e); }
static int modern_del(void *t) { return del_timer(t); }

const struct th_trace_variant th_trace_modern = {
	.name = "modern",
	.create = modern_create,
	.destroy = modern_destroy,
	.add = modern_add,
	.mod = modern_mod,
	.modp = modern_modp,
	.reduce = modern_reduce,
	.del = modern_del,
	.run = modern_run_timers,
	.check = modern_timers_check,
};

/* SPDX-License-Identifier: MIT */
/* The trace driving the `transitional` API: the rc3 timer_setup() shim. */
#include "th/timer_transitional.h"

#include <stdint.h>
#include <stdlib.h>

#include "trace.h"

struct transitional_node {
	struct timer_list timer;
	struct th_trace_timer *node;
};

static void transitional_trace_cb(struct timer_list *t)
{
	struct transitional_node *n = from_timer(n, t, timer);

	th_trace_fired(n->node, &n->timer);
}

static void *transitional_create(struct th_trace_timer *node)
{
	struct transitional_node *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->node = node;
	timer_setup(&n->timer, transitional_trace_cb, 0);
	return &n->timer;
}

static void transitional_destroy(void *t)
{
	th_debugobj_forget(t);
	free(container_of(t, struct transitional_node, timer));
}

static int transitional_add(void *t, unsigned long e)
{
	struct timer_list *timer = t;

	if (timer_pending(timer))
		return add_timer(timer);
	timer->expires = e;
	return add_timer(timer);
}

static int transitional_mod(void *t, unsigned long e) { return mod_timer(t, e); }
static int transitional_modp(void *t, unsigned long e) { return mod_timer_pending(t, e); }
static int transitional_reduce(void *t, unsigned long e) { return timer_reduce(t, e); }
static int transitional_del(void *t) { return del_timer(t); }

const struct th_trace_variant th_trace_transitional = {
	.name = "transitional",
	.create = transitional_create,
	.destroy = transitional_destroy,
	.add = transitional_add,
	.mod = transitional_mod,
	.modp = transitional_modp,
	.reduce = transitional_reduce,
	.del = transitional_del,
	.run = legacy_run_timers,
	.check = legacy_timers_check,
};

/* SPDX-License-Identifier: MIT */
/*
 * One variant's side of the trace interpreter, written once. Include after
 * the variant's kernel-names header (th/timer_legacy.h, ..._transitional.h,
 * ..._modern.h), with TH_TV naming the variant (TH_TV_NAME its string) and,
 * for the legacy API,
 * TH_TV_DATA_CALLBACK defined: there the callback takes .data, elsewhere the
 * timer itself (timer_setup(), from_timer()). The kernel's names are used
 * as a driver written against that kernel would use them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "trace.h"

#define TV_CAT2(a, b) a##b
#define TV_CAT(a, b) TV_CAT2(a, b)
#define TV(name) TV_CAT(TV_CAT(TH_TV, _), name)

struct TV(node) {
	struct timer_list timer;
	struct th_trace_timer *node;
};

#ifdef TH_TV_DATA_CALLBACK
static void TV(trace_cb)(unsigned long data)
{
	struct TV(node) *n = (struct TV(node) *)data;

	th_trace_fired(n->node, &n->timer);
}
#else
static void TV(trace_cb)(struct timer_list *t)
{
	struct TV(node) *n = from_timer(n, t, timer);

	th_trace_fired(n->node, &n->timer);
}
#endif

static void *TV(create)(struct th_trace_timer *node)
{
	struct TV(node) *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->node = node;
#ifdef TH_TV_DATA_CALLBACK
	setup_timer(&n->timer, TV(trace_cb), (unsigned long)n);
#else
	timer_setup(&n->timer, TV(trace_cb), 0);
#endif
	return &n->timer;
}

static void TV(destroy)(void *t)
{
	th_debugobj_forget(t);
	free(container_of(t, struct TV(node), timer));
}

/* add_timer() arms at .expires: only an inactive timer's may change (a
 * pending one is refused, and stays as it is). */
static int TV(add)(void *t, unsigned long e)
{
	struct timer_list *timer = t;

	if (!timer_pending(timer))
		timer->expires = e;
	return add_timer(timer);
}

static int TV(mod)(void *t, unsigned long e) { return mod_timer(t, e); }
static int TV(modp)(void *t, unsigned long e) { return mod_timer_pending(t, e); }
static int TV(reduce)(void *t, unsigned long e) { return timer_reduce(t, e); }
static int TV(del)(void *t) { return del_timer(t); }

const struct th_trace_variant TV_CAT(th_trace_, TH_TV) = {
	.name = TH_TV_NAME,
	.create = TV(create),
	.destroy = TV(destroy),
	.add = TV(add),
	.mod = TV(mod),
	.modp = TV(modp),
	.reduce = TV(reduce),
	.del = TV(del),
	.run = run_timers,
	.check = timers_check,
};

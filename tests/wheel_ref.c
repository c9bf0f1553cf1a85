/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wheel_ref.h"

#include <stdlib.h>

#include "th/timer_base.h"

void ref_init(struct ref_wheel *w, unsigned int hz, unsigned long start, size_t n, FILE *out)
{
	w->clk = w->jiffies = start;
	w->seq = 0;
	w->depth = TH_LVL_DEPTH(hz);
	w->t = calloc(n, sizeof(*w->t));
	w->n = n;
	w->out = out;
}

void ref_free(struct ref_wheel *w)
{
	free(w->t);
}

static void enqueue(struct ref_wheel *w, struct ref_timer *t, unsigned long e)
{
	t->expires = e;
	t->idx = th_calc_wheel_index(e, w->clk, w->depth, &t->due);
	t->pending = true;
	t->collected = false;
	t->seq = ++w->seq;
}

int ref_mod(struct ref_wheel *w, size_t id, unsigned long e, unsigned int opts)
{
	struct ref_timer *t = &w->t[id];
	int ret;

	if (!(opts & REF_NOTPENDING) && t->pending) {
		long diff = (long)(t->expires - e);
		unsigned long due;

		if (!diff)
			return 1;
		if ((opts & REF_REDUCE) && diff <= 0)
			return 1;
		if (th_calc_wheel_index(e, w->clk, w->depth, &due) == t->idx) {
			if (!(opts & REF_REDUCE) || time_after(t->expires, e))
				t->expires = e;
			return 1;
		}
	}
	ret = t->pending;
	t->pending = t->collected = false;
	if (!ret && (opts & REF_PENDING_ONLY))
		return 0;
	enqueue(w, t, e);
	return ret;
}

void ref_add(struct ref_wheel *w, size_t id, unsigned long e)
{
	if (!w->t[id].pending)
		ref_mod(w, id, e, REF_NOTPENDING);
}

int ref_del(struct ref_wheel *w, size_t id)
{
	int ret = w->t[id].pending;

	w->t[id].pending = w->t[id].collected = false;
	return ret;
}

static int cmp_batch(const void *a, const void *b, void *ctx)
{
	const struct ref_timer *t = ctx;
	const struct ref_timer *x = &t[*(const size_t *)a], *y = &t[*(const size_t *)b];

	if (x->idx / 64 != y->idx / 64)
		return x->idx / 64 > y->idx / 64 ? -1 : 1;
	return x->seq > y->seq ? -1 : 1;
}

void ref_run(struct ref_wheel *w, unsigned long now)
{
	size_t *batch = malloc(w->n * sizeof(*batch) + 1);

	w->jiffies = now;
	while (time_after_eq(now, w->clk)) {
		unsigned long best = 0;
		bool found = false;
		size_t nb = 0;

		for (size_t i = 0; i < w->n; i++) {
			struct ref_timer *t = &w->t[i];

			if (t->pending && !t->collected && (!found || t->due - w->clk < best - w->clk)) {
				best = t->due;
				found = true;
			}
		}
		if (!found || time_after(best, now)) {
			w->clk = now + 1;
			break;
		}
		w->clk = best;
		for (size_t i = 0; i < w->n; i++)
			if (w->t[i].pending && !w->t[i].collected && w->t[i].due == best) {
				w->t[i].collected = true;
				batch[nb++] = i;
			}
		qsort_r(batch, nb, sizeof(*batch), cmp_batch, w->t);
		w->clk++;
		for (size_t k = 0; k < nb; k++) {
			struct ref_timer *t = &w->t[batch[k]];

			if (!t->collected)	/* deleted or moved by an earlier callback */
				continue;
			t->pending = t->collected = false;
			fprintf(w->out, "fire %lu t%zu\n", best, batch[k]);
			if (t->every)
				enqueue(w, t, w->jiffies + t->interval);
		}
	}
	free(batch);
}

// SPDX-License-Identifier: MIT
/*
 * Indexed binary min-heap of timers (see heap.h). Sifts move a hole rather
 * than swapping, so each level costs one slot copy and one back-index store.
 */
#include "heap.h"

#include <stdio.h>
#include <stdlib.h>

/* time_before() on 64-bit keys. */
static inline int key_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static inline void place(struct th_heap *h, uint32_t i, struct th_heap_slot s)
{
	h->slot[i] = s;
	s.timer->slot = i;
}

/* Move @s up from the hole at @i while it expires before its parent. */
static void sift_up(struct th_heap *h, uint32_t i, struct th_heap_slot s)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!key_before(s.expires, h->slot[parent].expires))
			break;
		place(h, i, h->slot[parent]);
		i = parent;
	}
	place(h, i, s);
}

/* Move @s down from the hole at @i while a child expires before it. */
static void sift_down(struct th_heap *h, uint32_t i, struct th_heap_slot s)
{
	uint32_t n = h->n;

	for (;;) {
		uint32_t child = 2 * i + 1;

		if (child >= n)
			break;
		if (child + 1 < n &&
		    key_before(h->slot[child + 1].expires, h->slot[child].expires))
			child++;
		if (!key_before(h->slot[child].expires, s.expires))
			break;
		place(h, i, h->slot[child]);
		i = child;
	}
	place(h, i, s);
}

/* Put @s into the hole at @i, going whichever way the order needs. */
static void refill(struct th_heap *h, uint32_t i, struct th_heap_slot s)
{
	if (i > 0 && key_before(s.expires, h->slot[(i - 1) / 2].expires))
		sift_up(h, i, s);
	else
		sift_down(h, i, s);
}

int th_heap_init(struct th_heap *h, uint32_t cap)
{
	h->n = 0;
	h->cap = 0;
	h->slot = NULL;
	if (cap == 0 || cap == TH_HEAP_NOT_QUEUED)
		return -1;
	h->slot = calloc(cap, sizeof(*h->slot));
	if (!h->slot)
		return -1;
	h->cap = cap;
	return 0;
}

void th_heap_free(struct th_heap *h)
{
	free(h->slot);
	h->slot = NULL;
	h->n = h->cap = 0;
}

void th_heap_clear(struct th_heap *h)
{
	for (uint32_t i = 0; i < h->n; i++)
		h->slot[i].timer->slot = TH_HEAP_NOT_QUEUED;
	h->n = 0;
}

void th_heap_timer_setup(struct th_heap_timer *t, void (*fn)(struct th_heap_timer *))
{
	t->expires = 0;
	t->slot = TH_HEAP_NOT_QUEUED;
	t->function = fn;
}

int th_heap_mod(struct th_heap *h, struct th_heap_timer *t, uint64_t expires)
{
	struct th_heap_slot s = { expires, t };

	t->expires = expires;
	if (t->slot != TH_HEAP_NOT_QUEUED) {
		refill(h, t->slot, s);
		return 1;
	}
	if (h->n == h->cap)
		return -1;
	sift_up(h, h->n++, s);
	return 0;
}

int th_heap_del(struct th_heap *h, struct th_heap_timer *t)
{
	uint32_t i = t->slot;

	if (i == TH_HEAP_NOT_QUEUED)
		return 0;
	t->slot = TH_HEAP_NOT_QUEUED;
	if (i != --h->n)
		refill(h, i, h->slot[h->n]);
	return 1;
}

size_t th_heap_run(struct th_heap *h, uint64_t now)
{
	size_t ran = 0;

	while (h->n > 0 && !key_before(now, h->slot[0].expires)) {
		struct th_heap_timer *t = h->slot[0].timer;

		t->slot = TH_HEAP_NOT_QUEUED;
		if (--h->n > 0)
			sift_down(h, 0, h->slot[h->n]);
		/* Popped first: the callback may re-arm its own timer. */
		t->function(t);
		ran++;
	}
	return ran;
}

int th_heap_check(const struct th_heap *h, char *err, size_t n)
{
	for (uint32_t i = 0; i < h->n; i++) {
		const struct th_heap_slot *s = &h->slot[i];

		if (s->timer->slot != i) {
			snprintf(err, n, "slot %u: timer says it is at %u", i, s->timer->slot);
			return -1;
		}
		if (s->expires != s->timer->expires) {
			snprintf(err, n, "slot %u: cached key %llu, timer expires %llu", i,
				 (unsigned long long)s->expires,
				 (unsigned long long)s->timer->expires);
			return -1;
		}
		if (i > 0 && key_before(s->expires, h->slot[(i - 1) / 2].expires)) {
			snprintf(err, n, "slot %u expires before its parent", i);
			return -1;
		}
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The few kernel idioms the wheel is written in: hlists (include/linux/list.h),
 * container_of, the jiffies comparisons (include/linux/jiffies.h), bit ops.
 */
#ifndef TH_KERNEL_H
#define TH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t u32;

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

/* include/linux/jiffies.h: wrap-safe comparisons. */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#define BITS_PER_LONG	(8 * (int)sizeof(unsigned long))

/* include/linux/poison.h: what detach_timer() leaves in entry.next, with
 * x86-64's CONFIG_ILLEGAL_POINTER_VALUE (POISON_POINTER_DELTA). */
#define POISON_POINTER_DELTA	0xdead000000000000UL
#define LIST_POISON2	((void *)(0x122 + POISON_POINTER_DELTA))

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

static inline int hlist_empty(const struct hlist_head *h)
{
	return !h->first;
}

static inline int hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	*pprev = next;
	if (next)
		next->pprev = pprev;
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

/* Is @n the only entry of @h? */
static inline int hlist_is_singular_node(struct hlist_node *n, struct hlist_head *h)
{
	return !n->next && n->pprev == &h->first;
}

/* Move the whole list from @old to @new; @old becomes empty. */
static inline void hlist_move_list(struct hlist_head *old, struct hlist_head *new)
{
	new->first = old->first;
	if (new->first)
		new->first->pprev = &new->first;
	old->first = NULL;
}

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)

#endif

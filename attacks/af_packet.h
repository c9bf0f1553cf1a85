/* SPDX-License-Identifier: MIT */
/*
 * CVE-2017-7308's own victim: an AF_PACKET socket with a TPACKET_V3 receive
 * ring, as v4.14 and v4.15 declare it. struct tpacket_kbdq_core and struct
 * packet_ring_buffer are the kernel's (net/packet/internal.h), member for
 * member: retire_blk_timer is the last member of tpacket_kbdq_core, at 104,
 * and the variant's struct timer_list (48 bytes on 4.14, 40 on 4.15) makes
 * it 152 or 144 bytes. struct sock and struct packet_sock
 * (net/packet/internal.h) are abridged to the members the ring's code reads
 * and writes, in the kernel's order: what the overflow reaches after the
 * ring (packet_sock's tx_ring follows rx_ring) is the kernel's.
 *
 * The code is net/packet/af_packet.c's (v4.14, and v4.15's timer_setup()
 * form of the callback): packet_set_ring()'s TPACKET_V3 checks, with the
 * bug (no bound of tp_sizeof_priv against the block, added by 2b6867c2ce76),
 * init_prb_bdqc(), prb_open_block(), the retire timer and its callback
 * prb_retire_rx_blk_timer_expired() with prb_retire_current_block(),
 * prb_close_block(), prb_flush_block(), prb_dispatch_next_block() and
 * prb_freeze_queue(), and where tpacket_rcv() copies a frame's bytes. Only
 * attack binaries link it (the fuzz target attacks the generic neighbour of
 * victim.h).
 *
 * Not modelled: the socket's receive path beyond the copy (tpacket_rcv()
 * also writes the frame's struct tpacket3_hdr and struct sockaddr_ll before
 * the copied bytes, at the frame's start, macoff bytes before them, and
 * prb_fill_curr_block() updates the ring), the second block of the
 * exploit's ring (its first frame closes block 0 and lands past block 1, at
 * the same offset), and the rest of struct sock.
 */
#ifndef TH_ATTACKS_AF_PACKET_H
#define TH_ATTACKS_AF_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "victim.h"

/* ---- include/uapi/linux/if_packet.h (v4.14) ---------------------------------- */

/* TP_STATUS_KERNEL (0) and TP_STATUS_USER (1) are in victim.h. */
#define TP_STATUS_LOSING	(1u << 2)
#define TP_STATUS_BLK_TMO	(1u << 5)
#define TPACKET_V3		2

struct tpacket_bd_ts {
	unsigned int ts_sec;
	unsigned int ts_nsec;
};

struct tpacket_hdr_v1 {
	uint32_t block_status;
	uint32_t num_pkts;
	uint32_t offset_to_first_pkt;
	uint32_t blk_len;
	uint64_t seq_num __attribute__((aligned(8)));
	struct tpacket_bd_ts ts_first_pkt, ts_last_pkt;
};

union tpacket_bd_header_u {
	struct tpacket_hdr_v1 bh1;
};

struct tpacket_block_desc {
	uint32_t version;
	uint32_t offset_to_priv;
	union tpacket_bd_header_u hdr;
};

struct tpacket_hdr_variant1 {
	uint32_t tp_rxhash;
	uint32_t tp_vlan_tci;
	uint16_t tp_vlan_tpid;
	uint16_t tp_padding;
};

struct tpacket3_hdr {
	uint32_t tp_next_offset;
	uint32_t tp_sec;
	uint32_t tp_nsec;
	uint32_t tp_snaplen;
	uint32_t tp_len;
	uint32_t tp_status;
	uint16_t tp_mac;
	uint16_t tp_net;
	struct tpacket_hdr_variant1 hv1;
	uint8_t tp_padding[8];
};

struct tpacket_stats {
	unsigned int tp_packets;
	unsigned int tp_drops;
};

struct tpacket_stats_v3 {
	unsigned int tp_packets;
	unsigned int tp_drops;
	unsigned int tp_freeze_q_cnt;
};

union tpacket_stats_u {
	struct tpacket_stats stats1;
	struct tpacket_stats_v3 stats3;
};

/* tpacket_req3, as PACKET_RX_RING takes it. */
struct tpacket_req3 {
	unsigned int tp_block_size;
	unsigned int tp_block_nr;
	unsigned int tp_frame_size;
	unsigned int tp_frame_nr;
	unsigned int tp_retire_blk_tov;
	unsigned int tp_sizeof_priv;
	unsigned int tp_feature_req_word;
};

#define TPACKET_ALIGNMENT	16
#define TPACKET_ALIGN(x)	(((x) + TPACKET_ALIGNMENT - 1) & ~(TPACKET_ALIGNMENT - 1))
/* TPACKET3_HDRLEN: the frame header and the sockaddr_ll after it (20 bytes). */
#define TH_SOCKADDR_LL_SIZE	20u
#define TPACKET3_HDRLEN		(TPACKET_ALIGN(sizeof(struct tpacket3_hdr)) + TH_SOCKADDR_LL_SIZE)

/* ---- net/packet/af_packet.c (v4.14) ----------------------------------------- */

#define V3_ALIGNMENT		8
#define TH_ALIGN(x, a)		(((x) + (a) - 1) & ~((unsigned long)(a) - 1))
#define BLK_HDR_LEN		TH_ALIGN(sizeof(struct tpacket_block_desc), V3_ALIGNMENT)
#define BLK_PLUS_PRIV(sz_of_priv)	(BLK_HDR_LEN + TH_ALIGN((sz_of_priv), V3_ALIGNMENT))

/* ---- net/packet/internal.h (v4.14, v4.15) --------------------------------- */

struct pgv {
	char *buffer;
};

typedef struct {
	int counter;
} atomic_t;

/* kbdq - kernel block descriptor queue */
struct tpacket_kbdq_core {
	struct pgv *pkbdq;
	unsigned int feature_req_word;
	unsigned int hdrlen;
	unsigned char reset_pending_on_curr_blk;
	unsigned char delete_blk_timer;
	unsigned short kactive_blk_num;
	unsigned short blk_sizeof_priv;

	/* last_kactive_blk_num:
	 * trick to see if user-space has caught up
	 * in order to avoid refreshing timer when every single pkt arrives.
	 */
	unsigned short last_kactive_blk_num;

	char *pkblk_start;
	char *pkblk_end;
	int kblk_size;
	unsigned int max_frame_len;
	unsigned int knum_blocks;
	uint64_t knxt_seq_num;
	char *prev;
	char *nxt_offset;
	struct sk_buff *skb;

	atomic_t blk_fill_in_prog;

	/* Default is set to 8ms */
#define DEFAULT_PRB_RETIRE_TOV	(8)

	unsigned short retire_blk_tov;
	unsigned short version;
	unsigned long tov_in_jiffies;

	/* timer to retire an outstanding block */
	struct timer_list retire_blk_timer;
};

struct packet_ring_buffer {
	struct pgv *pg_vec;

	unsigned int head;
	unsigned int frames_per_block;
	unsigned int frame_size;
	unsigned int frame_max;

	unsigned int pg_vec_order;
	unsigned int pg_vec_pages;
	unsigned int pg_vec_len;

	unsigned int *pending_refcnt;	/* __percpu */

	struct tpacket_kbdq_core prb_bdqc;
};

/* ---- include/net/sock.h, abridged ---------------------------------------------- */

typedef struct {
	unsigned int slock;	/* arch_spinlock_t: 0 unlocked */
} spinlock_t;

struct sk_buff_head {
	struct sk_buff *next, *prev;
	uint32_t qlen;
	spinlock_t lock;
};

struct socket_wq;

/* struct sock: struct sock_common first (an AF_PACKET socket has no
 * addresses: its first words are 0), then of the rest only what the ring's
 * code uses, in the kernel's order. */
struct sock {
	struct {
		uint32_t skc_daddr, skc_rcv_saddr;
		uint32_t skc_hash;
		uint16_t skc_dport, skc_num;
		unsigned short skc_family;
		unsigned char skc_state, skc_reuse;
		int skc_bound_dev_if;
	} __sk_common;
	struct sk_buff_head sk_receive_queue;
	struct socket_wq *sk_wq;
	unsigned long sk_flags;
	void (*sk_data_ready)(struct sock *sk);
};

/* struct packet_sock up to tx_ring; the members after it (copy_thresh, ...,
 * prot_hook) are not modelled. */
struct packet_sock {
	/* struct sock has to be the first member of packet_sock */
	struct sock sk;
	struct packet_fanout *fanout;
	union tpacket_stats_u stats;
	struct packet_ring_buffer rx_ring;
	struct packet_ring_buffer tx_ring;
	/* the model's: the socket's own block (alloc_pg_vec()), one page */
	struct pgv pg_vec_own[2];
	int tp_version;
};

#define GET_PBDQC_FROM_RB(x)	((struct tpacket_kbdq_core *)(&(x)->prb_bdqc))
#define GET_PBLOCK_DESC(x, bid)	((struct tpacket_block_desc *)((x)->pkbdq[(bid)].buffer))
#define GET_CURR_PBLOCK_DESC_FROM_CORE(x) \
	((struct tpacket_block_desc *)((x)->pkbdq[(x)->kactive_blk_num].buffer))
#define GET_NEXT_PRB_BLK_NUM(x) \
	(((x)->kactive_blk_num < ((x)->knum_blocks - 1)) ? ((x)->kactive_blk_num + 1) : 0)

/* Where the attacks and the tests look: the timer inside a packet_sock. */
#define TH_PO_TIMER_OFF	offsetof(struct packet_sock, rx_ring.prb_bdqc.retire_blk_timer)

/* ---- the simulated kernel's calls ----------------------------------------------- */

/* The heap as the exploit shapes it (poc.c pagealloc_pad(), kmalloc_pad()):
 * a block the page allocator hands out, then a fresh slab page whose
 * objects the sockets created next take in address order. */
#define TH_AF_SOCKS		32	/* poc.c oob_timer_execute(): 32 sockets */
#define TH_AF_SOCK_SLOT		1024u	/* kmalloc-1024: the model's packet_sock */
#define TH_AF_BLOCK_SIZE	4096u	/* a ring block: one page */

/* packet_create() -> sk_alloc(): a socket, zeroed, with sk_data_ready =
 * sock_def_readable (sock_init_data()). The first TH_AF_SOCKS sockets take
 * the slab page after the attacker's block, in order; NULL when none is
 * left. */
struct packet_sock *th_af_socket(void);
/* The attacker's socket: its own, allocated before the shaping. */
struct packet_sock *th_af_socket_attacker(void);
/*
 * setsockopt(PACKET_VERSION, TPACKET_V3) then setsockopt(PACKET_RX_RING,
 * req): packet_set_ring()'s checks (v4.14, the one on tp_sizeof_priv done on
 * its 32-bit value), alloc_pg_vec() (@in_front_of_slab: the page right before
 * the sockets' slab page, else a page elsewhere), init_prb_bdqc(), which sets
 * up retire_blk_timer, and prb_open_block(), which arms it. Only
 * tp_block_nr 1 is modelled. Return: 0, or -EINVAL (-22).
 */
int th_af_set_rx_ring(struct packet_sock *po, const struct tpacket_req3 *req, int in_front_of_slab);
/*
 * tpacket_rcv() of a frame of @len bytes with a @maclen-byte link header,
 * TPACKET_V3: where it copies the frame (skb_copy_bits(skb, 0, h.raw +
 * macoff, snaplen)): at the ring's current frame (nxt_offset,
 * BLK_PLUS_PRIV(blk_sizeof_priv) past the block's start) plus macoff. The
 * copy is unchecked against the block, as in the kernel once
 * packet_set_ring() let tp_sizeof_priv through. Return: where it copied.
 */
void *th_af_tpacket_rcv(struct packet_sock *po, const void *frame, size_t len, unsigned int maclen);
/* tpacket_rcv()'s macoff for a @maclen-byte link header, tp_reserve 0:
 * netoff = TPACKET_ALIGN(tp_hdrlen + max(maclen, 16)), macoff = netoff -
 * maclen (82 for Ethernet's 14). */
static inline unsigned int th_af_macoff(unsigned int maclen)
{
	unsigned int netoff = TPACKET_ALIGN(TPACKET3_HDRLEN + (maclen < 16 ? 16 : maclen));

	return netoff - maclen;
}

/* The retire timer's callback (v4.14: fn(data), data = the packet_sock;
 * v4.15: fn(timer), from_timer() to the packet_sock). */
#if defined(TH_ATK_LEGACY)
void prb_retire_rx_blk_timer_expired(unsigned long data);
#else
void prb_retire_rx_blk_timer_expired(struct timer_list *t);
#endif
/* net/core/sock.c sock_def_readable(): the default sk_data_ready. */
void sock_def_readable(struct sock *sk);

/* ---- harness instrumentation ---------------------------------------------------- */

/* The socket a cell watches (the one the write reaches): its callback's run
 * on itself is the cell's TH-LEGIT line; every other socket's is counted
 * (bystanders). NULL: every socket's run is a TH-LEGIT line. */
extern const struct packet_sock *th_af_watched;
extern unsigned long th_af_bystander_hits;
/* Is p a socket th_af_socket*() returned? */
int th_af_is_socket(const void *p);

/*
 * data:fake-object against the real callback: a packet_sock of the
 * attacker's, sprayed (a large object: the model's own pool), laid out so
 * that prb_retire_rx_blk_timer_expired() closes its block, and
 * prb_close_block()'s last_pkt->tp_next_offset = 0 through pkc->prev zeroes
 * *@zero_at; its sk_data_ready is sock_def_readable (leaked), its timer
 * the callback's with .data the fake (4.14) or its timer (rc3 shim).
 * Return: the fake's address, or 0.
 */
uintptr_t th_af_spray_fake_socket(uintptr_t zero_at);

/* The bytes of a socket's kbdq from tov_in_jiffies on and the tx_ring after
 * it: what the CVE's write can reach, for TH-LANDED. */
#define TH_AF_SNAP_FROM	offsetof(struct tpacket_kbdq_core, tov_in_jiffies)
struct th_af_snapshot {
	unsigned char bytes[sizeof(struct tpacket_kbdq_core) - TH_AF_SNAP_FROM + 48];
};
void th_af_snapshot(const struct packet_sock *po, struct th_af_snapshot *s);
/* Emit TH-LANDED for the socket's timer: the goal's fields, what changed. */
void th_af_report_landed(const struct packet_sock *po, const struct th_af_snapshot *before,
			 const struct th_goal *goal);

#endif

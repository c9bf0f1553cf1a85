// SPDX-License-Identifier: GPL-2.0
/*
 * The victims: two timers a neighbouring write can reach.
 *
 * packet-ring: CVE-2017-7308's own victim, the real thing. A kernel AF_PACKET
 * socket with a TPACKET_V3 receive ring: packet_set_ring() ->
 * init_prb_bdqc() sets up retire_blk_timer with
 * prb_retire_rx_blk_timer_expired and prb_open_block() arms it
 * (net/packet/af_packet.c). retire_blk_timer is the last member of struct
 * tpacket_kbdq_core (net/packet/internal.h), inside the socket's rx_ring.
 * 6.1 has the overflow fixed (commit 2b6867c2ce76), so the unit performs the
 * out-of-bounds write itself, where the exploit's frame landed: from 6 bytes
 * before the timer (the tail of tov_in_jiffies) over the whole timer.
 *
 * neighbour: a generic struct with a buffer right before a timer_list, as
 * the userspace model's ring lays it out (name[16], the timer, one word
 * after it); not af_packet.
 */
#include <linux/kernel.h>
#include <linux/net.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <linux/slab.h>
#include <linux/sockptr.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include "../../../net/packet/internal.h"
#include "th_unit.h"

/* ---- neighbour ------------------------------------------------------------ */

struct th_neighbour {
	char name[16];
	struct timer_list timer;
	unsigned long owner;		/* the word a longer write reaches */
	int ticks;			/* the legitimate callback's count */
	int released;			/* set by th_neighbour_release() */
};

static struct th_neighbour *th_nb;

static void th_neighbour_tick(struct timer_list *t)
{
	struct th_neighbour *n = from_timer(n, t, timer);

	n->ticks++;
}

/*
 * Another callback of the timer's own type that acts on its container: the
 * same-class target. Its address is taken below (th_spare), as a real
 * callback's is by the timer_setup() that registers it.
 */
void th_neighbour_release(struct timer_list *t)
{
	struct th_neighbour *n = from_timer(n, t, timer);

	WRITE_ONCE(n->released, 1);
}

static struct th_neighbour th_spare;

static void th_neighbour_arm(struct th_victim *v)
{
	mod_timer(v->timer, jiffies + msecs_to_jiffies(50));
}

static void th_neighbour_report(struct th_victim *v)
{
	th_say("STATE neighbour ticks=%d released=%d\n", READ_ONCE(th_nb->ticks),
	       READ_ONCE(th_nb->released));
}

int th_victim_neighbour(struct th_victim *v)
{
	th_nb = kzalloc(sizeof(*th_nb), GFP_KERNEL);
	if (!th_nb)
		return -ENOMEM;
	timer_setup(&th_spare.timer, th_neighbour_release, 0);
	timer_setup(&th_nb->timer, th_neighbour_tick, 0);
	v->name = "neighbour";
	v->what = "struct th_neighbour {char name[16]; struct timer_list timer; unsigned long owner;}: memcpy past name";
	v->timer = &th_nb->timer;
	v->legit = (unsigned long)th_nb->timer.function;
	v->write_from = (u8 *)th_nb->name;
	v->write_len = offsetof(struct th_neighbour, owner) + sizeof(th_nb->owner);
	v->arm = th_neighbour_arm;
	v->report = th_neighbour_report;
	return 0;
}

/* ---- packet-ring ------------------------------------------------------------ */

static struct socket *th_sock;

/* The exploit's write: from retire_blk_timer - 6 over the whole timer. */
#define TH_RING_LEAD	6

int th_victim_packet_ring(struct th_victim *v)
{
	struct tpacket_req3 req = {
		.tp_block_size = PAGE_SIZE,
		.tp_block_nr = 1,
		.tp_frame_size = PAGE_SIZE,
		.tp_frame_nr = 1,
		/* ms: long enough that the pending write lands between two
		 * expiries; prb_retire_rx_blk_timer_expired() re-arms it. */
		.tp_retire_blk_tov = 100,
	};
	int version = TPACKET_V3;
	struct tpacket_kbdq_core *pkc;
	int err;

	err = sock_create_kern(&init_net, PF_PACKET, SOCK_RAW, 0, &th_sock);
	if (err)
		return err;
	err = th_sock->ops->setsockopt(th_sock, SOL_PACKET, PACKET_VERSION,
				       KERNEL_SOCKPTR(&version), sizeof(version));
	if (err)
		return err;
	err = th_sock->ops->setsockopt(th_sock, SOL_PACKET, PACKET_RX_RING,
				       KERNEL_SOCKPTR(&req), sizeof(req));
	if (err)
		return err;
	pkc = &pkt_sk(th_sock->sk)->rx_ring.prb_bdqc;
	if (!timer_pending(&pkc->retire_blk_timer))
		return -ENOENT;
	v->name = "packet-ring";
	v->what = "struct tpacket_kbdq_core (net/packet/internal.h) of a TPACKET_V3 AF_PACKET socket: written from retire_blk_timer - 6";
	v->timer = &pkc->retire_blk_timer;
	v->legit = (unsigned long)pkc->retire_blk_timer.function;
	v->write_from = (u8 *)v->timer - TH_RING_LEAD;
	v->write_len = TH_RING_LEAD + sizeof(struct timer_list);
	v->arm = NULL;		/* armed by packet_set_ring() itself */
	v->report = NULL;
	th_say("VICTIM packet-ring retire_blk_timer at offset %zu of struct tpacket_kbdq_core (%zu bytes), tov %u jiffies\n",
	       offsetof(struct tpacket_kbdq_core, retire_blk_timer),
	       sizeof(struct tpacket_kbdq_core), (unsigned int)pkc->tov_in_jiffies);
	return 0;
}

bool th_victim_zeroes_list(const struct th_victim *v)
{
	return !strcmp(v->name, "packet-ring");
}

/* SPDX-License-Identifier: MIT */
/*
 * The tasklet family's victims (issue 28; the timer's are victim.h and
 * af_packet.h): two kernel objects that embed a struct tasklet_struct right
 * after bytes an overflow can run past, in the tasklet generation of this
 * binary (tasklet_core/, th/tasklet_<variant>.h):
 *
 *  - the generic tasklet neighbour: char name[16], then the tasklet, then
 *    the fields its callback acts on (the timer's packet_ring, with a
 *    tasklet): any object with a fixed-size buffer in front of a tasklet;
 *  - struct hso_serial (drivers/net/usb/hso.c): its tail, from write_data
 *    on, as v6.1 declares it: int curr_rx_urb_idx; u8 rx_urb_filled[2];
 *    struct tasklet_struct unthrottle_tasklet; the tasklet ends the object.
 *
 * How each sets its tasklet up follows its generation: legacy (4.14 .. 5.8)
 * tasklet_init(t, fn, (unsigned long)object); transitional (5.9 .. today)
 * tasklet_setup(t, callback), as v6.1's hso_serial_open() does and as a
 * driver doing everything right does;
 * modern: tasklet_setup(), the only API left.
 *
 * The same protocol lines as the timer's victim (victim.h): TH-LEGIT from
 * the legitimate callbacks, TH-TARGET from tasklet_force_close, the
 * privileged targets of victim.h unchanged.
 */
#ifndef TH_ATTACKS_TASKLET_VICTIM_H
#define TH_ATTACKS_TASKLET_VICTIM_H

#include <stddef.h>
#include <stdint.h>

#include "variant.h"

#if defined(TH_ATK_LEGACY)
#include "th/tasklet_legacy.h"
#elif defined(TH_ATK_TRANSITIONAL)
#include "th/tasklet_transitional.h"
#else
#include "th/tasklet_modern.h"
#endif

/* Does this generation's tasklet_struct have func and data (legacy, and
 * transitional beside callback)? use_callback: transitional only. */
#if defined(TH_ATK_MODERN)
#define TH_TL_HAS_DATA		0
#else
#define TH_TL_HAS_DATA		1
#endif
#if defined(TH_ATK_TRANSITIONAL)
#define TH_TL_HAS_USE_CALLBACK	1
#else
#define TH_TL_HAS_USE_CALLBACK	0
#endif

/* ---- the generic tasklet neighbour ------------------------------------------- */

struct tasklet_neighbour {
	char name[16];
	struct tasklet_struct tasklet;
	unsigned int owner_uid;		/* uid of the object's owner */
	unsigned int closed;
} __randomize_layout;

/* kzalloc a neighbour, set its tasklet up (the generation's way). NULL if full. */
struct tasklet_neighbour *tasklet_neighbour_create(const char *name);
/* BUG: copies len bytes into name[16]; len is the caller's. */
void tasklet_neighbour_set_name(struct tasklet_neighbour *n, const void *buf, size_t len);
/* Is p a neighbour (or an hso_serial) the victim created? */
int tasklet_victim_is_live(const void *p);

/* ---- struct hso_serial (drivers/net/usb/hso.c) -------------------------------- */

/* hso.c: MAX_RX_URBS. */
#define HSO_MAX_RX_URBS	2
/*
 * v6.1's struct hso_serial, x86-64. The members before write_data (the
 * parent device, the URBs and their buffers, the control requests, the
 * endpoints, struct tty_port, serial_lock: some hundreds of bytes) are not
 * used by the modelled paths and stand as one opaque block of 48 bytes, so
 * that the object fits the model's kmalloc-128 slab (slab.h); what follows
 * is as hso.c declares it. write_data and tiocmget are pointers, so curr_rx_urb_idx is 8-aligned
 * on every configuration, rx_urb_filled lies 4 bytes after it, and the
 * tasklet 4 bytes after rx_urb_filled's first byte (asserted below, as the
 * attacker's pahole would show it): rx_urb_filled[4] is the tasklet's
 * first byte.
 */
struct hso_serial {
	unsigned char head_[48];	/* parent .. serial_lock: not modelled */
	int (*write_data)(struct hso_serial *serial);
	void *tiocmget;			/* struct hso_tiocmget * */
	int curr_rx_urb_idx;
	uint8_t rx_urb_filled[HSO_MAX_RX_URBS];
	struct tasklet_struct unthrottle_tasklet;
} __randomize_layout;

/* hso_serial_open()'s part that matters here: the tasklet set up (the
 * generation's way). NULL if the slab is full. */
struct hso_serial *hso_serial_create(void);
/* BUG: serial->rx_urb_filled[idx] = val, idx unchecked (hso.c: the index
 * hso_urb_to_index() returns, -1 for an URB it does not know, is never
 * checked by its callers). The attacker's index, the attacker's byte. */
void hso_set_rx_urb_filled(struct hso_serial *serial, long idx, uint8_t val);
/* hso_unthrottle() (hso.c): tasklet_hi_schedule(&serial->unthrottle_tasklet). */
void hso_unthrottle(struct hso_serial *serial);

/* ---- callbacks ----------------------------------------------------------------- */

/* The legitimate ones (cfi/classify.h TH_LEGIT_CALLBACK_*), and the
 * same-class target: a function of the neighbour's callback type that
 * closes the container it is handed and gives it to root. */
#if defined(TH_ATK_LEGACY)
void neighbour_tasklet_fn(unsigned long data);
void hso_unthrottle_tasklet(unsigned long data);
void tasklet_force_close(unsigned long data);
#else
void neighbour_tasklet_fn(struct tasklet_struct *t);
void hso_unthrottle_tasklet(struct tasklet_struct *t);
void tasklet_force_close(struct tasklet_struct *t);
#endif

/* "neighbour_tasklet_fn", ... for an address this file knows, else NULL. */
const char *tasklet_victim_addr_name(uintptr_t addr);

#endif

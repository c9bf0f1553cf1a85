/* SPDX-License-Identifier: MIT */
/*
 * The tasklet victims (tasklet_victim.h). As in victim.c, the buggy
 * functions are plain victim code, so that every config's instrumentation
 * sees the real write where a kernel would have it.
 */
#include "tasklet_victim.h"

#include <stdio.h>
#include <string.h>

#include "cfi/fortify_field.h"
#include "slab.h"
#include "victim.h"

#define TL_LIVE_MAX	8
static const void *live_[TL_LIVE_MAX];

static void live_add(const void *p)
{
	for (size_t i = 0; i < TL_LIVE_MAX; i++)
		if (!live_[i]) {
			live_[i] = p;
			return;
		}
}

int tasklet_victim_is_live(const void *p)
{
	for (size_t i = 0; p && i < TL_LIVE_MAX; i++)
		if (live_[i] == p)
			return 1;
	return 0;
}

/* The attacker's default-layout mirror (tasklet_attack.c) must be the real
 * layout where no randstruct shuffles it (else every attack would miss for
 * the wrong reason): the offsets the image is written at. */
#ifndef TH_RANDSTRUCT
_Static_assert(offsetof(struct tasklet_struct, next) == 0 &&
		       offsetof(struct tasklet_struct, state) == 8 &&
		       offsetof(struct tasklet_struct, count) == 16,
	       "tasklet_struct: next @0, state @8, count @16 (include/linux/interrupt.h)");
#if TH_TL_HAS_USE_CALLBACK
_Static_assert(offsetof(struct tasklet_struct, use_callback) == 20 &&
		       offsetof(struct tasklet_struct, func) == 24 &&
		       offsetof(struct tasklet_struct, callback) == 24 &&
		       offsetof(struct tasklet_struct, data) == 32 && sizeof(struct tasklet_struct) == 40,
	       "v6.1 tasklet_struct: use_callback @20, func/callback @24, data @32, 40 bytes");
#elif TH_TL_HAS_DATA
_Static_assert(offsetof(struct tasklet_struct, func) == 24 &&
		       offsetof(struct tasklet_struct, data) == 32 && sizeof(struct tasklet_struct) == 40,
	       "v4.14 tasklet_struct: func @24, data @32, 40 bytes");
#else
_Static_assert(offsetof(struct tasklet_struct, callback) == 24 && sizeof(struct tasklet_struct) == 32,
	       "callback-only tasklet_struct: callback @24, 32 bytes");
#endif
_Static_assert(offsetof(struct tasklet_neighbour, tasklet) == 16,
	       "the neighbour's tasklet right after name[16]");
_Static_assert(offsetof(struct hso_serial, rx_urb_filled) ==
		       offsetof(struct hso_serial, curr_rx_urb_idx) + 4 &&
		       offsetof(struct hso_serial, unthrottle_tasklet) ==
		       offsetof(struct hso_serial, rx_urb_filled) + 4 &&
		       offsetof(struct hso_serial, curr_rx_urb_idx) % 8 == 0,
	       "hso_serial (v6.1): rx_urb_filled 4 bytes after curr_rx_urb_idx, the tasklet 4 "
	       "after rx_urb_filled: rx_urb_filled[4] is its first byte");
#endif
_Static_assert(sizeof(struct tasklet_neighbour) <= TH_KMALLOC_SIZE &&
		       sizeof(struct hso_serial) <= TH_KMALLOC_SIZE,
	       "the tasklet victims fit a kmalloc-128 slot");

/* ---- the generic neighbour --------------------------------------------------------- */

struct tasklet_neighbour *tasklet_neighbour_create(const char *name)
{
	struct tasklet_neighbour *n = kzalloc(sizeof(*n));

	if (!n)
		return NULL;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->owner_uid = current_cred.uid;
#if defined(TH_ATK_LEGACY)
	tasklet_init(&n->tasklet, neighbour_tasklet_fn, (unsigned long)n);
#else
	tasklet_setup(&n->tasklet, neighbour_tasklet_fn);
#endif
	live_add(n);
	return n;
}

void tasklet_neighbour_set_name(struct tasklet_neighbour *n, const void *buf, size_t len)
{
	/* Missing: if (len > sizeof(n->name)) return -EINVAL; */
	TH_FIELD_MEMCPY(n->name, buf, len);
}

/* ---- hso_serial ---------------------------------------------------------------------- */

struct hso_serial *hso_serial_create(void)
{
	struct hso_serial *serial = kzalloc(sizeof(*serial));

	if (!serial)
		return NULL;
	/* hso_serial_open() (hso.c, v6.1): rx_state = RX_IDLE, then: */
#if defined(TH_ATK_LEGACY)
	/* v5.8 (the function took unsigned long by then; 4.14's cast it). */
	tasklet_init(&serial->unthrottle_tasklet, hso_unthrottle_tasklet, (unsigned long)serial);
#else
	tasklet_setup(&serial->unthrottle_tasklet, hso_unthrottle_tasklet);
#endif
	live_add(serial);
	return serial;
}

void hso_set_rx_urb_filled(struct hso_serial *serial, long idx, uint8_t val)
{
	/* Missing: if (idx < 0 || idx >= serial->num_rx_urbs) return; */
	serial->rx_urb_filled[idx] = val;
}

void hso_unthrottle(struct hso_serial *serial)
{
	tasklet_hi_schedule(&serial->unthrottle_tasklet);
}

/* ---- callbacks ----------------------------------------------------------------------- */

/* The tasklet the softirq is running has TASKLET_STATE_RUN set
 * (tasklet_trylock()): a callback handed its own object's tasklet while
 * it runs got what its driver gave it. */
static int running(const struct tasklet_struct *t)
{
	return th_test_bit(TASKLET_STATE_RUN, &t->state);
}

static void legit(const char *fn, const void *obj, const struct tasklet_struct *own,
		  const char *argname, unsigned long arg)
{
	int live = tasklet_victim_is_live(obj);

	if (live && running(own)) {
		th_legit_hits++;
		th_emit("TH-LEGIT: intended=1 %s object=%p %s=0x%lx", fn, obj, argname, arg);
	} else {
		th_stray_hits++;
		th_emit("TH-LEGIT: intended=0 %s %s=0x%lx (%s): the callback works on it anyway", fn,
			argname, arg, live ? "an object whose tasklet is not running" : "not a live object");
	}
}

/* The neighbour's work: nothing privileged; it reads its name. */
static void neighbour_work(struct tasklet_neighbour *n, const char *argname, unsigned long arg)
{
	legit("neighbour_tasklet_fn", n, &n->tasklet, argname, arg);
	th_emit("TH-NOTE: neighbour_tasklet_fn: the neighbour's owner uid is %u", n->owner_uid);
}

/* hso_unthrottle_tasklet() (hso.c, v6.1): under serial_lock,
 * put_rxbuf_data_and_resubmit_*_urb(), whose loop starts with
 * while (serial->rx_urb_filled[serial->curr_rx_urb_idx]). No URB is
 * modelled: the first test is the work. */
static void hso_work(struct hso_serial *serial, const char *argname, unsigned long arg)
{
	legit("hso_unthrottle_tasklet", serial, &serial->unthrottle_tasklet, argname, arg);
	if (tasklet_victim_is_live(serial) && serial->curr_rx_urb_idx >= 0 &&
	    serial->curr_rx_urb_idx < HSO_MAX_RX_URBS)
		th_emit("TH-NOTE: hso_unthrottle_tasklet: rx_urb_filled[%d] = %u", serial->curr_rx_urb_idx,
			serial->rx_urb_filled[serial->curr_rx_urb_idx]);
}

static void force_close(struct tasklet_neighbour *n, const char *argname, unsigned long arg)
{
	th_target_hits++;
	th_emit("TH-TARGET: name=tasklet_force_close chosen=%d %s=0x%lx neighbour=%p (%s)", th_chose_value("tasklet_force_close", arg),
		argname, arg, (void *)n, tasklet_victim_is_live(n) ? "a live neighbour" : "not a live neighbour");
	n->closed = 1;
	n->owner_uid = 0;
	th_emit("TH-NOTE: tasklet_force_close: neighbour %p closed, owner uid -> 0", (void *)n);
}

#if defined(TH_ATK_LEGACY)
void neighbour_tasklet_fn(unsigned long data)
{
	neighbour_work((struct tasklet_neighbour *)data, "data", data);
}

void hso_unthrottle_tasklet(unsigned long data)
{
	hso_work((struct hso_serial *)data, "data", data);
}

void tasklet_force_close(unsigned long data)
{
	force_close((struct tasklet_neighbour *)data, "data", data);
}
#else
void neighbour_tasklet_fn(struct tasklet_struct *t)
{
	struct tasklet_neighbour *n = from_tasklet(n, t, tasklet);

	neighbour_work(n, "t", (unsigned long)t);
}

void hso_unthrottle_tasklet(struct tasklet_struct *t)
{
	struct hso_serial *serial = from_tasklet(serial, t, unthrottle_tasklet);

	hso_work(serial, "t", (unsigned long)t);
}

void tasklet_force_close(struct tasklet_struct *t)
{
	struct tasklet_neighbour *n = from_tasklet(n, t, tasklet);

	force_close(n, "t", (unsigned long)t);
}
#endif

const char *tasklet_victim_addr_name(uintptr_t a)
{
	/* Addresses as numbers, to name what a field holds; never called. */
	if (a == (uintptr_t)&neighbour_tasklet_fn)
		return "neighbour_tasklet_fn";
	if (a == (uintptr_t)&hso_unthrottle_tasklet)
		return "hso_unthrottle_tasklet";
	if (a == (uintptr_t)&tasklet_force_close)
		return "tasklet_force_close";
	return victim_addr_name(a);
}

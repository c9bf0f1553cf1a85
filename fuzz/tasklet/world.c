/* SPDX-License-Identifier: MIT */
/*
 * The tasklet family's world (fuzz/overflow_world.h): the generic tasklet
 * neighbour of attacks/tasklet_victim.h (char name[16], then a struct
 * tasklet_struct of this binary's generation), scheduled on this CPU's
 * tasklet_vec and run by the softirq's tasklet_action_common()
 * (tasklet_core/). Its code and globals are in the world (world_victim.c,
 * world_softirq.c); this file holds no world memory, only what names the
 * victim and drives it.
 *
 * The ops of an attacker's program (fuzz/overflow_drive.h), here:
 *   ARM        tasklet_schedule(&neighbour->tasklet), as the victim does
 *   RUN, the last run   the softirq: tasklet_hi_action(), tasklet_action()
 *              (__do_softirq()'s order), then the switch to the attacker
 *   MOD        tasklet_hi_schedule(&neighbour->tasklet): the other list
 *   NAME       tasklet_neighbour_set_name(n, p, min(len, 16)): legitimate
 *   MEMCPY     tasklet_neighbour_set_name(n, p, len): tasklet-memcpy-intra
 *   NEIGHBOUR  msg_store() into the msg_buf in the slot before the
 *              neighbour: heap-neighbour
 *   SPRAY      spray_alloc(): an object of the attacker's bytes (a forged
 *              tasklet a planted next pointer can lead to)
 *   INDEX, STRCPY, FREE: no such bug in this victim: nothing happens
 * struct hso_serial (hso-index) is not a victim of this world: its tasklet
 * is not the oracle's own slot (overflow_oracle.c judges one victim
 * object's callback slot and the forged ones planted pointers lead to).
 */
#include "overflow_world.h"

#include <stddef.h>
#include <stdint.h>

#include "attacks/slab.h"
#include "attacks/tasklet_victim.h"
#include "attacks/victim.h"
#include "overflow_drive.h"

/* This generation's list heads (tasklet_core/softirq_impl.h). */
#if defined(TH_ATK_LEGACY)
#define TL_VEC	legacy_tasklet_vec
#elif defined(TH_ATK_TRANSITIONAL)
#define TL_VEC	transitional_tasklet_vec
#else
#define TL_VEC	modern_tasklet_vec
#endif

#if TH_TL_HAS_DATA
#define TL_FN	func
#else
#define TL_FN	callback
#endif

void th_fz_family_leaks(th_fz_set_leak_fn *set)
{
	set(TH_FZ_LEAK_RETIRE, "neighbour_tasklet_fn", (uintptr_t)&neighbour_tasklet_fn, 0, 1);
	set(TH_FZ_LEAK_FORCE_CLOSE, "tasklet_force_close", (uintptr_t)&tasklet_force_close, 0, 1);
	set(TH_FZ_LEAK_RING, "neighbour", 0, sizeof(struct tasklet_neighbour), 0);
	set(TH_FZ_LEAK_MSG, "msg", 0, TH_KMALLOC_SIZE, 0);
	set(TH_FZ_LEAK_RING2, "neighbour2", 0, sizeof(struct tasklet_neighbour), 0);
	set(TH_FZ_LEAK_WHEEL, "tasklet_vec", (uintptr_t)&TL_VEC, sizeof(TL_VEC), 0);
}

#define OFF(f) offsetof(struct tasklet_neighbour, f)

void th_fz_family_layout(struct th_fz_ring_layout *l)
{
	*l = (struct th_fz_ring_layout){
		.size = sizeof(struct tasklet_neighbour),
		.timer = OFF(tasklet),
		.timer_size = sizeof(struct tasklet_struct),
		.function = OFF(tasklet.TL_FN),
#if TH_TL_HAS_DATA
		.data = OFF(tasklet.data),
		.has_data = 1,
#endif
		.flags = OFF(tasklet.state),
		.owner_uid = OFF(owner_uid),
		.closed = OFF(closed),
		/* No pointer the legitimate callback writes through. */
		.cur_block = SIZE_MAX / 2,
	};
}

int th_fz_family_begin(struct th_fz_objects *o)
{
	o->msg = msg_alloc(64, 1);
	o->ring = tasklet_neighbour_create("eth0-tl");
	o->ring2 = tasklet_neighbour_create("eth1-tl");
	return o->msg && o->ring && o->ring2 ? 0 : -1;
}

/* ---- the drive's ops ------------------------------------------------------------------ */

static struct tasklet_neighbour *nb(const struct th_fz_objects *o)
{
	return o->ring;
}

long th_fz_world_arm(const struct th_fz_objects *o)
{
	tasklet_schedule(&nb(o)->tasklet);
	return 1;
}

long th_fz_world_run(unsigned long j)
{
	long hi, ran;

	(void)j;	/* a tasklet runs at the next softirq, whenever it is due */
	th_fz_world_attacker_sleeps();
	hi = tasklet_hi_action();
	ran = tasklet_action();
	th_schedule_after_softirq();
	return hi < 0 || ran < 0 ? -1 : hi + ran;
}

long th_fz_world_mod(const struct th_fz_objects *o, unsigned long j)
{
	(void)j;
	tasklet_hi_schedule(&nb(o)->tasklet);
	return 1;
}

uintptr_t th_fz_world_set_name(const struct th_fz_objects *o, const void *p, size_t n)
{
	tasklet_neighbour_set_name(nb(o), p, n);
	return (uintptr_t)nb(o)->name;
}

uintptr_t th_fz_world_set_bytes(const struct th_fz_objects *o, size_t at, const uint8_t *p, size_t n)
{
	(void)o;
	(void)at;
	(void)p;
	(void)n;
	return 0;
}

uintptr_t th_fz_world_set_name_str(const struct th_fz_objects *o, const char *s)
{
	(void)o;
	(void)s;
	return 0;
}

void th_fz_world_release(const struct th_fz_objects *o)
{
	(void)o;
}

const char *th_fz_world_technique(int op_kind)
{
	switch (op_kind) {
	case TH_FZ_OP_MEMCPY:
		return "tasklet-memcpy-intra";
	case TH_FZ_OP_NEIGHBOUR:
		return "heap-neighbour";
	case TH_FZ_OP_SPRAY:
		return "spray";
	default:
		return NULL;
	}
}

/* ---- names ------------------------------------------------------------------------------ */

static const char *neighbour_field(size_t off)
{
	const size_t t = OFF(tasklet);

	if (off < t)
		return "name";
	if (off < t + 8)
		return "tasklet.next";
	if (off < t + 16)
		return "tasklet.state";
	if (off < t + 20)
		return "tasklet.count";
#if TH_TL_HAS_USE_CALLBACK
	if (off == OFF(tasklet.use_callback))
		return "tasklet.use_callback";
	if (off >= OFF(tasklet.func) && off < OFF(tasklet.func) + 8)
		return "tasklet.func/callback";
#else
	if (off >= OFF(tasklet.TL_FN) && off < OFF(tasklet.TL_FN) + 8)
		return TH_TL_HAS_DATA ? "tasklet.func" : "tasklet.callback";
#endif
#if TH_TL_HAS_DATA
	if (off >= OFF(tasklet.data) && off < OFF(tasklet.data) + 8)
		return "tasklet.data";
#endif
	if (off >= OFF(owner_uid) && off < OFF(owner_uid) + 4)
		return "owner_uid";
	if (off >= OFF(closed) && off < OFF(closed) + 4)
		return "closed";
	if (off >= sizeof(struct tasklet_neighbour))
		return "past the neighbour";
	return "padding";
}

/* The call the dispatch was about to make, for -fsanitize=function's
 * report: the neighbour's tasklet when it is the one running
 * (TASKLET_STATE_RUN, set by tasklet_trylock() for the call), its func or
 * callback slot; else unknown (a forged tasklet). */
__attribute__((no_sanitize("address"))) static int running_fn(uintptr_t *fn)
{
	uintptr_t n = th_fz_world_leaks()[TH_FZ_LEAK_RING].addr;
	unsigned long state;

	if (!n || !th_fz_world_contains(n, sizeof(struct tasklet_neighbour)))
		return 0;
	th_peek(&state, (const void *)(n + OFF(tasklet.state)), sizeof(state));
	if (!(state >> TASKLET_STATE_RUN & 1))
		return 0;
	th_peek(fn, (const void *)(n + OFF(tasklet.TL_FN)), sizeof(*fn));
	return 1;
}

const struct th_fz_family *th_fz_world_family(void)
{
	static const struct th_fz_family tasklet = {
		.api = "tasklet",
		.dispatch = "tasklet_action_common",
		.own_how = "NEIGHBOUR_TASKLET",
		.forged_how = "FORGED_TASKLET",
		.own_text = "the neighbour's own tasklet",
		.forged_text = "a forged tasklet_struct",
		.object = "neighbour",
		.force_close = "tasklet_force_close",
		.arm_text = "victim schedules its tasklet",
		.run_text = "run the tasklet softirq",
		.list_text = "the softirq's list code (tasklet_action_common, tasklet_schedule) writing "
			     "through planted next pointers",
		.field = neighbour_field,
		.running_fn = running_fn,
	};

	return &tasklet;
}

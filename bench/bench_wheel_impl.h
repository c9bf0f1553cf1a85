/* SPDX-License-Identifier: MIT */
/*
 * The wheel's side of the benchmark, written once and instantiated per timer
 * layout by bench.c (as timer_core/wheel_impl.h is). Before including, define:
 *   BW_TIMER   the timer struct type
 *   BW_P(name) the variant's wheel symbol for @name (legacy_name, modern_name)
 *   BW_B(name) this instantiation's own symbol for @name
 * and provide struct workload, struct lateness, enum op, now_ns(),
 * wheel_reset(), bench_fired, bench_sink, bench_base, bench_fail().
 * Legacy and transitional share one instantiation: they differ only in setup,
 * which is passed in.
 */

typedef void (*BW_B(setup_fn))(BW_TIMER *timers, uint32_t n, bool check);

/* Arm every timer at start + d[i]; each must have been in state @was. */
static int BW_B(arm_all)(BW_TIMER *t, uint32_t n, unsigned long start,
			 const uint32_t *d, int was, const char *what)
{
	for (uint32_t i = 0; i < n; i++) {
		int ret = BW_P(mod_timer)(&t[i], start + d[i]);

		if (ret != was)
			return bench_fail("%s: mod_timer() of timer %u returned %d, expected %d",
					  what, i, ret, was);
	}
	return 0;
}

static int BW_B(check_wheel)(const char *what)
{
	char err[512];

	if (BW_P(timers_check)(&bench_base, err, sizeof(err)))
		return bench_fail("%s: wheel inconsistent: %s", what, err);
	return 0;
}

/*
 * The untimed pass before the timed ones: the same operations, each result
 * checked, the whole wheel checked after every phase, and every expiry
 * checked against its timer (never early; how late). Sets w->wheel_end, the
 * jiffy of the last collection, which the timed expire phase runs to.
 */
static int BW_B(validate)(BW_TIMER *t, struct workload *w, BW_B(setup_fn) setup,
			  struct lateness *late, const char *name)
{
	const uint32_t n = w->n;
	long ran;

	if (wheel_reset(w))
		return -1;
	setup(t, n, true);
	if (BW_B(arm_all)(t, n, w->start, w->d_add, 0, name) || BW_B(check_wheel)(name))
		return -1;
	if (BW_B(arm_all)(t, n, w->start, w->d_mod, 1, name) || BW_B(check_wheel)(name))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		int ret = BW_P(del_timer)(&t[i]);

		if (ret != 1)
			return bench_fail("%s: del_timer() of pending timer %u returned %d", name, i, ret);
	}
	if (!th_base_idle(&bench_base))
		return bench_fail("%s: timers still queued after deleting all", name);
	if (BW_B(check_wheel)(name) || BW_B(arm_all)(t, n, w->start, w->d_add, 0, name))
		return -1;

	memset(late, 0, sizeof(*late));
	bench_late = late;
	/* Far enough: every bucket expiry is below start + 2 * spread. */
	ran = BW_P(run_timers)(&bench_base, w->start + 2 * SPREAD);
	bench_late = NULL;
	if (ran != (long)n || late->fired != n)
		return bench_fail("%s: running the wheel fired %ld timers (%lu callbacks), expected %u",
				  name, ran, late->fired, n);
	if (late->early)
		return bench_fail("%s: %lu timers fired before their expiry", name, late->early);
	if (!th_base_idle(&bench_base))
		return bench_fail("%s: timers still queued after the run", name);
	w->wheel_end = late->last_clk;
	return 0;
}

/*
 * One timed sample: w->rounds rounds, each on a fresh wheel; el[r * NR_OP +
 * op] gets the nanoseconds round r spent in phase op.
 */
static int BW_B(sample)(BW_TIMER *t, const struct workload *w, BW_B(setup_fn) setup,
			uint64_t *el, const char *name)
{
	const uint32_t n = w->n;
	const unsigned long now = w->start;
	long sum_add = 0, sum_mod = 0, sum_del = 0;

	for (uint32_t r = 0; r < w->rounds; r++) {
		uint64_t *e = el + (size_t)r * NR_OP;
		unsigned long fired;
		uint64_t t0;
		long ran;

		if (wheel_reset(w))
			return -1;
		setup(t, n, false);

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_add += BW_P(mod_timer)(&t[i], now + w->d_add[i]);
		e[OP_ADD] = now_ns() - t0;

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_mod += BW_P(mod_timer)(&t[i], now + w->d_mod[i]);
		e[OP_MOD] = now_ns() - t0;

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_del += BW_P(del_timer)(&t[i]);
		e[OP_DEL] = now_ns() - t0;

		if (BW_B(arm_all)(t, n, now, w->d_add, 0, name))
			return -1;
		fired = bench_fired;
		t0 = now_ns();
		ran = BW_P(run_timers)(&bench_base, w->wheel_end);
		e[OP_EXPIRE] = now_ns() - t0;
		if (ran != (long)n || bench_fired - fired != n)
			return bench_fail("%s: expire fired %ld timers (%lu callbacks), expected %u",
					  name, ran, bench_fired - fired, n);
	}
	/* Every add returns 0, every mod and del 1; a refusal is negative. */
	if (sum_add != 0 || sum_mod != (long)n * w->rounds || sum_del != (long)n * w->rounds)
		return bench_fail("%s: unexpected returns: add sum %ld (want 0), mod %ld, del %ld (want %ld)",
				  name, sum_add, sum_mod, sum_del, (long)n * w->rounds);
	TH_OPAQUE(bench_sink) += (unsigned long)(sum_add + sum_mod + sum_del);
	return 0;
}

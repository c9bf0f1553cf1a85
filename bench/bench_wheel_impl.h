/* SPDX-License-Identifier: MIT */
/*
 * The wheel's side of the benchmark, written once and instantiated per timer
 * layout by bench_wheel.c (as timer_core/wheel_impl.h is). Before including,
 * define:
 *   BW_TIMER   the timer struct type
 *   BW_P(name) the variant's wheel symbol for @name (legacy_name, modern_name)
 *   BW_B(name) this instantiation's own symbol for @name
 * Legacy and transitional share one instantiation: they differ only in
 * setup, which is passed in.
 */

typedef void (*BW_B(setup_fn))(BW_TIMER *timers, uint32_t n, bool check);

/* Arm every timer at start + d[i], in visiting order; each must have been
 * in state @was. */
static int BW_B(arm_all)(BW_TIMER *t, const struct bench_work *w, const uint32_t *d,
			 int was, const char *what)
{
	for (uint32_t k = 0; k < w->n; k++) {
		uint32_t i = w->order[k];
		int ret = BW_P(mod_timer)(&t[i], w->start + d[i]);

		if (ret != was)
			return bench_fail("%s: mod_timer() of timer %u returned %d, expected %d",
					  what, i, ret, was);
	}
	return 0;
}

static int BW_B(check_wheel)(const char *what, const char *when)
{
	char err[512];

	if (BW_P(timers_check)(&bench_base, err, sizeof(err)))
		return bench_fail("%s: wheel inconsistent %s: %s", what, when, err);
	return 0;
}

/* OP_STEP: run the wheel every w->step jiffies up to w->end, as ticks do. */
static long BW_B(run_stepping)(const struct bench_work *w)
{
	unsigned long now = w->start;
	long sum = 0;

	do {
		now = w->end - now <= w->step ? w->end : now + w->step;
		sum += BW_P(run_timers)(&bench_base, now);
	} while (now != w->end);
	return sum;
}

/* One expiry run of @mode with checking callbacks; everything must fire,
 * never early, the last at w->end, and leave the wheel idle. */
static int BW_B(validate_expiry)(BW_TIMER *t, const struct bench_work *w, BW_B(setup_fn) setup,
				 enum bench_mode mode, struct bench_late *late, const char *name)
{
	const char *how = mode == MODE_JUMP ? "running the wheel once" : "stepping the wheel";
	long ran;

	if (wheel_reset(w))
		return -1;
	setup(t, w->n, true);
	if (BW_B(arm_all)(t, w, w->d_add, 0, name))
		return -1;
	memset(late, 0, sizeof(*late));
	cur_late = late;
	ran = mode == MODE_JUMP ? BW_P(run_timers)(&bench_base, w->end) : BW_B(run_stepping)(w);
	cur_late = NULL;
	if (ran != (long)w->n || late->fired != w->n)
		return bench_fail("%s: %s fired %ld timers (%lu callbacks), expected %u",
				  name, how, ran, late->fired, w->n);
	if (late->early)
		return bench_fail("%s: %s: %lu timers fired before their expiry", name, how, late->early);
	if (late->last != w->end)
		return bench_fail("%s: %s: the last bucket was collected at %lu, calc_wheel_index() says %lu",
				  name, how, late->last, w->end);
	if (!th_base_idle(&bench_base))
		return bench_fail("%s: %s: timers still queued after it", name, how);
	return BW_B(check_wheel)(name, "after expiry");
}

/*
 * The untimed pass before the timed ones: the same operations, each result
 * checked, the whole wheel checked after every phase, every expiry checked
 * against its timer in both modes.
 */
static int BW_B(validate)(BW_TIMER *t, const struct bench_work *w, BW_B(setup_fn) setup,
			  struct bench_late late[NR_MODE], const char *name)
{
	if (wheel_reset(w))
		return -1;
	setup(t, w->n, true);
	if (BW_B(arm_all)(t, w, w->d_add, 0, name) || BW_B(check_wheel)(name, "after add") ||
	    BW_B(arm_all)(t, w, w->d_mod, 1, name) || BW_B(check_wheel)(name, "after mod"))
		return -1;
	for (uint32_t k = 0; k < w->n; k++) {
		int ret = BW_P(del_timer)(&t[w->order[k]]);

		if (ret != 1)
			return bench_fail("%s: del_timer() of pending timer %u returned %d",
					  name, w->order[k], ret);
	}
	if (!th_base_idle(&bench_base))
		return bench_fail("%s: timers still queued after deleting all", name);
	if (BW_B(check_wheel)(name, "after del"))
		return -1;
	for (int mode = 0; mode < NR_MODE; mode++)
		if (BW_B(validate_expiry)(t, w, setup, (enum bench_mode)mode, &late[mode], name))
			return -1;
	return 0;
}

/* Timed (and counted): one phase. Out of line, one per layout, so that
 * callgrind sees each API call as a call from here. */
static th_noinline long BW_B(phase)(BW_TIMER *t, const struct bench_work *w, enum bench_op op)
{
	const uint32_t *order = w->order;
	const unsigned long start = w->start;
	long sum = 0;

	switch (op) {
	case OP_ADD:
	case OP_MOD: {
		const uint32_t *d = op == OP_ADD ? w->d_add : w->d_mod;

		for (uint32_t k = 0; k < w->n; k++) {
			uint32_t i = order[k];

			sum += BW_P(mod_timer)(&t[i], start + d[i]);
		}
		break;
	}
	case OP_DEL:
		for (uint32_t k = 0; k < w->n; k++)
			sum += BW_P(del_timer)(&t[order[k]]);
		break;
	case OP_EXPIRE:
		sum = BW_P(run_timers)(&bench_base, w->end);
		break;
	case OP_STEP:
		sum = BW_B(run_stepping)(w);
		break;
	case NR_OP:
		break;
	}
	return sum;
}

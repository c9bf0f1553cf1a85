// SPDX-License-Identifier: GPL-2.0
/*
 * The .function family: the write points the timer's callback elsewhere.
 * The attacker knows every code address (a KASLR leak): targets are resolved
 * with kallsyms_lookup_name(), never by taking their address here, which
 * would change what the compiler emits for them (a kCFI preamble for a
 * static function).
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "th_unit.h"

/*
 * A function of the call site's own type whose address is never taken: as
 * built in, clang gives a static function that is never address-taken no
 * kCFI preamble (its callers are all direct). __used keeps it in the image.
 */
static noinline __used void th_never_referenced(struct timer_list *t)
{
	WRITE_ONCE(t->flags, t->flags);
	barrier();
}

/*
 * func:mid-function: inside native_write_cr4(), at its `mov %reg,%cr4`
 * (0f 22 /r with reg = 4; a REX prefix before it for r8-r15), past the
 * function's entry and any check that precedes the write.
 */
static unsigned long th_mov_to_cr4(unsigned long fn)
{
	const u8 *p = (const u8 *)fn;
	int i;

	for (i = 0; i < 64; i++) {
		if (p[i] == 0x0f && p[i + 1] == 0x22 && (p[i + 2] & 0x38) == 0x20)
			return fn + i - (i > 0 && (p[i - 1] & 0xf0) == 0x40);
	}
	return 0;
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
	} else if (!strcmp(payload, "func:not-address-taken")) {
		name = "th_never_referenced";
		target = kallsyms_lookup_name(name);
	} else if (!strcmp(payload, "func:mid-function")) {
		unsigned long fn = kallsyms_lookup_name("native_write_cr4");

		name = "native_write_cr4's mov to CR4";
		target = fn ? th_mov_to_cr4(fn) : 0;
	} else {
		return -EINVAL;
	}
	if (!target) {
		th_say("TARGET missing %s: not in this kernel's kallsyms\n", name);
		return -ENOENT;
	}
	img->t->function = (void (*)(struct timer_list *))target;
	snprintf(img->intent_buf, sizeof(img->intent_buf), ".function = %pS%s", (void *)target,
		 img->writes_after ? ", the word after the timer = th-sleeper's task_struct" : "");
	img->intent = img->intent_buf;
	return 0;
}

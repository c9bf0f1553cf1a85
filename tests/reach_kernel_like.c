/* SPDX-License-Identifier: MIT */
/*
 * A small binary laid out as a Linux vmlinux is (tests/reach_kernel_like.ld:
 * ET_EXEC at 0xffffffff81000000, no PT_LOAD maps the ELF header, the traps
 * in __kcfi_traps), built with -fsanitize=kcfi -mcmodel=kernel and no C
 * library, for the reach tests of what a vmlinux needs (tests/reach.cmake):
 *  - call_timer_fn() calls the timer's callback through a kcfi check, as
 *    kernel/time/timer.c does;
 *  - the callbacks of its type are container-confusing members, each
 *    reading its own container around the timer: process_timeout() wakes
 *    the task 40 bytes behind it (struct process_timer), delayed_fn() calls
 *    a function pointer 16 bytes in front of it with the word after that;
 *  - native_write_cr4() and commit_creds() are the privileged functions
 *    (commit_creds() has delayed_fn()'s pointer's type: one hop further),
 *    marked by default as linux_banner says this is a kernel;
 *  - doubled(): a value doubled 40 times before the check reads it, a DAG
 *    an expression walk without memory takes 2^40 steps over;
 *  - built again with -mretpoline-external-thunk (TH_RETPOLINE), every
 *    indirect call goes through __x86_indirect_thunk_<reg>, as in a kernel
 *    with CONFIG_RETPOLINE; with TH_RETPOLINE_LABELS too, the thunks are
 *    labels (NOTYPE) inside __x86_indirect_thunk_array, as 6.12's are;
 *  - tasklet_action_common() calls t->callback(t) or t->func(t->data) as
 *    6.1's kernel/softirq.c does (struct tasklet_struct's use_callback):
 *    two calls, two kcfi checks; native_write_cr4() has func's type.
 */
#include <stddef.h>

struct timer_list {
	void *next, **pprev;
	unsigned long expires;
	void (*function)(struct timer_list *);
	unsigned flags;
};

struct task;
struct process_timer {
	struct timer_list timer;
	struct task *task;
};

struct delayed {
	void (*fn)(void *);
	void *arg;
	struct timer_list timer;
};

/* include/linux/interrupt.h, v6.1 */
struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	int count;
	_Bool use_callback;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet_struct *t);
	};
	unsigned long data;
};

#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))

volatile unsigned long sink;
/* What `timerharness reach` recognises a kernel by (its default privileged
 * names are then the kernel's). */
const char linux_banner[] = "Linux version 0.0.0-th (reach_kernel_like.c)";

__attribute__((noinline)) int wake_up_process(struct task *p)
{
	sink = (unsigned long)p;
	return 1;
}

__attribute__((noinline)) void native_write_cr4(unsigned long val)
{
	sink = val;
}

__attribute__((noinline)) void commit_creds(void *cred)
{
	sink = (unsigned long)cred;
}

void process_timeout(struct timer_list *t)
{
	wake_up_process(container_of(t, struct process_timer, timer)->task);
}

void delayed_fn(struct timer_list *t)
{
	struct delayed *d = container_of(t, struct delayed, timer);

	d->fn(d->arg);
}

void plain_timer_fn(struct timer_list *t)
{
	sink = t->expires;
}

__attribute__((noinline)) void call_timer_fn(struct timer_list *timer,
					     void (*fn)(struct timer_list *))
{
	fn(timer);
}

void kl_tasklet_fn(struct tasklet_struct *t)
{
	sink = t->state;
}

/* kernel/softirq.c, v6.1: one of the two calls, by use_callback. */
__attribute__((noinline)) void tasklet_action_common(struct tasklet_struct *t)
{
	for (; t; t = t->next) {
		if (t->use_callback)
			t->callback(t);
		else
			t->func(t->data);
	}
}

/* rcx = rdi doubled 40 times; the trap guards the call on it. */
__attribute__((naked)) void doubled(void)
{
	__asm__("mov %rdi, %rax\n\t"
		"mov %rdi, %rcx\n\t"
		".rept 40\n\t"
		"add %rcx, %rcx\n\t"
		".endr\n\t"
		"cmp $5, %rcx\n\t"
		"jne 1f\n\t"
		"call *%rax\n\t"
		"ret\n"
		"1:\tud2\n\t");
}

#if defined(TH_RETPOLINE) && defined(TH_RETPOLINE_LABELS)
/* 6.12's arch/x86/lib/retpoline.S: the thunks are SYM_INNER_LABELs (no
 * type, no size) 32 bytes apart inside one function,
 * __x86_indirect_thunk_array, the first at its own address. */
__asm__(".globl __x86_indirect_thunk_array\n"
	".type __x86_indirect_thunk_array, @function\n"
	".balign 32\n"
	"__x86_indirect_thunk_array:\n"
	".irp reg, rax, rcx, rdx, rbx, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15\n"
	".balign 32\n"
	".globl __x86_indirect_thunk_\\reg\n"
	"__x86_indirect_thunk_\\reg:\n\t"
	"jmp *%\\reg\n"
	".endr\n"
	".size __x86_indirect_thunk_array, . - __x86_indirect_thunk_array\n");
#elif defined(TH_RETPOLINE)
/* The thunks the kernel provides (arch/x86/lib/retpoline.S), without the
 * speculation trap: jmp *%reg is what they do. */
__asm__(".irp reg, rax, rcx, rdx, rbx, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15\n"
	".globl __x86_indirect_thunk_\\reg\n"
	".type __x86_indirect_thunk_\\reg, @function\n"
	"__x86_indirect_thunk_\\reg:\n\t"
	"jmp *%\\reg\n"
	".size __x86_indirect_thunk_\\reg, . - __x86_indirect_thunk_\\reg\n"
	".endr\n");
#endif

static struct process_timer pt;
void (*volatile chosen)(struct timer_list *) = process_timeout;
void (*volatile other)(struct timer_list *) = plain_timer_fn;
void (*volatile privileged)(unsigned long) = native_write_cr4;
void (*volatile creds)(void *) = commit_creds;
static struct tasklet_struct tl = { .use_callback = 1, .callback = kl_tasklet_fn };

void _start(void)
{
	call_timer_fn(&pt.timer, sink ? other : chosen);
	tasklet_action_common(&tl);
	for (;;)
		;
}

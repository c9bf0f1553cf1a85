/* SPDX-License-Identifier: MIT */
/*
 * The victim: a small simulated kernel (docs/attacks.md "The victim" and "The
 * attacker"). A generic neighbour, struct packet_ring (not af_packet's: a
 * char name[16] right before a timer, then the words its callback uses),
 * allocated from a slab of adjacent objects (slab.h), a simulated CPU with
 * CR4, a current cred, and the privileged functions an attacker would like
 * the timer to call. CVE-2017-7308's own victim, the AF_PACKET socket with
 * struct tpacket_kbdq_core as the kernel declares it, is af_packet.h.
 *
 * Bugs live here, in victim code, so the sanitizers instrument the real
 * write: ring_set_name() (length unchecked), ring_set_byte() (index
 * unchecked), ring_set_name_str() (strcpy), msg_store() (length unchecked),
 * ring_release_buggy() (frees a ring whose timer is pending).
 *
 * Output protocol (stdout, one write(2) per line, see th_emit(); <T> is the
 * runner's per-run token, cfi/classify.h says what each line may decide):
 *   TH-NOTE: run=<T> <narration>
 *   TH-LANDED: run=<T> yes|no|partial <goal fields>; changed: <fields>
 *   TH-TARGET: run=<T> name=<fn> chosen=<0|1> <what it received>
 *   TH-LEGIT: run=<T> intended=<0|1> <detail>
 *   TH-DONE: run=<T> fired=<n> <state>
 * The privileged state (CR4, the cred) is not taken from these lines: the
 * runner reads it from the process at exit (th_privileged_state).
 */
#ifndef TH_ATTACKS_VICTIM_H
#define TH_ATTACKS_VICTIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "variant.h"

/* ---- simulated machine state --------------------------------------------- */

#define X86_CR4_OSFXSR	(1UL << 9)
#define X86_CR4_OSXSAVE	(1UL << 18)
#define X86_CR4_SMEP	(1UL << 20)
#define X86_CR4_SMAP	(1UL << 21)
/* A typical x86-64 CR4 with SMEP and SMAP on; CVE-2017-7308 wrote 0x407f0. */
#define TH_CR4_INITIAL	0x3407f0UL

/*
 * The CPU's CR4: a register, not memory. No store instruction reaches it;
 * only MOV to CR4 (th_mov_to_cr4(), native_write_cr4()'s one instruction)
 * changes it, and refuses a value the CPU does not accept with #GP(0)
 * (runner/x86_cr4.h: the SDM's rules). Modelled as a page of its own,
 * read-only from start-up, that th_mov_to_cr4() alone opens around its one
 * store: a data write aimed at it faults, and a list write or a callback's
 * store elsewhere cannot change it. The runner reads it at exit (the state
 * map, runner/contract.h); nothing else is CR4.
 */
#define TH_CPU_REGS_PAGE	4096
struct th_cpu_regs {
	unsigned long cr4;
	unsigned char rest_of_page[TH_CPU_REGS_PAGE - sizeof(unsigned long)];
};
extern struct th_cpu_regs cpu_regs;
/* native_read_cr4(): the register's value. */
unsigned long th_read_cr4(void);

/*
 * Per-CPU memory beside the register: v4.14's cpu_tlbstate.cr4, the shadow
 * cr4_set_bits() and cr4_read_shadow() keep (arch/x86/include/asm/
 * tlbflush.h). native_write_cr4() does not update it, and a data write that
 * changes it changes no register. Also the "data object" the
 * func:data-address payload jumps into, and the leak table's sim_cpu.
 */
struct th_cpu_state {
	unsigned long cr4_shadow;
	unsigned long cr4_loads;	/* MOV to CR4s the CPU took: a count, memory as the shadow */
};
extern struct th_cpu_state sim_cpu;

/*
 * include/linux/cred.h of v4.14 (v4.15's is the same), x86-64, as a
 * distribution builds it: CONFIG_KEYS=y, CONFIG_SECURITY=y,
 * CONFIG_DEBUG_CREDENTIALS off. Every member up to ->user, so that a
 * cred that is not one (a ring, a timer) is read where the kernel reads it:
 * euid at +20, ->user at +128. __randomize_layout there too.
 */
typedef struct { uint32_t cap[2]; } kernel_cap_t;	/* _KERNEL_CAPABILITY_U32S = 2 */
/* include/linux/sched/user.h (v4.14), its first two members. */
struct user_struct {
	int __count;		/* refcount_t */
	int processes;		/* atomic_t: how many tasks this user has */
};
struct cred {
	int usage;		/* atomic_t */
	unsigned int uid, gid, suid, sgid, euid, egid, fsuid, fsgid;
	unsigned int securebits;
	kernel_cap_t cap_inheritable, cap_permitted, cap_effective, cap_bset, cap_ambient;
	unsigned char jit_keyring;
	void *session_keyring, *process_keyring, *thread_keyring, *request_key_auth;
	void *security;
	struct user_struct *user;
	void *user_ns;
	void *group_info;
	void *rcu[2];		/* struct rcu_head: next, func */
} __randomize_layout;
#define TH_USER_UID	1000u
/* The attacking process's credentials (its task's cred and real_cred). */
extern struct cred current_cred;

/*
 * include/linux/sched.h (v4.14), the members the modelled paths use: the
 * state try_to_wake_up() tests and sets, the lock it takes first, the two
 * credential pointers commit_creds() replaces.
 */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
struct task_struct {
	volatile long state;
	int pi_lock;		/* raw_spinlock_t */
	const struct cred *real_cred;
	const struct cred *cred;
	char comm[16];
};
/*
 * The two tasks of the simulated CPU. The attacker arms its ring and then
 * sleeps until the timer has fired (as CVE-2017-7308's exploit waits for
 * retire_blk_timer), so the timer interrupt finds the CPU idle: the softirq
 * runs on the idle task's stack, and `current` there is swapper/0, not the
 * attacker (kernel/softirq.c __do_softirq() runs in whatever task the
 * interrupt hit). th_softirq_current is that task while the wheel runs.
 */
extern struct task_struct attacker_task, idle_task;
extern struct task_struct *th_softirq_current;

/* ---- the generic neighbour ------------------------------------------------------ */

/* include/uapi/linux/if_packet.h: a block's status, the kernel's or the user's. */
#define TP_STATUS_KERNEL	0u
#define TP_STATUS_USER		1u
/* The neighbour's current block: a status word its callback hands back. */
struct neighbour_block {
	unsigned int block_status;
	unsigned int num_pkts;
};

/*
 * The generic neighbour: a buffer right before a timer_list, then the
 * fields its callback acts on. Any kernel object with a fixed-size buffer in
 * front of a timer has this shape; it is not af_packet's (whose retire timer
 * is the last member of struct tpacket_kbdq_core, after 104 bytes of ring
 * state: af_packet.h). Its C names (packet_ring, retire_blk_timer) are the
 * fuzz target's too (fuzz/overflow_world.c), and kept.
 */
struct packet_ring {
	char name[16];
	struct timer_list retire_blk_timer;
	unsigned int owner_uid;		/* uid of the object's owner */
	unsigned int closed;
	struct neighbour_block *cur_block;	/* the block the timer hands back */
} __randomize_layout;

/* The neighbour's timeout: 8 jiffies (8 ms at HZ=1000). */
#define TH_RETIRE_TMO	8UL

/* msg_msg-like: a header, then len bytes of user data. */
struct msg_buf {
	unsigned int len;
	unsigned int type;
	char data[];
};

/* ---- the victim's "system calls" ------------------------------------------- */

/* kzalloc a neighbour, set up its timer. NULL if full. */
struct packet_ring *ring_create(const char *name);
/* mod_timer(jiffies + TH_RETIRE_TMO). */
int ring_arm(struct packet_ring *ring);
/* BUG (CVE-2016-8655 shape: packet_release() without its del_timer_sync()):
 * kfree() with the timer still pending. */
void ring_release_buggy(struct packet_ring *ring);

/* BUG: copies len bytes into name[16]; len is the caller's. */
void ring_set_name(struct packet_ring *ring, const void *buf, size_t len);
/* BUG: name[idx] = val; idx is the caller's. */
void ring_set_byte(struct packet_ring *ring, size_t idx, unsigned char val);
/* BUG: strcpy(name, s). */
void ring_set_name_str(struct packet_ring *ring, const char *s);

/* msgsnd()-like: kmalloc(sizeof(struct msg_buf) + len). */
struct msg_buf *msg_alloc(size_t len, unsigned int type);
/* BUG: copies n bytes into m->data, never compared with m->len. */
void msg_store(struct msg_buf *m, const void *buf, size_t n);
/* setxattr()-like spray: kmalloc(len), fill all of it, keep it. */
void *spray_alloc(const void *buf, size_t len);

/* Is p a ring the victim created and has not freed? */
int ring_is_live(const void *p);

/* ---- privileged targets ------------------------------------------------------
 * Each follows the kernel function it is named after (victim.c cites the
 * version and file), its checks and effects included: a check the kernel
 * makes (commit_creds()'s BUG_ON, a sleep in atomic context, a lost FPU
 * enable bit) ends the run as the kernel's oops would. Each emits
 * TH-TARGET: name=<fn> chosen=<0|1> <received> once its effect is done, so
 * a target that oopsed part way has no TARGET line (its TH-NOTE says why);
 * write_cr4 and write_cr4_direct right after their MOV to CR4, which may
 * fault first (#GP(0): the process dies there, as the kernel would oops).
 * chosen=1 only when the effect is the attacker's: its value loaded, its
 * own credentials, its path run as root, its task woken.
 * The neighbour's legitimate callback, neighbour_timer_fn, emits TH-LEGIT:
 * intended=1 when it got its own ring; when it did not, it is the
 * attacker's target if the attacker aimed at it (data:fake-object:
 * TH-TARGET), else it runs on a corrupted argument the attacker did not aim
 * at (TH-LEGIT: intended=0, e.g. a randstruct miss that hit .data) and goes
 * on as its code does. af_packet.h's callback does the same for sockets. */
void write_cr4(unsigned long val);			/* native_write_cr4 */
int commit_creds(struct cred *new);			/* ptr-class: kernel/cred.c */
/* include/linux/umh.h (v4.14) */
#define UMH_NO_WAIT	0	/* don't wait at all */
#define UMH_WAIT_EXEC	1	/* wait for the exec, but not the process */
#define UMH_WAIT_PROC	2	/* wait for the process to complete */
#define UMH_KILLABLE	4	/* wait for EXEC/PROC killable */
int call_usermodehelper(const char *path, char **argv, char **envp, int wait);	/* other-proto */
#if defined(TH_ATK_MODERN)
void neighbour_timer_fn(struct timer_list *t);
void ring_force_close(struct timer_list *t);		/* same-class */
#elif defined(TH_ATK_TRANSITIONAL)
void neighbour_timer_fn(struct timer_list *t);
void ring_force_close(unsigned long data);		/* same-class */
#else
void neighbour_timer_fn(unsigned long data);
void ring_force_close(unsigned long data);		/* same-class */
#endif

/*
 * The context switch after the timer softirq (victim.c): the idle task
 * gives the CPU to the attacker its timer woke. Where a CR4 the attacker
 * loaded has lost an FPU enable bit, this is where the CPU says so (#UD).
 */
void th_schedule_after_softirq(void);

/* "write_cr4", ... for a code or data address the victim knows, else NULL. */
const char *victim_addr_name(uintptr_t addr);

/* ---- harness instrumentation (not part of the simulated kernel) ------------- */

/* printk for the protocol: format into a stack buffer, put the run's token
 * after "TH-<KIND>:", newlines in the text to blanks, add '\n', one write(2);
 * or, in the fuzz target, one append to th_emit_mem. */
void th_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The fuzz target's report buffer (fuzz/overflow_oracle.c, outside the
 * victim's world: no planted pointer reaches it). When the program defines
 * it, th_emit() appends each whole line there, with this token, instead of
 * write(2) (the line and its content as on fd 1): no syscall per line. A
 * line that does not fit in cap - len is dropped whole, as a full
 * non-blocking pipe refuses it. Weak: the attack binaries have none.
 */
struct th_emit_mem {
	char *buf;
	size_t cap;
	volatile size_t len;
	char token[16 + 1];	/* TH_TOKEN_LEN hex digits (runner/contract.h) */
};
extern struct th_emit_mem *th_emit_mem __attribute__((weak));
/* The fuzz oracle's taker of a line (fuzz/overflow_oracle.c): when the
 * program defines it, th_emit() hands it the format and its arguments as
 * they are, and the oracle formats a line only when it reads its text (no
 * formatting a run whose lines say nothing new). Weak: the attack binaries
 * have none. */
void th_emit_mem_put(const char *fmt, va_list ap) __attribute__((weak));

/*
 * What the attacker chose, recorded before the trigger: the function it aims
 * at and the argument it means that function to get. A target reports
 * chosen=1 iff it is that function and received that argument.
 */
enum th_intent_kind {
	TH_INTENT_NONE,		/* the attacker chose no argument (func-only) */
	TH_INTENT_VALUE,	/* the argument value itself */
	TH_INTENT_CRED,		/* the struct cred the pointer argument points at */
	TH_INTENT_STRING,	/* the string the pointer argument points at */
	TH_INTENT_TASK,		/* the task process_timeout() wakes: value is its address */
};
struct th_intent {
	const char *target;	/* "write_cr4", ...; NULL: none (control) */
	enum th_intent_kind kind;
	unsigned long value;
	struct { int usage; unsigned int uid, gid, suid; } cred;	/* the 16 bytes planted */
	char string[32];
};
extern struct th_intent th_intent;
/* Is @fn the attacker's target and @v the value it chose (TH_INTENT_VALUE)?
 * What a target reports as chosen=1 (victim.c, tasklet_victim.c). */
int th_chose_value(const char *fn, unsigned long v);

/* The machine's reset, not a kernel path: CR4 back to TH_CR4_INITIAL through
 * the register's one store (the fuzz target's world, once per execution). */
void th_cpu_reset(void);

/* How many TH-TARGET, TH-LEGIT: intended=1 and TH-LEGIT: intended=0 lines. */
extern unsigned long th_target_hits, th_legit_hits, th_stray_hits;

/* Raw bytes of any memory, never instrumented (the attacker's leak, and the
 * harness's own checks: they must not trip ASan on freed memory). */
void th_peek(void *dst, const void *src, size_t n);

/* The overwrite the attacker meant, in the victim's real field terms. */
struct th_goal {
	int control;		/* no overwrite meant */
	int has_name;		/* planted bytes at the start of name */
	unsigned char name[16];
	size_t name_len;
	int has_function;
	uintptr_t function;
	int has_data;
	unsigned long data;
	int has_next, has_pprev;	/* list:* payloads: the timer's entry */
	uintptr_t next, pprev;
};
/* The ring's bytes, plus the start of the next slot, before the write. */
struct th_ring_snapshot {
	unsigned char bytes[sizeof(struct packet_ring) + 64];
};
void th_ring_snapshot(const struct packet_ring *ring, struct th_ring_snapshot *s);
/* Emit TH-LANDED: compare the real fields with the goal and the snapshot. */
/* The TH-LANDED line: which of @goal's fields the write left as the attack
 * meant (@value reads a field, by label, from the snapshot @after), what it
 * changed (@changed), and for a name goal @name_result ("ok ..."/"missed ...")
 * and @name_ok: th_report_landed() and th_af_report_landed() differ only there. */
void th_goal_landed(const struct th_goal *goal, const char *changed, const char *name_result,
		    int name_ok, uintptr_t (*value)(const void *snap, const char *label),
		    const void *after);
void th_report_landed(const struct packet_ring *ring, const struct th_ring_snapshot *before,
		      const struct th_goal *goal);

/* ---- targets inside CFI's reach (issue: what the timer dispatch can still call) ---- */

/*
 * Another subsystem's timer callback of the call site's own type:
 * process_timeout() of kernel/time/timer.c, the timer schedule_timeout()
 * sets up on its stack. v4.14 (and the 4.14-rc3 tree, where it was not yet
 * converted): process_timeout(unsigned long __data) wakes the task in
 * .data. v4.15: struct process_timer { struct timer_list timer; struct
 * task_struct *task; } and process_timeout(struct timer_list *t) wakes
 * from_timer(timeout, t, timer)->task, the word right after the timer.
 * Its only effect is wake_up_process(): it calls nothing indirectly, so
 * type-based CFI admitting it admits no further call.
 */
struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};
#if defined(TH_ATK_MODERN)
void process_timeout(struct timer_list *t);
#else
void process_timeout(unsigned long data);
#endif
/* kernel/sched/core.c try_to_wake_up(p, TASK_NORMAL, 0). Return: 1 woken. */
int wake_up_process(struct task_struct *p);

/*
 * native_write_cr4 as a kernel without paravirt has it: exported to modules
 * (EXPORT_SYMBOL), called directly, its address never taken in the image.
 * Of the legacy callback's type. cfi-icall puts only address-taken
 * functions in the jump table; kcfi gives every external function its hash.
 */
void write_cr4_direct(unsigned long val);

/* Escape for the protocol: at most @max bytes of @s up to its NUL, printable
 * and quote-safe, into @dst (@n bytes). */
const char *th_escape_max(char *dst, size_t n, const char *s, size_t max);

#endif

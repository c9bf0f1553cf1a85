/* SPDX-License-Identifier: MIT */
/*
 * The simulated kernel the attacks run against: see victim.h. The buggy
 * functions are plain victim code so that every config's instrumentation
 * (ASan, array-bounds, FORTIFY, the field-spanning memcpy check) sees the
 * real write, exactly where a kernel would have it.
 */
#include "victim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cfi/fortify_field.h"
#include "runner/contract.h"
#include "layout.h"
#include "slab.h"
#include "runner/x86_cr4.h"

/* The register (victim.h): a section of its own, so that the fuzz target's
 * #pragma clang section does not put it in the world it restores. */
__attribute__((section("th_cpu_regs"), aligned(TH_CPU_REGS_PAGE))) struct th_cpu_regs cpu_regs = {
	.cr4 = TH_CR4_INITIAL
};
_Static_assert(sizeof(cpu_regs) == TH_CPU_REGS_PAGE, "the register owns its page, nothing else does");
struct th_cpu_state sim_cpu = { .cr4_shadow = TH_CR4_INITIAL };
/* kernel/user.c root_user and the attacker's own user_struct. */
static struct user_struct root_user = { .__count = 1, .processes = 1 };
static struct user_struct attacker_user = { .__count = 1, .processes = 1 };
/* kernel/cred.c init_cred (usage 4), the idle task's; the attacker's cred
 * is its task's real_cred and cred both (usage 2). */
static struct cred init_cred = {
	.usage = 4,
	.cap_permitted = { { ~0u, ~0u } }, .cap_effective = { { ~0u, ~0u } },
	.cap_bset = { { ~0u, ~0u } }, .user = &root_user,
};
struct cred current_cred = { .usage = 2, .uid = TH_USER_UID, .gid = TH_USER_UID,
			     .suid = TH_USER_UID, .sgid = TH_USER_UID, .euid = TH_USER_UID,
			     .egid = TH_USER_UID, .fsuid = TH_USER_UID, .fsgid = TH_USER_UID,
			     .user = &attacker_user };
/* The attacker sleeps until its timer fires (victim.h): TASK_INTERRUPTIBLE. */
struct task_struct attacker_task = { .state = TASK_INTERRUPTIBLE, .real_cred = &current_cred,
				     .cred = &current_cred, .comm = "exploit" };
struct task_struct idle_task = { .state = TASK_RUNNING, .real_cred = &init_cred,
				 .cred = &init_cred, .comm = "swapper/0" };
struct task_struct *th_softirq_current = &idle_task;
struct th_intent th_intent;
unsigned long th_target_hits, th_legit_hits, th_stray_hits;

/* The simulated machine's privileged state, for the runner to read at exit
 * from the process itself (runner/contract.h): what TH-DONE says about it
 * is narration, this is the observation. */
TH_STATE_MAP_ATTR const struct th_state_field TH_STATE_MAP[] = {
	{ "cpu_regs", "cr4", offsetof(struct th_cpu_regs, cr4), sizeof(cpu_regs.cr4) },
	{ "current_cred", "uid", offsetof(struct cred, uid), sizeof(current_cred.uid) },
	{ "current_cred", "gid", offsetof(struct cred, gid), sizeof(current_cred.gid) },
	{ "current_cred", "euid", offsetof(struct cred, euid), sizeof(current_cred.euid) },
	/* Not the tasks' cred pointers: the file holds a pointer before its
	 * relocation, so no initial value can be read from it (contract.h);
	 * commit_creds() names the task whose pointer it replaced. */
	{ "", "", 0, 0 },
};

/* ---- the CR4 register ------------------------------------------------------------ */

static void cpu_regs_protect(int prot)
{
	static const char msg[] = "th-victim: mprotect() of the CR4 register page failed\n";

	if (mprotect(&cpu_regs, sizeof(cpu_regs), prot)) {
		(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
		_exit(4);
	}
}

/* Before main() and before any write the victim or an attacker makes. */
__attribute__((constructor)) static void cpu_regs_init(void)
{
	cpu_regs_protect(PROT_READ);
}

unsigned long th_read_cr4(void)
{
	return *(const volatile unsigned long *)&cpu_regs.cr4;
}

/* The register's one store: after the CPU accepted the value. */
static void cr4_load(unsigned long val)
{
	cpu_regs_protect(PROT_READ | PROT_WRITE);
	*(volatile unsigned long *)&cpu_regs.cr4 = val;
	cpu_regs_protect(PROT_READ);
	sim_cpu.cr4_loads++;
}

/*
 * MOV to CR4 (Intel SDM Vol. 2B, MOV—Move to/from Control Registers): a
 * value the CPU refuses (runner/x86_cr4.h) is #GP(0) at the instruction.
 * That fault is the real one: the mov itself is executed, at CPL 3, where
 * it always raises #GP(0) (SIGSEGV, si_code SI_KERNEL), its operand in the
 * register its encoding names, for the runner (cfi/classify.c) and the fuzz
 * oracle to read. Inlined into each caller, so the fault's pc is in
 * write_cr4 or write_cr4_direct as the kernel's oops would name
 * native_write_cr4. A value the CPU takes is loaded, nothing else.
 */
__attribute__((always_inline)) static inline void th_mov_to_cr4(unsigned long val)
{
	if (th_x86_cr4_gp(val, NULL, 0)) {
#if defined(__x86_64__)
		__asm__ volatile("mov %0, %%cr4" : : "r"(val) : "memory");
#endif
		__builtin_trap();	/* not reached: user mode cannot load CR4 */
	}
	cr4_load(val);
}

void th_cpu_reset(void)
{
	if (th_read_cr4() != TH_CR4_INITIAL)
		cr4_load(TH_CR4_INITIAL);
}

/* The attacker's mirror must be the real default layout (else every attack
 * would "miss" for the wrong reason). Not under randstruct: there the real
 * layout differs on purpose. */
#ifndef TH_RANDSTRUCT
_Static_assert(offsetof(struct packet_ring, retire_blk_timer) == ATK_OFF_TIMER,
	       "attacker's mirror: ring.retire_blk_timer");
_Static_assert(offsetof(struct packet_ring, retire_blk_timer.function) == ATK_OFF_FUNCTION,
	       "attacker's mirror: timer.function");
#if TH_ATK_HAS_DATA
_Static_assert(offsetof(struct packet_ring, retire_blk_timer.data) == ATK_OFF_DATA,
	       "attacker's mirror: timer.data");
#endif
_Static_assert(offsetof(struct packet_ring, retire_blk_timer.flags) ==
		       ATK_OFF_TIMER + offsetof(atk_timer, flags),
	       "attacker's mirror: timer.flags");
_Static_assert(offsetof(struct packet_ring, cur_block) == offsetof(struct atk_ring, cur_block),
	       "attacker's mirror: ring.cur_block");
_Static_assert(sizeof(struct packet_ring) == sizeof(struct atk_ring), "attacker's mirror: ring size");
_Static_assert(offsetof(struct cred, uid) == offsetof(struct atk_cred, uid) &&
		       offsetof(struct cred, suid) == offsetof(struct atk_cred, suid),
	       "attacker's mirror: cred");
/* v4.14's struct cred on x86-64 with CONFIG_KEYS and CONFIG_SECURITY. */
_Static_assert(offsetof(struct cred, uid) == 4 && offsetof(struct cred, euid) == 20 &&
		       offsetof(struct cred, cap_effective) == 56 &&
		       offsetof(struct cred, user) == 128 && sizeof(struct cred) == 168,
	       "struct cred as v4.14 lays it out");
#endif
_Static_assert(sizeof(struct packet_ring) <= TH_KMALLOC_SIZE, "a ring fits a kmalloc-128 slot");

/* ---- output -------------------------------------------------------------------- */

/* The runner's per-run token (runner/child.h), or "-" when run by hand. */
static const char *run_token(void)
{
	static char tok[TH_TOKEN_LEN + 1];

	if (!tok[0]) {
		const char *t = getenv(TH_TOKEN_ENV);
		size_t len = t ? strspn(t, "0123456789abcdef") : 0;

		snprintf(tok, sizeof(tok), "%s", len == TH_TOKEN_LEN && !t[len] ? t : "-");
	}
	return tok;
}

void th_emit(const char *fmt, ...)
{
	struct th_emit_mem *mem = &th_emit_mem ? th_emit_mem : NULL;
	char buf[1024], text[1000];
	const char *p = buf, *colon;
	va_list ap;
	int n;

	if (mem && th_emit_mem_put) {
		va_start(ap, fmt);
		th_emit_mem_put(fmt, ap);
		va_end(ap);
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* "TH-KIND: rest" -> "TH-KIND: run=<token> rest"; a newline in rest
	 * would start a line of its own: never one. */
	for (char *c = text; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	colon = strstr(text, ": ");
	if (!strncmp(text, "TH-", 3) && colon)
		n = snprintf(buf, sizeof(buf) - 1, "%.*s run=%s %s", (int)(colon - text + 1), text,
			     mem ? mem->token : run_token(), colon + 2);
	else
		n = snprintf(buf, sizeof(buf) - 1, "%s", text);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (mem) {
		/* The fuzz oracle's buffer: the line whole, then its length
		 * published (a run cut in between loses the line, as a
		 * write(2) never made). */
		size_t at = mem->len;

		if (at <= mem->cap && (size_t)n <= mem->cap - at) {
			memcpy(mem->buf + at, buf, (size_t)n);
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			mem->len = at + (size_t)n;
		}
		return;
	}
	/* One write(2): a line is never split or interleaved, whatever the
	 * process does next (dies by a trap, aborts, is killed). */
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, p, (size_t)n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (int)w;
	}
}

/* Printable, quote-safe copy of at most max bytes of s, up to its NUL. */
const char *th_escape_max(char *dst, size_t n, const char *s, size_t max)
{
	size_t o = 0;

	for (size_t i = 0; i < max && s[i] && o + 5 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			dst[o++] = (char)c;
		else
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", c);
	}
	dst[o] = 0;
	return dst;
}

__attribute__((no_sanitize("address"))) void th_peek(void *dst, const void *src, size_t n)
{
	const volatile unsigned char *s = src;
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

/* ---- rings ----------------------------------------------------------------------- */

static const void *live_rings[TH_KMALLOC_SLOTS];
static struct neighbour_block ring_blocks[TH_KMALLOC_SLOTS];
static unsigned int ring_blocks_used;

int ring_is_live(const void *p)
{
	for (size_t i = 0; p && i < TH_KMALLOC_SLOTS; i++)
		if (live_rings[i] == p)
			return 1;
	return 0;
}

static void live_set(const void *old, const void *new)
{
	for (size_t i = 0; i < TH_KMALLOC_SLOTS; i++)
		if (live_rings[i] == old) {
			live_rings[i] = new;
			return;
		}
}

struct packet_ring *ring_create(const char *name)
{
	struct packet_ring *ring;

	if (ring_blocks_used == TH_KMALLOC_SLOTS || !(ring = kzalloc(sizeof(*ring))))
		return NULL;
	snprintf(ring->name, sizeof(ring->name), "%s", name);
	ring->owner_uid = current_cred.uid;
	ring->cur_block = &ring_blocks[ring_blocks_used++];
	ring->cur_block->block_status = TP_STATUS_USER;
#if defined(TH_ATK_LEGACY)
	setup_timer(&ring->retire_blk_timer, neighbour_timer_fn, (unsigned long)ring);
#else
	timer_setup(&ring->retire_blk_timer, neighbour_timer_fn, 0);
#endif
	live_set(NULL, ring);
	return ring;
}

int ring_arm(struct packet_ring *ring)
{
	return mod_timer(&ring->retire_blk_timer, jiffies + TH_RETIRE_TMO);
}

void ring_release_buggy(struct packet_ring *ring)
{
	/* Missing: del_timer_sync(&ring->retire_blk_timer). */
	live_set(ring, NULL);
	kfree(ring);
}

void ring_set_name(struct packet_ring *ring, const void *buf, size_t len)
{
	/* Missing: if (len > sizeof(ring->name)) return -EINVAL; */
	TH_FIELD_MEMCPY(ring->name, buf, len);
}

void ring_set_byte(struct packet_ring *ring, size_t idx, unsigned char val)
{
	/* Missing: if (idx >= sizeof(ring->name)) return -EINVAL; */
	ring->name[idx] = (char)val;
}

void ring_set_name_str(struct packet_ring *ring, const char *s)
{
	/* Missing: strscpy(ring->name, s, sizeof(ring->name)). */
	strcpy(ring->name, s);
}

struct msg_buf *msg_alloc(size_t len, unsigned int type)
{
	struct msg_buf *m = kmalloc(sizeof(*m) + len);

	if (m) {
		m->len = (unsigned int)len;
		m->type = type;
	}
	return m;
}

void msg_store(struct msg_buf *m, const void *buf, size_t n)
{
	/* Missing: if (n > m->len) return -EMSGSIZE; */
	TH_FIELD_MEMCPY(m->data, buf, n);
}

void *spray_alloc(const void *buf, size_t len)
{
	void *p = kmalloc(len);

	if (p)
		memcpy(p, buf, len);
	return p;
}

/* ---- targets --------------------------------------------------------------------- */

/* Is fn the function the attacker aims at? */
static int aimed_at(const char *fn)
{
	return th_intent.target && !strcmp(th_intent.target, fn);
}

int th_chose_value(const char *fn, unsigned long v)
{
	return aimed_at(fn) && th_intent.kind == TH_INTENT_VALUE && v == th_intent.value;
}

/*
 * native_write_cr4() of v4.14 and v4.15 (arch/x86/include/asm/special_insns.h:
 * asm volatile("mov %0,%%cr4": : "r" (val), "m" (__force_order)); out of
 * line as pv_cpu_ops.write_cr4 under CONFIG_PARAVIRT, the address
 * CVE-2017-7308 planted): one MOV to CR4, no check, no pinning. Pinning of
 * SMEP/SMAP came in v5.3 (873d50d58f67, "x86/asm: Pin sensitive CR4 bits";
 * native_write_cr4() in arch/x86/kernel/cpu/common.c today). A refused value
 * is #GP(0) at the mov: an oops (in the timer softirq, a panic), and the
 * target never reports.
 */
void write_cr4(unsigned long val)
{
	unsigned long old = th_read_cr4();

	th_mov_to_cr4(val);
	th_target_hits++;
	th_emit("TH-TARGET: name=write_cr4 chosen=%d val=0x%lx", th_chose_value("write_cr4", val), val);
	th_emit("TH-NOTE: CR4 0x%lx -> 0x%lx: SMEP %s SMAP %s", old, val,
		val & X86_CR4_SMEP ? "on" : "off", val & X86_CR4_SMAP ? "on" : "off");
}

/*
 * An oops the model cannot go past: BUG() is ud2 in the kernel
 * (include/asm-generic/bug.h, arch/x86/include/asm/bug.h), and so here: the
 * process dies by SIGILL at the ud2 in the function that hit the BUG
 * (inlined: the runner names that function, as an oops names the kernel's).
 * @what is the kernel's own line, narrated (the classifier decides from the
 * trap, never from this line).
 */
__attribute__((always_inline, noreturn)) static inline void th_bug(const char *what)
{
	th_emit("TH-NOTE: %s", what);
	__builtin_trap();
}

/*
 * commit_creds() of v4.14 and v4.15 (kernel/cred.c), as it runs from the
 * timer softirq: on `current`, the task the timer interrupt hit (the idle
 * task: victim.h), not the attacker's. In order:
 *  - BUG_ON(task->cred != old) (holds for either task here);
 *  - BUG_ON(atomic_read(&new->usage) < 1): usage is an int on 4.14/4.15
 *    (atomic_long_t since 6.0, where a list poison's first word is negative);
 *  - get_cred(new): usage + 1, a write into whatever new points at;
 *  - if (new->user != old->user) atomic_inc(&new->user->processes): ->user
 *    is read at new + 128, past a ring or a timer (the next slab slot), and
 *    written through: a NULL or stray pointer faults there;
 *  - task->real_cred = task->cred = new: the task's credentials ARE the
 *    object now (no copy), read live from it;
 *  - the old user's count and the old cred's two references dropped.
 * dumpability (task->mm: none for a kernel thread) and key_fsuid_changed()
 * (the old cred's thread keyring: none) change nothing here.
 */
int commit_creds(struct cred *new)
{
	struct task_struct *task = th_softirq_current;
	const struct cred *old = task->real_cred;
	int usage = new->usage;
	struct user_struct *user;
	int chosen;

	if (task->cred != old)
		th_bug("kernel BUG at kernel/cred.c: commit_creds(): task->cred != task->real_cred");
	if (usage < 1) {
		char line[160];

		snprintf(line, sizeof(line),
			 "kernel BUG at kernel/cred.c: commit_creds(%p): BUG_ON(atomic_read(&new->usage) < 1), usage %d (0x%x)",
			 (void *)new, usage, (unsigned)usage);
		th_bug(line);
	}
	__atomic_fetch_add(&new->usage, 1, __ATOMIC_SEQ_CST);	/* get_cred() */
	user = new->user;
	if (user != old->user)
		__atomic_fetch_add(&user->processes, 1, __ATOMIC_SEQ_CST);
	task->real_cred = new;
	task->cred = new;
	if (user != old->user)
		__atomic_fetch_sub(&old->user->processes, 1, __ATOMIC_SEQ_CST);
	((struct cred *)old)->usage -= 2;	/* put_cred(old) twice; init_cred never reaches 0 */
	/* The attacker's effect: its own task now runs with the cred it
	 * planted (the bytes it chose, at the object it chose). */
	chosen = aimed_at("commit_creds") && th_intent.kind == TH_INTENT_CRED &&
		 task == &attacker_task && usage == th_intent.cred.usage &&
		 new->uid == th_intent.cred.uid && new->gid == th_intent.cred.gid &&
		 new->suid == th_intent.cred.suid;
	th_target_hits++;
	th_emit("TH-TARGET: name=commit_creds chosen=%d cred=%p usage=%d uid=%u gid=%u euid=%u user=%p task=%s",
		chosen, (void *)new, usage, new->uid, new->gid, new->euid, (void *)user, task->comm);
	th_emit("TH-NOTE: commit_creds: %s (the task the timer interrupt hit) now has cred %p: uid %u, euid %u (0x%x)%s",
		task->comm, (void *)new, new->uid, new->euid, new->euid,
		task == &attacker_task ? "" : "; the attacker's own cred is unchanged");
	return 0;
}

/* glibc's, declared by <sys/uio.h> only under _GNU_SOURCE, which this file
 * (also #included by the fuzz world after its own headers) cannot set. */
extern ssize_t process_vm_readv(pid_t pid, const struct iovec *local, unsigned long liovcnt,
				const struct iovec *remote, unsigned long riovcnt, unsigned long flags);

/* Can the kernel read @n (<= 64) bytes at @p (copy_from_kernel_nofault())?
 * Asked of the process's own memory with process_vm_readv(2), which fails
 * with EFAULT instead of faulting: a stray pointer is an error, not a crash. */
static int th_readable(const void *p, size_t n)
{
	char buf[64];
	struct iovec local = { buf, n };
	struct iovec remote = { (void *)(uintptr_t)p, n };

	return p && n <= sizeof(buf) &&
	       process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

/* do_execve()'s count() and copy_strings() on a kernel argv/envp (v4.14
 * fs/exec.c, the helper's KERNEL_DS): NULL is an empty list; else pointers up
 * to a NULL, each a readable string. Return: NULL usable, or why not. */
static const char *exec_strings_fault(char *const *v)
{
	static char why[96];

	if (!v)
		return NULL;
	for (size_t i = 0; i < 1024; i++) {
		char *s;

		if (!th_readable(&v[i], sizeof(v[i]))) {
			snprintf(why, sizeof(why), "-EFAULT reading pointer %zu at %p", i, (void *)&v[i]);
			return why;
		}
		memcpy(&s, &v[i], sizeof(s));
		if (!s)
			return NULL;
		if (!th_readable(s, 1)) {
			snprintf(why, sizeof(why), "-EFAULT reading string %zu at %p", i, (void *)s);
			return why;
		}
	}
	return "more than 1024 strings: the model stops counting (the kernel reads on, to a fault or -E2BIG)";
}

/* kernel/sched/core.c __schedule() -> schedule_debug() -> __schedule_bug():
 * schedule() with a preempt count raised (in a softirq) prints this and
 * switches away from inside the softirq; the model stops there. */
__attribute__((noinline, noreturn)) static void __schedule_bug(const char *who)
{
	char line[200];

	snprintf(line, sizeof(line), "BUG: scheduling while atomic: %s/0/0x00000100 (%s)",
		 th_softirq_current->comm, who);
	th_bug(line);
}

/*
 * call_usermodehelper() of v4.14 (kernel/umh.c), called as a timer
 * callback: fn(data) sets only the first argument register, so argv, envp
 * and wait are what rsi, rdx and ecx held at call_timer_fn's call, as on
 * the kernel. call_usermodehelper_setup() allocates with GFP_ATOMIC only
 * for UMH_NO_WAIT; call_usermodehelper_exec() reads strlen(path), then queues
 * the work on
 * system_unbound_wq and, unless UMH_NO_WAIT, sleeps in
 * wait_for_completion(): in the timer softirq that is "BUG: scheduling
 * while atomic". With UMH_NO_WAIT the worker later runs
 * call_usermodehelper_exec_async(): do_execve(path, argv, envp) with
 * root's credentials, which fails with -EFAULT on an unreadable argv/envp.
 */
int call_usermodehelper(const char *path, char **argv, char **envp, int wait)
{
	char got[sizeof(th_intent.string)], shown[4 * sizeof(got)];
	const char *argv_fault, *envp_fault;
	size_t i;
	int chosen;

	if (!path)
		return -22;	/* -EINVAL: call_usermodehelper_exec() frees the info */
	/* call_usermodehelper_exec(): `if (strlen(sub_info->path) == 0) goto
	 * out;`, in the softirq, before the work is queued: a stray path
	 * faults here. */
	if (!strlen(path))
		return 0;
	if (wait != UMH_NO_WAIT) {
		char who[120];

		snprintf(who, sizeof(who), "call_usermodehelper(%p, argv %p, envp %p, wait %d) waits for its helper",
			 (const void *)path, (void *)argv, (void *)envp, wait);
		__schedule_bug(who);
	}
	/* The worker's getname_kernel(path): the string strlen() just read. */
	for (i = 0; i + 1 < sizeof(got) && path[i]; i++)
		got[i] = path[i];
	got[i] = 0;
	argv_fault = exec_strings_fault(argv);
	envp_fault = exec_strings_fault(envp);
	chosen = aimed_at("call_usermodehelper") && th_intent.kind == TH_INTENT_STRING &&
		 !strcmp(got, th_intent.string) && !argv_fault && !envp_fault;
	th_target_hits++;
	th_emit("TH-TARGET: name=call_usermodehelper chosen=%d path=%p \"%s\" argv=%p envp=%p wait=%d",
		chosen, (const void *)path, th_escape_max(shown, sizeof(shown), got, sizeof(got)),
		(void *)argv, (void *)envp, wait);
	th_emit("TH-NOTE: call_usermodehelper: queued on system_unbound_wq; its worker's do_execve() %s%s%s",
		argv_fault || envp_fault ? "fails: " : "runs the path as root",
		argv_fault ? argv_fault : envp_fault ? envp_fault : "",
		argv_fault || envp_fault ? " (nothing runs)" : "");
	return 0;
}

/*
 * The context switch after the timer softirq. The attacker's timer has
 * woken it (its sleep ended), so the idle task's schedule() switches to it
 * and it returns to user mode. v4.14 arch/x86/kernel/process_64.c
 * __switch_to(): switch_fpu_prepare() saves the outgoing task's FPU state
 * with XSAVES/XSAVEOPT when the CPU has XSAVE (copy_xregs_to_kernel(),
 * arch/x86/include/asm/fpu/internal.h), as it does at the attacker's next
 * switch away; and user code uses SSE everywhere (the x86-64 ABI). So a CR4
 * without OSXSAVE or OSFXSR stands only until the next FPU use:
 *  - Intel SDM Vol. 2C XSAVE/XSAVES/XSAVEOPT: #UD "If CR4.OSXSAVE[bit 18] = 0":
 *    an invalid opcode in the kernel, an oops;
 *  - Vol. 2 (MOVAPS and every SSE instruction): #UD "If CR4.OSFXSR[bit 9] = 0":
 *    the attacker's first SSE instruction dies by SIGILL.
 * Neither toggles a CR4 bit: 4.14 writes its CR4 shadow (cpu_tlbstate.cr4)
 * back only in cr4_set_bits(), cr4_clear_bits() and cr4_toggle_bits_irqsoff()
 * (__switch_to_xtra(), when prev and next differ in TIF_NOTSC), none of which
 * this switch runs: a loaded CR4 stays in the register.
 */
__attribute__((noinline)) static void copy_xregs_to_kernel(void)
{
	if (!(th_read_cr4() & X86_CR4_OSXSAVE))
		th_bug("invalid opcode: 0000 [#1] SMP: XSAVES in copy_xregs_to_kernel() with CR4.OSXSAVE clear (switch_fpu_prepare)");
}

__attribute__((noinline)) static void user_sse_insn(void)
{
	if (!(th_read_cr4() & X86_CR4_OSFXSR))
		th_bug("traps: exploit trap invalid opcode: the attacker's first SSE instruction with CR4.OSFXSR clear: SIGILL");
}

void th_schedule_after_softirq(void)
{
	attacker_task.state = TASK_RUNNING;
	copy_xregs_to_kernel();		/* none for the idle task; the attacker's next switch */
	user_sse_insn();
}

/* The neighbour's callback's work: hand its current block back (status 0). */
static void retire_block(struct packet_ring *ring, const char *argname, unsigned long arg)
{
	struct timer_base *base = th_this_base();
	int live = ring_is_live(ring);
	int own = live && base && base->running_timer == (void *)&ring->retire_blk_timer;
	struct neighbour_block *blk;
	char name[80];

	if (own) {
		th_legit_hits++;
		th_emit("TH-LEGIT: intended=1 ring=%p name=\"%s\" %s=0x%lx", (void *)ring,
			th_escape_max(name, sizeof(name), ring->name, sizeof(ring->name)), argname, arg);
	} else if (aimed_at("neighbour_timer_fn")) {
		th_target_hits++;
		th_emit("TH-TARGET: name=neighbour_timer_fn chosen=%d %s=0x%lx (%s)",
			th_chose_value("neighbour_timer_fn", arg), argname, arg,
			live ? "another ring, not the one whose timer fired" : "not a live ring");
	} else {
		/* Not the attacker's aim: collateral corruption of .data. */
		th_stray_hits++;
		th_emit("TH-LEGIT: intended=0 %s=0x%lx (%s): the callback works on it anyway",
			argname, arg,
			live ? "another ring, not the one whose timer fired" : "not a live ring");
	}
	blk = ring->cur_block;
	blk->block_status = TP_STATUS_KERNEL;
	if (!own)
		th_emit("TH-NOTE: neighbour_timer_fn: wrote block status 0 to %p (%s); current uid now %u",
			(void *)blk,
			(void *)blk == (void *)&current_cred.uid ? "current_cred.uid" : "not the cred",
			current_cred.uid);
}

static void force_close(struct packet_ring *ring, const char *argname, unsigned long arg)
{
	th_target_hits++;
	th_emit("TH-TARGET: name=ring_force_close chosen=%d %s=0x%lx ring=%p (%s)",
		th_chose_value("ring_force_close", arg),
		argname, arg, (void *)ring, ring_is_live(ring) ? "a live ring" : "not a live ring");
	ring->closed = 1;
	ring->owner_uid = 0;
	th_emit("TH-NOTE: ring_force_close: ring %p closed, owner uid -> 0", (void *)ring);
}

#if defined(TH_ATK_LEGACY)
void neighbour_timer_fn(unsigned long data)
{
	retire_block((struct packet_ring *)data, "data", data);
}

void ring_force_close(unsigned long data)
{
	force_close((struct packet_ring *)data, "data", data);
}
#elif defined(TH_ATK_TRANSITIONAL)
void neighbour_timer_fn(struct timer_list *t)
{
	struct packet_ring *ring = from_timer(ring, t, retire_blk_timer);

	retire_block(ring, "timer", (unsigned long)t);
}

/* A callback of the call site's own type in the rc3 world: the convention
 * there is .data = the timer, so it finds its ring with from_timer(). */
void ring_force_close(unsigned long data)
{
	struct timer_list *t = (struct timer_list *)data;
	struct packet_ring *ring = from_timer(ring, t, retire_blk_timer);

	force_close(ring, "data", data);
}
#else
void neighbour_timer_fn(struct timer_list *t)
{
	struct packet_ring *ring = from_timer(ring, t, retire_blk_timer);

	retire_block(ring, "timer", (unsigned long)t);
}

void ring_force_close(struct timer_list *t)
{
	struct packet_ring *ring = from_timer(ring, t, retire_blk_timer);

	force_close(ring, "timer", (unsigned long)t);
}
#endif

const char *victim_addr_name(uintptr_t a)
{
	/* Addresses as numbers, to name what a field holds; never called. */
	static const struct {
		const char *name;
		uintptr_t addr;
	} known[] = {
		{ "write_cr4", (uintptr_t)&write_cr4 },
		{ "commit_creds", (uintptr_t)&commit_creds },
		{ "call_usermodehelper", (uintptr_t)&call_usermodehelper },
		{ "process_timeout", (uintptr_t)&process_timeout },
		{ "attacker_task", (uintptr_t)&attacker_task },
		{ "neighbour_timer_fn", (uintptr_t)&neighbour_timer_fn },
		{ "ring_force_close", (uintptr_t)&ring_force_close },
		{ "write_cr4+4", (uintptr_t)&write_cr4 + 4 },
		{ "sim_cpu", (uintptr_t)&sim_cpu },
		{ "current_cred", (uintptr_t)&current_cred },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].addr == a)
			return known[i].name;
	return NULL;
}

/* ---- did the write land? ----------------------------------------------------------- */

#define RING_FIELD(member, label) \
	{ label, offsetof(struct packet_ring, member), sizeof(((struct packet_ring *)0)->member) }
static const struct ring_field {
	const char *label;
	size_t off, size;
} ring_fields[] = {
	RING_FIELD(name, "name"),
	RING_FIELD(retire_blk_timer.entry.next, "entry.next"),
	RING_FIELD(retire_blk_timer.entry.pprev, "entry.pprev"),
	RING_FIELD(retire_blk_timer.expires, "expires"),
	RING_FIELD(retire_blk_timer.function, "function"),
#if TH_ATK_HAS_DATA
	RING_FIELD(retire_blk_timer.data, "data"),
#endif
	RING_FIELD(retire_blk_timer.flags, "flags"),
	RING_FIELD(owner_uid, "owner_uid"),
	RING_FIELD(closed, "closed"),
	RING_FIELD(cur_block, "cur_block"),
};

static const struct ring_field *field_by_label(const char *label)
{
	for (size_t i = 0; i < sizeof(ring_fields) / sizeof(ring_fields[0]); i++)
		if (!strcmp(ring_fields[i].label, label))
			return &ring_fields[i];
	return NULL;
}

void th_ring_snapshot(const struct packet_ring *ring, struct th_ring_snapshot *s)
{
	th_peek(s->bytes, ring, sizeof(s->bytes));
}

static uintptr_t field_value(const struct th_ring_snapshot *s, const char *label)
{
	const struct ring_field *f = field_by_label(label);
	uintptr_t v = 0;

	if (f && f->size <= sizeof(v))
		memcpy(&v, s->bytes + f->off, f->size);
	return v;
}

/* Append ", <label> ok (0x..)" or ", <label> missed (0x.. != 0x..)". */
static int goal_field(char *d, size_t n, uintptr_t got, const char *label, uintptr_t want)
{
	const char *gn = victim_addr_name(got), *wn = victim_addr_name(want);
	size_t len = strlen(d);

	if (got == want)
		snprintf(d + len, n - len, "%s%s ok (0x%lx%s%s)", len ? ", " : "", label,
			 (unsigned long)got, wn ? " " : "", wn ? wn : "");
	else
		snprintf(d + len, n - len, "%s%s missed (0x%lx%s%s, want 0x%lx)", len ? ", " : "",
			 label, (unsigned long)got, gn ? " " : "", gn ? gn : "",
			 (unsigned long)want);
	return got == want;
}

void th_goal_landed(const struct th_goal *goal, const char *changed, const char *name_result,
		    int name_ok, uintptr_t (*value)(const void *snap, const char *label),
		    const void *after)
{
	char goals[400] = "";
	int want = 0, got = 0;

	if (goal->control) {
		th_emit("TH-LANDED: no control run, no overwrite attempted; changed: %s", changed);
		return;
	}
	if (goal->has_name) {
		want++;
		got += name_ok;
		snprintf(goals, sizeof(goals), "name %s", name_result);
	}
	if (goal->has_function) {
		want++;
		got += goal_field(goals, sizeof(goals), value(after, "function"), "function",
				  goal->function);
	}
#if TH_ATK_HAS_DATA
	if (goal->has_data) {
		want++;
		got += goal_field(goals, sizeof(goals), value(after, "data"), "data", goal->data);
	}
#endif
	if (goal->has_next) {
		want++;
		got += goal_field(goals, sizeof(goals), value(after, "entry.next"), "entry.next",
				  goal->next);
	}
	if (goal->has_pprev) {
		want++;
		got += goal_field(goals, sizeof(goals), value(after, "entry.pprev"), "entry.pprev",
				  goal->pprev);
	}
	th_emit("TH-LANDED: %s %s; changed: %s", got == want ? "yes" : got ? "partial" : "no", goals,
		changed);
}

static uintptr_t ring_value(const void *snap, const char *label)
{
	return field_value(snap, label);
}

void th_report_landed(const struct packet_ring *ring, const struct th_ring_snapshot *before,
		      const struct th_goal *goal)
{
	struct th_ring_snapshot after;
	char changed[300] = "";
	size_t len;
	int padding = 0, beyond = 0;

	th_ring_snapshot(ring, &after);
	for (size_t i = 0; i < sizeof(ring_fields) / sizeof(ring_fields[0]); i++) {
		const struct ring_field *f = &ring_fields[i];

		if (memcmp(before->bytes + f->off, after.bytes + f->off, f->size)) {
			len = strlen(changed);
			snprintf(changed + len, sizeof(changed) - len, "%s%s", len ? " " : "",
				 f->label);
		}
	}
	/* Bytes no field covers (padding), and past the end of the object. */
	for (size_t b = 0; b < sizeof(struct packet_ring); b++) {
		int in_field = 0;

		for (size_t i = 0; i < sizeof(ring_fields) / sizeof(ring_fields[0]); i++)
			if (b >= ring_fields[i].off && b < ring_fields[i].off + ring_fields[i].size)
				in_field = 1;
		if (!in_field && before->bytes[b] != after.bytes[b])
			padding = 1;
	}
	for (size_t b = sizeof(struct packet_ring); b < sizeof(after.bytes); b++)
		if (before->bytes[b] != after.bytes[b])
			beyond = 1;
	len = strlen(changed);
	if (padding)
		snprintf(changed + len, sizeof(changed) - len, "%spadding", len ? " " : "");
	len = strlen(changed);
	if (beyond)
		snprintf(changed + len, sizeof(changed) - len, "%spast-the-object", len ? " " : "");
	if (!changed[0])
		snprintf(changed, sizeof(changed), "nothing");

	{
		const struct ring_field *f = field_by_label("name");
		int ok = goal->has_name && !memcmp(after.bytes + f->off, goal->name, goal->name_len);

		th_goal_landed(goal, changed, ok ? "ok (planted bytes)" : "missed (planted bytes differ)",
			       ok, ring_value, &after);
	}
}

/* ---- targets inside CFI's reach ------------------------------------------------------ */

/*
 * kernel/sched/core.c (v4.14) try_to_wake_up(p, TASK_NORMAL, 0), what
 * decides its effect: raw_spin_lock_irqsave(&p->pi_lock) (a write into *p:
 * a stray p faults here), then `if (!(p->state & state)) goto out;`, then
 * ttwu_do_wakeup()'s p->state = TASK_RUNNING.
 */
static int try_to_wake_up(struct task_struct *p, long *was)
{
	int woken = 0;

	while (__atomic_exchange_n(&p->pi_lock, 1, __ATOMIC_ACQUIRE))
		;
	*was = p->state;
	if (p->state & TASK_NORMAL) {
		p->state = TASK_RUNNING;
		woken = 1;
	}
	__atomic_store_n(&p->pi_lock, 0, __ATOMIC_RELEASE);
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	long was;

	return try_to_wake_up(p, &was);
}

static void process_timeout_wake(struct task_struct *task, const char *how)
{
	long before;
	int woken = try_to_wake_up(task, &before);	/* wake_up_process(task) */

	th_target_hits++;
	th_emit("TH-TARGET: name=process_timeout chosen=%d task=%p (%s) state %ld -> %ld: %s",
		aimed_at("process_timeout") && th_intent.kind == TH_INTENT_TASK &&
			(uintptr_t)task == th_intent.value && woken,
		(void *)task, how, before, task->state, woken ? "woken" : "not sleeping: nothing to wake");
}

/* The subsystem's own timer, as schedule_timeout() sets it up (never armed
 * here): what makes process_timeout an address-taken timer callback of the
 * image, as it is in a kernel. */
#if defined(TH_ATK_MODERN)
void process_timeout(struct timer_list *t)
{
	struct process_timer *timeout = from_timer(timeout, t, timer);

	process_timeout_wake(timeout->task, "from_timer(timeout, t, timer)->task");
}

__attribute__((used)) static struct process_timer schedule_timeout_boot = {
	.timer = { .function = process_timeout }, .task = &idle_task,
};
#else
void process_timeout(unsigned long data)
{
	process_timeout_wake((struct task_struct *)data, ".data");
}

__attribute__((used)) static struct timer_list schedule_timeout_boot = {
	.function = process_timeout, .data = (unsigned long)&idle_task,
};
#endif

/* Default visibility: exported, like EXPORT_SYMBOL, so the image keeps it
 * (the attack binaries link with --export-dynamic) without taking its
 * address. Nothing in the image calls it. */
__attribute__((visibility("default"), noinline)) void write_cr4_direct(unsigned long val)
{
	unsigned long old = th_read_cr4();

	th_mov_to_cr4(val);	/* as write_cr4: native_write_cr4()'s one mov */
	th_target_hits++;
	th_emit("TH-TARGET: name=write_cr4_direct chosen=%d val=0x%lx",
		th_chose_value("write_cr4_direct", val), val);
	th_emit("TH-NOTE: CR4 0x%lx -> 0x%lx: SMEP %s SMAP %s", old, val,
		val & X86_CR4_SMEP ? "on" : "off", val & X86_CR4_SMAP ? "on" : "off");
}


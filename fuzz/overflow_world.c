/* SPDX-License-Identifier: MIT */
/*
 * The victim world (overflow_world.h): attacks/victim.c and attacks/slab.c
 * compiled here, unchanged, with every global they define placed in the
 * world's sections. The harness's own state (the pristine copy, the leak
 * table, the objects of an execution) is defined before the pragma, outside
 * the world: no planted pointer can reach it.
 */
#include "overflow_world.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "attacks/victim.h"
#include "overflow_drive.h"
#include "overflow_traps.h"

/* ---- harness side (not in the world) ---------------------------------------- */

#define TH_FZ_WORLD_MAX	(64 * 1024)

extern char __start_th_world_data[], __stop_th_world_data[];
extern char __start_th_world_bss[], __stop_th_world_bss[];

static unsigned char pristine_data[TH_FZ_WORLD_MAX], pristine_bss[TH_FZ_WORLD_MAX];
static size_t data_size, bss_size;
/* The part of th_world_bss made read-only (not restored): [ro_lo, ro_hi). */
static uintptr_t ro_lo, ro_hi;
static struct th_fz_leak_entry leaks[TH_FZ_LEAK_COUNT];
/* The objects every run starts with, made once and kept in the pristine
 * copy (objects_once), or made again each run (under ASan: the slab's
 * poisoning is in its shadow, which the copy does not restore). */
static struct th_fz_objects objects;
static int objects_once;
static struct th_fz_priv priv_initial;
static struct th_fz_ring_layout ring_layout;

/* ---- the world ------------------------------------------------------------------ */

#pragma clang section bss = "th_world_bss" data = "th_world_data"
/* External linkage: clang emits a TU's globals in definition order, so these
 * open and close the TU's part of each section (checked at start-up). */
__attribute__((used)) char th_fz_guard_lo_data[TH_FZ_WORLD_MARGIN] = { 1 };
__attribute__((used)) char th_fz_guard_lo_bss[TH_FZ_WORLD_MARGIN] = { 0 };

#include "attacks/slab.c"
#include "attacks/victim.c"

/* The wheel of simulated CPU 0. */
struct timer_base th_fz_wheel = { 0 };

__attribute__((used)) char th_fz_guard_hi_data[TH_FZ_WORLD_MARGIN] = { 1 };
__attribute__((used)) char th_fz_guard_hi_bss[TH_FZ_WORLD_MARGIN] = { 0 };
#pragma clang section bss = "" data = ""

/* ---- copying the world ------------------------------------------------------------ */

/* Under ASan the slab's memory is poisoned (KASAN model): the copy must not
 * be instrumented, nor be a memcpy the runtime intercepts. */
__attribute__((no_sanitize("address"))) static void copy_raw(void *dst, const void *src, size_t n)
{
#if defined(__has_feature) && __has_feature(address_sanitizer)
	volatile unsigned long *d = dst;
	const volatile unsigned long *s = src;

	for (size_t i = 0; i < n / sizeof(long); i++)
		d[i] = s[i];
	for (size_t i = n & ~(sizeof(long) - 1); i < n; i++)
		((volatile unsigned char *)dst)[i] = ((const volatile unsigned char *)src)[i];
#else
	memcpy(dst, src, n);
#endif
}

void th_fz_world_bounds(uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t a = (uintptr_t)__start_th_world_data, b = (uintptr_t)__start_th_world_bss;

	*lo = a < b ? a : b;
	a = (uintptr_t)__stop_th_world_data;
	b = (uintptr_t)__stop_th_world_bss;
	*hi = a > b ? a : b;
}

static int in_section(uintptr_t p, size_t n, const char *start, const char *stop)
{
	return p >= (uintptr_t)start && n <= (uintptr_t)stop - (uintptr_t)start &&
	       p - (uintptr_t)start <= (uintptr_t)stop - (uintptr_t)start - n;
}

int th_fz_world_contains(uintptr_t p, size_t n)
{
	return in_section(p, n, __start_th_world_data, __stop_th_world_data) ||
	       in_section(p, n, __start_th_world_bss, __stop_th_world_bss);
}

int th_fz_world_inside(uintptr_t p)
{
	return p >= TH_FZ_WORLD_MARGIN && th_fz_world_contains(p - TH_FZ_WORLD_MARGIN, 2 * TH_FZ_WORLD_MARGIN);
}

void th_fz_world_slab(uintptr_t *first, size_t *stride, size_t *nslots)
{
	*first = (uintptr_t)kmalloc_128.mem;
	*stride = th_slab_stride();
	*nslots = TH_KMALLOC_SLOTS;
}

/* [addr - margin, addr + size + margin) inside one world section? */
static int check_margin(const char *name, uintptr_t addr, size_t size, char *err, size_t n)
{
	if (addr >= TH_FZ_WORLD_MARGIN &&
	    th_fz_world_contains(addr - TH_FZ_WORLD_MARGIN, size + 2 * TH_FZ_WORLD_MARGIN))
		return 0;
	snprintf(err, n,
		 "victim world: %s (%p, %zu bytes) is not %u bytes inside th_world_data [%p, %p) "
		 "or th_world_bss [%p, %p): a planted pointer could leave the world",
		 name, (void *)addr, size, TH_FZ_WORLD_MARGIN, (void *)__start_th_world_data,
		 (void *)__stop_th_world_data, (void *)__start_th_world_bss,
		 (void *)__stop_th_world_bss);
	return -1;
}

/* ---- leak table -------------------------------------------------------------------- */

static void set_leak(enum th_fz_leak i, const char *name, uintptr_t addr, size_t size, int code)
{
	leaks[i] = (struct th_fz_leak_entry){ name, addr, size, code };
}

static void leaks_static(void)
{
	/* The wheel (the timer's lists; another family's lists replace it),
	 * the family's entries (its victim's callbacks and objects), then the
	 * targets and objects every world has (attacks/victim.h). */
	set_leak(TH_FZ_LEAK_WHEEL, "timer_base", (uintptr_t)&th_fz_wheel, sizeof(th_fz_wheel), 0);
	th_fz_family_leaks(set_leak);
	set_leak(TH_FZ_LEAK_WRITE_CR4, "write_cr4", (uintptr_t)&write_cr4, 0, 1);
	set_leak(TH_FZ_LEAK_COMMIT_CREDS, "commit_creds", (uintptr_t)&commit_creds, 0, 1);
	set_leak(TH_FZ_LEAK_USERMODEHELPER, "call_usermodehelper", (uintptr_t)&call_usermodehelper, 0, 1);
	set_leak(TH_FZ_LEAK_SIM_CPU, "sim_cpu", (uintptr_t)&sim_cpu, sizeof(sim_cpu), 0);
	set_leak(TH_FZ_LEAK_CRED, "current_cred", (uintptr_t)&current_cred, sizeof(current_cred), 0);
	set_leak(TH_FZ_LEAK_PROCESS_TIMEOUT, "process_timeout", (uintptr_t)&process_timeout, 0, 1);
	set_leak(TH_FZ_LEAK_RING_VALUE, "ring-value", 0, 0, 0);
	set_leak(TH_FZ_LEAK_TASK, "attacker_task", (uintptr_t)&attacker_task, sizeof(attacker_task), 0);
}

int th_fz_world_is_entry(uintptr_t v)
{
	for (int i = 0; i < TH_FZ_LEAK_COUNT; i++)
		if (leaks[i].code && leaks[i].addr == v)
			return 1;
	return 0;
}

const struct th_fz_leak_entry *th_fz_world_leaks(void)
{
	return leaks;
}

/* ---- set-up and per-execution reset ---------------------------------------------- */

/*
 * The wheel's th_fast_bases_ (timer_core/base.c: 2 MiB, indexed by a timer's
 * CPU field unchecked, as per_cpu() indexes __per_cpu_offset[]) is too big
 * to restore per run, and only its first TH_NR_CPUS entries are ever set:
 * its pages past the one that holds them are made read-only once set up (a
 * wild write there faults, is caught, and is a CRASHED run), the rest is
 * restored. (From the page after its first page, as it was, 4 KB more of
 * zeros were restored every run.)
 */
static int protect_fast_bases(char *err, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = th_fz_elf_object_size("th_fast_bases_");	/* with ASan's redzone */
	uintptr_t lo = (uintptr_t)th_fast_bases_;
	uintptr_t hi = lo + (size > sizeof(th_fast_bases_) ? size : sizeof(th_fast_bases_));

	/* past the page of its last entry that is ever set */
	lo = (lo + TH_NR_CPUS * sizeof(th_fast_bases_[0]) + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	hi &= ~((uintptr_t)page - 1);
	if (hi <= lo || lo < (uintptr_t)__start_th_world_bss || hi > (uintptr_t)__stop_th_world_bss)
		return 0;
	for (uintptr_t p = lo; p < (uintptr_t)th_fast_bases_ + sizeof(th_fast_bases_); p += sizeof(uintptr_t))
		if (*(const uintptr_t *)p) {
			snprintf(err, n, "victim world: th_fast_bases_ has an entry set past its first page");
			return -1;
		}
	if (mprotect((void *)lo, hi - lo, PROT_READ)) {
		snprintf(err, n, "victim world: cannot make th_fast_bases_ read-only");
		return -1;
	}
	ro_lo = lo;
	ro_hi = hi;
	return 0;
}

/* The bss to or from its pristine copy, the read-only part skipped. */
static void copy_bss(unsigned char *copy, int restore)
{
	uintptr_t start = (uintptr_t)__start_th_world_bss, stop = (uintptr_t)__stop_th_world_bss;
	size_t head = ro_hi ? ro_lo - start : bss_size, tail = ro_hi ? stop - ro_hi : 0;

	if (restore) {
		copy_raw((void *)start, copy, head);
		if (tail)
			copy_raw((void *)ro_hi, copy + head, tail);
	} else {
		copy_raw(copy, (void *)start, head);
		if (tail)
			copy_raw(copy + head, (void *)ro_hi, tail);
	}
}

#if !(defined(__has_feature) && __has_feature(address_sanitizer))
/* n bytes at a and b the same (no memcmp: libFuzzer hooks it). */
static int same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/* The bss (but its read-only part) as copy holds it? */
static int same_bss(const unsigned char *copy)
{
	uintptr_t start = (uintptr_t)__start_th_world_bss, stop = (uintptr_t)__stop_th_world_bss;
	size_t head = ro_hi ? ro_lo - start : bss_size, tail = ro_hi ? stop - ro_hi : 0;

	return same_bytes((const void *)start, copy, head) &&
	       (!tail || same_bytes((const void *)ro_hi, copy + head, tail));
}
#endif

int th_fz_world_init(char *err, size_t n)
{
	data_size = (size_t)(__stop_th_world_data - __start_th_world_data);
	bss_size = (size_t)(__stop_th_world_bss - __start_th_world_bss);
	if (th_base_init(&th_fz_wheel, 0, 1000, TH_INITIAL_JIFFIES(1000)) || th_set_cpu(0)) {
		snprintf(err, n, "victim world: cannot set up the timer wheel");
		return -1;
	}
	/* debugobjects keeps a calloc'd table, outside the world: off. */
	th_debugobj_enable(false);
	th_warn_set_count_only(true);	/* WARNs counted, no text made (no dladdr()) */
	leaks_static();
	for (int i = 0; i < TH_FZ_LEAK_COUNT; i++)
		if (!leaks[i].code && leaks[i].addr &&
		    check_margin(leaks[i].name, leaks[i].addr, leaks[i].size, err, n))
			return -1;
	/* The slab as a whole: the rings and the msg are slots of it. */
	if (check_margin("kmalloc-128 slab", (uintptr_t)kmalloc_128.mem, sizeof(kmalloc_128.mem), err,
			 n))
		return -1;
	priv_initial.cr4 = th_read_cr4();
	priv_initial.uid = current_cred.uid;
	priv_initial.gid = current_cred.gid;
	priv_initial.euid = current_cred.euid;
	th_fz_family_layout(&ring_layout);
	if (protect_fast_bases(err, n))
		return -1;
	if (data_size > sizeof(pristine_data) || bss_size - (ro_hi - ro_lo) > sizeof(pristine_bss)) {
		snprintf(err, n, "victim world: sections of %zu and %zu bytes (%zu read-only) exceed %u",
			 data_size, bss_size, (size_t)(ro_hi - ro_lo), TH_FZ_WORLD_MAX);
		return -1;
	}
	copy_raw(pristine_data, __start_th_world_data, data_size);
	copy_bss(pristine_bss, 0);
#if !(defined(__has_feature) && __has_feature(address_sanitizer))
	/*
	 * The family's objects (th_fz_family_begin()) are the same every run,
	 * made from the same world: made once, the copy taken after them, a
	 * run only restores it. Checked here: made again from the copy, they
	 * are at the same addresses and leave the world byte for byte as the
	 * copy holds it; else they are made every run, as before.
	 */
	if (th_fz_family_begin(&objects) == 0) {
		static unsigned char again_data[TH_FZ_WORLD_MAX], again_bss[TH_FZ_WORLD_MAX];
		struct th_fz_objects o2;

		copy_raw(again_data, __start_th_world_data, data_size);
		copy_bss(again_bss, 0);
		copy_raw(__start_th_world_data, pristine_data, data_size);
		copy_bss(pristine_bss, 1);
		if (th_fz_family_begin(&o2) == 0 && o2.msg == objects.msg && o2.ring == objects.ring &&
		    o2.ring2 == objects.ring2 && same_bytes(__start_th_world_data, again_data, data_size) &&
		    same_bss(again_bss)) {
			copy_raw(pristine_data, __start_th_world_data, data_size);
			copy_bss(pristine_bss, 0);
			objects_once = 1;
		}
	}
	copy_raw(__start_th_world_data, pristine_data, data_size);
	copy_bss(pristine_bss, 1);
#endif
	return 0;
}

int th_fz_world_begin(struct th_fz_objects *o)
{
	copy_raw(__start_th_world_data, pristine_data, data_size);
	copy_bss(pristine_bss, 1);
	/* CR4 is not in the world (victim.h: a register, its own read-only
	 * page): only a write_cr4() of the last run changed it. */
	th_cpu_reset();
	/* The family's objects: the slab hands out slots 0, 1, 2 in order
	 * (slab.h): the msg before the victim's object, another after it;
	 * in the copy already (objects_once), else made now. */
	if (objects_once)
		*o = objects;
	else if (th_fz_family_begin(o))
		return -1;
	leaks[TH_FZ_LEAK_RING].addr = (uintptr_t)o->ring;
	leaks[TH_FZ_LEAK_MSG].addr = (uintptr_t)o->msg;
	leaks[TH_FZ_LEAK_RING2].addr = (uintptr_t)o->ring2;
	return 0;
}

void th_fz_world_priv(struct th_fz_priv *now)
{
	struct task_struct task;
	struct cred cred;
	const void *c = &current_cred;

	/* The credentials the attacker's task runs with: task->cred
	 * (include/linux/cred.h current_cred()), current_cred unless something
	 * replaced the pointer (commit_creds() on the attacker's task; a wild
	 * write), read only where the world holds a whole cred. */
	th_peek(&task, &attacker_task, sizeof(task));
	if (th_fz_world_contains((uintptr_t)task.cred, sizeof(cred)))
		c = task.cred;
	th_peek(&cred, c, sizeof(cred));
	now->cr4 = th_read_cr4();
	now->uid = cred.uid;
	now->gid = cred.gid;
	now->euid = cred.euid;
}

const struct th_fz_priv *th_fz_world_priv_initial(void)
{
	return &priv_initial;
}

const struct th_fz_ring_layout *th_fz_ring_layout(void)
{
	return &ring_layout;
}

uintptr_t th_fz_world_legit_fn(void)
{
	return leaks[TH_FZ_LEAK_RETIRE].addr;
}

void th_fz_world_attacker_task(struct th_fz_task *t)
{
	struct task_struct task;

	th_peek(&task, &attacker_task, sizeof(task));
	t->state = task.state;
	t->real_cred = (uintptr_t)task.real_cred;
	t->cred = (uintptr_t)task.cred;
}

void th_fz_world_attacker_sleeps(void)
{
	/* kernel/time/hrtimer.c do_nanosleep(): set_current_state(TASK_INTERRUPTIBLE)
	 * before it schedules; the timer's wake-up (or the context switch
	 * after the softirq, victim.c th_schedule_after_softirq()) makes it
	 * TASK_RUNNING again. */
	attacker_task.state = TASK_INTERRUPTIBLE;
}

/* ---- what every family's world writes through alike ---------------------------------- */

/* The slab neighbour's bug (attacks/victim.h msg_store()): the same msg_buf
 * in every family's world. */
uintptr_t th_fz_world_msg_store(const struct th_fz_objects *o, const void *p, size_t n)
{
	msg_store(o->msg, p, n);
	return (uintptr_t)((struct msg_buf *)o->msg)->data;
}

/* setxattr()-like spray (attacks/victim.h spray_alloc()). */
uintptr_t th_fz_world_spray(const void *p, size_t n)
{
	return (uintptr_t)spray_alloc(p, n);
}

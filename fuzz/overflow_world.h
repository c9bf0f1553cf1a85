/* SPDX-License-Identifier: MIT */
/*
 * The overflow target's victim world: the project's own victim
 * (attacks/victim.c, attacks/slab.c) and wheel (timer_core/base.c and the
 * variant's layout), run in the fuzzer's own process.
 *
 * The victim's bugs are write-what-where primitives, so its memory is kept
 * apart from the engine's: every global of victim.c, slab.c and base.c, and
 * the wheel itself, lives in two sections of their own (th_world_data,
 * th_world_bss; compiled in overflow_world*.c, unchanged, under
 * `#pragma clang section`), between guard arrays. At start-up the world
 * checks that every object the attacker can name sits at least
 * TH_FZ_WORLD_MARGIN bytes inside those sections (else the target refuses
 * to run), and before each execution it is restored byte for byte from a
 * pristine copy taken at start-up.
 *
 * Addresses enter an input only through the leak table below (the attacker
 * with an info leak): an index and a bounded addend, so a planted pointer
 * always lands inside the world (objects) or in read-only code (functions).
 */
#ifndef TH_FUZZ_OVERFLOW_WORLD_H
#define TH_FUZZ_OVERFLOW_WORLD_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of world around every leak-table object: more than the largest
 * addend plus the largest reach of a write through a planted pointer (a
 * forged 4.14 timer_list: 48 bytes). */
#define TH_FZ_WORLD_MARGIN	256u
/* Addends of object relocations are clamped to [-TH_FZ_ADDEND_MAX, size +
 * TH_FZ_ADDEND_MAX); code relocations are function entries. */
#define TH_FZ_ADDEND_MAX	128

/* The leak table: what the attacker knows the address of. */
enum th_fz_leak {
	TH_FZ_LEAK_WRITE_CR4,		/* code */
	TH_FZ_LEAK_COMMIT_CREDS,	/* commit_creds (kernel/cred.c) */
	TH_FZ_LEAK_USERMODEHELPER,	/* call_usermodehelper (kernel/umh.c) */
	TH_FZ_LEAK_RETIRE,		/* the legitimate callback */
	TH_FZ_LEAK_FORCE_CLOSE,
	TH_FZ_LEAK_SIM_CPU,		/* objects */
	TH_FZ_LEAK_CRED,
	TH_FZ_LEAK_RING,		/* the victim's ring (slot 1) */
	TH_FZ_LEAK_MSG,			/* the msg_buf before it (slot 0) */
	TH_FZ_LEAK_RING2,		/* another ring (slot 2), never armed */
	TH_FZ_LEAK_WHEEL,		/* the timer base (its buckets) */
	TH_FZ_LEAK_PROCESS_TIMEOUT,	/* process_timeout (kernel/time/timer.c):
					 * another subsystem's timer callback, of the
					 * call site's type (code) */
	TH_FZ_LEAK_RING_VALUE,		/* a value read from the ring (a read leak) */
	TH_FZ_LEAK_TASK,		/* the attacker's own task_struct (object): what
					 * process_timeout() wakes when planted */
	TH_FZ_LEAK_COUNT
};

struct th_fz_leak_entry {
	const char *name;	/* "write_cr4", "ring", ... */
	uintptr_t addr;		/* 0 for TH_FZ_LEAK_RING_VALUE */
	size_t size;		/* objects: bytes; code: 0 */
	int code;
};

/* The objects of one execution, created by th_fz_world_begin(): the
 * victim's object (the timer world's ring, the tasklet world's neighbour),
 * the msg_buf in the slot before it, another victim object after it. */
struct th_fz_objects {
	void *ring, *msg, *ring2;
};

/*
 * The API family this world's victim is (results/api.def; one world per
 * family: overflow_world.c the timer's, fuzz/<api>/ every other's), and the
 * words the oracle names its steps and narrates its chains with. The chain
 * IDs' HOW of a target that ran through the victim's own callback slot is
 * own_how, through one a planted list pointer led to forged_how.
 */
struct th_fz_family {
	const char *api;		/* "timer", "tasklet" */
	const char *dispatch;		/* the function whose indirect call CFI guards */
	const char *own_how;		/* "RING_TIMER", "NEIGHBOUR_TASKLET" */
	const char *forged_how;		/* "FORGED_TIMER", "FORGED_TASKLET" */
	const char *own_text;		/* "the ring's own retire_blk_timer" */
	const char *forged_text;	/* "a forged timer_list" */
	const char *object;		/* "ring", "neighbour": how addresses in it are named */
	const char *force_close;	/* the same-class target: "ring_force_close" */
	const char *arm_text;		/* "victim arms the timer" */
	const char *run_text;		/* "run the wheel" */
	const char *list_text;		/* who writes through planted list pointers */
	/* The object's field at byte off, for the narration. */
	const char *(*field)(size_t off);
	/* The call the dispatch is about to make (the running callback slot),
	 * read without instrumentation: -fsanitize=function's target. */
	int (*running_fn)(uintptr_t *fn);
};
const struct th_fz_family *th_fz_world_family(void);

/*
 * The victim's calls an attacker's program makes (overflow_drive.h's ops),
 * on this execution's objects. Each write returns where its bytes went (0:
 * this world has no such bug: the op does nothing). run: the attacker
 * sleeps, the softirq runs what is due by jiffies + j, the switch to the
 * attacker after it (th_schedule_after_softirq()); its count of callbacks,
 * -1 refused. technique: the attack technique an op's write is
 * (attacks/registry.h), NULL when the op writes nothing in this world.
 */
long th_fz_world_arm(const struct th_fz_objects *o);
long th_fz_world_run(unsigned long j);
long th_fz_world_mod(const struct th_fz_objects *o, unsigned long j);
uintptr_t th_fz_world_set_name(const struct th_fz_objects *o, const void *p, size_t n);
uintptr_t th_fz_world_set_bytes(const struct th_fz_objects *o, size_t at, const uint8_t *p, size_t n);
uintptr_t th_fz_world_set_name_str(const struct th_fz_objects *o, const char *s);
uintptr_t th_fz_world_msg_store(const struct th_fz_objects *o, const void *p, size_t n);
void th_fz_world_release(const struct th_fz_objects *o);
uintptr_t th_fz_world_spray(const void *p, size_t n);
const char *th_fz_world_technique(int op_kind);

/*
 * Set up the wheel (CPU 0, HZ 1000), switch debugobjects off and WARN
 * lines to quiet, check the margins, take the pristine copy.
 * Return: 0, or -1 with err saying which object lacks its margin.
 */
int th_fz_world_init(char *err, size_t n);

/* Restore the world and create msg (slot 0), ring (slot 1), ring2 (slot 2).
 * Return: 0, or -1 if the slab refused (a harness error). */
int th_fz_world_begin(struct th_fz_objects *o);

/* The leak table of this execution (objects as created by th_fz_world_begin). */
const struct th_fz_leak_entry *th_fz_world_leaks(void);

/* Is p at least TH_FZ_WORLD_MARGIN bytes inside one of the world's
 * sections (a pointer the victim may follow and write near)? */
int th_fz_world_inside(uintptr_t p);
/* The slab: its first slot and the distance between slots. */
void th_fz_world_slab(uintptr_t *first, size_t *stride, size_t *nslots);
/* Is [p, p + n) inside the world's sections? */
int th_fz_world_contains(uintptr_t p, size_t n);
/* The world's sections, for the raw-mode filter and messages. */
void th_fz_world_bounds(uintptr_t *lo, uintptr_t *hi);

/* Is v the entry of a function of the leak table (a code pointer the
 * attacker can name)? */
int th_fz_world_is_entry(uintptr_t v);

/* The simulated privileged state, read without instrumentation: CR4 and
 * the attacker's own cred (attacks/victim.h current_cred). */
struct th_fz_priv {
	unsigned long cr4;
	unsigned int uid, gid, euid;
};
void th_fz_world_priv(struct th_fz_priv *now);
/* As it was in the pristine world. */
const struct th_fz_priv *th_fz_world_priv_initial(void);

/* Offsets of the ring's fields (the real layout: randstruct is not a fuzz
 * config), for the chain's narration. */
struct th_fz_ring_layout {
	size_t size, timer, timer_size, function, data, flags, owner_uid, closed, cur_block;
	int has_data;
};
const struct th_fz_ring_layout *th_fz_ring_layout(void);

/* The legitimate callback's address (what .function holds unattacked). */
uintptr_t th_fz_world_legit_fn(void);

/* The attacker's task as the victim left it (attacks/victim.h struct
 * task_struct): its state and the credentials it runs with, read without
 * instrumentation. */
struct th_fz_task {
	long state;
	uintptr_t real_cred, cred;
};
void th_fz_world_attacker_task(struct th_fz_task *t);

/* The attacker goes to sleep until its timer fires (TASK_INTERRUPTIBLE, as
 * schedule_timeout_interruptible() and do_nanosleep() set it before they
 * schedule): before each run of the wheel. */
void th_fz_world_attacker_sleeps(void);

/* ---- what each family's world provides ---------------------------------------------------
 * overflow_world.c is every world's: the sections, the pristine copy, the
 * slab, the privileged state, the targets of attacks/victim.h. A family
 * adds its victim (overflow_world_timer.c: af_packet's ring and the timer
 * wheel; fuzz/tasklet/: the tasklet neighbour and the softirq's lists):
 * the hooks below, th_fz_world_family() and the drive's ops above. */

typedef void th_fz_set_leak_fn(enum th_fz_leak i, const char *name, uintptr_t addr, size_t size,
			       int code);
/* Its leak-table entries: TH_FZ_LEAK_RETIRE (the legitimate callback),
 * FORCE_CLOSE (the same-class target), RING, MSG, RING2 (their sizes; the
 * addresses come from begin); WHEEL (the lists its dispatch walks) when
 * they are not the timer wheel's (overflow_world.c's th_fz_wheel). */
void th_fz_family_leaks(th_fz_set_leak_fn *set);
/* Its victim object's layout, filled at start-up. */
void th_fz_family_layout(struct th_fz_ring_layout *l);
/* Create this execution's objects in the restored world (slab slots 0, 1,
 * 2: msg, the victim's object, another). Return: 0, or -1 (the slab refused). */
int th_fz_family_begin(struct th_fz_objects *o);

#endif

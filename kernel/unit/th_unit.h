/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timerharness's test unit for a real kernel (LKDTM style: core.c holds the
 * table and the run, one file per attack family: func.c, list.c; the
 * victims in victims.c; the tasklet family, its victim and its run in
 * tasklet.c). One cell per boot, named by timerharness.cell=.
 *
 * The unit states facts, never verdicts: what it wrote and whether the write
 * landed, what call_timer_fn called and with what (from the kernel's own
 * trace_timer_expire_entry/exit points in kernel/time/timer.c), or what
 * tasklet_action_common called (trace_tasklet_entry/exit, kernel/softirq.c),
 * and the kernel state it reads afterwards. The host (kernel/console.c) decides the
 * outcome from those lines and the kernel's own (CFI failure, oops, RIP).
 * Every unit line carries the boot's timerharness.token=, random per boot.
 * It is on the kernel's command line, which the console also shows, so it
 * proves which boot a line came from and keeps out what never read it (a
 * stale log, another boot, a payload's bytes); it is no secret from code
 * running in this kernel, and no payload here prints.
 */
#ifndef TH_UNIT_H
#define TH_UNIT_H

#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/types.h>

__printf(1, 2) void th_say(const char *fmt, ...);

enum th_timing { TH_BEFORE_ARM, TH_PENDING };

/* A row of cells.h (kernel/cells.tsv); api: "timer", "tasklet". */
struct th_cell_def {
	const char *id, *technique, *timing, *payload, *api;
};

struct th_victim {
	const char *name;		/* "packet-ring", "neighbour" */
	const char *what;		/* one line: the struct and where the write starts */
	struct timer_list *timer;
	unsigned long legit;		/* the legitimate callback, read after setup */
	u8 *write_from;			/* the overflowed buffer's first byte written */
	size_t write_len;		/* bytes the technique writes from there */
	/* before-arm: the victim arms its timer now (mod_timer). */
	void (*arm)(struct th_victim *v);
	/* Optional: the container's own state after the run (same-class). */
	void (*report)(struct th_victim *v);
};

/* victims.c: 0 or -errno. */
int th_victim_neighbour(struct th_victim *v);
int th_victim_packet_ring(struct th_victim *v);
/* The same-class target (victims.c), found by name with kallsyms. */
void th_neighbour_release(struct timer_list *t);
/* For the packet ring: zero list pointers and expiry, as CVE-2017-7308's
 * exploit wrote them (its frame had no better values). */
bool th_victim_zeroes_list(const struct th_victim *v);

/* The attacker's image of the bytes it writes, from v->write_from. */
struct th_image {
	u8 bytes[128];
	size_t len;
	struct timer_list *t;		/* the timer inside bytes[] */
	/* The timer whose call is the attack's: the victim's (NULL), or a
	 * forged one the victim's entry.next points at (list:forged-timer). */
	struct timer_list *watch;
	unsigned long after;		/* the word right after the timer, if written */
	bool writes_after;
	const char *intent;		/* narration */
	char intent_buf[160];
};

/* The sleeper (core.c): a kthread running as uid 1000, asleep until woken. */
extern struct task_struct *th_sleeper;
int th_sleeper_wakeups(void);

/* func.c: .function payloads. 0 or -errno (a target the kernel lacks). */
int th_func_payload(const char *payload, struct th_victim *v, struct th_image *img);
/* native_write_cr4 and the like past their first instruction; 0: not one
 * this unit can size (func:mid-function). */
unsigned long th_past_first_insn(unsigned long fn);
/* func.c: func:data-address's data object (the sleeper's struct cred, a
 * heap object: non-executable from the start), for the timer and the
 * tasklet. */
unsigned long th_data_object(void);
/* list.c: list:* payloads (@pending: the timer is pending when the bytes
 * land). */
int th_list_payload(const char *payload, bool pending, struct th_victim *v, struct th_image *img);
/* After before-arm list:hlist-del's write and the victim's arm: the cred. */
void th_list_after_rearm(struct th_victim *v);
/* Pending list:hlist-del, at the victim's call (its detach has run): the
 * cred as it is then, said as a STATE line (the machine dies next). */
void th_list_at_call(void);
extern void *th_list_target;	/* where the planted pointer aims; NULL: none */

/* tasklet.c: a cell of the tasklet family (api tasklet), whole:
 * victim, write, tasklet_schedule(), what tasklet_action_common called.
 * 0 or -errno. */
int th_tasklet_run(const struct th_cell_def *c);
/* The tasklet same-class target (tasklet.c), found by name with kallsyms. */
void th_tasklet_force_close(struct tasklet_struct *t);

#endif

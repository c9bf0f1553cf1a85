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
struct cred current_cred = { .usage = 1, .uid = TH_USER_UID, .gid = TH_USER_UID,
			     .euid = TH_USER_UID };
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
		       offsetof(struct cred, euid) == offsetof(struct atk_cred, euid),
	       "attacker's mirror: cred");
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
const char *th_escape(char *dst, size_t n, const char *s, size_t max)
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

static int chose_value(const char *fn, unsigned long v)
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
	th_emit("TH-TARGET: name=write_cr4 chosen=%d val=0x%lx", chose_value("write_cr4", val), val);
	th_emit("TH-NOTE: CR4 0x%lx -> 0x%lx: SMEP %s SMAP %s", old, val,
		val & X86_CR4_SMEP ? "on" : "off", val & X86_CR4_SMAP ? "on" : "off");
}

void commit_creds_stub(struct cred *new)
{
	struct cred got = *new;
	unsigned int old_uid = current_cred.uid, old_euid = current_cred.euid;
	int chosen = aimed_at("commit_creds_stub") && th_intent.kind == TH_INTENT_CRED &&
		     got.usage == th_intent.cred.usage &&
		     got.uid == th_intent.cred.uid && got.gid == th_intent.cred.gid &&
		     got.euid == th_intent.cred.euid;

	th_target_hits++;
	th_emit("TH-TARGET: name=commit_creds_stub chosen=%d cred=%p usage=0x%x uid=%u gid=%u euid=%u",
		chosen, (void *)new, got.usage, got.uid, got.gid, got.euid);
	current_cred.uid = got.uid;
	current_cred.gid = got.gid;
	current_cred.euid = got.euid;
	th_emit("TH-NOTE: commit_creds: current uid %u -> %u, euid %u -> %u", old_uid, got.uid,
		old_euid, got.euid);
}

int call_usermodehelper_stub(const char *path)
{
	char got[sizeof(th_intent.string)], shown[4 * sizeof(got)];
	size_t i;
	int chosen;

	/* What a kernel would read: the string, bounded for the report. */
	for (i = 0; i + 1 < sizeof(got) && path[i]; i++)
		got[i] = path[i];
	got[i] = 0;
	chosen = aimed_at("call_usermodehelper_stub") && th_intent.kind == TH_INTENT_STRING &&
		 !strcmp(got, th_intent.string);
	th_target_hits++;
	th_emit("TH-TARGET: name=call_usermodehelper_stub chosen=%d path=%p \"%s\"", chosen,
		(const void *)path, th_escape(shown, sizeof(shown), got, sizeof(got)));
	return 0;
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
			th_escape(name, sizeof(name), ring->name, sizeof(ring->name)), argname, arg);
	} else if (aimed_at("neighbour_timer_fn")) {
		th_target_hits++;
		th_emit("TH-TARGET: name=neighbour_timer_fn chosen=%d %s=0x%lx (%s)",
			chose_value("neighbour_timer_fn", arg), argname, arg,
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
		chose_value("ring_force_close", arg),
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
		{ "commit_creds_stub", (uintptr_t)&commit_creds_stub },
		{ "call_usermodehelper_stub", (uintptr_t)&call_usermodehelper_stub },
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

/* The deferred call's layout is what puts its func/data over a ring's name:
 * the same distance in front of the timer in both structs. */
_Static_assert(offsetof(struct deferred_call, timer) == 16 &&
		       offsetof(struct deferred_call, data) == 8,
	       "deferred_call: func and data right before the timer");
#ifndef TH_RANDSTRUCT
_Static_assert(offsetof(struct packet_ring, retire_blk_timer) == offsetof(struct deferred_call, timer),
	       "from_timer(dc, &ring->retire_blk_timer, timer) lays func/data over ring->name");
#endif

static void deferred_call_run(struct deferred_call *dc, const char *how)
{
	th_emit("TH-NOTE: deferred_timer_fn: %s; running func 0x%lx (data 0x%lx)", how,
		(unsigned long)(uintptr_t)dc->func, dc->data);
	dc->func(dc->data);
}

/* The subsystem's own object, set up statically at boot (DEFINE_TIMER()'s
 * __TIMER_INITIALIZER: fields, no code): it is what makes its callback a
 * legitimate, address-taken timer callback of the image. Never armed here. */
static void deferred_flush(unsigned long data)
{
	(void)data;
}

#if defined(TH_ATK_MODERN)
void deferred_timer_fn(struct timer_list *t)
{
	struct deferred_call *dc = from_timer(dc, t, timer);

	deferred_call_run(dc, "from_timer() on the timer it got");
}

__attribute__((used)) static struct deferred_call deferred_boot = {
	.func = deferred_flush, .timer = { .function = deferred_timer_fn },
};
#elif defined(TH_ATK_TRANSITIONAL)
/* The rc3 convention, as ring_force_close: .data is the timer. */
void deferred_timer_fn(unsigned long data)
{
	struct deferred_call *dc = from_timer(dc, (struct timer_list *)data, timer);

	deferred_call_run(dc, "from_timer() on the timer in .data");
}

__attribute__((used)) static struct deferred_call deferred_boot = {
	.func = deferred_flush,
	.timer = { .function = deferred_timer_fn,
		   .data = (unsigned long)&deferred_boot.timer },
};
#else
/* 4.14: .data is the object itself. */
void deferred_timer_fn(unsigned long data)
{
	deferred_call_run((struct deferred_call *)data, ".data taken as its object");
}

__attribute__((used)) static struct deferred_call deferred_boot = {
	.func = deferred_flush,
	.timer = { .function = deferred_timer_fn, .data = (unsigned long)&deferred_boot },
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
		chose_value("write_cr4_direct", val), val);
	th_emit("TH-NOTE: CR4 0x%lx -> 0x%lx: SMEP %s SMAP %s", old, val,
		val & X86_CR4_SMEP ? "on" : "off", val & X86_CR4_SMAP ? "on" : "off");
}


/* SPDX-License-Identifier: MIT */
/*
 * Decoder and driver of the attacker's program (overflow_drive.h). Built
 * with coverage and comparison tracing: the fuzzer learns the format from
 * these branches. Nothing here compares an address (the oracle does, in
 * code built without tracing): a traced comparison would hand a victim
 * address to the engine's mutation dictionary, an info leak the attacker
 * does not have.
 */
#include "overflow_drive.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "attacks/attack.h"

#define OP_NAME_(id, name, tech) [TH_FZ_OP_##id] = name,
static const char *const op_names[TH_FZ_OP_COUNT] = { TH_FZ_OPS(OP_NAME_) };

const char *th_fz_op_name(enum th_fz_op_kind k)
{
	return k < TH_FZ_OP_COUNT ? op_names[k] : "?";
}

const char *th_fz_op_technique(enum th_fz_op_kind k)
{
	return th_fz_world_technique((int)k);
}

/* ---- decoding ---------------------------------------------------------------------- */

struct reader {
	const uint8_t *p, *end;
};

static int next(struct reader *r, uint8_t *v)
{
	if (r->p >= r->end)
		return 0;
	*v = *r->p++;
	return 1;
}

static int has_payload(enum th_fz_op_kind k)
{
	return k == TH_FZ_OP_NAME || k == TH_FZ_OP_MEMCPY || k == TH_FZ_OP_INDEX ||
	       k == TH_FZ_OP_STRCPY || k == TH_FZ_OP_NEIGHBOUR || k == TH_FZ_OP_SPRAY;
}

static void decode_payload(struct reader *r, struct th_fz_op *op, int no_leak)
{
	uint8_t n = 0, nrel = 0, pos, leak, add;
	size_t avail;

	next(r, &n);
	next(r, &nrel);
	nrel %= TH_FZ_MAX_RELOCS + 1;
	for (int i = 0; i < nrel; i++) {
		struct th_fz_reloc *rl = &op->reloc[op->nreloc];
		int clash = 0;

		if (!next(r, &pos) || !next(r, &leak) || !next(r, &add))
			break;
		for (int j = 0; j < op->nreloc; j++)
			if (op->reloc[j].pos == 8 * (pos % 32))
				clash = 1;
		if (clash || no_leak)
			continue;
		rl->pos = (uint8_t)(8 * (pos % 32));
		rl->leak = leak % TH_FZ_LEAK_COUNT;
		rl->addend = (int8_t)add % 32;
		op->nreloc++;
	}
	avail = (size_t)(r->end - r->p);
	op->n = n < avail ? n : avail;
	memcpy(op->bytes, r->p, op->n);
	memset(op->literal, 1, op->n);
	r->p += op->n;
	/* Relocations past the payload do not exist. */
	for (int j = 0; j < op->nreloc; j++)
		if ((size_t)op->reloc[j].pos + 8 > op->n)
			op->reloc[j--] = op->reloc[--op->nreloc];
	for (int j = 0; j < op->nreloc; j++)
		memset(op->literal + op->reloc[j].pos, 0, 8);
}

void th_fz_decode(const uint8_t *data, size_t size, int no_leak, struct th_fz_program *p)
{
	struct reader r = { data, data + size };
	uint8_t k;

	/* Every field but the payload's arrays past n and nreloc, which
	 * nothing reads (a STRCPY sets its NUL at bytes[n] when it runs): not
	 * the whole program (5 KB a run). The arrays come last in an op and
	 * the ops last in the program (overflow_drive.h). */
	memset(p, 0, offsetof(struct th_fz_program, op));
	p->no_leak = no_leak;
	while (p->nops < TH_FZ_MAX_OPS && next(&r, &k)) {
		struct th_fz_op *op = &p->op[p->nops++];

		memset(op, 0, offsetof(struct th_fz_op, bytes));
		op->kind = (enum th_fz_op_kind)(k % TH_FZ_OP_COUNT);
		if (op->kind == TH_FZ_OP_RUN || op->kind == TH_FZ_OP_MOD || op->kind == TH_FZ_OP_INDEX)
			next(&r, &op->arg);
		if (has_payload(op->kind))
			decode_payload(&r, op, no_leak);
	}
}

/* ---- relocation -------------------------------------------------------------------- */

static uintptr_t reloc_value(const struct th_fz_program *p, const struct th_fz_reloc *rl)
{
	const struct th_fz_leak_entry *e = &th_fz_world_leaks()[rl->leak];
	uintptr_t v;

	if (rl->leak == TH_FZ_LEAK_RING_VALUE) {
		/* What the attacker reads back from the ring now (its list
		 * pointers when pending): a value of the world, used as is. */
		th_peek(&v, (const unsigned char *)p->obj.ring + 8 * ((unsigned)abs(rl->addend) % 16), sizeof(v));
		return v;
	}
	if (e->code)
		return e->addr;	/* an entry: see overflow_drive.h */
	/* Objects: 8-byte steps (fields and timers are 8-aligned), clamped to
	 * [-TH_FZ_ADDEND_MAX, size + TH_FZ_ADDEND_MAX). */
	{
		long a = 8L * rl->addend, lo = -TH_FZ_ADDEND_MAX, hi = (long)e->size + TH_FZ_ADDEND_MAX - 8;

		a = a < lo ? lo : a > hi ? hi : a;
		return e->addr + (uintptr_t)(intptr_t)a;
	}
}

static void apply_relocs(const struct th_fz_program *p, struct th_fz_op *op)
{
	for (int j = 0; j < op->nreloc; j++) {
		struct th_fz_reloc *rl = &op->reloc[j];

		rl->value = reloc_value(p, rl);
		memcpy(op->bytes + rl->pos, &rl->value, sizeof(rl->value));
	}
}

/* ---- driving ----------------------------------------------------------------------- */

/*
 * Each op is a call of the victim's (overflow_world.h: the world of the
 * binary's API family says what it does there, and where its bytes went).
 * Every run is the attacker waiting for the softirq: it sleeps
 * (th_fz_world_attacker_sleeps()), the softirq runs what is due, then the
 * CPU switches from the idle task to the attacker its callback woke:
 * th_schedule_after_softirq() (attacks/victim.h), where the matrix's
 * trigger() (attacks/techniques.c) calls it. A CR4 that lost OSXSAVE or
 * OSFXSR faults there, at the next FPU use (an oops: CRASHED).
 */
static void do_op(struct th_fz_program *p, struct th_fz_op *op, int *armed)
{
	const struct th_fz_objects *o = &p->obj;
	size_t n;

	op->started = 1;
	apply_relocs(p, op);
	th_fz_filter_op(op);
	switch (op->kind) {
	case TH_FZ_OP_ARM:
		op->ret = th_fz_world_arm(o);
		*armed = 1;
		break;
	case TH_FZ_OP_RUN:
		op->ret = th_fz_world_run(op->arg % 80);
		break;
	case TH_FZ_OP_MOD:
		op->ret = th_fz_world_mod(o, op->arg % 80);
		*armed = 1;
		break;
	case TH_FZ_OP_NAME:
		n = op->n < TH_FZ_NAME_LEN ? op->n : TH_FZ_NAME_LEN;
		op->dest = th_fz_world_set_name(o, op->bytes, n);
		op->written = op->dest ? n : 0;
		break;
	case TH_FZ_OP_MEMCPY:
		op->dest = th_fz_world_set_name(o, op->bytes, op->n);
		op->written = op->dest ? op->n : 0;
		break;
	case TH_FZ_OP_INDEX:
		n = op->n < TH_FZ_INDEX_MAX ? op->n : TH_FZ_INDEX_MAX;
		op->dest = th_fz_world_set_bytes(o, op->arg, op->bytes, n);
		op->written = op->dest ? n : 0;
		break;
	case TH_FZ_OP_STRCPY:
		/* The string ends at the payload's first NUL, or gets one. */
		op->bytes[op->n] = 0;
		op->literal[op->n] = 1;
		op->dest = th_fz_world_set_name_str(o, (const char *)op->bytes);
		op->written = op->dest ? strlen((const char *)op->bytes) + 1 : 0;
		break;
	case TH_FZ_OP_NEIGHBOUR:
		op->dest = th_fz_world_msg_store(o, op->bytes, op->n);
		op->written = op->dest ? op->n : 0;
		break;
	case TH_FZ_OP_FREE:
		if (!p->freed)
			th_fz_world_release(o);
		p->freed = 1;
		break;
	case TH_FZ_OP_SPRAY:
		n = op->n < TH_FZ_SPRAY_MAX ? op->n : TH_FZ_SPRAY_MAX;
		if (!n) {
			n = 1;
			op->bytes[0] = 0;
			op->literal[0] = 1;
		}
		op->dest = th_fz_world_spray(op->bytes, n);
		op->written = op->dest ? n : 0;
		break;
	case TH_FZ_OP_COUNT:
		break;
	}
	if (op->written)
		op->neutralised = th_fz_check_written(op);
	op->ran = 1;
}

void th_fz_drive(struct th_fz_program *p, th_fz_op_hook *after_op)
{
	int armed = 0;

	for (int i = 0; i < p->nops; i++) {
		do_op(p, &p->op[i], &armed);
		if (after_op)
			after_op(p, i);
	}
	if (!armed) {
		/* The victim arms its timer (schedules its tasklet) itself
		 * (packet_set_ring()): an attacker who never waited for it
		 * wrote before the arm. */
		th_fz_world_arm(&p->obj);
		p->implicit_arm = 1;
	}
	p->fired = th_fz_world_run(TH_FZ_FINAL_RUN);
	if (after_op)
		after_op(p, p->nops);
}

/* ---- the exact goal ---------------------------------------------------------------- */

unsigned long th_fz_goal_cr4_value(void)
{
	return TH_CR4_CHOSEN;
}

int th_fz_goal_cr4(unsigned long val)
{
	return val == TH_CR4_CHOSEN;
}

/* SPDX-License-Identifier: MIT */
/*
 * The code side of the binary reader (binread.h): capstone decodes the
 * function, a small symbolic executor follows its paths and finds which
 * conditions on the call target lead to a trap and which to the call.
 */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binread_internal.h"

/* Exploration limits: a function whose paths exceed them is reported as
 * incomplete (th_func_sites.complete = 0), never guessed. */
#define MAX_PATHS	512
#define MAX_PATH_STEPS	4096
#define MAX_TOTAL_STEPS	400000
#define MAX_CONDS	48
/* How often one branch may appear on one path: loops are cut there. */
#define MAX_BRANCH_VISITS 2

/* ---- decoded instructions ------------------------------------------------------------ */

struct dop {
	uint8_t type;		/* X86_OP_REG, X86_OP_IMM, X86_OP_MEM */
	uint8_t size;		/* bytes */
	unsigned reg;
	int64_t imm;
	unsigned seg, base, index;
	int scale;
	int64_t disp;
};

struct dinsn {
	uint64_t addr;
	uint16_t size;
	unsigned id;
	uint8_t nops;
	struct dop ops[4];
	uint8_t nwr;
	unsigned wr[12];	/* registers written (capstone ids) */
	int flags_written;
	char text[48];
};

/* ---- expressions ------------------------------------------------------------------------ */

enum xop {
	X_CONST,	/* k */
	X_PCREL,	/* k: a file address (rip-relative): + bias at run time */
	X_ENTRY,	/* k: a register's value at the function's entry */
	X_FRESH,	/* k: a value this analysis cannot know (after a call, ...) */
	X_LOAD,		/* w bits at address a */
	X_ADD, X_SUB, X_AND, X_OR, X_XOR, X_SHL, X_SHR, X_SAR, X_ROL, X_ROR,
	X_NEG, X_NOT,
	X_ZX,		/* a truncated to w bits (zero-extended) */
	X_SX,		/* a (k bits) sign-extended to w bits */
};

/* What a node is built from, known when it is made (so no walk over a
 * shared subexpression is ever repeated): */
#define XF_PCREL	1	/* a pc-relative address somewhere in it */
#define XF_VAR		2	/* an entry value, a fresh value or a load in it */
#define XF_TABLE	4	/* a load from a pc-relative address plus a variable */

struct xnode {
	uint8_t op, w, fl;
	int32_t a, b;
	uint64_t k;
};

/* Scratch of the walks over the arena: a stamp per node (visited in walk
 * number gen) and the value eval() memoised there. Reached through a
 * pointer, so a const arena can still be walked. */
struct xscratch {
	uint32_t *stamp;
	uint64_t *val;
	int32_t *stack;
	size_t cap;
	uint32_t gen;
};

/*
 * Expressions are hash-consed: mk() returns the existing node for an
 * (op, w, a, b, k) already made, so two expressions are equal exactly when
 * their indices are, and a shared subexpression is one node. A node's
 * children are always older (smaller indices) than the node.
 */
struct arena {
	struct xnode *v;
	size_t n, cap;
	int32_t *slot;		/* open addressing: node index + 1, 0 empty */
	size_t nslot;		/* a power of two, >= 2 * cap */
	uint64_t fresh;
	bool oom;
	struct xscratch *sc;
};

enum fkind { F_UNKNOWN, F_SUB, F_ADD, F_LOGIC };

struct flags {
	uint8_t kind, w;
	int32_t a, b, r;
};

/* Flags this function did not set by an instruction it models: at its
 * entry, after a call, after anything else that writes them. Their
 * operands name no node, so no branch on them is a branch on a target. */
static const struct flags no_flags = { F_UNKNOWN, 0, -1, -1, -1 };

struct cond {
	uint64_t at;		/* the branch */
	unsigned jcc;		/* capstone id */
	bool taken;
	struct flags f;
};

struct state {
	int32_t r[TH_NREGS];
	struct flags f;
	uint64_t pc;
	unsigned steps;
	unsigned nconds;
	struct cond conds[MAX_CONDS];
};

enum ev_kind { EV_SITE, EV_TRAP, EV_HANDLER };

struct event {
	enum ev_kind kind;
	uint64_t at;
	char handler[64];
	int32_t r[TH_NREGS];
	int32_t target;		/* EV_SITE: the target expression */
	unsigned nconds;
	struct cond *conds;
};

/* What a site's priv points at: everything th_site_admits() needs. */
struct site_priv {
	const struct th_bin *b;
	const struct arena *ar;
	size_t nev;
	const struct event **ev;	/* the paths that reach the site */
	uint64_t *on;			/* [i]: bit k set when ev[i]'s condition k
					 * depends on the target (cond_on) */
};

/* What a direct call's priv points at: th_call_arg()'s needs. */
struct call_priv {
	const struct th_bin *b;
	const struct arena *ar;
	int32_t args[6];	/* rdi, rsi, rdx, rcx, r8, r9 at the call */
};

/* At most this many direct calls (distinct by place and arguments) are
 * kept per function. */
#define MAX_CALLS 1024

struct analysis {
	struct arena ar;
	struct event *ev;
	size_t nev, capev;
	struct site_priv *sp;
	size_t nsp;
	struct th_direct_call *calls;
	struct call_priv *cp;
	size_t ncalls, capcalls;
};

static uint64_t mask(unsigned w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

static size_t node_hash(unsigned op, unsigned w, int32_t a, int32_t b, uint64_t k)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	h = (h ^ op) * 0x100000001b3ULL;
	h = (h ^ w) * 0x100000001b3ULL;
	h = (h ^ (uint32_t)a) * 0xff51afd7ed558ccdULL;
	h = (h ^ (uint32_t)b) * 0xc4ceb9fe1a85ec53ULL;
	h = (h ^ k) * 0xff51afd7ed558ccdULL;
	return (size_t)(h ^ (h >> 29));
}

static bool arena_grow(struct arena *ar)
{
	size_t cap = ar->cap ? 2 * ar->cap : 256, nslot = 2 * cap;
	struct xnode *v = realloc(ar->v, cap * sizeof(*v));
	int32_t *slot;

	if (!v)
		return false;
	ar->v = v;
	if (cap > INT32_MAX / 2 || !(slot = calloc(nslot, sizeof(*slot))))
		return false;
	for (size_t i = 0; i < ar->n; i++) {
		const struct xnode *p = &ar->v[i];
		size_t h = node_hash(p->op, p->w, p->a, p->b, p->k) & (nslot - 1);

		while (slot[h])
			h = (h + 1) & (nslot - 1);
		slot[h] = (int32_t)i + 1;
	}
	free(ar->slot);
	ar->slot = slot;
	ar->nslot = nslot;
	ar->cap = cap;
	return true;
}

static uint8_t node_flags(const struct arena *ar, enum xop op, int32_t a, int32_t b)
{
	uint8_t fl = (uint8_t)((a >= 0 ? ar->v[a].fl : 0) | (b >= 0 ? ar->v[b].fl : 0));

	switch (op) {
	case X_PCREL:
		return XF_PCREL;
	case X_ENTRY: case X_FRESH:
		return XF_VAR;
	case X_LOAD:
		if ((fl & XF_PCREL) && (fl & XF_VAR))
			fl |= XF_TABLE;
		return fl | XF_VAR;
	default:
		return fl;
	}
}

static int32_t mk(struct arena *ar, enum xop op, unsigned w, int32_t a, int32_t b, uint64_t k)
{
	size_t h;

	if (ar->oom)
		return 0;
	if (ar->n == ar->cap && !arena_grow(ar)) {
		ar->oom = true;
		return 0;
	}
	for (h = node_hash(op, w, a, b, k) & (ar->nslot - 1); ar->slot[h];
	     h = (h + 1) & (ar->nslot - 1)) {
		const struct xnode *p = &ar->v[ar->slot[h] - 1];

		if (p->op == op && p->w == w && p->a == a && p->b == b && p->k == k)
			return ar->slot[h] - 1;
	}
	ar->v[ar->n] = (struct xnode){ (uint8_t)op, (uint8_t)w, node_flags(ar, op, a, b), a, b, k };
	ar->slot[h] = (int32_t)ar->n + 1;
	return (int32_t)ar->n++;
}

static int32_t fresh(struct arena *ar)
{
	return mk(ar, X_FRESH, 64, -1, -1, ar->fresh++);
}

/* Hash-consed: equal expressions are one node. */
static bool xequal(const struct arena *ar, int32_t x, int32_t y)
{
	(void)ar;
	return x == y;
}

/* A new walk over @ar: every stamp older than the returned generation.
 * Return: it, or 0 when the scratch cannot be had (out of memory). */
static uint32_t walk_begin(const struct arena *ar)
{
	struct xscratch *sc = ar->sc;

	if (!sc)
		return 0;
	if (sc->cap < ar->n) {
		size_t cap = ar->n;
		uint32_t *stamp = realloc(sc->stamp, cap * sizeof(*stamp));
		uint64_t *val;
		int32_t *stack;

		if (stamp)
			sc->stamp = stamp;
		val = realloc(sc->val, cap * sizeof(*val));
		if (val)
			sc->val = val;
		stack = realloc(sc->stack, cap * sizeof(*stack));
		if (stack)
			sc->stack = stack;
		if (!stamp || !val || !stack)
			return 0;
		memset(sc->stamp + sc->cap, 0, (cap - sc->cap) * sizeof(*stamp));
		sc->cap = cap;
	}
	if (++sc->gen == 0) {
		memset(sc->stamp, 0, sc->cap * sizeof(*sc->stamp));
		sc->gen = 1;
	}
	return sc->gen;
}

/* Does x contain the node sub? A walk of the DAG visiting each node once;
 * a node older than sub cannot contain it. Without scratch (out of
 * memory) the answer is "yes": a condition is then kept, never dropped. */
static bool xcontains(const struct arena *ar, int32_t x, int32_t sub)
{
	struct xscratch *sc = ar->sc;
	size_t depth = 0;
	uint32_t gen;

	if (x < 0 || sub < 0 || x < sub)
		return false;
	if (x == sub)
		return true;
	if (!(gen = walk_begin(ar)))
		return true;
	sc->stack[depth++] = x;
	sc->stamp[x] = gen;
	while (depth) {
		const struct xnode *p = &ar->v[sc->stack[--depth]];
		int32_t kids[2] = { p->a, p->b };

		for (int i = 0; i < 2; i++) {
			int32_t c = kids[i];

			if (c == sub)
				return true;
			if (c > sub && sc->stamp[c] != gen) {
				sc->stamp[c] = gen;
				sc->stack[depth++] = c;
			}
		}
	}
	return false;
}

/* Is x built from constants only (no entry value, load, fresh or pc-relative)? */
static bool xconstant(const struct arena *ar, int32_t x)
{
	return x < 0 || !(ar->v[x].fl & (XF_PCREL | XF_VAR));
}

/* ---- evaluation --------------------------------------------------------------------- */

struct ev_ctx {
	const struct th_bin *b;
	const struct arena *ar;
	const struct th_eval_ctx *cx;
	int32_t sub;		/* this node's value is T */
	uint64_t t;
	bool fail;
	uint32_t gen;		/* the memo's generation (ev_start); 0: none */
};

/* Start an evaluation: values are memoised per node until the next start,
 * so a shared subexpression is computed (and a load read) once. */
static void ev_start(struct ev_ctx *e)
{
	e->fail = false;
	e->gen = walk_begin(e->ar);
}

static uint64_t rot(uint64_t v, unsigned c, unsigned w, bool left)
{
	c %= w;
	if (!c)
		return v;
	return left ? ((v << c) | (v >> (w - c))) & mask(w) : ((v >> c) | (v << (w - c))) & mask(w);
}

static uint64_t eval_node(struct ev_ctx *e, int32_t x);

static uint64_t eval(struct ev_ctx *e, int32_t x)
{
	struct xscratch *sc = e->ar->sc;
	uint64_t v;

	if (x < 0 || e->fail) {
		e->fail = true;
		return 0;
	}
	if (x == e->sub)
		return e->t;
	if (e->gen && sc->stamp[x] == e->gen)
		return sc->val[x];
	v = eval_node(e, x);
	if (e->gen) {
		sc->stamp[x] = e->gen;
		sc->val[x] = v;
	}
	return v;
}

static uint64_t eval_node(struct ev_ctx *e, int32_t x)
{
	const struct xnode *p;
	uint64_t a = 0, b = 0, m;

	p = &e->ar->v[x];
	m = mask(p->w);
	switch (p->op) {
	case X_CONST:
		return p->k & m;
	case X_PCREL:
		return (p->k + (e->cx ? e->cx->bias : 0)) & m;
	case X_ENTRY:
		if (!e->cx || !e->cx->entry_regs) {
			e->fail = true;
			return 0;
		}
		return e->cx->entry_regs[p->k] & m;
	case X_FRESH:
		e->fail = true;
		return 0;
	case X_LOAD: {
		uint64_t addr = eval(e, p->a), v = 0;
		size_t n = p->w / 8;
		int bad;

		if (e->fail)
			return 0;
		if (e->cx && e->cx->read)
			bad = e->cx->read(e->cx->read_ctx, addr, &v, n);
		else
			bad = th_bin_read(e->b, addr - (e->cx ? e->cx->bias : 0), &v, n);
		if (bad)
			e->fail = true;
		return v & m;
	}
	default:
		break;
	}
	a = eval(e, p->a);
	if (p->b >= 0)
		b = eval(e, p->b);
	switch (p->op) {
	case X_ADD: return (a + b) & m;
	case X_SUB: return (a - b) & m;
	case X_AND: return a & b & m;
	case X_OR: return (a | b) & m;
	case X_XOR: return (a ^ b) & m;
	case X_SHL: return (b % p->w ? a << (b % p->w) : a) & m;
	case X_SHR: return (b % p->w ? (a & m) >> (b % p->w) : a) & m;
	case X_SAR: {
		unsigned c = (unsigned)(b % p->w);
		uint64_t sign = (a >> (p->w - 1)) & 1, v = (a & m) >> c;

		if (sign && c)
			v |= mask(p->w) & ~(mask(p->w) >> c);
		return v & m;
	}
	case X_ROL: return rot(a & m, (unsigned)b, p->w, true);
	case X_ROR: return rot(a & m, (unsigned)b, p->w, false);
	case X_NEG: return (0 - a) & m;
	case X_NOT: return ~a & m;
	case X_ZX: return a & m;
	case X_SX: {
		unsigned from = (unsigned)p->k;

		if (from >= 1 && from < 64 && ((a >> (from - 1)) & 1))
			a |= ~mask(from);
		return a & m;
	}
	default:
		e->fail = true;
		return 0;
	}
}

/* Does the branch go the way cond says, for this T? -1: cannot tell. */
static int eval_cond(struct ev_ctx *e, const struct cond *c)
{
	const struct flags *f = &c->f;
	uint64_t a, b, r, m, top;
	bool cf, zf, sf, of, pf, v;

	/* Unknown flags have no width: 1ULL << (0 - 1) was a negative shift. */
	if (f->kind == F_UNKNOWN || f->w < 1 || f->w > 64)
		return -1;
	m = mask(f->w);
	top = 1ULL << (f->w - 1);
	ev_start(e);
	a = eval(e, f->a) & m;
	b = f->b >= 0 ? eval(e, f->b) & m : 0;
	r = f->kind == F_LOGIC ? eval(e, f->r) & m : 0;
	if (e->fail)
		return -1;
	switch (f->kind) {
	case F_SUB:
		r = (a - b) & m;
		cf = a < b;
		of = ((a ^ b) & (a ^ r) & top) != 0;
		break;
	case F_ADD:
		r = (a + b) & m;
		cf = r < a;
		of = (~(a ^ b) & (a ^ r) & top) != 0;
		break;
	default:
		cf = of = false;
		break;
	}
	zf = r == 0;
	sf = (r & top) != 0;
	pf = !(__builtin_popcountll(r & 0xff) & 1);
	switch (c->jcc) {
	case X86_INS_JE: v = zf; break;
	case X86_INS_JNE: v = !zf; break;
	case X86_INS_JB: v = cf; break;
	case X86_INS_JAE: v = !cf; break;
	case X86_INS_JBE: v = cf || zf; break;
	case X86_INS_JA: v = !cf && !zf; break;
	case X86_INS_JL: v = sf != of; break;
	case X86_INS_JGE: v = sf == of; break;
	case X86_INS_JLE: v = zf || sf != of; break;
	case X86_INS_JG: v = !zf && sf == of; break;
	case X86_INS_JS: v = sf; break;
	case X86_INS_JNS: v = !sf; break;
	case X86_INS_JO: v = of; break;
	case X86_INS_JNO: v = !of; break;
	case X86_INS_JP: v = pf; break;
	case X86_INS_JNP: v = !pf; break;
	case X86_INS_JRCXZ: case X86_INS_JECXZ: case X86_INS_JCXZ: v = zf; break;
	default: return -1;
	}
	return v == c->taken;
}

/* Does c branch on t? Only on flags a compare, a test or an operation it
 * models set in this function: a branch on flags it did not see set (at
 * the entry, after a call or a shift) checks nothing, whatever follows. */
static bool cond_on(const struct arena *ar, const struct cond *c, int32_t t)
{
	if (c->f.kind == F_UNKNOWN)
		return false;
	return xcontains(ar, c->f.a, t) || xcontains(ar, c->f.b, t) || xcontains(ar, c->f.r, t);
}

/* Does some path to @s admit @target: every condition on it holds? With
 * @branch, only the paths whose condition at that branch tests this path's
 * own target (a guard's check; a loop's earlier turn passes it too, on
 * another target). Return: 1, 0, -1 unknown; *through: a path qualified. */
static int admits_on_paths(const struct th_call_site *s, const uint64_t *branch, uint64_t target,
			   const struct th_eval_ctx *cx, int *through)
{
	const struct site_priv *sp = s->priv;
	int unknown = 0;

	*through = 0;
	for (size_t i = 0; i < sp->nev; i++) {
		const struct event *ev = sp->ev[i];
		struct ev_ctx e = { sp->b, sp->ar, cx, ev->target, target, false, 0 };
		int all = 1, passes = !branch;

		for (unsigned k = 0; k < ev->nconds && !passes; k++)
			passes = ev->conds[k].at == *branch && (sp->on[i] >> k & 1);
		if (!passes)
			continue;
		*through = 1;
		for (unsigned k = 0; k < ev->nconds && all == 1; k++) {
			int v;

			if (!(sp->on[i] >> k & 1))
				continue;
			v = eval_cond(&e, &ev->conds[k]);
			all = v < 0 ? -1 : v;
		}
		if (all == 1)
			return 1;
		unknown |= all < 0;
	}
	return unknown ? -1 : 0;
}

int th_site_admits(const struct th_call_site *s, uint64_t target, const struct th_eval_ctx *cx)
{
	const struct site_priv *sp = s->priv;
	int through;

	if (!s->nguards)
		return 1;
	if (!sp || !sp->nev)
		return -1;
	return admits_on_paths(s, NULL, target, cx, &through);
}

int th_guard_admits(const struct th_call_site *s, const struct th_guard *g, uint64_t target,
		    const struct th_eval_ctx *cx)
{
	const struct site_priv *sp = s->priv;
	int through, r;

	if (!g || !sp || !sp->nev)
		return th_site_admits(s, target, cx);
	r = admits_on_paths(s, &g->branch, target, cx, &through);
	return through ? r : th_site_admits(s, target, cx);
}

int th_call_arg(const struct th_direct_call *c, int argno, const struct th_eval_ctx *cx,
		uint64_t *val)
{
	const struct call_priv *cp = c->priv;
	struct ev_ctx e;

	if (!cp || argno < 0 || argno >= 6 || !cx || !cx->entry_regs)
		return -1;
	e = (struct ev_ctx){ cp->b, cp->ar, cx, -1, 0, false, 0 };
	ev_start(&e);
	*val = eval(&e, cp->args[argno]);
	return e.fail ? -1 : 0;
}

int th_site_arg(const struct th_call_site *s, int argno, const struct th_eval_ctx *cx,
		uint64_t *val)
{
	static const int argregs[6] = { TH_RDI, TH_RSI, TH_RDX, TH_RCX, TH_R8, TH_R9 };
	const struct site_priv *sp = s->priv;
	struct ev_ctx e;

	if (!sp || !sp->nev || argno < 0 || argno >= 6 || !cx || !cx->entry_regs)
		return -1;
	e = (struct ev_ctx){ sp->b, sp->ar, cx, -1, 0, false, 0 };
	ev_start(&e);
	*val = eval(&e, sp->ev[0]->r[argregs[argno]]);
	return e.fail ? -1 : 0;
}

int th_site_target(const struct th_call_site *s, const struct th_eval_ctx *cx, uint64_t *target)
{
	const struct site_priv *sp = s->priv;
	struct ev_ctx e;

	if (!sp || !sp->nev || !cx || !cx->entry_regs)
		return -1;
	e = (struct ev_ctx){ sp->b, sp->ar, cx, -1, 0, false, 0 };
	ev_start(&e);
	*target = eval(&e, sp->ev[0]->target);
	return e.fail ? -1 : 0;
}

/* ---- decoding ------------------------------------------------------------------------ */

/* capstone register -> (general-purpose register, width in bytes); -1 if not one
 * (or an 8-bit high register: its writes are partial anyway). */
static int gpr(unsigned reg, unsigned *bytes)
{
	static const struct {
		unsigned r64, r32, r16, r8;
	} map[TH_NREGS] = {
		{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL },
		{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL },
		{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL },
		{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL },
		{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL },
		{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL },
		{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL },
		{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL },
		{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B },
		{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B },
		{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B },
		{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B },
		{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B },
		{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B },
		{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B },
		{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B },
	};

	for (int i = 0; i < TH_NREGS; i++) {
		if (reg == map[i].r64) { *bytes = 8; return i; }
		if (reg == map[i].r32) { *bytes = 4; return i; }
		if (reg == map[i].r16) { *bytes = 2; return i; }
		if (reg == map[i].r8) { *bytes = 1; return i; }
	}
	return -1;
}

/*
 * capstone 4.0.2 decodes ud1 (0F B9 /r) as "ud2b" without its ModRM operand, so
 * the length is short and the next instruction is decoded from the middle of
 * this one. The length from the encoding: prefixes, 0F B9, ModRM, SIB, disp.
 */
static unsigned ud1_length(const uint8_t *p, size_t avail)
{
	size_t i = 0;
	unsigned mod, rm, len;

	while (i < avail && i < 4 && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf2 || p[i] == 0xf3 ||
				      (p[i] & 0xf0) == 0x40))
		i++;
	if (i + 3 > avail || p[i] != 0x0f || p[i + 1] != 0xb9)
		return 0;
	mod = p[i + 2] >> 6;
	rm = p[i + 2] & 7;
	len = (unsigned)i + 3;
	if (mod != 3 && rm == 4) {
		if (len >= avail)
			return 0;
		if (mod == 0 && (p[len] & 7) == 5)
			len += 4;
		len++;
	}
	if (mod == 0 && rm == 5)
		len += 4;
	else if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len <= avail ? len : 0;
}

/* One capstone handle and instruction buffer for the process: opening a
 * handle builds capstone's tables, which cost more than decoding a small
 * function (binread is not thread-safe anyway). Return: 0, or -1. */
static csh cs_h;
static cs_insn *cs_buf;

static int cs_get(csh *h, cs_insn **insn)
{
	if (!cs_buf) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs_h) != CS_ERR_OK)
			return -1;
		cs_option(cs_h, CS_OPT_DETAIL, CS_OPT_ON);
		if (!(cs_buf = cs_malloc(cs_h))) {
			cs_close(&cs_h);
			return -1;
		}
	}
	*h = cs_h;
	*insn = cs_buf;
	return 0;
}

/* How many of the @size bytes at @vaddr the file holds, from @vaddr on
 * (past them a segment is zeros: no code). Return: 0 with *held, or -1 when
 * the range is in no loaded segment. */
static int file_held(const struct th_bin *b, uint64_t vaddr, uint64_t size, uint64_t *held)
{
	for (size_t i = 0; i < b->nph; i++) {
		const GElf_Phdr *ph = &b->ph[i];
		uint64_t rel;

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr)
			continue;
		rel = vaddr - ph->p_vaddr;
		if (rel > ph->p_memsz || size > ph->p_memsz - rel)
			continue;
		*held = rel < ph->p_filesz ? (ph->p_filesz - rel < size ? ph->p_filesz - rel : size) : 0;
		return 0;
	}
	return -1;
}

static int decode(const struct th_bin *b, const struct th_sym *fn, struct dinsn **out,
		  size_t *nout, char *err, size_t n)
{
	uint8_t *code = NULL;
	const uint8_t *p;
	size_t left, cap = 64, count = 0, size;
	uint64_t addr, held;
	struct dinsn *v = NULL;
	csh h;
	cs_insn *insn;

	*out = NULL;
	*nout = 0;
	/* The range first, then only the bytes the file holds: a symbol's size
	 * is the file's word, and what lies past the file's bytes is zeros (a
	 * 4 TiB symbol in a 10 kB file allocated 4 TiB here, then decoded them). */
	if (file_held(b, fn->addr, fn->size, &held)) {
		snprintf(err, n, "%s: %s's bytes (0x%" PRIx64 ", %" PRIu64 " bytes) are not in a loaded segment",
			 th_bin_path(b), fn->name, fn->addr, fn->size);
		return -1;
	}
	size = (size_t)held;
	code = malloc(size ? size : 1);
	v = calloc(cap, sizeof(*v));
	if (!code || !v) {
		snprintf(err, n, "%s: out of memory", th_bin_path(b));
		goto fail_mem;
	}
	if (th_bin_read(b, fn->addr, code, size)) {
		snprintf(err, n, "%s: %s's bytes (0x%" PRIx64 ", %" PRIu64 " bytes) are not in a loaded segment",
			 th_bin_path(b), fn->name, fn->addr, fn->size);
		goto fail_mem;
	}
	if (cs_get(&h, &insn)) {
		snprintf(err, n, "capstone: cannot open an x86-64 disassembler");
		goto fail_mem;
	}
	p = code;
	left = size;
	addr = fn->addr;
	while (left) {
		const uint8_t *at = p;
		uint64_t here = addr;
		struct dinsn *d;
		cs_regs rr, wr;
		uint8_t nrr, nwr;

		if (!cs_disasm_iter(h, &p, &left, &addr, insn)) {
			/* Undecodable bytes: padding after a noreturn call, or data. The
			 * paths never run into them (a path ending there is cut). */
			p = at + 1;
			left--;
			addr = here + 1;
			continue;
		}
		if (insn->id == X86_INS_UD2B) {
			unsigned len = ud1_length(at, left + insn->size);

			if (len) {
				p = at + len;
				left = size - (size_t)(p - code);
				addr = here + len;
				insn->size = (uint16_t)len;
			}
		}
		if (count == cap) {
			struct dinsn *g = realloc(v, 2 * cap * sizeof(*v));

			if (!g) {
				snprintf(err, n, "%s: out of memory", th_bin_path(b));
				goto fail_mem;
			}
			v = g;
			cap *= 2;
		}
		d = &v[count++];
		memset(d, 0, sizeof(*d));
		d->addr = here;
		d->size = insn->size;
		d->id = insn->id;
		snprintf(d->text, sizeof(d->text), "%s%s%s", insn->id == X86_INS_UD2B ? "ud1" : insn->mnemonic,
			 insn->op_str[0] && insn->id != X86_INS_UD2B ? " " : "",
			 insn->id == X86_INS_UD2B ? "" : insn->op_str);
		d->nops = insn->detail->x86.op_count > 4 ? 4 : insn->detail->x86.op_count;
		for (unsigned k = 0; k < d->nops; k++) {
			const cs_x86_op *o = &insn->detail->x86.operands[k];

			d->ops[k] = (struct dop){ .type = (uint8_t)o->type, .size = o->size };
			if (o->type == X86_OP_REG)
				d->ops[k].reg = o->reg;
			else if (o->type == X86_OP_IMM)
				d->ops[k].imm = o->imm;
			else if (o->type == X86_OP_MEM) {
				d->ops[k].seg = o->mem.segment;
				d->ops[k].base = o->mem.base;
				d->ops[k].index = o->mem.index;
				d->ops[k].scale = o->mem.scale;
				d->ops[k].disp = o->mem.disp;
			}
		}
		if (cs_regs_access(h, insn, rr, &nrr, wr, &nwr) == CS_ERR_OK)
			for (unsigned k = 0; k < nwr && d->nwr < 12; k++)
				d->wr[d->nwr++] = wr[k];
		d->flags_written = (insn->detail->x86.eflags &
				    (X86_EFLAGS_MODIFY_CF | X86_EFLAGS_MODIFY_ZF | X86_EFLAGS_MODIFY_SF |
				     X86_EFLAGS_MODIFY_OF | X86_EFLAGS_RESET_CF | X86_EFLAGS_SET_CF |
				     X86_EFLAGS_UNDEFINED_CF | X86_EFLAGS_UNDEFINED_OF)) != 0;
	}
	free(code);
	*out = v;
	*nout = count;
	return 0;
fail_mem:
	free(code);
	free(v);
	return -1;
}

/* The instructions th_bin_insn() knows to write no memory but through an
 * explicit memory operand (which they then write when it is their first,
 * Intel syntax's destination, except the compares and jumps). */
static int insn_pure(unsigned id, int *reads_first)
{
	static const unsigned ro[] = {	/* the first operand is read, never written */
		X86_INS_TEST, X86_INS_CMP, X86_INS_BT, X86_INS_JMP, X86_INS_NOP, X86_INS_PAUSE,
		X86_INS_LEA, X86_INS_JAE, X86_INS_JA, X86_INS_JBE, X86_INS_JB, X86_INS_JE,
		X86_INS_JGE, X86_INS_JG, X86_INS_JLE, X86_INS_JL, X86_INS_JNE, X86_INS_JNO,
		X86_INS_JNP, X86_INS_JNS, X86_INS_JO, X86_INS_JP, X86_INS_JS,
	};
	static const unsigned rw[] = {	/* the first operand is the destination */
		X86_INS_MOV, X86_INS_MOVZX, X86_INS_MOVSX, X86_INS_MOVSXD, X86_INS_MOVABS,
		X86_INS_AND, X86_INS_OR, X86_INS_XOR, X86_INS_ADD, X86_INS_SUB, X86_INS_SHR,
		X86_INS_SHL, X86_INS_SAR, X86_INS_INC, X86_INS_DEC, X86_INS_NEG, X86_INS_NOT,
		X86_INS_SETAE, X86_INS_SETA, X86_INS_SETBE, X86_INS_SETB, X86_INS_SETE,
		X86_INS_SETGE, X86_INS_SETG, X86_INS_SETLE, X86_INS_SETL, X86_INS_SETNE,
		X86_INS_CMOVAE, X86_INS_CMOVA, X86_INS_CMOVBE, X86_INS_CMOVB, X86_INS_CMOVE,
		X86_INS_CMOVGE, X86_INS_CMOVG, X86_INS_CMOVLE, X86_INS_CMOVL, X86_INS_CMOVNE,
	};

	for (size_t i = 0; i < sizeof(ro) / sizeof(ro[0]); i++)
		if (id == ro[i]) {
			*reads_first = 1;
			return 1;
		}
	for (size_t i = 0; i < sizeof(rw) / sizeof(rw[0]); i++)
		if (id == rw[i]) {
			*reads_first = 0;
			return 1;
		}
	return 0;
}

int th_bin_insn(const struct th_bin *b, uint64_t vaddr, struct th_insn *out)
{
	uint8_t code[16];
	const uint8_t *p = code;
	size_t left;
	uint64_t held, addr = vaddr;
	int reads_first = 0;
	csh h;
	cs_insn *insn;
	const cs_x86 *x;

	memset(out, 0, sizeof(*out));
	out->base = out->index = TH_NOREG;
	out->writes = 1;
	if (file_held(b, vaddr, 1, &held) || !held)
		return -1;
	/* As many of 16 bytes as the file holds from there. */
	for (left = sizeof(code); left; left--)
		if (!th_bin_read(b, vaddr, code, left))
			break;
	if (!left || cs_get(&h, &insn) || !cs_disasm_iter(h, &p, &left, &addr, insn))
		return -1;
	x = &insn->detail->x86;
	out->len = insn->size;
	snprintf(out->text, sizeof(out->text), "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "",
		 insn->op_str);
	out->writes = !insn_pure(insn->id, &reads_first) || x->prefix[0] == X86_PREFIX_LOCK ||
		      /* pause is rep; nop (F3 90) */
		      (insn->id != X86_INS_PAUSE &&
		       (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE));
	{
		static const struct {
			unsigned bit;
			uint64_t test, set;
		} fl[] = {
			{ 0x1, X86_EFLAGS_TEST_CF, X86_EFLAGS_MODIFY_CF | X86_EFLAGS_RESET_CF | X86_EFLAGS_SET_CF },
			{ 0x4, X86_EFLAGS_TEST_PF, X86_EFLAGS_MODIFY_PF | X86_EFLAGS_RESET_PF | X86_EFLAGS_SET_PF },
			{ 0x10, X86_EFLAGS_TEST_AF, X86_EFLAGS_MODIFY_AF | X86_EFLAGS_RESET_AF | X86_EFLAGS_SET_AF },
			{ 0x40, X86_EFLAGS_TEST_ZF, X86_EFLAGS_MODIFY_ZF | X86_EFLAGS_RESET_ZF | X86_EFLAGS_SET_ZF },
			{ 0x80, X86_EFLAGS_TEST_SF, X86_EFLAGS_MODIFY_SF | X86_EFLAGS_RESET_SF | X86_EFLAGS_SET_SF },
			{ 0x800, X86_EFLAGS_TEST_OF, X86_EFLAGS_MODIFY_OF | X86_EFLAGS_RESET_OF },
		};

		for (size_t k = 0; k < sizeof(fl) / sizeof(fl[0]); k++) {
			if (x->eflags & fl[k].test)
				out->flags_read |= fl[k].bit;
			if (x->eflags & fl[k].set)
				out->flags_written |= fl[k].bit;
		}
		/* A conditional jump, set or move capstone says nothing of reads
		 * them all (a jump is never taken for granted). */
		if (!x->eflags && insn->id != X86_INS_JMP &&
		    (cs_insn_group(h, insn, CS_GRP_JUMP) || !strncmp(insn->mnemonic, "set", 3) ||
		     !strncmp(insn->mnemonic, "cmov", 4)))
			out->flags_read = 0x8d5;
	}
	for (unsigned k = 0; k < x->op_count && k < 8; k++) {
		const cs_x86_op *o = &x->operands[k];
		unsigned bytes;

		if (o->type != X86_OP_MEM || insn->id == X86_INS_LEA || insn->id == X86_INS_NOP)
			continue;
		if ((o->access & CS_AC_WRITE) || (k == 0 && !reads_first)) {
			out->writes = 1;
			if (o->mem.base == X86_REG_RIP && o->mem.index == X86_REG_INVALID &&
			    o->mem.segment == X86_REG_INVALID)
				out->write_at = vaddr + insn->size + (uint64_t)o->mem.disp;
			continue;
		}
		if (out->mem_read)
			continue;
		out->mem_read = 1;
		out->mem_size = o->size;
		out->rip_rel = o->mem.base == X86_REG_RIP;
		out->base = o->mem.base == X86_REG_INVALID || out->rip_rel ? TH_NOREG : gpr(o->mem.base, &bytes);
		out->index = o->mem.index == X86_REG_INVALID ? TH_NOREG : gpr(o->mem.index, &bytes);
		out->segment = o->mem.segment != X86_REG_INVALID;
		out->scale = (unsigned)o->mem.scale;
		out->disp = o->mem.disp;
	}
	return 0;
}

static const struct dinsn *insn_at(const struct dinsn *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? &v[lo] : NULL;
}

/* ---- symbolic execution ----------------------------------------------------------------- */

struct exec {
	const struct th_bin *b;
	const struct th_sym *fn;
	const struct dinsn *v;
	size_t nv;
	struct analysis *an;
	struct state *stack;
	size_t depth, cap;
	size_t paths;
	unsigned long total;
	bool incomplete;
	bool oom;
};

static int32_t read_reg(struct arena *ar, const struct state *s, unsigned reg)
{
	unsigned bytes;
	int g = gpr(reg, &bytes);

	if (g < 0 || (bytes == 1 && (reg == X86_REG_AH || reg == X86_REG_BH || reg == X86_REG_CH ||
				     reg == X86_REG_DH)))
		return fresh(ar);
	return bytes == 8 ? s->r[g] : mk(ar, X_ZX, bytes * 8, s->r[g], -1, 0);
}

static void write_reg(struct arena *ar, struct state *s, unsigned reg, int32_t val)
{
	unsigned bytes;
	int g = gpr(reg, &bytes);

	if (g < 0)
		return;
	if (bytes == 8)
		s->r[g] = val;
	else if (bytes == 4)
		s->r[g] = mk(ar, X_ZX, 32, val, -1, 0);
	else
		s->r[g] = fresh(ar); /* a partial write: the upper bits are the old ones */
}

static int32_t mem_addr(struct arena *ar, const struct state *s, const struct dinsn *d,
			const struct dop *o)
{
	int32_t x;

	if (o->seg != X86_REG_INVALID && o->seg != X86_REG_DS && o->seg != X86_REG_SS &&
	    o->seg != X86_REG_ES && o->seg != X86_REG_CS)
		return fresh(ar); /* fs:/gs: thread-local, unknown here */
	if (o->base == X86_REG_RIP)
		return mk(ar, X_PCREL, 64, -1, -1, d->addr + d->size + (uint64_t)o->disp);
	x = mk(ar, X_CONST, 64, -1, -1, (uint64_t)o->disp);
	if (o->base != X86_REG_INVALID)
		x = mk(ar, X_ADD, 64, read_reg(ar, s, o->base), x, 0);
	if (o->index != X86_REG_INVALID) {
		int32_t i = read_reg(ar, s, o->index);
		unsigned sh = o->scale == 8 ? 3 : o->scale == 4 ? 2 : o->scale == 2 ? 1 : 0;

		if (sh)
			i = mk(ar, X_SHL, 64, i, mk(ar, X_CONST, 8, -1, -1, sh), 0);
		x = mk(ar, X_ADD, 64, x, i, 0);
	}
	return x;
}

static int32_t read_op(struct arena *ar, const struct state *s, const struct dinsn *d,
		       const struct dop *o)
{
	switch (o->type) {
	case X86_OP_REG:
		return read_reg(ar, s, o->reg);
	case X86_OP_IMM:
		return mk(ar, X_CONST, o->size * 8, -1, -1, (uint64_t)o->imm & mask(o->size * 8));
	case X86_OP_MEM:
		return mk(ar, X_LOAD, o->size * 8, mem_addr(ar, s, d, o), -1, 0);
	default:
		return fresh(ar);
	}
}

static void write_op(struct arena *ar, struct state *s, const struct dop *o, int32_t val)
{
	if (o->type == X86_OP_REG)
		write_reg(ar, s, o->reg, val);
	/* Stores to memory are not tracked: no check reads back what it stored. */
}

static void clobber(struct arena *ar, struct state *s, const struct dinsn *d)
{
	for (unsigned k = 0; k < d->nwr; k++) {
		unsigned bytes;
		int g = gpr(d->wr[k], &bytes);

		if (g >= 0 && g != TH_RSP)
			s->r[g] = fresh(ar);
	}
	if (d->flags_written)
		s->f = no_flags;
}

/* A call to a function: the System V caller-saved registers are lost. */
static void clobber_call(struct arena *ar, struct state *s)
{
	static const int lost[] = { TH_RAX, TH_RCX, TH_RDX, TH_RSI, TH_RDI,
				    TH_R8, TH_R9, TH_R10, TH_R11 };

	for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
		s->r[lost[i]] = fresh(ar);
	s->f = no_flags;
}

static bool is_jcc(unsigned id)
{
	switch (id) {
	case X86_INS_JE: case X86_INS_JNE: case X86_INS_JB: case X86_INS_JAE:
	case X86_INS_JBE: case X86_INS_JA: case X86_INS_JL: case X86_INS_JGE:
	case X86_INS_JLE: case X86_INS_JG: case X86_INS_JS: case X86_INS_JNS:
	case X86_INS_JO: case X86_INS_JNO: case X86_INS_JP: case X86_INS_JNP:
	case X86_INS_JRCXZ: case X86_INS_JECXZ: case X86_INS_JCXZ:
		return true;
	default:
		return false;
	}
}

/* A sanitizer runtime's check-failure report: the failure side of a check. */
static bool is_cfi_handler(const char *name)
{
	return !strncmp(name, "__ubsan_handle_cfi_check_fail", 29) ||
	       !strncmp(name, "__ubsan_handle_cfi_bad_type", 27) ||
	       !strncmp(name, "__ubsan_handle_function_type_mismatch", 37);
}

static void push(struct exec *x, const struct state *s)
{
	if (x->depth == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct state *g = realloc(x->stack, cap * sizeof(*g));

		if (!g) {
			x->oom = true;
			return;
		}
		x->stack = g;
		x->cap = cap;
	}
	x->stack[x->depth++] = *s;
}

static void record(struct exec *x, const struct state *s, enum ev_kind kind, uint64_t at,
		   const char *handler, int32_t target)
{
	struct analysis *an = x->an;
	struct event *e;

	if (an->nev == an->capev) {
		size_t cap = an->capev ? 2 * an->capev : 16;
		struct event *g = realloc(an->ev, cap * sizeof(*g));

		if (!g) {
			x->oom = true;
			return;
		}
		an->ev = g;
		an->capev = cap;
	}
	e = &an->ev[an->nev];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->at = at;
	if (handler)
		snprintf(e->handler, sizeof(e->handler), "%s", handler);
	memcpy(e->r, s->r, sizeof(e->r));
	e->target = target;
	e->nconds = s->nconds;
	e->conds = malloc((s->nconds ? s->nconds : 1) * sizeof(*e->conds));
	if (!e->conds) {
		x->oom = true;
		return;
	}
	memcpy(e->conds, s->conds, s->nconds * sizeof(*e->conds));
	an->nev++;
}

/* The register a retpoline thunk jumps through: a direct call or jmp to
 * __x86_indirect_thunk_r11 (Linux, clang's -mretpoline-external-thunk), its
 * call-depth-tracking siblings or __llvm_retpoline_r11 is an indirect call
 * through r11. Return: the register, or TH_NOREG for any other address. */
static int thunk_reg(const struct th_bin *b, uint64_t addr)
{
	static const char *const prefixes[] = {
		"__x86_indirect_thunk_", "__x86_indirect_call_thunk_", "__x86_indirect_jump_thunk_",
		"__llvm_retpoline_",
	};
	const struct th_sym *f = th_bin_func_at(b, addr);

	for (size_t i = 0; f && f->name[0] == '_' && i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i]);

		if (strncmp(f->name, prefixes[i], len))
			continue;
		for (int r = 0; r < TH_NREGS; r++)
			if (r != TH_RSP && !strcmp(f->name + len, th_reg_name(r)))
				return r;
	}
	/* 6.12's thunks are labels inside __x86_indirect_thunk_array
	 * (SYM_INNER_LABEL: NOTYPE, not FUNC; the first at the array's own
	 * address): looked up by name. */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		const struct th_sym *arr;
		char name[64];

		snprintf(name, sizeof(name), "%sarray", prefixes[i]);
		if (th_bin_find_syms(b, name, &arr, 1) != 1 || addr < arr->addr ||
		    addr >= arr->addr + arr->size)
			continue;
		for (int r = 0; r < TH_NREGS; r++) {
			const struct th_sym *l;

			if (r == TH_RSP)
				continue;
			snprintf(name, sizeof(name), "%s%s", prefixes[i], th_reg_name(r));
			if (th_bin_find_syms(b, name, &l, 1) && l->addr == addr && !l->absolute)
				return r;
		}
	}
	return TH_NOREG;
}

/* A direct call (or a tail jump out of the function) with the argument
 * registers of this path; one record per place and arguments. */
static void record_call(struct exec *x, const struct state *s, uint64_t at, uint64_t callee,
			bool jump)
{
	static const int argregs[6] = { TH_RDI, TH_RSI, TH_RDX, TH_RCX, TH_R8, TH_R9 };
	struct analysis *an = x->an;
	struct call_priv *cp;

	for (size_t i = 0; i < an->ncalls; i++) {
		bool same = an->calls[i].addr == at;

		for (int k = 0; k < 6 && same; k++)
			same = an->cp[i].args[k] == s->r[argregs[k]];
		if (same)
			return;
	}
	if (an->ncalls == MAX_CALLS)
		return;
	if (an->ncalls == an->capcalls) {
		size_t cap = an->capcalls ? 2 * an->capcalls : 16;
		struct th_direct_call *c = realloc(an->calls, cap * sizeof(*c));
		struct call_priv *p;

		if (c)
			an->calls = c;
		p = c ? realloc(an->cp, cap * sizeof(*p)) : NULL;
		if (!p) {
			x->oom = true;
			return;
		}
		an->cp = p;
		an->capcalls = cap;
	}
	cp = &an->cp[an->ncalls];
	cp->b = x->b;
	cp->ar = &an->ar;
	for (int k = 0; k < 6; k++)
		cp->args[k] = s->r[argregs[k]];
	an->calls[an->ncalls++] = (struct th_direct_call){ at, callee, jump, NULL };
}

static unsigned branch_visits(const struct state *s, uint64_t at)
{
	unsigned c = 0;

	for (unsigned i = 0; i < s->nconds; i++)
		c += s->conds[i].at == at;
	return c;
}

/* Run one path from s until it ends; forks are pushed. */
static void run_path(struct exec *x, struct state *s)
{
	struct arena *ar = &x->an->ar;

	for (;;) {
		const struct dinsn *d;
		const struct dop *o0, *o1;
		int32_t a, b, r;

		if (x->oom || ar->oom)
			return;
		if (s->pc < x->fn->addr || s->pc >= x->fn->addr + x->fn->size)
			return; /* left the function (a tail jump, a noreturn call's fallthrough) */
		d = insn_at(x->v, x->nv, s->pc);
		if (!d || ++s->steps > MAX_PATH_STEPS || ++x->total > MAX_TOTAL_STEPS) {
			if (d)
				x->incomplete = true;
			return;
		}
		o0 = d->nops > 0 ? &d->ops[0] : NULL;
		o1 = d->nops > 1 ? &d->ops[1] : NULL;
		s->pc = d->addr + d->size;
		switch (d->id) {
		case X86_INS_NOP: case X86_INS_ENDBR64: case X86_INS_ENDBR32: case X86_INS_PUSH:
			break;
		case X86_INS_POP:
			if (o0)
				write_op(ar, s, o0, fresh(ar));
			break;
		case X86_INS_MOV: case X86_INS_MOVABS:
			if (o0 && o1)
				write_op(ar, s, o0, read_op(ar, s, d, o1));
			break;
		case X86_INS_MOVZX:
			if (o0 && o1)
				write_op(ar, s, o0, read_op(ar, s, d, o1));
			break;
		case X86_INS_MOVSX: case X86_INS_MOVSXD:
			if (o0 && o1)
				write_op(ar, s, o0, mk(ar, X_SX, o0->size * 8, read_op(ar, s, d, o1), -1,
						       o1->size * 8u));
			break;
		case X86_INS_LEA:
			if (o0 && o1 && o1->type == X86_OP_MEM)
				write_op(ar, s, o0, mem_addr(ar, s, d, o1));
			break;
		case X86_INS_ADD: case X86_INS_SUB: case X86_INS_AND: case X86_INS_OR:
		case X86_INS_XOR: {
			static const struct { unsigned id; enum xop op; enum fkind f; } ops[] = {
				{ X86_INS_ADD, X_ADD, F_ADD }, { X86_INS_SUB, X_SUB, F_SUB },
				{ X86_INS_AND, X_AND, F_LOGIC }, { X86_INS_OR, X_OR, F_LOGIC },
				{ X86_INS_XOR, X_XOR, F_LOGIC },
			};
			size_t k = 0;
			unsigned w;

			if (!o0 || !o1) {
				clobber(ar, s, d);
				break;
			}
			while (ops[k].id != d->id)
				k++;
			w = o0->size * 8u;
			a = read_op(ar, s, d, o0);
			b = read_op(ar, s, d, o1);
			if ((d->id == X86_INS_XOR || d->id == X86_INS_SUB) && xequal(ar, a, b))
				r = mk(ar, X_CONST, w, -1, -1, 0);
			else
				r = mk(ar, ops[k].op, w, a, b, 0);
			write_op(ar, s, o0, r);
			s->f = (struct flags){ (uint8_t)ops[k].f, (uint8_t)w, a, b, r };
			break;
		}
		case X86_INS_CMP:
			if (o0 && o1)
				s->f = (struct flags){ F_SUB, (uint8_t)(o0->size * 8), read_op(ar, s, d, o0),
						       read_op(ar, s, d, o1), -1 };
			break;
		case X86_INS_TEST:
			if (o0 && o1) {
				unsigned w = o0->size * 8u;

				a = read_op(ar, s, d, o0);
				b = read_op(ar, s, d, o1);
				s->f = (struct flags){ F_LOGIC, (uint8_t)w, a, b,
						       mk(ar, X_AND, w, a, b, 0) };
			}
			break;
		case X86_INS_ROL: case X86_INS_ROR: case X86_INS_SHL: case X86_INS_SHR:
		case X86_INS_SAR: {
			enum xop op = d->id == X86_INS_ROL ? X_ROL : d->id == X86_INS_ROR ? X_ROR :
				      d->id == X86_INS_SHL ? X_SHL : d->id == X86_INS_SHR ? X_SHR : X_SAR;

			if (!o0) {
				clobber(ar, s, d);
				break;
			}
			a = read_op(ar, s, d, o0);
			b = o1 ? read_op(ar, s, d, o1) : mk(ar, X_CONST, 8, -1, -1, 1);
			write_op(ar, s, o0, mk(ar, op, o0->size * 8u, a, b, 0));
			s->f = no_flags; /* shifts define only some flags */
			break;
		}
		case X86_INS_NEG:
			if (o0) {
				unsigned w = o0->size * 8u;

				a = read_op(ar, s, d, o0);
				r = mk(ar, X_NEG, w, a, -1, 0);
				write_op(ar, s, o0, r);
				s->f = (struct flags){ F_SUB, (uint8_t)w, mk(ar, X_CONST, w, -1, -1, 0), a, r };
			}
			break;
		case X86_INS_NOT:
			if (o0)
				write_op(ar, s, o0, mk(ar, X_NOT, o0->size * 8u, read_op(ar, s, d, o0), -1, 0));
			break;
		case X86_INS_RET: case X86_INS_RETF: case X86_INS_INT3: case X86_INS_HLT:
			return;
		case X86_INS_UD2: case X86_INS_UD2B:
			record(x, s, EV_TRAP, d->addr, NULL, -1);
			return;
		case X86_INS_JMP:
			if (o0 && o0->type == X86_OP_IMM) {
				uint64_t to = (uint64_t)o0->imm;
				int reg = thunk_reg(x->b, to);

				if (reg != TH_NOREG) {
					record(x, s, EV_SITE, d->addr, NULL, s->r[reg]);
					return;
				}
				if (to < x->fn->addr || to >= x->fn->addr + x->fn->size) {
					record_call(x, s, d->addr, to, true);	/* a tail call */
					return;
				}
				s->pc = to;
				break;
			}
			record(x, s, EV_SITE, d->addr, NULL, o0 ? read_op(ar, s, d, o0) : fresh(ar));
			return;
		case X86_INS_CALL:
			if (o0 && o0->type == X86_OP_IMM) {
				const struct th_sym *callee = th_bin_func_at(x->b, (uint64_t)o0->imm);
				int reg = thunk_reg(x->b, (uint64_t)o0->imm);

				if (callee && is_cfi_handler(callee->name)) {
					record(x, s, EV_HANDLER, d->addr, callee->name, -1);
					return;
				}
				if (reg != TH_NOREG)
					record(x, s, EV_SITE, d->addr, NULL, s->r[reg]);
				else
					record_call(x, s, d->addr, (uint64_t)o0->imm, false);
				clobber_call(ar, s);
				break;
			}
			record(x, s, EV_SITE, d->addr, NULL, o0 ? read_op(ar, s, d, o0) : fresh(ar));
			clobber_call(ar, s);
			break;
		default:
			if (is_jcc(d->id) && o0 && o0->type == X86_OP_IMM) {
				struct cond c = { d->addr, d->id, true, s->f };

				if (d->id == X86_INS_JRCXZ || d->id == X86_INS_JECXZ ||
				    d->id == X86_INS_JCXZ) {
					int32_t rc = s->r[TH_RCX];

					c.f = (struct flags){ F_LOGIC, 64, rc, -1, rc };
				}
				if (branch_visits(s, d->addr) >= MAX_BRANCH_VISITS)
					return; /* a loop, cut: its later rounds check nothing new */
				if (s->nconds == MAX_CONDS || x->paths >= MAX_PATHS) {
					x->incomplete = true;
					return;
				}
				x->paths++;
				s->conds[s->nconds] = c;
				s->nconds++;
				/* The taken side later; this path falls through. */
				{
					struct state t = *s;

					t.pc = (uint64_t)o0->imm;
					push(x, &t);
				}
				s->conds[s->nconds - 1].taken = false;
				break;
			}
			clobber(ar, s, d);
			break;
		}
	}
}

/* ---- from events to call sites ---------------------------------------------------------- */

static void add_guard(struct th_call_site *s, const struct event *g, uint64_t branch,
		      const struct arena *ar, int32_t target)
{
	struct th_guard *gd;
	int reg = TH_NOREG;

	/* One trap can stand behind two checks (clang 14 sends both of
	 * tasklet_action_common()'s cfi-icall checks to one ud1): a guard per
	 * check, each with its own branch. */
	for (size_t i = 0; i < s->nguards; i++)
		if (s->guards[i].addr == g->at && s->guards[i].branch == branch)
			return;
	if (s->nguards == TH_SITE_MAX_GUARDS)
		return;
	gd = &s->guards[s->nguards++];
	memset(gd, 0, sizeof(*gd));
	gd->addr = g->at;
	gd->branch = branch;
	gd->kind = g->kind == EV_HANDLER ? TH_GUARD_HANDLER : TH_GUARD_TRAP;
	snprintf(gd->handler, sizeof(gd->handler), "%s", g->handler);
	if (s->target_reg >= 0 && xequal(ar, g->r[s->target_reg], target))
		reg = s->target_reg;
	for (int k = 0; k < TH_NREGS && reg == TH_NOREG; k++)
		if (k != TH_RSP && xequal(ar, g->r[k], target))
			reg = k;
	gd->target_reg = reg;
}

/* First place where two paths part: the branch, or -1 when one is a prefix. */
static int parting(const struct event *x, const struct event *y)
{
	unsigned n = x->nconds < y->nconds ? x->nconds : y->nconds;

	for (unsigned i = 0; i < n; i++) {
		if (x->conds[i].at != y->conds[i].at)
			return -1;
		if (x->conds[i].taken != y->conds[i].taken)
			return (int)i;
	}
	return -1;
}

/* The ubsan handler's static data: SourceLocation and TypeDescriptor
 * (compiler-rt ubsan_handlers.h: CFICheckFailData { u8 CheckKind;
 * SourceLocation Loc; TypeDescriptor &Type }, FunctionTypeMismatchData
 * { SourceLocation Loc; TypeDescriptor &Type }; SourceLocation { const char
 * *Filename; u32 Line, Column }; TypeDescriptor { u16 Kind, Info; char Name[] }). */
static void handler_data(const struct th_bin *b, const struct arena *ar, const struct event *g,
			 struct th_guard *gd)
{
	const struct xnode *rdi = &ar->v[g->r[TH_RDI]];
	uint64_t data, loc, fname, type;
	uint32_t lc[2];
	char buf[256];

	if (rdi->op != X_PCREL && rdi->op != X_CONST)
		return;
	data = rdi->k;
	loc = strstr(gd->handler, "function_type_mismatch") ? data : data + 8;
	if (th_bin_read_ptr(b, loc, &fname) || th_bin_read(b, loc + 8, lc, sizeof(lc)))
		return;
	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i + 1 < sizeof(buf); i++)
		if (th_bin_read(b, fname + i, &buf[i], 1) || !buf[i])
			break;
	snprintf(gd->file, sizeof(gd->file), "%s", buf);
	gd->line = lc[0];
	gd->column = lc[1];
	if (th_bin_read_ptr(b, loc + 16, &type))
		return;
	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i + 1 < sizeof(gd->type); i++)
		if (th_bin_read(b, type + 4 + i, &buf[i], 1) || !buf[i])
			break;
	snprintf(gd->type, sizeof(gd->type), "%s", buf);
}

/* The offset k of a load of T + k (w bits) in x, stripped of zero-extensions. */
static bool load_of_target(const struct arena *ar, int32_t x, int32_t t, unsigned w, int *off)
{
	struct ev_ctx e = { NULL, ar, NULL, t, 0, false, 0 };
	uint64_t v1, v2;

	while (x >= 0 && ar->v[x].op == X_ZX)
		x = ar->v[x].a;
	if (x < 0 || ar->v[x].op != X_LOAD || ar->v[x].w != w || !xcontains(ar, ar->v[x].a, t))
		return false;
	e.t = 1ULL << 40;
	ev_start(&e);
	v1 = eval(&e, ar->v[x].a) - e.t;
	if (e.fail)
		return false;
	e.t = 1ULL << 41;
	ev_start(&e);
	v2 = eval(&e, ar->v[x].a) - e.t;
	if (e.fail || v1 != v2)
		return false;
	*off = (int)(int64_t)v1;
	return true;
}

static bool const_value(const struct arena *ar, int32_t x, uint64_t *v)
{
	struct ev_ctx e = { NULL, ar, NULL, -1, 0, false, 0 };

	if (x < 0 || !xconstant(ar, x))
		return false;
	ev_start(&e);
	*v = eval(&e, x);
	return !e.fail;
}

/* The 32-bit value a word at T + off must hold for c to go its way, when c
 * compares that word with a constant (cmp word, K; or add K', word == 0). */
static bool word_required(const struct arena *ar, const struct cond *c, int32_t t, int *off,
			  uint32_t *val)
{
	const struct flags *f = &c->f;
	uint64_t k;
	bool eq = (c->jcc == X86_INS_JE && c->taken) || (c->jcc == X86_INS_JNE && !c->taken);
	bool ne = (c->jcc == X86_INS_JNE && c->taken) || (c->jcc == X86_INS_JE && !c->taken);

	if (f->w != 32 || (!eq && !ne))
		return false;
	if (f->kind == F_SUB && load_of_target(ar, f->a, t, 32, off) && const_value(ar, f->b, &k)) {
		*val = (uint32_t)k;
		return true;
	}
	if (f->kind == F_SUB && load_of_target(ar, f->b, t, 32, off) && const_value(ar, f->a, &k)) {
		*val = (uint32_t)k;
		return true;
	}
	if (f->kind == F_ADD) {
		if (load_of_target(ar, f->b, t, 32, off) && const_value(ar, f->a, &k)) {
			*val = (uint32_t)(0 - k);
			return true;
		}
		if (load_of_target(ar, f->a, t, 32, off) && const_value(ar, f->b, &k)) {
			*val = (uint32_t)(0 - k);
			return true;
		}
	}
	return false;
}

static void icall_table(struct th_call_site *s, const struct th_bin *b)
{
	size_t nsyms = th_bin_nsyms(b);

	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *g = th_bin_sym(b, i);
		size_t len = strlen(g->name);
		char name[200];
		const struct th_sym *al;
		uint64_t step = 8, lo, hi;
		unsigned count = 1;

		if (strncmp(g->name, "__typeid_", 9) || len < 22 || len - 21 >= sizeof(s->icall.type_id) ||
		    strcmp(g->name + len - 12, "_global_addr") || th_site_admits(s, g->addr, NULL) != 1)
			continue;
		snprintf(s->icall.type_id, sizeof(s->icall.type_id), "%.*s", (int)(len - 21), g->name + 9);
		snprintf(name, sizeof(name), "__typeid_%s_align", s->icall.type_id);
		if (th_bin_find_syms(b, name, &al, 1) == 1 && al->absolute && al->addr < 16)
			step = 1ULL << al->addr;
		s->icall.global_addr = g->addr;
		s->icall.entry_size = (unsigned)step;
		lo = hi = g->addr;
		while (count < 65536 && th_site_admits(s, lo - step, NULL) == 1) {
			lo -= step;
			count++;
		}
		while (count < 65536 && th_site_admits(s, hi + step, NULL) == 1) {
			hi += step;
			count++;
		}
		s->icall.table = lo;
		s->icall.entries = count;
		return;
	}
}

/* Name the scheme from what the guards and their conditions read. */
static void classify_site(struct th_call_site *s, const struct th_bin *b, const struct arena *ar,
			  const struct site_priv *sp)
{
	bool handler_cfi = false, handler_fn = false, kcfi = false, trap = false;

	for (size_t i = 0; i < s->nguards; i++) {
		const struct th_guard *g = &s->guards[i];

		if (g->kind == TH_GUARD_HANDLER) {
			handler_fn |= strstr(g->handler, "function_type_mismatch") != NULL;
			handler_cfi |= strstr(g->handler, "cfi") != NULL;
		} else {
			trap = true;
			kcfi |= g->kcfi_listed;
		}
	}
	/* The words the conditions require at T-8 and T-4. */
	for (size_t i = 0; i < sp->nev; i++)
		for (unsigned k = 0; k < sp->ev[i]->nconds; k++) {
			const struct cond *c = &sp->ev[i]->conds[k];
			uint32_t v;
			int off;

			if (!cond_on(ar, c, sp->ev[i]->target))
				continue;
			if (!word_required(ar, c, sp->ev[i]->target, &off, &v) || off >= 0 || off < -64)
				continue;
			if (off == -8) {
				s->function.signature = v;
				s->function.known = 1;
			} else {
				/* kcfi's hash: at T-4, or further out when the
				 * compiler pads entries (-fpatchable-function-entry) */
				s->kcfi.hash = s->function.hash = v;
				s->kcfi.offset = off;
				s->kcfi.known = 1;
			}
		}
	if (!s->nguards) {
		s->scheme = TH_CFI_NONE;
		snprintf(s->why, sizeof(s->why), "%s",
			 s->reached ? "no check: every path from the entry reaches the call unconditionally on its target"
				    : "not reached from the function's entry within the analysis limits");
		s->kcfi.known = s->function.known = 0;
		return;
	}
	if (kcfi && s->kcfi.known && !s->function.known) {
		s->scheme = TH_CFI_KCFI;
	} else if (handler_fn || (s->function.known && s->kcfi.known)) {
		s->scheme = TH_CFI_FUNCTION;
		s->function.known = s->function.known && s->kcfi.known;
	} else if (handler_cfi || (trap && !s->kcfi.known && !s->function.known)) {
		s->scheme = TH_CFI_ICALL;
		icall_table(s, b);
	} else {
		s->scheme = TH_CFI_UNKNOWN;
		snprintf(s->why, sizeof(s->why), "guarded by a check that reads neither a jump-table range, "
			 "a kcfi hash nor a function signature");
	}
	if (s->scheme != TH_CFI_KCFI)
		s->kcfi.known = 0;
	if (s->scheme != TH_CFI_FUNCTION)
		s->function.known = 0;
}

/* Is @d an indirect call or jump: through a register or memory, or a
 * direct one to a retpoline thunk? *@reg: the register holding the target
 * (TH_NOREG: memory). Return: 1 or 0. */
static int site_insn(const struct th_bin *b, const struct dinsn *d, int *reg)
{
	unsigned bytes;
	int r = TH_NOREG;

	if (!((d->id == X86_INS_CALL || d->id == X86_INS_JMP) && d->nops))
		return 0;
	if (d->ops[0].type == X86_OP_IMM) {
		if ((r = thunk_reg(b, (uint64_t)d->ops[0].imm)) == TH_NOREG)
			return 0;
	} else if (d->ops[0].type == X86_OP_REG) {
		r = gpr(d->ops[0].reg, &bytes);
	}
	if (reg)
		*reg = r;
	return 1;
}

static void build_sites(struct exec *x, struct th_func_sites *fs)
{
	struct analysis *an = x->an;
	const struct arena *ar = &an->ar;
	size_t count = 0;

	for (size_t i = 0; i < x->nv; i++)
		count += site_insn(x->b, &x->v[i], NULL);
	fs->sites = calloc(count ? count : 1, sizeof(*fs->sites));
	an->sp = calloc(count ? count : 1, sizeof(*an->sp));
	if (!fs->sites || !an->sp) {
		x->oom = true;
		return;
	}
	for (size_t i = 0; i < x->nv; i++) {
		const struct dinsn *d = &x->v[i];
		struct th_call_site *s;
		struct site_priv *sp;
		int reg;

		if (!site_insn(x->b, d, &reg))
			continue;
		s = &fs->sites[fs->nsites];
		sp = &an->sp[fs->nsites];
		fs->nsites++;
		s->addr = d->addr;
		s->size = d->size;
		s->is_jump = d->id == X86_INS_JMP;
		if (d->ops[0].type == X86_OP_IMM) {
			const struct th_sym *t = th_bin_func_at(x->b, (uint64_t)d->ops[0].imm);

			if (t)
				snprintf(s->insn, sizeof(s->insn), "%s %s", s->is_jump ? "jmp" : "call", t->name);
			else	/* a thunk that is a label, not a FUNC (thunk_reg) */
				snprintf(s->insn, sizeof(s->insn), "%s <retpoline thunk: %s>",
					 s->is_jump ? "jmp" : "call", th_reg_name(reg));
		} else {
			snprintf(s->insn, sizeof(s->insn), "%s", d->text);
		}
		s->target_reg = reg;
		sp->b = x->b;
		sp->ar = ar;
		sp->ev = calloc(an->nev ? an->nev : 1, sizeof(*sp->ev));
		if (!sp->ev) {
			x->oom = true;
			return;
		}
		for (size_t k = 0; k < an->nev; k++)
			if (an->ev[k].kind == EV_SITE && an->ev[k].at == d->addr)
				sp->ev[sp->nev++] = &an->ev[k];
		sp->on = calloc(sp->nev ? sp->nev : 1, sizeof(*sp->on));
		if (!sp->on) {
			x->oom = true;
			return;
		}
		for (size_t k = 0; k < sp->nev; k++)
			for (unsigned c = 0; c < sp->ev[k]->nconds; c++)
				if (cond_on(ar, &sp->ev[k]->conds[c], sp->ev[k]->target))
					sp->on[k] |= 1ULL << c;
		s->priv = sp;
		s->reached = sp->nev > 0;
		/* Guards: a trap or handler whose path parts from a path to the site
		 * at a branch on the site's target; its branch the last such on
		 * its way (the check whose failure leads to it: -fsanitize=function's
		 * hash compare, not the signature compare before it), a guard per
		 * branch where two checks share one trap. */
		for (size_t g = 0; g < an->nev; g++) {
			const struct event *ge = &an->ev[g];
			int best = -1;
			size_t bk = 0;

			if (ge->kind != EV_TRAP && ge->kind != EV_HANDLER)
				continue;
			for (size_t k = 0; k < sp->nev; k++) {
				int at = parting(ge, sp->ev[k]);

				if (at < 0 || !cond_on(ar, &ge->conds[at], sp->ev[k]->target))
					continue;
				/* The last branch on that target before the trap. */
				for (int q = (int)ge->nconds - 1; q > best && q >= at; q--)
					if (cond_on(ar, &ge->conds[q], sp->ev[k]->target)) {
						best = q;
						bk = k;
						break;
					}
			}
			/* The check's own failure side leads straight to its trap:
			 * a path whose last branch is not on the target reached
			 * the trap some other way (past a noreturn call the
			 * reader does not know, into the handler block after it). */
			if (best >= 0 && best != (int)ge->nconds - 1)
				best = -1;
			if (best >= 0)
				add_guard(s, ge, ge->conds[best].at, ar, sp->ev[bk]->target);
		}
		for (size_t g = 0; g < s->nguards; g++) {
			struct th_guard *gd = &s->guards[g];
			const struct dinsn *gi = insn_at(x->v, x->nv, gd->addr);

			gd->kcfi_listed = th_bin_is_kcfi_trap(x->b, gd->addr);
			snprintf(gd->insn, sizeof(gd->insn), "%s",
				 gd->kind == TH_GUARD_HANDLER ? "call" : gi && gi->id == X86_INS_UD2 ? "ud2" : "ud1");
			if (gd->kind == TH_GUARD_HANDLER)
				for (size_t k = 0; k < an->nev; k++)
					if (an->ev[k].at == gd->addr && an->ev[k].kind == EV_HANDLER) {
						handler_data(x->b, ar, &an->ev[k], gd);
						break;
					}
		}
		classify_site(s, x->b, ar, sp);
	}
}

/* A target read from a table inside the binary at a computed index (a
 * switch's jump table): a load from a pc-relative address plus something
 * that is not a constant. A load from a pc-relative address alone is a
 * function-pointer variable. */
static bool from_table(const struct arena *ar, int32_t x)
{
	return x >= 0 && (ar->v[x].fl & XF_TABLE);
}

struct th_func_sites *th_bin_analyse(struct th_bin *b, const struct th_sym *fn, char *err,
				     size_t n)
{
	struct th_func_sites *fs = calloc(1, sizeof(*fs));
	struct analysis *an = calloc(1, sizeof(*an));
	struct exec x = { .b = b, .fn = fn };
	struct state *s0 = calloc(1, sizeof(*s0));
	struct dinsn *v = NULL;
	size_t nv = 0;

	if (an)
		an->ar.sc = calloc(1, sizeof(*an->ar.sc));
	if (!fs || !an || !s0 || !an->ar.sc) {
		snprintf(err, n, "%s: out of memory", th_bin_path(b));
		goto fail;
	}
	fs->priv = an;
	snprintf(fs->func, sizeof(fs->func), "%s", fn->name);
	fs->start = fn->addr;
	fs->size = fn->size;
	if (decode(b, fn, &v, &nv, err, n))
		goto fail;
	x.v = v;
	x.nv = nv;
	x.an = an;
	for (int r = 0; r < TH_NREGS; r++)
		s0->r[r] = mk(&an->ar, X_ENTRY, 64, -1, -1, (uint64_t)r);
	s0->pc = fn->addr;
	/* What the flags hold at the entry is the caller's, not this code's. */
	s0->f = no_flags;
	push(&x, s0);
	while (x.depth && !x.oom && !an->ar.oom) {
		struct state *s = malloc(sizeof(*s));

		if (!s) {
			x.oom = true;
			break;
		}
		*s = x.stack[--x.depth];
		run_path(&x, s);
		free(s);
	}
	if (!x.oom && !an->ar.oom)
		build_sites(&x, fs);
	for (size_t i = 0; i < an->ncalls; i++)
		an->calls[i].priv = &an->cp[i];
	fs->ncalls = an->ncalls;
	fs->calls = an->calls;
	for (size_t i = 0; i < fs->nsites && !x.oom; i++) {
		const struct site_priv *sp = fs->sites[i].priv;

		fs->sites[i].from_table = fs->sites[i].is_jump && sp && sp->nev &&
					  from_table(&an->ar, sp->ev[0]->target);
	}
	free(x.stack);
	free(s0);
	free(v);
	if (x.oom || an->ar.oom) {
		snprintf(err, n, "%s: out of memory analysing %s", th_bin_path(b), fn->name);
		th_func_sites_free(fs);
		return NULL;
	}
	fs->complete = !x.incomplete;
	return fs;
fail:
	free(s0);
	free(v);
	if (fs)
		fs->priv = an;
	th_func_sites_free(fs);
	if (!fs && an) {
		free(an->ar.sc);
		free(an);
	}
	return NULL;
}

void th_func_sites_free(struct th_func_sites *fs)
{
	struct analysis *an;

	if (!fs)
		return;
	an = fs->priv;
	if (an) {
		for (size_t i = 0; i < an->nev; i++)
			free(an->ev[i].conds);
		for (size_t i = 0; i < fs->nsites && an->sp; i++) {
			free(an->sp[i].ev);
			free(an->sp[i].on);
		}
		free(an->ev);
		free(an->sp);
		free(an->calls);
		free(an->cp);
		free(an->ar.v);
		free(an->ar.slot);
		if (an->ar.sc) {
			free(an->ar.sc->stamp);
			free(an->ar.sc->val);
			free(an->ar.sc->stack);
			free(an->ar.sc);
		}
		free(an);
	}
	free(fs->sites);
	free(fs);
}

/* ---- one instruction, several calls ---------------------------------------------------- */

const char *th_call_arg_name(enum th_call_arg a)
{
	return a == TH_CALL_ARG_OBJECT ? "fn(obj)" : a == TH_CALL_ARG_FIELD ? "fn(obj->word)" : "fn(?)";
}

/* @x as root + a constant offset: X_ADD/X_SUB of a constant, stripped. */
static int32_t strip_offset(const struct arena *ar, int32_t x, int64_t *off)
{
	*off = 0;
	while (x >= 0 && (ar->v[x].op == X_ADD || ar->v[x].op == X_SUB) && ar->v[x].b >= 0 &&
	       ar->v[ar->v[x].b].op == X_CONST) {
		int64_t k = (int64_t)ar->v[ar->v[x].b].k;

		*off += ar->v[x].op == X_ADD ? k : -k;
		x = ar->v[x].a;
	}
	return x;
}

/* How the path @ev passes the object its target is read from. */
static enum th_call_arg event_arg(const struct arena *ar, const struct event *ev, int64_t *toff,
				  int64_t *aoff)
{
	int32_t t = ev->target, a = ev->r[TH_RDI], root;

	*toff = *aoff = 0;
	if (t < 0 || a < 0 || ar->v[t].op != X_LOAD || ar->v[t].w != 64)
		return TH_CALL_ARG_OTHER;
	root = strip_offset(ar, ar->v[t].a, toff);
	if (strip_offset(ar, a, aoff) == root)
		return TH_CALL_ARG_OBJECT;
	if (ar->v[a].op == X_LOAD && ar->v[a].w == 64 && strip_offset(ar, ar->v[a].a, aoff) == root)
		return TH_CALL_ARG_FIELD;
	*aoff = 0;
	return TH_CALL_ARG_OTHER;
}

/* A copy of a site reduced to some of its paths, and what its priv is. */
struct site_copy {
	struct th_call_site s;
	struct site_priv sp;
};

size_t th_site_calls(const struct th_call_site *s, struct th_site_call *out, size_t max)
{
	const struct site_priv *sp = s->priv;
	enum th_call_arg shape[3];
	int64_t toff[3], aoff[3];
	size_t nshape = 0, made = 0;

	for (size_t i = 0; sp && i < sp->nev; i++) {
		int64_t to, ao;
		enum th_call_arg a = event_arg(sp->ar, sp->ev[i], &to, &ao);
		size_t k = 0;

		while (k < nshape && shape[k] != a)
			k++;
		if (k == nshape && nshape < 3) {
			shape[nshape] = a;
			toff[nshape] = to;
			aoff[nshape++] = ao;
		}
	}
	if (nshape <= 1) {
		struct site_copy *c;

		if (!max)
			return 1;
		if (!(c = calloc(1, sizeof(*c))))
			return 0;
		c->s = *s;	/* the priv stays the site's own */
		out[0] = (struct th_site_call){ &c->s, nshape ? shape[0] : TH_CALL_ARG_OTHER,
						nshape ? toff[0] : 0, nshape ? aoff[0] : 0,
						sp ? sp->nev : 0, c };
		return 1;
	}
	for (size_t g = 0; g < nshape && made < max; g++) {
		struct site_copy *c = calloc(1, sizeof(*c));
		struct th_call_site *cs;

		if (!c || !(c->sp.ev = calloc(sp->nev, sizeof(*c->sp.ev))) ||
		    !(c->sp.on = calloc(sp->nev, sizeof(*c->sp.on)))) {
			if (c)
				free(c->sp.ev);
			free(c);
			while (made)
				th_site_call_free(&out[--made]);
			return 0;
		}
		c->sp.b = sp->b;
		c->sp.ar = sp->ar;
		for (size_t i = 0; i < sp->nev; i++) {
			int64_t to, ao;

			if (event_arg(sp->ar, sp->ev[i], &to, &ao) != shape[g])
				continue;
			c->sp.ev[c->sp.nev] = sp->ev[i];
			c->sp.on[c->sp.nev++] = sp->on[i];
		}
		cs = &c->s;
		*cs = *s;
		cs->priv = &c->sp;
		cs->reached = c->sp.nev > 0;
		/* Its guards: those whose branch one of its paths passes on its
		 * own target (the check on this path). */
		cs->nguards = 0;
		for (size_t k = 0; k < s->nguards; k++) {
			int on = 0;

			for (size_t i = 0; i < c->sp.nev && !on; i++)
				for (unsigned q = 0; q < c->sp.ev[i]->nconds && !on; q++)
					on = c->sp.ev[i]->conds[q].at == s->guards[k].branch &&
					     (c->sp.on[i] >> q & 1);
			if (on)
				cs->guards[cs->nguards++] = s->guards[k];
		}
		cs->scheme = TH_CFI_NONE;
		cs->why[0] = 0;
		memset(&cs->icall, 0, sizeof(cs->icall));
		memset(&cs->kcfi, 0, sizeof(cs->kcfi));
		memset(&cs->function, 0, sizeof(cs->function));
		classify_site(cs, sp->b, sp->ar, &c->sp);
		out[made++] = (struct th_site_call){ cs, shape[g], toff[g], aoff[g], c->sp.nev, c };
	}
	return made;
}

void th_site_call_free(struct th_site_call *c)
{
	struct site_copy *sc = c ? c->own : NULL;

	if (!sc)
		return;
	if (sc->s.priv == &sc->sp) {
		free(sc->sp.ev);
		free(sc->sp.on);
	}
	free(sc);
	c->own = NULL;
	c->site = NULL;
}

const struct th_guard *th_site_guard_at(const struct th_call_site *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nguards; i++)
		if (s->guards[i].addr == addr)
			return &s->guards[i];
	return NULL;
}

void th_site_describe(const struct th_call_site *s, char *buf, size_t n)
{
	size_t len;

	switch (s->scheme) {
	case TH_CFI_ICALL:
		snprintf(buf, n, "cfi-icall: target in the jump table of %s (0x%" PRIx64 ", %u entries of %u bytes)",
			 s->icall.type_id[0] ? s->icall.type_id : "an unnamed type", s->icall.table,
			 s->icall.entries, s->icall.entry_size);
		break;
	case TH_CFI_KCFI:
		snprintf(buf, n, "kcfi: hash 0x%08x at target%+d", s->kcfi.hash, s->kcfi.offset);
		break;
	case TH_CFI_FUNCTION:
		snprintf(buf, n, "function: signature 0x%08x at target-8, type hash 0x%08x at target-4",
			 s->function.signature, s->function.hash);
		break;
	default:
		snprintf(buf, n, "%s: %s", th_cfi_scheme_name(s->scheme), s->why);
		return;
	}
	for (size_t i = 0; i < s->nguards; i++) {
		const struct th_guard *g = &s->guards[i];
		int said = 0;

		for (size_t k = 0; k < i; k++)
			said |= s->guards[k].addr == g->addr;
		if (said)
			continue;	/* one trap behind two checks: named once */
		len = strlen(buf);
		if (g->kind == TH_GUARD_TRAP)
			snprintf(buf + len, n - len, "; %s at 0x%" PRIx64 "%s", g->insn, g->addr,
				 g->kcfi_listed ? " (.kcfi_traps)" : "");
		else
			snprintf(buf + len, n - len, "; call %s at 0x%" PRIx64, g->handler, g->addr);
	}
}

int th_bin_direct_branch(const struct th_bin *b, uint64_t vaddr, uint64_t *target)
{
	uint8_t code[16];
	const uint8_t *p = code;
	size_t left = sizeof(code);
	uint64_t addr = vaddr;
	csh h;
	cs_insn *insn;
	int ret = -1;

	/* A jmp rel32 is 5 bytes: accept a short read at the end of a segment. */
	while (left >= 5 && th_bin_read(b, vaddr, code, left))
		left--;
	if (left < 2 || cs_get(&h, &insn))
		return -1;
	if (cs_disasm_iter(h, &p, &left, &addr, insn) &&
	    (insn->id == X86_INS_JMP || insn->id == X86_INS_CALL) &&
	    insn->detail->x86.op_count == 1 && insn->detail->x86.operands[0].type == X86_OP_IMM) {
		*target = (uint64_t)insn->detail->x86.operands[0].imm;
		ret = 0;
	}
	return ret;
}

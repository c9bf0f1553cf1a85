/* SPDX-License-Identifier: MIT */
/* Target sets of indirect call sites (target_set.h), on top of the binary reader. */
#include "target_set.h"
#include "lib/stats.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------------------------- */

int th_reach_is_privileged(const char *name, const char *const *privileged, size_t npriv)
{
	size_t len = strcspn(name, ".");

	for (size_t i = 0; i < npriv; i++)
		if (strlen(privileged[i]) == len && !strncmp(name, privileged[i], len))
			return 1;
	return 0;
}

/* Symbols that sit at a function's address without being its name: the
 * cfi-icall type marker (__typeid_<T>_global_addr, a 1-byte FUNC on the
 * first entry) and kcfi's preamble. */
static int marker_symbol(const char *name)
{
	return !strncmp(name, "__typeid_", 9) || !strncmp(name, "__cfi_", 6);
}

/* The FUNC symbols at @addr (binread's address index): *@all, malloc'd when
 * they do not fit @buf. Return: how many. */
static size_t syms_at(const struct th_bin *b, uint64_t addr, const struct th_sym **buf,
		      size_t nbuf, const struct th_sym ***all)
{
	size_t n = th_bin_funcs_at(b, addr, buf, nbuf);

	*all = (const struct th_sym **)buf;
	if (n > nbuf) {
		const struct th_sym **v = malloc(n * sizeof(*v));

		if (!v)
			return nbuf;	/* the first nbuf then */
		th_bin_funcs_at(b, addr, v, n);
		*all = v;
	}
	return n;
}

/* The name of the function entry at @addr: a FUNC symbol there that is not
 * a marker, a global one over a local alias. With @sized, only one with a
 * size (what can be read as code). NULL if none. */
static const struct th_sym *pick_symbol(const struct th_bin *b, uint64_t addr, int sized)
{
	const struct th_sym *buf[16], **v, *best = NULL;
	size_t n = syms_at(b, addr, buf, 16, &v);

	for (size_t i = 0; i < n; i++) {
		const struct th_sym *s = v[i];

		if (marker_symbol(s->name) || (sized && !s->size))
			continue;
		if (!best || (best->bind == STB_LOCAL && s->bind != STB_LOCAL))
			best = s;
	}
	if (v != buf)
		free(v);
	return best;
}

static const struct th_sym *entry_symbol(const struct th_bin *b, uint64_t addr)
{
	return pick_symbol(b, addr, 0);
}

/* ---- candidates: every function entry in an executable segment ------------------------- */

struct addrs {
	uint64_t *v;
	size_t n, cap;
};

static int addrs_push(struct addrs *a, uint64_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		uint64_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

static void addrs_unique(struct addrs *a)
{
	size_t k = 0;

	if (a->n > 1)	/* never qsort(NULL, 0): the base is declared nonnull */
		qsort(a->v, a->n, sizeof(*a->v), th_cmp_u64);
	for (size_t i = 0; i < a->n; i++)
		if (!k || a->v[k - 1] != a->v[i])
			a->v[k++] = a->v[i];
	a->n = k;
}

static int addrs_has(const struct addrs *a, uint64_t x)
{
	return a->n && bsearch(&x, a->v, a->n, sizeof(*a->v), th_cmp_u64) != NULL;
}

static int candidates(const struct th_bin *b, struct addrs *out)
{
	size_t nsyms = th_bin_nsyms(b);

	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *s = th_bin_sym(b, i);

		if (s->type == STT_FUNC && !s->absolute && !marker_symbol(s->name) &&
		    th_bin_is_exec(b, s->addr) && addrs_push(out, s->addr))
			return -1;
	}
	addrs_unique(out);
	return 0;
}

/* ---- one computation --------------------------------------------------------------------- */

struct ctx {
	struct th_bin *b;
	const struct th_reach_opts *o;
};

/* Is @name (up to its first '.') one of @names? */
static int named(const char *name, const char *const *names, size_t n)
{
	return name && th_reach_is_privileged(name, names, n);
}

static int add_member(struct th_reach_site *rs, size_t *cap, const struct ctx *c,
		      uint64_t addr, const struct th_call_site *s)
{
	const struct th_reach_opts *o = c->o;
	struct th_reach_member *m;
	const struct th_sym *sym = entry_symbol(c->b, addr);

	if (rs->nmembers == *cap) {
		size_t n = *cap ? 2 * *cap : 16;
		struct th_reach_member *v = realloc(rs->members, n * sizeof(*v));

		if (!v)
			return -1;
		rs->members = v;
		*cap = n;
	}
	m = &rs->members[rs->nmembers++];
	memset(m, 0, sizeof(*m));
	m->addr = m->body_addr = addr;
	m->name = sym ? sym->name : NULL;
	if (s->scheme == TH_CFI_ICALL) {
		uint64_t to;

		/* A jump-table entry forwards to the body with one jmp. */
		if (!th_bin_direct_branch(c->b, addr, &to) && to != addr) {
			const struct th_sym *body = entry_symbol(c->b, to);

			m->body_addr = to;
			m->body = body ? body->name : NULL;
		}
	}
	if (s->scheme == TH_CFI_FUNCTION) {
		uint32_t sig;

		m->unchecked = th_bin_read(c->b, addr - 8, &sig, 4) || sig != s->function.signature;
		rs->nunchecked += (size_t)m->unchecked;
	}
	m->privileged = named(m->name, o->privileged, o->npriv) ||
			named(m->body, o->privileged, o->npriv);
	m->legitimate = named(m->name, o->legitimate, o->nlegit) ||
			named(m->body, o->legitimate, o->nlegit);
	rs->nprivileged += (size_t)m->privileged;
	rs->nlegitimate += (size_t)m->legitimate;
	rs->nconfusing += (size_t)(s->scheme != TH_CFI_NONE && !m->privileged && !m->legitimate &&
				   !m->unchecked);
	return 0;
}

/* kcfi admits any T whose word at T + offset is the hash: count the
 * executable addresses that pass and are no function's entry. Only the
 * bytes the file holds are scanned (past them the segment is zeros). */
static size_t kcfi_elsewhere(const struct th_bin *b, const struct th_call_site *s,
			     const struct addrs *entries)
{
	uint64_t lo[8], hi[8];
	size_t nr = th_bin_exec_ranges(b, lo, hi, 8), count = 0;
	unsigned char chunk[4096 + 3];

	for (size_t r = 0; r < nr && r < 8; r++)
		for (uint64_t at = lo[r]; at < hi[r]; at += 4096) {
			size_t len = hi[r] - at < sizeof(chunk) ? (size_t)(hi[r] - at) : sizeof(chunk);

			if (len < 4 || th_bin_read(b, at, chunk, len))
				continue;
			for (size_t i = 0; i + 4 <= len && i < 4096; i++) {
				uint32_t w;
				uint64_t t = at + i - (uint64_t)(int64_t)s->kcfi.offset;

				memcpy(&w, chunk + i, 4);
				if (w == s->kcfi.hash && !addrs_has(entries, t) &&
				    th_site_admits(s, t, NULL) == 1)
					count++;
			}
		}
	return count;
}

/* ---- what a member does: one call further ------------------------------------------------- */

#define ARG0	0x500000000000ULL	/* rdi at the member's entry, far from the image */
#define REGS	0x600000000000ULL	/* register r at the entry: REGS + r << 32 */
#define MARK	0x710000000000ULL	/* what the n-th unknown load returns: MARK + n << 24 */
#define NEAR	0x10000ULL

struct probe {
	const struct th_bin *b;
	unsigned n;
	uint64_t at[8];
};

static int probe_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	struct probe *p = ctx;
	uint64_t v;

	if (!th_bin_read(p->b, addr, buf, n))
		return 0;	/* the image itself (bias 0) */
	if (p->n == 8)
		return -1;
	p->at[p->n] = addr;
	v = MARK + ((uint64_t)p->n << 24);
	p->n++;
	memset(buf, 0, n);
	memcpy(buf, &v, n < sizeof(v) ? n : sizeof(v));
	return 0;
}

/* "arg0 - 16", "*(arg0 + 8) + 24": @v as a chain of loads from arg0. */
static int describe_value(const struct probe *p, uint64_t v, char *buf, size_t n, int depth)
{
	if (v >= ARG0 - NEAR && v < ARG0 + NEAR) {
		int64_t off = (int64_t)(v - ARG0);

		if (off)
			snprintf(buf, n, "arg0 %c %" PRId64, off < 0 ? '-' : '+', off < 0 ? -off : off);
		else
			snprintf(buf, n, "arg0");
		return 0;
	}
	for (unsigned i = 0; i < p->n && depth < 4; i++) {
		uint64_t m = MARK + ((uint64_t)i << 24);

		if (v >= m - NEAR && v < m + NEAR) {
			char inner[80];
			int64_t off = (int64_t)(v - m);

			if (describe_value(p, p->at[i], inner, sizeof(inner), depth + 1))
				return -1;
			if (off)
				snprintf(buf, n, "*(%s) %c %" PRId64, inner, off < 0 ? '-' : '+',
					 off < 0 ? -off : off);
			else
				snprintf(buf, n, "*(%s)", inner);
			return 0;
		}
	}
	return -1;
}

static void probe_regs(uint64_t *regs)
{
	for (int r = 0; r < TH_NREGS; r++)
		regs[r] = REGS + ((uint64_t)r << 32);
	regs[TH_RDI] = ARG0;
}

static void target_origin(const struct th_bin *b, const struct th_call_site *s, char *buf, size_t n)
{
	uint64_t regs[TH_NREGS], t;
	struct probe p = { .b = b };
	struct th_eval_ctx cx = { .read = probe_read, .read_ctx = &p, .entry_regs = regs };

	buf[0] = 0;
	probe_regs(regs);
	if (!th_site_target(s, &cx, &t) && describe_value(&p, t, buf, n, 0))
		buf[0] = 0;
}

/* An argument register at a call, as a chain of loads from arg0 into @buf.
 * Return: 1 when it is computed from arg0, else 0. */
static int describe_arg(const struct th_bin *b, const struct th_call_site *site,
			const struct th_direct_call *call, int argno, char *buf, size_t n)
{
	uint64_t regs[TH_NREGS], v;
	struct probe p = { .b = b };
	struct th_eval_ctx cx = { .read = probe_read, .read_ctx = &p, .entry_regs = regs };
	int bad;

	probe_regs(regs);
	bad = site ? th_site_arg(site, argno, &cx, &v) : th_call_arg(call, argno, &cx, &v);
	return !bad && !describe_value(&p, v, buf, n, 0);
}

/* "callee(rdi = *(arg0 + 40), rdx = arg0 - 32)": the argument registers
 * computed from arg0 at the call (the callee reads those that are its
 * parameters; the others are what earlier code left there). Return: 1
 * when one of them is more than arg0 itself: read from, or pointing into,
 * the memory around it. */
static int describe_call(const struct th_bin *b, const struct th_call_site *site,
			 const struct th_direct_call *call, const char *callee, char *buf, size_t n)
{
	static const int argregs[6] = { TH_RDI, TH_RSI, TH_RDX, TH_RCX, TH_R8, TH_R9 };
	int container = 0, shown = 0;

	snprintf(buf, n, "%s(", callee);
	for (int k = 0; k < 6; k++) {
		char arg[80];
		size_t len = strlen(buf);

		if (!describe_arg(b, site, call, k, arg, sizeof(arg)))
			continue;
		container |= strcmp(arg, "arg0") != 0;
		snprintf(buf + len, n - len, "%s%s = %s", shown++ ? ", " : "", th_reg_name(argregs[k]),
			 arg);
	}
	if (strlen(buf) + 2 <= n)
		strcat(buf, ")");
	return container;
}

static struct th_reach_use *new_use(struct th_reach_site *rs, size_t *cap)
{
	if (rs->nuses == *cap) {
		size_t n = *cap ? 2 * *cap : 8;
		struct th_reach_use *v = realloc(rs->uses, n * sizeof(*v));

		if (!v)
			return NULL;
		rs->uses = v;
		*cap = n;
	}
	memset(&rs->uses[rs->nuses], 0, sizeof(rs->uses[0]));
	return &rs->uses[rs->nuses++];
}

static int use_seen(const struct th_reach_site *rs, size_t from, const char *call)
{
	for (size_t i = from; i < rs->nuses; i++)
		if (!strcmp(rs->uses[i].call, call))
			return 1;
	return 0;
}

/* At most this many uses are listed per member. */
#define MAX_USES 8

/* The privileged functions @s admits, ", "-separated, into @buf. */
static void admitted_privileged(const struct ctx *c, const struct th_call_site *s, char *buf,
				size_t n)
{
	const struct th_reach_opts *o = c->o;

	buf[0] = 0;
	for (size_t p = 0; p < o->npriv; p++) {
		const struct th_sym *cand[8];
		size_t k = th_bin_find_syms(c->b, o->privileged[p], cand, 8);

		for (size_t j = 0; j < k && j < 8; j++) {
			size_t len = strlen(buf);

			if (cand[j]->type != STT_FUNC || th_site_admits(s, cand[j]->addr, NULL) != 1)
				continue;
			snprintf(buf + len, n - len, "%s%s", len ? ", " : "", o->privileged[p]);
			break;
		}
	}
}

/* One member's own calls: hops (an indirect call admitting a privileged
 * function) and, for a container-confusing member, its uses. */
static int member_calls(const struct ctx *c, struct th_reach_site *rs, size_t mi,
			size_t *hcap, size_t *ucap)
{
	const struct th_reach_member *m = &rs->members[mi];
	const struct th_sym *fn = pick_symbol(c->b, m->body_addr, 1);
	const char *via = m->name ? m->name : m->body;
	int uses = c->o->uses && !m->legitimate;
	struct th_func_sites *fs;
	size_t first = rs->nuses, nuses = 0;
	char err[256];

	if (!fn)
		return 0;
	fs = th_bin_func_sites(c->b, fn, err, sizeof(err));
	if (!fs)
		return 0;	/* bytes outside the image: nothing read */
	for (size_t k = 0; k < fs->nsites; k++) {
		const struct th_call_site *s = &fs->sites[k];
		char reaches[256], origin[96];

		if (s->from_table || !s->reached)
			continue;
		admitted_privileged(c, s, reaches, sizeof(reaches));
		target_origin(c->b, s, origin, sizeof(origin));
		if (reaches[0]) {
			struct th_reach_hop *h;

			if (rs->nhops == *hcap) {
				size_t n = *hcap ? 2 * *hcap : 4;
				struct th_reach_hop *v = realloc(rs->hops, n * sizeof(*v));

				if (!v)
					goto oom;
				rs->hops = v;
				*hcap = n;
			}
			h = &rs->hops[rs->nhops++];
			memset(h, 0, sizeof(*h));
			h->via = via ? via : fn->name;
			h->via_body = fn->name;
			h->site = s->addr;
			h->scheme = s->scheme;
			snprintf(h->reaches, sizeof(h->reaches), "%s", reaches);
			snprintf(h->origin, sizeof(h->origin), "%s", origin);
		}
		if (uses && nuses < MAX_USES) {
			char callee[112], call[256];
			struct th_reach_use *u;
			int from_arg0;

			snprintf(callee, sizeof(callee), "(%s)", origin[0] ? origin : "?");
			from_arg0 = describe_call(c->b, s, NULL, callee, call, sizeof(call));
			if (!from_arg0 && !origin[0])
				continue;
			if (!(u = new_use(rs, ucap)))
				goto oom;
			u->via = via ? via : fn->name;
			u->member = mi;
			u->site = s->addr;
			u->indirect = 1;
			snprintf(u->call, sizeof(u->call), "%s", call);
			if (s->scheme == TH_CFI_KCFI)
				snprintf(u->check, sizeof(u->check), "kcfi 0x%08x", s->kcfi.hash);
			else
				snprintf(u->check, sizeof(u->check), "%s", th_cfi_scheme_name(s->scheme));
			nuses++;
		}
	}
	for (size_t k = 0; uses && k < fs->ncalls && nuses < MAX_USES; k++) {
		const struct th_direct_call *dc = &fs->calls[k];
		const struct th_sym *callee = th_bin_func_at(c->b, dc->callee);
		char call[256], name[96];
		struct th_reach_use *u;

		if (callee)
			snprintf(name, sizeof(name), "%s", callee->name);
		else
			snprintf(name, sizeof(name), "0x%" PRIx64, dc->callee);
		if (!describe_call(c->b, NULL, dc, name, call, sizeof(call)) ||
		    use_seen(rs, first, call))
			continue;
		if (!(u = new_use(rs, ucap)))
			goto oom;
		u->via = via ? via : fn->name;
		u->member = mi;
		u->site = dc->addr;
		u->callee = callee ? callee->name : NULL;
		snprintf(u->call, sizeof(u->call), "%s", call);
		nuses++;
	}
	th_func_sites_free(fs);
	return 0;
oom:
	th_func_sites_free(fs);
	return -1;
}

/* ---- one call site ----------------------------------------------------------------------- */

static int one_site(const struct ctx *c, const struct th_call_site *s, const struct addrs *cand,
		    struct th_reach_site *rs)
{
	size_t cap = 0, hcap = 0, ucap = 0;
	struct addrs all = { 0 };
	int ret = -1;

	rs->addr = s->addr;
	snprintf(rs->insn, sizeof(rs->insn), "%s", s->insn);
	rs->is_jump = s->is_jump;
	rs->from_table = s->from_table;
	rs->scheme = s->scheme;
	th_site_describe(s, rs->check, sizeof(rs->check));
	if (s->from_table)
		return 0;	/* a switch: its targets are the table's, not functions */
	for (size_t i = 0; i < cand->n; i++)
		if (addrs_push(&all, cand->v[i]))
			goto out;
	/* Every slot of the admitted jump table, named or not. */
	if (s->scheme == TH_CFI_ICALL)
		for (unsigned k = 0; k < s->icall.entries; k++)
			if (addrs_push(&all, s->icall.table + (uint64_t)k * s->icall.entry_size))
				goto out;
	addrs_unique(&all);
	for (size_t i = 0; i < all.n; i++) {
		int v = th_site_admits(s, all.v[i], NULL);

		if (v < 0 && !rs->undecided++) {
			const struct th_sym *u = entry_symbol(c->b, all.v[i]);

			rs->undecided_first = u ? u->name : NULL;
		}
		else if (v == 1 && add_member(rs, &cap, c, all.v[i], s))
			goto out;
	}
	if (s->scheme == TH_CFI_KCFI && s->kcfi.known)
		rs->other_admitted = kcfi_elsewhere(c->b, s, &all);
	/* One call further: every member's code is read once. Privileged
	 * members are the end already; unchecked ones (no signature) reach
	 * everything directly, so a hop adds nothing. */
	for (size_t i = 0; s->scheme != TH_CFI_NONE && i < rs->nmembers; i++)
		if (!rs->members[i].privileged && !rs->members[i].unchecked &&
		    member_calls(c, rs, i, &hcap, &ucap))
			goto out;
	ret = 0;
out:
	free(all.v);
	return ret;
}

int th_reach_compute_opts(struct th_bin *b, const char *func, const struct th_reach_opts *o,
			  struct th_reach **out, char *err, size_t n)
{
	const struct th_func_sites *fs = th_bin_call_sites(b, func, err, n);
	struct ctx c = { .b = b, .o = o };
	struct addrs cand = { 0 };
	struct th_reach *r;

	*out = NULL;
	if (!fs)
		return -1;
	r = calloc(1, sizeof(*r));
	if (!r || candidates(b, &cand) ||
	    !(r->sites = calloc(fs->nsites ? 3 * fs->nsites : 1, sizeof(*r->sites)))) {
		snprintf(err, n, "%s: out of memory", th_bin_path(b));
		free(cand.v);
		th_reach_free(r);
		return -1;
	}
	snprintf(r->binary, sizeof(r->binary), "%s", th_bin_path(b));
	snprintf(r->func, sizeof(r->func), "%s", func);
	r->complete = fs->complete;
	r->nfunctions = cand.n;
	/* fs stays valid while the members are read: they are analysed apart,
	 * not through binread's cache. */
	for (size_t i = 0; i < fs->nsites; i++) {
		struct th_site_call calls[3];
		size_t nc = th_site_calls(&fs->sites[i], calls, 3);
		int bad = !nc;

		/* Each call the instruction makes, its own check's set. */
		for (size_t k = 0; k < nc; k++) {
			struct th_reach_site *rs = &r->sites[r->nsites++];

			rs->call = (unsigned)k + 1;
			rs->ncalls = (unsigned)nc;
			rs->arg = calls[k].arg;
			rs->target_off = calls[k].target_off;
			rs->arg_off = calls[k].arg_off;
			bad = bad || one_site(&c, calls[k].site, &cand, rs);
			th_site_call_free(&calls[k]);
		}
		if (bad) {
			snprintf(err, n, "%s: out of memory", th_bin_path(b));
			free(cand.v);
			th_reach_free(r);
			return -1;
		}
	}
	free(cand.v);
	*out = r;
	return 0;
}

int th_reach_compute(struct th_bin *b, const char *func, const char *const *privileged,
		     size_t npriv, struct th_reach **out, char *err, size_t n)
{
	const struct th_reach_opts o = { .privileged = privileged, .npriv = npriv };

	return th_reach_compute_opts(b, func, &o, out, err, n);
}

void th_reach_free(struct th_reach *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nsites; i++) {
		free(r->sites[i].members);
		free(r->sites[i].hops);
		free(r->sites[i].uses);
	}
	free(r->sites);
	free(r);
}

/* SPDX-License-Identifier: MIT */
/* Target sets of indirect call sites (reach.h), on top of the binary reader. */
#include "reach.h"

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

/* The name of the function entry at @addr: a FUNC symbol there that is not
 * a marker, a global one over a local alias. NULL if none. */
static const struct th_sym *entry_symbol(const struct th_bin *b, uint64_t addr)
{
	const struct th_sym *best = NULL;
	size_t nsyms = th_bin_nsyms(b);

	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *s = th_bin_sym(b, i);

		if (s->type != STT_FUNC || s->absolute || s->addr != addr || marker_symbol(s->name))
			continue;
		if (!best || (best->bind == STB_LOCAL && s->bind != STB_LOCAL))
			best = s;
	}
	return best;
}

/* ---- candidates: every function entry in an executable segment ------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

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

	qsort(a->v, a->n, sizeof(*a->v), cmp_u64);
	for (size_t i = 0; i < a->n; i++)
		if (!k || a->v[k - 1] != a->v[i])
			a->v[k++] = a->v[i];
	a->n = k;
}

static int addrs_has(const struct addrs *a, uint64_t x)
{
	return a->n && bsearch(&x, a->v, a->n, sizeof(*a->v), cmp_u64) != NULL;
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

/* ---- one call site ----------------------------------------------------------------------- */

static int add_member(struct th_reach_site *rs, size_t *cap, const struct th_bin *b,
		      uint64_t addr, const struct th_call_site *s, const char *const *priv,
		      size_t npriv)
{
	struct th_reach_member *m;
	const struct th_sym *sym = entry_symbol(b, addr);

	if (rs->nmembers == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct th_reach_member *v = realloc(rs->members, c * sizeof(*v));

		if (!v)
			return -1;
		rs->members = v;
		*cap = c;
	}
	m = &rs->members[rs->nmembers++];
	memset(m, 0, sizeof(*m));
	m->addr = m->body_addr = addr;
	m->name = sym ? sym->name : NULL;
	if (s->scheme == TH_CFI_ICALL) {
		uint64_t to;

		/* A jump-table entry forwards to the body with one jmp. */
		if (!th_bin_direct_branch(b, addr, &to) && to != addr) {
			const struct th_sym *body = entry_symbol(b, to);

			m->body_addr = to;
			m->body = body ? body->name : NULL;
		}
	}
	if (s->scheme == TH_CFI_FUNCTION) {
		uint32_t sig;

		m->unchecked = th_bin_read(b, addr - 8, &sig, 4) || sig != s->function.signature;
		rs->nunchecked += (size_t)m->unchecked;
	}
	m->privileged = (m->name && th_reach_is_privileged(m->name, priv, npriv)) ||
			(m->body && th_reach_is_privileged(m->body, priv, npriv));
	rs->nprivileged += (size_t)m->privileged;
	return 0;
}

/* kcfi admits any T whose preceding word is the hash: count the executable
 * addresses that pass and are no function's entry. */
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
				uint64_t t = at + i + 4;

				memcpy(&w, chunk + i, 4);
				if (w == s->kcfi.hash && !addrs_has(entries, t) &&
				    th_site_admits(s, t, NULL) == 1)
					count++;
			}
		}
	return count;
}

/* ---- one hop further ----------------------------------------------------------------------- */

#define ARG0	0x500000000000ULL	/* rdi at the member's entry, far from the image */
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

static void target_origin(const struct th_bin *b, const struct th_call_site *s, char *buf, size_t n)
{
	uint64_t regs[TH_NREGS], t;
	struct probe p = { .b = b };
	struct th_eval_ctx cx = { .read = probe_read, .read_ctx = &p, .entry_regs = regs };

	buf[0] = 0;
	for (int r = 0; r < TH_NREGS; r++)
		regs[r] = 0x600000000000ULL + ((uint64_t)r << 32);
	regs[TH_RDI] = ARG0;
	if (!th_site_target(s, &cx, &t) && describe_value(&p, t, buf, n, 0))
		buf[0] = 0;
}

static int hops(struct th_bin *b, struct th_reach_site *rs, const char *const *priv, size_t npriv)
{
	size_t cap = 0;

	for (size_t i = 0; i < rs->nmembers; i++) {
		const struct th_reach_member *m = &rs->members[i];
		const char *fn = m->body ? m->body : m->name;
		const struct th_func_sites *fs;
		char err[256];

		/* Privileged members are the end already; unchecked ones (no
		 * signature) reach everything directly, so a hop adds nothing. */
		if (m->privileged || m->unchecked || !fn)
			continue;
		fs = th_bin_call_sites(b, fn, err, sizeof(err));
		if (!fs)
			continue;	/* an ambiguous static name: not followed */
		for (size_t k = 0; k < fs->nsites; k++) {
			const struct th_call_site *s = &fs->sites[k];
			struct th_reach_hop *h;
			char reaches[256] = "";

			if (s->from_table || !s->reached)
				continue;
			for (size_t p = 0; p < npriv; p++) {
				const struct th_sym *cand[4];
				size_t c = th_bin_find_syms(b, priv[p], cand, 4);

				for (size_t j = 0; j < c && j < 4; j++) {
					size_t len = strlen(reaches);

					if (cand[j]->type != STT_FUNC || th_site_admits(s, cand[j]->addr, NULL) != 1)
						continue;
					snprintf(reaches + len, sizeof(reaches) - len, "%s%s", len ? ", " : "",
						 priv[p]);
					break;
				}
			}
			if (!reaches[0])
				continue;
			if (rs->nhops == cap) {
				size_t c = cap ? 2 * cap : 4;
				struct th_reach_hop *v = realloc(rs->hops, c * sizeof(*v));

				if (!v)
					return -1;
				rs->hops = v;
				cap = c;
			}
			h = &rs->hops[rs->nhops++];
			memset(h, 0, sizeof(*h));
			h->via = m->name ? m->name : fn;
			h->via_body = fn;
			h->site = s->addr;
			h->scheme = s->scheme;
			snprintf(h->reaches, sizeof(h->reaches), "%s", reaches);
			target_origin(b, s, h->origin, sizeof(h->origin));
		}
	}
	return 0;
}

static int one_site(struct th_bin *b, const struct th_call_site *s, const struct addrs *cand,
		    struct th_reach_site *rs, const char *const *priv, size_t npriv)
{
	size_t cap = 0;
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
			const struct th_sym *u = entry_symbol(b, all.v[i]);

			rs->undecided_first = u ? u->name : NULL;
		}
		else if (v == 1 && add_member(rs, &cap, b, all.v[i], s, priv, npriv))
			goto out;
	}
	if (s->scheme == TH_CFI_KCFI && s->kcfi.known)
		rs->other_admitted = kcfi_elsewhere(b, s, &all);
	if (s->scheme != TH_CFI_NONE && hops(b, rs, priv, npriv))
		goto out;
	ret = 0;
out:
	free(all.v);
	return ret;
}

int th_reach_compute(struct th_bin *b, const char *func, const char *const *privileged,
		     size_t npriv, struct th_reach **out, char *err, size_t n)
{
	const struct th_func_sites *fs = th_bin_call_sites(b, func, err, n);
	struct addrs cand = { 0 };
	struct th_reach *r;

	*out = NULL;
	if (!fs)
		return -1;
	r = calloc(1, sizeof(*r));
	if (!r || candidates(b, &cand) ||
	    !(r->sites = calloc(fs->nsites ? fs->nsites : 1, sizeof(*r->sites)))) {
		snprintf(err, n, "%s: out of memory", th_bin_path(b));
		free(cand.v);
		th_reach_free(r);
		return -1;
	}
	snprintf(r->binary, sizeof(r->binary), "%s", th_bin_path(b));
	snprintf(r->func, sizeof(r->func), "%s", func);
	r->complete = fs->complete;
	r->nfunctions = cand.n;
	/* fs stays valid while other functions are analysed one hop further:
	 * binread's cache owns each function's sites separately. */
	for (size_t i = 0; i < fs->nsites; i++) {
		r->nsites = i + 1;
		if (one_site(b, &fs->sites[i], &cand, &r->sites[i], privileged, npriv)) {
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

void th_reach_free(struct th_reach *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nsites; i++) {
		free(r->sites[i].members);
		free(r->sites[i].hops);
	}
	free(r->sites);
	free(r);
}

/* SPDX-License-Identifier: MIT */
/* "What the wheel and the defences cost" in report.md and report.html (render_bench.h). */
#define _POSIX_C_SOURCE 200809L
#include "render_bench.h"
#include "doc.h"
#include "report_internal.h"
#include "sections.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- one writer for both formats ---- */

/* A file's own name: where it lies is the reader's business. */
static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* ---- the per-config figures of the dispatch ---- */

static const struct th_bench_cfg_cell *cfg_cell(const struct th_bench_configs *c, size_t config,
						int impl, int op, long long n)
{
	for (size_t i = 0; i < c->ncells; i++)
		if (c->cells[i].config == config && c->cells[i].impl == impl && c->cells[i].op == op &&
		    c->cells[i].n == n)
			return &c->cells[i];
	return NULL;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The sizes of the dispatch cells (modern or legacy expire), ascending;
 * *count_n the smallest with an instruction count (0: none). */
static size_t dispatch_sizes(const struct th_bench_configs *c, long long *ns, size_t max,
			     long long *count_n)
{
	size_t n = 0;

	*count_n = 0;
	for (size_t i = 0; i < c->ncells; i++) {
		const struct th_bench_cfg_cell *e = &c->cells[i];
		size_t k;

		if (e->op != TH_BENCH_EXPIRE || (e->impl != TH_BENCH_MODERN && e->impl != TH_BENCH_LEGACY))
			continue;
		if (!isnan(e->instructions) && (!*count_n || e->n < *count_n))
			*count_n = e->n;
		for (k = 0; k < n && ns[k] != e->n; k++)
			;
		if (k == n && n < max)
			ns[n++] = e->n;
	}
	qsort(ns, n, sizeof(*ns), cmp_ll);
	return n;
}

static void dispatch_table(struct th_doc *w, const struct th_bench_configs *c)
{
	static const int impls[] = { TH_BENCH_MODERN, TH_BENCH_LEGACY };
	const char *heads[12];
	char hb[8][64], b[160];
	long long ns[8], count_n;
	size_t nn = dispatch_sizes(c, ns, 8, &count_n), nh = 0;

	heads[nh++] = "config";
	heads[nh++] = "variant";
	for (size_t i = 0; i < nn; i++) {
		snprintf(hb[i], sizeof(hb[i]), "ns per fired timer, N = %lld", ns[i]);
		heads[nh++] = hb[i];
	}
	if (count_n)
		snprintf(hb[nn], sizeof(hb[nn]), "instructions per fired timer, N = %lld", count_n);
	else
		snprintf(hb[nn], sizeof(hb[nn]), "instructions per fired timer");
	heads[nh++] = hb[nn];
	th_doc_table_head(w, heads, nh);
	for (size_t v = 0; v < sizeof(impls) / sizeof(impls[0]); v++)
		for (size_t k = 0; k < c->nconfigs; k++) {
			const struct th_bench_cfg_cell *e = NULL, *base;
			bool any = false;

			for (size_t i = 0; i < nn; i++)
				any |= cfg_cell(c, k, impls[v], TH_BENCH_EXPIRE, ns[i]) != NULL;
			if (!any)
				continue;	/* not run in this build */
			th_doc_row_begin(w);
			th_doc_cell_begin(w);
			th_doc_code(w, c->configs[k].name);
			th_doc_cell_end(w);
			th_doc_cell(w, th_bench_impl_names[impls[v]]);
			for (size_t i = 0; i < nn; i++) {
				e = cfg_cell(c, k, impls[v], TH_BENCH_EXPIRE, ns[i]);
				if (!e)
					snprintf(b, sizeof(b), "-");
				else if (k == c->base || isnan(e->ratio))
					snprintf(b, sizeof(b), "%.1f", e->ns);
				else if (isnan(e->ratio_min) || isnan(e->ratio_max))
					snprintf(b, sizeof(b), "%.1f (%+.1f%%)", e->ns, 100 * (e->ratio - 1));
				else
					snprintf(b, sizeof(b), "%.1f (%+.1f%%, runs %+.1f%% .. %+.1f%%)", e->ns,
						 100 * (e->ratio - 1), 100 * (e->ratio_min - 1),
						 100 * (e->ratio_max - 1));
				th_doc_cell(w, b);
			}
			e = count_n ? cfg_cell(c, k, impls[v], TH_BENCH_EXPIRE, count_n) : NULL;
			base = count_n ? cfg_cell(c, c->base, impls[v], TH_BENCH_EXPIRE, count_n) : NULL;
			if (!e || isnan(e->instructions)) {
				th_doc_cell_begin(w);
				if (strcmp(c->configs[k].instructions, "counted")) {
					/* Why not, as the bench said it ("not counted: ..."). */
					th_doc_text(w, c->configs[k].instructions);
				} else {
					fputs("-", w->out);
				}
				th_doc_cell_end(w);
			} else {
				if (k == c->base || !base || isnan(base->instructions))
					snprintf(b, sizeof(b), "%.1f", e->instructions);
				else
					snprintf(b, sizeof(b), "%.1f (%+.1f)", e->instructions,
						 e->instructions - base->instructions);
				th_doc_cell(w, b);
			}
			th_doc_row_end(w);
		}
	th_doc_table_end(w);
}

/* Where the dispatch loop sits against ConFIRM's median, as bench --configs says. */
static void confirm_line(struct th_doc *w, const struct th_bench_configs *c)
{
	long long ns[8], count_n;
	size_t nn = dispatch_sizes(c, ns, 8, &count_n);
	bool first = true;

	if (!nn || c->nconfigs < 2)
		return;
	th_doc_para(w);
	fprintf(w->out, "Against ConFIRM's ~%.0f%% median overhead for LLVM CFI on indirect-call "
		"microbenchmarks (Xu et al., USENIX Security 2019), the dispatch loop (modern, "
		"N = %lld):", 100 * c->confirm_median, ns[nn - 1]);
	for (size_t k = 0; k < c->nconfigs; k++) {
		const struct th_bench_cfg_cell *e = cfg_cell(c, k, TH_BENCH_MODERN, TH_BENCH_EXPIRE, ns[nn - 1]);

		if (k == c->base)
			continue;
		fputs(first ? " " : "; ", w->out);
		first = false;
		th_doc_code(w, c->configs[k].name);
		if (!e || isnan(e->ratio))
			fputs(" not measured", w->out);
		else
			fprintf(w->out, " %+.1f%%, %s", 100 * (e->ratio - 1),
				e->ratio - 1 > c->confirm_median ? "above" : "within");
	}
	fputc('.', w->out);
	th_doc_end_para(w);
}

static void configs_part(struct th_doc *w, const struct th_bench_configs *c)
{
	char b[200];

	th_doc_para(w);
	th_doc_strong(w, "The timer dispatch per config");
	fputs(" (", w->out);
	th_doc_code(w, file_name(c->path));
	snprintf(b, sizeof(b), ": %lld interleaved run%s of %lld repetition%s, created ", c->runs,
		 c->runs == 1 ? "" : "s", c->reps, c->reps == 1 ? "" : "s");
	fputs(b, w->out);
	th_doc_text(w, c->created);
	fputs(" on ", w->out);
	th_doc_text(w, c->hostname);
	fputs("). ", w->out);
	th_doc_code(w, "expire");
	fputs(", per fired timer: each callback called through ", w->out);
	th_doc_code(w, "call_timer_fn");
	fputs(", where the CFI check sits. ns/op is the median over the runs; against none, the "
	      "median of the ratios taken within each run, with their range; instructions counted by "
	      "callgrind, against none's.", w->out);
	th_doc_end_para(w);
	dispatch_table(w, c);
	confirm_line(w, c);
}

/* ---- the wheel against the heap ---- */

static const struct th_bench_cell *bench_cell(const struct th_bench *b, long long n, int impl, int op)
{
	for (size_t i = 0; i < b->ncells; i++)
		if (b->cells[i].n == n && b->cells[i].impl == impl && b->cells[i].op == op)
			return &b->cells[i];
	return NULL;
}

static void bench_part(struct th_doc *w, const struct th_bench *b)
{
	const char *heads[1 + TH_BENCH_NOP];
	char buf[200];

	th_doc_para(w);
	th_doc_strong(w, "The wheel against the heap");
	fputs(" (", w->out);
	th_doc_code(w, file_name(b->path));
	fputs(": config ", w->out);
	th_doc_code(w, b->config);
	snprintf(buf, sizeof(buf), ", %s order, %lld repetition%s%s, created ", b->order, b->reps,
		 b->reps == 1 ? "" : "s", b->quick ? " (--quick)" : "");
	fputs(buf, w->out);
	th_doc_text(w, b->created);
	fputs(" on ", w->out);
	th_doc_text(w, b->hostname);
	fputs("). Each wheel entry is its ratio to the heap's ns/op taken within each repetition "
	      "(the median; below 1x the wheel is faster), its median ns/op in thread CPU time and "
	      "its instructions per op", w->out);
	if (!strcmp(b->instr_status, "counted")) {
		snprintf(buf, sizeof(buf), " (callgrind, N <= %lld)", b->instr_max_n);
		fputs(buf, w->out);
	} else {
		fputs(" (not counted: ", w->out);
		th_doc_text(w, b->instr_status);
		fputc(')', w->out);
	}
	fputs(". add, mod and del per call; expire (all due at once) and step (run every tick) per "
	      "timer.", w->out);
	th_doc_end_para(w);
	heads[0] = "implementation";
	for (int op = 0; op < TH_BENCH_NOP; op++)
		heads[1 + op] = th_bench_op_names[op];
	for (size_t si = 0; si < b->nsizes; si++) {
		long long n = b->sizes[si].n;

		snprintf(buf, sizeof(buf), "N = %lld", n);
		th_doc_para(w);
		fputs(buf, w->out);
		snprintf(buf, sizeof(buf), " (lateness in jiffies: the wheel at most %lld, stepped at "
			 "most %lld; the heap stepped at most %lld)", b->sizes[si].wheel.max,
			 b->sizes[si].wheel_stepped.max, b->sizes[si].heap_stepped.max);
		fputs(buf, w->out);
		th_doc_end_para(w);
		th_doc_table_head(w, heads, 1 + TH_BENCH_NOP);
		for (int im = 0; im < TH_BENCH_NIMPL; im++) {
			bool any = false;

			for (int op = 0; op < TH_BENCH_NOP; op++)
				any |= bench_cell(b, n, im, op) != NULL;
			if (!any)
				continue;
			th_doc_row_begin(w);
			th_doc_cell(w, th_bench_impl_names[im]);
			for (int op = 0; op < TH_BENCH_NOP; op++) {
				const struct th_bench_cell *c = bench_cell(b, n, im, op);
				int len = 0;

				if (!c || isnan(c->ns)) {
					th_doc_cell(w, "-");
					continue;
				}
				if (im != TH_BENCH_HEAP && !isnan(c->ratio_to_heap))
					len = snprintf(buf, sizeof(buf), "%.2fx (%.1f ns", c->ratio_to_heap, c->ns);
				else
					len = snprintf(buf, sizeof(buf), "%.1f ns", c->ns);
				if (!isnan(c->instructions))
					len += snprintf(buf + len, sizeof(buf) - (size_t)len, ", %.1f instr%s",
							c->instructions, c->whole_phase ? ", whole phase" : "");
				if (im != TH_BENCH_HEAP && !isnan(c->ratio_to_heap))
					snprintf(buf + len, sizeof(buf) - (size_t)len, ")");
				th_doc_cell(w, buf);
			}
			th_doc_row_end(w);
		}
		th_doc_table_end(w);
	}
}

/* ---- the section ---- */

static int by_toolchain(const void *a, const void *b)
{
	return th_results_natcmp(*(const char *const *)a, *(const char *const *)b);
}

static int section(struct th_doc *w, const struct th_bench_set *s)
{
	const char **tcs = calloc(s->nconfigs + 2, sizeof(*tcs));
	size_t ntc = 0;

	if (!tcs)
		return -1;
	if (s->bench)
		tcs[ntc++] = s->bench->toolchain;
	for (size_t i = 0; i < s->nconfigs; i++) {
		size_t k;

		for (k = 0; k < ntc && strcmp(tcs[k], s->configs[i]->toolchain); k++)
			;
		if (k == ntc)
			tcs[ntc++] = s->configs[i]->toolchain;
	}
	qsort(tcs, ntc, sizeof(*tcs), by_toolchain);
	th_doc_heading(w, 2, "cost", "What the wheel and the defences cost");
	th_doc_para(w);
	fputs("The figures of ", w->out);
	th_doc_code(w, "timerharness bench");
	fputs(" (bench.json) and ", w->out);
	th_doc_code(w, "timerharness bench --configs");
	fputs(" (bench-configs-*.json) beside these results, as they wrote them: medians of "
	      "thread CPU time, ratios taken within one run, instructions per op counted by "
	      "valgrind's callgrind. Times belong to the machine that ran the bench; instruction "
	      "counts do not.", w->out);
	th_doc_end_para(w);
	for (size_t t = 0; t < ntc; t++) {
		th_doc_heading_text(w, 3, NULL, tcs[t]);
		for (size_t i = 0; i < s->nconfigs; i++)
			if (!strcmp(s->configs[i]->toolchain, tcs[t]))
				configs_part(w, s->configs[i]);
		if (s->bench && !strcmp(s->bench->toolchain, tcs[t]))
			bench_part(w, s->bench);
	}
	free(tcs);
	return ferror(w->out) ? -1 : 0;
}

/* sections.c's row: the bench's section in d's format. */
int th_section_bench(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_bench_set *s = th_results_origin(c->res)->bench;

	return s ? section(d, s) : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The reach section of report.md and report.html (render_reach.h), one walk
 * over results/reach.h's model for both formats (doc.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "render_reach.h"
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>
#include <string.h>

/*
 * The section's inline code escapes a '|' in Markdown in a table or not (it
 * was written with the table's escaper throughout, and report.md keeps its
 * bytes); so a table's end leaves the writer "in a table".
 */
static void table_end(struct th_doc *d)
{
	th_doc_table_end(d);
	d->in_table = true;
}

/* "3 functions, write_cr4 among them", "2, none privileged",
 * "869 (866 unchecked), write_cr4 among them" */
static void count_text(struct th_doc *d, const struct th_reach_entry *e, const char *unit)
{
	size_t np = th_reach_privileged_count(e), shown = 0;

	th_doc_textf(d, "%zu%s", e->nmembers, unit);
	if (e->unchecked)
		th_doc_textf(d, " (%zu unchecked)", e->unchecked);
	if (!np) {
		th_doc_text(d, ", none privileged");
		return;
	}
	th_doc_text(d, ", ");
	for (size_t i = 0; i < e->nmembers; i++)
		if (e->members[i].privileged) {
			if (shown++)
				th_doc_text(d, ", ");
			th_doc_code(d, th_reach_member_name(&e->members[i]));
		}
	th_doc_text(d, " among them");
}

/* The checked members by name (unchecked ones counted only). */
static void member_list(struct th_doc *d, const struct th_reach_entry *e)
{
	size_t shown = 0;

	for (size_t i = 0; i < e->nmembers; i++) {
		const struct th_reach_member_r *m = &e->members[i];

		if (m->unchecked)
			continue;
		if (shown++)
			th_doc_text(d, ", ");
		if (m->privileged)
			th_doc_strong_begin(d);
		th_doc_code(d, th_reach_member_name(m));
		if (m->privileged)
			th_doc_strong_end(d);
	}
	if (e->unchecked)
		th_doc_textf(d, "%s%zu functions without the sanitizer's signature (the check skips them)",
		     shown ? "; and " : "", e->unchecked);
	if (!shown && !e->unchecked)
		th_doc_text(d, "nothing");
}

static bool hop_reaches(const struct th_reach_hop_r *h, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = h->reaches; (p = strstr(p, name)); p += n)
		if ((p == h->reaches || (p - h->reaches >= 2 && p[-2] == ',' && p[-1] == ' ')) &&
		    (!p[n] || p[n] == ','))
			return true;
	return false;
}

/* The func:foreign-callback cell of tc/config on modern that speaks for
 * it: the most severe, and among those the exploit's own sequence
 * (ring-block-overflow) first, then by attack ID. */
static const struct th_cell *foreign_cell(const struct th_results *res, const char *tc,
					  const char *config)
{
	const struct th_cell *best = NULL;

	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];
		int better;

		if (strcmp(c->payload, "func:foreign-callback") || c->api != TH_API_TIMER ||
		    c->variant != TH_VARIANT_MODERN ||
		    strcmp(c->toolchain, tc) || strcmp(c->config, config))
			continue;
		if (!best || th_cell_observed(c) != th_cell_observed(best)) {
			better = !best || th_cell_observed(c) < th_cell_observed(best);
		} else {
			int rc = !strcmp(c->technique, "ring-block-overflow"),
			    rb = !strcmp(best->technique, "ring-block-overflow");

			better = rc != rb ? rc : strcmp(c->attack, best->attack) < 0;
		}
		if (better)
			best = c;
	}
	return best;
}

/* "legacy under cfi-icall: the timer call site can reach N functions,
 * write_cr4 among them; modern: M, ..." for one toolchain, every config
 * with a check; then whether any path gets to write_cr4 on modern. */
static void answer(struct th_doc *d, const struct th_results *res,
		   const struct th_reach_entry **v, size_t n, const char *tc)
{
	bool any = false;

	th_doc_list_begin(d);
	for (size_t c = 0; c < res->nconfigs; c++) {
		const char *cfg = res->configs[c].name;
		const struct th_reach_entry *le = th_reach_find(res, tc, TH_VARIANT_LEGACY, cfg);
		const struct th_reach_entry *te = th_reach_find(res, tc, TH_VARIANT_TRANSITIONAL, cfg);
		const struct th_reach_entry *me = th_reach_find(res, tc, TH_VARIANT_MODERN, cfg);

		if (!le || !me || !th_reach_checked(le) || !th_reach_checked(me))
			continue;
		any = true;
		th_doc_item_begin(d);
		th_doc_text(d, "legacy under ");
		th_doc_code(d, cfg);
		th_doc_text(d, ": the timer call site can reach ");
		count_text(d, le, " functions");
		if (te) {
			th_doc_text(d, "; transitional: ");
			count_text(d, te, "");
		}
		th_doc_text(d, "; modern: ");
		count_text(d, me, "");
		if (!me->unchecked && !th_reach_privileged_count(me))
			th_doc_text(d, ", all of the 4.15 callback's type (timer callbacks)");
		th_doc_text(d, ": ");
		member_list(d, me);
		th_doc_item_end(d);
	}
	if (!any) {
		th_doc_item_begin(d);
		th_doc_text(d, "no CFI binary of both variants was read for this toolchain");
		th_doc_item_end(d);
	}
	th_doc_list_end(d);

	/* Does any path get to write_cr4 on modern? One call further, and the
	 * cells that attacked that path. */
	th_doc_para(d);
	th_doc_strong_begin(d);
	th_doc_text(d, "Does any path get to write_cr4 on modern?");
	th_doc_strong_end(d);
	th_doc_text(d, " ");
	any = false;
	for (size_t i = 0; i < n; i++) {
		const struct th_reach_entry *e = v[i];
		const struct th_cell *shown = NULL;
		bool first_cfg = true, seen = false;

		if (e->api != TH_API_TIMER || strcmp(e->toolchain, tc) || e->variant != TH_VARIANT_MODERN ||
		    !th_reach_checked(e))
			continue;
		for (size_t k = 0; k < e->nhops; k++) {
			const struct th_reach_hop_r *h = &e->hops[k];

			if (!hop_reaches(h, "write_cr4"))
				continue;
			/* Said once per (callback, origin): the first config that has it. */
			for (size_t j = 0; j < i && !seen; j++)
				for (size_t q = 0; q < v[j]->nhops && !seen; q++)
					seen = v[j]->api == TH_API_TIMER && !strcmp(v[j]->toolchain, tc) &&
					       v[j]->variant == TH_VARIANT_MODERN && th_reach_checked(v[j]) &&
					       hop_reaches(&v[j]->hops[q], "write_cr4") &&
					       !strcmp(v[j]->hops[q].via, h->via) &&
					       !strcmp(v[j]->hops[q].origin, h->origin);
			if (seen)
				break;
			th_doc_text(d, any ? " " : "Yes, one call further. ");
			any = true;
			th_doc_code(d, h->via);
			th_doc_text(d, ", a callback of the call site's own type, is in the modern set under");
			for (size_t j = i; j < n; j++) {
				bool has = false;

				if (v[j]->api != TH_API_TIMER || strcmp(v[j]->toolchain, tc) ||
				    v[j]->variant != TH_VARIANT_MODERN || !th_reach_checked(v[j]))
					continue;
				for (size_t q = 0; q < v[j]->nhops; q++)
					has |= hop_reaches(&v[j]->hops[q], "write_cr4") &&
					       !strcmp(v[j]->hops[q].via, h->via);
				if (!has)
					continue;
				th_doc_text(d, first_cfg ? " " : ", ");
				first_cfg = false;
				th_doc_code(d, v[j]->config);
			}
			th_doc_text(d, "; its own indirect call takes its target from ");
			th_doc_code(d, *h->origin ? h->origin : "memory");
			th_doc_text(d, ", the bytes in front of the timer it is handed, and that call's check admits ");
			th_doc_code(d, "write_cr4");
			th_doc_text(d, ". The matrix attacked that path (func:foreign-callback):");
			first_cfg = true;
			for (size_t j = i; j < n; j++) {
				const struct th_cell *c;

				if (v[j]->api != TH_API_TIMER || strcmp(v[j]->toolchain, tc) ||
				    v[j]->variant != TH_VARIANT_MODERN || !th_reach_checked(v[j]))
					continue;
				c = foreign_cell(res, tc, v[j]->config);
				th_doc_text(d, first_cfg ? " " : ", ");
				first_cfg = false;
				th_doc_code(d, v[j]->config);
				th_doc_text(d, " ");
				if (!c) {
					th_doc_text(d, "not run");
					continue;
				}
				th_doc_strong_begin(d);
				th_doc_text(d, th_outcome_name(th_cell_observed(c)));
				th_doc_strong_end(d);
				if (!shown && !strcmp(v[j]->config, e->config))
					shown = c;
			}
			th_doc_text(d, ".");
			if (shown) {
				th_doc_text(d, " Evidence (");
				th_doc_code(d, shown->attack);
				th_doc_text(d, ", ");
				th_doc_code(d, shown->config);
				th_doc_text(d, "): ");
				th_doc_text(d, shown->evidence);
				th_doc_text(d, ".");
			} else {
				th_doc_text(d, " No cell of this run attacks it under this config.");
			}
		}
	}
	if (!any)
		th_doc_text(d, "Not through one more call: no member of a modern set has an indirect call of "
			    "its own that admits write_cr4.");
	else
		th_doc_text(d, " Type-based CFI on the 4.15 prototype removes the direct gadget, not every path.");
	th_doc_end_para(d);
}

/* The count table: a row per config, a column per toolchain x variant. */
static void counts_table(struct th_doc *d, const struct th_results *res,
			 const struct th_toolchain **tcs, size_t ntc)
{
	size_t nh = 1 + ntc * TH_VARIANT_COUNT;
	const char **heads = calloc(nh, sizeof(*heads));
	char (*names)[64] = calloc(nh, sizeof(*names));

	if (!heads || !names) {
		free(heads);
		free(names);
		return;
	}
	heads[0] = "config";
	for (size_t t = 0; t < ntc; t++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			snprintf(names[1 + t * TH_VARIANT_COUNT + (size_t)v], sizeof(names[0]), "%s %s",
				 tcs[t]->name, th_variant_name((enum th_variant)v));
			heads[1 + t * TH_VARIANT_COUNT + (size_t)v] = names[1 + t * TH_VARIANT_COUNT + (size_t)v];
		}
	th_doc_table_head_text(d, heads, nh);
	for (size_t c = 0; c < res->nconfigs; c++) {
		const char *cfg = res->configs[c].name;
		bool present = false;

		for (size_t t = 0; t < ntc; t++)
			for (int v = 0; v < TH_VARIANT_COUNT; v++)
				present |= th_reach_find(res, tcs[t]->name, (enum th_variant)v, cfg) != NULL;
		if (!present)
			continue;
		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_code(d, cfg);
		th_doc_cell_end(d);
		for (size_t t = 0; t < ntc; t++)
			for (int v = 0; v < TH_VARIANT_COUNT; v++) {
				const struct th_reach_entry *e =
					th_reach_find(res, tcs[t]->name, (enum th_variant)v, cfg);
				size_t np;

				th_doc_cell_begin(d);
				if (!e) {
					th_doc_text(d, "-");
				} else {
					np = th_reach_privileged_count(e);
					th_doc_textf(d, "%zu of %zu", e->nmembers, e->functions_total);
					if (e->unchecked)
						th_doc_textf(d, " (%zu unchecked)", e->unchecked);
					if (np)
						th_doc_textf(d, ", %zu privileged", np);
				}
				th_doc_cell_end(d);
			}
		th_doc_row_end(d);
	}
	table_end(d);
	free(heads);
	free(names);
}

/* The reason part of a disagreement's why: "<reason>; binread: <reading>"
 * (cfi/reach_verify.c). */
static size_t reason_len(const char *why)
{
	const char *b = strstr(why, "; binread: ");

	return b ? (size_t)(b - why) : strlen(why);
}

/* llvm-cfi-verify per binary, and where it is wrong (each reason once). */
static void verify_section(struct th_doc *d, const struct th_reach_entry **v, size_t n)
{
	static const char *const heads[] = { "toolchain", "variant", "config", "llvm-cfi-verify",
					     "binread", "disagreements" };
	const char **reasons = calloc(n * 4 + 1, sizeof(*reasons));
	size_t nreasons = 0;
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= v[i]->verify != NULL;
	if (!any || !reasons) {
		free(reasons);
		return;
	}
	th_doc_heading_text(d, 3, "reach-verify", "llvm-cfi-verify beside binread");
	th_doc_para(d);
	th_doc_text(d, "LLVM's own checker of CFI binaries, run on each binary: its counts of indirect "
		    "control-flow instructions, then binread's reading of the same instructions (a "
		    "switch's table jump is counted apart: it is no call through a pointer).");
	th_doc_end_para(d);
	th_doc_table_head_text(d, heads, sizeof(heads) / sizeof(heads[0]));
	for (size_t i = 0; i < n; i++) {
		const struct th_reach_verify_r *x = v[i]->verify;

		if (!x)
			continue;
		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_text(d, v[i]->toolchain);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_text(d, th_variant_name(v[i]->variant));
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_code(d, v[i]->config);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_textf(d, "%u protected, %u unprotected", x->protected_, x->unprotected);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_textf(d, "%u protected, %u switch, %u unprotected", x->ours_protected, x->ours_switch,
		     x->ours_unprotected);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_textf(d, "%u", x->disagreements);
		th_doc_cell_end(d);
		th_doc_row_end(d);
		for (size_t k = 0; k < x->ninsns; k++) {
			const char *why = x->insns[k].why;
			size_t len = reason_len(why);
			bool seen = false;

			if (!x->insns[k].disagree)
				continue;
			for (size_t r = 0; r < nreasons; r++)
				seen |= reason_len(reasons[r]) == len && !strncmp(reasons[r], why, len);
			if (!seen && nreasons < n * 4)
				reasons[nreasons++] = why;
		}
	}
	table_end(d);
	if (nreasons) {
		th_doc_para(d);
		th_doc_text(d, "Where the tool is wrong, each reason once:");
		th_doc_end_para(d);
		th_doc_list_begin(d);
		for (size_t r = 0; r < nreasons; r++) {
			char buf[512];

			snprintf(buf, sizeof(buf), "%.*s", (int)reason_len(reasons[r]), reasons[r]);
			th_doc_item_begin(d);
			th_doc_text(d, buf);
			th_doc_item_end(d);
		}
		th_doc_list_end(d);
	}
	free(reasons);
}

/* A member list's tail: the hops one call further, then what the
 * containers give. */
static void further(struct th_doc *d, const struct th_reach_entry *e)
{
	for (size_t k = 0; k < e->nhops; k++) {
		th_doc_text(d, "; one call further, ");
		th_doc_code(d, e->hops[k].via);
		th_doc_text(d, " calls ");
		th_doc_code(d, *e->hops[k].origin ? e->hops[k].origin : "a pointer");
		th_doc_text(d, ", which can reach ");
		th_doc_text(d, e->hops[k].reaches);
	}
	for (size_t k = 0; k < e->nuses; k++) {
		const struct th_reach_use_r *u = &e->uses[k];

		th_doc_text(d, k ? "; " : e->api == TH_API_TIMER ?
			    "; what the containers give (each member's calls computed "
			    "from the memory around the timer it is handed): " :
			    "; what the containers give (each member's calls computed "
			    "from the memory around the object it is handed): ");
		th_doc_code(d, u->via);
		th_doc_text(d, " calls ");
		th_doc_code(d, u->call);
		if (u->indirect) {
			th_doc_text(d, " (");
			th_doc_text(d, u->check);
			th_doc_text(d, ")");
		}
	}
}

int th_reach_kernel_line(const struct th_reach_entry *e, char *buf, size_t n)
{
	size_t np = th_reach_privileged_count(e), len;
	int r;

	r = snprintf(buf, n, "%s (real kernel): %s%s%s%s can reach %zu of %zu functions (%s %s %s)",
		     e->platform, e->function, e->site ? "'s " : "", e->site ? e->site : "",
		     e->site ? " call" : "", e->nmembers, e->functions_total, e->toolchain,
		     th_variant_name(e->variant), e->config);
	if (r < 0)
		return -1;
	len = (size_t)r;
	if (e->unchecked && len < n)
		len += (size_t)snprintf(buf + len, n - len, ", %zu unchecked", e->unchecked);
	if (!np && len < n)
		len += (size_t)snprintf(buf + len, n - len, ", none privileged");
	for (size_t i = 0, k = 0; np && i < e->nmembers && len < n; i++)
		if (e->members[i].privileged)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", k++ ? ", " : ", privileged: ",
						th_reach_member_name(&e->members[i]));
	return len < n ? 0 : -1;
}

/* The real kernels' entries of @api (v, n: sorted, none the model's). */
static void kernel_section(struct th_doc *d, const struct th_reach_entry **v, size_t n,
			   enum th_api api)
{
	size_t have = 0;

	for (size_t i = 0; i < n; i++)
		have += v[i]->api == api;
	if (!have)
		return;
	th_doc_heading_text(d, 3, api == TH_API_TIMER ? "reach-kernel" : "reach-kernel-tasklet",
			    "On real kernels");
	th_doc_para(d);
	th_doc_text(d, "Read from each real kernel's vmlinux (built with CONFIG_CFI_CLANG): every function "
		    "entry of the kernel put through the check that guards ");
	th_doc_text(d, api == TH_API_TIMER ? "the indirect call" : "each indirect call");
	th_doc_text(d, " in ");
	th_doc_code(d, th_api_dispatch(api));
	th_doc_text(d, ". Privileged: the kernel's own (runner/privileged.h, TH_KERNEL_PRIVILEGED).");
	th_doc_end_para(d);
	th_doc_list_begin(d);
	for (size_t i = 0; i < n; i++) {
		const struct th_reach_entry *e = v[i];

		if (e->api != api)
			continue;
		th_doc_item_begin(d);
		th_doc_text(d, e->platform);
		th_doc_text(d, " (real kernel): ");
		th_doc_code(d, e->function);
		if (e->site) {
			th_doc_text(d, "'s ");
			th_doc_code(d, e->site);
			th_doc_text(d, " call");
		}
		th_doc_textf(d, " can reach %zu of %zu functions", e->nmembers, e->functions_total);
		th_doc_text(d, " (");
		th_doc_text(d, e->toolchain);
		th_doc_text(d, ", ");
		th_doc_code(d, e->config);
		th_doc_text(d, ", ");
		th_doc_text(d, e->scheme);
		th_doc_text(d, th_reach_privileged_count(e) ? "): " : "), none privileged: ");
		member_list(d, e);
		further(d, e);
		th_doc_item_end(d);
	}
	th_doc_list_end(d);
}

/* "transitional func", "legacy": a family's column, its variant and call. */
struct fcol {
	enum th_variant variant;
	const char *site;	/* NULL: the dispatch's only call */
};

static bool same_site(const char *a, const char *b)
{
	return !a == !b && (!a || !strcmp(a, b));
}

/*
 * Another family's dispatch (not the timer's, whose section is above it),
 * from its entries alone: a table of set sizes per config (rows) and
 * toolchain x variant x call (columns, those the entries have), the members
 * under a check, each real kernel's. v, n: the model's entries, sorted.
 */
static void family_section(struct th_doc *d, const struct th_results *res,
			   const struct th_reach_entry **v, size_t n, const struct th_reach_entry **k,
			   size_t nk, const struct th_toolchain **tcs, enum th_api api)
{
	struct fcol cols[TH_VARIANT_COUNT * 2];
	size_t ncols = 0, have = 0, nh;
	const char **heads;
	char (*names)[96];
	char id[48], title[128];

	for (size_t i = 0; i < n + nk; i++)
		have += (i < n ? v[i] : k[i - n])->api == api;
	if (!have)
		return;
	/* The columns: each (variant, call) an entry has, variants in order,
	 * "callback" before "func" (the entries' order). */
	for (int var = 0; var < TH_VARIANT_COUNT; var++)
		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			if (v[i]->api != api || v[i]->variant != (enum th_variant)var)
				continue;
			for (size_t c = 0; c < ncols; c++)
				seen |= cols[c].variant == v[i]->variant && same_site(cols[c].site, v[i]->site);
			if (!seen && ncols < sizeof(cols) / sizeof(cols[0]))
				cols[ncols++] = (struct fcol){ v[i]->variant, v[i]->site };
		}
	snprintf(id, sizeof(id), "reach-%s", th_api_name(api));
	snprintf(title, sizeof(title), "What the %s dispatch can still call", th_api_name(api));
	th_doc_heading_text(d, 2, id, title);
	th_doc_para(d);
	th_doc_text(d, "Read from the same binaries, the same way: every function entry put through the "
		    "check that guards each indirect call in ");
	th_doc_code(d, th_api_dispatch(api));
	th_doc_text(d, ". Where it makes two calls each has its own set: ");
	th_doc_code(d, "func");
	th_doc_text(d, ", the call that passes a word of its object (");
	th_doc_code(d, "t->func(t->data)");
	th_doc_text(d, "), and ");
	th_doc_code(d, "callback");
	th_doc_text(d, ", the one that passes the object itself (");
	th_doc_code(d, "t->callback(t)");
	th_doc_text(d, "), also where the compiler merged both into one call instruction behind two "
		    "checks (cfi-icall): each check's set, never their union. The ");
	th_doc_code(d, "func");
	th_doc_text(d, " call admits every function of its type the check lets through; its privileged "
		    "members are what a write that turns the object back to that call reaches.");
	th_doc_end_para(d);
	if (ncols && tcs) {
		nh = 1 + res->ntoolchains * ncols;
		heads = calloc(nh, sizeof(*heads));
		names = calloc(nh, sizeof(*names));
		if (heads && names) {
			heads[0] = "config";
			for (size_t t = 0; t < res->ntoolchains; t++)
				for (size_t c = 0; c < ncols; c++) {
					size_t at = 1 + t * ncols + c;

					snprintf(names[at], sizeof(names[0]), "%s %s%s%s", tcs[t]->name,
						 th_variant_name(cols[c].variant), cols[c].site ? " " : "",
						 cols[c].site ? cols[c].site : "");
					heads[at] = names[at];
				}
			snprintf(id, sizeof(id), "reach-%s-counts", th_api_name(api));
			th_doc_heading_text(d, 3, id, "Target set sizes");
			th_doc_para(d);
			th_doc_text(d, "Members of the set of functions the binary holds, per config (rows) and "
				    "toolchain, variant and call (columns). Without a check the set is every "
				    "function.");
			th_doc_end_para(d);
			th_doc_table_head_text(d, heads, nh);
			for (size_t cf = 0; cf < res->nconfigs; cf++) {
				const char *cfg = res->configs[cf].name;
				bool present = false;

				for (size_t t = 0; t < res->ntoolchains; t++)
					for (size_t c = 0; c < ncols; c++)
						present |= th_reach_find_site(res, NULL, api, cols[c].site,
									      tcs[t]->name, cols[c].variant,
									      cfg) != NULL;
				if (!present)
					continue;
				th_doc_row_begin(d);
				th_doc_cell_begin(d);
				th_doc_code(d, cfg);
				th_doc_cell_end(d);
				for (size_t t = 0; t < res->ntoolchains; t++)
					for (size_t c = 0; c < ncols; c++) {
						const struct th_reach_entry *e = th_reach_find_site(
							res, NULL, api, cols[c].site, tcs[t]->name,
							cols[c].variant, cfg);
						size_t np;

						th_doc_cell_begin(d);
						if (!e) {
							th_doc_text(d, "-");
						} else {
							np = th_reach_privileged_count(e);
							th_doc_textf(d, "%zu of %zu", e->nmembers,
								     e->functions_total);
							if (e->unchecked)
								th_doc_textf(d, " (%zu unchecked)", e->unchecked);
							if (np)
								th_doc_textf(d, ", %zu privileged", np);
						}
						th_doc_cell_end(d);
					}
				th_doc_row_end(d);
			}
			table_end(d);
		}
		free(heads);
		free(names);
	}
	have = 0;
	for (size_t i = 0; i < n; i++)
		have += v[i]->api == api && th_reach_checked(v[i]);
	if (have) {
		snprintf(id, sizeof(id), "reach-%s-members", th_api_name(api));
		th_doc_heading_text(d, 3, id, "Members under a check");
		th_doc_list_begin(d);
		for (size_t i = 0; i < n; i++) {
			if (v[i]->api != api || !th_reach_checked(v[i]))
				continue;
			th_doc_item_begin(d);
			th_doc_textf(d, "%s %s ", v[i]->toolchain, th_variant_name(v[i]->variant));
			if (v[i]->site) {
				th_doc_code(d, v[i]->site);
				th_doc_text(d, " ");
			}
			th_doc_code(d, v[i]->config);
			th_doc_text(d, ": ");
			member_list(d, v[i]);
			further(d, v[i]);
			th_doc_item_end(d);
		}
		th_doc_list_end(d);
	}
	kernel_section(d, k, nk, api);
}

static int render(struct th_doc *d, const struct th_results *res);

/* sections.c's row: the reach section in d's format. */
int th_section_reach(struct th_doc *d, const struct th_section_ctx *c)
{
	return th_render_reach(d, c->res);
}

int th_render_reach(struct th_doc *d, const struct th_results *res)
{
	/* Its tables have a <tbody>, its code escapes '|' (table_end). */
	struct th_doc s = *d;

	s.in_table = true;
	s.tbody = true;
	return render(&s, res);
}

static int render(struct th_doc *d, const struct th_results *res)
{
	int oom;
	const struct th_reach_entry **v = th_reach_sorted(res, &oom);
	const struct th_toolchain **tcs = NULL;
	size_t n = 0, ntimer = 0, all = res->reach ? res->reach->n : 0;

	if (oom)
		return -1;
	if (!v)
		return 0;
	/* The model's entries sort first; each real kernel's after them. */
	while (n < all && !th_reach_is_kernel(v[n]))
		n++;
	for (size_t i = 0; i < n; i++)
		ntimer += v[i]->api == TH_API_TIMER;
	if (!(tcs = th_results_sorted_toolchains(res, &oom)) && oom) {
		free(v);
		return -1;
	}
	if (!ntimer) {
		th_doc_heading_text(d, 2, "reach", "What the timer dispatch can still call");
		kernel_section(d, v + n, all - n, TH_API_TIMER);
		for (int a = 0; a < TH_API_COUNT; a++)
			if (a != TH_API_TIMER)
				family_section(d, res, v, n, v + n, all - n, tcs, (enum th_api)a);
		free(v);
		free(tcs);
		return ferror(d->out) ? -1 : 0;
	}
	th_doc_heading_text(d, 2, "reach", "What the timer dispatch can still call");
	th_doc_para(d);
	th_doc_text(d, "Read from each built attack binary (cfi/target_set.h): every function entry of the "
		    "binary is put through the check that guards the indirect call in ");
	th_doc_code(d, "call_timer_fn");
	th_doc_text(d, ", as the binary reader decodes and executes it; the set is what it lets through. "
		    "Privileged: the simulated kernel's ");
	th_doc_code(d, "write_cr4");
	th_doc_text(d, ", ");
	th_doc_code(d, "write_cr4_direct");
	th_doc_text(d, ", ");
	th_doc_code(d, "commit_creds");
	th_doc_text(d, ", ");
	th_doc_code(d, "call_usermodehelper");
	th_doc_text(d, ". The tests attack every checked member and a sample outside the set with an "
		    "aimed overwrite (reach.agree.*): members are never BLOCKED_CFI, the rest always is.");
	th_doc_end_para(d);
	for (size_t t = 0; tcs && t < res->ntoolchains; t++) {
		char title[160], id[32];

		snprintf(title, sizeof(title), "%s: what can the 4.15 call site still reach, and "
			 "does any path get to write_cr4?", tcs[t]->name);
		snprintf(id, sizeof(id), "reach-answer-%zu", t);
		th_doc_heading_text(d, 3, id, title);
		answer(d, res, v, n, tcs[t]->name);
	}
	th_doc_heading_text(d, 3, "reach-counts", "Target set sizes");
	th_doc_para(d);
	th_doc_text(d, "Members of the set of functions the binary holds, per config (rows) and toolchain "
		    "and variant (columns). Without a check the set is every function.");
	th_doc_end_para(d);
	counts_table(d, res, tcs, res->ntoolchains);
	th_doc_heading_text(d, 3, "reach-members", "Members under a check");
	th_doc_list_begin(d);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->api != TH_API_TIMER || !th_reach_checked(v[i]))
			continue;
		th_doc_item_begin(d);
		th_doc_textf(d, "%s %s ", v[i]->toolchain, th_variant_name(v[i]->variant));
		th_doc_code(d, v[i]->config);
		th_doc_text(d, ": ");
		member_list(d, v[i]);
		further(d, v[i]);
		th_doc_item_end(d);
	}
	th_doc_list_end(d);
	verify_section(d, v, n);
	if (n < all)
		kernel_section(d, v + n, all - n, TH_API_TIMER);
	/* Every other family's dispatch, from its entries (results/api.def). */
	for (int a = 0; a < TH_API_COUNT; a++)
		if (a != TH_API_TIMER)
			family_section(d, res, v, n, v + n, all - n, tcs, (enum th_api)a);
	free(v);
	free(tcs);
	return ferror(d->out) ? -1 : 0;
}


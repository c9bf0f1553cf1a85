/* SPDX-License-Identifier: MIT */
/* An attack binary's reach, every family's dispatch, into the results
 * model (reach_collect.h). */
#include "reach_collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/privileged.h"
#include "config_table.h"
#include "target_set.h"
#include "results/reach.h"

int th_reach_wanted(const char *config)
{
	const struct th_config_info *c = th_config_find(config);

	/* The baseline, and every config its row says is type-based CFI. */
	return c && (!strcmp(config, "none") || th_config_type_cfi(c));
}

static int fill(struct th_results *res, struct th_bin *b, const struct th_reach_site *s,
		const struct th_reach *r, const char *platform, const char *toolchain,
		enum th_variant v, const char *config, const char *binary, int verify,
		enum th_api api, const char *site, char *err, size_t n)
{
	struct th_reach_entry *e = th_reach_add_entry_on(res, platform, toolchain, v, config, binary,
							 r->func);
	struct th_cfiv cv;
	int rc;

	if (!e || th_reach_set_site(e, api, site) ||
	    th_reach_set_text(&e->scheme, th_cfi_scheme_name(s->scheme)) ||
	    th_reach_set_text(&e->check, s->check))
		goto oom;
	e->functions_total = r->nfunctions;
	e->unchecked = s->nunchecked;
	e->undecided = s->undecided;
	e->other_admitted = s->other_admitted;
	for (size_t i = 0; i < s->nmembers; i++) {
		const struct th_reach_member *m = &s->members[i];

		if (th_reach_add_member(e, m->name, m->body, m->privileged, m->unchecked))
			goto oom;
	}
	for (size_t i = 0; i < s->nhops; i++) {
		const struct th_reach_hop *h = &s->hops[i];

		if (th_reach_add_hop(e, h->via, h->site, th_cfi_scheme_name(h->scheme), h->reaches,
				     h->origin))
			goto oom;
	}
	for (size_t i = 0; i < s->nuses; i++) {
		const struct th_reach_use *u = &s->uses[i];

		if (th_reach_add_use(e, u->via, u->site, u->call, u->indirect, u->check))
			goto oom;
	}
	if (s->scheme == TH_CFI_NONE || !verify)
		return 0;	/* llvm-cfi-verify is for binaries with CFI */
	rc = th_cfiv_run(b, NULL, &cv, err, n);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return 0;	/* not installed: cfi_verify stays null */
	if (!(e->verify = calloc(1, sizeof(*e->verify))) ||
	    !(e->verify->insns = calloc(cv.ninsns + 1, sizeof(*e->verify->insns))) ||
	    th_reach_set_text(&e->verify->tool, cv.tool)) {
		th_cfiv_free(&cv);
		goto oom;
	}
	e->verify->total = cv.total;
	e->verify->protected_ = cv.expected_protected + cv.unexpected_protected;
	e->verify->unprotected = cv.expected_unprotected + cv.unexpected_unprotected;
	e->verify->ours_protected = cv.ours_protected;
	e->verify->ours_switch = cv.ours_switch;
	e->verify->ours_unprotected = cv.ours_unprotected;
	e->verify->disagreements = cv.disagreements;
	for (size_t i = 0; i < cv.ninsns; i++) {
		struct th_reach_insn_r *in = &e->verify->insns[i];

		in->address = cv.insns[i].addr;
		in->disagree = cv.insns[i].disagree;
		e->verify->ninsns++;
		if (th_reach_set_text(&in->status, cv.insns[i].status) ||
		    th_reach_set_text(&in->function, cv.insns[i].func) ||
		    th_reach_set_text(&in->ours, cv.insns[i].ours) ||
		    th_reach_set_text(&in->why, cv.insns[i].why)) {
			th_cfiv_free(&cv);
			goto oom;
		}
	}
	th_cfiv_free(&cv);
	return 0;
oom:
	snprintf(err, n, "%s: out of memory", binary);
	return -1;
}

/*
 * How each family's dispatch (results/api.def) makes its calls: one with a
 * single call names none (call_timer_fn's fn(...)); one with two names each
 * by how it passes its object, read from the binary (th_site_calls):
 * t->callback(t) passes the object itself, t->func(t->data) a word of it.
 * A third family is a row here beside its row of api.def.
 */
static const struct family_calls {
	const char *object;	/* the call passing its object itself */
	const char *field;	/* the call passing a word of its object */
	size_t max;		/* the dispatch's calls, at most */
	const char *shape;	/* for a message */
} family_calls[TH_API_COUNT] = {
	[TH_API_TIMER] = { NULL, NULL, 1, "fn(...)" },
	[TH_API_TASKLET] = { "callback", "func", 2, "t->callback(t), t->func(t->data)" },
};

/* The name of call @s of @api's dispatch: NULL for a family with one call,
 * else "callback" or "func"; "" when it cannot be told. */
static const char *site_name(enum th_api api, const struct th_reach_site *s)
{
	const struct family_calls *f = &family_calls[api];

	if (f->max == 1)
		return NULL;
	return s->arg == TH_CALL_ARG_OBJECT ? f->object : s->arg == TH_CALL_ARG_FIELD ? f->field : "";
}

/* The sites of @r as @api's dispatch makes them: at least one, at most the
 * family's, each named apart. Return: 0, or -1 with @err. */
static int check_sites(enum th_api api, const struct th_reach *r, const char *binary, char *err,
		       size_t n)
{
	const struct family_calls *f = &family_calls[api];

	if (r->nsites < 1 || r->nsites > f->max) {
		snprintf(err, n, "%s: %s has %zu indirect calls, expected %s%zu (%s)", binary, r->func,
			 r->nsites, f->max > 1 ? "1 to " : "", f->max, f->shape);
		return -1;
	}
	for (size_t i = 0; i < r->nsites; i++) {
		const char *a = site_name(api, &r->sites[i]);

		if (a && !*a) {
			snprintf(err, n, "%s: %s's call at 0x%llx passes neither its object nor a word of "
				 "it: not %s", binary, r->func, (unsigned long long)r->sites[i].addr,
				 f->shape);
			return -1;
		}
		for (size_t k = 0; a && k < i; k++)
			if (!strcmp(a, site_name(api, &r->sites[k]))) {
				snprintf(err, n, "%s: %s makes two %s calls (0x%llx, 0x%llx)", binary,
					 r->func, a, (unsigned long long)r->sites[k].addr,
					 (unsigned long long)r->sites[i].addr);
				return -1;
			}
	}
	return 0;
}

/* Is @func a function of @b (a family whose dispatch the binary lacks is
 * not read)? */
static int has_function(const struct th_bin *b, const char *func)
{
	const struct th_sym *s;

	return th_bin_find_syms(b, func, &s, 1) > 0;
}

int th_reach_collect(struct th_results *res, const char *toolchain, const char *variant,
		     const char *config, const char *binary, const char *const *privileged,
		     size_t npriv, char *err, size_t n)
{
	enum th_variant v = th_variant_parse(variant);
	struct th_bin *b;
	int rc = 0;

	if (v == TH_VARIANT_INVALID) {
		snprintf(err, n, "%s: unknown variant '%s'", binary, variant);
		return -1;
	}
	if (th_bin_open(binary, &b, err, n))
		return -1;
	/* Every family's dispatch the binary has (the timer's always):
	 * llvm-cfi-verify's verdicts, the binary's and not one call's, on
	 * the timer's entry. */
	for (int a = 0; a < TH_API_COUNT && !rc; a++) {
		const char *func = th_api_dispatch((enum th_api)a);
		struct th_reach *r;

		if (a != TH_API_TIMER && !has_function(b, func))
			continue;
		if (th_reach_compute(b, func, privileged, npriv, &r, err, n)) {
			rc = -1;
			break;
		}
		rc = check_sites((enum th_api)a, r, binary, err, n);
		for (size_t i = 0; !rc && i < r->nsites; i++) {
			const char *site = site_name((enum th_api)a, &r->sites[i]);

			if (th_reach_find_site(res, TH_PLATFORM_MODEL, (enum th_api)a, site, toolchain, v,
					       config)) {
				snprintf(err, n, "%s: the results already have a reach entry for %s%s%s %s %s %s",
					 binary, th_api_name((enum th_api)a), site ? " " : "", site ? site : "",
					 toolchain, variant, config);
				rc = -1;
			} else {
				rc = fill(res, b, &r->sites[i], r, TH_PLATFORM_MODEL, toolchain, v, config,
					  binary, a == TH_API_TIMER, (enum th_api)a, site, err, n);
			}
		}
		th_reach_free(r);
	}
	th_bin_close(b);
	return rc;
}

int th_reach_collect_vmlinux(struct th_results *res, const char *platform, const char *toolchain,
			     const char *config, const char *vmlinux, const char *const *privileged,
			     size_t npriv, char *err, size_t n)
{
	static const char *const kernel[] = { TH_KERNEL_PRIVILEGED };
	/* The real kernels are the families' transitional generation but for
	 * the timer (4.15+: fn(struct timer_list *), the model's modern). */
	static const enum th_variant kvariant[TH_API_COUNT] = {
		[TH_API_TIMER] = TH_VARIANT_MODERN,
		[TH_API_TASKLET] = TH_VARIANT_TRANSITIONAL,
	};
	struct th_reach_opts o = { privileged, npriv, NULL, 0, 1 };
	struct th_reach *rs[TH_API_COUNT] = { 0 };
	struct th_bin *b;
	int rc = 0;

	if (!privileged) {
		o.privileged = kernel;
		o.npriv = sizeof(kernel) / sizeof(kernel[0]);
	}
	if (!th_results_find_toolchain(res, toolchain) || !th_results_find_config(res, config)) {
		snprintf(err, n, "%s: toolchain '%s' and config '%s' must be declared in the results first",
			 vmlinux, toolchain, config);
		return -1;
	}
	if (th_platform_is_model(platform) || !th_results_find_platform(res, platform)) {
		snprintf(err, n, "%s: platform '%s' must be a real kernel's (linux-<release>), declared "
			 "in the results first", vmlinux, platform ? platform : "(none)");
		return -1;
	}
	if (th_reach_find_on(res, platform, toolchain, TH_VARIANT_MODERN, config)) {
		snprintf(err, n, "%s: the results already have a reach entry for %s modern %s on %s",
			 vmlinux, toolchain, config, platform);
		return -1;
	}
	if (th_bin_open(vmlinux, &b, err, n))
		return -1;
	/* Every family read before any entry is added: all or none. */
	for (int a = 0; a < TH_API_COUNT && !rc; a++) {
		const char *func = th_api_dispatch((enum th_api)a);
		struct th_reach *r;

		if (a != TH_API_TIMER && !has_function(b, func))
			continue;
		if (th_reach_compute_opts(b, func, &o, &r, err, n)) {
			rc = -1;
			break;
		}
		rs[a] = r;
		rc = check_sites((enum th_api)a, r, vmlinux, err, n);
		for (size_t i = 0; !rc && i < r->nsites; i++)
			if (r->sites[i].scheme == TH_CFI_NONE) {
				snprintf(err, n, "%s: no check guards %s's indirect call%s (a kernel "
					 "without CONFIG_CFI_CLANG?)", vmlinux, func,
					 r->nsites > 1 ? "s" : "");
				rc = -1;
			}
		for (size_t i = 0; !rc && i < r->nsites; i++) {
			const char *site = site_name((enum th_api)a, &r->sites[i]);

			if (th_reach_find_site(res, platform, (enum th_api)a, site, toolchain, kvariant[a],
					       config)) {
				snprintf(err, n, "%s: the results already have a reach entry for %s%s%s %s %s on %s",
					 vmlinux, th_api_name((enum th_api)a), site ? " " : "", site ? site : "",
					 toolchain, config, platform);
				rc = -1;
			}
		}
	}
	for (int a = 0; a < TH_API_COUNT && !rc; a++)
		for (size_t i = 0; rs[a] && !rc && i < rs[a]->nsites; i++)
			rc = fill(res, b, &rs[a]->sites[i], rs[a], platform, toolchain, kvariant[a], config,
				  vmlinux, 0, (enum th_api)a, site_name((enum th_api)a, &rs[a]->sites[i]),
				  err, n);
	for (int a = 0; a < TH_API_COUNT; a++)
		th_reach_free(rs[a]);
	th_bin_close(b);
	return rc;
}

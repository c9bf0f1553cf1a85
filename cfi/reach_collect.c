/* SPDX-License-Identifier: MIT */
/* An attack binary's reach, into the results model (reach_collect.h). */
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

	return c && (!strcmp(config, "none") || th_config_has_cflag(c, "-fsanitize=cfi-icall") ||
		     th_config_has_cflag(c, "-fsanitize=kcfi") ||
		     th_config_has_cflag(c, "-fsanitize=function"));
}

static int fill(struct th_results *res, struct th_bin *b, const struct th_reach_site *s,
		const struct th_reach *r, const char *platform, const char *toolchain,
		enum th_variant v, const char *config, const char *binary, int verify, char *err,
		size_t n)
{
	struct th_reach_entry *e = th_reach_add_entry_on(res, platform, toolchain, v, config, binary,
							 r->func);
	struct th_cfiv cv;
	int rc;

	if (!e || th_reach_set_text(&e->scheme, th_cfi_scheme_name(s->scheme)) ||
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

int th_reach_collect(struct th_results *res, const char *toolchain, const char *variant,
		     const char *config, const char *binary, const char *const *privileged,
		     size_t npriv, char *err, size_t n)
{
	enum th_variant v = th_variant_parse(variant);
	struct th_bin *b;
	struct th_reach *r;
	int rc = -1;

	if (v == TH_VARIANT_INVALID) {
		snprintf(err, n, "%s: unknown variant '%s'", binary, variant);
		return -1;
	}
	if (th_bin_open(binary, &b, err, n))
		return -1;
	if (!th_reach_compute(b, "call_timer_fn", privileged, npriv, &r, err, n)) {
		if (r->nsites != 1)
			snprintf(err, n, "%s: call_timer_fn has %zu indirect calls, expected one (fn(...))",
				 binary, r->nsites);
		else
			rc = fill(res, b, &r->sites[0], r, TH_PLATFORM_MODEL, toolchain, v, config,
				  binary, 1, err, n);
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
	struct th_reach_opts o = { privileged, npriv, NULL, 0, 1 };
	struct th_bin *b;
	struct th_reach *r;
	int rc = -1;

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
	if (!th_reach_compute_opts(b, "call_timer_fn", &o, &r, err, n)) {
		if (r->nsites != 1)
			snprintf(err, n, "%s: call_timer_fn has %zu indirect calls, expected one (fn(timer))",
				 vmlinux, r->nsites);
		else if (r->sites[0].scheme == TH_CFI_NONE)
			snprintf(err, n, "%s: no check guards call_timer_fn's indirect call (a kernel "
				 "without CONFIG_CFI_CLANG?)", vmlinux);
		else
			rc = fill(res, b, &r->sites[0], r, platform, toolchain, TH_VARIANT_MODERN,
				  config, vmlinux, 0, err, n);
		th_reach_free(r);
	}
	th_bin_close(b);
	return rc;
}

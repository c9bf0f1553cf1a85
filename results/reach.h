/* SPDX-License-Identifier: MIT */
/*
 * The `reach` section of results.json: what each family's dispatch's
 * indirect calls (call_timer_fn; tasklet_action_common's two) can still
 * call, per toolchain x variant x config, as
 * cfi/target_set.h read it from the built attack binary; and, where LLVM's
 * llvm-cfi-verify ran on it, the tool's verdicts beside binread's.
 *
 *   reach: [{platform, toolchain, variant, config, binary, function, api,
 *            site (optional), scheme, check,
 *            functions_total, count, unchecked, undecided, other_admitted,
 *            privileged: [names],
 *            members: [{name, body, privileged, unchecked}],
 *            hops: [{via, site, scheme, reaches, origin}],
 *            uses: [{via, site, call, indirect, check}],    (optional)
 *            cfi_verify: null | {tool, total, protected, unprotected,
 *                                ours_protected, ours_switch, ours_unprotected,
 *                                disagreements,
 *                                instructions: [{address, status, function,
 *                                                ours, disagree, why}]}}]
 * - platform: where the binary runs: "model" (the matrix's userspace
 *   builds) or a real kernel, "linux-<release>", declared in the results'
 *   platforms (th_results_add_platform). Written always; a file written
 *   before it (no cell says its platform, no platforms) lacks it and its
 *   entries are the model's, as its cells are.
 * - count: members, a member being a function entry the call site's check
 *   admits; functions_total: the binary's function entries. privileged: the
 *   members that are the victim's privileged functions (runner/privileged.h),
 *   the same ones as the members marked privileged.
 * - name: the symbol at the admitted address (null when none names it);
 *   body: where a cfi-icall jump-table entry forwards to (`f.cfi`), or null.
 * - unchecked: members the check skips (-fsanitize=function: no signature);
 *   undecided: entries the check could not be evaluated on; other_admitted:
 *   kcfi, executable addresses that are no function's entry but pass.
 * - hops: a member's own indirect call that admits a privileged function,
 *   its target relative to that member's first argument ("*(arg0 - 16)").
 * - uses: what container confusion gives (cfi/target_set.h): a member's calls
 *   whose target or argument registers are computed from the memory around
 *   its first argument, "wake_up_process(rdi = *(arg0 + 40))"; indirect
 *   ones with their check ("kcfi 0x12345678"). Written by
 *   th_reach_collect_vmlinux(); absent (and empty) for the matrix's
 *   binaries.
 * - api: the family (results/api.def: "timer", "tasklet"), whose dispatch
 *   function the entry reads (call_timer_fn, tasklet_action_common);
 *   written always, and "timer" for an entry without it (a file written
 *   before the tasklet family).
 * - site: for a family whose dispatch has two kinds of call (the
 *   tasklet's), which call the entry is: "func" (the call that passes a
 *   word of its object, t->func(t->data)) or "callback" (the object
 *   itself, t->callback(t)); every tasklet entry names its call (legacy's
 *   only one func, modern's only one callback, transitional's both);
 *   absent for the timer, whose dispatch has one kind. Each is its
 *   own check's set, also where the compiler merged both calls into one
 *   instruction (cfi-icall: one `call rax` behind two checks).
 * Entries are keyed by (platform, api, site, toolchain, variant, config)
 * and are in output order: platform (the model first, then by name), api
 * as results/api.def lists them, toolchain, variant, config as declared,
 * site ("callback" before "func").
 *
 * The section is optional (results without it are valid) and informational:
 * `check` judges cells, not this. Loading it is as strict as the rest.
 */
#ifndef TH_RESULTS_REACH_H
#define TH_RESULTS_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

struct th_reach_member_r {
	char *name;		/* NULL: no symbol */
	char *body;		/* NULL: none elsewhere */
	bool privileged, unchecked;
};

struct th_reach_hop_r {
	char *via;
	unsigned long long site;
	char *scheme;
	char *reaches;		/* ", "-separated privileged names */
	char *origin;		/* "" when not computed from the argument */
};

struct th_reach_use_r {
	char *via;
	unsigned long long site;
	char *call;
	bool indirect;
	char *check;		/* "" for a direct call */
};

struct th_reach_insn_r {
	unsigned long long address;
	char *status, *function, *ours, *why;
	bool disagree;
};

struct th_reach_verify_r {
	char *tool;
	unsigned total, protected_, unprotected;
	unsigned ours_protected, ours_switch, ours_unprotected;
	unsigned disagreements;
	struct th_reach_insn_r *insns;
	size_t ninsns;
};

struct th_reach_entry {
	char *platform;		/* "model" (TH_PLATFORM_MODEL) or "linux-<release>" */
	enum th_api api;	/* the family whose dispatch it is (results/api.def);
				 * TH_API_TIMER for an entry written without "api" */
	char *site;		/* which kind of call of a dispatch that has two ("func",
				 * "callback": tasklet_action_common's); NULL: the
				 * timer's, whose dispatch has one kind */
	char *toolchain;
	enum th_variant variant;
	char *config;
	char *binary;
	char *function;
	char *scheme;		/* "none", "cfi-icall", "kcfi", "function", "unknown" */
	char *check;		/* the check in one line */
	size_t functions_total, unchecked, undecided, other_admitted;
	struct th_reach_member_r *members;
	size_t nmembers;	/* = count */
	struct th_reach_hop_r *hops;
	size_t nhops;
	struct th_reach_use_r *uses;
	size_t nuses;
	struct th_reach_verify_r *verify;	/* NULL: the tool did not run */
};

struct th_reach_section {
	struct th_reach_entry *entries;
	size_t n, cap;
};

/* A new entry of res->reach on @platform ("model", or a real kernel's
 * "linux-<release>"; NULL: the model), the section created on first use
 * (NULL when out of memory). Strings are copied. The caller keeps the key
 * (platform, toolchain, variant, config) unique (th_reach_find_on). */
struct th_reach_entry *th_reach_add_entry_on(struct th_results *res, const char *platform,
					     const char *toolchain, enum th_variant variant,
					     const char *config, const char *binary,
					     const char *function);
/* Make @e an entry of @api's dispatch, call @site (NULL: its only one).
 * Return: 0, or -1 (oom). */
int th_reach_set_site(struct th_reach_entry *e, enum th_api api, const char *site);
/* th_reach_add_entry_on() on the model: the matrix's binaries. */
struct th_reach_entry *th_reach_add_entry(struct th_results *res, const char *toolchain,
					  enum th_variant variant, const char *config,
					  const char *binary, const char *function);
/* Append to an entry; strings copied (NULL stays NULL). Return: 0 or -1 (oom). */
int th_reach_add_member(struct th_reach_entry *e, const char *name, const char *body,
			bool privileged, bool unchecked);
int th_reach_add_hop(struct th_reach_entry *e, const char *via, unsigned long long site,
		     const char *scheme, const char *reaches, const char *origin);
int th_reach_add_use(struct th_reach_entry *e, const char *via, unsigned long long site,
		     const char *call, bool indirect, const char *check);
int th_reach_set_text(char **field, const char *s);

size_t th_reach_privileged_count(const struct th_reach_entry *e);
/* Does e's call site have a check (its scheme neither "none" nor "unknown")? */
bool th_reach_checked(const struct th_reach_entry *e);
/* A member as named: its symbol, else its body, else "?". */
const char *th_reach_member_name(const struct th_reach_member_r *m);
/* The entries in output order (the model's first, then each real kernel's);
 * malloc'd, res->reach->n of them; NULL when none (*oom tells them apart). */
const struct th_reach_entry **th_reach_sorted(const struct th_results *res, int *oom);
/* The timer's entry for (platform, toolchain, variant, config), NULL when
 * none; platform NULL means the model. */
const struct th_reach_entry *th_reach_find_on(const struct th_results *res, const char *platform,
					      const char *toolchain, enum th_variant variant,
					      const char *config);
/* The entry of @api's dispatch call @site (NULL: its only call) for
 * (platform, toolchain, variant, config); th_reach_find_on() is this for
 * the timer's. NULL when none. */
const struct th_reach_entry *th_reach_find_site(const struct th_results *res, const char *platform,
						enum th_api api, const char *site,
						const char *toolchain, enum th_variant variant,
						const char *config);
/* th_reach_find_on() on the model. */
const struct th_reach_entry *th_reach_find(const struct th_results *res, const char *toolchain,
					   enum th_variant variant, const char *config);
/* Is e a real kernel's entry (its platform not the model)? */
bool th_reach_is_kernel(const struct th_reach_entry *e);

/*
 * What one dispatch call can still call under each of a list of configs
 * (the verdict card's: report/card.h), from the model's entries: what the
 * verdict screen and report.html's card say of it, computed once here and
 * only formatted there.
 */
struct th_reach_admits {
	const char *config;		/* one of the configs asked about */
	const char *toolchain;		/* the newest toolchain with an entry for it */
	const struct th_reach_entry *entry;	/* that entry */
	size_t members, functions;	/* admitted, of the binary's function entries */
	size_t privileged;		/* members that are privileged targets */
	char names[256];		/* the named ones: "write_cr4, write_cr4_direct" */
	char hops[256];			/* "<callback> reaches <targets>; ...", or "" */
};

struct th_reach_call {
	/* The configs asked about that have an entry, in the order asked. */
	struct th_reach_admits *rows;
	size_t n;
	/* Every privileged name of the rows once, whichever configs admit it
	 * ("write_cr4, write_cr4_direct"): what the call's check lets through. */
	char names[256];
	/* One call further, said once: each row's hops in turn replace the
	 * ones kept unless those already say them (the last that says more);
	 * "" when no row has any. */
	char hops[256];
};

/**
 * th_reach_call() - what @api's dispatch call @site (NULL: its only one) of
 * variant @v still admits under each of configs[0..nconfigs).
 * Return: 0, or -1 when out of memory (*c empty). Free with
 * th_reach_call_free().
 */
int th_reach_call(const struct th_results *res, enum th_api api, const char *site, enum th_variant v,
		  const char *const *configs, size_t nconfigs, struct th_reach_call *c);
void th_reach_call_free(struct th_reach_call *c);

void th_reach_section_free(struct th_reach_section *s);

/* JSON (jansson) of the section, in output order; NULL on oom. */
struct json_t;
struct json_t *th_reach_to_json(const struct th_results *res, char *err, size_t errlen);
/* Load @j (the "reach" value) into res->reach, validating every field
 * against res's toolchains, configs and platforms (load those first).
 * An entry without "platform" is the model's, accepted only when
 * @need_platform is false (a file whose cells say no platform and that has
 * no platforms: written before them) and no other entry says its platform.
 * Return: 0, or -1 with @err naming the place
 * ("reach[2].members[0].name: expected a string or null"). */
int th_reach_from_json(const struct json_t *j, struct th_results *res, bool need_platform,
		       char *err, size_t errlen);

/* The section in the reports: report/render_reach.h. */

#endif

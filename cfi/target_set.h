/* SPDX-License-Identifier: MIT */
/*
 * CFI's reach: the functions an indirect call site of a linked binary can
 * still call, read from the binary with the binary reader (binread.h).
 *
 * How a target set is computed (th_reach_compute), the same way for every
 * scheme: every FUNC symbol of the binary in an executable segment is a
 * candidate entry address, and the call site's check, as binread decoded
 * and executes it (th_site_admits), is evaluated on that address. A member
 * is a candidate the check lets through. So the set is what the instructions
 * accept, not what a table of the scheme claims; the scheme's own tables are
 * then read as an independent cross-check (tests/reach_test.c):
 *  - cfi-icall (LTO): the admitted addresses are the jump-table entries of
 *    the call site's type; there are __typeid_<T>_size_m1 + 1 of them. An
 *    entry is the symbol `f` (a 5-byte jmp, padded with int3); the jmp's
 *    destination, decoded with capstone, is the body `f.cfi`. A member is
 *    named by its entry (what an attacker writes into .function) and its
 *    body is recorded. Every entry of the table is evaluated even where no
 *    symbol names it ("<jump-table entry>").
 *  - kcfi: the admitted functions are those whose __cfi_<f> preamble ends in
 *    `movl $HASH, %eax` with the hash the call site compares against (the
 *    word at f-4). The check admits ANY address whose preceding four bytes
 *    are the hash; executable addresses that are no function's entry and
 *    still pass are counted (other_admitted), not hidden.
 *  - -fsanitize=function: a function passes when the words before it are the
 *    sanitizer's signature and the call site's type hash, and also when the
 *    signature is missing (the check is skipped: `unchecked`).
 *  - none: every function in an executable segment.
 *
 * A member is marked privileged when its name (up to the first '.': LTO's
 * ".cfi", ".llvm.<n>") is one of the caller's privileged names, and
 * legitimate when it is one of the caller's legitimate callbacks (the
 * victim's own). The others of a checked set are container-confusing: of
 * the call site's type, so the check lets them through, but handed an
 * object that is not the container they expect (kernel: every timer
 * callback for call_timer_fn, each reading its own struct around the
 * timer). What a member does with the bytes around its first argument is
 * read from its code (uses): each call it makes, direct or indirect, whose
 * target or arguments are computed from that argument
 * ("wake_up_process(*(arg0 + 40))"). Only what the instructions show is
 * claimed: calls one level down, the first argument's provenance only.
 *
 * One hop further (hops): for each member that is neither privileged nor
 * unchecked, its own indirect calls are read the same way; a call that admits a
 * privileged function is recorded with where its target comes from,
 * relative to the member's first argument ("*(arg0 - 16)"): how a legitimate
 * callback of the call site's type can still hand control to write_cr4
 * (container confusion, attacks/victim.c foreign_timer_fn).
 *
 * One call instruction that makes two calls (the compiler merged them, each
 * path with its own check: tasklet_action_common() under cfi-icall) is two
 * sites here, one per call (th_site_calls), each with its own check's set:
 * never the union of the two.
 *
 * Addresses are file virtual addresses. Names point into the binary's
 * symbol table: keep the th_bin open while they are used. Nothing here prints.
 */
#ifndef TH_CFI_REACH_H
#define TH_CFI_REACH_H

#include <stddef.h>
#include <stdint.h>

#include "binread/binread.h"

/* Names point into the binary's symbol table: valid while it is open. */
struct th_reach_member {
	const char *name;	/* the admitted symbol (cfi-icall: the jump-table entry
				 * `f`); NULL: no symbol names the address */
	const char *body;	/* the body when it is elsewhere (`f.cfi`), else NULL */
	uint64_t addr;		/* the admitted address */
	uint64_t body_addr;	/* = addr when the body is there */
	int privileged;
	int legitimate;		/* one of the caller's legitimate callbacks */
	int unchecked;		/* -fsanitize=function: no signature, the check is skipped */
};

/* A call of a container-confusing member whose target or arguments come
 * from its first argument's surroundings. */
struct th_reach_use {
	const char *via;	/* the member */
	size_t member;		/* its index in members */
	uint64_t site;		/* the call or jmp in it */
	int indirect;		/* through a pointer (then check says how it is checked) */
	const char *callee;	/* a direct call's destination; NULL when unnamed or indirect */
	char call[256];		/* "wake_up_process(*(arg0 + 40))", "*(arg0 - 16)(arg0)":
				 * arguments up to the last one computed from arg0;
				 * "?" where not computable here */
	char check[96];		/* indirect: "kcfi 0x12345678", "none", ... */
};

/* A member's own indirect call that admits a privileged function. */
struct th_reach_hop {
	const char *via;	/* the member */
	const char *via_body;	/* the function analysed (its body) */
	uint64_t site;		/* the call instruction in it */
	enum th_cfi_scheme scheme;
	char reaches[256];	/* the privileged functions it admits, ", "-separated */
	char origin[96];	/* its target relative to the member's first argument,
				 * "*(arg0 - 16)"; "" when not computed from it */
};

struct th_reach_site {
	uint64_t addr;		/* the call or jump */
	/* One instruction can make several calls (th_site_calls: two calls
	 * the compiler merged, each path behind its own check): each is a
	 * site of its own here, call of ncalls (1 of 1 for most), with how
	 * it passes its object: t->callback(t) TH_CALL_ARG_OBJECT,
	 * t->func(t->data) TH_CALL_ARG_FIELD (the target *(obj + target_off)). */
	unsigned call, ncalls;
	enum th_call_arg arg;
	int64_t target_off, arg_off;
	char insn[48];
	int is_jump, from_table;
	enum th_cfi_scheme scheme;
	char check[512];	/* th_site_describe() */
	size_t nmembers;
	struct th_reach_member *members;	/* by address */
	size_t nprivileged;
	size_t nunchecked;
	size_t undecided;	/* candidates the check could not be evaluated on */
	const char *undecided_first;	/* the first of them, named; NULL */
	size_t other_admitted;	/* kcfi: admitted executable addresses that are no
				 * function's entry (the hash found elsewhere) */
	size_t nhops;
	struct th_reach_hop *hops;
	size_t nlegitimate;	/* members that are a legitimate callback */
	size_t nconfusing;	/* checked members neither privileged, legitimate nor
				 * unchecked: container confusion candidates */
	size_t nuses;
	struct th_reach_use *uses;	/* by member, then place */
};

struct th_reach {
	char binary[512];
	char func[128];
	int complete;		/* binread followed every path of func */
	size_t nfunctions;	/* candidate entries: distinct function addresses */
	size_t nsites;
	struct th_reach_site *sites;
};

struct th_reach_opts {
	const char *const *privileged;	/* names marked privileged */
	size_t npriv;
	const char *const *legitimate;	/* the victim's own callbacks */
	size_t nlegit;
	int uses;			/* read the container-confusing members' uses */
};

/*
 * The target sets of every indirect call in the function named exactly
 * @func of @b, members marked by @o. Near-linear in the binary's symbols:
 * each candidate is put through the check once, each member's code is read
 * once (and not kept). Return: 0 with *@out (free with th_reach_free), or
 * -1 with @err naming the file and the problem (no symbols, no such
 * function, ...).
 */
int th_reach_compute_opts(struct th_bin *b, const char *func, const struct th_reach_opts *o,
			  struct th_reach **out, char *err, size_t n);
/* The same, members marked privileged by @privileged (@npriv names; may be
 * 0), no legitimate callback named and no uses read. */
int th_reach_compute(struct th_bin *b, const char *func, const char *const *privileged,
		     size_t npriv, struct th_reach **out, char *err, size_t n);
void th_reach_free(struct th_reach *r);

/* Is @name (up to its first '.') one of @privileged? */
int th_reach_is_privileged(const char *name, const char *const *privileged, size_t npriv);

/* ---- llvm-cfi-verify, compared ---------------------------------------------------------
 * LLVM's own checker of a cfi-icall binary (llvm/tools/llvm-cfi-verify): for
 * every indirect control-flow instruction it prints a status (PROTECTED,
 * FAIL_REGISTER_CLOBBERED, FAIL_BAD_CONDITIONAL_BRANCH, FAIL_ORPHANS, ...)
 * and totals. Each instruction it lists is read again with binread and the
 * two verdicts are put side by side; where they differ, why.
 */
struct th_cfiv_insn {
	uint64_t addr;
	char status[40];	/* the tool's: "PROTECTED", "FAIL_REGISTER_CLOBBERED" */
	char func[128];		/* the function containing it (our symbol table) */
	char ours[16];		/* "protected", "switch", "unprotected", "unknown" */
	char why[512];		/* our reading in one line; for a disagreement, why */
	int tool_protected;
	int disagree;		/* the tool and binread differ on protection, or the
				 * tool counts a switch as an unprotected call */
};

struct th_cfiv {
	char tool[64];		/* the program that ran, "" when none is installed */
	unsigned total;		/* "Total Indirect CF Instructions" */
	unsigned expected_protected, unexpected_protected;
	unsigned expected_unprotected, unexpected_unprotected;
	size_t ninsns;
	struct th_cfiv_insn *insns;
	unsigned ours_protected, ours_switch, ours_unprotected;
	unsigned disagreements;
};

/*
 * Run @tool (NULL: the first of llvm-cfi-verify-22, llvm-cfi-verify on
 * PATH) on @b and compare. Return: 1 compared, 0 no tool installed
 * (out->tool ""), -1 with @err (the tool failed or printed what cannot be
 * parsed). Free with th_cfiv_free.
 */
int th_cfiv_run(struct th_bin *b, const char *tool, struct th_cfiv *out, char *err, size_t n);
void th_cfiv_free(struct th_cfiv *v);

/*
 * Run the default tool (th_cfiv_run's NULL) on each of @paths, @jobs (1-8)
 * at once, and keep what each printed: th_cfiv_run(b, NULL, ..) of a binary
 * at one of those paths then reads that, once, instead of running the tool
 * (a file changed since, by its size, time or inode, is run again). What
 * the tool printed is judged there as when run there. The matrix calls it
 * before its reach section, with its --jobs: the runs are over, the CPUs
 * free. A path the tool cannot be started on is left to th_cfiv_run().
 * th_cfiv_prefetch_drop() frees what was not read.
 */
void th_cfiv_prefetch(const char *const *paths, size_t n, unsigned jobs);
void th_cfiv_prefetch_drop(void);
/* How many fetched outputs are held, not read yet. */
size_t th_cfiv_prefetched(void);

#endif

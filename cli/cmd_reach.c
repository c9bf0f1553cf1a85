/* SPDX-License-Identifier: MIT */
/*
 * `timerharness reach --binary FILE --function NAME`: what the indirect calls
 * of one function of a linked x86-64 binary can still call under its CFI
 * (cfi/reach.h does the work). For a binary the user brings: their own kCFI
 * or cfi-icall build.
 *
 * Exit: 0 listed; 2 bad input: usage, not a readable x86-64 ELF, no symbol
 * table (stripped), no function of that name, or no CFI (no check guards
 * the function's indirect calls and the binary has no CFI tables).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "attacks/privileged.h"
#include "cfi/reach.h"
#include "cli.h"

#define CMD "reach"

/* The simulated kernel's privileged functions (attacks/victim.h): marked by
 * default, so the attack binaries of build/ read as the report shows them. */
static const char *const victim_privileged[] = { TH_VICTIM_PRIVILEGED };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness reach --binary FILE --function NAME [--privileged NAME,...] [--all]\n"
		"  the functions each indirect call of NAME in FILE can still call under the\n"
		"  binary's CFI (cfi-icall, kcfi, -fsanitize=function), read from the binary:\n"
		"  every function entry is put through the call site's check as decoded\n"
		"  --privileged  names to mark (default: the simulated kernel's write_cr4,\n"
		"                write_cr4_direct, commit_creds_stub, call_usermodehelper_stub)\n"
		"  --all         also list the functions no check stops (none, unsigned ones)\n"
		"exit: 0 listed; 2 bad input (not an ELF, stripped, no such function, no CFI)\n");
}

/* Members listed one a line; without --all, where there is no check
 * (none) or the check is skipped (unchecked), only the privileged ones. */
static void print_site(const struct th_reach *r, const struct th_reach_site *s, int all)
{
	size_t hidden = 0;

	printf("  0x%lx %s\n    check: %s\n", (unsigned long)s->addr, s->insn, s->check);
	if (s->from_table) {
		printf("    a switch: it jumps through a table of the binary, not through a pointer\n");
		return;
	}
	printf("    can reach %zu of %zu functions, %zu privileged%s\n", s->nmembers, r->nfunctions,
	       s->nprivileged, s->scheme == TH_CFI_NONE ? " (no check: every function)" : "");
	if (s->undecided)
		printf("    %zu functions could not be decided (the check reads what the file does not hold), first %s\n",
		       s->undecided, s->undecided_first ? s->undecided_first : "unnamed");
	if (s->other_admitted)
		printf("    and %zu executable addresses that are no function's entry but follow the hash\n",
		       s->other_admitted);
	if (s->nunchecked)
		printf("    %zu of them carry no signature: the check is skipped for them\n", s->nunchecked);
	for (size_t i = 0; i < s->nmembers; i++) {
		const struct th_reach_member *m = &s->members[i];

		if (!all && !m->privileged && (m->unchecked || s->scheme == TH_CFI_NONE)) {
			hidden++;
			continue;
		}
		printf("      0x%-8lx %s%s", (unsigned long)m->addr,
		       m->name ? m->name : m->body ? "(jump-table entry, no symbol)" : "(no symbol)",
		       m->privileged ? "  [privileged]" : "");
		if (m->body_addr != m->addr)
			printf("  (body %s at 0x%lx)", m->body ? m->body : "(no symbol)",
			       (unsigned long)m->body_addr);
		if (m->unchecked)
			printf("  (no signature: unchecked)");
		printf("\n");
	}
	if (hidden)
		printf("      ... and %zu more %s (--all lists them)\n", hidden,
		       s->scheme == TH_CFI_NONE ? "functions" : "unchecked functions");
	for (size_t i = 0; i < s->nhops; i++) {
		const struct th_reach_hop *h = &s->hops[i];

		printf("    one hop further: %s calls %s at 0x%lx (%s), which can reach %s\n", h->via,
		       h->origin[0] ? h->origin : "a pointer", (unsigned long)h->site,
		       th_cfi_scheme_name(h->scheme), h->reaches);
	}
}

int th_cli_reach(int argc, char **argv)
{
	const char *binary = NULL, *func = NULL, *privlist = NULL;
	const char *priv[64];
	size_t npriv = 0;
	char *privcopy = NULL, err[1024];
	struct th_bin *b;
	struct th_reach *r;
	int bad = 0, guarded = 0, all = 0;

	for (int i = 1; i < argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--all"))
			all = 1;
		else if ((v = th_optval(argc, argv, &i, CMD, "--binary", &bad)))
			binary = v;
		else if ((v = th_optval(argc, argv, &i, CMD, "--function", &bad)))
			func = v;
		else if ((v = th_optval(argc, argv, &i, CMD, "--privileged", &bad)))
			privlist = v;
		else if (!bad) {
			fprintf(stderr, "timerharness reach: unknown option '%s'\n", argv[i]);
			bad = 1;
		}
		if (bad)
			break;
	}
	if (bad || !binary || !func) {
		if (!bad)
			fprintf(stderr, "timerharness reach: --binary FILE and --function NAME are required\n");
		usage(stderr);
		return 2;
	}
	if (privlist) {
		privcopy = strdup(privlist);
		for (char *tok = privcopy ? strtok(privcopy, ",") : NULL; tok && npriv < 64;
		     tok = strtok(NULL, ","))
			priv[npriv++] = tok;
	} else {
		for (size_t i = 0; i < sizeof(victim_privileged) / sizeof(victim_privileged[0]); i++)
			priv[npriv++] = victim_privileged[i];
	}
	if (th_bin_open(binary, &b, err, sizeof(err))) {
		fprintf(stderr, "timerharness reach: %s\n", err);
		free(privcopy);
		return 2;
	}
	if (th_reach_compute(b, func, priv, npriv, &r, err, sizeof(err))) {
		fprintf(stderr, "timerharness reach: %s\n", err);
		th_bin_close(b);
		free(privcopy);
		return 2;
	}
	for (size_t i = 0; i < r->nsites; i++)
		guarded |= r->sites[i].scheme != TH_CFI_NONE;
	if (!guarded && !th_bin_cfi_schemes(b)) {
		fprintf(stderr,
			"timerharness reach: %s: no CFI: no check guards the indirect calls of %s, and the "
			"binary has no .kcfi_traps and no __typeid_ jump tables (build with "
			"-fsanitize=kcfi, or -flto -fsanitize=cfi-icall, or -fsanitize=function)\n",
			binary, func);
		th_reach_free(r);
		th_bin_close(b);
		free(privcopy);
		return 2;
	}
	printf("%s: %s: %zu indirect call%s%s\n", binary, func, r->nsites, r->nsites == 1 ? "" : "s",
	       r->complete ? "" : " (paths beyond the analysis limits: sets may be incomplete)");
	for (size_t i = 0; i < r->nsites; i++)
		print_site(r, &r->sites[i], all);
	th_reach_free(r);
	th_bin_close(b);
	free(privcopy);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "timerharness reach: cannot write to stdout\n");
		return 2;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * `timerharness reach --binary FILE --function NAME`: what the indirect calls
 * of one function of a linked x86-64 binary can still call under its CFI
 * (cfi/target_set.h does the work). For a binary the user brings: their own kCFI
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
#include "runner/privileged.h"
#include "cfi/target_set.h"
#include "cli.h"

#define CMD "reach"

/* The simulated kernel's privileged functions (attacks/victim.h): marked by
 * default, so the attack binaries of build/ read as the report shows them. */
static const char *const victim_privileged[] = { TH_VICTIM_PRIVILEGED };
/* A Linux kernel's (a binary with linux_banner): what an attacker who calls
 * one function wants it to be. */
static const char *const kernel_privileged[] = { TH_KERNEL_PRIVILEGED };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness reach --binary FILE --function NAME [--privileged NAME,...]\n"
		"                          [--legitimate NAME,...] [--all]\n"
		"  the functions each indirect call of NAME in FILE can still call under the\n"
		"  binary's CFI (cfi-icall, kcfi, -fsanitize=function), read from the binary:\n"
		"  every function entry is put through the call site's check as decoded\n"
		"  --privileged  names to mark (default: the simulated kernel's write_cr4,\n"
		"                write_cr4_direct, commit_creds, call_usermodehelper;\n"
		"                for a Linux kernel (a vmlinux): native_write_cr4, commit_creds,\n"
		"                prepare_kernel_cred, ... as docs/cli.md lists)\n"
		"  --legitimate  the victim's own callbacks: the other members of a checked set\n"
		"                are its container-confusion candidates (default: none named,\n"
		"                every member is one)\n"
		"  --all         also list the functions no check stops (none, unsigned ones)\n"
		"exit: 0 listed; 2 bad input (not an ELF, stripped, no such function, no CFI)\n");
}

/* @s for a terminal: symbol names come from the binary, so every byte
 * outside printable ASCII (ESC, newline, UTF-8's bidi overrides) and the
 * backslash are written as \xNN / \\, never raw. */
static void put_name(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", stdout);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
}

static const char *member_label(const struct th_reach_member *m)
{
	return m->name ? m->name : m->body ? "(jump-table entry, no symbol)" : "(no symbol)";
}

/* Members listed one a line; without --all, where there is no check
 * (none) or the check is skipped (unchecked), only the privileged ones. */
static void print_site(const struct th_reach *r, const struct th_reach_site *s, int all,
		       int legit_named)
{
	size_t hidden = 0;

	printf("  0x%lx ", (unsigned long)s->addr);
	put_name(s->insn);
	/* One instruction, two calls merged by the compiler: each its own. */
	if (s->ncalls > 1)
		printf(" (call %u of %u this instruction makes: %s%s, the target *(obj %c %lld))",
		       s->call, s->ncalls, th_call_arg_name(s->arg),
		       s->arg == TH_CALL_ARG_OBJECT ? ": the object itself" :
		       s->arg == TH_CALL_ARG_FIELD ? ": a word of the object" : "",
		       s->target_off < 0 ? '-' : '+',
		       (long long)(s->target_off < 0 ? -s->target_off : s->target_off));
	printf("\n    check: ");
	put_name(s->check);
	printf("\n");
	if (s->from_table) {
		printf("    a switch: it jumps through a table of the binary, not through a pointer\n");
		return;
	}
	printf("    can reach %zu of %zu functions, %zu privileged%s\n", s->nmembers, r->nfunctions,
	       s->nprivileged, s->scheme == TH_CFI_NONE ? " (no check: every function)" : "");
	if (s->undecided) {
		printf("    %zu functions could not be decided (the check reads what the file does not hold), first ",
		       s->undecided);
		put_name(s->undecided_first ? s->undecided_first : "unnamed");
		printf("\n");
	}
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
		printf("      0x%-8lx ", (unsigned long)m->addr);
		put_name(member_label(m));
		printf("%s%s", m->privileged ? "  [privileged]" : "",
		       m->legitimate ? "  [legitimate]" : "");
		if (m->body_addr != m->addr) {
			printf("  (body ");
			put_name(m->body ? m->body : "(no symbol)");
			printf(" at 0x%lx)", (unsigned long)m->body_addr);
		}
		if (m->unchecked)
			printf("  (no signature: unchecked)");
		printf("\n");
	}
	if (hidden)
		printf("      ... and %zu more %s (--all lists them)\n", hidden,
		       s->scheme == TH_CFI_NONE ? "functions" : "unchecked functions");
	for (size_t i = 0; i < s->nhops; i++) {
		const struct th_reach_hop *h = &s->hops[i];

		printf("    one hop further: ");
		put_name(h->via);
		printf(" calls ");
		put_name(h->origin[0] ? h->origin : "a pointer");
		printf(" at 0x%lx (%s), which can reach ", (unsigned long)h->site,
		       th_cfi_scheme_name(h->scheme));
		put_name(h->reaches);
		printf("\n");
	}
	if (s->scheme == TH_CFI_NONE || !s->nconfusing)
		return;
	printf("    container confusion: %zu member%s of the call site's own type %s; each takes\n"
	       "    the object it is handed for its own container. What each does with the bytes\n"
	       "    around its argument (arg0), read from its code, one call further:\n",
	       s->nconfusing, s->nconfusing == 1 ? "" : "s",
	       legit_named ? (s->nlegitimate ? "besides the legitimate callback"
					     : "(no --legitimate name is a member)")
			   : "(no --legitimate callback named: every member is one)");
	for (size_t i = 0, u = 0; i < s->nmembers; i++) {
		const struct th_reach_member *m = &s->members[i];
		int any = 0;

		if (m->privileged || m->legitimate || m->unchecked)
			continue;
		printf("      ");
		put_name(member_label(m));
		for (; u < s->nuses && s->uses[u].member == i; u++) {
			const struct th_reach_use *x = &s->uses[u];

			printf("%s", any++ ? "; " : ": ");
			put_name(x->call);
			if (x->indirect) {
				printf(" (");
				put_name(x->check);
				printf(")");
			}
			printf(" at 0x%lx", (unsigned long)x->site);
		}
		if (!any)
			printf(": no call computed from arg0's surroundings");
		printf("\n");
	}
}

/* "a,b,,c" -> its non-empty names, every one (malloc'd array into the
 * strtok'd @copy). Return: how many, or (size_t)-1 out of memory. */
static size_t split_names(char *copy, const char ***out)
{
	size_t n = 1, k = 0;

	for (const char *p = copy; *p; p++)
		n += *p == ',';
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return (size_t)-1;
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
		(*out)[k++] = tok;
	return k;
}

int th_cli_reach(int argc, char **argv)
{
	const char *binary = NULL, *func = NULL, *privlist = NULL, *legitlist = NULL;
	const char **priv = NULL, **legit = NULL;
	char *privcopy = NULL, *legitcopy = NULL, err[1024];
	struct th_reach_opts o = { .uses = 1 };
	struct th_bin *b = NULL;
	struct th_reach *r = NULL;
	const struct th_sym *banner;
	int bad = 0, guarded = 0, all = 0, rc = 2;

	for (int i = 1; i < argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			usage(stdout);
			return 0;
		}
		if (th_optname(argv[i], "--all", false))
			all = 1;
		else if ((v = th_optval(argc, argv, &i, CMD, "--binary", &bad)))
			binary = v;
		else if ((v = th_optval(argc, argv, &i, CMD, "--function", &bad)))
			func = v;
		else if ((v = th_optval(argc, argv, &i, CMD, "--privileged", &bad)))
			privlist = v;
		else if ((v = th_optval(argc, argv, &i, CMD, "--legitimate", &bad)))
			legitlist = v;
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
	if (th_optpath(stderr, CMD, "--binary", binary, TH_OPT_FILE))
		return 2;
	if (th_bin_open(binary, &b, err, sizeof(err))) {
		fprintf(stderr, "timerharness reach: %s\n", err);
		return 2;
	}
	if (privlist) {
		if (!(privcopy = strdup(privlist)) || (o.npriv = split_names(privcopy, &priv)) == (size_t)-1)
			goto oom;
		o.privileged = priv;
	} else if (th_bin_find_syms(b, "linux_banner", &banner, 1)) {
		o.privileged = kernel_privileged;
		o.npriv = sizeof(kernel_privileged) / sizeof(kernel_privileged[0]);
	} else {
		o.privileged = victim_privileged;
		o.npriv = sizeof(victim_privileged) / sizeof(victim_privileged[0]);
	}
	if (legitlist) {
		if (!(legitcopy = strdup(legitlist)) ||
		    (o.nlegit = split_names(legitcopy, &legit)) == (size_t)-1)
			goto oom;
		o.legitimate = legit;
	}
	if (th_reach_compute_opts(b, func, &o, &r, err, sizeof(err))) {
		fprintf(stderr, "timerharness reach: ");
		for (const unsigned char *p = (const unsigned char *)err; *p; p++)
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(stderr, "\\x%02x", *p);
			else
				fputc(*p, stderr);
		fputc('\n', stderr);
		goto out;
	}
	for (size_t i = 0; i < r->nsites; i++)
		guarded |= r->sites[i].scheme != TH_CFI_NONE;
	if (!guarded && !th_bin_cfi_schemes(b)) {
		fprintf(stderr,
			"timerharness reach: %s: no CFI: no check guards the indirect calls of %s, and the "
			"binary has no .kcfi_traps and no __typeid_ jump tables (build with "
			"-fsanitize=kcfi, or -flto -fsanitize=cfi-icall, or -fsanitize=function)\n",
			binary, func);
		goto out;
	}
	put_name(binary);
	printf(": ");
	put_name(func);
	printf(": %zu indirect call%s%s\n", r->nsites, r->nsites == 1 ? "" : "s",
	       r->complete ? "" : " (paths beyond the analysis limits: sets may be incomplete)");
	for (size_t i = 0; i < r->nsites; i++)
		print_site(r, &r->sites[i], all, legitlist != NULL);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "timerharness reach: cannot write to stdout\n");
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "timerharness reach: out of memory\n");
out:
	th_reach_free(r);
	th_bin_close(b);
	free(priv);
	free(legit);
	free(privcopy);
	free(legitcopy);
	return rc;
}

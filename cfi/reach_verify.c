/* SPDX-License-Identifier: MIT */
/* llvm-cfi-verify's verdicts beside binread's (reach.h, th_cfiv_run). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target_set.h"

extern char **environ;

/* Is @prog an executable on PATH? */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, p, prog);
		if (len && access(buf, X_OK) == 0)
			return 1;
		p += len;
		if (*p == ':')
			p++;
	}
	return 0;
}

/* Run @argv, stdout captured (stderr discarded). Return: 0 with *@out
 * (malloc'd, NUL-terminated) and *@status, or -1 (errno). */
static int capture(char *const argv[], char **out, int *status)
{
	posix_spawn_file_actions_t fa;
	int fd[2];
	pid_t pid;
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int rc;

	*out = NULL;
	if (!buf || pipe2(fd, O_CLOEXEC)) {
		free(buf);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc) {
		close(fd[0]);
		free(buf);
		errno = rc;
		return -1;
	}
	for (;;) {
		ssize_t r;

		if (len + 1 == cap) {
			char *g = cap < (64u << 20) ? realloc(buf, 2 * cap) : NULL;

			if (!g)
				break;	/* bounded: a longer report is cut */
			buf = g;
			cap *= 2;
		}
		r = read(fd[0], buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd[0]);
	buf[len] = 0;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			free(buf);
			return -1;
		}
	*out = buf;
	return 0;
}

/* Our verdict on the indirect jump or call at @addr. */
static void ours(struct th_bin *b, struct th_cfiv_insn *in)
{
	const struct th_sym *fn = th_bin_func_containing(b, in->addr);
	const struct th_func_sites *fs;
	char err[400], desc[400];

	snprintf(in->ours, sizeof(in->ours), "unknown");
	if (!fn) {
		snprintf(in->why, sizeof(in->why), "no function symbol contains 0x%" PRIx64, in->addr);
		return;
	}
	snprintf(in->func, sizeof(in->func), "%s", fn->name);
	fs = th_bin_call_sites(b, fn->name, err, sizeof(err));
	if (!fs) {
		snprintf(in->why, sizeof(in->why), "%s", err);
		return;
	}
	for (size_t i = 0; i < fs->nsites; i++) {
		const struct th_call_site *s = &fs->sites[i];

		if (s->addr != in->addr)
			continue;
		th_site_describe(s, desc, sizeof(desc));
		if (s->from_table) {
			snprintf(in->ours, sizeof(in->ours), "switch");
			snprintf(in->why, sizeof(in->why),
				 "a switch: %s jumps to an address read from a read-only table the compiler bounds-checked; no pointer the program was handed, so no CFI scheme instruments it",
				 s->insn);
		} else if (s->nguards && s->scheme != TH_CFI_NONE && s->scheme != TH_CFI_UNKNOWN) {
			snprintf(in->ours, sizeof(in->ours), "protected");
			snprintf(in->why, sizeof(in->why), "%s", desc);
		} else {
			snprintf(in->ours, sizeof(in->ours), "unprotected");
			snprintf(in->why, sizeof(in->why), "%s", desc);
		}
		return;
	}
	snprintf(in->why, sizeof(in->why), "binread found no indirect call or jump at 0x%" PRIx64 " in %s",
		 in->addr, fn->name);
}

/* Why the tool and binread differ, from what each saw. */
static void explain(struct th_cfiv_insn *in)
{
	char ourwhy[sizeof(in->why)];
	const char *because;

	snprintf(ourwhy, sizeof(ourwhy), "%s", in->why);
	if (!strcmp(in->ours, "switch"))
		because = "the tool counts a switch's table jump as an unprotected indirect branch";
	else if (!strcmp(in->status, "FAIL_REGISTER_CLOBBERED"))
		because = "the tool stops at a register move after the check (it copies the checked value into the call's register), although the check guards this call";
	else if (strstr(ourwhy, "function:"))
		because = "the tool knows cfi-icall's jump-table check (and kcfi's), not -fsanitize=function's signature check";
	else if (!strcmp(in->status, "FAIL_BAD_CONDITIONAL_BRANCH") && strstr(ourwhy, "call __ubsan"))
		because = "the failing branch calls the sanitizer's runtime, which reports and stops (no-recover); the tool accepts only a trap instruction there";
	else if (in->tool_protected)
		because = "the tool calls it protected; binread finds no check guarding it";
	else
		because = "the tool calls it unprotected; binread finds the check";
	snprintf(in->why, sizeof(in->why), "%s; binread: %.380s", because, ourwhy);
}

static unsigned count_after(const char *out, const char *label)
{
	const char *p = strstr(out, label);

	return p ? (unsigned)strtoul(p + strlen(label), NULL, 10) : 0;
}

int th_cfiv_run(struct th_bin *b, const char *tool, struct th_cfiv *v, char *err, size_t n)
{
	static const char *const tools[] = { "llvm-cfi-verify-22", "llvm-cfi-verify" };
	char *argv[3], *out = NULL;
	int status;
	size_t cap = 0;

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; !tool && i < sizeof(tools) / sizeof(tools[0]); i++)
		if (on_path(tools[i]))
			tool = tools[i];
	if (!tool)
		return 0;
	snprintf(v->tool, sizeof(v->tool), "%s", tool);
	argv[0] = (char *)tool;
	argv[1] = (char *)th_bin_path(b);
	argv[2] = NULL;
	if (capture(argv, &out, &status)) {
		snprintf(err, n, "%s: cannot run %s: %s", th_bin_path(b), tool, strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !strstr(out, "Total Indirect CF Instructions:")) {
		snprintf(err, n, "%s: %s failed (%s %d) without its totals", th_bin_path(b), tool,
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		free(out);
		return -1;
	}
	/* "Instruction: 0x9e5e (FAIL_REGISTER_CLOBBERED): \tjmpq\t*%rax" */
	for (const char *p = out; (p = strstr(p, "Instruction: 0x")); p++) {
		struct th_cfiv_insn *in;
		const char *st;
		size_t len;

		if (v->ninsns == cap) {
			size_t c = cap ? 2 * cap : 16;
			struct th_cfiv_insn *g = realloc(v->insns, c * sizeof(*g));

			if (!g) {
				snprintf(err, n, "%s: out of memory", th_bin_path(b));
				free(out);
				th_cfiv_free(v);
				return -1;
			}
			v->insns = g;
			cap = c;
		}
		in = &v->insns[v->ninsns];
		memset(in, 0, sizeof(*in));
		in->addr = strtoull(p + 13, NULL, 16);
		st = strchr(p, '(');
		if (!st || st > strchr(p, '\n'))
			continue;
		len = strcspn(st + 1, ")\n");
		snprintf(in->status, sizeof(in->status), "%.*s", (int)len, st + 1);
		in->tool_protected = !strcmp(in->status, "PROTECTED");
		ours(b, in);
		/* A switch is no pointer call: calling it unprotected is wrong too. */
		in->disagree = in->tool_protected != !strcmp(in->ours, "protected") ||
			       (!strcmp(in->ours, "switch") && !in->tool_protected);
		if (in->disagree) {
			explain(in);
			v->disagreements++;
		}
		v->ours_protected += !strcmp(in->ours, "protected");
		v->ours_switch += !strcmp(in->ours, "switch");
		v->ours_unprotected += !strcmp(in->ours, "unprotected");
		v->ninsns++;
	}
	v->total = count_after(out, "Total Indirect CF Instructions:");
	v->expected_protected = count_after(out, "\nExpected Protected:");
	v->unexpected_protected = count_after(out, "\nUnexpected Protected:");
	v->expected_unprotected = count_after(out, "\nExpected Unprotected:");
	v->unexpected_unprotected = count_after(out, "\nUnexpected Unprotected (BAD):");
	free(out);
	if (v->total != v->ninsns) {
		snprintf(err, n, "%s: %s lists %zu instructions but totals %u", th_bin_path(b), tool,
			 v->ninsns, v->total);
		th_cfiv_free(v);
		return -1;
	}
	return 1;
}

void th_cfiv_free(struct th_cfiv *v)
{
	free(v->insns);
	v->insns = NULL;
	v->ninsns = 0;
}

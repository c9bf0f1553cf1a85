/* SPDX-License-Identifier: MIT */
/* llvm-cfi-verify's verdicts beside binread's (reach.h, th_cfiv_run). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/proc.h"
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

/* Start @argv with its stdout on a pipe (stderr discarded). Return: 0 with
 * *@pid and *@fd (the pipe's read end), or -1 (errno). */
static int start_capture(char *const argv[], pid_t *pid, int *fd)
{
	posix_spawn_file_actions_t fa;
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		close(p[0]);
		errno = rc;
		return -1;
	}
	*fd = p[0];
	return 0;
}

/* What a capture has read so far. */
struct capbuf {
	char *buf;
	size_t len, cap;
};

/* One read of @fd into @c. Return: bytes read, 0 at its end (or when the
 * 64 MiB bound is reached: a longer report is cut), -1 (errno). */
static ssize_t read_some(int fd, struct capbuf *c)
{
	ssize_t r;

	if (c->len + 1 >= c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 65536;
		char *g = cap <= (64u << 20) ? realloc(c->buf, cap) : NULL;

		if (!g)
			return 0;
		c->buf = g;
		c->cap = cap;
	}
	while ((r = read(fd, c->buf + c->len, c->cap - 1 - c->len)) < 0 && errno == EINTR)
		;
	if (r > 0)
		c->len += (size_t)r;
	return r;
}

/* Run @argv, stdout captured (stderr discarded). Return: 0 with *@out
 * (malloc'd, NUL-terminated) and *@status, or -1 (errno). */
static int capture(char *const argv[], char **out, int *status)
{
	struct capbuf c = { NULL, 0, 0 };
	pid_t pid;
	int fd;

	*out = NULL;
	if (start_capture(argv, &pid, &fd))
		return -1;
	while (read_some(fd, &c) > 0)
		;
	close(fd);
	if (th_wait_child(pid, status) || (!c.buf && !(c.buf = malloc(1)))) {
		free(c.buf);
		return -1;
	}
	c.buf[c.len] = 0;
	*out = c.buf;
	return 0;
}

/* ---- outputs run ahead (th_cfiv_prefetch) ---- */

struct fetched {
	char *path;
	struct stat st;		/* the file the tool read */
	char *out;
	int status;
};
static struct fetched *fetched;
static size_t nfetched;

static const char *default_tool(void);

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

void th_cfiv_prefetch(const char *const *paths, size_t n, unsigned jobs)
{
	struct run {
		size_t i;
		pid_t pid;
		int fd;
		struct stat st;
		struct capbuf c;
	} run[8];
	const char *tool = default_tool();
	size_t next = 0;
	unsigned nrun = 0;

	th_cfiv_prefetch_drop();
	if (!tool || !n || !(fetched = calloc(n, sizeof(*fetched))))
		return;
	if (jobs < 1)
		jobs = 1;
	if (jobs > sizeof(run) / sizeof(run[0]))
		jobs = sizeof(run) / sizeof(run[0]);
	while (next < n || nrun) {
		struct pollfd pfd[8];

		while (nrun < jobs && next < n) {
			struct run *r = &run[nrun];
			char *argv[] = { (char *)tool, (char *)paths[next], NULL };

			memset(r, 0, sizeof(*r));
			r->i = next++;
			/* A file that cannot be run on is left to th_cfiv_run(),
			 * which says why. */
			if (!stat(paths[r->i], &r->st) && !start_capture(argv, &r->pid, &r->fd))
				nrun++;
		}
		if (!nrun)
			break;
		for (unsigned k = 0; k < nrun; k++)
			pfd[k] = (struct pollfd){ .fd = run[k].fd, .events = POLLIN };
		if (poll(pfd, nrun, -1) < 0 && errno != EINTR)
			break;
		for (unsigned k = 0; k < nrun; k++) {
			struct run *r = &run[k];
			struct fetched *f;
			int status;

			if (!pfd[k].revents || read_some(r->fd, &r->c) > 0)
				continue;
			close(r->fd);
			f = &fetched[nfetched];
			if (!r->c.buf)
				r->c.buf = malloc(1);
			if (!th_wait_child(r->pid, &status) && r->c.buf && (f->path = strdup(paths[r->i]))) {
				r->c.buf[r->c.len] = 0;
				f->st = r->st;
				f->out = r->c.buf;
				f->status = status;
				nfetched++;
			} else {
				free(r->c.buf);
			}
			run[k] = run[--nrun];
			pfd[k] = pfd[nrun];
			k--;
		}
	}
	/* Stopped early (poll failed): the rest are run by th_cfiv_run(). */
	for (unsigned k = 0; k < nrun; k++) {
		int status;

		close(run[k].fd);
		th_wait_child(run[k].pid, &status);
		free(run[k].c.buf);
	}
}

void th_cfiv_prefetch_drop(void)
{
	for (size_t i = 0; i < nfetched; i++) {
		free(fetched[i].path);
		free(fetched[i].out);
	}
	free(fetched);
	fetched = NULL;
	nfetched = 0;
}

size_t th_cfiv_prefetched(void)
{
	size_t held = 0;

	for (size_t i = 0; i < nfetched; i++)
		held += fetched[i].out != NULL;
	return held;
}

/* The output fetched ahead for @path, if the file is still the one the
 * tool read: taken (the caller frees it). */
static char *take_fetched(const char *path, int *status)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	for (size_t i = 0; i < nfetched; i++)
		if (fetched[i].out && !strcmp(fetched[i].path, path) && same_file(&fetched[i].st, &st)) {
			char *out = fetched[i].out;

			fetched[i].out = NULL;
			*status = fetched[i].status;
			return out;
		}
	return NULL;
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

/* The first of llvm-cfi-verify-22, llvm-cfi-verify on PATH, or NULL. */
static const char *default_tool(void)
{
	static const char *const tools[] = { "llvm-cfi-verify-22", "llvm-cfi-verify" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (on_path(tools[i]))
			return tools[i];
	return NULL;
}

int th_cfiv_run(struct th_bin *b, const char *tool, struct th_cfiv *v, char *err, size_t n)
{
	char *argv[3], *out = NULL;
	int status;
	size_t cap = 0;
	bool given = tool != NULL;

	memset(v, 0, sizeof(*v));
	if (!tool)
		tool = default_tool();
	if (!tool)
		return 0;
	snprintf(v->tool, sizeof(v->tool), "%s", tool);
	argv[0] = (char *)tool;
	argv[1] = (char *)th_bin_path(b);
	argv[2] = NULL;
	if ((given || !(out = take_fetched(argv[1], &status))) && capture(argv, &out, &status)) {
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

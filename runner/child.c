/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "child.h"
#include "fork_server.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>


#define CHILD_AS_LIMIT	((rlim_t)4 << 30)
/* Exit codes a child announces for a failure of its own set-up, before exec. */
#define EXIT_NO_TRACE	126
#define EXIT_NO_EXEC	127
/* A reaped child's pipes still held open (by a process that left its group)
 * are closed after this long. */
#define PIPE_GRACE_S	1.0

/* PHASE_FORK_STOP: forked by a server, before its first (SIGSTOP) stop. */
enum { PHASE_UNTRACED, PHASE_FIRST_STOP, PHASE_FORK_STOP, PHASE_RUNNING };
enum { BP_ENTRY, BP_HANDLER };

/* ---- waking up on a child's state change -------------------------------------------- */

static int sigchld_pipe[2] = { -1, -1 };

static void on_sigchld(int sig)
{
	int saved = errno;

	(void)sig;
	if (write(sigchld_pipe[1], "c", 1) < 0)
		(void)0; /* full: a wake-up is already pending */
	errno = saved;
}

static int sigchld_setup(void)
{
	struct sigaction sa;

	if (sigchld_pipe[0] >= 0)
		return 0;
	if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK))
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGCHLD, &sa, NULL);
}

/* One read: a wake-up left behind (a SIGCHLD after it) wakes poll(2) again. */
static void sigchld_drain(void)
{
	char buf[256];

	if (read(sigchld_pipe[0], buf, sizeof(buf)) < 0)
		(void)0; /* empty (EAGAIN): nothing to do */
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

const char *th_signal_name(int sig, char *buf, size_t n)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGILL, "SIGILL" },   { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },
		{ SIGTRAP, "SIGTRAP" }, { SIGFPE, "SIGFPE" },   { SIGABRT, "SIGABRT" },
		{ SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" }, { SIGSYS, "SIGSYS" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGINT, "SIGINT" },
		{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig) {
			snprintf(buf, n, "%s", names[i].name);
			return buf;
		}
	snprintf(buf, n, "SIG%d", sig);
	return buf;
}

/* ---- ties to the run ----------------------------------------------------------------- */

static void random_bytes(void *buf, size_t n)
{
	unsigned char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = getrandom(p + got, n - got, 0);

		if (r <= 0) {
			/* No entropy source: the time and pid still differ per run. */
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			for (; got < n; got++)
				p[got] = (unsigned char)((uint64_t)ts.tv_nsec >> (got % 8 * 8) ^
							 (uint64_t)getpid() ^ got * 131);
			return;
		}
		got += (size_t)r;
	}
}

static void make_ties(struct th_child_obs *o)
{
	unsigned char r[TH_TOKEN_LEN / 2 + 2];

	random_bytes(r, sizeof(r));
	for (size_t i = 0; i < TH_TOKEN_LEN / 2; i++)
		snprintf(o->token + 2 * i, 3, "%02x", r[i]);
	/* 64..119: outside the codes programs and shells use (0-3, 126-128+). */
	o->san_exitcode = 64 + r[TH_TOKEN_LEN / 2] % 56;
}

/* ---- spawning ------------------------------------------------------------------------- */

/* A child not started yet, by exec (spawn) or by a fork server
 * (th_fsrv_run): no descriptor, no site seen, the options its run keeps. */
static void child_init(struct th_child *c, const struct th_child_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = c->exec_fd = -1;
	c->stepping = -1;
	c->opts = *o;
	c->timeout = o->timeout;
	make_ties(&c->obs);
	c->obs.trap.site = c->obs.trap.guard = -1;
	c->obs.handler_site = c->obs.handler_guard = -1;
}

/* @srv_fd >= 0: a fork server's socket (at TH_FSRV_FD), and no CPU limit:
 * each of its runs sets its own at the fork. */
static void child_setup(const struct th_child_opts *o, const struct th_child_obs *t, int out,
			int err, int exec_fail, const char *const argv[], int srv_fd)
{
	struct rlimit core = { 0, 0 }, fsize = { 64 << 20, 64 << 20 };
	struct rlimit cpu = { (rlim_t)o->timeout + 2, (rlim_t)o->timeout + 3 };
	char asan[256], ubsan[128];

	setpgid(0, 0);
	dup2(out, 1);
	dup2(err, 2);
	setrlimit(RLIMIT_CORE, &core);
	setrlimit(RLIMIT_FSIZE, &fsize);
	if (srv_fd < 0)
		setrlimit(RLIMIT_CPU, &cpu);
	else if (dup2(srv_fd, TH_FSRV_FD) != TH_FSRV_FD)
		_exit(EXIT_NO_EXEC);
	/* A server binds every symbol at its start, not each run on its
	 * first calls (runner/fork_server.h: the server takes it out again). */
	if (srv_fd >= 0)
		setenv("LD_BIND_NOW", "1", 1);
	if (o->cap_memory) {
		struct rlimit as = { CHILD_AS_LIMIT, CHILD_AS_LIMIT };

		setrlimit(RLIMIT_AS, &as);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	/* The runner sees the signals, not ASan's handlers; leaks are not this
	 * harness's business; a report ends the process with this run's code. */
	snprintf(asan, sizeof(asan),
		 "detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_sigfpe=0:"
		 "handle_abort=0:symbolize=0:print_summary=1:exitcode=%d", t->san_exitcode);
	snprintf(ubsan, sizeof(ubsan), "print_stacktrace=0:halt_on_error=1:symbolize=0:exitcode=%d",
		 t->san_exitcode);
	setenv("ASAN_OPTIONS", asan, 1);
	setenv("UBSAN_OPTIONS", ubsan, 1);
	setenv(TH_TOKEN_ENV, t->token, 1);
	/*
	 * A traced run (a cell) gets the same address space each time:
	 * ADDR_NO_RANDOMIZE (personality(2)), as gdb runs a program. Some cells
	 * write an address over a field their layout puts there, so where ASLR
	 * placed the binary decided them: clang-22's randstruct seed-2 binary
	 * (th-attack-transitional-randstruct-s2, HSO_INDEX_BEFORE_ARM_FUNC_WRITE_CR4)
	 * entered tasklet_action_common in 9 of 16 runs under gdb with
	 * randomization on, 0 of 12 with it off, and 22 randstruct cells of the
	 * whole matrix changed outcome between two runs. The kernels the
	 * cells are judged against do not move either: kernel/build's
	 * (tinyconfig and kernel/configs) have CONFIG_RELOCATABLE unset in
	 * their .config, so no CONFIG_RANDOMIZE_BASE (KASLR "depends on
	 * RELOCATABLE", arch/x86/Kconfig of 6.1 and 6.12): the same addresses
	 * every boot. A fork server's runs share its layout. Where
	 * personality() is refused, the run goes on randomized, as before.
	 */
	if (o->trace) {
		int pers = personality(0xffffffff);

		if (pers != -1)
			personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
	}
	/* Traced from here: the exec stops the child with a SIGTRAP, where the
	 * runner sets its options (one stop, not a SIGSTOP and then the exec). */
	if (o->trace && ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
		dprintf(2, "timerharness: ptrace(PTRACE_TRACEME): %s\n", strerror(errno));
		_exit(EXIT_NO_TRACE);
	}
	execv(argv[0], (char *const *)argv);
	{
		int e = errno;

		/* The exec pipe closes at a successful exec; this says it failed. */
		if (write(exec_fail, &e, sizeof(e)) < 0)
			(void)0;
		dprintf(2, "timerharness: exec %s: %s\n", argv[0], strerror(e));
	}
	_exit(EXIT_NO_EXEC);
}

static int spawn(struct th_child *c, const char *const argv[], const struct th_child_opts *o,
		 int srv_fd)
{
	int out[2], err[2], ex[2], saved;

	child_init(c, o);
	if (sigchld_setup())
		return -1;
	if (!(c->binary = strdup(argv[0])))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		saved = errno;
		goto fail_bin;
	}
	if (pipe2(err, O_CLOEXEC)) {
		saved = errno;
		goto fail_out;
	}
	if (pipe2(ex, O_CLOEXEC | O_NONBLOCK)) {
		saved = errno;
		goto fail_err;
	}
	c->pid = fork();
	if (c->pid < 0) {
		saved = errno;
		c->pid = 0;
		close(ex[0]);
		close(ex[1]);
		goto fail_err;
	}
	if (c->pid == 0)
		child_setup(o, &c->obs, out[1], err[1], ex[1], argv, srv_fd);
	setpgid(c->pid, c->pid);
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	c->exec_fd = ex[0];
	c->fd[0] = out[0];
	c->fd[1] = err[0];
	fcntl(c->fd[0], F_SETFL, O_NONBLOCK);
	fcntl(c->fd[1], F_SETFL, O_NONBLOCK);
	c->phase = o->trace ? PHASE_FIRST_STOP : PHASE_UNTRACED;
	c->probe_at = o->lockup_ms / 1000.0;
	c->obs.pid = c->pid;
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	return 0;
fail_err:
	close(err[0]);
	close(err[1]);
fail_out:
	close(out[0]);
	close(out[1]);
fail_bin:
	free(c->binary);
	c->binary = NULL;
	errno = saved;
	return -1;
}

int th_child_spawn(struct th_child *c, const char *const argv[], const struct th_child_opts *o)
{
	return spawn(c, argv, o, -1);
}

/* ---- output ------------------------------------------------------------------------------ */

static void drain(struct th_child *c, int k, bool to_end)
{
	char tmp[65536];
	ssize_t r;

	/* Until a read comes back short: the pipe is empty then, and poll(2)
	 * (level-triggered) wakes the pump for what comes next; no read ends
	 * in EAGAIN on a pipe that had a few bytes (a syscall each, about
	 * 30 a run). @to_end (the child reaped): on to its end or EAGAIN, so
	 * that a pipe nobody else holds is closed now, not a pump later. */
	while ((r = read(c->fd[k], tmp, sizeof(tmp))) > 0) {
		size_t keep = (size_t)r;
		char *grown;

		if (c->len[k] + keep > TH_CHILD_OUT_CAP) {
			keep = TH_CHILD_OUT_CAP - c->len[k];
			c->cut[k] = true;
		}
		if (!keep)
			continue;
		grown = realloc(c->buf[k], c->len[k] + keep + 1);
		if (!grown) {
			fprintf(stderr, "timerharness: out of memory\n");
			exit(1);
		}
		c->buf[k] = grown;
		memcpy(c->buf[k] + c->len[k], tmp, keep);
		c->len[k] += keep;
		c->buf[k][c->len[k]] = '\0';
		if (!to_end && (size_t)r < sizeof(tmp))
			return;
	}
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		close(c->fd[k]);
		c->fd[k] = -1;
	}
}

bool th_child_done(const struct th_child *c)
{
	return c->reaped && c->fd[0] < 0 && c->fd[1] < 0;
}

/* ---- the traced process ----------------------------------------------------------------- */

static void harness_error(struct th_child *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void harness_error(struct th_child *c, const char *fmt, ...)
{
	va_list ap;

	if (c->obs.harness_error[0])
		return; /* the first one says what went wrong */
	va_start(ap, fmt);
	vsnprintf(c->obs.harness_error, sizeof(c->obs.harness_error), fmt, ap);
	va_end(ap);
}

static int mem_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	const struct th_child *c = ctx;
	struct iovec local = { buf, n }, remote = { (void *)(uintptr_t)addr, n };

	return process_vm_readv(c->pid, &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

/* Process memory with the breakpoints' original bytes in place. */
static int mem_read_clean(void *ctx, uint64_t addr, void *buf, size_t n)
{
	const struct th_child *c = ctx;

	if (mem_read(ctx, addr, buf, n))
		return -1;
	for (size_t i = 0; i < c->nbps; i++)
		if (c->bps[i].addr >= addr && c->bps[i].addr < addr + n)
			((unsigned char *)buf)[c->bps[i].addr - addr] = c->bps[i].orig;
	return 0;
}

static void regs_to_gpr(const struct user_regs_struct *r, uint64_t g[TH_NREGS])
{
	g[TH_RAX] = r->rax; g[TH_RCX] = r->rcx; g[TH_RDX] = r->rdx; g[TH_RBX] = r->rbx;
	g[TH_RSP] = r->rsp; g[TH_RBP] = r->rbp; g[TH_RSI] = r->rsi; g[TH_RDI] = r->rdi;
	g[TH_R8] = r->r8; g[TH_R9] = r->r9; g[TH_R10] = r->r10; g[TH_R11] = r->r11;
	g[TH_R12] = r->r12; g[TH_R13] = r->r13; g[TH_R14] = r->r14; g[TH_R15] = r->r15;
}

static int poke_byte(pid_t pid, uint64_t addr, unsigned char byte, unsigned char *old)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)addr, NULL);
	if (errno)
		return -1;
	if (old)
		*old = (unsigned char)(word & 0xff);
	word = (long)(((unsigned long)word & ~0xffUL) | byte);
	return ptrace(PTRACE_POKETEXT, pid, (void *)(uintptr_t)addr, (void *)word) ? -1 : 0;
}

/* Where the kernel mapped the main binary: the mapping of its file offset 0. */
static int find_bias(struct th_child *c)
{
	char path[64], line[1024];
	struct stat st;
	FILE *f;
	int found = 0;

	if (stat(c->binary, &st))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)c->pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, off, maj, min, ino;

		if (sscanf(line, "%lx-%lx %*s %lx %lx:%lx %lu", &start, &end, &off, &maj, &min, &ino) == 6 &&
		    off == 0 && ino == st.st_ino && makedev(maj, min) == st.st_dev) {
			uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

			c->obs.bias = start - (th_bin_load_vaddr(c->bin) & ~(page - 1));
			found = 1;
			break;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

static void add_bp(struct th_child *c, uint64_t vaddr, int kind, int site, int guard)
{
	struct th_bp *bp;

	if (c->nbps == sizeof(c->bps) / sizeof(c->bps[0]))
		return;
	bp = &c->bps[c->nbps];
	*bp = (struct th_bp){ vaddr + c->obs.bias, 0, kind, site, guard };
	if (poke_byte(c->pid, bp->addr, 0xcc, &bp->orig)) {
		harness_error(c, "cannot set a breakpoint at 0x%" PRIx64 " in %s: %s", vaddr, c->binary,
			      strerror(errno));
		return;
	}
	c->nbps++;
}

/* At the exec: map the binary, plant the breakpoints. */
static void on_exec(struct th_child *c)
{
	char err[512];

	c->obs.execed = 1;
	c->nbps = 0;
	c->stepping = -1;
	if (!c->opts.site_func && !c->opts.state_map)
		return;
	c->bin = th_bin_cached(c->binary, err, sizeof(err));
	if (!c->bin) {
		harness_error(c, "cannot read the binary: %s", err);
		return;
	}
	if (find_bias(c)) {
		harness_error(c, "%s is not mapped in /proc/%d/maps", c->binary, (int)c->pid);
		return;
	}
	if (!c->opts.site_func)
		return;
	c->sites = th_bin_call_sites(c->bin, c->opts.site_func, err, sizeof(err));
	if (!c->sites) {
		harness_error(c, "%s", err);
		return;
	}
	add_bp(c, c->sites->start, BP_ENTRY, -1, -1);
	for (size_t s = 0; s < c->sites->nsites; s++)
		for (size_t g = 0; g < c->sites->sites[s].nguards; g++)
			if (c->sites->sites[s].guards[g].kind == TH_GUARD_HANDLER)
				add_bp(c, c->sites->sites[s].guards[g].addr, BP_HANDLER, (int)s, (int)g);
}

/* At the exit: the privileged state, the file's initial values beside. */
static void on_exit_stop(struct th_child *c)
{
	const struct th_sym *map;
	struct th_state_field f;

	if (!c->opts.state_map || !c->bin || !c->obs.execed || c->own)
		return;
	if (th_bin_find_syms(c->bin, c->opts.state_map, &map, 1) != 1) {
		harness_error(c, "%s has no state map (symbol %s)", c->binary, c->opts.state_map);
		return;
	}
	for (size_t i = 0; i < TH_CHILD_MAX_STATE; i++) {
		const struct th_sym *obj;
		struct th_state_obs *so = &c->obs.state[c->obs.nstate];
		uint64_t at;

		if (th_bin_read(c->bin, map->addr + i * sizeof(f), &f, sizeof(f))) {
			harness_error(c, "%s: state map %s unreadable", c->binary, c->opts.state_map);
			return;
		}
		if (!f.object[0])
			break;
		f.object[sizeof(f.object) - 1] = f.field[sizeof(f.field) - 1] = 0;
		if (th_bin_find_syms(c->bin, f.object, &obj, 1) != 1 || f.size > 8 ||
		    f.offset + f.size > obj->size) {
			harness_error(c, "%s: state map entry %s.%s names no object of that size",
				      c->binary, f.object, f.field);
			return;
		}
		memset(so, 0, sizeof(*so));
		snprintf(so->object, sizeof(so->object), "%s", f.object);
		snprintf(so->field, sizeof(so->field), "%s", f.field);
		at = obj->addr + f.offset;
		if (th_bin_read(c->bin, at, &so->before, f.size) ||
		    mem_read(c, at + c->obs.bias, &so->after, f.size)) {
			harness_error(c, "%s: %s.%s unreadable at exit", c->binary, f.object, f.field);
			return;
		}
		c->obs.nstate++;
	}
	c->obs.state_read = 1;
}

static void on_trap(struct th_child *c, int sig, const siginfo_t *si, const struct user_regs_struct *r)
{
	struct th_trap_obs *t = &c->obs.trap;
	unsigned char file[sizeof(t->bytes)];
	struct th_eval_ctx cx = { .read = mem_read_clean, .read_ctx = c };

	c->obs.have_trap = 1;
	t->sig = sig;
	t->code = si->si_code;
	t->pc = r->rip;
	t->addr = (uint64_t)(uintptr_t)si->si_addr;
	t->vaddr = r->rip - c->obs.bias;
	regs_to_gpr(r, t->regs);
	for (t->nbytes = sizeof(t->bytes); t->nbytes; t->nbytes /= 2)
		if (!mem_read_clean(c, t->pc, t->bytes, t->nbytes))
			break;
	t->file_bytes_match = -1;
	/* As many as the file has there (a trap may end its segment). */
	for (size_t k = t->nbytes; c->bin && k; k /= 2)
		if (!th_bin_read(c->bin, t->vaddr, file, k)) {
			t->file_bytes_match = !memcmp(file, t->bytes, k);
			break;
		}
	if (!c->sites)
		return;
	cx.bias = c->obs.bias;
	for (size_t s = 0; s < c->sites->nsites; s++) {
		const struct th_call_site *site = &c->sites->sites[s];

		for (size_t g = 0; g < site->nguards; g++) {
			uint64_t target;
			int admits;

			if (site->guards[g].addr != t->vaddr)
				continue;
			/* The check behind this guard (th_guard_admits: a site can
			 * sit behind several, 6.1's tasklet_action_common()'s two
			 * calls merged into one); and one trap can guard several
			 * sites: the check that jumped here refuses the target, so
			 * a site whose check admits it is kept only while no
			 * refusing one is found. */
			if (site->guards[g].target_reg >= 0) {
				target = t->regs[site->guards[g].target_reg];
				admits = th_guard_admits(site, &site->guards[g], target, &cx);
				if (t->site >= 0 && t->target_known && t->admits == 0 && admits != 0)
					continue;
				t->target_known = 1;
				t->target = target;
				t->admits = admits;
			} else if (t->site >= 0) {
				continue;
			}
			t->site = (int)s;
			t->guard = (int)g;
		}
	}
}

static void on_breakpoint(struct th_child *c, struct th_bp *bp, const struct user_regs_struct *r)
{
	uint64_t regs[TH_NREGS];
	struct th_eval_ctx cx = { .bias = c->obs.bias, .read = mem_read_clean, .read_ctx = c,
				  .entry_regs = regs };

	regs_to_gpr(r, regs);
	if (bp->kind == BP_ENTRY) {
		unsigned k = c->obs.ndispatch++;

		if (k < TH_CHILD_MAX_DISPATCH && c->sites->nsites) {
			struct th_dispatch_obs *d = &c->obs.dispatch[k];
			const struct th_call_site *site = &c->sites->sites[0];

			d->known = !th_site_target(site, &cx, &d->target);
			d->admits = d->known ? th_site_admits(site, d->target, &cx) : -1;
		}
		return;
	}
	if (!c->obs.handler_hit) {
		const struct th_guard *g = &c->sites->sites[bp->site].guards[bp->guard];

		c->obs.handler_hit = 1;
		c->obs.handler_site = bp->site;
		c->obs.handler_guard = bp->guard;
		if (g->target_reg >= 0) {
			c->obs.handler_target_known = 1;
			c->obs.handler_target = regs[g->target_reg];
		}
	}
}

/* ---- a soft lockup ------------------------------------------------------------------ */

/* The most instructions a turn of the loop may take (lock_timer_base's spin
 * is 4-12, with ASan's checks). */
#define LOCKUP_MAX_INSNS	256
#define XSTATE_MAX		16384
/* What single-stepping shows in the flags: TF and RF, not the program's. */
#define EFLAGS_STEP		(0x100UL | 0x10000UL)

/* @sym is @func, or a copy of it LTO or the compiler renamed (func.llvm.N,
 * func.cold). */
static bool lockup_name(const char *sym, const char *func)
{
	size_t n = strlen(func);

	return !strncmp(sym, func, n) && (sym[n] == '\0' || sym[n] == '.');
}

/* The whole register state beyond the general-purpose registers: x87, SSE,
 * AVX (XSAVE layout), or the FXSAVE area where the kernel gives no XSAVE.
 * Return: its length, or 0. */
static size_t xstate(pid_t pid, unsigned char *buf)
{
	struct iovec iov = { buf, XSTATE_MAX };
	struct user_fpregs_struct fp;

	memset(buf, 0, XSTATE_MAX);
	if (!ptrace(PTRACE_GETREGSET, pid, (void *)(uintptr_t)NT_X86_XSTATE, &iov))
		return iov.iov_len;
	if (ptrace(PTRACE_GETFPREGS, pid, NULL, &fp))
		return 0;
	memcpy(buf, &fp, sizeof(fp));
	return sizeof(fp);
}

static bool same_regs(const struct user_regs_struct *a, const struct user_regs_struct *b)
{
	struct user_regs_struct x = *a, y = *b;

	/* orig_rax is the kernel's (the last syscall's number), not a register. */
	x.orig_rax = y.orig_rax = 0;
	x.eflags &= ~EFLAGS_STEP;
	y.eflags &= ~EFLAGS_STEP;
	return !memcmp(&x, &y, sizeof(x));
}

static int on_stop(struct th_child *c, int status);
static void reaped(struct th_child *c, int status);
static void resume(struct th_child *c, int sig);

/* Step @c (in a ptrace stop) over one instruction. Return: 0 stopped by the
 * step, registers in *@r; 1 something else came first (a signal, the end),
 * handled here as the pump handles it (the child resumed, or reaped); -1 a
 * ptrace call failed (the child still stopped). */
static int step_once(struct th_child *c, struct user_regs_struct *r)
{
	siginfo_t si;
	int status;
	pid_t w;

	if (ptrace(PTRACE_SINGLESTEP, c->pid, NULL, NULL))
		return -1;
	while ((w = waitpid(c->pid, &status, __WALL)) < 0 && errno == EINTR)
		;
	if (w != c->pid)
		return 1; /* cannot happen to a traced child of ours: let the pump see */
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		reaped(c, status);
		return 1;
	}
	if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP && !(status >> 16) &&
	    !ptrace(PTRACE_GETSIGINFO, c->pid, NULL, &si) && si.si_code == TRAP_TRACE &&
	    !ptrace(PTRACE_GETREGS, c->pid, NULL, r))
		return 0;
	{
		int sig = on_stop(c, status);

		if (sig != -2)
			resume(c, sig);
	}
	return 1;
}

/*
 * The probe's stop (its SIGSTOP, at @r0): is @c spinning for ever in
 * opts.lockup_func? v4.14's lock_timer_base() re-reads timer->flags until
 * TIMER_MIGRATING is clear; left set by an overwrite in a single-threaded
 * model, nobody clears it (kernel/watchdog.c: "BUG: soft lockup", and the
 * task spins on). Proven, not guessed from the time: a turn of the loop
 * from @r0, single-stepped, every instruction decoded from the file (and
 * the same bytes in the process) before it runs, that stays in the
 * function, writes nothing (th_bin_insn()'s allow-list) and comes back to
 * @r0's pc with every register and the XSAVE state as they were: the next
 * turn starts from the same registers and the same memory, and so on.
 * Return: 1 proven (the child stopped), 0 not (the child stopped, to be
 * resumed as it is), -1 the child is no longer in a stop of ours (a signal
 * or its end came while stepping, handled).
 */
static int probe_lockup(struct th_child *c, const struct user_regs_struct *r0)
{
	static unsigned char x0[XSTATE_MAX], x1[XSTATE_MAX];
	struct th_lockup_load loads[TH_LOCKUP_MAX_LOADS];
	struct user_regs_struct r = *r0;
	const struct th_sym *fn;
	struct th_insn first;
	size_t nloads = 0, n0;

	if (!c->bin || !c->opts.lockup_func)
		return 0;
	fn = th_bin_func_containing(c->bin, r0->rip - c->obs.bias);
	if (!fn || !lockup_name(fn->name, c->opts.lockup_func))
		return 0;
	if (!(n0 = xstate(c->pid, x0)))
		return 0;
	for (unsigned k = 0; k < LOCKUP_MAX_INSNS; k++) {
		uint64_t v = r.rip - c->obs.bias;
		unsigned char live[16], file[16];
		struct th_insn in;
		int st;

		if (v < fn->addr || v - fn->addr >= fn->size)
			return 0; /* left the function: not its spin */
		if (th_bin_insn(c->bin, v, &in) || in.writes || in.len > sizeof(live) ||
		    mem_read(c, r.rip, live, in.len) || th_bin_read(c->bin, v, file, in.len) ||
		    memcmp(live, file, in.len))
			return 0; /* may write, or not the file's code (a breakpoint) */
		if (!k)
			first = in;
		if (in.mem_read && !in.segment && in.mem_size <= 8 && nloads < TH_LOCKUP_MAX_LOADS) {
			uint64_t g[TH_NREGS], a = (uint64_t)in.disp, val = 0;

			regs_to_gpr(&r, g);
			if (in.rip_rel)
				a += r.rip + in.len;
			if (in.base >= 0)
				a += g[in.base];
			if (in.index >= 0)
				a += g[in.index] * in.scale;
			if (!mem_read(c, a, &val, in.mem_size)) {
				size_t j;

				for (j = 0; j < nloads && loads[j].addr != a; j++)
					;
				if (j == nloads)
					loads[nloads++] = (struct th_lockup_load){ a, val, in.mem_size };
			}
		}
		st = step_once(c, &r);
		if (st)
			return st > 0 ? -1 : 0;
		if (r.rip != r0->rip)
			continue;
		if (!same_regs(&r, r0) || xstate(c->pid, x1) != n0 || memcmp(x0, x1, n0))
			return 0;
		c->obs.lockup = 1;
		c->obs.lockup_insns = k + 1;
		snprintf(c->obs.lockup_where, sizeof(c->obs.lockup_where), "%s+0x%" PRIx64, fn->name,
			 (uint64_t)(r0->rip - c->obs.bias - fn->addr));
		snprintf(c->obs.lockup_insn, sizeof(c->obs.lockup_insn), "%s", first.text);
		memcpy(c->obs.lockup_load, loads, sizeof(loads));
		c->obs.lockup_nloads = nloads;
		return 1;
	}
	return 0;
}

/* The probe's SIGSTOP arrived (signal-delivery-stop, at @r): prove a lockup
 * or let the child go on. Return: on_stop()'s. */
static int on_probe(struct th_child *c, const struct user_regs_struct *r)
{
	struct timespec now;
	int st;

	c->probe_sent = false;
	c->obs.lockup_probes++;
	if (c->stepping >= 0)
		return -1; /* a breakpoint is being stepped over: go on, probe later */
	st = probe_lockup(c, r);
	if (st < 0)
		return -2;
	if (st == 0)
		return 0; /* SIGSTOP not delivered: it resumes untouched */
	/* Killed as at the time limit (th_child_pump), from this stop. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	c->obs.lockup_seconds = seconds(&c->start, &now);
	c->lockup = true;
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	return -2;
}

/* Time for @c's next probe: stop it (th_child_pump, after collect()). */
static void maybe_probe(struct th_child *c, double elapsed)
{
	if (c->reaped || c->timed_out || c->lockup || !c->opts.trace || !c->opts.lockup_func ||
	    !c->opts.lockup_ms || c->phase != PHASE_RUNNING || !c->bin || c->probe_sent ||
	    c->stepping >= 0 || elapsed < c->probe_at)
		return;
	c->probe_at = elapsed + c->opts.lockup_ms / 1000.0;
	if (!kill(c->pid, SIGSTOP))
		c->probe_sent = true;
}

static bool trap_signal(int sig)
{
	return sig == SIGILL || sig == SIGTRAP || sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE;
}

/* One ptrace stop of @c. Return: the signal to deliver when continuing, -1
 * to single-step, -2 not to resume it (reaped, resumed, or being killed). */
static int on_stop(struct th_child *c, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	struct user_regs_struct r;
	siginfo_t si;

	if (c->phase == PHASE_FIRST_STOP) {
		/* The SIGTRAP a traced exec raises (no options yet): the program is
		 * mapped, nothing of it has run. Later execs stop as events. */
		long opt = PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT;

		/* A server's forks arrive traced, its breakpoints in them. */
		if (c->own)
			opt |= PTRACE_O_TRACEFORK;
		c->phase = PHASE_RUNNING;
		if (ptrace(PTRACE_SETOPTIONS, c->pid, NULL, (void *)opt))
			harness_error(c, "ptrace(PTRACE_SETOPTIONS): %s", strerror(errno));
		if (sig != SIGTRAP) {
			harness_error(c, "the first stop of the child was signal %d, not its exec", sig);
			return sig;
		}
		on_exec(c);
		return 0;
	}
	if (c->phase == PHASE_FORK_STOP) {
		/* A server's fork, auto-attached: its SIGSTOP, before anything of
		 * the run. The options an exec'd child has: its own forks are
		 * not traced. */
		c->phase = PHASE_RUNNING;
		if (ptrace(PTRACE_SETOPTIONS, c->pid, NULL,
			   (void *)(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT)))
			harness_error(c, "ptrace(PTRACE_SETOPTIONS): %s", strerror(errno));
		if (sig != SIGSTOP || event) {
			harness_error(c, "the first stop of the forked run was signal %d (event %d), "
				      "not its SIGSTOP", sig, event);
			return event ? 0 : sig;
		}
		return 0;
	}
	if (event == PTRACE_EVENT_FORK && c->own) {
		unsigned long pid = 0;

		if (!ptrace(PTRACE_GETEVENTMSG, c->pid, NULL, &pid) && pid &&
		    c->own->nborn < sizeof(c->own->born) / sizeof(c->own->born[0]))
			c->own->born[c->own->nborn++] = (pid_t)pid;
		else if (!c->own->failed)
			snprintf(c->own->why, sizeof(c->own->why), "forked a process the runner lost");
		return 0;
	}
	if (event == PTRACE_EVENT_EXEC) {
		on_exec(c);
		return 0;
	}
	if (event == PTRACE_EVENT_EXIT) {
		on_exit_stop(c);
		return 0;
	}
	if (event)
		return 0;
	if (ptrace(PTRACE_GETSIGINFO, c->pid, NULL, &si))
		return 0; /* a group-stop: nothing to deliver */
	if (sig == SIGTRAP && c->stepping >= 0 && si.si_code == TRAP_TRACE) {
		/* Stepped over the breakpoint's instruction: plant it again
		 * (no registers needed: one ptrace call fewer a breakpoint). */
		poke_byte(c->pid, c->bps[c->stepping].addr, 0xcc, NULL);
		c->stepping = -1;
		return 0;
	}
	if (ptrace(PTRACE_GETREGS, c->pid, NULL, &r))
		return sig;
	/* The soft-lockup probe's own SIGSTOP: sent by this process (a
	 * program's own raise(SIGSTOP) has its pid), never delivered. */
	if (sig == SIGSTOP && c->probe_sent && si.si_code == SI_USER && si.si_pid == getpid())
		return on_probe(c, &r);
	if (c->stepping >= 0) {
		/* Another stop came first (the instruction faulted): plant it again. */
		poke_byte(c->pid, c->bps[c->stepping].addr, 0xcc, NULL);
		c->stepping = -1;
	}
	if (sig == SIGTRAP && si.si_code == SI_KERNEL) {
		for (size_t i = 0; i < c->nbps; i++) {
			struct th_bp *bp = &c->bps[i];

			if (bp->addr != r.rip - 1)
				continue;
			r.rip = bp->addr;
			on_breakpoint(c, bp, &r);
			/* Step the original instruction, then plant the int3 again. */
			poke_byte(c->pid, bp->addr, bp->orig, NULL);
			ptrace(PTRACE_SETREGS, c->pid, NULL, &r);
			c->stepping = (int)i;
			return -1;
		}
	}
	if (trap_signal(sig) && si.si_code > 0 && !c->obs.have_trap)
		on_trap(c, sig, &si, &r);
	/* Stop signals would park a traced child: not delivered. */
	if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
		return 0;
	return sig;
}

static void resume(struct th_child *c, int sig)
{
	if (sig < 0)
		ptrace(PTRACE_SINGLESTEP, c->pid, NULL, NULL);
	else
		ptrace(PTRACE_CONT, c->pid, NULL, (void *)(uintptr_t)sig);
}

static void reaped(struct th_child *c, int status)
{
	c->reaped = true;
	c->status = status;
	clock_gettime(CLOCK_MONOTONIC, &c->end);
	/* Anything the group left holding the pipes goes too; a server's
	 * group holds its forks before they take their own. */
	if (!c->own)
		kill(-c->pid, SIGKILL);
	for (int k = 0; k < 2; k++)
		if (c->fd[k] >= 0)
			drain(c, k, true);
	/* The exec pipe: closed by the exec (nothing in it), or the errno of a
	 * failed one. Not the exit code: a program may exit 127 itself. */
	if (c->exec_fd >= 0) {
		int e;

		if (read(c->exec_fd, &e, sizeof(e)) == (ssize_t)sizeof(e))
			harness_error(c, "could not start it: exec %s: %s", c->binary, strerror(e));
		else if (!c->opts.trace && !c->timed_out)
			c->obs.execed = 1;
		close(c->exec_fd);
		c->exec_fd = -1;
	}
	if (c->opts.trace && c->phase == PHASE_FIRST_STOP)
		harness_error(c, "the child was never traced: %.*s",
			      c->buf[1] ? (int)strcspn(c->buf[1], "\n") : 12,
			      c->buf[1] ? c->buf[1] : "(no message)");
	else if (c->opts.trace && !c->obs.execed && !c->timed_out)
		harness_error(c, "exec %s was never seen by the tracer", c->binary);
	c->obs.traced = c->opts.trace && c->obs.execed && !c->obs.harness_error[0];
}

/* Every state change @c has pending. */
static void handle_status(struct th_child *c, int status)
{
	if (WIFSTOPPED(status)) {
		int sig = on_stop(c, status);

		if (sig != -2)
			resume(c, sig);
	} else if (WIFEXITED(status) || WIFSIGNALED(status)) {
		reaped(c, status);
	}
}

static void collect(struct th_child *c)
{
	int status;
	pid_t r;

	while (!c->reaped && (r = waitpid(c->pid, &status, WNOHANG | __WALL)) == c->pid)
		handle_status(c, status);
}

/* ---- fork servers ------------------------------------------------------------------ */

/* The pump of servers waits for any child (waitpid(-1)): a state change of
 * a pid not known yet is kept here until the server's PTRACE_EVENT_FORK
 * names it (the fork's SIGSTOP may come first). One never named (a fork of
 * a server killed before its event was seen) is killed after STASH_AGE_S. */
#define STASH_MAX	64
#define STASH_AGE_S	2.0
static struct {
	pid_t pid;
	int status;
	struct timespec at;
} stash[STASH_MAX];
static unsigned nstash;

/* Kill a traced process of ours and wait for its end (a stop on the way
 * is let go). */
static void discard(pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	for (;;) {
		pid_t w = waitpid(pid, &status, __WALL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w != pid || WIFEXITED(status) || WIFSIGNALED(status))
			return;
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	}
}

/* A run its server never forked: a harness error, never an outcome. */
static void abandon(struct th_child *c, const char *why)
{
	c->srv = NULL;
	c->reaped = true;
	c->status = 0;
	clock_gettime(CLOCK_MONOTONIC, &c->end);
	for (int k = 0; k < 2; k++)
		if (c->fd[k] >= 0) {
			close(c->fd[k]);
			c->fd[k] = -1;
		}
	harness_error(c, "%s", why);
	c->obs.traced = 0;
}

static void fsrv_fail(struct th_fsrv *s, struct th_child *cs, int n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void fsrv_fail(struct th_fsrv *s, struct th_child *cs, int n, const char *fmt, ...)
{
	char why[512], err[160] = "";
	va_list ap;

	if (!s->failed) {
		va_start(ap, fmt);
		vsnprintf(s->why, sizeof(s->why), fmt, ap);
		va_end(ap);
	}
	s->failed = true;
	if (s->sock >= 0) {
		close(s->sock);
		s->sock = -1;
	}
	/* The server only, never its group: runs it forked keep theirs until
	 * they take their own. */
	if (s->proc.pid > 0 && !s->proc.reaped)
		kill(s->proc.pid, SIGKILL);
	for (unsigned k = 0; k < s->nborn; k++)
		discard(s->born[k]);
	s->nborn = 0;
	s->npending = 0;
	if (s->proc.buf[1])
		snprintf(err, sizeof(err), ": %.*s", (int)strcspn(s->proc.buf[1], "\n"), s->proc.buf[1]);
	snprintf(why, sizeof(why), "fork server %s (pid %d) %s%s, before forking this run",
		 s->proc.binary ? s->proc.binary : "?", (int)s->proc.pid, s->why, err);
	for (int i = 0; i < n; i++)
		if (cs[i].srv == s)
			abandon(&cs[i], why);
}

/* A fork of @s becomes the run it was asked for. */
static void adopt(struct th_child *c, struct th_fsrv *s, pid_t pid)
{
	const struct th_child *p = &s->proc;

	c->srv = NULL;
	c->pid = pid;
	c->obs.pid = pid;
	c->phase = PHASE_FORK_STOP;
	c->probe_at = c->opts.lockup_ms / 1000.0;
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	/* What on_exec() found in the server, the same in its copy. */
	c->obs.execed = 1;
	c->obs.bias = p->obs.bias;
	c->bin = p->bin;
	c->sites = p->sites;
	memcpy(c->bps, p->bps, sizeof(c->bps));
	c->nbps = p->nbps;
	if (p->obs.harness_error[0])
		harness_error(c, "fork server: %s", p->obs.harness_error);
	s->nforked++;
}

static void unstash(struct th_child *c);

/* The forks @s made, to the runs asked, in the order asked. */
static void fsrv_give(struct th_fsrv *s, struct th_child *cs, int n)
{
	for (unsigned k = 0; k < s->nborn; k++) {
		pid_t pid = s->born[k];
		uint32_t id;
		int i;

		if (!s->npending) {
			s->nborn -= k;
			memmove(s->born, s->born + k, s->nborn * sizeof(s->born[0]));
			fsrv_fail(s, cs, n, "forked a process no run asked for");
			return;
		}
		id = s->fifo[s->head];
		s->head = (s->head + 1) % TH_FSRV_PENDING;
		s->npending--;
		for (i = 0; i < n && !(cs[i].srv == s && cs[i].req_id == id); i++)
			;
		if (i < n) {
			adopt(&cs[i], s, pid);
			unstash(&cs[i]);
		} else
			discard(pid); /* its run was dropped meanwhile */
	}
	s->nborn = 0;
}

/* Statuses kept for @c's pid, in the order they came. */
static void unstash(struct th_child *c)
{
	unsigned k = 0;

	while (k < nstash)
		if (stash[k].pid == c->pid) {
			int status = stash[k].status;

			memmove(&stash[k], &stash[k + 1], (--nstash - k) * sizeof(stash[0]));
			handle_status(c, status);
		} else {
			k++;
		}
}

static void stash_add(pid_t pid, int status)
{
	if (nstash == STASH_MAX) {
		discard(stash[0].pid);	/* the oldest: never named, or it would be gone */
		memmove(&stash[0], &stash[1], --nstash * sizeof(stash[0]));
	}
	stash[nstash].pid = pid;
	stash[nstash].status = status;
	clock_gettime(CLOCK_MONOTONIC, &stash[nstash++].at);
}

/* Forks never named: killed and waited for (else stopped for ever, until
 * this process ends: PTRACE_O_EXITKILL). */
static void stash_expire(const struct timespec *now)
{
	unsigned k = 0;

	while (k < nstash)
		if (seconds(&stash[k].at, now) > STASH_AGE_S) {
			pid_t pid = stash[k].pid;
			int status = stash[k].status;

			memmove(&stash[k], &stash[k + 1], (--nstash - k) * sizeof(stash[0]));
			if (!WIFEXITED(status) && !WIFSIGNALED(status))
				discard(pid);
		} else {
			k++;
		}
}

/* Every state change of every child, each to its own (cells, servers),
 * the forks a server makes given to their runs as they are seen. */
static void collect_all(struct th_child *cs, int n, struct th_fsrv **ss, int ns)
{
	int status;
	pid_t w;

	while ((w = waitpid(-1, &status, WNOHANG | __WALL)) > 0) {
		struct th_child *c = NULL;
		struct th_fsrv *s = NULL;

		for (int i = 0; i < n && !c; i++)
			if (cs[i].pid == w && !cs[i].reaped)
				c = &cs[i];
		for (int j = 0; j < ns && !c; j++)
			if (ss[j] && ss[j]->proc.pid == w && !ss[j]->proc.reaped)
				c = &(s = ss[j])->proc;
		if (!c) {
			stash_add(w, status);
			continue;
		}
		handle_status(c, status);
		if (s)
			fsrv_give(s, cs, n);
	}
}

bool th_fsrv_capable(const char *binary)
{
	const struct th_sym *sym;
	char err[512], abi[sizeof(TH_FSRV_ABI)];
	struct th_bin *b = th_bin_cached(binary, err, sizeof(err));

	return b && th_bin_find_syms(b, TH_FSRV_ABI_SYMBOL, &sym, 1) == 1 &&
	       sym->size >= sizeof(abi) && !th_bin_read(b, sym->addr, abi, sizeof(abi)) &&
	       !memcmp(abi, TH_FSRV_ABI, sizeof(abi));
}

int th_fsrv_start(struct th_fsrv *s, const char *binary, const struct th_child_opts *o)
{
	const char *argv[] = { binary, TH_FSRV_ARG, NULL };
	struct th_child_opts so = *o;
	int sv[2], saved;

	memset(s, 0, sizeof(*s));
	s->sock = -1;
	if (!o->trace) {
		errno = EINVAL;	/* its forks are found by tracing it */
		return -1;
	}
	/* Never timed out itself (a run it does not fork is: th_child_pump_fsrv),
	 * no soft-lockup probes: it runs no cell. */
	so.timeout = 1e9;
	so.lockup_func = NULL;
	so.lockup_ms = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	s->proc.own = s;
	if (spawn(&s->proc, argv, &so, sv[1])) {
		saved = errno;
		close(sv[0]);
		close(sv[1]);
		memset(s, 0, sizeof(*s));
		s->sock = -1;
		errno = saved;
		return -1;
	}
	s->proc.own = s;	/* spawn() cleared it */
	close(sv[1]);
	s->sock = sv[0];
	return 0;
}

int th_child_spawn_fsrv(struct th_child *c, struct th_fsrv *s, const char *const argv[],
			const struct th_child_opts *o)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	char msg[sizeof(struct th_fsrv_req) + TH_FSRV_MAX_BYTES];
	struct th_fsrv_req rq = { .magic = TH_FSRV_ABI };
	size_t len = sizeof(rq);
	int out[2], err[2], wr[2], saved;
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
			     .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *ch;

	child_init(c, o);
	/* The runtimes read exitcode= at the server's start (child.h). */
	c->obs.san_exitcode = s->proc.obs.san_exitcode;
	if (s->failed || s->why[0] || s->sock < 0 || s->npending == TH_FSRV_PENDING) {
		errno = s->npending == TH_FSRV_PENDING ? EAGAIN : EPIPE;
		return -1;
	}
	if (sigchld_setup())
		return -1;
	rq.id = s->next_id++;
	rq.cpu_soft = (uint32_t)o->timeout + 2;
	rq.cpu_hard = (uint32_t)o->timeout + 3;
	memcpy(rq.token, c->obs.token, TH_TOKEN_LEN);
	for (; argv[rq.argc]; rq.argc++) {
		size_t k = strlen(argv[rq.argc]) + 1;

		if (rq.argc == TH_FSRV_MAX_ARGS || len + k > sizeof(msg)) {
			errno = E2BIG;
			return -1;
		}
		memcpy(msg + len, argv[rq.argc], k);
		len += k;
	}
	memcpy(msg, &rq, sizeof(rq));
	if (!(c->binary = strdup(argv[0])))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		saved = errno;
		goto fail_bin;
	}
	if (pipe2(err, O_CLOEXEC)) {
		saved = errno;
		close(out[0]);
		close(out[1]);
		goto fail_bin;
	}
	iov = (struct iovec){ msg, len };
	ch = CMSG_FIRSTHDR(&mh);
	ch->cmsg_level = SOL_SOCKET;
	ch->cmsg_type = SCM_RIGHTS;
	ch->cmsg_len = CMSG_LEN(sizeof(wr));
	wr[0] = out[1];
	wr[1] = err[1];
	memcpy(CMSG_DATA(ch), wr, sizeof(wr));
	while (sendmsg(s->sock, &mh, MSG_NOSIGNAL) < 0) {
		if (errno == EINTR)
			continue;
		saved = errno;
		/* Its end of the socket is gone: it is dying. The pump sees it
		 * end and fails it, with the runs it holds; nothing more is
		 * asked of it. */
		close(s->sock);
		s->sock = -1;
		for (int k = 0; k < 2; k++) {
			close(out[k]);
			close(err[k]);
		}
		goto fail_bin;
	}
	close(out[1]);
	close(err[1]);
	c->fd[0] = out[0];
	c->fd[1] = err[0];
	fcntl(c->fd[0], F_SETFL, O_NONBLOCK);
	fcntl(c->fd[1], F_SETFL, O_NONBLOCK);
	c->srv = s;
	c->req_id = rq.id;
	s->fifo[(s->head + s->npending++) % TH_FSRV_PENDING] = rq.id;
	s->nasked++;
	c->phase = PHASE_FORK_STOP;
	/* Until the fork, the time limit counts the wait for it. */
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	return 0;
fail_bin:
	free(c->binary);
	c->binary = NULL;
	errno = saved;
	return -1;
}

bool th_fsrv_idle(const struct th_fsrv *s)
{
	return !s->npending && !s->nborn;
}

void th_fsrv_stop(struct th_fsrv *s)
{
	if (s->sock >= 0)
		close(s->sock);
	s->sock = -1;
	for (unsigned k = 0; k < s->nborn; k++)
		discard(s->born[k]);
	if (s->proc.pid > 0 && !s->proc.reaped)
		discard(s->proc.pid);
	th_child_free(&s->proc);
	memset(s, 0, sizeof(*s));
	s->sock = -1;
}

void th_child_abort(struct th_child *c)
{
	if (c->srv) {
		abandon(c, "dropped before its server forked it");
	} else if (c->pid > 0 && !c->reaped) {
		kill(-c->pid, SIGKILL);
		discard(c->pid);
	}
	th_child_free(c);
}

/* ---- the pump ------------------------------------------------------------------------ */

#define PUMP_FDS 192

/* @c's pipes into the poll set, and how long it lets the pump sleep. */
static void pump_add(struct th_child *c, int who, const struct timespec *now, struct pollfd *pfd,
		     int (*map)[2], int *np, int *wait_ms)
{
	if (c->reaped && seconds(&c->end, now) > PIPE_GRACE_S)
		for (int k = 0; k < 2; k++)
			if (c->fd[k] >= 0) {
				close(c->fd[k]);
				c->fd[k] = -1;
			}
	for (int k = 0; k < 2 && *np < PUMP_FDS - 1; k++)
		if (c->fd[k] >= 0) {
			pfd[*np] = (struct pollfd){ .fd = c->fd[k], .events = POLLIN };
			map[*np][0] = who;
			map[(*np)++][1] = k;
		}
	if (!c->reaped && !c->timed_out && !c->lockup) {
		double left = c->timeout - seconds(&c->start, now);
		int ms;

		/* The next soft-lockup probe, when it comes first. */
		if (c->opts.trace && c->opts.lockup_func && c->opts.lockup_ms && !c->probe_sent &&
		    c->probe_at - seconds(&c->start, now) < left)
			left = c->probe_at - seconds(&c->start, now);
		ms = left <= 0 ? 0 : left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;
		if (*wait_ms < 0 || ms < *wait_ms)
			*wait_ms = ms;
	} else if (c->fd[0] >= 0 || c->fd[1] >= 0) {
		/* Reaped (or killed), pipes still open: wake up for the grace. */
		if (*wait_ms < 0 || *wait_ms > 100)
			*wait_ms = 100;
	}
}

void th_child_pump_fsrv(struct th_child *cs, int n, struct th_fsrv **ss, int ns)
{
	struct pollfd pfd[PUMP_FDS];
	int map[PUMP_FDS][2], np = 0, wait_ms = -1;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (int i = 0; i < n; i++)
		if (cs[i].pid || cs[i].srv)
			pump_add(&cs[i], i, &now, pfd, map, &np, &wait_ms);
	for (int j = 0; j < ns; j++)
		if (ss[j] && ss[j]->proc.pid)
			pump_add(&ss[j]->proc, n + j, &now, pfd, map, &np, &wait_ms);
	pfd[np] = (struct pollfd){ .fd = sigchld_pipe[0], .events = POLLIN };
	if (poll(pfd, (nfds_t)np + 1, wait_ms) > 0) {
		for (int j = 0; j < np; j++)
			if (pfd[j].revents)
				drain(map[j][0] < n ? &cs[map[j][0]] : &ss[map[j][0] - n]->proc, map[j][1], false);
		if (pfd[np].revents)
			sigchld_drain();
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	/* With servers: one waitpid(-1) for all; their forks become runs
	 * as they are seen. */
	if (ss)
		collect_all(cs, n, ss, ns);
	for (int j = 0; j < ns; j++) {
		struct th_fsrv *s = ss[j];

		if (!s || !s->proc.pid)
			continue;
		if (!s->failed && s->why[0]) {
			char why[sizeof(s->why)];

			snprintf(why, sizeof(why), "%s", s->why);
			fsrv_fail(s, cs, n, "%s", why);
		}
		fsrv_give(s, cs, n);
		if (s->proc.reaped && !s->failed) {
			char st[64];

			if (WIFSIGNALED(s->proc.status))
				th_signal_name(WTERMSIG(s->proc.status), st, sizeof(st));
			else
				snprintf(st, sizeof(st), "exit %d", WEXITSTATUS(s->proc.status));
			fsrv_fail(s, cs, n, "ended (%s)", st);
		}
	}
	for (int i = 0; i < n; i++) {
		struct th_child *c = &cs[i];

		if (c->srv) {
			/* Asked, not forked: a server that does not fork within the
			 * run's time limit is hung. */
			if (seconds(&c->start, &now) > c->timeout)
				fsrv_fail(c->srv, cs, n, "forked nothing in %.0f s", c->timeout);
			continue;
		}
		if (!c->pid)
			continue;
		if (!ss)
			collect(c);
		maybe_probe(c, seconds(&c->start, &now));
		if (!c->reaped && !c->timed_out && !c->lockup && seconds(&c->start, &now) > c->timeout) {
			c->timed_out = true;
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
		}
	}
	if (nstash)
		stash_expire(&now);
}

void th_child_pump(struct th_child *cs, int n)
{
	th_child_pump_fsrv(cs, n, NULL, 0);
}

void th_child_observe(struct th_child_obs *o, const struct th_child *c, const char *config,
		      const char *toolchain)
{
	*o = c->obs;
	o->config = config;
	o->binary = c->binary;
	o->toolchain = toolchain;
	o->site_func = c->opts.site_func;
	o->exited = WIFEXITED(c->status);
	o->exit_code = o->exited ? WEXITSTATUS(c->status) : 0;
	o->signaled = WIFSIGNALED(c->status);
	o->signo = o->signaled ? WTERMSIG(c->status) : 0;
	o->timed_out = c->timed_out;
	o->seconds = seconds(&c->start, &c->end);
	o->out = c->buf[0] ? c->buf[0] : "";
	o->err = c->buf[1] ? c->buf[1] : "";
	o->out_len = c->len[0];
	o->err_len = c->len[1];
	o->out_cut = c->cut[0];
	o->err_cut = c->cut[1];
}

void th_child_free(struct th_child *c)
{
	for (int k = 0; k < 2; k++) {
		if (c->fd[k] >= 0)
			close(c->fd[k]);
		free(c->buf[k]);
	}
	if (c->exec_fd >= 0)
		close(c->exec_fd);
	free(c->binary);
	/* c->bin belongs to the reader's cache. */
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = c->exec_fd = -1;
}

int th_child_run(struct th_child *c, const char *const argv[], const struct th_child_opts *o)
{
	if (th_child_spawn(c, argv, o))
		return -1;
	while (!th_child_done(c))
		th_child_pump(c, 1);
	return 0;
}

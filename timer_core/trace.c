/* SPDX-License-Identifier: MIT */
/* The trace interpreter: parsing, the timer table, output. */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct th_trace_timer {
	char *id;
	void *timer;			/* the variant's timer */
	bool every;
	unsigned long interval;
	struct th_trace_timer *hnext;
};

struct trace_ctx {
	const struct th_trace_opts *opts;
	const struct th_trace_variant *v;
	struct timer_base base;
	FILE *out;
	struct th_trace_timer **table;
	size_t cap, count;
	bool bad;			/* a check failed */
	char check_err[512];
	unsigned long run_fires;	/* callbacks of the current `run` */
	bool too_many_fires;		/* it passed max_fires: stop printing */
	unsigned long check_credit;	/* budget left for whole-wheel checks */
	struct th_trace_stats stats;
};

/* The interpreter is not reentrant: callbacks find it here. */
static struct trace_ctx *cur;

const struct th_trace_variant *th_trace_variant(const char *name)
{
	if (!strcmp(name, "legacy"))
		return &th_trace_legacy;
	if (!strcmp(name, "transitional"))
		return &th_trace_transitional;
	if (!strcmp(name, "modern"))
		return &th_trace_modern;
	return NULL;
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void table_grow(struct trace_ctx *ctx)
{
	size_t cap = ctx->cap ? ctx->cap * 2 : 256;
	struct th_trace_timer **t = calloc(cap, sizeof(*t));

	if (!t) {
		fprintf(stderr, "timerharness: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < ctx->cap; i++)
		for (struct th_trace_timer *n = ctx->table[i], *next; n; n = next) {
			size_t h = hash_str(n->id) & (cap - 1);

			next = n->hnext;
			n->hnext = t[h];
			t[h] = n;
		}
	free(ctx->table);
	ctx->table = t;
	ctx->cap = cap;
}

/* The timer called @id, set up on first use. */
static struct th_trace_timer *timer_get(struct trace_ctx *ctx, const char *id)
{
	size_t h = hash_str(id);
	struct th_trace_timer *n;

	if (ctx->cap)
		for (n = ctx->table[h & (ctx->cap - 1)]; n; n = n->hnext)
			if (!strcmp(n->id, id))
				return n;
	if ((ctx->count + 1) * 2 > ctx->cap)
		table_grow(ctx);
	n = calloc(1, sizeof(*n));
	if (!n || !(n->id = strdup(id))) {
		fprintf(stderr, "timerharness: out of memory\n");
		exit(1);
	}
	n->timer = ctx->v->create(n);
	n->hnext = ctx->table[h & (ctx->cap - 1)];
	ctx->table[h & (ctx->cap - 1)] = n;
	ctx->count++;
	return n;
}

static void table_free(struct trace_ctx *ctx)
{
	for (size_t i = 0; i < ctx->cap; i++)
		for (struct th_trace_timer *n = ctx->table[i], *next; n; n = next) {
			next = n->hnext;
			ctx->v->destroy(n->timer);
			free(n->id);
			free(n);
		}
	free(ctx->table);
	ctx->table = NULL;
	ctx->cap = ctx->count = 0;
}

/*
 * --check, kept linear: every op and callback adds TH_TRACE_CHECK_BUDGET to
 * a credit, and a whole-wheel check (cost: the buckets plus every timer the
 * trace made, which bounds the queued ones) runs whenever the credit covers
 * it. @force: the end of the trace, checked whatever the credit.
 */
static void maybe_check(struct trace_ctx *ctx, bool force)
{
	unsigned long cost = WHEEL_SIZE_MAX + ctx->count;

	if (!ctx->opts->check || ctx->bad)
		return;
	ctx->check_credit += TH_TRACE_CHECK_BUDGET;
	if (!force && ctx->check_credit < cost)
		return;
	ctx->check_credit = ctx->check_credit > cost ? ctx->check_credit - cost : 0;
	ctx->stats.checks++;
	ctx->stats.check_steps += cost;
	if (ctx->v->check(&ctx->base, ctx->check_err, sizeof(ctx->check_err)))
		ctx->bad = true;
}

void th_trace_fired(struct th_trace_timer *node, void *timer)
{
	struct trace_ctx *ctx = cur;

	ctx->stats.fires++;
	/* Past the limit the run goes on to its end (the timers already due
	 * fire, once each) but prints nothing and re-arms nothing more. */
	if (++ctx->run_fires > ctx->opts->max_fires) {
		ctx->too_many_fires = true;
		return;
	}
	fprintf(ctx->out, "fire %lu %s\n", ctx->base.running_clk, node->id);
	if (node->every)
		ctx->v->mod(timer, ctx->base.jiffies + node->interval);
	maybe_check(ctx, false);
}

/* Numbers: decimal or 0x-hex, the whole token, fitting an unsigned long. */
static int parse_num(const char *tok, unsigned long *val)
{
	const char *p = tok;
	int base = 10;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return -1;
	} else if (!isdigit((unsigned char)*p)) {
		return -1;
	}
	errno = 0;
	*val = strtoul(p, &end, base);
	if (*end || errno)
		return errno ? -2 : -1;
	return 0;
}

enum op { OP_START, OP_ADD, OP_MOD, OP_MODP, OP_REDUCE, OP_DEL, OP_EVERY, OP_RUN };

static const struct {
	const char *name;
	int nargs;		/* after the op */
	bool id;		/* first argument is a timer ID */
	const char *usage;
} ops[] = {
	[OP_START] = { "start", 1, false, "start J" },
	[OP_ADD] = { "add", 2, true, "add ID E" },
	[OP_MOD] = { "mod", 2, true, "mod ID E" },
	[OP_MODP] = { "modp", 2, true, "modp ID E" },
	[OP_REDUCE] = { "reduce", 2, true, "reduce ID E" },
	[OP_DEL] = { "del", 1, true, "del ID" },
	[OP_EVERY] = { "every", 2, true, "every ID IV" },
	[OP_RUN] = { "run", 1, false, "run J" },
};

#define NOPS (sizeof(ops) / sizeof(ops[0]))

static int run_line(struct trace_ctx *ctx, char *line, const char *fname,
		    unsigned long lineno, bool *started, bool *any_op, FILE *err)
{
	char *tok[4];
	int ntok = 0;
	unsigned long num = 0;
	char *hash = strchr(line, '#'), *p = line;
	size_t op;
	int ret;

	if (hash)
		*hash = '\0';
	while (ntok < 4) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		tok[ntok++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (!ntok)
		return 0;
	for (op = 0; op < NOPS; op++)
		if (!strcmp(tok[0], ops[op].name))
			break;
	if (op == NOPS) {
		fprintf(err, "%s:%lu: unknown op '%s' (expected start, add, mod, modp, reduce, del, every or run)\n",
			fname, lineno, tok[0]);
		return 2;
	}
	while (*p && isspace((unsigned char)*p))
		p++;
	if (ntok - 1 > ops[op].nargs || *p) {
		fprintf(err, "%s:%lu: trailing garbage after '%s': '%s'\n", fname, lineno,
			ops[op].usage, ntok - 1 > ops[op].nargs ? tok[ops[op].nargs + 1] : p);
		return 2;
	}
	if (ntok - 1 < ops[op].nargs) {
		fprintf(err, "%s:%lu: '%s' needs %d argument%s (%s), got %d\n", fname, lineno,
			ops[op].name, ops[op].nargs, ops[op].nargs > 1 ? "s" : "",
			ops[op].usage, ntok - 1);
		return 2;
	}
	{
		const char *ntok_s = tok[ntok - 1];
		bool numeric_last = !(ops[op].id && ops[op].nargs == 1);

		if (numeric_last && (ret = parse_num(ntok_s, &num))) {
			fprintf(err, "%s:%lu: '%s': %s '%s' (decimal or 0x-hex, up to %lu)\n",
				fname, lineno, ops[op].usage,
				ret == -2 ? "number out of range:" : "not a number:", ntok_s, ULONG_MAX);
			return 2;
		}
	}

	if (op == OP_START) {
		if (*any_op || *started) {
			fprintf(err, "%s:%lu: 'start' must be the first op of a trace\n", fname, lineno);
			return 2;
		}
		*started = true;
		th_base_init(&ctx->base, 0, ctx->opts->hz, num);
	} else if (op == OP_RUN) {
		*any_op = true;
		if (time_before(num, ctx->base.jiffies)) {
			fprintf(err, "%s:%lu: 'run %lu': jiffies cannot go backwards (now %lu)\n",
				fname, lineno, num, ctx->base.jiffies);
			return 2;
		}
		ctx->run_fires = 0;
		ctx->v->run(&ctx->base, num);
		if (ctx->too_many_fires) {
			fprintf(err, "%s:%lu: 'run %lu' fired more than %lu callbacks: a timer that "
				"re-arms itself (every) fires again each time the wheel's capacity "
				"clamps it, on a jump this long without end; stopped (--max-fires N)\n",
				fname, lineno, num, ctx->opts->max_fires);
			return 2;
		}
	} else {
		struct th_trace_timer *t = timer_get(ctx, tok[1]);

		*any_op = true;
		switch (op) {
		case OP_ADD:
			ctx->v->add(t->timer, num);
			break;
		case OP_MOD:
			fprintf(ctx->out, "ret %lu %d\n", lineno, ctx->v->mod(t->timer, num));
			break;
		case OP_MODP:
			fprintf(ctx->out, "ret %lu %d\n", lineno, ctx->v->modp(t->timer, num));
			break;
		case OP_REDUCE:
			fprintf(ctx->out, "ret %lu %d\n", lineno, ctx->v->reduce(t->timer, num));
			break;
		case OP_DEL:
			fprintf(ctx->out, "ret %lu %d\n", lineno, ctx->v->del(t->timer));
			break;
		case OP_EVERY:
			t->every = true;
			t->interval = num;
			break;
		default:
			break;
		}
	}
	maybe_check(ctx, false);
	if (ctx->bad) {
		fprintf(err, "%s:%lu: wheel inconsistent: %s\n", fname, lineno, ctx->check_err);
		return 3;
	}
	return 0;
}

/*
 * One line of at most TH_TRACE_MAX_LINE bytes into @buf (NUL-terminated,
 * newline dropped), read byte by byte so that neither an endless line nor
 * a NUL byte costs more than the limit. Return: 1 a line, 0 end of input,
 * -1 too long, -2 a NUL byte, -3 a read error.
 */
static int read_line(FILE *in, char *buf, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (c == '\0')
			return -2;
		if (n == TH_TRACE_MAX_LINE)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	*len = n;
	if (c == EOF && ferror(in))
		return -3;
	return c == EOF && n == 0 ? 0 : 1;
}

/* Return: 0, or 1 after saying why @out could not be written. */
static int output_failed(struct trace_ctx *ctx, FILE *err)
{
	int e;

	if (!ferror(ctx->out) && !fflush(ctx->out) && !ferror(ctx->out))
		return 0;
	e = errno;
	fflush(ctx->out);	/* retried: errno says why */
	if (errno)
		e = errno;
	fprintf(err, "timerharness trace: cannot write %s: %s\n", ctx->opts->out_name,
		e ? strerror(e) : "write error");
	return 1;
}

int th_trace_run(const struct th_trace_opts *opts, FILE *in, const char *fname,
		 FILE *out, FILE *err)
{
	struct trace_ctx ctx = { .opts = opts, .v = opts->variant, .out = out };
	unsigned int hz = opts->hz ? opts->hz : 1000;
	struct th_trace_opts o = *opts;
	bool started = false, any_op = false;
	unsigned long lineno = 0;
	char line[TH_TRACE_MAX_LINE + 1];
	size_t len;
	int ret = 0, got;

	o.hz = hz;
	if (!o.max_fires)
		o.max_fires = TH_TRACE_MAX_FIRES;
	if (!o.out_name)
		o.out_name = "stdout";
	ctx.opts = &o;
	if (!ctx.v) {
		fprintf(err, "%s: no variant\n", fname);
		return 2;
	}
	cur = &ctx;
	if (th_base_init(&ctx.base, 0, hz, TH_INITIAL_JIFFIES(hz)) || th_set_cpu(0)) {
		fprintf(err, "%s: cannot attach the trace's timer base as CPU 0\n", fname);
		cur = NULL;
		return 2;
	}
	while ((got = read_line(in, line, &len)) != 0) {
		lineno++;
		if (got == -1) {
			fprintf(err, "%s:%lu: line longer than %d bytes\n", fname, lineno, TH_TRACE_MAX_LINE);
			ret = 2;
			break;
		}
		if (got == -2) {
			fprintf(err, "%s:%lu: NUL byte in line\n", fname, lineno);
			ret = 2;
			break;
		}
		if (got == -3) {
			fprintf(err, "%s:%lu: read error: %s\n", fname, lineno, strerror(errno));
			ret = 2;
			break;
		}
		ctx.stats.ops++;
		ret = run_line(&ctx, line, fname, lineno, &started, &any_op, err);
		if (ret)
			break;
		/* A full disk or a closed pipe: stop now, not after the trace. */
		if (ferror(out))
			break;
	}
	if (!ret && o.check) {
		/* The last op is always checked, whatever the budget left. */
		ctx.check_credit = 0;
		maybe_check(&ctx, true);
		if (ctx.bad) {
			fprintf(err, "%s:%lu: wheel inconsistent: %s\n", fname, lineno, ctx.check_err);
			ret = 3;
		}
	}
	if (output_failed(&ctx, err) && !ret)
		ret = 1;
	table_free(&ctx);
	th_base_release(&ctx.base);
	cur = NULL;
	if (opts->stats)
		*opts->stats = ctx.stats;
	return ret;
}

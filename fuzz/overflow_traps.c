/* SPDX-License-Identifier: MIT */
#include "overflow_traps.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binread/binread.h"

/* Defined by the linker at the ELF header of the executable. */
extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

static void add_sites(struct th_fz_traps *t, const struct th_func_sites *fs, uintptr_t bias)
{
	for (size_t i = 0; i < fs->nsites; i++) {
		const struct th_call_site *s = &fs->sites[i];

		if (s->from_table)
			continue;
		if (s->nguards)
			th_site_describe(s, t->how, sizeof(t->how));
		for (size_t g = 0; g < s->nguards; g++) {
			const struct th_guard *gd = &s->guards[g];

			if (gd->kind == TH_GUARD_TRAP && t->n < TH_FZ_TRAPS_MAX) {
				t->target_reg[t->n] = gd->target_reg;
				t->site[t->n] = s;
				t->guard[t->n] = gd;
				t->pc[t->n++] = (uintptr_t)gd->addr + bias;
			}
			else if (gd->kind == TH_GUARD_HANDLER && gd->file[0] &&
				 t->nhandlers < TH_FZ_TRAPS_MAX) {
				snprintf(t->handler[t->nhandlers].file, sizeof(t->handler[0].file), "%s",
					 gd->file);
				t->handler[t->nhandlers++].line = gd->line;
			}
		}
	}
}

int th_fz_traps_load(const char *path, const char *func, struct th_fz_traps *t, char *err, size_t n)
{
	struct th_bin *b;
	const struct th_func_sites *fs;
	uintptr_t bias;

	memset(t, 0, sizeof(*t));
	if (!path)
		path = "/proc/self/exe";
	if (!func)
		func = TH_FZ_DISPATCH_FUNC;
	snprintf(t->func, sizeof(t->func), "%s", func);
	if (th_bin_open(path, &b, err, n))
		return -1;
	fs = th_bin_call_sites(b, func, err, n);
	if (!fs) {
		th_bin_close(b);
		return -1;
	}
	bias = (uintptr_t)__ehdr_start - (uintptr_t)th_bin_load_vaddr(b);
	snprintf(t->how, sizeof(t->how), "no check");
	/* The dispatch's call is the victim's only indirect call of its
	 * family's callback: process_timeout(), the other subsystem's callback
	 * an attacker may plant, calls nothing indirectly (attacks/victim.h).
	 * The binary stays open: its sites and guards are the checks judged
	 * at a trap (th_fz_traps_judge()). */
	add_sites(t, fs, bias);
	t->bin_ = b;
	t->bias_ = bias;
	return 0;
}

int th_fz_traps_is_dispatch(const struct th_fz_traps *t, uintptr_t pc)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pc[i] == pc)
			return 1;
	return 0;
}

int th_fz_traps_target_reg(const struct th_fz_traps *t, uintptr_t pc)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pc[i] == pc)
			return t->target_reg[i] >= 0 && t->target_reg[i] < 16 ? t->target_reg[i] : -1;
	return -1;
}

/* The process reads itself: the check's loads (a jump table's bounds, a
 * kcfi hash before the target) from its own memory. */
static int self_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (!addr)
		return -1;
	memcpy(buf, (const void *)(uintptr_t)addr, n);
	return 0;
}

int th_fz_traps_judge(const struct th_fz_traps *t, uintptr_t pc, const uint64_t *regs,
		      uintptr_t *target, int *reg)
{
	const struct th_eval_ctx cx = { t->bias_, self_read, NULL, NULL };
	int found = 0, refused = 0;

	*target = 0;
	*reg = -1;
	for (size_t i = 0; i < t->n; i++) {
		int r = t->target_reg[i] >= 0 && t->target_reg[i] < 16 ? t->target_reg[i] : -1;
		uintptr_t v;
		int admits;

		if (t->pc[i] != pc)
			continue;
		if (r < 0 || !regs) {
			/* No target to judge by: the trap is the check's. */
			if (!found)
				*reg = -1;
			found = 1;
			refused = 1;
			continue;
		}
		v = (uintptr_t)regs[r];
		admits = th_guard_admits(t->site[i], t->guard[i], v, &cx);
		/* A refusing (or unknown) check is kept over an admitting one. */
		if (!found || (admits != 1 && !refused)) {
			*target = v;
			*reg = r;
		}
		found = 1;
		refused |= admits != 1;
	}
	if (!found)
		return 0;
	return refused ? 1 : 2;
}

int th_fz_traps_other_admits(const struct th_fz_traps *t, uintptr_t pc, uintptr_t target)
{
	const struct th_eval_ctx cx = { t->bias_, self_read, NULL, NULL };
	const struct th_guard *refusing = NULL;

	for (size_t i = 0; i < t->n && !refusing; i++)
		if (t->pc[i] == pc && th_guard_admits(t->site[i], t->guard[i], target, &cx) != 1)
			refusing = t->guard[i];
	if (!refusing)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct th_guard *g = t->guard[i];

		if (g == refusing || (g->addr == refusing->addr && g->branch == refusing->branch))
			continue;
		if (th_guard_admits(t->site[i], g, target, &cx) == 1)
			return 1;
	}
	return 0;
}

/* Does path end with the file name rec (whole components)? */
static int same_file(const char *path, const char *rec)
{
	size_t lp = strlen(path), lr = strlen(rec);

	if (lr > lp)
		return 0;
	return !strcmp(path + lp - lr, rec) && (lp == lr || path[lp - lr - 1] == '/' || rec[0] == '/');
}

int th_fz_traps_is_dispatch_report(const struct th_fz_traps *t, const char *file, unsigned line)
{
	for (size_t i = 0; i < t->nhandlers; i++)
		if (t->handler[i].line == line &&
		    (same_file(file, t->handler[i].file) || same_file(t->handler[i].file, file)))
			return 1;
	return 0;
}

size_t th_fz_elf_object_size(const char *name)
{
	struct th_bin *b;
	const struct th_sym *s[4];
	char err[256];
	size_t size = 0, k;

	if (th_bin_open("/proc/self/exe", &b, err, sizeof(err)))
		return 0;
	k = th_bin_find_syms(b, name, s, 4);
	for (size_t i = 0; i < k && i < 4; i++)
		if (s[i]->type == STT_OBJECT)
			size = s[i]->size;
	th_bin_close(b);
	return size;
}

/* The inline 8-bit counters' section, when the engine's instrumentation made one. */
extern unsigned char __start___sancov_cntrs[] __attribute__((weak, visibility("hidden")));
extern unsigned char __stop___sancov_cntrs[] __attribute__((weak, visibility("hidden")));

/* The direct target of a jump as capstone prints it ("jne 0x1f4d"), or 0. */
static uint64_t jump_target(const char *text)
{
	const char *p = text;
	uint64_t v = 0;

	while (*p && *p != ' ')
		p++;
	if (p[0] != ' ' || p[1] != '0' || p[2] != 'x' || !p[3])
		return 0;
	for (p += 3; *p; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0)
			return 0;
		v = v * 16 + (uint64_t)d;
	}
	return v;
}

/* The mnemonic of text (up to its first blank) is m? */
static int mnemonic_is(const char *text, const char *m)
{
	size_t n = strlen(m);

	return !strncmp(text, m, n) && (text[n] == ' ' || !text[n]);
}

/* A jcc's condition (the low nibble of its 0x7X opcode), by the mnemonic
 * capstone prints or an alias; -1 for jmp, -2 for anything else (jrcxz,
 * loop: rcx decides, not a flag). */
static int jump_cond(const char *text)
{
	static const struct {
		const char *m;
		int cond;
	} j[] = {
		{ "jmp", -1 }, { "jo", 0 },   { "jno", 1 },  { "jb", 2 },   { "jc", 2 },    { "jnae", 2 },
		{ "jae", 3 },  { "jnb", 3 },  { "jnc", 3 },  { "je", 4 },   { "jz", 4 },    { "jne", 5 },
		{ "jnz", 5 },  { "jbe", 6 },  { "jna", 6 },  { "ja", 7 },   { "jnbe", 7 },  { "js", 8 },
		{ "jns", 9 },  { "jp", 10 },  { "jpe", 10 }, { "jnp", 11 }, { "jpo", 11 },  { "jl", 12 },
		{ "jnge", 12 }, { "jge", 13 }, { "jnl", 13 }, { "jle", 14 }, { "jng", 14 }, { "jg", 15 },
		{ "jnle", 15 },
	};

	for (size_t i = 0; i < sizeof(j) / sizeof(j[0]); i++)
		if (mnemonic_is(text, j[i].m))
			return j[i].cond;
	return -2;
}

int th_fz_jcc_taken(int cond, uint64_t efl)
{
	int cf = !!(efl & 0x1), pf = !!(efl & 0x4), zf = !!(efl & 0x40), sf = !!(efl & 0x80),
	    of = !!(efl & 0x800), t;

	switch (cond >> 1) {
	case 0: t = of; break;
	case 1: t = cf; break;
	case 2: t = zf; break;
	case 3: t = cf || zf; break;
	case 4: t = sf; break;
	case 5: t = pf; break;
	case 6: t = sf != of; break;
	default: t = zf || sf != of; break;
	}
	return (cond & 1) ? !t : t;
}

/* A general-purpose register's name of width w (0: 64 bits, 1: 32, 2: 16,
 * 3: 8; ah..bh are none) at p, len bytes: its number in x86 encoding
 * order, or -1. */
static int gpr_num(const char *p, size_t len, int w)
{
	static const char *const names[4][16] = {
		{ "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
		  "r14", "r15" },
		{ "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d", "r12d",
		  "r13d", "r14d", "r15d" },
		{ "ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w",
		  "r14w", "r15w" },
		{ "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b",
		  "r13b", "r14b", "r15b" },
	};

	for (int r = 0; r < 16; r++)
		if (strlen(names[w][r]) == len && !strncmp(p, names[w][r], len))
			return r;
	return -1;
}

/* "[base + index*scale +/- disp]" (any part but one of base and index
 * optional; base may be rip) at p, up to its ']': into in's xchg_*.
 * Return: 1, or 0 when it is not that form. */
static int parse_mem(const char *p, struct th_fz_insn *in)
{
	int sign = 1;

	in->xchg_base = in->xchg_index = -1;
	in->xchg_scale = 1;
	in->xchg_disp = 0;
	in->xchg_rip_rel = 0;
	for (;;) {
		size_t n = strcspn(p, " *]");
		int r;

		if (*p >= '0' && *p <= '9') {
			char *end;
			uint64_t v = strtoull(p, &end, 0);

			if ((const char *)end != p + n)
				return 0;
			in->xchg_disp += sign * (int64_t)v;
		} else if (sign < 0) {
			return 0;	/* "- reg" */
		} else if (n == 3 && !strncmp(p, "rip", 3) && in->xchg_base < 0 && !in->xchg_rip_rel &&
			   in->xchg_index < 0) {
			in->xchg_rip_rel = 1;
		} else if ((r = gpr_num(p, n, 0)) < 0) {
			return 0;
		} else if (p[n] == '*') {
			char *end;
			unsigned long sc = strtoul(p + n + 1, &end, 10);

			if (in->xchg_index >= 0 || (sc != 1 && sc != 2 && sc != 4 && sc != 8) ||
			    end == p + n + 1)
				return 0;
			in->xchg_index = (signed char)r;
			in->xchg_scale = (unsigned char)sc;
			n = (size_t)(end - p);
		} else if (in->xchg_base < 0 && !in->xchg_rip_rel && in->xchg_index < 0) {
			in->xchg_base = (signed char)r;
		} else if (in->xchg_index < 0) {
			in->xchg_index = (signed char)r;
		} else {
			return 0;
		}
		p += n;
		if (*p == ']')
			return in->xchg_base >= 0 || in->xchg_index >= 0 || in->xchg_rip_rel;
		if (p[0] != ' ' || (p[1] != '+' && p[1] != '-') || p[2] != ' ')
			return 0;
		sign = p[1] == '-' ? -1 : 1;
		p += 3;
	}
}

/*
 * `xchg <size> ptr [mem], reg` or `xchg reg, <size> ptr [mem]`, as
 * capstone prints it (Intel syntax; the register of the operand's width):
 * the store the spin proof follows. Return: 1 and in's xchg_* set, or 0
 * (any other instruction or form: a segment, ah..bh).
 */
static int parse_xchg(const char *text, struct th_fz_insn *in)
{
	static const struct {
		const char *w;
		unsigned char size;
		int width;
	} sizes[] = { { "byte ptr [", 1, 3 }, { "word ptr [", 2, 2 }, { "dword ptr [", 4, 1 },
		      { "qword ptr [", 8, 0 } };
	const char *p = text + 5, *reg = NULL;
	size_t rl = 0;

	if (!mnemonic_is(text, "xchg"))
		return 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t wl = strlen(sizes[i].w);
		const char *mem = NULL, *m;
		int r;

		if (!strncmp(p, sizes[i].w, wl)) {
			/* "size ptr [mem], reg" */
			mem = p + wl;
			if (!(m = strchr(mem, ']')) || m[1] != ',' || m[2] != ' ')
				return 0;
			reg = m + 3;
			rl = strlen(reg);
		} else if ((m = strstr(p, sizes[i].w)) && m > p + 2 && m[-2] == ',' && m[-1] == ' ') {
			/* "reg, size ptr [mem]" */
			mem = m + wl;
			reg = p;
			rl = (size_t)(m - 2 - p);
			if (!(m = strchr(mem, ']')) || m[1])
				return 0;
		}
		if (!mem)
			continue;
		if ((r = gpr_num(reg, rl, sizes[i].width)) < 0 || !parse_mem(mem, in))
			return 0;
		in->xchg_reg = (signed char)r;
		in->xchg_size = sizes[i].size;
		return 1;
	}
	return 0;
}

size_t th_fz_func_insns(const char *name, struct th_fz_insn *out, size_t max)
{
	uintptr_t cntrs_lo = (uintptr_t)__start___sancov_cntrs, cntrs_hi = (uintptr_t)__stop___sancov_cntrs;
	struct th_bin *b;
	char err[256];
	size_t n = 0, len = strlen(name);
	uintptr_t bias;

	if (th_bin_open("/proc/self/exe", &b, err, sizeof(err)))
		return 0;
	bias = (uintptr_t)__ehdr_start - (uintptr_t)th_bin_load_vaddr(b);
	for (size_t i = 0; i < th_bin_nsyms(b) && n < max; i++) {
		const struct th_sym *s = th_bin_sym(b, i);

		if (s->type != STT_FUNC || !s->size || s->absolute || strncmp(s->name, name, len) ||
		    (s->name[len] && s->name[len] != '.'))
			continue;
		for (uint64_t v = s->addr; v < s->addr + s->size && n < max;) {
			struct th_insn in;
			unsigned char file[16];
			uint64_t to;
			struct th_fz_insn *o = &out[n];

			if (th_bin_insn(b, v, &in) || !in.len || in.len > sizeof(file) ||
			    th_bin_read(b, v, file, in.len))
				break;
			memset(o, 0, sizeof(*o));
			o->pc = (uintptr_t)v + bias;
			o->len = (unsigned char)in.len;
			o->entry = v == s->addr;
			o->cond = (signed char)(in.text[0] == 'j' ? jump_cond(in.text) : -2);
			/* "jmp 0x<file address>", "jne 0x...": a direct jump; one
			 * back to an instruction of the symbol ends a turn of a
			 * loop. A jump with no such target (jmp rax), jrcxz and
			 * loop leave what the proof follows, as ret and call do. */
			to = o->cond != -2 ? jump_target(in.text) : 0;
			if (to)
				o->jump_to = (uintptr_t)to + bias;
			else
				o->cond = -2;
			o->back_to = to && to <= v && to >= s->addr ? (uintptr_t)to + bias : 0;
			o->ends = (in.text[0] == 'j' && !to) || mnemonic_is(in.text, "ret") ||
				  mnemonic_is(in.text, "call") || mnemonic_is(in.text, "loop") ||
				  !strncmp(in.text, "loop", 4);
			o->vector = strstr(in.text, "mm") || strstr(in.text, "st(");
			/* The code running is the file's (no breakpoint, no patch). */
			o->writes = (unsigned char)in.writes;
			o->flags_read = (unsigned short)in.flags_read;
			o->flags_written = (unsigned short)in.flags_written;
			/* libFuzzer's inline 8-bit counters (-fsanitize-coverage=
			 * inline-8bit-counters): `inc byte ptr [rip + x]` (clang 22)
			 * or `add byte ptr [rip + x], 1` (clang 14) into
			 * __sancov_cntrs, which the model never reads (the engine
			 * reads it between runs), so a turn that writes only there
			 * still starts the next from the same state. Only those
			 * instructions, only that section (add's carry is a flag
			 * written like any other: the liveness pass sees it). */
			if (in.writes && in.write_at && cntrs_lo < cntrs_hi &&
			    (!strncmp(in.text, "inc byte ptr [rip", 17) ||
			     (!strncmp(in.text, "add byte ptr [rip", 17) && strlen(in.text) > 3 &&
			      !strcmp(in.text + strlen(in.text) - 3, ", 1"))) &&
			    (uintptr_t)in.write_at + bias >= cntrs_lo && (uintptr_t)in.write_at + bias < cntrs_hi) {
				o->writes = 0;
				o->counter = 1;
			}
			parse_xchg(in.text, o);
			for (unsigned k = 0; k < in.len; k++)	/* not memcmp: libFuzzer hooks it */
				if (file[k] != ((const unsigned char *)o->pc)[k])
					o->writes = 1;
			n++;
			v += in.len;
		}
	}
	th_bin_close(b);
	return n;
}

static int runtime_name(const char *n)
{
	static const char *const prefixes[] = {
		"__asan", "__ubsan", "__sanitizer", "__lsan", "__interception",
		"_ZN6__asan", "_ZN7__ubsan", "_ZN11__sanitizer", "_ZN14__interception", "_ZN6__lsan",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const uintptr_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

size_t th_fz_runtime_ranges(uintptr_t (*ranges)[2], size_t max)
{
	struct th_bin *b;
	char err[256];
	size_t n = 0, m = 0;
	uintptr_t bias;

	if (th_bin_open("/proc/self/exe", &b, err, sizeof(err)))
		return 0;
	bias = (uintptr_t)__ehdr_start - (uintptr_t)th_bin_load_vaddr(b);
	for (size_t i = 0; i < th_bin_nsyms(b) && n < max; i++) {
		const struct th_sym *s = th_bin_sym(b, i);

		if (s->type != STT_FUNC || !s->size || s->absolute || !runtime_name(s->name))
			continue;
		ranges[n][0] = (uintptr_t)s->addr + bias;
		ranges[n++][1] = (uintptr_t)(s->addr + s->size) + bias;
	}
	th_bin_close(b);
	qsort(ranges, n, sizeof(ranges[0]), cmp_range);
	for (size_t i = 0; i < n; i++) {
		if (m && ranges[i][0] <= ranges[m - 1][1]) {
			if (ranges[i][1] > ranges[m - 1][1])
				ranges[m - 1][1] = ranges[i][1];
			continue;
		}
		ranges[m][0] = ranges[i][0];
		ranges[m++][1] = ranges[i][1];
	}
	return m;
}

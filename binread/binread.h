/* SPDX-License-Identifier: MIT */
/*
 * The binary reader: what a linked x86-64 ELF binary says about the indirect
 * calls of one of its functions and the CFI checks that guard them, read with
 * real tools: ELF through libelf, instructions through capstone.
 *
 * Why capstone and not LLVM's C disassembler API (llvm-c/Disassembler.h):
 * the check is decoded from operands (which register, which memory operand,
 * which immediate, which condition code), and capstone hands those over as
 * data (cs_detail); LLVM's C API returns only the printed text of each
 * instruction, which would have to be parsed back. One capstone 4.0.2 defect
 * (Debian 12's version) is corrected here: it decodes ud1 (0F B9 /r, the
 * cfi-icall trap) without its ModRM bytes, so the length is recomputed.
 *
 * How a call site is read (th_bin_call_sites):
 *  1. the function is the FUNC symbol of exactly that name (no substring, no
 *     LTO suffix); a stripped binary is refused;
 *  2. its bytes are disassembled linearly (symbol start to start + size), and
 *     every indirect call or jump through a register or memory is a call site,
 *     and so is a direct call or jmp to a retpoline thunk
 *     (__x86_indirect_thunk_<reg>: Linux with CONFIG_RETPOLINE), through
 *     that register;
 *  3. the function is executed symbolically from its entry along every path
 *     (registers hold expressions over their entry values, loads and
 *     constants; both sides of each conditional branch are followed, a loop's
 *     branch twice a path; at most 512 forks and 48 branches a path, beyond
 *     which th_func_sites.complete is 0): a path that reaches a call site
 *     records the expression of the call
 *     target T and the branch conditions it took; a path that reaches ud1/ud2
 *     or a call to a sanitizer's check-failure handler records a guard;
 *  4. a guard guards a call site when the branch where their paths part
 *     depends on T; the site admits T when every condition on T of some path
 *     to it holds (evaluated exactly, th_site_admits).
 * So the check is not matched as a byte pattern: cfi-icall's lea/sub/ror/cmp/
 * jae, kcfi's hash compare and -fsanitize=function's signature compare are
 * the same code path, and the scheme is named from what the check reads:
 *  - kcfi:     a ud2 guard listed in .kcfi_traps; the condition compares the
 *              32-bit word at T-4 (the callee's __cfi_ preamble hash);
 *  - cfi-icall: a ud1/ud2 guard (trap mode) or __ubsan_handle_cfi_check_fail*
 *              (diag mode) on a range check of T itself: the jump table of the
 *              __typeid_<type>_global_addr that the check admits;
 *  - function: __ubsan_handle_function_type_mismatch* (or a trap) on the
 *              words at T-8 (signature) and T-4 (type hash).
 *
 * Addresses are file virtual addresses (st_value, p_vaddr) unless a
 * function says "run-time". A run-time address is a file address plus the
 * load bias (for PIE: where the kernel mapped the PT_LOAD at file offset 0,
 * minus its p_vaddr; see th_bin_load_vaddr()).
 *
 * Nothing here writes to stdout or stderr; errors come back as one line
 * naming the file and what is wrong. Not thread-safe (the cache is global).
 */
#ifndef TH_CFI_BINREAD_H
#define TH_CFI_BINREAD_H

#include <stddef.h>
#include <stdint.h>
#include "cfi_scheme.h"

/* General-purpose registers in x86 encoding order. */
enum th_reg {
	TH_RAX, TH_RCX, TH_RDX, TH_RBX, TH_RSP, TH_RBP, TH_RSI, TH_RDI,
	TH_R8, TH_R9, TH_R10, TH_R11, TH_R12, TH_R13, TH_R14, TH_R15,
	TH_NREGS,
	TH_NOREG = -1
};

/* "rax", ...; "?" for anything else. */
const char *th_reg_name(int reg);

/* ---- the ELF file ------------------------------------------------------------------ */

struct th_bin;

/* Open and index @path (a linked little-endian x86-64 ELF executable or
 * shared object). Return: 0, or -1 with @err naming the file and the problem. */
int th_bin_open(const char *path, struct th_bin **out, char *err, size_t n);
void th_bin_close(struct th_bin *b);

/* A process-wide cache of opened binaries, keyed by path, device, inode,
 * size and mtime (a rebuilt file is read again). The binary stays owned by
 * the cache. Return: the binary, or NULL with @err. */
struct th_bin *th_bin_cached(const char *path, char *err, size_t n);
void th_bin_cache_clear(void);

const char *th_bin_path(const struct th_bin *b);
/* p_vaddr of the PT_LOAD that maps file offset 0 (0 for a PIE). A non-PIE
 * that maps no ELF header (a Linux vmlinux: its first PT_LOAD is at file
 * offset 0x200000) has the address offset 0 would have, mapped as the
 * PT_LOAD of the lowest file offset is: its p_vaddr - p_offset. */
uint64_t th_bin_load_vaddr(const struct th_bin *b);
/* 1 for ET_DYN (PIE or shared object), 0 for ET_EXEC. */
int th_bin_is_pie(const struct th_bin *b);

/* Copy @n bytes at @vaddr as the loader maps them (zeros past p_filesz).
 * Return: 0, or -1 when not all of them are inside one PT_LOAD. */
int th_bin_read(const struct th_bin *b, uint64_t vaddr, void *buf, size_t n);
/* The pointer-sized word at @vaddr as the dynamic loader leaves it: a
 * R_X86_64_RELATIVE relocation's addend (file address) where there is one.
 * Return: 0, or -1. */
int th_bin_read_ptr(const struct th_bin *b, uint64_t vaddr, uint64_t *val);

/* The bytes the file holds of the executable PT_LOADs: up to @max [lo, hi)
 * ranges of file virtual addresses (p_vaddr, p_vaddr + p_filesz; past
 * p_filesz the loader maps zeros, which hold no code). Return: how many
 * there are. */
size_t th_bin_exec_ranges(const struct th_bin *b, uint64_t *lo, uint64_t *hi, size_t max);
/* 1 if @vaddr is inside an executable PT_LOAD. */
int th_bin_is_exec(const struct th_bin *b, uint64_t vaddr);

/* ---- symbols (.symtab) ------------------------------------------------------------- */

struct th_sym {
	const char *name;
	uint64_t addr;		/* st_value; for an absolute symbol, its value */
	uint64_t size;
	unsigned char type;	/* STT_FUNC, STT_OBJECT, ... */
	unsigned char bind;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	unsigned char absolute;	/* SHN_ABS: a value, not an address */
};

/* Every defined symbol with a name, in .symtab order. */
size_t th_bin_nsyms(const struct th_bin *b);
const struct th_sym *th_bin_sym(const struct th_bin *b, size_t i);
/* Symbols named exactly @name, in .symtab order (a lookup in a name index):
 * up to @max into @out. Return: how many exist. */
size_t th_bin_find_syms(const struct th_bin *b, const char *name, const struct th_sym **out,
			size_t max);
/* The smallest FUNC symbol containing @vaddr; NULL if none. */
const struct th_sym *th_bin_func_containing(const struct th_bin *b, uint64_t vaddr);
/* A FUNC symbol starting exactly at @vaddr (with cfi-icall, the jump-table
 * entry `f` rather than the body `f.cfi`; without, the function); NULL if none. */
const struct th_sym *th_bin_func_at(const struct th_bin *b, uint64_t vaddr);
/* Every FUNC symbol (not absolute, any size) starting exactly at @vaddr, in
 * .symtab order: up to @max into @out. Return: how many exist. */
size_t th_bin_funcs_at(const struct th_bin *b, uint64_t vaddr, const struct th_sym **out,
		       size_t max);

/* .kcfi_traps (a vmlinux: __kcfi_traps; several such sections are joined):
 * every trap address they list. Return: 1 if @vaddr is one. */
int th_bin_is_kcfi_trap(const struct th_bin *b, uint64_t vaddr);
size_t th_bin_kcfi_trap_count(const struct th_bin *b);

/* ---- call sites and their checks ----------------------------------------------------- */

/* enum th_cfi_scheme and th_cfi_scheme_name(): cfi_scheme.h. */

enum th_guard_kind {
	TH_GUARD_TRAP,		/* ud1 or ud2: the process gets SIGILL there */
	TH_GUARD_HANDLER,	/* a call into the sanitizer runtime, which reports and exits */
};

struct th_guard {
	uint64_t addr;		/* the ud1/ud2, or the call instruction to the handler */
	uint64_t branch;	/* the conditional branch whose failure side leads here
				 * (two checks sharing one trap: a guard each) */
	enum th_guard_kind kind;
	char insn[8];		/* "ud1", "ud2", "call" */
	char handler[64];	/* TH_GUARD_HANDLER: the runtime function called */
	int target_reg;		/* register holding the call target at addr; TH_NOREG */
	int kcfi_listed;	/* addr is listed in .kcfi_traps */
	/* TH_GUARD_HANDLER: the diagnostic's source location and type, read from
	 * the handler's static data (file "" when unreadable). */
	char file[256];
	unsigned line, column;
	char type[128];
};

#define TH_SITE_MAX_GUARDS 8

struct th_call_site {
	uint64_t addr;		/* the indirect call or jump instruction */
	unsigned size;		/* its length in bytes */
	int is_jump;		/* jmp (a tail call, or a switch), not call */
	char insn[48];		/* "jmp rax", "call qword ptr [rdi + 0x18]" */
	int target_reg;		/* register holding the target at addr; TH_NOREG: memory */
	int reached;		/* some path from the entry reached it */
	int from_table;		/* a jump to an address read from a table in the binary:
				 * a switch statement, not a call through a pointer */
	enum th_cfi_scheme scheme;
	size_t nguards;
	struct th_guard guards[TH_SITE_MAX_GUARDS];
	char why[160];		/* TH_CFI_NONE / TH_CFI_UNKNOWN: what was found instead */

	/* TH_CFI_ICALL: the jump table of the admitted type. */
	struct {
		char type_id[160];	/* `_ZTSFvmE` of __typeid__ZTSFvmE_global_addr; "" unknown */
		uint64_t global_addr;	/* __typeid_<type>_global_addr */
		uint64_t table;		/* first admitted entry */
		unsigned entry_size;	/* 1 << __typeid_<type>_align */
		unsigned entries;	/* admitted entries, contiguous from table */
	} icall;
	/* TH_CFI_KCFI: the hash the call site requires at T + offset (-4). */
	struct {
		uint32_t hash;
		int offset;
		int known;
	} kcfi;
	/* TH_CFI_FUNCTION: the signature word at T-8 and the type hash at T-4. */
	struct {
		uint32_t signature, hash;
		int known;
	} function;

	const void *priv;	/* the decoded check (internal) */
};

/* A direct call of the function, or a tail jump out of it, as one path
 * reaches it: one record per place and argument values (at most 1024). */
struct th_direct_call {
	uint64_t addr;		/* the call or jmp instruction */
	uint64_t callee;	/* its destination (file address) */
	int is_jump;		/* a tail call */
	const void *priv;	/* the argument expressions (internal) */
};

struct th_func_sites {
	char func[128];
	uint64_t start, size;	/* the FUNC symbol */
	size_t nsites;
	struct th_call_site *sites;
	size_t ncalls;
	const struct th_direct_call *calls;	/* in the order paths reach them */
	int complete;		/* every path ended inside the limits */
	void *priv;
};

/*
 * Every indirect call of the function named exactly @func and the checks
 * guarding each. The result is owned by @b (computed once per name) and lives
 * until th_bin_close(). A function with no indirect call has nsites 0.
 * Return: the sites, or NULL with @err: no .symtab (a stripped binary), no
 * function of that name (close names listed), several of that name, or bytes
 * that cannot be read or decoded.
 */
const struct th_func_sites *th_bin_call_sites(struct th_bin *b, const char *func, char *err,
					      size_t n);

/*
 * The same for the function of symbol @fn (a FUNC symbol of @b, as
 * th_bin_funcs_at() gives it: no name lookup, so a static function whose
 * name other files share is read too), not cached: the caller owns the
 * result (th_func_sites_free), and @b must stay open while it is used.
 * Return: the sites, or NULL with @err.
 */
struct th_func_sites *th_bin_func_sites(struct th_bin *b, const struct th_sym *fn, char *err,
					size_t n);
void th_func_sites_free(struct th_func_sites *fs);

/* Which guard of @s sits at @addr (file address). Return: it, or NULL. */
const struct th_guard *th_site_guard_at(const struct th_call_site *s, uint64_t addr);

/* Reads @n bytes of the process at run-time @addr. Return: 0, or -1. */
typedef int th_mem_read_fn(void *ctx, uint64_t addr, void *buf, size_t n);

/* Where expressions are evaluated: the file (all zero: loads read the file
 * image), or a live process (bias, its memory, its registers at the entry
 * of the function). A tracer reads another process (runner/child.c); a
 * program can ask about itself (an in-process oracle): bias =
 * (uintptr_t)__ehdr_start - th_bin_load_vaddr(b) for its main binary, and
 * a read function that copies from its own memory. */
struct th_eval_ctx {
	uint64_t bias;			/* run-time address - file address */
	th_mem_read_fn *read;		/* NULL: the file image */
	void *read_ctx;
	const uint64_t *entry_regs;	/* [TH_NREGS] at the function's entry, or NULL */
};

/*
 * Does the check of @s let a call to @target through? @target is a run-time
 * address (a file address when @cx is NULL or has bias 0). Every condition on
 * the target is evaluated exactly as the instructions compute it, loads
 * included. Return: 1 admitted (also for an unguarded site), 0 the check
 * fails (a guard is reached), -1 cannot tell (a load outside the image, or a
 * condition that also depends on values not known here).
 */
int th_site_admits(const struct th_call_site *s, uint64_t target, const struct th_eval_ctx *cx);

/*
 * The same, for the check that guard @g stands behind: only the paths to @s
 * that pass @g's branch (the check whose failure side leads to @g). One
 * call instruction can sit behind several checks (two calls of one
 * function merged by the compiler, each path with its own type check:
 * 6.1's tasklet_action_common() under cfi-icall), and a trap at @g was
 * reached from its own check, whatever the others admit. With no path
 * through @g's branch: th_site_admits().
 */
struct th_guard;
int th_guard_admits(const struct th_call_site *s, const struct th_guard *g, uint64_t target,
		    const struct th_eval_ctx *cx);

/*
 * How a call passes the object its target is read from: @s's target is a
 * word of some object (a load of *(obj + k)), and its first argument is
 * TH_CALL_ARG_OBJECT: that object itself (t->callback(t), fn(timer)),
 * TH_CALL_ARG_FIELD: another word of the same object (t->func(t->data)),
 * TH_CALL_ARG_OTHER: neither (the target not a load, or the argument not
 * from that object: call_timer_fn(timer, fn, data)'s fn(data)).
 */
enum th_call_arg { TH_CALL_ARG_OTHER, TH_CALL_ARG_OBJECT, TH_CALL_ARG_FIELD };

/* "fn(obj)", "fn(obj->word)", "fn(?)". */
const char *th_call_arg_name(enum th_call_arg a);

/* One call an instruction makes (th_site_calls): its paths of one shape. */
struct th_site_call {
	struct th_call_site *site;	/* @s reduced to these paths */
	enum th_call_arg arg;
	int64_t target_off;	/* the target is *(obj + target_off) */
	int64_t arg_off;	/* OBJECT: arg0 = obj + arg_off; FIELD: *(obj + arg_off) */
	size_t npaths;		/* paths from the entry that make this call */
	void *own;		/* internal */
};

/*
 * The calls the one instruction @s makes, told apart by how each passes its
 * object (enum th_call_arg): where the compiler merged two calls of one
 * function into one instruction (tasklet_action_common()'s t->callback(t)
 * and t->func(t->data), under cfi-icall or with no CFI at all: one
 * `call rax`, each path with its own type check), each is a call site of
 * its own: a copy of @s reduced to its paths, its guards those that stand on
 * them, its scheme, jump table, hash and th_site_admits() that path's check
 * alone (what th_guard_admits() answers for its guard), never the union.
 * A site whose paths all pass the object alike is one call, @s as it is.
 * Return: how many calls (up to @max into @out; each freed with
 * th_site_call_free(), while @s's analysis lives), 0 when out of memory.
 */
size_t th_site_calls(const struct th_call_site *s, struct th_site_call *out, size_t max);
void th_site_call_free(struct th_site_call *c);

/*
 * The call target of @s computed from the state at the function's entry
 * (@cx->entry_regs required; memory through @cx->read): what a breakpoint at
 * the entry learns. Return: 0 with *@target (run-time), or -1.
 */
int th_site_target(const struct th_call_site *s, const struct th_eval_ctx *cx, uint64_t *target);

/* An argument (@argno 0..5: rdi, rsi, rdx, rcx, r8, r9) of the indirect
 * call @s, as the first path to it computes it; otherwise as th_site_target().
 * Return: 0 with *@val, or -1. */
int th_site_arg(const struct th_call_site *s, int argno, const struct th_eval_ctx *cx,
		uint64_t *val);

/*
 * An argument of @c (@argno 0..5: rdi, rsi, rdx, rcx, r8, r9) at the call,
 * computed from the state at the function's entry (@cx->entry_regs
 * required; memory through @cx->read), as th_site_target() does for an
 * indirect call's target. Return: 0 with *@val, or -1 (not computable).
 */
int th_call_arg(const struct th_direct_call *c, int argno, const struct th_eval_ctx *cx,
		uint64_t *val);

/* The check in one line: "kcfi: hash 0x5391e36d at T-4, ud2 at 0x900c (.kcfi_traps)". */
void th_site_describe(const struct th_call_site *s, char *buf, size_t n);

/* The destination of the direct jmp or call at @vaddr (decoded with
 * capstone): how a cfi-icall jump-table entry names the body it forwards
 * to. Return: 0 with *@target (file address), or -1 when the instruction
 * there is not a direct jmp or call (or cannot be read). */
int th_bin_direct_branch(const struct th_bin *b, uint64_t vaddr, uint64_t *target);

/* ---- one instruction ------------------------------------------------------------- */

/* One instruction of the file, decoded with capstone: what a tracer needs
 * to prove that a turn of a loop changes nothing (runner/child.c: a soft
 * lockup is a turn that writes no memory and leaves every register as it
 * found it). */
struct th_insn {
	unsigned len;
	char text[64];		/* "mov eax, dword ptr [rdi + 0x14]" */
	/* 0 only for an instruction known to change nothing but registers and
	 * flags: a move into a register, a compare, arithmetic on a register,
	 * a jump, pause, nop (an allow-list; its memory operand, if any, only
	 * read). 1 for everything else: a store, push, call, ret, string
	 * operation, lock prefix, syscall, interrupt, trap, or an instruction
	 * not on the list. */
	int writes;
	/* Its memory operand, when it reads one (not lea's, not nop's): */
	int mem_read;
	unsigned mem_size;	/* bytes */
	int base, index;	/* enum th_reg, or TH_NOREG */
	int rip_rel;		/* base is rip: the address is from the next instruction */
	int segment;		/* an fs or gs override: the address is not base + index + disp */
	unsigned scale;
	int64_t disp;
	/* The memory it writes, when that is one rip-relative operand (an
	 * instrumentation counter: `inc byte ptr [rip + disp]`): its file
	 * address; 0 otherwise. */
	uint64_t write_at;
	/* The status flags it reads and those it sets for sure (EFLAGS bit
	 * positions: CF 0x1, PF 0x4, AF 0x10, ZF 0x40, SF 0x80, OF 0x800); a
	 * flag it leaves undefined is not counted as set. */
	unsigned flags_read, flags_written;
};

/* Decode the instruction at file address @vaddr. Return: 0, or -1 when its
 * bytes are not in the file or do not decode. */
int th_bin_insn(const struct th_bin *b, uint64_t vaddr, struct th_insn *out);

/* Which CFI schemes leave tables in the binary (a bit per th_cfi_scheme):
 * .kcfi_traps entries (kcfi), __typeid_*_global_addr symbols (cfi-icall). The
 * function sanitizer leaves none: only its call sites show it. 0 with no
 * such table: a binary built without kcfi and cfi-icall. */
unsigned th_bin_cfi_schemes(const struct th_bin *b);

#endif

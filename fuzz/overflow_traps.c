/* SPDX-License-Identifier: MIT */
#include "overflow_traps.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cfi/elf_traps.h"

/* Defined by the linker at the ELF header of the executable. */
extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

static void add(struct th_fz_traps *t, const struct th_elf *e, uint64_t vaddr)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->vaddr[i] == vaddr)
			return;
	if (t->n == TH_FZ_TRAPS_MAX)
		return;
	t->vaddr[t->n] = vaddr;
	t->pc[t->n++] = (uintptr_t)(vaddr - e->ehdr_vaddr) + (uintptr_t)__ehdr_start;
}

/* The targets of the conditional jumps in code[0..n) (at vaddr base), and
 * the addresses right after them: where a check's failure path starts. */
static int jcc_reaches(const unsigned char *code, size_t n, uint64_t base, uint64_t at)
{
	for (size_t i = 0; i + 2 <= n; i++) {
		uint64_t end, target;

		if (code[i] >= 0x70 && code[i] <= 0x7f) {		/* jcc rel8 */
			end = base + i + 2;
			target = end + (uint64_t)(int64_t)(int8_t)code[i + 1];
		} else if (code[i] == 0x0f && code[i + 1] >= 0x80 && code[i + 1] <= 0x8f &&
			   i + 6 <= n) {				/* jcc rel32 */
			int32_t rel;

			memcpy(&rel, code + i + 2, 4);
			end = base + i + 6;
			target = end + (uint64_t)(int64_t)rel;
		} else {
			continue;
		}
		if (target == at || end == at)
			return 1;
	}
	return 0;
}

/* 67 0F B9 40 02: ud1l 0x2(%eax), %eax, LLVM's llvm.ubsantrap(2), 2 being
 * clang's SanitizerHandler CFICheckFail: the trap a cfi-icall check jumps
 * to in trap mode (clang 14 and 22 alike), whatever instrumentation (a
 * coverage counter) sits between the check's branch and it. */
static int is_cfi_check_fail(const unsigned char *b, size_t n)
{
	static const unsigned char ud1_cfi[] = { 0x67, 0x0f, 0xb9, 0x40, 0x02 };

	return n >= sizeof(ud1_cfi) && !memcmp(b, ud1_cfi, sizeof(ud1_cfi));
}

int th_fz_traps_load(const char *path, struct th_fz_traps *t, char *err, size_t n)
{
	struct th_elf e;
	const Elf64_Sym *syms;
	size_t funcs = 0;

	memset(t, 0, sizeof(*t));
	if (!path)
		path = "/proc/self/exe";
	if (th_elf_open(&e, path, err, n))
		return -1;
	syms = e.symtab;
	for (size_t i = 0; i < e.nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		unsigned char code[256];
		const char *name;
		size_t size;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size || s->st_shndx == SHN_UNDEF ||
		    s->st_name >= e.strtab_size)
			continue;
		name = e.strtab + s->st_name;
		if (!memchr(name, 0, e.strtab_size - s->st_name) || !strstr(name, TH_FZ_DISPATCH_FUNC))
			continue;
		funcs++;
		size = s->st_size < sizeof(code) ? s->st_size : sizeof(code);
		if (th_elf_read(&e, s->st_value, code, size))
			continue;
		for (size_t off = 0; off + 2 <= size; off++) {
			uint64_t at = s->st_value + off;

			if (e.has_kcfi) {
				if (th_elf_is_kcfi_trap(&e, at))
					add(t, &e, at);
			} else if (is_cfi_check_fail(code + off, size - off) ||
				   (th_x86_trap_insn(code + off, size - off) &&
				    (off == 0 || (code[off - 1] != 0x66 && code[off - 1] != 0x67)) &&
				    jcc_reaches(code, size, s->st_value, at))) {
				add(t, &e, at);
			}
		}
	}
	if (!funcs) {
		snprintf(err, n, "%s: no function named %s in its symbol table", path,
			 TH_FZ_DISPATCH_FUNC);
		th_elf_close(&e);
		return -1;
	}
	snprintf(t->how, sizeof(t->how), "%s: %zu trap%s in %s", e.has_kcfi ? "kcfi (.kcfi_traps)" :
		 "cfi-icall (ud1/ud2 on a check's failure path)", t->n, t->n == 1 ? "" : "s",
		 TH_FZ_DISPATCH_FUNC);
	th_elf_close(&e);
	return 0;
}

int th_fz_traps_is_dispatch(const struct th_fz_traps *t, uintptr_t pc)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pc[i] == pc)
			return 1;
	return 0;
}

size_t th_fz_elf_object_size(const char *name)
{
	struct th_elf e;
	char err[256];
	const Elf64_Sym *syms;
	size_t size = 0;

	if (th_elf_open(&e, "/proc/self/exe", err, sizeof(err)))
		return 0;
	syms = e.symtab;
	for (size_t i = 0; i < e.nsyms && !size; i++)
		if (ELF64_ST_TYPE(syms[i].st_info) == STT_OBJECT && syms[i].st_name < e.strtab_size &&
		    memchr(e.strtab + syms[i].st_name, 0, e.strtab_size - syms[i].st_name) &&
		    !strcmp(e.strtab + syms[i].st_name, name))
			size = syms[i].st_size;
	th_elf_close(&e);
	return size;
}

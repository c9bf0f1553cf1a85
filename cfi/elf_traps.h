/* SPDX-License-Identifier: MIT */
/*
 * A small ELF64 reader (no libelf) that proves a trap address is a CFI check
 * site of the binary that ran. Only linked little-endian ELF64 files (ET_EXEC,
 * ET_DYN); every offset is bounds-checked, so any file may be given.
 *
 * Run-time pc to file address: vaddr = pc - ehdr_runtime + ehdr_vaddr, where
 * ehdr_runtime is the TH-TRAP line's ehdr= (the run-time __ehdr_start) and
 * ehdr_vaddr the p_vaddr of the first PT_LOAD with p_offset 0 (0 for PIE).
 *
 * Proofs:
 *  - kcfi: vaddr is listed in .kcfi_traps (each entry an int32 offset relative
 *    to the entry's own address).
 *  - cfi-icall, trap mode: the bytes at vaddr in the file are ud1 (0F B9) or
 *    ud2 (0F 0B), optionally after 66/67 prefixes (LLVM emits 67 0F B9 40 xx),
 *    AND the FUNC symbol containing vaddr has a name containing the expected
 *    check-site function (call_timer_fn, probe_call), LTO suffixes allowed.
 * Anything else is not proven.
 */
#ifndef TH_CFI_ELF_TRAPS_H
#define TH_CFI_ELF_TRAPS_H

#include <stddef.h>
#include <stdint.h>

struct th_elf {
	unsigned char *data; /* the whole file */
	size_t size;
	uint64_t ehdr_vaddr;
	const void *phdr; /* Elf64_Phdr[phnum] */
	size_t phnum;
	const void *symtab; /* Elf64_Sym[nsyms], .symtab (or .dynsym) */
	size_t nsyms;
	const char *strtab;
	size_t strtab_size;
	uint64_t kcfi_addr; /* .kcfi_traps: sh_addr, contents, size */
	const unsigned char *kcfi;
	size_t kcfi_size;
	int has_kcfi;
};

/* Read and index path. Return: 0, or -1 with err naming the problem. */
int th_elf_open(struct th_elf *e, const char *path, char *err, size_t n);
void th_elf_close(struct th_elf *e);

/* File address of a run-time pc. */
uint64_t th_elf_vaddr(const struct th_elf *e, uint64_t pc, uint64_t ehdr_runtime);

/* Copy n bytes at vaddr from the file image of a PT_LOAD segment.
 * Return: 0, or -1 when not all of them are in the file. */
int th_elf_read(const struct th_elf *e, uint64_t vaddr, void *buf, size_t n);

/* Name of the FUNC symbol (with a size) containing vaddr, the smallest if
 * several; *start (optional) gets its address. Return: NULL if none. */
const char *th_elf_func_at(const struct th_elf *e, uint64_t vaddr, uint64_t *start);

/* Return: 1 if vaddr is listed in .kcfi_traps, 0 if not or no such section. */
int th_elf_is_kcfi_trap(const struct th_elf *e, uint64_t vaddr);
/* Number of entries in .kcfi_traps (0 without the section). */
size_t th_elf_kcfi_trap_count(const struct th_elf *e);

/* "ud1", "ud2", or NULL: the x86 trap instruction starting at b[0..n). */
const char *th_x86_trap_insn(const unsigned char *b, size_t n);

enum th_cfi_site {
	TH_SITE_NONE,
	TH_SITE_KCFI,      /* listed in .kcfi_traps */
	TH_SITE_CFI_ICALL, /* ud1/ud2 in the expected check-site function */
};

#define TH_PROOF_KCFI 1u
#define TH_PROOF_CFI_ICALL 2u

struct th_trap_proof {
	enum th_cfi_site kind;
	uint64_t vaddr;
	char insn[8];   /* "ud1", "ud2", "" */
	char func[128]; /* containing function, "" if unknown */
	char why[192];  /* when not proven: what was found instead */
};

/*
 * Prove that the trap at run-time pc (with run-time ELF header ehdr_runtime)
 * in the binary at path is a CFI check site. proofs: TH_PROOF_* tried, kcfi
 * first. site_func: substring the containing function's name must have for a
 * cfi-icall proof. rt_bytes (optional, rt_n of them): the bytes read at pc at
 * run time; if given and different from the file, nothing is proven (the file
 * is not the binary that ran).
 * Return: 1 proven (out->kind, out->func), 0 not proven or the file is
 * unreadable (out->why).
 */
int th_elf_prove_cfi_site(const char *path, uint64_t pc, uint64_t ehdr_runtime,
			  unsigned proofs, const char *site_func,
			  const unsigned char *rt_bytes, size_t rt_n,
			  struct th_trap_proof *out);

#endif

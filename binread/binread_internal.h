/* SPDX-License-Identifier: MIT */
/* Internals shared by binread_elf.c (the file) and binread_x86.c (the code). */
#ifndef TH_CFI_BINREAD_INTERNAL_H
#define TH_CFI_BINREAD_INTERNAL_H

#include <gelf.h>

#include "binread.h"

struct th_bin_rel {
	uint64_t where, addend;		/* R_X86_64_RELATIVE */
};

struct th_bin_sitecache {
	char *func;
	struct th_func_sites *fs;
};

struct th_bin {
	char *path;
	unsigned char *data;		/* the whole file */
	size_t size;
	Elf *elf;
	int pie;
	uint64_t load_vaddr;
	GElf_Phdr *ph;
	size_t nph;
	int has_symtab;
	struct th_sym *syms;
	size_t nsyms;
	size_t *funcs;			/* indices of sized FUNC symbols, by address */
	size_t nfuncs;
	uint64_t *funcs_end;		/* [k]: the largest end of funcs[0..k] */
	size_t *at;			/* indices of FUNC symbols (any size, not
					 * absolute), by address then symtab order */
	size_t nat;
	size_t *byname;			/* indices of every symbol, by name then
					 * symtab order */
	unsigned cfi_schemes;		/* th_bin_cfi_schemes(), computed once */
	uint64_t *kcfi;			/* .kcfi_traps targets, sorted */
	size_t nkcfi;
	int has_kcfi;
	struct th_bin_rel *rel;		/* sorted by where */
	size_t nrel;
	struct th_bin_sitecache *sc;
	size_t nsc;
};

/* binread_x86.c: analyse one function (sym) into a new th_func_sites. */
struct th_func_sites *th_bin_analyse(struct th_bin *b, const struct th_sym *fn, char *err,
				     size_t n);

#endif

/* SPDX-License-Identifier: MIT */
/* The ELF side of the binary reader (binread.h), through libelf. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binread_internal.h"
#include "lib/fs.h"
#include "lib/stats.h"

const char *th_reg_name(int reg)
{
	static const char *const names[TH_NREGS] = {
		"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	};

	return reg >= 0 && reg < TH_NREGS ? names[reg] : "?";
}

/* The file is mapped, not read: a mapping of a file adds nothing a fork(2)
 * must copy, where a heap copy of every binary the runner has read would
 * make each child's fork slower. */
static int load_file(struct th_bin *b, const char *path, char *err, size_t n)
{
	struct stat st;
	const char *why;
	/* Never blocks: a FIFO or a device is refused before it is read. */
	int fd = th_open_read(path, &why);
	void *p;

	if (fd < 0) {
		snprintf(err, n, "%s: cannot open: %s", path, why);
		return -1;
	}
	if (fstat(fd, &st) || st.st_size <= 0) {
		snprintf(err, n, "%s: an empty file, not an ELF binary", path);
		close(fd);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, n, "%s: cannot map %lld bytes: %s", path, (long long)st.st_size,
			 strerror(errno));
		return -1;
	}
	b->data = p;
	b->size = (size_t)st.st_size;
	return 0;
}

static int cmp_rel(const void *a, const void *b)
{
	return th_cmp_u64(&((const struct th_bin_rel *)a)->where, &((const struct th_bin_rel *)b)->where);
}

/* qsort() with nothing to sort may be given a NULL base: that is undefined
 * (glibc declares the base nonnull), so nothing is called then. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* For qsort of symbol indices: the symbol array travels in a static. */
static const struct th_sym *sort_syms;

/* By address, then size; equal ones in symtab order (the index). */
static int cmp_func(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct th_sym *x = &sort_syms[i], *y = &sort_syms[j];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* By address; equal ones in symtab order. */
static int cmp_at(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct th_sym *x = &sort_syms[i], *y = &sort_syms[j];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* By name; equal ones in symtab order. */
static int cmp_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int r = strcmp(sort_syms[i].name, sort_syms[j].name);

	return r ? r : i < j ? -1 : i > j;
}

static int read_symtab(struct th_bin *b, Elf_Scn *scn, const GElf_Shdr *sh, char *err, size_t n)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!d) {
		snprintf(err, n, "%s: .symtab unreadable: %s", b->path, elf_errmsg(-1));
		return -1;
	}
	b->syms = calloc(count ? count : 1, sizeof(*b->syms));
	b->funcs = calloc(count ? count : 1, sizeof(*b->funcs));
	b->funcs_end = calloc(count ? count : 1, sizeof(*b->funcs_end));
	b->at = calloc(count ? count : 1, sizeof(*b->at));
	b->byname = calloc(count ? count : 1, sizeof(*b->byname));
	if (!b->syms || !b->funcs || !b->funcs_end || !b->at || !b->byname) {
		snprintf(err, n, "%s: out of memory", b->path);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		GElf_Sym s;
		const char *name;
		struct th_sym *t;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF || !s.st_name)
			continue;
		name = elf_strptr(b->elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		t = &b->syms[b->nsyms];
		*t = (struct th_sym){ .name = name, .addr = s.st_value, .size = s.st_size,
				      .type = GELF_ST_TYPE(s.st_info),
				      .bind = GELF_ST_BIND(s.st_info),
				      .absolute = s.st_shndx == SHN_ABS };
		if (t->type == STT_FUNC && t->size && !t->absolute)
			b->funcs[b->nfuncs++] = b->nsyms;
		if (t->type == STT_FUNC && !t->absolute)
			b->at[b->nat++] = b->nsyms;
		b->byname[b->nsyms] = b->nsyms;
		b->nsyms++;
		if (!strncmp(name, "__typeid_", 9) && strlen(name) > 21 &&
		    !strcmp(name + strlen(name) - 12, "_global_addr"))
			b->cfi_schemes |= 1u << TH_CFI_ICALL;
	}
	sort_syms = b->syms;
	sort(b->funcs, b->nfuncs, sizeof(*b->funcs), cmp_func);
	sort(b->at, b->nat, sizeof(*b->at), cmp_at);
	sort(b->byname, b->nsyms, sizeof(*b->byname), cmp_name);
	for (size_t k = 0; k < b->nfuncs; k++) {
		const struct th_sym *f = &b->syms[b->funcs[k]];
		uint64_t end = f->addr + f->size;

		b->funcs_end[k] = k && b->funcs_end[k - 1] > end ? b->funcs_end[k - 1] : end;
	}
	b->has_symtab = 1;
	return 0;
}

/* Is @name a section of kcfi trap addresses: .kcfi_traps as the compiler
 * emits it, or __kcfi_traps, the output section a Linux vmlinux collects
 * them into (include/asm-generic/vmlinux.lds.h, KCFI_TRAPS)? */
static int kcfi_section(const char *name)
{
	return name && (!strcmp(name, ".kcfi_traps") || !strcmp(name, "__kcfi_traps"));
}

/* A trap section: int32 offsets, each relative to its own address. A binary
 * may hold several (a relocatable link, a linker script that keeps them
 * apart): their entries are appended. */
static int read_kcfi(struct th_bin *b, Elf_Scn *scn, const GElf_Shdr *sh, char *err, size_t n)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_size / 4;
	uint64_t *grown;

	b->has_kcfi = 1;
	if (!d || d->d_size < count * 4) {
		snprintf(err, n, "%s: .kcfi_traps unreadable", b->path);
		return -1;
	}
	if (count > SIZE_MAX / sizeof(*b->kcfi) - b->nkcfi - 1 ||
	    !(grown = realloc(b->kcfi, (b->nkcfi + count + 1) * sizeof(*b->kcfi)))) {
		snprintf(err, n, "%s: out of memory", b->path);
		return -1;
	}
	b->kcfi = grown;
	for (size_t i = 0; i < count; i++) {
		const unsigned char *p = (const unsigned char *)d->d_buf + 4 * i;
		int32_t rel = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
					(uint32_t)p[3] << 24);

		b->kcfi[b->nkcfi++] = sh->sh_addr + 4 * i + (uint64_t)(int64_t)rel;
	}
	return 0;
}

static int read_relas(struct th_bin *b, Elf_Scn *scn, const GElf_Shdr *sh, char *err, size_t n)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	struct th_bin_rel *grown;

	if (!d)
		return 0;
	grown = realloc(b->rel, (b->nrel + count + 1) * sizeof(*b->rel));
	if (!grown) {
		snprintf(err, n, "%s: out of memory", b->path);
		return -1;
	}
	b->rel = grown;
	for (size_t i = 0; i < count; i++) {
		GElf_Rela r;

		if (gelf_getrela(d, (int)i, &r) && GELF_R_TYPE(r.r_info) == R_X86_64_RELATIVE)
			b->rel[b->nrel++] = (struct th_bin_rel){ r.r_offset, (uint64_t)r.r_addend };
	}
	return 0;
}

static int index_sections(struct th_bin *b, char *err, size_t n)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(b->elf, &shstrndx)) {
		snprintf(err, n, "%s: no section name table: %s", b->path, elf_errmsg(-1));
		return -1;
	}
	while ((scn = elf_nextscn(b->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(b->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB && !b->has_symtab && read_symtab(b, scn, &sh, err, n))
			return -1;
		if (kcfi_section(name) && sh.sh_type != SHT_NOBITS && read_kcfi(b, scn, &sh, err, n))
			return -1;
		if (sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC) &&
		    read_relas(b, scn, &sh, err, n))
			return -1;
	}
	sort(b->rel, b->nrel, sizeof(*b->rel), cmp_rel);
	sort(b->kcfi, b->nkcfi, sizeof(*b->kcfi), th_cmp_u64);
	if (b->nkcfi)
		b->cfi_schemes |= 1u << TH_CFI_KCFI;
	return 0;
}

int th_bin_open(const char *path, struct th_bin **out, char *err, size_t n)
{
	struct th_bin *b = calloc(1, sizeof(*b));
	GElf_Ehdr eh;
	int found = 0;
	const GElf_Phdr *lowest = NULL;

	*out = NULL;
	if (!b || !(b->path = strdup(path))) {
		snprintf(err, n, "%s: out of memory", path);
		free(b);
		return -1;
	}
	if (load_file(b, path, err, n))
		goto fail;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, n, "libelf: %s", elf_errmsg(-1));
		goto fail;
	}
	b->elf = elf_memory((char *)b->data, b->size);
	if (!b->elf || elf_kind(b->elf) != ELF_K_ELF || !gelf_getehdr(b->elf, &eh)) {
		snprintf(err, n, "%s: not an ELF file", path);
		goto fail;
	}
	if (gelf_getclass(b->elf) != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64) {
		snprintf(err, n, "%s: not a little-endian x86-64 ELF64 file", path);
		goto fail;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(err, n, "%s: ELF type %u is not a linked executable or shared object", path,
			 eh.e_type);
		goto fail;
	}
	b->pie = eh.e_type == ET_DYN;
	if (elf_getphdrnum(b->elf, &b->nph) || !b->nph ||
	    !(b->ph = calloc(b->nph, sizeof(*b->ph)))) {
		snprintf(err, n, "%s: no program headers", path);
		goto fail;
	}
	for (size_t i = 0; i < b->nph; i++) {
		if (!gelf_getphdr(b->elf, (int)i, &b->ph[i])) {
			snprintf(err, n, "%s: program header %zu unreadable", path, i);
			goto fail;
		}
		if (b->ph[i].p_type == PT_LOAD && b->ph[i].p_offset == 0 && !found) {
			b->load_vaddr = b->ph[i].p_vaddr;
			found = 1;
		}
		if (b->ph[i].p_type == PT_LOAD && (!lowest || b->ph[i].p_offset < lowest->p_offset))
			lowest = &b->ph[i];
		if (b->ph[i].p_type == PT_LOAD &&
		    (b->ph[i].p_offset > b->size || b->ph[i].p_filesz > b->size - b->ph[i].p_offset)) {
			snprintf(err, n, "%s: PT_LOAD %zu runs past the end of the file", path, i);
			goto fail;
		}
	}
	/* A Linux vmlinux maps no header: its first PT_LOAD starts at file
	 * offset 0x200000 (or so). Where offset 0 would be, mapped as that one
	 * is, stands in for it; a PIE that maps no header is refused, as its
	 * run-time bias could not be computed from the header's address. */
	if (!found && (b->pie || !lowest)) {
		snprintf(err, n, "%s: no PT_LOAD maps the ELF header (file offset 0)%s", path,
			 lowest ? ", which a position-independent binary needs" : "");
		goto fail;
	}
	if (!found)
		b->load_vaddr = lowest->p_vaddr - lowest->p_offset;
	if (index_sections(b, err, n))
		goto fail;
	*out = b;
	return 0;
fail:
	th_bin_close(b);
	return -1;
}

void th_bin_close(struct th_bin *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nsc; i++) {
		free(b->sc[i].func);
		th_func_sites_free(b->sc[i].fs);
	}
	free(b->sc);
	if (b->elf)
		elf_end(b->elf);
	if (b->data)
		munmap(b->data, b->size);
	free(b->path);
	free(b->ph);
	free(b->syms);
	free(b->funcs);
	free(b->funcs_end);
	free(b->at);
	free(b->byname);
	free(b->kcfi);
	free(b->rel);
	free(b);
}

/* ---- cache ------------------------------------------------------------------------- */

struct cache_entry {
	struct th_bin *b;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};
static struct cache_entry *cache;
static size_t ncache;

struct th_bin *th_bin_cached(const char *path, char *err, size_t n)
{
	struct stat st;
	struct cache_entry *grown;
	struct th_bin *b;

	if (stat(path, &st)) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (size_t i = 0; i < ncache; i++) {
		struct cache_entry *c = &cache[i];

		if (strcmp(c->b->path, path))
			continue;
		if (c->dev == st.st_dev && c->ino == st.st_ino && c->size == st.st_size &&
		    c->mtime.tv_sec == st.st_mtim.tv_sec && c->mtime.tv_nsec == st.st_mtim.tv_nsec)
			return c->b;
		th_bin_close(c->b);
		cache[i] = cache[--ncache];
		break;
	}
	if (th_bin_open(path, &b, err, n))
		return NULL;
	grown = realloc(cache, (ncache + 1) * sizeof(*cache));
	if (!grown) {
		snprintf(err, n, "%s: out of memory", path);
		th_bin_close(b);
		return NULL;
	}
	cache = grown;
	cache[ncache++] = (struct cache_entry){ b, st.st_dev, st.st_ino, st.st_size, st.st_mtim };
	return b;
}

void th_bin_cache_clear(void)
{
	for (size_t i = 0; i < ncache; i++)
		th_bin_close(cache[i].b);
	free(cache);
	cache = NULL;
	ncache = 0;
}

/* ---- contents ---------------------------------------------------------------------- */

const char *th_bin_path(const struct th_bin *b)
{
	return b->path;
}

uint64_t th_bin_load_vaddr(const struct th_bin *b)
{
	return b->load_vaddr;
}

int th_bin_is_pie(const struct th_bin *b)
{
	return b->pie;
}

int th_bin_read(const struct th_bin *b, uint64_t vaddr, void *buf, size_t n)
{
	for (size_t i = 0; i < b->nph; i++) {
		const GElf_Phdr *ph = &b->ph[i];
		uint64_t rel;

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr)
			continue;
		rel = vaddr - ph->p_vaddr;
		if (rel > ph->p_memsz || n > ph->p_memsz - rel)
			continue;
		memset(buf, 0, n);
		if (rel < ph->p_filesz) {
			size_t k = ph->p_filesz - rel < n ? (size_t)(ph->p_filesz - rel) : n;

			memcpy(buf, b->data + ph->p_offset + rel, k);
		}
		return 0;
	}
	return -1;
}

size_t th_bin_exec_ranges(const struct th_bin *b, uint64_t *lo, uint64_t *hi, size_t max)
{
	size_t count = 0;

	for (size_t i = 0; i < b->nph; i++) {
		const GElf_Phdr *ph = &b->ph[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (count < max) {
			lo[count] = ph->p_vaddr;
			hi[count] = ph->p_vaddr + ph->p_filesz;
		}
		count++;
	}
	return count;
}

int th_bin_is_exec(const struct th_bin *b, uint64_t vaddr)
{
	for (size_t i = 0; i < b->nph; i++) {
		const GElf_Phdr *ph = &b->ph[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && vaddr >= ph->p_vaddr &&
		    vaddr - ph->p_vaddr < ph->p_memsz)
			return 1;
	}
	return 0;
}

int th_bin_read_ptr(const struct th_bin *b, uint64_t vaddr, uint64_t *val)
{
	size_t lo = 0, hi = b->nrel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->rel[mid].where < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < b->nrel && b->rel[lo].where == vaddr) {
		*val = b->rel[lo].addend;
		return 0;
	}
	return th_bin_read(b, vaddr, val, sizeof(*val));
}

size_t th_bin_nsyms(const struct th_bin *b)
{
	return b->nsyms;
}

const struct th_sym *th_bin_sym(const struct th_bin *b, size_t i)
{
	return i < b->nsyms ? &b->syms[i] : NULL;
}

size_t th_bin_find_syms(const struct th_bin *b, const char *name, const struct th_sym **out,
			size_t max)
{
	size_t lo = 0, hi = b->nsyms, count = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(b->syms[b->byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < b->nsyms && !strcmp(b->syms[b->byname[i]].name, name); i++) {
		if (count < max)
			out[count] = &b->syms[b->byname[i]];
		count++;
	}
	return count;
}

/* The first index of @v (@n indices of b->syms sorted by address) whose
 * symbol's address is >= @vaddr. */
static size_t first_at(const struct th_bin *b, const size_t *v, size_t n, uint64_t vaddr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->syms[v[mid]].addr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct th_sym *th_bin_func_containing(const struct th_bin *b, uint64_t vaddr)
{
	const struct th_sym *best = NULL;
	size_t k = first_at(b, b->funcs, b->nfuncs, vaddr + 1);

	/* Back from the last function starting at or before vaddr, while some
	 * earlier function still reaches past it (funcs_end: the largest end so
	 * far). Among those containing it, the smallest; the first of equals. */
	while (k-- > 0 && b->funcs_end[k] > vaddr) {
		const struct th_sym *s = &b->syms[b->funcs[k]];

		if (vaddr - s->addr < s->size && (!best || s->size <= best->size))
			best = s;
	}
	return best;
}

const struct th_sym *th_bin_func_at(const struct th_bin *b, uint64_t vaddr)
{
	const struct th_sym *best = NULL;

	for (size_t k = first_at(b, b->at, b->nat, vaddr);
	     k < b->nat && b->syms[b->at[k]].addr == vaddr; k++) {
		const struct th_sym *s = &b->syms[b->at[k]];

		/* A global name over a local alias; among equals the first. */
		if (!best || (best->bind == STB_LOCAL && s->bind != STB_LOCAL))
			best = s;
	}
	return best;
}

size_t th_bin_funcs_at(const struct th_bin *b, uint64_t vaddr, const struct th_sym **out,
		       size_t max)
{
	size_t count = 0;

	for (size_t k = first_at(b, b->at, b->nat, vaddr);
	     k < b->nat && b->syms[b->at[k]].addr == vaddr; k++) {
		if (count < max)
			out[count] = &b->syms[b->at[k]];
		count++;
	}
	return count;
}

int th_bin_is_kcfi_trap(const struct th_bin *b, uint64_t vaddr)
{
	return b->nkcfi && bsearch(&vaddr, b->kcfi, b->nkcfi, sizeof(*b->kcfi), th_cmp_u64) != NULL;
}

size_t th_bin_kcfi_trap_count(const struct th_bin *b)
{
	return b->nkcfi;
}

unsigned th_bin_cfi_schemes(const struct th_bin *b)
{
	return b->cfi_schemes;
}

struct th_func_sites *th_bin_func_sites(struct th_bin *b, const struct th_sym *fn, char *err,
					size_t n)
{
	if (fn->type != STT_FUNC || !fn->size || fn->absolute) {
		snprintf(err, n, "%s: %s is no function with a size", b->path, fn->name);
		return NULL;
	}
	return th_bin_analyse(b, fn, err, n);
}

const struct th_func_sites *th_bin_call_sites(struct th_bin *b, const char *func, char *err,
					      size_t n)
{
	const struct th_sym *found[4], *fn = NULL;
	struct th_bin_sitecache *grown;
	struct th_func_sites *fs;
	size_t count, funcs = 0;

	for (size_t i = 0; i < b->nsc; i++)
		if (!strcmp(b->sc[i].func, func))
			return b->sc[i].fs;
	if (!b->has_symtab) {
		snprintf(err, n, "%s: no .symtab (a stripped binary): functions cannot be found by name",
			 b->path);
		return NULL;
	}
	count = th_bin_find_syms(b, func, found, 4);
	for (size_t i = 0; i < count && i < 4; i++)
		if (found[i]->type == STT_FUNC && found[i]->size && !found[i]->absolute) {
			fn = found[i];
			funcs++;
		}
	if (funcs > 1) {
		snprintf(err, n, "%s: %zu functions are named '%s' (static functions of several files): "
			 "the name does not say which", b->path, funcs, func);
		return NULL;
	}
	if (!fn) {
		char near[256] = "";
		size_t len = strlen(func), k = 0;

		/* Close names: an LTO or compiler suffix (".cfi", ".llvm.123"). */
		for (size_t i = 0; i < b->nsyms && k < 4; i++)
			if (!strncmp(b->syms[i].name, func, len) && b->syms[i].name[len] == '.' &&
			    b->syms[i].type == STT_FUNC) {
				size_t used = strlen(near);

				snprintf(near + used, sizeof(near) - used, "%s%s", k++ ? ", " : "",
					 b->syms[i].name);
			}
		snprintf(err, n, "%s: no function named exactly '%s'%s%s", b->path, func,
			 k ? " (there is: " : "", k ? near : "");
		if (k) {
			size_t used = strlen(err);

			snprintf(err + used, n - used, ")");
		}
		return NULL;
	}
	fs = th_bin_analyse(b, fn, err, n);
	if (!fs)
		return NULL;
	grown = realloc(b->sc, (b->nsc + 1) * sizeof(*b->sc));
	if (!grown || !(grown[b->nsc].func = strdup(func))) {
		if (grown)
			b->sc = grown;
		th_func_sites_free(fs);
		snprintf(err, n, "%s: out of memory", b->path);
		return NULL;
	}
	b->sc = grown;
	b->sc[b->nsc++].fs = fs;
	return fs;
}

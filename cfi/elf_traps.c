/* SPDX-License-Identifier: MIT */
#include "elf_traps.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ELF fields are 64-bit; the file is in memory, so every (off, len) is checked
 * against size before use, without overflow. */
static int in_file(const struct th_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* A table of ELF structures read in place: inside the file and 8-aligned
 * (malloc'd data is; a linker never writes them misaligned). */
static int table_in_file(const struct th_elf *e, uint64_t off, uint64_t len)
{
	return off % 8 == 0 && in_file(e, off, len);
}

static int load_file(struct th_elf *e, const char *path, char *err, size_t n)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0) {
		snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		snprintf(err, n, "%s: not a regular, non-empty file", path);
		close(fd);
		return -1;
	}
	e->size = (size_t)st.st_size;
	e->data = malloc(e->size);
	if (!e->data) {
		snprintf(err, n, "%s: out of memory (%zu bytes)", path, e->size);
		close(fd);
		return -1;
	}
	while (got < e->size) {
		ssize_t r = read(fd, e->data + got, e->size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, n, "%s: short read at %zu of %zu bytes", path, got, e->size);
			close(fd);
			return -1;
		}
		got += (size_t)r;
	}
	close(fd);
	return 0;
}

static const Elf64_Shdr *section(const struct th_elf *e, const Elf64_Ehdr *eh, size_t i)
{
	return (const Elf64_Shdr *)(e->data + eh->e_shoff) + i;
}

static void index_sections(struct th_elf *e, const Elf64_Ehdr *eh)
{
	const Elf64_Shdr *shstr, *dynsym = NULL;

	if (!eh->e_shoff || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !table_in_file(e, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return;
	shstr = section(e, eh, eh->e_shstrndx);
	if (!in_file(e, shstr->sh_offset, shstr->sh_size))
		return;
	for (size_t i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = section(e, eh, i);
		const char *name;

		if (sh->sh_name >= shstr->sh_size)
			continue;
		name = (const char *)e->data + shstr->sh_offset + sh->sh_name;
		if (!memchr(name, 0, shstr->sh_size - sh->sh_name))
			continue;
		if (!strcmp(name, ".kcfi_traps") && sh->sh_type != SHT_NOBITS &&
		    in_file(e, sh->sh_offset, sh->sh_size)) {
			e->has_kcfi = 1;
			e->kcfi_addr = sh->sh_addr;
			e->kcfi = e->data + sh->sh_offset;
			e->kcfi_size = sh->sh_size;
		}
		if (sh->sh_type == SHT_SYMTAB || (sh->sh_type == SHT_DYNSYM && !dynsym)) {
			const Elf64_Shdr *str;

			if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_link >= eh->e_shnum ||
			    !table_in_file(e, sh->sh_offset, sh->sh_size))
				continue;
			str = section(e, eh, sh->sh_link);
			if (!in_file(e, str->sh_offset, str->sh_size) || !str->sh_size)
				continue;
			if (sh->sh_type == SHT_DYNSYM) {
				dynsym = sh;
				if (e->symtab) /* .symtab already found: better */
					continue;
			}
			e->symtab = e->data + sh->sh_offset;
			e->nsyms = sh->sh_size / sizeof(Elf64_Sym);
			e->strtab = (const char *)e->data + str->sh_offset;
			e->strtab_size = str->sh_size;
		}
	}
}

int th_elf_open(struct th_elf *e, const char *path, char *err, size_t n)
{
	const Elf64_Ehdr *eh;
	int found = 0;

	memset(e, 0, sizeof(*e));
	if (load_file(e, path, err, n))
		goto fail;
	eh = (const Elf64_Ehdr *)e->data;
	if (e->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, n, "%s: not a little-endian ELF64 file", path);
		goto fail;
	}
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
		snprintf(err, n, "%s: ELF type %u is not a linked executable", path, eh->e_type);
		goto fail;
	}
	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !table_in_file(e, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))) {
		snprintf(err, n, "%s: program headers out of the file", path);
		goto fail;
	}
	e->phdr = e->data + eh->e_phoff;
	e->phnum = eh->e_phnum;
	for (size_t i = 0; i < e->phnum && !found; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)e->phdr + i;

		if (ph->p_type == PT_LOAD && ph->p_offset == 0) {
			e->ehdr_vaddr = ph->p_vaddr;
			found = 1;
		}
	}
	if (!found) {
		snprintf(err, n, "%s: no PT_LOAD maps the ELF header (p_offset 0)", path);
		goto fail;
	}
	index_sections(e, eh);
	return 0;
fail:
	th_elf_close(e);
	return -1;
}

void th_elf_close(struct th_elf *e)
{
	free(e->data);
	memset(e, 0, sizeof(*e));
}

uint64_t th_elf_vaddr(const struct th_elf *e, uint64_t pc, uint64_t ehdr_runtime)
{
	return pc - ehdr_runtime + e->ehdr_vaddr;
}

int th_elf_read(const struct th_elf *e, uint64_t vaddr, void *buf, size_t n)
{
	for (size_t i = 0; i < e->phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)e->phdr + i;
		uint64_t rel;

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr)
			continue;
		rel = vaddr - ph->p_vaddr;
		if (rel > ph->p_filesz || n > ph->p_filesz - rel)
			continue;
		if (!in_file(e, ph->p_offset + rel, n) || ph->p_offset + rel < ph->p_offset)
			return -1;
		memcpy(buf, e->data + ph->p_offset + rel, n);
		return 0;
	}
	return -1;
}

const char *th_elf_func_at(const struct th_elf *e, uint64_t vaddr, uint64_t *start)
{
	const Elf64_Sym *syms = e->symtab, *best = NULL;

	for (size_t i = 0; i < e->nsyms; i++) {
		const Elf64_Sym *s = &syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size ||
		    s->st_shndx == SHN_UNDEF || s->st_name >= e->strtab_size)
			continue;
		if (vaddr < s->st_value || vaddr - s->st_value >= s->st_size)
			continue;
		if (!memchr(e->strtab + s->st_name, 0, e->strtab_size - s->st_name))
			continue;
		if (!best || s->st_size < best->st_size)
			best = s;
	}
	if (!best)
		return NULL;
	if (start)
		*start = best->st_value;
	return e->strtab + best->st_name;
}

size_t th_elf_kcfi_trap_count(const struct th_elf *e)
{
	return e->has_kcfi ? e->kcfi_size / 4 : 0;
}

int th_elf_is_kcfi_trap(const struct th_elf *e, uint64_t vaddr)
{
	for (size_t i = 0; i < th_elf_kcfi_trap_count(e); i++) {
		const unsigned char *p = e->kcfi + 4 * i;
		int32_t rel = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
					(uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);

		if (e->kcfi_addr + 4 * i + (uint64_t)(int64_t)rel == vaddr)
			return 1;
	}
	return 0;
}

const char *th_x86_trap_insn(const unsigned char *b, size_t n)
{
	size_t i = 0;

	while (i < n && i < 4 && (b[i] == 0x66 || b[i] == 0x67))
		i++;
	if (n - i < 2 || b[i] != 0x0f)
		return NULL;
	if (b[i + 1] == 0xb9)
		return "ud1";
	if (b[i + 1] == 0x0b)
		return "ud2";
	return NULL;
}

int th_elf_prove_cfi_site(const char *path, uint64_t pc, uint64_t ehdr_runtime,
			  unsigned proofs, const char *site_func,
			  const unsigned char *rt_bytes, size_t rt_n,
			  struct th_trap_proof *out)
{
	struct th_elf e;
	unsigned char file_bytes[8];
	const char *fn, *insn = NULL;
	int have_bytes;

	memset(out, 0, sizeof(*out));
	if (!path || !*path) {
		snprintf(out->why, sizeof(out->why), "no binary to read");
		return 0;
	}
	if (th_elf_open(&e, path, out->why, sizeof(out->why)))
		return 0;
	out->vaddr = th_elf_vaddr(&e, pc, ehdr_runtime);
	fn = th_elf_func_at(&e, out->vaddr, NULL);
	if (fn)
		snprintf(out->func, sizeof(out->func), "%s", fn);
	memset(file_bytes, 0, sizeof(file_bytes));
	if (!th_elf_read(&e, out->vaddr, file_bytes, 4))
		have_bytes = 4;
	else if (!th_elf_read(&e, out->vaddr, file_bytes, 2))
		have_bytes = 2; /* a trap at the very end of the segment */
	else
		have_bytes = 0;
	if (have_bytes)
		insn = th_x86_trap_insn(file_bytes, (size_t)have_bytes);
	if (insn)
		snprintf(out->insn, sizeof(out->insn), "%s", insn);

	if (rt_bytes && rt_n && rt_n <= (size_t)have_bytes && memcmp(rt_bytes, file_bytes, rt_n)) {
		snprintf(out->why, sizeof(out->why),
			 "bytes at 0x%" PRIx64 " differ between the run and %s: not the binary that ran",
			 out->vaddr, path);
	} else if ((proofs & TH_PROOF_KCFI) && th_elf_is_kcfi_trap(&e, out->vaddr)) {
		out->kind = TH_SITE_KCFI;
	} else if ((proofs & TH_PROOF_CFI_ICALL) && insn && fn && site_func &&
		   strstr(fn, site_func)) {
		out->kind = TH_SITE_CFI_ICALL;
	} else if (!have_bytes) {
		snprintf(out->why, sizeof(out->why), "0x%" PRIx64 " is not in a loaded segment of %s",
			 out->vaddr, path);
	} else if (!(proofs & TH_PROOF_CFI_ICALL)) {
		snprintf(out->why, sizeof(out->why), "%s at 0x%" PRIx64 " in %s: %s",
			 insn ? insn : "no ud1/ud2", out->vaddr, fn ? fn : "?",
			 e.has_kcfi ? "not listed in .kcfi_traps" : "the binary has no .kcfi_traps");
	} else if (!insn) {
		snprintf(out->why, sizeof(out->why),
			 "no ud1/ud2 at 0x%" PRIx64 " in %s (bytes %02x %02x %02x %02x)", out->vaddr,
			 fn ? fn : "?", file_bytes[0], file_bytes[1], file_bytes[2], file_bytes[3]);
	} else {
		snprintf(out->why, sizeof(out->why), "%s at 0x%" PRIx64 " in %s, not in %s", insn,
			 out->vaddr, fn ? fn : "an unknown function", site_func ? site_func : "?");
	}
	th_elf_close(&e);
	return out->kind != TH_SITE_NONE;
}

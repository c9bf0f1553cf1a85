/* SPDX-License-Identifier: MIT */
/* The attacker's System.map (sysmap.h): this executable's .symtab + load bias. */
#include "sysmap.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char *image;	/* /proc/self/exe, read once */
static size_t image_size;

static int load(void)
{
	struct stat st;
	size_t got = 0;
	int fd;

	if (image)
		return 0;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    !(image = malloc((size_t)st.st_size))) {
		close(fd);
		return -1;
	}
	image_size = (size_t)st.st_size;
	while (got < image_size) {
		ssize_t r = read(fd, image + got, image_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != image_size) {
		free(image);
		image = NULL;
		return -1;
	}
	return 0;
}

/* A pointer to @n bytes at file offset @off, or NULL past the end. */
static const void *at(uint64_t off, uint64_t n)
{
	return off <= image_size && n <= image_size - off ? image + off : NULL;
}

/* Run-time address - file address: where the kernel put our program
 * headers (AT_PHDR) minus where the file says they are. */
static int load_bias(const Elf64_Ehdr *eh, uintptr_t *bias)
{
	const Elf64_Phdr *ph = at(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(*ph));
	uintptr_t phdr = (uintptr_t)getauxval(AT_PHDR);

	if (!ph || !phdr)
		return -1;
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_PHDR) {
			*bias = phdr - ph[i].p_vaddr;
			return 0;
		}
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			*bias = phdr - (ph[i].p_vaddr + eh->e_phoff);
			return 0;
		}
	return -1;
}

int th_sysmap_lookup(const char *name, uintptr_t *addr)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	uintptr_t bias;

	if (load() || !(eh = at(0, sizeof(*eh))) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    !(sh = at(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh))) || load_bias(eh, &bias))
		return -1;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *str;
		uint64_t count;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_entsize != sizeof(*sym))
			continue;
		count = sh[i].sh_size / sizeof(*sym);
		sym = at(sh[i].sh_offset, count * sizeof(*sym));
		str = at(sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size);
		if (!sym || !str || !sh[sh[i].sh_link].sh_size)
			return -1;
		for (uint64_t k = 0; k < count; k++) {
			unsigned type = ELF64_ST_TYPE(sym[k].st_info);
			uint64_t off = sym[k].st_name;

			if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx == SHN_ABS ||
			    (type != STT_FUNC && type != STT_OBJECT) ||
			    off >= sh[sh[i].sh_link].sh_size ||
			    strncmp(str + off, name, sh[sh[i].sh_link].sh_size - off) ||
			    strlen(name) >= sh[sh[i].sh_link].sh_size - off)
				continue;
			*addr = (uintptr_t)sym[k].st_value + bias;
			return 0;
		}
	}
	return -1;
}

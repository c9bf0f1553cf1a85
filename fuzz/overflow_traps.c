/* SPDX-License-Identifier: MIT */
#include "overflow_traps.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "cfi/binread.h"

/* Defined by the linker at the ELF header of the executable. */
extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

int th_fz_traps_load(const char *path, struct th_fz_traps *t, char *err, size_t n)
{
	struct th_bin *b;
	const struct th_func_sites *fs;
	uintptr_t bias;

	memset(t, 0, sizeof(*t));
	if (!path)
		path = "/proc/self/exe";
	if (th_bin_open(path, &b, err, n))
		return -1;
	fs = th_bin_call_sites(b, TH_FZ_DISPATCH_FUNC, err, n);
	if (!fs) {
		th_bin_close(b);
		return -1;
	}
	bias = (uintptr_t)__ehdr_start - (uintptr_t)th_bin_load_vaddr(b);
	snprintf(t->how, sizeof(t->how), "no check");
	for (size_t i = 0; i < fs->nsites; i++) {
		const struct th_call_site *s = &fs->sites[i];

		if (s->from_table)
			continue;
		if (s->nguards)
			th_site_describe(s, t->how, sizeof(t->how));
		for (size_t g = 0; g < s->nguards; g++) {
			const struct th_guard *gd = &s->guards[g];

			if (gd->kind == TH_GUARD_TRAP && t->n < TH_FZ_TRAPS_MAX)
				t->pc[t->n++] = (uintptr_t)gd->addr + bias;
			else if (gd->kind == TH_GUARD_HANDLER && gd->file[0] &&
				 t->nhandlers < TH_FZ_TRAPS_MAX) {
				snprintf(t->handler[t->nhandlers].file, sizeof(t->handler[0].file), "%s",
					 gd->file);
				t->handler[t->nhandlers++].line = gd->line;
			}
		}
	}
	th_bin_close(b);
	return 0;
}

int th_fz_traps_is_dispatch(const struct th_fz_traps *t, uintptr_t pc)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pc[i] == pc)
			return 1;
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

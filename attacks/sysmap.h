/* SPDX-License-Identifier: MIT */
/*
 * The attacker's System.map: the run-time address of a symbol of the victim
 * image, as a kernel exploit computes it (the KASLR base from a leak plus
 * the symbol's offset in the target's vmlinux). Here the image is this very
 * executable: its .symtab, read from /proc/self/exe, plus the load bias.
 *
 * Why not `&fn`: taking a function's address in C is what puts it into a
 * cfi-icall jump table (and its kcfi hash into use). An attacker who reads
 * the symbol map changes nothing in the image: a function whose address the
 * program never takes stays out of the jump table, and `f.cfi` (a body
 * behind its jump-table entry `f`) can be named at all.
 */
#ifndef TH_ATTACKS_SYSMAP_H
#define TH_ATTACKS_SYSMAP_H

#include <stdint.h>

/* The run-time address of the symbol named exactly @name (a defined FUNC or
 * OBJECT). Return: 0 with *@addr, or -1 (no such symbol, or the image cannot
 * be read). */
int th_sysmap_lookup(const char *name, uintptr_t *addr);

#endif

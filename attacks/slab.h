/* SPDX-License-Identifier: MIT */
/*
 * A slab-like pool: one kmalloc cache of fixed-size slots, adjacent in one
 * array, handed out from a LIFO freelist like SLUB's per-cpu freelist (the
 * slot freed last is the next one allocated; a fresh slab hands out slots in
 * address order, freelist randomisation off).
 *
 * Under AddressSanitizer it models generic KASAN instead:
 *  - mm/kasan/generic.c kasan_cache_create(): each slot grows by a redzone;
 *  - mm/kasan/common.c __kasan_kmalloc(): only the requested size is
 *    unpoisoned, the rest of the slot is redzone;
 *  - mm/kasan/common.c __kasan_slab_free(): a freed object is poisoned;
 *  - mm/kasan/quarantine.c: a freed slot waits in a FIFO quarantine before
 *    it can be reused, so a spray right after a free does not get it back.
 */
#ifndef TH_ATTACKS_SLAB_H
#define TH_ATTACKS_SLAB_H

#include <stddef.h>

/* The object size of the one cache, what /proc/slabinfo tells an attacker. */
#define TH_KMALLOC_SIZE		128u
#define TH_KMALLOC_SLOTS	32u

/* Return: size bytes from the cache (contents undefined), or NULL if size
 * is 0 or > TH_KMALLOC_SIZE or the cache is full. */
void *kmalloc(size_t size);
/* kmalloc() and zeroed. */
void *kzalloc(size_t size);
/* Free an object kmalloc() returned (NULL is ignored). */
void kfree(const void *p);
/*
 * A slot as page-allocator memory is (alloc_pages()): the whole slot is
 * the caller's, so under the KASAN model no redzone follows it and a write
 * past its end lands straight in the next slot's object, as a write past a
 * page lands in the slab page after it (KASAN poisons inside slab pages, not
 * between a page and the next). Freed with kfree(). NULL as kmalloc().
 */
void *alloc_page_slot(size_t size);

/* ---- for the harness's narration and checks, not the victim ---- */
/* The slot index of an object, or -1 if p is not a slot start. */
int th_slab_slot(const void *p);
/* Bytes between the starts of two adjacent slots (object + KASAN redzone). */
size_t th_slab_stride(void);
/* 1 if built with the KASAN model (AddressSanitizer). */
int th_slab_kasan(void);

#endif

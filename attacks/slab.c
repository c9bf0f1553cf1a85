/* SPDX-License-Identifier: MIT */
#include "slab.h"

#include <stdint.h>
#include <string.h>

#include "th/timer_base.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TH_SLAB_KASAN 1
#endif
#endif
#ifndef TH_SLAB_KASAN
#define TH_SLAB_KASAN 0
#endif

#if TH_SLAB_KASAN
#include <sanitizer/asan_interface.h>
/* kasan_cache_create() adds an optimal redzone; 32 bytes for 128-byte objects. */
#define TH_SLAB_REDZONE		32u
/* Larger than any attack's spray: a slot freed during an attack stays out. */
#define TH_SLAB_QUARANTINE	16u
#define POISON(p, n)		ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n)		ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define TH_SLAB_REDZONE		0u
#define TH_SLAB_QUARANTINE	0u
#define POISON(p, n)		((void)(p), (void)(n))
#define UNPOISON(p, n)		((void)(p), (void)(n))
#endif

#define TH_SLAB_STRIDE	(TH_KMALLOC_SIZE + TH_SLAB_REDZONE)
/* Tail so that reading a little past the last slot stays in the array. */
#define TH_SLAB_TAIL	128u

enum slot_state { SLOT_FREE, SLOT_ALLOCATED, SLOT_QUARANTINED };

static struct {
	int ready;
	unsigned int freelist[TH_KMALLOC_SLOTS];	/* LIFO: top is nfree - 1 */
	unsigned int nfree;
	unsigned int quarantine[TH_SLAB_QUARANTINE + 1];	/* FIFO ring */
	unsigned int qhead, qcount;
	unsigned char state[TH_KMALLOC_SLOTS];
	unsigned char mem[TH_KMALLOC_SLOTS * TH_SLAB_STRIDE + TH_SLAB_TAIL]
		__attribute__((aligned(64)));
} kmalloc_128;

static void slab_init(void)
{
	if (kmalloc_128.ready)
		return;
	/* Pushed in reverse so a fresh slab hands out slot 0, 1, 2, ... */
	for (unsigned int i = 0; i < TH_KMALLOC_SLOTS; i++)
		kmalloc_128.freelist[i] = TH_KMALLOC_SLOTS - 1 - i;
	kmalloc_128.nfree = TH_KMALLOC_SLOTS;
	POISON(kmalloc_128.mem, sizeof(kmalloc_128.mem));
	kmalloc_128.ready = 1;
}

static unsigned char *slot_addr(unsigned int i)
{
	return kmalloc_128.mem + (size_t)i * TH_SLAB_STRIDE;
}

void *kmalloc(size_t size)
{
	unsigned int i;
	unsigned char *p;

	slab_init();
	if (!size || size > TH_KMALLOC_SIZE || !kmalloc_128.nfree)
		return NULL;
	i = kmalloc_128.freelist[--kmalloc_128.nfree];
	kmalloc_128.state[i] = SLOT_ALLOCATED;
	p = slot_addr(i);
	/* __kasan_kmalloc(): the object is the requested size; the rest of
	 * the slot, up to the next object, is redzone. */
	UNPOISON(p, size);
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *alloc_page_slot(size_t size)
{
	unsigned char *p = kmalloc(size);

	if (p) {
		UNPOISON(p, TH_SLAB_STRIDE);
		memset(p, 0, size);
	}
	return p;
}

void kfree(const void *p)
{
	int i = th_slab_slot(p);

	if (!p || i < 0 || kmalloc_128.state[i] != SLOT_ALLOCATED)
		return;
	/* mm/slub.c slab_free_hook(): debug_check_no_obj_freed() under
	 * CONFIG_DEBUG_OBJECTS_FREE. Reports a timer freed while queued (the
	 * uaf-realloc victim's bug) as a WARN and changes nothing: no fixup,
	 * no byte of the object read, the free proceeds. */
	th_debug_check_no_obj_freed(p, TH_KMALLOC_SIZE);
	/* The contents stay as they were (no init_on_free): a UAF reader
	 * still finds the old object until the slot is handed out again. */
	POISON(slot_addr((unsigned int)i), TH_SLAB_STRIDE);
#if TH_SLAB_KASAN
	/* kasan quarantine: FIFO; the oldest entry goes back when it is full. */
	kmalloc_128.state[i] = SLOT_QUARANTINED;
	kmalloc_128.quarantine[(kmalloc_128.qhead + kmalloc_128.qcount) %
			       (TH_SLAB_QUARANTINE + 1)] = (unsigned int)i;
	if (++kmalloc_128.qcount > TH_SLAB_QUARANTINE) {
		unsigned int old = kmalloc_128.quarantine[kmalloc_128.qhead];

		kmalloc_128.qhead = (kmalloc_128.qhead + 1) % (TH_SLAB_QUARANTINE + 1);
		kmalloc_128.qcount--;
		kmalloc_128.state[old] = SLOT_FREE;
		kmalloc_128.freelist[kmalloc_128.nfree++] = old;
	}
#else
	kmalloc_128.state[i] = SLOT_FREE;
	kmalloc_128.freelist[kmalloc_128.nfree++] = (unsigned int)i;
#endif
}

int th_slab_slot(const void *p)
{
	uintptr_t a = (uintptr_t)p, base = (uintptr_t)kmalloc_128.mem;

	if (a < base || a >= base + (uintptr_t)TH_KMALLOC_SLOTS * TH_SLAB_STRIDE ||
	    (a - base) % TH_SLAB_STRIDE)
		return -1;
	return (int)((a - base) / TH_SLAB_STRIDE);
}

size_t th_slab_stride(void)
{
	return TH_SLAB_STRIDE;
}

int th_slab_kasan(void)
{
	return TH_SLAB_KASAN;
}

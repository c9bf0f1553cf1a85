/* SPDX-License-Identifier: MIT */
/*
 * The attack registry: one table, LKDTM style (drivers/misc/lkdtm/core.c's
 * CRASHTYPE()): one macro both names and registers each attack, so an ID,
 * its technique, timing and payload cannot drift apart. An attack's ID is
 * upper-case <TECHNIQUE>_<TIMING>_<PAYLOAD>, built by stringifying the same
 * tokens that select its enums: MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4.
 *
 * The table is the same in every attack binary; whether an attack can exist
 * for a variant (.data on modern cannot) is th_attack_na_reason().
 * Variant-independent: this file is also linked into tests and the runner.
 */
#ifndef TH_ATTACKS_REGISTRY_H
#define TH_ATTACKS_REGISTRY_H

#include <stddef.h>

/* X(ID, "public-name", "api", "what the write primitive is"): api is the
 * family of the victim it writes into (results/api.def's names). */
#define TH_TECHNIQUES(X, ...)									\
	X(MEMCPY_INTRA, "memcpy-intra", "timer",								\
	  "linear overflow of name[16] into the timer: memcpy with the caller's length", __VA_ARGS__) \
	X(INDEX_INTRA, "index-intra", "timer",								\
	  "out-of-bounds index write: name[idx] = byte, idx unchecked", __VA_ARGS__)		\
	X(STRCPY_INTRA, "strcpy-intra", "timer",								\
	  "strcpy into name[16]: NUL-terminated, so no zero byte before the end", __VA_ARGS__)	\
	X(HEAP_NEIGHBOUR, "heap-neighbour", "timer",							\
	  "overflow out of the previous slab object (a msg_buf) into the ring", __VA_ARGS__)	\
	X(UAF_REALLOC, "uaf-realloc", "timer",								\
	  "the ring is freed with its timer pending; a same-size spray refills it", __VA_ARGS__)	\
	X(RING_BLOCK_OVERFLOW, "ring-block-overflow", "timer",						\
	  "CVE-2017-7308 as its exploit did it: a frame written past a ring block into the next socket, whose retire timer is already pending, the list pointers zeroed", __VA_ARGS__) \
	X(TASKLET_MEMCPY_INTRA, "tasklet-memcpy-intra", "tasklet",					\
	  "linear overflow of name[16] into the tasklet_struct right after it: memcpy with the caller's length", __VA_ARGS__) \
	X(HSO_INDEX, "hso-index", "tasklet",								\
	  "out-of-bounds index write into struct hso_serial's rx_urb_filled[2] (drivers/net/usb/hso.c), right before unthrottle_tasklet: rx_urb_filled[idx] = byte, idx unchecked", __VA_ARGS__)

/* X(ID, "public-name"). For a tasklet, "before-arm" is before
 * tasklet_schedule(), "pending" while it is queued (TASKLET_STATE_SCHED). */
#define TH_TIMINGS(X, ...)				\
	X(BEFORE_ARM, "before-arm", __VA_ARGS__)	\
	X(PENDING, "pending", __VA_ARGS__)

/* X(ID, "public-name", needs .data). Which family each applies to:
 * th_attack_na_reason(). */
#define TH_PAYLOADS(X, ...)						\
	X(NONE, "none", 0, __VA_ARGS__)					\
	X(FUNC_DATA_WRITE_CR4, "func+data:write_cr4", 1, __VA_ARGS__)	\
	X(FUNC_WRITE_CR4, "func:write_cr4", 0, __VA_ARGS__)		\
	X(FUNC_SAME_CLASS, "func:same-class", 0, __VA_ARGS__)		\
	X(FUNC_PTR_CLASS, "func:ptr-class", 0, __VA_ARGS__)		\
	X(FUNC_OTHER_PROTO, "func:other-proto", 0, __VA_ARGS__)		\
	X(FUNC_MID_FUNCTION, "func:mid-function", 0, __VA_ARGS__)	\
	X(FUNC_DATA_ADDRESS, "func:data-address", 0, __VA_ARGS__)	\
	X(DATA_FAKE_OBJECT, "data:fake-object", 1, __VA_ARGS__)			\
	X(FUNC_FOREIGN_CALLBACK, "func:foreign-callback", 0, __VA_ARGS__)	\
	X(FUNC_NOT_ADDRESS_TAKEN, "func:not-address-taken", 0, __VA_ARGS__)	\
	X(FUNC_RAW_BODY, "func:raw-body", 0, __VA_ARGS__)		\
	X(LIST_FORGED_TIMER, "list:forged-timer", 0, __VA_ARGS__)	\
	X(LIST_HLIST_DEL, "list:hlist-del", 0, __VA_ARGS__)		\
	X(USE_CALLBACK_WRITE_CR4, "use-callback:write_cr4", 0, __VA_ARGS__)	\
	X(LIST_FORGED_TASKLET, "list:forged-tasklet", 0, __VA_ARGS__)

#define TH_ENUM_TECHNIQUE_(id, name, api, what, ...)	TH_TECH_##id,
#define TH_ENUM_TIMING_(id, name, ...)		TH_TIMING_##id,
#define TH_ENUM_PAYLOAD_(id, name, data, ...)	TH_PAYLOAD_##id,
enum th_technique { TH_TECHNIQUES(TH_ENUM_TECHNIQUE_, _) TH_TECH_COUNT };
enum th_timing { TH_TIMINGS(TH_ENUM_TIMING_, _) TH_TIMING_COUNT };
enum th_payload { TH_PAYLOADS(TH_ENUM_PAYLOAD_, _) TH_PAYLOAD_COUNT };

struct th_attack {
	const char *id;			/* MEMCPY_INTRA_BEFORE_ARM_NONE */
	enum th_technique technique;
	enum th_timing timing;
	enum th_payload payload;
};

extern const struct th_attack th_attacks[];
extern const size_t th_attack_count;

/* The public names ("memcpy-intra", "before-arm", "func+data:write_cr4"). */
const char *th_technique_name(enum th_technique t);
const char *th_technique_what(enum th_technique t);
/* The API family ("timer", "tasklet") of the victim an attack writes into. */
const char *th_technique_api(enum th_technique t);
const char *th_timing_name(enum th_timing t);
const char *th_payload_name(enum th_payload p);
/* Does the payload write .data (absent from the 4.15 layout)? */
int th_payload_needs_data(enum th_payload p);

/* Return: the attack called id, or NULL. */
const struct th_attack *th_attack_find(const char *id);

/* Return: NULL if a can exist for variant ("legacy", "transitional",
 * "modern"), else why not (NOT_APPLICABLE). An unknown variant: a reason. */
const char *th_attack_na_reason(const struct th_attack *a, const char *variant);

#endif

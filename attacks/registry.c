/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include <string.h>

/* One row: the ID is the three tokens, stringified; nothing else names it. */
#define TH_ATTACK(T, W, P) { #T "_" #W "_" #P, TH_TECH_##T, TH_TIMING_##W, TH_PAYLOAD_##P },
#define TH_ATTACK_ROW_(P, name, data, T, W) TH_ATTACK(T, W, P)
/* Every payload of docs/attacks.md's table, for one technique and timing. */
#define TH_ATTACKS_EVERY_PAYLOAD(T, W) TH_PAYLOADS(TH_ATTACK_ROW_, T, W)

const struct th_attack th_attacks[] = {
	TH_ATTACKS_EVERY_PAYLOAD(MEMCPY_INTRA, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(MEMCPY_INTRA, PENDING)
	TH_ATTACKS_EVERY_PAYLOAD(INDEX_INTRA, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(INDEX_INTRA, PENDING)
	TH_ATTACKS_EVERY_PAYLOAD(STRCPY_INTRA, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(STRCPY_INTRA, PENDING)
	TH_ATTACKS_EVERY_PAYLOAD(HEAP_NEIGHBOUR, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(HEAP_NEIGHBOUR, PENDING)
	/* A freed timer can only be refilled while it is pending: no before-arm. */
	TH_ATTACKS_EVERY_PAYLOAD(UAF_REALLOC, PENDING)
	/* CVE-2017-7308's exploit armed the timer first (PACKET_RX_RING). */
	TH_ATTACKS_EVERY_PAYLOAD(RING_BLOCK_OVERFLOW, PENDING)
	/* The tasklet family (api "tasklet"): the generic neighbour and hso. */
	TH_ATTACKS_EVERY_PAYLOAD(TASKLET_MEMCPY_INTRA, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(TASKLET_MEMCPY_INTRA, PENDING)
	TH_ATTACKS_EVERY_PAYLOAD(HSO_INDEX, BEFORE_ARM)
	TH_ATTACKS_EVERY_PAYLOAD(HSO_INDEX, PENDING)
};
const size_t th_attack_count = sizeof(th_attacks) / sizeof(th_attacks[0]);

#define TH_TECH_NAME_(id, name, api, what, ...) [TH_TECH_##id] = { name, api, what },
static const struct {
	const char *name, *api, *what;
} technique_names[] = { TH_TECHNIQUES(TH_TECH_NAME_, _) };

#define TH_TIMING_NAME_(id, name, ...) [TH_TIMING_##id] = name,
static const char *const timing_names[] = { TH_TIMINGS(TH_TIMING_NAME_, _) };

#define TH_PAYLOAD_NAME_(id, name, data, ...) [TH_PAYLOAD_##id] = { name, data },
static const struct {
	const char *name;
	int needs_data;
} payload_names[] = { TH_PAYLOADS(TH_PAYLOAD_NAME_, _) };

const char *th_technique_name(enum th_technique t)
{
	return (unsigned)t < TH_TECH_COUNT ? technique_names[t].name : NULL;
}

const char *th_technique_what(enum th_technique t)
{
	return (unsigned)t < TH_TECH_COUNT ? technique_names[t].what : NULL;
}

const char *th_technique_api(enum th_technique t)
{
	return (unsigned)t < TH_TECH_COUNT ? technique_names[t].api : NULL;
}

const char *th_timing_name(enum th_timing t)
{
	return (unsigned)t < TH_TIMING_COUNT ? timing_names[t] : NULL;
}

const char *th_payload_name(enum th_payload p)
{
	return (unsigned)p < TH_PAYLOAD_COUNT ? payload_names[p].name : NULL;
}

int th_payload_needs_data(enum th_payload p)
{
	return (unsigned)p < TH_PAYLOAD_COUNT && payload_names[p].needs_data;
}

const struct th_attack *th_attack_find(const char *id)
{
	for (size_t i = 0; id && i < th_attack_count; i++)
		if (!strcmp(th_attacks[i].id, id))
			return &th_attacks[i];
	return NULL;
}

/* Payloads of one family only: a timer's hlist entry and its callbacks, or
 * a tasklet's use_callback and singly linked ->next. */
static const char *family_reason(const struct th_attack *a, int tasklet)
{
	switch (a->payload) {
	case TH_PAYLOAD_DATA_FAKE_OBJECT:
		return tasklet ? "a timer payload: the tasklet victims' callbacks find their object "
				 "from the tasklet, not from .data (tasklet_setup())" : NULL;
	case TH_PAYLOAD_FUNC_FOREIGN_CALLBACK:
		return tasklet ? "a timer payload: process_timeout() is a timer's callback; no "
				 "foreign tasklet callback is modelled" : NULL;
	case TH_PAYLOAD_LIST_FORGED_TIMER:
		return tasklet ? "a timer payload: a tasklet's list is tasklet_vec, a forged "
				 "tasklet is list:forged-tasklet" : NULL;
	case TH_PAYLOAD_LIST_HLIST_DEL:
		return tasklet ? "a timer payload: tasklet_vec is singly linked (->next only), "
				 "nothing unlinks through a pprev" : NULL;
	case TH_PAYLOAD_USE_CALLBACK_WRITE_CR4:
	case TH_PAYLOAD_LIST_FORGED_TASKLET:
		return tasklet ? NULL : "a tasklet payload (struct tasklet_struct's use_callback and "
					"->next); a timer has neither";
	default:
		break;
	}
	if (a->technique != TH_TECH_HSO_INDEX)
		return NULL;
	/* hso_serial's tasklet follows rx_urb_filled[2] and ends the object:
	 * no buffer of the attacker's in front to plant in, no container
	 * function of its callback's type modelled. */
	switch (a->payload) {
	case TH_PAYLOAD_FUNC_SAME_CLASS:
	case TH_PAYLOAD_FUNC_RAW_BODY:
		return "no function of hso_unthrottle_tasklet's type that acts on an hso_serial is "
		       "modelled beside it (same-class and raw-body are the generic neighbour's)";
	case TH_PAYLOAD_FUNC_PTR_CLASS:
	case TH_PAYLOAD_FUNC_OTHER_PROTO:
		return "nothing to plant: hso_serial has 2 bytes (rx_urb_filled) in front of its "
		       "tasklet, not a buffer for a fake cred or a path";
	default:
		return NULL;
	}
}

const char *th_attack_na_reason(const struct th_attack *a, const char *variant)
{
	int tasklet;
	const char *why;

	if (!variant || (strcmp(variant, "legacy") && strcmp(variant, "transitional") &&
			 strcmp(variant, "modern")))
		return "unknown variant (legacy, transitional or modern)";
	tasklet = !strcmp(th_technique_api(a->technique), "tasklet");
	if ((why = family_reason(a, tasklet)))
		return why;
	if (!strcmp(variant, "modern") && th_payload_needs_data(a->payload))
		return tasklet ? "the modern tasklet_struct has no func or .data (tasklet_init() "
				 "removed); the callback gets the tasklet itself"
			       : "modern timer_list has no .data (removed in 4.15); the callback gets "
				 "the timer itself";
	return NULL;
}

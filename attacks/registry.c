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

const char *th_attack_na_reason(const struct th_attack *a, const char *variant)
{
	if (!variant || (strcmp(variant, "legacy") && strcmp(variant, "transitional") &&
			 strcmp(variant, "modern")))
		return "unknown variant (legacy, transitional or modern)";
	if (!strcmp(variant, "modern") && th_payload_needs_data(a->payload))
		return "modern timer_list has no .data (removed in 4.15); the callback gets the timer itself";
	return NULL;
}

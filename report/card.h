/* SPDX-License-Identifier: MIT */
/*
 * The verdict card: the question the project exists to answer, answered
 * first by the terminal screen (render_verdict.c) and report.html. Every row
 * is computed from the cells it selects, never written down: does
 * type-based CFI stop CVE-2017-7308's overwrite on each API generation, and
 * what does 4.15 + CFI still let through? Not part of the public API.
 */
#ifndef TH_REPORT_CARD_H
#define TH_REPORT_CARD_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/* The CFI configs the card asks about (the type-based ones a kernel ships):
 * the rows of cfi/configs.tsv whose card column says so, in table order
 * (th_configs_on_card(), cfi/config_table.h). There is at least one. */
size_t th_card_nconfigs(void);
const char *th_card_config(size_t k);	/* NULL past the last */
/* Their names joined by sep ("/": "cfi-icall/kcfi"), and the last by last
 * when it is not NULL (", " and " or ": "cfi-icall or kcfi"), into buf. */
void th_card_configs_text(char *buf, size_t n, const char *sep, const char *last);

/* The cells that do what CVE-2017-7308's exploit did: it armed the ring's
 * retire timer first (PACKET_RX_RING: init_prb_bdqc -> prb_open_block ->
 * mod_timer), then overflowed from a ring block into the neighbouring
 * packet_sock. */
#define TH_CARD_CVE_TECHNIQUE "ring-block-overflow"
#define TH_CARD_CVE_TIMING "pending"

/* The tasklet's question (issue 28): the overwrite of 6.1's tasklet_struct
 * that clears use_callback and writes func and data (the downgrade that
 * tasklet_setup() leaves open), asked on each tasklet generation; and, on
 * the generation that has use_callback, the function word alone with
 * use_callback left as the driver set it. The generic neighbour's linear
 * overflow, while the tasklet is queued. */
#define TH_CARD_TASKLET_TECHNIQUE "tasklet-memcpy-intra"
#define TH_CARD_TASKLET_TIMING "pending"
#define TH_CARD_TASKLET_PAYLOAD "use-callback:write_cr4"
#define TH_CARD_TASKLET_KEPT "func:write_cr4"

struct th_card_row {
	enum th_api api;		/* the family asked about */
	const char *technique, *timing;	/* NULL: any technique, any timing */
	enum th_variant variant;
	const char *payload;		/* what .function (and .data) point at */
	char configs[64];		/* the configs of the row: "cfi-icall/kcfi" */
	enum th_outcome worst;		/* most severe observed; INVALID: no cell ran */
	unsigned counts[TH_OUTCOME_COUNT];	/* cells per observed outcome */
	unsigned ncells;		/* cells that ran (or failed to: HARNESS_ERROR) */
	char not_run[160];		/* "kcfi on clang-14 (UNSUPPORTED)"; "" when none */
	const struct th_cell **cells;	/* the cells answering the row, display order */
	size_t n;
};

struct th_card {
	/* CVE-2017-7308's overwrite under each variant, by the exploit's own
	 * technique and timing: a row per group of configs with the same most
	 * severe outcome, in variant order. */
	struct th_card_row *cve;
	size_t ncve;
	/* 4.15 + CFI, every technique: each other payload with which the
	 * attacker's target ran (HIJACKED, REDIRECTED) or the privileged state
	 * changed (PRIVILEGED_WRITE, with a target or through the wheel's list
	 * code, list:hlist-del): what the new prototype does not stop. */
	struct th_card_row *still;
	size_t nstill;
	/* The tasklet's downgrade (TH_CARD_TASKLET_*) on each generation, then
	 * the function word alone with use_callback kept, on transitional. */
	struct th_card_row *tasklet;
	size_t ntasklet;
};

/* The payload of the CVE's overwrite on a variant: .function and .data
 * where the timer has .data, .function alone on 4.15. */
const char *th_card_cve_payload(enum th_variant v);

/* "4.14", "4.14-rc3", "4.15": the kernel a variant models. */
const char *th_variant_kernel(enum th_variant v);
/* "4.14-5.8", "5.9-6.12", "no kernel yet": the kernels a tasklet
 * generation models (tasklet_core/). */
const char *th_tasklet_kernel(enum th_variant v);

/**
 * th_card_build() - the card of the cells in display order.
 * @cells: every cell of the results, th_report_display_cells() order.
 * Return: 0, or -1 when out of memory (card empty).
 */
int th_card_build(const struct th_cell **cells, size_t ncells, struct th_card *card);
void th_card_free(struct th_card *card);

/* "28 of 30 cells (CRASHED 2)" or "1 of 1 cell": the row's distribution
 * after its most severe outcome, into buf. */
void th_card_counts_text(const struct th_card_row *row, char *buf, size_t n);

/* What @api's dispatch call @site (NULL: its only one) of variant @v can
 * still call under each of the card's configs, from the results' reach
 * section (results/reach.h, th_reach_call()): the rows of the configs that
 * have an entry, each on the newest toolchain that has one.
 * Return: 0, or -1 when out of memory. Free with th_reach_call_free(). */
struct th_reach_call;
int th_card_reach(const struct th_results *res, enum th_api api, const char *site, enum th_variant v,
		  struct th_reach_call *c);

/*
 * th_card_reconcile() - how the exploit's row and the campaigns of variant
 * v are both true, when they seem not to be: the exploit's own write
 * (card->cve) got nothing through CFI, while a campaign in which a CFI
 * check stopped runs still hijacked the timer's own call (s: fuzz.json's
 * campaigns). One sentence into buf, from the cells (the row's outcome and
 * counts; a FALSE_POSITIVE's trapped callback, as its evidence names it),
 * the campaigns (their configs) and the reach (the privileged functions
 * the call site's check admits under the card's configs).
 * Return: true when a sentence was written; false when the two agree or
 * either is missing (buf "").
 */
struct th_fz_summary;
bool th_card_reconcile(const struct th_card *card, const struct th_results *res,
		       const struct th_fz_summary *s, enum th_variant v, char *buf, size_t n);

#endif

/* SPDX-License-Identifier: MIT */
/* The verdict card: rows computed from the cells they select (card.h). */
#define _POSIX_C_SOURCE 200809L
#include "card.h"
#include "fuzz_summary.h"
#include "reach.h"
#include "report_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfi/config_table.h"
#include "lib/text.h"

size_t th_card_nconfigs(void)
{
	return th_configs_on_card(NULL, 0);
}

const char *th_card_config(size_t k)
{
	for (size_t i = 0; i < th_config_count; i++)
		if (th_config_on_card(&th_configs[i]) && !k--)
			return th_configs[i].name;
	return NULL;
}

void th_card_configs_text(char *buf, size_t n, const char *sep, const char *last)
{
	size_t count = th_card_nconfigs(), len = 0;

	if (n)
		*buf = 0;
	for (size_t k = 0; k < count && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					!k ? "" : k + 1 == count && last ? last : sep, th_card_config(k));
}

const char *th_card_cve_payload(enum th_variant v)
{
	return v == TH_VARIANT_MODERN ? "func:write_cr4" : "func+data:write_cr4";
}

const char *th_variant_kernel(enum th_variant v)
{
	static const char *const k[TH_VARIANT_COUNT] = {
		[TH_VARIANT_LEGACY] = "4.14",
		[TH_VARIANT_TRANSITIONAL] = "4.14-rc3",
		[TH_VARIANT_MODERN] = "4.15",
	};

	return v >= 0 && v < TH_VARIANT_COUNT ? k[v] : "?";
}

const char *th_tasklet_kernel(enum th_variant v)
{
	static const char *const k[TH_VARIANT_COUNT] = {
		[TH_VARIANT_LEGACY] = "4.14-5.8",
		[TH_VARIANT_TRANSITIONAL] = "5.9-6.12",
		[TH_VARIANT_MODERN] = "no kernel yet",
	};

	return v >= 0 && v < TH_VARIANT_COUNT ? k[v] : "?";
}

/* A cell that ran, or that the harness failed to run: it answers. Cells
 * that cannot run (UNSUPPORTED, NOT_APPLICABLE) are named, not counted. */
static bool answers(enum th_outcome o)
{
	return o < TH_UNSUPPORTED || o == TH_HARNESS_ERROR;
}

/* The card's order of severity: a harness error first (the answer is not
 * known), then the outcomes' own order. */
static bool worse(enum th_outcome a, enum th_outcome b)
{
	if (b == TH_OUTCOME_INVALID)
		return a != TH_OUTCOME_INVALID;
	if (a == TH_HARNESS_ERROR || b == TH_HARNESS_ERROR)
		return a == TH_HARNESS_ERROR && b != TH_HARNESS_ERROR;
	return a < b;
}

struct per_config {
	enum th_outcome worst;
	unsigned counts[TH_OUTCOME_COUNT];
	unsigned n;
	char not_run[160];
	bool seen;		/* any cell at all, run or not */
};

static void note(char *buf, size_t n, const struct th_cell *c, enum th_outcome o)
{
	size_t len = strlen(buf);
	char item[96];

	snprintf(item, sizeof(item), "%s on %s (%s)", c->config, c->toolchain, th_outcome_name(o));
	if (strstr(buf, item) || len + strlen(item) + 3 >= n)
		return;
	snprintf(buf + len, n - len, "%s%s", len ? "; " : "", item);
}

/* The cells of a row's question (q: its family, technique and timing, any
 * when NULL) on variant v with payload, under config (any when NULL). The
 * CVE's rows are the exploit's technique and timing; the others any. */
static bool selects(const struct th_cell *c, const struct th_card_row *q, enum th_variant v,
		    const char *payload, const char *config)
{
	return c->api == q->api && c->variant == v && !strcmp(c->payload, payload) &&
	       (!config || !strcmp(c->config, config)) &&
	       (!q->technique || !strcmp(c->technique, q->technique)) &&
	       (!q->timing || !strcmp(c->timing, q->timing));
}

/* Is config an item of a row's "a/b" list? */
static bool in_row(const char *configs, const char *config)
{
	size_t l = strlen(config);

	for (const char *p = configs; *p;) {
		size_t n = strcspn(p, "/");

		if (n == l && !strncmp(p, config, l))
			return true;
		p += n + (p[n] == '/');
	}
	return false;
}

static void append(char *buf, size_t n, const char *sep, const char *s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, "%s%s", len ? sep : "", s);
}

/* Append row to *rows with the cells answering it (display order). */
static int push_row(struct th_card_row *row, const struct th_cell **cells, size_t ncells,
		    struct th_card_row **rows, size_t *nrows)
{
	struct th_card_row *nr;

	row->cells = malloc((ncells ? ncells : 1) * sizeof(*row->cells));
	if (!row->cells)
		return -1;
	for (size_t i = 0; i < ncells; i++) {
		const struct th_cell *c = cells[i];

		if (selects(c, row, row->variant, row->payload, NULL) &&
		    answers(th_cell_observed(c)) && in_row(row->configs, c->config))
			row->cells[row->n++] = c;
	}
	if (!(nr = realloc(*rows, (*nrows + 1) * sizeof(*nr)))) {
		free(row->cells);
		return -1;
	}
	*rows = nr;
	(*rows)[(*nrows)++] = *row;
	return 0;
}

/* The rows of (variant, payload) over the card's configs, for q's family,
 * technique and timing: one per group of configs with the same most severe
 * outcome. keep_all (the questions' rows): every group, and a "not run" row
 * when none ran; else only the groups where the attacker's target ran.
 * Appended to *rows. */
static int add_rows(const struct th_cell **cells, size_t ncells, const struct th_card_row *q,
		    enum th_variant v, const char *payload, bool keep_all, struct th_card_row **rows,
		    size_t *nrows)
{
	size_t nk = th_card_nconfigs();
	struct per_config *pc = calloc(nk, sizeof(*pc));
	bool *grouped = calloc(nk, sizeof(*grouped));
	char never[160] = "";	/* configs whose every cell could not run */
	size_t first = *nrows;
	int rc = -1;

	if (!pc || !grouped)
		goto out;
	for (size_t k = 0; k < nk; k++) {
		const char *config = th_card_config(k);

		pc[k].worst = TH_OUTCOME_INVALID;
		for (size_t i = 0; i < ncells; i++) {
			const struct th_cell *c = cells[i];
			enum th_outcome o;

			if (!selects(c, q, v, payload, config))
				continue;
			pc[k].seen = true;
			o = th_cell_observed(c);
			if (!answers(o)) {
				note(pc[k].not_run, sizeof(pc[k].not_run), c, o);
				continue;
			}
			pc[k].counts[o]++;
			pc[k].n++;
			if (worse(o, pc[k].worst))
				pc[k].worst = o;
		}
		if (pc[k].seen && !pc[k].n)
			append(never, sizeof(never), "; ", pc[k].not_run);
	}
	/* Configs with the same answer share a row, in config order. */
	for (size_t k = 0; k < nk; k++) {
		struct th_card_row row = { .api = q->api, .technique = q->technique, .timing = q->timing,
					   .variant = v, .payload = payload, .worst = pc[k].worst };

		if (grouped[k] || !pc[k].n)
			continue;
		for (size_t m = k; m < nk; m++) {
			if (grouped[m] || !pc[m].n || pc[m].worst != row.worst)
				continue;
			grouped[m] = true;
			append(row.configs, sizeof(row.configs), "/", th_card_config(m));
			for (int o = 0; o < TH_OUTCOME_COUNT; o++)
				row.counts[o] += pc[m].counts[o];
			row.ncells += pc[m].n;
			if (*pc[m].not_run)
				append(row.not_run, sizeof(row.not_run), "; ", pc[m].not_run);
		}
		if ((keep_all || th_outcome_got_through(row.worst)) &&
		    push_row(&row, cells, ncells, rows, nrows))
			goto out;
	}
	rc = 0;
	if (!*never)
		goto out;
	if (*nrows > first) {
		/* Configs that never ran: said on the first row. */
		append((*rows)[first].not_run, sizeof((*rows)[first].not_run), "; ", never);
		goto out;
	}
	if (!keep_all)
		goto out;
	{
		/* Nothing ran at all: one row saying what could not. */
		struct th_card_row row = { .api = q->api, .technique = q->technique,
					   .timing = q->timing, .variant = v, .payload = payload,
					   .worst = TH_OUTCOME_INVALID };

		th_card_configs_text(row.configs, sizeof(row.configs), "/", NULL);
		snprintf(row.not_run, sizeof(row.not_run), "%s", never);
		rc = push_row(&row, cells, ncells, rows, nrows);
	}
out:
	free(pc);
	free(grouped);
	return rc;
}

/* A question's rows on variant v, every group, and a "not run" row when
 * the variant is not in the results at all. */
static int question_rows(const struct th_cell **cells, size_t ncells, const struct th_card_row *q,
			 enum th_variant v, const char *payload, struct th_card_row **rows,
			 size_t *nrows)
{
	size_t before = *nrows;
	struct th_card_row *nr;

	if (add_rows(cells, ncells, q, v, payload, true, rows, nrows))
		return -1;
	if (*nrows > before)
		return 0;
	if (!(nr = realloc(*rows, (*nrows + 1) * sizeof(*nr))))
		return -1;
	*rows = nr;
	nr[*nrows] = (struct th_card_row){ .api = q->api, .technique = q->technique,
					   .timing = q->timing, .variant = v, .payload = payload,
					   .worst = TH_OUTCOME_INVALID };
	th_card_configs_text(nr[*nrows].configs, sizeof(nr[0].configs), "/", NULL);
	(*nrows)++;
	return 0;
}

int th_card_build(const struct th_cell **cells, size_t ncells, struct th_card *card)
{
	const struct th_card_row cve = { .api = TH_API_TIMER, .technique = TH_CARD_CVE_TECHNIQUE,
					 .timing = TH_CARD_CVE_TIMING };
	const struct th_card_row any = { .api = TH_API_TIMER };
	const struct th_card_row tasklet = { .api = TH_API_TASKLET,
					     .technique = TH_CARD_TASKLET_TECHNIQUE,
					     .timing = TH_CARD_TASKLET_TIMING };

	memset(card, 0, sizeof(*card));
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		if (question_rows(cells, ncells, &cve, (enum th_variant)v,
				  th_card_cve_payload((enum th_variant)v), &card->cve, &card->ncve))
			goto oom;
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		if (question_rows(cells, ncells, &tasklet, (enum th_variant)v, TH_CARD_TASKLET_PAYLOAD,
				  &card->tasklet, &card->ntasklet))
			goto oom;
	if (question_rows(cells, ncells, &tasklet, TH_VARIANT_TRANSITIONAL, TH_CARD_TASKLET_KEPT,
			  &card->tasklet, &card->ntasklet))
		goto oom;
	/* Every other payload of 4.15 under the card's configs, first seen
	 * first (display order groups payloads by technique). */
	for (size_t i = 0; i < ncells; i++) {
		const struct th_cell *c = cells[i];
		bool seen = false;

		if (c->api != TH_API_TIMER || c->variant != TH_VARIANT_MODERN ||
		    !strcmp(c->payload, "none") ||
		    !strcmp(c->payload, th_card_cve_payload(TH_VARIANT_MODERN)))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = cells[j]->api == TH_API_TIMER && cells[j]->variant == TH_VARIANT_MODERN &&
			       !strcmp(cells[j]->payload, c->payload);
		if (!seen && add_rows(cells, ncells, &any, TH_VARIANT_MODERN, c->payload, false,
				      &card->still, &card->nstill))
			goto oom;
	}
	return 0;
oom:
	th_card_free(card);
	return -1;
}

void th_card_free(struct th_card *card)
{
	for (size_t i = 0; i < card->ncve; i++)
		free(card->cve[i].cells);
	for (size_t i = 0; i < card->nstill; i++)
		free(card->still[i].cells);
	for (size_t i = 0; i < card->ntasklet; i++)
		free(card->tasklet[i].cells);
	free(card->cve);
	free(card->still);
	free(card->tasklet);
	memset(card, 0, sizeof(*card));
}

void th_card_counts_text(const struct th_card_row *row, char *buf, size_t n)
{
	size_t len;
	int others = 0;

	if (!row->ncells) {
		snprintf(buf, n, "not run");
		return;
	}
	len = (size_t)snprintf(buf, n, "%u of %u cell%s", row->counts[row->worst], row->ncells,
			       row->ncells == 1 ? "" : "s");
	for (int o = 0; o < TH_OUTCOME_COUNT && len < n; o++) {
		if (o == (int)row->worst || !row->counts[o])
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s %u", others++ ? ", " : " (",
					th_outcome_name((enum th_outcome)o), row->counts[o]);
	}
	if (others && len < n)
		snprintf(buf + len, n - len, ")");
}

int th_card_reach(const struct th_results *res, enum th_api api, const char *site, enum th_variant v,
		  struct th_reach_call *c)
{
	size_t n = th_card_nconfigs();
	const char **cfgs = malloc(n * sizeof(*cfgs));
	int rc;

	if (!cfgs) {
		memset(c, 0, sizeof(*c));
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		cfgs[k] = th_card_config(k);
	rc = th_reach_call(res, api, site, v, cfgs, n, c);
	free(cfgs);
	return rc;
}

/* The callback a CFI trap stopped, as a cell's evidence names it
 * ("... call target prb_retire_rx_blk_timer_expired; ..."), into buf; ""
 * when it names none. */
static void trapped_target(const char *evidence, char *buf, size_t n)
{
	const char *p = evidence ? strstr(evidence, "call target ") : NULL;
	size_t w;

	*buf = 0;
	if (!p)
		return;
	p += strlen("call target ");
	w = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	if (w && w < n)
		snprintf(buf, n, "%.*s", (int)w, p);
}

bool th_card_reconcile(const struct th_card *card, const struct th_results *res,
		       const struct th_fz_summary *s, enum th_variant v, char *buf, size_t n)
{
	const struct th_card_row *row = NULL;
	struct th_reach_call reach;
	char cfgs[256] = "", names[256] = "", counts[160], callee[96] = "";
	size_t len;

	*buf = 0;
	if (!s)
		return false;
	/* The exploit's own answer: nothing of it got through. */
	for (size_t i = 0; i < card->ncve; i++) {
		const struct th_card_row *r = &card->cve[i];

		if (r->variant != v || r->worst == TH_OUTCOME_INVALID)
			continue;
		if (r->worst <= TH_REDIRECTED || r->worst == TH_HARNESS_ERROR)
			return false;
		row = row ? row : r;
	}
	if (!row)
		return false;
	/* The campaigns that say otherwise: the timer's own call hijacked in
	 * a campaign where a CFI check stopped runs (observed, not named in
	 * advance), each config once; the timer's campaigns only (the
	 * exploit's rows are the timer's). */
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];
		bool own = false;

		if (c->variant != v || c->api != TH_API_TIMER || strcmp(c->status, "ran") ||
		    !(c->outcomes[TH_BLOCKED_CFI] || c->outcomes[TH_FALSE_POSITIVE]))
			continue;
		for (size_t k = 0; k < c->nfindings && !own; k++)
			own = th_fz_direct_hijack(&c->findings[k]);
		if (own && !th_list_has_sep(cfgs, ", ", c->config))
			append(cfgs, sizeof(cfgs), ", ", c->config);
	}
	if (!*cfgs)
		return false;
	for (size_t i = 0; i < row->n && !*callee; i++)
		if (th_cell_observed(row->cells[i]) == TH_FALSE_POSITIVE)
			trapped_target(row->cells[i]->evidence, callee, sizeof(callee));
	/* What the call's check admits, each privileged name once (none
	 * said when the reach cannot be computed: out of memory). */
	if (!th_card_reach(res, TH_API_TIMER, NULL, v, &reach)) {
		snprintf(names, sizeof(names), "%s", reach.names);
		th_reach_call_free(&reach);
	}
	th_card_counts_text(row, counts, sizeof(counts));
	if (row->worst == TH_FALSE_POSITIVE)
		len = (size_t)snprintf(buf, n, "both hold: as the exploit made it, CFI first trapped a "
				       "legitimate callback%s%s (FALSE_POSITIVE, %s)", *callee ? ", " : "",
				       callee, counts);
	else
		len = (size_t)snprintf(buf, n, "both hold: as the exploit made it, %s (%s)",
				       th_outcome_name(row->worst), counts);
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, "; in the campaigns the overwritten call "
					"itself ran past its check, under %s", cfgs);
	if (*names && len < n)
		snprintf(buf + len, n - len, " (the check admits %s)", names);
	return true;
}

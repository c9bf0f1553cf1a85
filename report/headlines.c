/* SPDX-License-Identifier: MIT */
/* The headline findings: their questions, selectors and cell picking. */
#define _POSIX_C_SOURCE 200809L
#include "headlines.h"
#include "report_internal.h"
#include "cfi/config_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANY NULL
#define VARIANTS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })


const struct th_headline th_headlines[] = {
	{ "a. Does type-based CFI stop the CVE-2017-7308 overwrite on the 4.14 layout?",
	  "variant `legacy`, config `cfi-icall`, payload `func+data:write_cr4` (`.function` = "
	  "write_cr4, `.data` = the attacker's CR4 value); technique `ring-block-overflow`, the "
	  "exploit's own sequence (timer armed first by PACKET_RX_RING, a frame written past a "
	  "ring block into the next socket, list pointers zeroed), and `memcpy-intra`, both timings.",
	  NULL,
	  { { VARIANTS("legacy"), LIST("cfi-icall"), LIST("func+data:write_cr4"),
	      LIST("ring-block-overflow", "memcpy-intra"), TH_SEL_LISTED } }, 1 },
	{ "b. Does it stop the same overwrite on the 4.15 layout?",
	  "variant `modern`, @CONFIGS@, payload `func:write_cr4`.",
	  NULL,
	  { { VARIANTS("modern"), ANY, LIST("func:write_cr4"), ANY, TH_SEL_CARD } }, 1 },
	{ "c. Does CFI stop legitimate timer calls through the 4.14-rc3 cast shim?",
	  "variant `transitional`, configs `cfi-icall` and `cfi-icall-diag`, payload `none` "
	  "(the control run: no overwrite).",
	  NULL,
	  { { VARIANTS("transitional"), LIST("cfi-icall", "cfi-icall-diag"), LIST("none"), ANY, TH_SEL_LISTED } }, 1 },
	{ "d. What happens when the callback is swapped for another of the same type?",
	  "variant `modern`, @CONFIGS@, payload `func:same-class` (another callback of the "
	  "variant's own callback type).",
	  NULL,
	  { { VARIANTS("modern"), ANY, LIST("func:same-class"), ANY, TH_SEL_TYPE_CFI_ALONE } }, 1 },
	{ "e. Does generalize-pointers let a `struct cred *` function through where plain cfi-icall does not?",
	  "variant `modern`, configs `cfi-icall-generalized` and `cfi-icall`, payload `func:ptr-class`.",
	  NULL,
	  { { VARIANTS("modern"), LIST("cfi-icall-generalized", "cfi-icall"), LIST("func:ptr-class"),
	      ANY, TH_SEL_LISTED } }, 1 },
	{ "f. Does ASan see an overflow inside one object as it sees one across objects?",
	  "config `asan`, techniques `memcpy-intra` (inside the object), `heap-neighbour` and "
	  "`uaf-realloc` (across objects), every variant and payload.",
	  NULL,
	  { { ANY, LIST("asan"), ANY, LIST("memcpy-intra", "heap-neighbour", "uaf-realloc"), TH_SEL_LISTED } }, 1 },
	{ "g. Do the bounds and FORTIFY checks stop overflows inside the object?",
	  "config `bounds` with technique `index-intra`; config `fortify` with techniques "
	  "`memcpy-intra` and `strcpy-intra`; every variant and payload.",
	  "About the `fortify` config: the kernel's FORTIFY field-spanning `memcpy` check "
	  "(commit 54d9469b) only warns; this harness's `fortify` config blocks the copy.",
	  { { ANY, LIST("bounds"), ANY, LIST("index-intra"), TH_SEL_LISTED },
	    { ANY, LIST("fortify"), ANY, LIST("memcpy-intra"), TH_SEL_LISTED },
	    { ANY, LIST("fortify"), ANY, LIST("strcpy-intra"), TH_SEL_LISTED } }, 3 },
	{ "h. Does any CFI config stop a data-only attack?",
	  "payload `data:fake-object` on variants `legacy` and `transitional` (only `.data` "
	  "replaced, pointing at an attacker-made object), and payload `list:hlist-del` on every "
	  "variant (only the timer's list pointers planted: the wheel's own `__hlist_del()` "
	  "writes the cred); every CFI config (@CONFIG_LIST@).",
	  NULL,
	  { { VARIANTS("legacy", "transitional"), ANY, LIST("data:fake-object"), ANY, TH_SEL_TYPE_CFI },
	    { ANY, ANY, LIST("list:hlist-del"), ANY, TH_SEL_TYPE_CFI } }, 2 },
};

const size_t th_nheadlines = sizeof(th_headlines) / sizeof(th_headlines[0]);

const char th_differences_title[] =
	"i. Which cells regressed, and which differ between toolchains?";
const char th_differences_about[] =
	"every cell whose verdict is `regression`, and every (attack, variant, config) "
	"whose observed outcome differs between toolchains.";

static bool in_list(const char *const *list, const char *s)
{
	if (!list)
		return true;
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* The selector's configs: its list, or what the config's row says. */
static bool config_selected(const struct th_selector *s, const char *config)
{
	const struct th_config_info *ci = th_config_find(config);

	switch (s->by) {
	case TH_SEL_TYPE_CFI:
		return th_config_type_cfi(ci);
	case TH_SEL_TYPE_CFI_ALONE:
		return th_config_type_cfi_alone(ci);
	case TH_SEL_CARD:
		return th_config_on_card(ci);
	case TH_SEL_LISTED:
		break;
	}
	return in_list(s->configs, config);
}

/* The configs of the table (cfi/configs.tsv, its order) that s selects, as
 * code spans: "`a`, `b` and `c`" (and: " and ") or "`a`, `b`, `c`" (NULL). */
static size_t config_names(const struct th_selector *s, const char *and, char *buf, size_t n)
{
	size_t count = 0, k = 0, len = 0;

	for (size_t i = 0; i < th_config_count; i++)
		count += config_selected(s, th_configs[i].name);
	for (size_t i = 0; i < th_config_count && len < n; i++) {
		if (!config_selected(s, th_configs[i].name))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s`%s`",
					!k ? "" : k + 1 == count && and ? and : ", ", th_configs[i].name);
		k++;
	}
	return count;
}

void th_headline_about(const struct th_headline *h, char *buf, size_t n)
{
	static const struct { const char *mark; bool noun; } marks[] = {
		{ "@CONFIGS@", true }, { "@CONFIG_LIST@", false } };
	const char *p = h->about;
	size_t len = 0;

	while (*p && len < n) {
		const char *at = NULL;
		size_t m = 0;

		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
			const char *q = strstr(p, marks[i].mark);

			if (q && (!at || q < at)) {
				at = q;
				m = i;
			}
		}
		if (!at) {
			snprintf(buf + len, n - len, "%s", p);
			return;
		}
		len += (size_t)snprintf(buf + len, n - len, "%.*s", (int)(at - p), p);
		if (len < n) {
			char names[512];
			size_t count = config_names(&h->sel[0], marks[m].noun ? " and " : NULL, names,
						    sizeof(names));

			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						!marks[m].noun ? "" : count == 1 ? "config " : "configs ",
						names);
		}
		p = at + strlen(marks[m].mark);
	}
	if (n)
		buf[len < n ? len : n - 1] = 0;
}

bool th_headline_selects(const struct th_headline *h, const struct th_cell *c)
{
	/* The headlines are the timer's: their text names its fields. */
	if (c->api != TH_API_TIMER)
		return false;
	for (int i = 0; i < h->nsel; i++) {
		const struct th_selector *s = &h->sel[i];

		if (in_list(s->variants, th_variant_name(c->variant)) &&
		    config_selected(s, c->config) && in_list(s->payloads, c->payload) &&
		    in_list(s->techniques, c->technique))
			return true;
	}
	return false;
}

static bool selected(const struct th_cell *c, const void *h)
{
	return th_headline_selects(h, c);
}

const struct th_cell **th_headline_cells(const struct th_cell **cells, size_t ncells,
					 const struct th_headline *h, size_t *n, int *oom)
{
	return th_report_filter_cells(cells, ncells, selected, h, n, oom);
}

bool th_headline_same_row(const struct th_cell *a, const struct th_cell *b)
{
	return a->variant == b->variant && !strcmp(a->attack, b->attack) &&
	       !strcmp(a->config, b->config);
}

unsigned th_headline_observed(const struct th_cell **cells, size_t n,
			      const char *toolchain, unsigned counts[TH_OUTCOME_COUNT])
{
	unsigned total = 0;

	memset(counts, 0, sizeof(unsigned) * TH_OUTCOME_COUNT);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(cells[i]->toolchain, toolchain)) {
			counts[th_cell_observed(cells[i])]++;
			total++;
		}
	}
	return total;
}

struct th_diff_row *th_headline_differences(const struct th_cell **cells, size_t ncells,
					    size_t *n, size_t *unsup_only, int *oom)
{
	struct th_diff_row *rows;
	size_t k = 0;

	*n = 0;
	*unsup_only = 0;
	*oom = 0;
	if (!ncells)
		return NULL;
	rows = malloc(ncells * sizeof(*rows));
	if (!rows) {
		*oom = 1;
		return NULL;
	}
	/* Display order puts a row's toolchains next to each other. */
	for (size_t i = 0; i < ncells;) {
		size_t j = i;
		bool regressed = false, differs = false, unsup = false;
		enum th_outcome first_real = TH_OUTCOME_INVALID;

		for (; j < ncells && th_headline_same_row(cells[i], cells[j]); j++) {
			enum th_outcome o = th_cell_observed(cells[j]);

			regressed |= th_results_shown_verdict(cells[j]) == TH_VERDICT_REGRESSION;
			if (o >= TH_UNSUPPORTED) {
				unsup = true;
				continue;
			}
			if (first_real == TH_OUTCOME_INVALID)
				first_real = o;
			else if (o != first_real)
				differs = true;
		}
		if (regressed || differs)
			rows[k++] = (struct th_diff_row){ cells[i], regressed, differs };
		else if (unsup && first_real != TH_OUTCOME_INVALID)
			(*unsup_only)++;
		i = j;
	}
	if (!k) {
		free(rows);
		return NULL;
	}
	*n = k;
	return rows;
}

/* SPDX-License-Identifier: MIT */
/*
 * cfi/configs.tsv as a C table, generated at configure time (config_rows.inc),
 * so C code never parses the TSV. Flags are the TSV's: placeholders (@SEED@,
 * @STRICT_FLEX@) unfilled; the effective flags of each binary are in the
 * build manifest.
 */
#ifndef TH_CFI_CONFIG_TABLE_H
#define TH_CFI_CONFIG_TABLE_H

#include <stddef.h>

struct th_config_info {
	const char *name;        /* `cfi-icall`, ... */
	const char *cflags;
	const char *ldflags;
	const char *probes;      /* comma list of probe checks, "" for none */
	const char *scheme;      /* the check at an indirect call: none, cfi-icall, kcfi, function */
	const char *fuzz;        /* comma list (th_list_has(), lib/text.h): the fuzz targets
				  * built under it (overflow, tasklet), demo */
	const char *bench;       /* "bench" if `bench --configs` measures it, "" if not */
	const char *kernel;      /* its kernel/configs/<kernel>.config, "" for none */
	const char *card;        /* "card" if the verdict card asks about it, "" if not */
	const char *description;
};

extern const struct th_config_info th_configs[];
extern const size_t th_config_count;

/* Return: the config called name, or NULL. */
const struct th_config_info *th_config_find(const char *name);
/* Return: 1 if check is in c's probes list. */
int th_config_has_probe(const struct th_config_info *c, const char *check);
/* Return: 1 if flag is one of c's cflags (a whole word, not a part of one). */
int th_config_has_cflag(const struct th_config_info *c, const char *flag);
/* Return: 1 if c uses cfi-icall in trap mode (a failed check is a bare ud1). */
int th_config_cfi_icall_trap_mode(const struct th_config_info *c);
/*
 * Return: 1 if c's row puts a type check at an indirect call (its scheme is
 * not none): type-based CFI, whatever a given compiler makes of it
 * (-fsanitize=function checks C calls from clang 17 only).
 */
int th_config_type_cfi(const struct th_config_info *c);
/*
 * Return: 1 if c is type-based CFI and nothing else: every probe its row
 * lists is a CFI check's (cfi, cfi-diag, cfi-generalized, kcfi, function),
 * so not defence-in-depth, whose bounds and fortify stop some attacks first.
 */
int th_config_type_cfi_alone(const struct th_config_info *c);
/*
 * Return: 1 if the verdict card (report/card.h) asks about c: its row's card
 * column, the type-based CFI a kernel ships (configs.tsv says which).
 */
int th_config_on_card(const struct th_config_info *c);
/*
 * th_configs_on_card() - the configs the verdict card asks about, table order.
 * @out: filled with up to @max of them (may be NULL when @max is 0).
 * Return: how many there are (configs.cmake refuses a table with none).
 */
size_t th_configs_on_card(const struct th_config_info **out, size_t max);

#endif

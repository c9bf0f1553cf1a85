/* SPDX-License-Identifier: MIT */
#include "config_table.h"

#include <stdio.h>
#include <string.h>

#include "lib/text.h"

const struct th_config_info th_configs[] = {
#include "config_rows.inc" /* generated from configs.tsv by cfi/CMakeLists.txt */
};
const size_t th_config_count = sizeof(th_configs) / sizeof(th_configs[0]);

const struct th_config_info *th_config_find(const char *name)
{
	for (size_t i = 0; name && i < th_config_count; i++)
		if (!strcmp(th_configs[i].name, name))
			return &th_configs[i];
	return NULL;
}

int th_config_has_probe(const struct th_config_info *c, const char *check)
{
	return c && th_list_has(c->probes, check);
}

int th_config_type_cfi(const struct th_config_info *c)
{
	return c && strcmp(c->scheme, "none") != 0;
}

int th_config_has_cflag(const struct th_config_info *c, const char *flag)
{
	size_t len = strlen(flag);

	if (!c || !len)
		return 0;
	for (const char *p = c->cflags; (p = strstr(p, flag)); p += len)
		if ((p == c->cflags || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return 0;
}

int th_config_cfi_icall_trap_mode(const struct th_config_info *c)
{
	return th_config_has_cflag(c, "-fsanitize=cfi-icall") &&
	       !th_config_has_cflag(c, "-fno-sanitize-trap=cfi-icall");
}

int th_config_type_cfi_alone(const struct th_config_info *c)
{
	static const char *const cfi_checks = "cfi,cfi-diag,cfi-generalized,kcfi,function";

	if (!th_config_type_cfi(c))
		return 0;
	for (const char *p = c->probes; *p;) {
		size_t n = strcspn(p, ",");
		char check[32];

		snprintf(check, sizeof(check), "%.*s", (int)n, p);
		if (!th_list_has(cfi_checks, check))
			return 0;
		p += n + (p[n] == ',');
	}
	return 1;
}

int th_config_on_card(const struct th_config_info *c)
{
	return c && !strcmp(c->card, "card");
}

size_t th_configs_on_card(const struct th_config_info **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < th_config_count; i++) {
		if (!th_config_on_card(&th_configs[i]))
			continue;
		if (n < max)
			out[n] = &th_configs[i];
		n++;
	}
	return n;
}

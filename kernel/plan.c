// SPDX-License-Identifier: MIT
#include "kernel/plan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int bad(char *err, size_t n, const char *path, unsigned line, const char *what)
{
	snprintf(err, n, "%s:%u: %s", path, line, what);
	return -1;
}

static int load_cells(struct th_kernel_plan *p, const char *path, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	unsigned line = 0;
	size_t cap = 0;

	if (!f) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *field[4], *s = buf, *nl;
		size_t len = strlen(buf), i, k;

		line++;
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			fclose(f);
			return bad(err, n, path, line, "line longer than 1023 bytes");
		}
		if ((nl = strchr(buf, '\n')))
			*nl = '\0';
		if (buf[0] == '#' || buf[strspn(buf, " \t\r")] == '\0')
			continue;
		for (k = 0; k < 4; k++) {
			field[k] = s;
			s = strchr(s, '\t');
			if (k < 3) {
				if (!s) {
					fclose(f);
					return bad(err, n, path, line, "want 4 TAB-separated fields: attack technique timing payload");
				}
				*s++ = '\0';
			} else if (s) {
				fclose(f);
				return bad(err, n, path, line, "more than 4 TAB-separated fields");
			}
			if (!*field[k]) {
				fclose(f);
				return bad(err, n, path, line, "an empty field");
			}
		}
		for (i = 0; field[0][i]; i++)
			if (!isupper((unsigned char)field[0][i]) && !isdigit((unsigned char)field[0][i]) &&
			    field[0][i] != '_') {
				fclose(f);
				return bad(err, n, path, line, "the attack ID is not upper-case [A-Z0-9_]");
			}
		if (strcmp(field[2], "before-arm") && strcmp(field[2], "pending")) {
			fclose(f);
			return bad(err, n, path, line, "timing is before-arm or pending");
		}
		for (i = 0; i < p->ncells; i++)
			if (!strcmp(p->cells[i].attack, field[0])) {
				char what[160];

				snprintf(what, sizeof(what), "%s is listed twice (first on line %u)", field[0],
					 p->cells[i].line);
				fclose(f);
				return bad(err, n, path, line, what);
			}
		if (p->ncells == cap) {
			struct th_kernel_cell *c;

			cap = cap ? cap * 2 : 32;
			c = realloc(p->cells, cap * sizeof(*c));
			if (!c) {
				fclose(f);
				return bad(err, n, path, line, "out of memory");
			}
			p->cells = c;
		}
		p->cells[p->ncells] = (struct th_kernel_cell){
			strdup(field[0]), strdup(field[1]), strdup(field[2]), strdup(field[3]), line,
		};
		if (!p->cells[p->ncells].attack || !p->cells[p->ncells].technique ||
		    !p->cells[p->ncells].timing || !p->cells[p->ncells].payload) {
			fclose(f);
			return bad(err, n, path, line, "out of memory");
		}
		p->ncells++;
	}
	if (ferror(f)) {
		snprintf(err, n, "%s: read error", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (!p->ncells)
		return bad(err, n, path, line, "no cells");
	return 0;
}

static int load_configs(struct th_kernel_plan *p, const char *dir, char *err, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d) {
		snprintf(err, n, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *name;

		if (len <= 7 || strcmp(e->d_name + len - 7, ".config") || e->d_name[0] == '.')
			continue;
		if (len == 11 && !strncmp(e->d_name, "base", 4))
			continue;
		if (p->nconfigs == cap) {
			char **c;

			cap = cap ? cap * 2 : 8;
			c = realloc(p->configs, cap * sizeof(*c));
			if (!c) {
				closedir(d);
				snprintf(err, n, "%s: out of memory", dir);
				return -1;
			}
			p->configs = c;
		}
		name = strndup(e->d_name, len - 7);
		if (!name) {
			closedir(d);
			snprintf(err, n, "%s: out of memory", dir);
			return -1;
		}
		p->configs[p->nconfigs++] = name;
	}
	closedir(d);
	if (!p->nconfigs) {
		snprintf(err, n, "%s: no <name>.config besides base.config", dir);
		return -1;
	}
	qsort(p->configs, p->nconfigs, sizeof(*p->configs), cmp_str);
	return 0;
}

int th_kernel_plan_load(struct th_kernel_plan *p, const char *cells_tsv, const char *configs_dir,
			char *err, size_t n)
{
	memset(p, 0, sizeof(*p));
	if (load_cells(p, cells_tsv, err, n) || load_configs(p, configs_dir, err, n)) {
		th_kernel_plan_free(p);
		return -1;
	}
	return 0;
}

void th_kernel_plan_free(struct th_kernel_plan *p)
{
	size_t i;

	for (i = 0; i < p->ncells; i++) {
		free(p->cells[i].attack);
		free(p->cells[i].technique);
		free(p->cells[i].timing);
		free(p->cells[i].payload);
	}
	for (i = 0; i < p->nconfigs; i++)
		free(p->configs[i]);
	free(p->cells);
	free(p->configs);
	memset(p, 0, sizeof(*p));
}

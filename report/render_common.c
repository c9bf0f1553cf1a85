/* SPDX-License-Identifier: MIT */
/* Helpers shared by the renderers. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_summary.h"
#include "render.h"
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

int th_report_kinds(const struct th_cell *c)
{
	int k = 0;

	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		k += c->counts[i] != 0;
	return k;
}

const struct th_support *th_report_cell_support(const struct th_results *res,
						const struct th_cell *c)
{
	const struct th_config *cfg = th_results_find_config(res, c->config);

	return cfg ? th_config_support(cfg, c->toolchain) : NULL;
}

/* ---- display order ---- */

/* technique, timing, attack, variant, config position, toolchain; a total
 * order (toolchains natcmp-equal fall back to strcmp), so picking cells from
 * the sorted whole gives what sorting the picked cells would. */
static int cmp_display(const struct th_results *res, const struct th_cell *a,
		       const struct th_cell *b)
{
	int r, ra = th_results_technique_rank(a->technique), rb = th_results_technique_rank(b->technique);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = strcmp(a->technique, b->technique)))
		return r;
	ra = th_results_timing_rank(a->timing);
	rb = th_results_timing_rank(b->timing);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = strcmp(a->attack, b->attack)))
		return r;
	if (a->variant != b->variant)
		return a->variant < b->variant ? -1 : 1;
	size_t ca = th_results_config_pos(res, a->config), cb = th_results_config_pos(res, b->config);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	if ((r = th_results_natcmp(a->toolchain, b->toolchain)))
		return r;
	return strcmp(a->toolchain, b->toolchain);
}

const struct th_cell **th_report_display_cells(const struct th_results *res, int *oom)
{
	return th_results_sort_cells(res, cmp_display, oom);
}

const struct th_cell **th_report_filter_cells(const struct th_cell **cells, size_t n,
					      th_report_keep_fn *keep, const void *ctx,
					      size_t *m, int *oom)
{
	const struct th_cell **out = n ? malloc(n * sizeof(*out)) : NULL;
	size_t k = 0;

	*m = 0;
	*oom = n && !out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (keep(cells[i], ctx))
			out[k++] = cells[i];
	if (!k) {
		free(out);
		return NULL;
	}
	*m = k;
	return out;
}

struct where {
	const char *toolchain;
	enum th_variant variant;
};

static bool in_where(const struct th_cell *c, const void *ctx)
{
	const struct where *w = ctx;

	return (!w->toolchain || !strcmp(c->toolchain, w->toolchain)) &&
	       (w->variant == TH_VARIANT_INVALID || c->variant == w->variant);
}

const struct th_cell **th_report_attack_rows(const struct th_cell **cells, size_t n,
					     const char *toolchain, enum th_variant variant,
					     size_t *nrows, int *oom)
{
	struct where w = { toolchain, variant };
	size_t m, k = 0;
	const struct th_cell **rows = th_report_filter_cells(cells, n, in_where, &w, &m, oom);

	for (size_t i = 0; i < m; i++)
		if (!k || strcmp(rows[k - 1]->attack, rows[i]->attack))
			rows[k++] = rows[i];
	*nrows = k;
	return rows;
}

bool th_report_same_group(const struct th_cell *a, const struct th_cell *b)
{
	return !strcmp(a->technique, b->technique) && !strcmp(a->timing, b->timing);
}

size_t *th_report_config_columns(const struct th_results *res, const char *toolchain,
				 enum th_variant variant, bool var_on[TH_VARIANT_COUNT],
				 size_t *ncols)
{
	struct where w = { toolchain, variant };
	size_t n = res->nconfigs ? res->nconfigs : 1;
	bool *on = calloc(n, sizeof(*on));
	size_t *cols = malloc(n * sizeof(*cols));

	*ncols = 0;
	if (!on || !cols) {
		free(on);
		free(cols);
		return NULL;
	}
	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];
		size_t pos = th_results_config_pos(res, c->config);

		if (pos == res->nconfigs || !in_where(c, &w))
			continue;
		if (var_on)
			var_on[c->variant] = true;
		on[pos] = true;
	}
	for (size_t i = 0; i < res->nconfigs; i++)
		if (on[i])
			cols[(*ncols)++] = i;
	free(on);
	return cols;
}

int th_report_render_buf(th_report_render_fn *fn, const struct th_results *res,
			 char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f;
	int rc;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		return th_results_errf(err, errlen, "out of memory");
	rc = fn(f, res, err, errlen);
	if (fclose(f) && !rc)
		rc = th_results_errf(err, errlen, "out of memory");
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return rc;
}

int th_report_render_file(const char *path, th_report_render_fn *fn,
			  const struct th_results *res, char *err, size_t errlen)
{
	char *buf, e[1024];
	size_t len;
	int rc;

	if (th_report_render_buf(fn, res, &buf, &len, e, sizeof(e)))
		return th_results_errf(err, errlen, "%s: %s", path, e);
	rc = th_results_write_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* ---- text that leaves the program ---- */

bool th_report_cp_unsafe(unsigned long cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\r';
	return (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029 || (cp >= 0xfdd0 && cp <= 0xfdef) ||
	       (cp & 0xfffe) == 0xfffe;
}

void th_report_put_visible(FILE *out, const char *s, th_report_put_fn *put)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		size_t n;
		unsigned long cp = th_results_utf8(p, &n);

		if (!n) {
			fprintf(out, "\\x%02x", *p++);
			continue;
		}
		if (!th_report_cp_unsafe(cp))
			put(out, (const char *)p, n);
		else if (cp < 0x80)
			fprintf(out, "\\x%02lx", cp);
		else if (cp < 0x10000)
			fprintf(out, "\\u%04lx", cp);
		else
			fprintf(out, "\\U%08lx", cp);
		p += n;
	}
}

static void put_line_cp(FILE *out, const char *b, size_t n)
{
	switch (n == 1 ? *b : 0) {
	case '\\': fputs("\\\\", out); break;
	case '\t': fputs("\\t", out); break;
	case '\n': fputs("\\n", out); break;
	case '\r': fputs("\\r", out); break;
	default: fwrite(b, 1, n, out);
	}
}

void th_report_put_line(FILE *out, const char *s)
{
	th_report_put_visible(out, s, put_line_cp);
}

void th_report_short_count(long long n, char *buf, size_t len)
{
	if (n < 10000)
		snprintf(buf, len, "%lld", n);
	else if (n < 1000000)
		snprintf(buf, len, "%.1fk", (double)n / 1e3);
	else
		snprintf(buf, len, "%.1fM", (double)n / 1e6);
}

/* ---- paths relative to the checkout ---- */

const char *th_report_source_relative(const char *path)
{
	size_t n = strlen(TH_SOURCE_DIR);

	if (path && !strncmp(path, TH_SOURCE_DIR, n) && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return path;
}

char *th_report_source_relative_words(const char *s)
{
	size_t n = strlen(TH_SOURCE_DIR), len = strlen(s);
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	for (const char *p = s; *p;) {
		/* A word starts the string or follows a blank or a quote. */
		bool start = p == s || p[-1] == ' ' || p[-1] == '\'' || p[-1] == '"' || p[-1] == '=';

		if (start && !strncmp(p, TH_SOURCE_DIR, n) && p[n] == '/' && p[n + 1] &&
		    p[n + 1] != ' ' && p[n + 1] != '\'') {
			p += n + 1;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}

/* ---- lines of at most TH_VERDICT_WIDTH columns ---- */

void th_report_put_wrapped(FILE *out, const char *indent, const char *text)
{
	char *s = NULL;
	size_t slen = 0;
	FILE *m = open_memstream(&s, &slen);

	if (!m)
		return;
	th_report_put_line(m, text);
	if (!fclose(m))
		th_report_put_wrapped_escaped(out, indent, s);
	free(s);
}

void th_report_put_wrapped_escaped(FILE *out, const char *indent, const char *s)
{
	size_t ind = strlen(indent), col = ind, sl = strlen(TH_FZ_CHAIN_SEP);

	fputs(indent, out);
	/* Words end at a blank. A word that does not fit goes to the next line;
	 * one wider than any line (a long list) breaks after its commas, each
	 * piece where it fits, and a piece still wider (a fuzz chain ID) after
	 * its steps' separators (TH_FZ_CHAIN_SEP); a long path stays whole. */
	for (const char *p = s + strspn(s, " "); *p;) {
		size_t w = strcspn(p, " ");
		bool sep = col > ind;

		if (sep && col + 1 + w > TH_VERDICT_WIDTH && ind + 2 + w <= TH_VERDICT_WIDTH) {
			fprintf(out, "\n%s  ", indent);
			col = ind + 2;
			sep = false;
		}
		for (size_t i = 0; i < w;) {
			size_t k = i;

			while (k < w && p[k] != ',')
				k++;
			k += k < w;	/* the comma stays with its piece */
			if (ind + 2 + (k - i) > TH_VERDICT_WIDTH)
				for (size_t j = i + 1; j + sl <= k; j++)
					if (!strncmp(p + j, TH_FZ_CHAIN_SEP, sl)) {
						k = j + sl;	/* the separator stays with its step */
						break;
					}
			if ((sep || i) && col + (i ? 0 : 1) + (k - i) > TH_VERDICT_WIDTH && col > ind + 2) {
				fprintf(out, "\n%s  ", indent);
				col = ind + 2;
			} else if (sep && !i) {
				fputc(' ', out);
				col++;
			}
			fprintf(out, "%.*s", (int)(k - i), p + i);
			col += k - i;
			i = k;
		}
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

/* SPDX-License-Identifier: MIT */
/*
 * The regression gate. It judges a results file against the declaration
 * (expectations, attack registry, configs), never against what the file
 * says of itself: no stored expectation or verdict is trusted, and a cell
 * that is not there is coverage lost, whether or not a baseline had it.
 */
#define _GNU_SOURCE
#include "check.h"
#include "check_json.h"
#include "results.h"
#include "report_internal.h"
#include "lib/text.h"
#include "cfi/evidence.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct judge {
	const struct th_check_opts *o;
	const struct th_check_decl *d;
	struct th_results *res, *base;
	FILE *out;
	bool sliced;		/* the plan is the recorded selection (--allow-slice) */
	unsigned n[TH_VERDICT_COUNT];
	size_t harness, missing, doctored, unplanned, lost, other_expect;
	size_t disagree, stale, declared_diff, agree;
	bool no_kernel_plan;	/* real-kernel cells, but no plan to judge them by */
	/* check --json: every finding an object of this array (its text the
	 * message), instead of a line on out; NULL: lines. */
	json_t *jf;
	FILE *fm;		/* the finding being written (fstart .. fdone) */
	char *fmbuf;
	size_t fmlen;
	const char *fkind;
};

/* A finding of kind ("regression", "missing", ...) begins: the stream its
 * text goes to ("kind: " already written on a line of out; with --json, a
 * buffer that becomes its message). End it with fdone(). */
static FILE *fstart(struct judge *j, const char *kind)
{
	if (j->jf) {
		j->fkind = kind;
		j->fmbuf = NULL;
		if ((j->fm = open_memstream(&j->fmbuf, &j->fmlen)))
			return j->fm;
	}
	fprintf(j->out, "%s: ", kind);
	return j->out;
}

/* The finding ends: its line, or its object {kind, message} appended to
 * the findings (returned, to add the cell's data to; NULL for a line). */
static json_t *fdone(struct judge *j)
{
	json_t *o;

	if (!j->fm) {
		fputc('\n', j->out);
		return NULL;
	}
	fclose(j->fm);
	j->fm = NULL;
	o = json_object();
	if (o) {
		json_object_set_new(o, "kind", json_string(j->fkind));
		json_object_set_new(o, "message", th_check_jstr(j->fmbuf ? j->fmbuf : ""));
		if (json_array_append_new(j->jf, o))
			o = NULL;
	}
	free(j->fmbuf);
	j->fmbuf = NULL;
	return o;
}

/* A set of outcomes as a JSON array, most severe first. */
static json_t *jset(th_outcome_set set)
{
	json_t *a = json_array();

	for (int i = 0; a && i < TH_OUTCOME_COUNT; i++)
		if (set & TH_OUTCOME_BIT(i))
			json_array_append_new(a, json_string(th_outcome_name((enum th_outcome)i)));
	return a;
}

/* The cell a finding is about, as data: {platform, attack, variant, config,
 * toolchain}. */
static void jcell_key(json_t *o, const char *platform, const char *attack, enum th_variant v,
		      const char *config, const char *toolchain)
{
	json_t *k = json_object();

	if (!o || !k) {
		json_decref(k);
		return;
	}
	json_object_set_new(k, "platform", th_check_jstr(platform ? platform : TH_PLATFORM_MODEL));
	json_object_set_new(k, "attack", th_check_jstr(attack));
	json_object_set_new(k, "variant", json_string(th_variant_name(v)));
	json_object_set_new(k, "config", th_check_jstr(config));
	json_object_set_new(k, "toolchain", th_check_jstr(toolchain));
	json_object_set_new(o, "cell", k);
}

/* The expectation a finding judged by: expected (the worst acceptable
 * outcome, or null), expected_set (a probabilistic cell's) and rule. */
static void jexpected(json_t *o, th_outcome_set set, const char *where)
{
	enum th_outcome worst = th_outcome_set_worst(set);

	if (!o)
		return;
	json_object_set_new(o, "expected", worst == TH_OUTCOME_INVALID ? json_null() :
					   json_string(th_outcome_name(worst)));
	if (th_outcome_set_size(set) > 1)
		json_object_set_new(o, "expected_set", jset(set));
	json_object_set_new(o, "rule", where ? th_check_jstr(where) : json_null());
}

/* A judged cell's data: its key, expectation, observed outcome, counts,
 * baseline (when there is one) and evidence. */
static void jcell(const struct judge *j, json_t *o, const struct th_cell *c)
{
	json_t *counts;

	if (!o)
		return;
	jcell_key(o, c->platform, c->attack, c->variant, c->config, c->toolchain);
	jexpected(o, th_cell_expected_set(c), j->d->where(c->platform, c->attack,
							   th_variant_name(c->variant), c->config,
							   c->toolchain));
	json_object_set_new(o, "observed", json_string(th_outcome_name(th_cell_observed(c))));
	if ((counts = json_object())) {
		for (int i = 0; i < TH_OUTCOME_COUNT; i++)
			if (c->counts[i])
				json_object_set_new(counts, th_outcome_name((enum th_outcome)i),
						    json_integer(c->counts[i]));
		json_object_set_new(o, "counts", counts);
	}
	if (j->base) {
		const struct th_cell *b = th_results_find_cell(j->base, c->platform, c->attack,
							       c->variant, c->config, c->toolchain);

		json_object_set_new(o, "baseline", b ? json_string(th_outcome_name(th_cell_observed(b))) :
					       json_null());
	}
	json_object_set_new(o, "evidence", th_check_jstr(c->evidence));
}

/* "ATTACK variant/config/toolchain", and " on PLATFORM" for a real kernel's. */
static void put_cell_name(FILE *out, const char *platform, const char *attack, enum th_variant v,
			  const char *config, const char *toolchain)
{
	fprintf(out, "%s %s/%s/%s", attack, th_variant_name(v), config, toolchain);
	if (!th_platform_is_model(platform))
		fprintf(out, " on %s", platform);
}

static void put_cell(FILE *out, const struct th_cell *c)
{
	put_cell_name(out, c->platform, c->attack, c->variant, c->config, c->toolchain);
}

/* " (counts: NO_EFFECT 3/5, CRASHED 2/5)" when more than one outcome was
 * counted or the counts disagree with the outcome field. */
static void put_counts(FILE *out, const struct th_cell *c)
{
	int kinds = 0, worst = -1;

	for (int i = TH_OUTCOME_COUNT - 1; i >= 0; i--) {
		if (c->counts[i]) {
			kinds++;
			worst = i;
		}
	}
	bool disagree = worst >= 0 && worst != (int)c->outcome;

	if (kinds < 2 && !disagree)
		return;
	fputs(" (counts:", out);
	for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
		if (!c->counts[i])
			continue;
		fprintf(out, "%s %s %u/%u", first ? "" : ",", th_outcome_name((enum th_outcome)i),
			c->counts[i], c->runs);
		first = 0;
	}
	if (disagree)
		fprintf(out, ", which disagree with its outcome field, %s",
			th_outcome_name(c->outcome) ? th_outcome_name(c->outcome) : "?");
	fputc(')', out);
}

static const char *oname(enum th_outcome o)
{
	return o == TH_OUTCOME_INVALID ? "none" : th_outcome_name(o);
}

/* ---- the declaration ---- */

/* The declared outcome or set ("HIJACKED|CRASHED"); 0 when none (or the
 * declaration is not one). */
static th_outcome_set declared_set(const struct judge *j, const char *platform, const char *attack,
				   enum th_variant v, const char *config, const char *toolchain)
{
	const char *e = j->d->expect(platform, attack, th_variant_name(v), config, toolchain);
	th_outcome_set set;
	char why[300];

	return e && !th_outcome_set_parse(e, &set, why, sizeof(why)) ? set : 0;
}

/* Its most severe member: the worst acceptable outcome. */
static enum th_outcome declared(const struct judge *j, const char *platform, const char *attack,
				enum th_variant v, const char *config, const char *toolchain)
{
	return th_outcome_set_worst(declared_set(j, platform, attack, v, config, toolchain));
}

static const char *declared_where(const struct judge *j, const char *platform, const char *attack,
				  enum th_variant v, const char *config, const char *toolchain)
{
	const char *w = j->d->where(platform, attack, th_variant_name(v), config, toolchain);

	return w ? w : "no rule";
}

static bool in_names(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Is name an item of the comma list? NULL holds everything. */
static bool in_list(const char *list, const char *name, bool globs)
{
	size_t n;

	if (!list)
		return true;
	for (const char *p = list;; p += n + 1) {
		char item[256];

		n = strcspn(p, ",");
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (globs ? !fnmatch(item, name, FNM_CASEFOLD) : !strcmp(item, name))
			return true;
		if (!p[n])
			return false;
	}
}

/* A kernel config of the plan, planned on @platform's release. */
static bool kernel_config_on(const struct th_check_decl *d, const char *platform,
			     const char *config)
{
	return in_names(d->kernel_configs, d->nkernel_configs, config) &&
	       (!d->kernel_config_on || d->kernel_config_on(d->kernel_config_arg, platform, config));
}

/* The variant the kernel plan gives its attack @a (an index of
 * kernel_attacks): its family's generation on the real kernels. */
static enum th_variant kernel_variant(const struct th_check_decl *d, size_t a)
{
	return d->kernel_variants ? th_variant_parse(d->kernel_variants[a]) : TH_VARIANT_MODERN;
}

/* Is @attack in the kernel plan, with variant @v? */
static bool kernel_attack_is(const struct th_check_decl *d, const char *attack, enum th_variant v)
{
	for (size_t a = 0; a < d->nkernel_attacks; a++)
		if (!strcmp(d->kernel_attacks[a], attack))
			return kernel_variant(d, a) == v;
	return false;
}

/* In the plan: the model's, the registry's attacks (and the self-tests when
 * the run added them) x the declared configs; a real kernel's, its plan's
 * attacks, each in its family's variant (the timer's modern, the tasklet's
 * transitional), x its kernel configs. */
static bool planned(const struct judge *j, const char *platform, const char *attack,
		    enum th_variant v, const char *config)
{
	const struct th_check_decl *d = j->d;

	if (!th_platform_is_model(platform))
		return kernel_attack_is(d, attack, v) && kernel_config_on(d, platform, config);
	return (in_names(d->attacks, d->nattacks, attack) ||
		(j->res->selection.selftests && in_names(d->selftests, d->nselftests, attack))) &&
	       in_names(d->configs, d->nconfigs, config);
}

/* Why a cell is not planned. */
static const char *unplanned_why(const struct judge *j, const struct th_cell *c)
{
	const struct th_check_decl *d = j->d;

	if (!th_platform_is_model(c->platform))
		return !d->nkernel_attacks ? "a real kernel's cell, but no kernel plan to judge it by" :
		       !in_names(d->kernel_attacks, d->nkernel_attacks, c->attack) ?
		       "not an attack of the kernel plan" :
		       !kernel_attack_is(d, c->attack, c->variant) ?
		       "not the variant its family has on the real kernels (the timer's modern, the tasklet's transitional: 6.1 and 6.12)" :
		       !in_names(d->kernel_configs, d->nkernel_configs, c->config) ?
		       "not a kernel config of the kernel plan" :
		       !kernel_config_on(d, c->platform, c->config) ?
		       "not a kernel config of its release in the kernel plan (kernel/kernels.tsv)" :
		       "not an attack of the kernel plan";
	return !in_names(d->configs, d->nconfigs, c->config) ? "not a declared config" :
	       "not an attack of the registry";
}

/* A toolchain of the model's plan: one a model cell names, or no cell
 * (its cells are missing); not one only a real kernel's cells name. */
static bool model_toolchain(const struct th_results *r, const char *tc)
{
	bool any = false;

	for (size_t i = 0; i < r->ncells; i++) {
		if (strcmp(r->cells[i]->toolchain, tc))
			continue;
		if (th_platform_is_model(r->cells[i]->platform))
			return true;
		any = true;
	}
	return !any;
}

/* Does platform (a real kernel) have a cell of toolchain (NULL: any)? */
static bool platform_has(const struct th_results *r, const char *platform, const char *tc)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (!strcmp(r->cells[i]->platform, platform) &&
		    (!tc || !strcmp(r->cells[i]->toolchain, tc)))
			return true;
	return false;
}

/* Is the cell one the run was asked for? Everything, unless a slice is
 * judged as one; a real kernel's plan is never sliced. */
static bool selected(const struct judge *j, const char *attack, enum th_variant v,
		     const char *config, const char *toolchain)
{
	const struct th_selection *s = &j->res->selection;

	return !j->sliced ||
	       (in_list(s->toolchains, toolchain, false) && in_list(s->configs, config, false) &&
		in_list(s->variants, th_variant_name(v), false) && in_list(s->attacks, attack, true) &&
		th_results_holds_shard(j->res, attack, v, config, toolchain));
}

/* ---- findings ---- */

/* What a cell stored about its declaration, before check replaced it. */
struct stored {
	th_outcome_set expected;	/* the stored expected (and expected_set) */
	unsigned line;		/* 0: not recorded */
};

/* Replace each stored expectation (and the line declaring it) by the
 * declared one; stored[i] keeps what cells[i] said. */
static void redeclare(struct judge *j, const struct th_cell **cells, struct stored *stored)
{
	for (size_t i = 0; i < j->res->ncells; i++) {
		struct th_cell *c = (struct th_cell *)cells[i];

		th_outcome_set set = declared_set(j, c->platform, c->attack, c->variant, c->config,
						  c->toolchain);

		stored[i] = (struct stored){ th_cell_expected_set(c), c->expected_line };
		c->expected = th_outcome_set_worst(set);
		c->expected_set = th_outcome_set_size(set) > 1 ? set : 0;
		c->expected_line = th_where_line(j->d->where(c->platform, c->attack,
							  th_variant_name(c->variant), c->config,
							  c->toolchain));
	}
}

/* A stored expectation that is not the declared one (from the same file:
 * the results were edited), and cells that are not in the plan. */
static void doctored_cells(struct judge *j, const struct th_cell **cells,
			   const struct stored *stored)
{
	bool same_file = !strcmp(j->res->expect_sha256, j->d->expect_sha256);

	for (size_t i = 0; i < j->res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (!planned(j, c->platform, c->attack, c->variant, c->config)) {
			FILE *f = fstart(j, "unplanned");

			j->unplanned++;
			put_cell(f, c);
			fprintf(f, ": %s", unplanned_why(j, c));
			jcell(j, fdone(j), c);
		}
		/* The attack implies its family: a model cell that says another
		 * was edited (the verdict card reads the family). */
		for (size_t a = 0; j->d->attack_apis && th_platform_is_model(c->platform) &&
				   a < j->d->nattacks; a++) {
			if (strcmp(j->d->attacks[a], c->attack) ||
			    !strcmp(j->d->attack_apis[a], th_api_name(c->api)))
				continue;
			FILE *f = fstart(j, "doctored");

			j->doctored++;
			put_cell(f, c);
			fprintf(f, ": api is %s, but its attack writes into a %s", th_api_name(c->api),
				j->d->attack_apis[a]);
			jcell(j, fdone(j), c);
		}
		/* A line recorded by an older run may be absent (0). */
		bool line_ok = !stored[i].line || stored[i].line == c->expected_line;

		char had[200], now[200];

		if (stored[i].expected == th_cell_expected_set(c) && line_ok)
			continue;
		if (!same_file) {
			j->other_expect++;
			continue;
		}
		FILE *f = fstart(j, "doctored");

		j->doctored++;
		put_cell(f, c);
		if (stored[i].expected == th_cell_expected_set(c))
			fprintf(f, ": stored expected_line %u, declared on line %u (", stored[i].line,
				c->expected_line);
		else
			fprintf(f, ": stored expected %s, declared %s (",
				th_outcome_set_format(stored[i].expected, had, sizeof(had)),
				th_cell_expected_text(c, now, sizeof(now)));
		th_report_put_line(f, declared_where(j, c->platform, c->attack, c->variant, c->config,
						     c->toolchain));
		fputc(')', f);
		jcell(j, fdone(j), c);
	}
}

/*
 * A cell's evidence in the words of its outcome's proof: the forms its
 * classifier prints (cfi/evidence.h: the model's, a real kernel's
 * console's), and, given the consoles (o->console_recheck), a real
 * kernel's console log that classifies again to the cell's outcome. Else
 * doctored, with the cell, the field and the forms named.
 */
static void evidence_unproven(struct judge *j, const struct th_cell *c)
{
	bool model = th_platform_is_model(c->platform);
	enum th_evidence_source src = model ? TH_EVIDENCE_MODEL : TH_EVIDENCE_KERNEL;
	const char *name = th_outcome_name(c->outcome);
	char forms[700], why[600];
	FILE *f;

	if (!th_evidence_form_ok(c->outcome, src, c->runs, c->evidence)) {
		th_evidence_forms_text(c->outcome, src, forms, sizeof(forms));
		f = fstart(j, "doctored");
		j->doctored++;
		put_cell(f, c);
		fprintf(f, ": evidence is not %s's proof in %s words (%s): ", name ? name : "?",
			model ? "the classifier's" : "the console classifier's", forms);
		th_report_put_line(f, c->evidence);
		jcell(j, fdone(j), c);
		return;
	}
	/* The defence it names is one its config builds (a block under none,
	 * ASan's report under kcfi: words copied from another cell). */
	for (size_t i = 0; model && th_evidence_held(c->outcome) && j->d->config_cflags &&
			   i < j->d->nconfigs; i++) {
		const char *need;

		if (strcmp(j->d->configs[i], c->config) ||
		    !(need = th_evidence_defence(c->evidence, why, sizeof(why))) ||
		    strstr(j->d->config_cflags[i], need))
			continue;
		f = fstart(j, "doctored");
		j->doctored++;
		put_cell(f, c);
		fprintf(f, ": evidence names a defence %s does not build (%s, not in its flags: ", c->config,
			need);
		th_report_put_line(f, j->d->config_cflags[i]);
		fputs("): ", f);
		th_report_put_line(f, c->evidence);
		jcell(j, fdone(j), c);
		return;
	}
	/* A real kernel's block (all its words are a CFI or IBT report's)
	 * under a kernel config that builds neither. */
	for (size_t i = 0; !model && j->d->kernel_config_cfi && i < j->d->nkernel_configs &&
			   (c->outcome == TH_BLOCKED_CFI || c->outcome == TH_FALSE_POSITIVE); i++) {
		if (strcmp(j->d->kernel_configs[i], c->config) || j->d->kernel_config_cfi[i])
			continue;
		f = fstart(j, "doctored");
		j->doctored++;
		put_cell(f, c);
		fprintf(f, ": evidence is a CFI report, but kernel config %s builds no check that stops a "
			"call (its .config sets neither CONFIG_CFI_CLANG nor CONFIG_X86_KERNEL_IBT): ",
			c->config);
		th_report_put_line(f, c->evidence);
		jcell(j, fdone(j), c);
		return;
	}
	/* A harness error fails as one, whatever its console says (the boot's
	 * CFI mode not taken is said by the host, not the console). */
	if (model || !j->o->console_recheck || c->outcome == TH_HARNESS_ERROR)
		return;
	if (j->o->console_recheck(j->o->console_arg, c, why, sizeof(why))) {
		f = fstart(j, "doctored");
		j->doctored++;
		put_cell(f, c);
		fputs(": evidence: ", f);
		th_report_put_line(f, why);
		jcell(j, fdone(j), c);
	}
}

/*
 * A cell's outcome backed by what was run: at least one run, counts that
 * sum to the runs, its outcome among them, and evidence. UNSUPPORTED and
 * NOT_APPLICABLE are said of a cell nothing ran; so is a HARNESS_ERROR the
 * harness could not start (no run; it fails the gate as one either way),
 * which still says why. Any other cell without them was written, not
 * measured: doctored, with the field named.
 */
static void unbacked_cells(struct judge *j, const struct th_cell **cells)
{
	for (size_t i = 0; i < j->res->ncells; i++) {
		const struct th_cell *c = cells[i];
		const char *name = th_outcome_name(c->outcome);
		unsigned long long sum = 0;
		bool unrun = c->outcome == TH_UNSUPPORTED || c->outcome == TH_NOT_APPLICABLE;
		const char *e = c->evidence ? c->evidence : "";
		FILE *f;

		for (int k = 0; k < TH_OUTCOME_COUNT; k++)
			sum += c->counts[k];
		e += strspn(e, " \t\r\n");
		if (unrun || (c->outcome == TH_HARNESS_ERROR && !c->runs && !sum && *e))
			continue;
		if (c->runs >= 1 && sum == c->runs && c->counts[c->outcome] && *e) {
			evidence_unproven(j, c);
			continue;
		}
		f = fstart(j, "doctored");
		j->doctored++;
		put_cell(f, c);
		if (c->runs < 1 && c->outcome != TH_HARNESS_ERROR)
			fprintf(f, ": runs is %u: %s is backed by no run (only UNSUPPORTED and "
				"NOT_APPLICABLE stand without one)", c->runs, name ? name : "?");
		else if (sum != c->runs)
			fprintf(f, ": counts sum to %llu but runs is %u", sum, c->runs);
		else if (c->runs && !c->counts[c->outcome])
			fprintf(f, ": outcome %s is not among its counts (no run observed it)",
				name ? name : "?");
		else
			fprintf(f, ": evidence is empty: %s is shown by nothing the run observed",
				name ? name : "?");
		jcell(j, fdone(j), c);
	}
}

static void cell_line(struct judge *j, const struct th_cell *c, const char *what)
{
	const struct th_cell *b = j->base ? th_results_find_cell(j->base, c->platform, c->attack,
								 c->variant, c->config, c->toolchain) : NULL;
	enum th_outcome obs = th_cell_observed(c);
	FILE *out = fstart(j, what);
	char exp[200];

	put_cell(out, c);
	fprintf(out, ": expected %s", th_cell_expected_text(c, exp, sizeof(exp)));
	if (j->base)
		fprintf(out, ", baseline %s", b ? oname(th_cell_observed(b)) : "none");
	fprintf(out, ", observed %s", th_outcome_name(obs));
	put_counts(out, c);
	if (c->expected_set && c->verdict == TH_VERDICT_REGRESSION &&
	    (th_cell_seen(c) & ~c->expected_set & (TH_OUTCOME_BIT(TH_UNSUPPORTED) - 1)))
		fputs(" (an outcome the set does not name)", out);
	if (obs == TH_UNSUPPORTED || obs == TH_NOT_APPLICABLE) {
		const struct th_support *s = th_report_cell_support(j->res, c);

		if (c->verdict == TH_VERDICT_REGRESSION)
			fprintf(out, " (coverage lost: %s did not run on %s)", c->config, c->toolchain);
		if (s && !s->supported && *s->reason) {
			fputs("; reason: ", out);
			th_report_put_line(out, s->reason);
		}
	}
	fputs("; evidence: ", out);
	th_report_put_line(out, c->evidence);
	jcell(j, fdone(j), c);
}

/* Is platform (a real kernel) one of the results'? */
static bool kernel_judged(const struct judge *j, const char *platform)
{
	return th_results_find_platform(j->res, platform) != NULL;
}

/* Would the plan loop below have listed the baseline's cell c? */
static bool listed_by_plan(const struct judge *j, const struct th_cell *c)
{
	const struct th_results *r = j->res;

	if (th_platform_is_model(c->platform))
		return th_results_find_toolchain(r, c->toolchain) && model_toolchain(r, c->toolchain) &&
		       planned(j, c->platform, c->attack, c->variant, c->config);
	return kernel_judged(j, c->platform) && j->d->nkernel_attacks &&
	       planned(j, c->platform, c->attack, c->variant, c->config) &&
	       (!platform_has(r, c->platform, NULL) || platform_has(r, c->platform, c->toolchain));
}

static void missing_line(struct judge *j, const char *platform, const char *atk, enum th_variant v,
			 const char *config, const char *tc, const char *why)
{
	const struct th_cell *b;
	char exp[200];
	th_outcome_set set = declared_set(j, platform, atk, v, config, tc);
	FILE *f = fstart(j, "missing");
	json_t *o;

	j->missing++;
	put_cell_name(f, platform, atk, v, config, tc);
	fprintf(f, ": declared %s", th_outcome_set_format(set, exp, sizeof(exp)));
	b = j->base ? th_results_find_cell(j->base, platform, atk, v, config, tc) : NULL;
	if (b)
		fprintf(f, ", baseline %s", oname(th_cell_observed(b)));
	fprintf(f, ", not in the results (%s)", why);
	if ((o = fdone(j))) {
		jcell_key(o, platform, atk, v, config, tc);
		jexpected(o, set, j->d->where(platform, atk, th_variant_name(v), config, tc));
		if (b)
			json_object_set_new(o, "baseline", json_string(th_outcome_name(th_cell_observed(b))));
	}
}

/* Every cell of a real kernel's plan its platform lacks: for each
 * toolchain its cells name, every attack of the plan x every kernel config
 * (modern: Linux 6.1's layout). */
static void missing_kernel_cells(struct judge *j, const char *platform, const char *why)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;

	if (!d->nkernel_attacks)
		return;
	size_t nconfigs = 0;

	for (size_t c = 0; c < d->nkernel_configs; c++)
		nconfigs += kernel_config_on(d, platform, d->kernel_configs[c]);
	if (!platform_has(r, platform, NULL)) {
		FILE *f = fstart(j, "missing");

		j->missing += d->nkernel_attacks * nconfigs;
		fprintf(f, "every cell of %s: the results declare the platform but hold "
			"none of its %zu planned cells (", platform, d->nkernel_attacks * nconfigs);
		th_report_put_line(f, d->kernel_plan ? d->kernel_plan : "the kernel plan");
		fprintf(f, ") (%s)", why);
		fdone(j);
		return;
	}
	for (size_t t = 0; t < r->ntoolchains; t++) {
		const char *tc = r->toolchains[t].name;

		if (!platform_has(r, platform, tc))
			continue;
		for (size_t c = 0; c < d->nkernel_configs; c++)
			for (size_t a = 0; a < d->nkernel_attacks; a++)
				if (kernel_config_on(d, platform, d->kernel_configs[c]) &&
				    !th_results_find_cell(r, platform, d->kernel_attacks[a], kernel_variant(d, a),
							  d->kernel_configs[c], tc))
					missing_line(j, platform, d->kernel_attacks[a], kernel_variant(d, a),
						     d->kernel_configs[c], tc, why);
	}
}

/* Every cell of the plan (and of the baseline) that the results lack. */
static void missing_cells(struct judge *j)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;
	const char *why = r->partial ? "partial run" : "coverage lost";

	for (size_t t = 0; t < r->ntoolchains; t++) {
		const char *tc = r->toolchains[t].name;

		if (!model_toolchain(r, tc))
			continue;
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			for (size_t c = 0; c < d->nconfigs; c++) {
				for (size_t a = 0; a < d->nattacks + d->nselftests; a++) {
					const char *atk = a < d->nattacks ? d->attacks[a] :
							  d->selftests[a - d->nattacks];

					if ((a >= d->nattacks && !r->selection.selftests) ||
					    !selected(j, atk, v, d->configs[c], tc) ||
					    th_results_find_cell(r, TH_PLATFORM_MODEL, atk, v, d->configs[c], tc))
						continue;
					missing_line(j, TH_PLATFORM_MODEL, atk, v, d->configs[c], tc, why);
				}
			}
		}
	}
	for (size_t p = 0; p < r->nplatforms; p++)
		missing_kernel_cells(j, r->platforms[p].name, why);
	for (size_t i = 0; j->base && i < j->base->ncells; i++) {
		const struct th_cell *c = j->base->cells[i];
		bool model = th_platform_is_model(c->platform);

		/* Cells of the plan were listed above. */
		if (th_results_find_cell(r, c->platform, c->attack, c->variant, c->config, c->toolchain) ||
		    (model && !selected(j, c->attack, c->variant, c->config, c->toolchain)) ||
		    listed_by_plan(j, c))
			continue;
		FILE *f = fstart(j, "missing");
		json_t *o;

		j->missing++;
		put_cell(f, c);
		fprintf(f, ": baseline %s, not in the results (%s)", oname(th_cell_observed(c)), why);
		if ((o = fdone(j))) {
			jcell_key(o, c->platform, c->attack, c->variant, c->config, c->toolchain);
			json_object_set_new(o, "baseline", json_string(oname(th_cell_observed(c))));
		}
	}
}

/* A config probed unsupported where its cells declare real outcomes, or
 * supported in the baseline and not now: a toolchain lost a defence. */
static void lost_defences(struct judge *j)
{
	const struct th_results *r = j->res;
	const struct th_check_decl *d = j->d;

	for (size_t ci = 0; ci < r->nconfigs; ci++) {
		const struct th_config *cfg = &r->configs[ci];

		for (size_t t = 0; t < r->ntoolchains; t++) {
			const char *tc = r->toolchains[t].name;
			const struct th_support *s = th_config_support(cfg, tc);
			const struct th_config *bcfg = j->base ? th_results_find_config(j->base, cfg->name) : NULL;
			const struct th_support *bs = bcfg ? th_config_support(bcfg, tc) : NULL;
			size_t nreal = 0;
			const char *first = NULL;

			if (!s || s->supported || !model_toolchain(r, tc))
				continue;
			for (int v = 0; v < TH_VARIANT_COUNT; v++)
				for (size_t a = 0; a < d->nattacks; a++)
					if (selected(j, d->attacks[a], v, cfg->name, tc) &&
					    th_outcome_ran(declared(j, TH_PLATFORM_MODEL, d->attacks[a], v, cfg->name,
							  tc))) {
						if (!nreal++)
							first = declared_where(j, TH_PLATFORM_MODEL, d->attacks[a],
									       v, cfg->name, tc);
					}
			if (!nreal && !(bs && bs->supported))
				continue;
			FILE *f = fstart(j, "lost defence");
			json_t *o;

			j->lost++;
			fprintf(f, "%s on %s: probed unsupported", cfg->name, tc);
			if (*s->reason) {
				fputs(" (", f);
				th_report_put_line(f, s->reason);
				fputc(')', f);
			}
			if (bs && bs->supported)
				fputs(", supported in the baseline", f);
			if (nreal) {
				fprintf(f, "; %zu cell%s declare a real outcome (first: ", nreal,
					nreal == 1 ? "" : "s");
				th_report_put_line(f, first);
				fputc(')', f);
			}
			if ((o = fdone(j))) {
				json_object_set_new(o, "config", th_check_jstr(cfg->name));
				json_object_set_new(o, "toolchain", th_check_jstr(tc));
			}
		}
	}
}

/* ---- a real kernel beside the model ---- */

/* The checkout's declarations as results/results.h's th_difference_fn. */
static bool decl_declared(void *ctx, const char *platform, const char *attack, const char *variant,
			  const char *config, const char *toolchain, enum th_outcome model,
			  enum th_outcome kernel, const char **reason, const char **rule)
{
	const struct th_check_decl *d = ctx;
	long i = d->differs ? d->differs(platform, attack, variant, config, toolchain) : -1;
	const struct th_check_difference *df = i >= 0 ? d->difference((size_t)i) : NULL;

	if (!df || th_outcome_parse(df->model) != model || th_outcome_parse(df->kernel) != kernel)
		return false;
	*reason = df->reason;
	*rule = df->where;
	return true;
}

static bool same_row_key(const struct th_agreement *a, const struct th_agreement *b)
{
	return a->variant == b->variant && !strcmp(a->attack, b->attack) &&
	       !strcmp(a->config, b->config) && !strcmp(a->toolchain, b->toolchain) &&
	       !strcmp(a->platform, b->platform);
}

static void put_row(FILE *out, const struct th_agreement *r)
{
	put_cell_name(out, r->platform, r->attack, r->variant, r->config, r->toolchain);
}

/* An agreement row's data: the real kernel's cell, both outcomes. */
static void jrow(json_t *o, const struct th_agreement *r)
{
	if (!o)
		return;
	jcell_key(o, r->platform, r->attack, r->variant, r->config, r->toolchain);
	json_object_set_new(o, "model_outcome", json_string(th_outcome_name(r->model)));
	json_object_set_new(o, "kernel_outcome", json_string(th_outcome_name(r->kernel)));
}

/* The stored agreement against the one the cells and the declarations
 * give: a difference is doctored (from the same expectations file; by
 * other expectations, only the outcomes are compared). */
static void doctored_agreement(struct judge *j, const struct th_agreement *rows, size_t n)
{
	const struct th_results *r = j->res;
	bool same_file = !strcmp(r->expect_sha256, j->d->expect_sha256);

	if (!r->has_agreement) {
		if (n) {
			j->doctored++;
			fprintf(fstart(j, "doctored"), "agreement: not in the results, though %zu pair%s "
				"of a real kernel's and the model's cells %s one", n, n == 1 ? "" : "s",
				n == 1 ? "gives" : "give");
			fdone(j);
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct th_agreement *c = &rows[i], *st = NULL;

		for (size_t k = 0; !st && k < r->nagreement; k++)
			if (same_row_key(c, &r->agreement[k]))
				st = &r->agreement[k];
		if (!st) {
			FILE *f = fstart(j, "doctored");

			j->doctored++;
			fputs("agreement: ", f);
			put_row(f, c);
			fprintf(f, ": no stored row; the cells give model %s, kernel %s",
				th_outcome_name(c->model), th_outcome_name(c->kernel));
			jrow(fdone(j), c);
			continue;
		}
		if (st->model != c->model || st->kernel != c->kernel || st->agrees != c->agrees) {
			FILE *f = fstart(j, "doctored");

			j->doctored++;
			fputs("agreement: ", f);
			put_row(f, c);
			fprintf(f, ": stored model %s, kernel %s (%s), the cells say model %s, kernel "
				"%s", th_outcome_name(st->model), th_outcome_name(st->kernel),
				st->agrees ? "agree" : "differ", th_outcome_name(c->model),
				th_outcome_name(c->kernel));
			jrow(fdone(j), c);
			continue;
		}
		if (th_same_str(st->reason, c->reason) && th_same_str(st->rule, c->rule))
			continue;
		if (!same_file) {
			j->other_expect++;
			continue;
		}
		FILE *f = fstart(j, "doctored");

		j->doctored++;
		fputs("agreement: ", f);
		put_row(f, c);
		fputs(": stored declaration ", f);
		th_report_put_line(f, st->rule ? st->rule : "none");
		fputs(", declared ", f);
		th_report_put_line(f, c->rule ? c->rule : "none");
		jrow(fdone(j), c);
	}
	for (size_t k = 0; k < r->nagreement; k++) {
		bool found = false;

		for (size_t i = 0; !found && i < n; i++)
			found = same_row_key(&rows[i], &r->agreement[k]);
		if (found)
			continue;
		FILE *f = fstart(j, "doctored");

		j->doctored++;
		fputs("agreement: ", f);
		put_row(f, &r->agreement[k]);
		fputs(": a stored row, but the results hold no such pair of cells", f);
		jrow(fdone(j), &r->agreement[k]);
	}
}

static void put_evidence(FILE *out, const char *what, const struct th_cell *c)
{
	fprintf(out, "; %s evidence: ", what);
	th_report_put_line(out, c ? c->evidence : "(no cell)");
}

/* Each real-kernel cell beside the model's: a difference no @differs row
 * declares is a regression; a row whose outcomes are not the observed
 * ones, or (in a whole run) that no pair of cells uses, is stale. */
static void judge_agreement(struct judge *j, const struct th_agreement *rows, size_t n)
{
	const struct th_check_decl *d = j->d;
	const struct th_results *r = j->res;
	bool *used = d->ndifferences ? calloc(d->ndifferences, sizeof(*used)) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct th_agreement *row = &rows[i];
		const char *v = th_variant_name(row->variant);
		long k = d->differs ? d->differs(row->platform, row->attack, v, row->config,
						 row->toolchain) : -1;
		const struct th_check_difference *df = k >= 0 ? d->difference((size_t)k) : NULL;
		const struct th_cell *mc = th_results_find_cell(r, TH_PLATFORM_MODEL, row->attack,
								row->variant, row->config, row->toolchain);
		const struct th_cell *kc = th_results_find_cell(r, row->platform, row->attack,
								row->variant, row->config, row->toolchain);

		if (k >= 0 && used)
			used[k] = true;
		/* A harness error is no outcome: judged as one (exit 3). */
		if (row->model == TH_HARNESS_ERROR || row->kernel == TH_HARNESS_ERROR)
			continue;
		if (row->agrees) {
			j->agree++;
			if (!df)
				continue;
			FILE *f = fstart(j, "stale");
			json_t *o;

			j->stale++;
			th_report_put_line(f, df->where);
			fprintf(f, " declares model %s, kernel %s for ", df->model, df->kernel);
			put_row(f, row);
			fprintf(f, ", but both observed %s: the declaration no longer holds",
				th_outcome_name(row->model));
			jrow(o = fdone(j), row);
			if (o)
				json_object_set_new(o, "rule", th_check_jstr(df->where));
			continue;
		}
		if (row->reason) {
			j->declared_diff++;
			if (j->o->verbose || j->jf) {
				FILE *f = fstart(j, "declared difference");
				json_t *o;

				put_row(f, row);
				fprintf(f, ": model %s, kernel %s (", th_outcome_name(row->model),
					th_outcome_name(row->kernel));
				th_report_put_line(f, row->rule);
				fputs(": ", f);
				th_report_put_line(f, row->reason);
				fputc(')', f);
				jrow(o = fdone(j), row);
				if (o)
					json_object_set_new(o, "rule", th_check_jstr(row->rule));
			}
			continue;
		}
		FILE *f = fstart(j, "disagreement");
		json_t *o;

		j->disagree++;
		put_row(f, row);
		fprintf(f, ": model %s, kernel %s, ", th_outcome_name(row->model),
			th_outcome_name(row->kernel));
		if (df) {
			j->stale++;
			th_report_put_line(f, df->where);
			fprintf(f, " declares model %s, kernel %s (stale)", df->model, df->kernel);
		} else {
			fputs("no @differs row declares it", f);
		}
		put_evidence(f, "model", mc);
		put_evidence(f, "kernel", kc);
		jrow(o = fdone(j), row);
		if (o && df)
			json_object_set_new(o, "rule", th_check_jstr(df->where));
	}
	/* A declaration no pair of cells uses declares nothing observed: in a
	 * whole run (a slice may lack the model's side), stale too. */
	for (size_t k = 0; used && k < d->ndifferences && !th_results_is_slice(r); k++) {
		const struct th_check_difference *df = d->difference(k);
		const char *on = NULL;

		if (used[k])
			continue;
		for (size_t p = 0; !on && p < r->nplatforms; p++)
			if (platform_has(r, r->platforms[p].name, NULL) &&
			    d->difference_on(k, r->platforms[p].name))
				on = r->platforms[p].name;
		if (!on)
			continue;
		FILE *f = fstart(j, "stale");
		json_t *o;

		j->stale++;
		th_report_put_line(f, df->where);
		fprintf(f, " declares model %s, kernel %s for ", df->model, df->kernel);
		th_report_put_line(f, df->attack);
		fputc(' ', f);
		th_report_put_line(f, df->variant);
		fputc('/', f);
		th_report_put_line(f, df->config);
		fputc('/', f);
		th_report_put_line(f, df->toolchain);
		fprintf(f, ", but no pair of %s's and the model's cells is such a cell", on);
		if ((o = fdone(j)))
			json_object_set_new(o, "rule", th_check_jstr(df->where));
	}
	free(used);
}

/* "check: linux-6.1.192: 38 cells, 30 agree with the model, ..." */
static void agreement_lines(struct judge *j, const struct th_agreement *rows, size_t n)
{
	for (size_t p = 0; p < j->res->nplatforms; p++) {
		struct th_agreement_counts k;
		char line[512], more[64] = "";

		th_results_agreement_counts(j->res, rows, n, j->res->platforms[p].name, &k);
		if (k.alone)
			snprintf(more, sizeof(more), ", %zu without a model cell", k.alone);
		snprintf(line, sizeof(line), "check: %s: %zu cell%s, %zu agree with the model, %zu "
			 "declared difference%s, %zu disagree%s", j->res->platforms[p].name, k.cells,
			 k.cells == 1 ? "" : "s", k.agree, k.declared, k.declared == 1 ? "" : "s",
			 k.disagree, more);
		th_report_put_wrapped(j->out, "", line);
	}
}

/* The recorded selection, for the summary: "configs none,cfi-icall; ...",
 * as it is (the summary is shown escaped, th_report_put_wrapped). */
static void put_selection(FILE *out, const struct th_selection *s)
{
	const char *lists[] = { s->toolchains, s->configs, s->variants, s->attacks };
	static const char *const names[] = { "toolchains", "configs", "variants", "attacks" };

	for (int i = 0, first = 1; i < 4; i++) {
		if (!lists[i])
			continue;
		fprintf(out, "%s%s %s", first ? "" : "; ", names[i], lists[i]);
		first = 0;
	}
}

/* The results must say what they were run with; check cannot judge a file
 * that does not. */
static int provenance(const struct judge *j, const char *path, FILE *err)
{
	if (!j->res->ncells) {
		fputs("check: ", err);
		th_report_put_line(err, path);
		fputs(": no cells: an empty run is no result (was the selection empty?)\n", err);
		return -1;
	}
	if (!j->res->expect_path || !j->res->has_selection) {
		fputs("check: ", err);
		th_report_put_line(err, path);
		fprintf(err, ": records no %s: not made by this timerharness's matrix, or edited; "
			"rerun the matrix\n", !j->res->expect_path ? "expectations file" : "selection");
		return -1;
	}
	return 0;
}

/* path as the reader would type it: relative to the working directory
 * when it lies below it (cwd: a buffer for it). */
const char *th_check_shorter_path(const char *path, char *cwd, size_t n)
{
	size_t len;

	if (*path != '/' || !getcwd(cwd, n))
		return path;
	len = strlen(cwd);
	return !strncmp(path, cwd, len) && path[len] == '/' && len > 1 ? path + len + 1 : path;
}

void th_check_answer(FILE *out, int rc, const char *results, const char *expect,
		     const char *baseline, const char *more)
{
	char cwd[4096], *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	const char *status = rc == TH_CHECK_OK ? "PASS" : rc == TH_CHECK_REGRESSION ? "FAIL" :
			     rc == TH_CHECK_BAD_INPUT ? "BAD INPUT" : "HARNESS ERROR";

	if (!m) {
		fprintf(out, "check: %s (exit %d)\n", status, rc);
		return;
	}
	expect = th_check_shorter_path(expect, cwd, sizeof(cwd));
	fprintf(m, "check: %s (exit %d): %s judged by %s", status, rc, results, expect);
	if (baseline)
		fprintf(m, " and the baseline %s", baseline);
	if (more)
		fprintf(m, " %s", more);
	/* Within 80 columns, as the verdict screen before it (escaped there). */
	if (!fclose(m))
		th_report_put_wrapped(out, "", line);
	else
		fprintf(out, "check: %s (exit %d)\n", status, rc);
	free(line);
}

/* check --json: the counts and findings into the caller's object. */
static void put_json(struct judge *j, json_t *doc, bool slice)
{
	json_t *k = json_object();
	const struct th_results *r = j->res;

	if (k) {
		json_object_set_new(k, "cells", json_integer((json_int_t)r->ncells));
		json_object_set_new(k, "pass", json_integer(j->n[TH_VERDICT_PASS]));
		json_object_set_new(k, "regression", json_integer(j->n[TH_VERDICT_REGRESSION]));
		json_object_set_new(k, "improvement", json_integer(j->n[TH_VERDICT_IMPROVEMENT]));
		json_object_set_new(k, "new", json_integer(j->n[TH_VERDICT_NEW]));
		json_object_set_new(k, "missing", json_integer((json_int_t)j->missing));
		json_object_set_new(k, "harness_error", json_integer((json_int_t)j->harness));
		json_object_set_new(k, "lost_defence", json_integer((json_int_t)j->lost));
		json_object_set_new(k, "doctored", json_integer((json_int_t)j->doctored));
		json_object_set_new(k, "unplanned", json_integer((json_int_t)j->unplanned));
		json_object_set_new(k, "disagree", json_integer((json_int_t)j->disagree));
		json_object_set_new(k, "stale", json_integer((json_int_t)j->stale));
		json_object_set_new(k, "declared_difference", json_integer((json_int_t)j->declared_diff));
		json_object_set_new(doc, "counts", k);
	}
	json_object_set_new(doc, "slice", json_boolean(slice));
	json_object_set_new(doc, "partial", json_boolean(r->partial));
	if (r->partial)
		json_object_set_new(doc, "interrupted", th_check_jstr(r->interrupted ? r->interrupted : ""));
	json_object_set_new(doc, "findings", j->jf);
	j->jf = NULL;
}

int th_check_main(const struct th_check_opts *o, const struct th_check_decl *d, FILE *out,
		  FILE *err)
{
	struct judge j = { .o = o, .d = d, .out = out,
			   .jf = o->json ? json_array() : NULL };
	const char *results = o->results ? o->results : TH_CHECK_DEFAULT_RESULTS;
	const struct th_cell **cells = NULL;
	struct stored *stored = NULL;
	struct th_agreement *rows = NULL;
	size_t nrows = 0;
	char e[1024];
	int rc = TH_CHECK_BAD_INPUT;

	if (th_results_load(results, &j.res, e, sizeof(e)) ||
	    (o->baseline && th_results_load(o->baseline, &j.base, e, sizeof(e)))) {
		fputs("check: ", err);
		th_report_put_line(err, e);
		fputc('\n', err);
		goto out;
	}
	if (provenance(&j, results, err))
		goto out;
	cells = th_results_sorted_cells(j.res, e, sizeof(e));
	if (!cells) {
		fprintf(err, "check: %s\n", e);
		goto out;
	}
	j.sliced = o->allow_slice && th_results_is_slice(j.res);
	if (!(stored = malloc(j.res->ncells * sizeof(*stored)))) {
		fputs("check: out of memory\n", err);
		goto out;
	}
	redeclare(&j, cells, stored);
	th_results_apply_baseline(j.res, j.base);
	/* Informational lines first, failures last: they end next to the summary. */
	for (size_t i = 0; i < j.res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (th_cell_observed(c) == TH_HARNESS_ERROR)
			continue;
		j.n[c->verdict]++;
		/* Improvements are counted; a declaration gap (new) is always named;
		 * --json lists both. */
		if ((c->verdict == TH_VERDICT_IMPROVEMENT && (o->verbose || j.jf)) ||
		    c->verdict == TH_VERDICT_NEW)
			cell_line(&j, c, th_verdict_name(c->verdict));
	}
	for (size_t i = 0; i < j.res->ncells; i++) {
		const struct th_cell *c = cells[i];

		if (th_cell_observed(c) == TH_HARNESS_ERROR) {
			FILE *f = fstart(&j, "harness error");

			j.harness++;
			put_cell(f, c);
			fputs(": the harness could not run or observe it; evidence: ", f);
			th_report_put_line(f, c->evidence);
			jcell(&j, fdone(&j), c);
		} else if (c->verdict == TH_VERDICT_REGRESSION) {
			cell_line(&j, c, "regression");
		}
	}
	missing_cells(&j);
	lost_defences(&j);
	doctored_cells(&j, cells, stored);
	unbacked_cells(&j, cells);
	if (th_results_agreement(j.res, decl_declared, (void *)d, &rows, &nrows, e, sizeof(e))) {
		fprintf(err, "check: %s\n", e);
		rc = TH_CHECK_BAD_INPUT;
		goto out;
	}
	judge_agreement(&j, rows, nrows);
	doctored_agreement(&j, rows, nrows);
	if (j.res->nplatforms && !d->nkernel_attacks) {
		FILE *f = fstart(&j, "unplanned");

		j.no_kernel_plan = true;
		fputs("the results hold a real kernel's platform but there is no kernel plan "
		      "to judge it by (kernel/cells.tsv and kernel/configs/", f);
		if (d->kernel_plan_error) {
			fputs(": ", f);
			th_report_put_line(f, d->kernel_plan_error);
		}
		fputc(')', f);
		fdone(&j);
	}

	bool slice = th_results_is_slice(j.res);

	if (j.other_expect) {
		FILE *f = fstart(&j, "expectations");

		fputs("the run judged its cells by ", f);
		th_report_put_line(f, j.res->expect_path);
		fprintf(f, " (sha256 %.12s), check by ", j.res->expect_sha256);
		th_report_put_line(f, d->expect_path);
		fprintf(f, " (sha256 %.12s): %zu stored expectations differ; rerun the matrix, or "
			"name the file it ran with in --expect", d->expect_sha256, j.other_expect);
		fdone(&j);
	} else if (strcmp(j.res->expect_sha256, d->expect_sha256)) {
		FILE *f = fstart(&j, "expectations");

		fputs("the run recorded ", f);
		th_report_put_line(f, j.res->expect_path);
		fprintf(f, " (sha256 %.12s), check judges by ", j.res->expect_sha256);
		th_report_put_line(f, d->expect_path);
		fprintf(f, " (sha256 %.12s): not the same file", d->expect_sha256);
		fdone(&j);
	}
	if (slice && !o->allow_slice) {
		fputs("the run was asked for part of the plan only; a slice passes only "
		      "with --allow-slice", fstart(&j, "slice"));
		fdone(&j);
	}
	if (j.res->partial && !o->allow_partial) {
		fputs("the run was interrupted; partial results pass only with "
		      "--allow-partial", fstart(&j, "partial"));
		fdone(&j);
	}

	agreement_lines(&j, rows, nrows);
	/* The summary, wrapped within 80 columns. */
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *sm = open_memstream(&sum, &sumlen), *so = sm ? sm : fopen("/dev/null", "w");

	if (!so)
		so = out;

	fprintf(so, "check: %zu cells", j.res->ncells);
	if (slice) {
		fputs(" (SLICE: ", so);
		put_selection(so, &j.res->selection);
		if (j.res->shard.count) {
			fprintf(so, "%sshard%s ", th_selection_is_slice(&j.res->selection) ? "; " : "",
				j.res->shard.nindexes == 1 ? "" : "s");
			for (size_t k = 0; k < j.res->shard.nindexes; k++)
				fprintf(so, "%s%u", k ? "," : "", j.res->shard.indexes[k]);
			fprintf(so, " of %u", j.res->shard.count);
		}
		fputc(')', so);
	}
	if (j.res->partial) {
		fprintf(so, " (PARTIAL run, interrupted: %s)", j.res->interrupted ? j.res->interrupted : "?");
	}
	/* Pass and regression always; the rest when there are any (lit's
	 * summary), so the line fits a terminal. */
	fprintf(so, ": %u pass, %u regression", j.n[TH_VERDICT_PASS], j.n[TH_VERDICT_REGRESSION]);
	if (j.n[TH_VERDICT_IMPROVEMENT])
		fprintf(so, ", %u improvement%s", j.n[TH_VERDICT_IMPROVEMENT],
			o->verbose ? "" : " (see --verbose)");
	if (j.n[TH_VERDICT_NEW])
		fprintf(so, ", %u new", j.n[TH_VERDICT_NEW]);
	if (j.missing)
		fprintf(so, ", %zu missing", j.missing);
	if (j.harness)
		fprintf(so, ", %zu harness error%s", j.harness, j.harness == 1 ? "" : "s");
	if (j.lost)
		fprintf(so, ", %zu lost defence%s", j.lost, j.lost == 1 ? "" : "s");
	if (j.doctored)
		fprintf(so, ", %zu doctored", j.doctored);
	if (j.unplanned)
		fprintf(so, ", %zu unplanned", j.unplanned);
	if (j.disagree)
		fprintf(so, ", %zu disagree%s", j.disagree, j.disagree == 1 ? "s" : "");
	if (j.stale)
		fprintf(so, ", %zu stale declaration%s", j.stale, j.stale == 1 ? "" : "s");
	if (sm && !fclose(sm)) {
		th_report_put_wrapped(out, "", sum);
	} else {
		/* Out of memory: the counts at least, nothing unescaped. */
		if (!sm && so != out)
			fclose(so);
		fprintf(out, "%scheck: %zu cells: %u pass, %u regression\n", so == out ? "\n" : "",
			j.res->ncells, j.n[TH_VERDICT_PASS], j.n[TH_VERDICT_REGRESSION]);
	}
	free(sum);

	bool bad = j.doctored || j.unplanned || j.no_kernel_plan ||
		   strcmp(j.res->expect_sha256, d->expect_sha256);
	bool failed = j.n[TH_VERDICT_REGRESSION] || j.lost || j.disagree || j.stale ||
		      (j.missing && !(j.res->partial && o->allow_partial)) ||
		      (slice && !o->allow_slice) || (j.res->partial && !o->allow_partial);

	rc = bad ? TH_CHECK_BAD_INPUT : failed ? TH_CHECK_REGRESSION :
	     j.harness ? TH_CHECK_HARNESS_ERROR : TH_CHECK_OK;
	if (o->json)
		put_json(&j, o->json, slice);
	if (!o->defer_answer)
		th_check_answer(out, rc, results, d->expect_path, o->baseline, NULL);
out:
	/* A verdict nobody can read is no verdict. */
	errno = 0;
	if (fflush(out) || ferror(out)) {
		fprintf(err, "check: cannot write the verdicts: %s\n",
			errno ? strerror(errno) : "write error");
		rc = TH_CHECK_BAD_INPUT;
	}
	free(cells);
	free(stored);
	th_agreement_free(rows, nrows);
	th_results_free(j.res);
	th_results_free(j.base);
	json_decref(j.jf);
	return rc;
}

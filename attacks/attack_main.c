/* SPDX-License-Identifier: MIT */
/*
 * th-attack-<variant>-<config>[-s<seed>]: one attack binary.
 *   --list      every attack of the registry, one a line, TAB-separated:
 *               ID technique timing payload ok|na reason api   (reason "-" if
 *               ok; api the family of its victim, results/api.def)
 *   --run ID    run one attack; exit 0 at a normal end (TH-DONE), 2 for an
 *               unknown ID, 3 for a NOT_APPLICABLE one
 *   --info      variant=<v> config=<c> seed=<s>
 *   --run ID --aim NAME
 *               run one attack with .function at the symbol NAME of this
 *               image (attacks/sysmap.h) instead of its payload's target;
 *               2 for a NAME the symbol table does not have
 *   --fork-server
 *               serve runs on the socket at fd 198 (runner/fork_server.h):
 *               each is a fork that goes on below with its own argv, as if
 *               exec'd with it (the matrix's default way to run cells)
 * Hidden cells for the runner's own tests (not in --list): SELFTEST_HANG
 * (spins forever), SELFTEST_SEGV (writes through NULL).
 */
#include <stdio.h>
#include <string.h>

#include "attack.h"
#include "cfi/trap_report.h"
#include "registry.h"
#include "runner/fork_server.h"
#include "sysmap.h"
#include "victim.h"

static struct timer_base wheel;

static int usage(const char *argv0, int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s --list | --run ID [--aim NAME] | --info\n"
		"  --list    the attacks: ID technique timing payload ok|na reason api (TAB-separated)\n"
		"  --run ID  run one attack; its protocol lines go to stdout\n"
		"  --aim NAME  .function at the symbol NAME instead of the payload's target\n"
		"  --info    variant=%s config=%s seed=%s\n",
		argv0, TH_ATK_VARIANT, TH_ATK_CONFIG, TH_ATK_SEED);
	return status;
}

static int list(void)
{
	for (size_t i = 0; i < th_attack_count; i++) {
		const struct th_attack *a = &th_attacks[i];
		const char *na = th_attack_na_reason(a, TH_ATK_VARIANT);

		printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a->id, th_technique_name(a->technique),
		       th_timing_name(a->timing), th_payload_name(a->payload), na ? "na" : "ok",
		       na ? na : "-", th_technique_api(a->technique));
	}
	return fflush(stdout) ? 1 : 0;
}

/* The runner must see a hang and a crash that no attack caused. */
static volatile unsigned long selftest_spin;
static int *volatile selftest_null;

static int selftest(const char *id)
{
	if (!strcmp(id, "SELFTEST_HANG")) {
		th_emit("TH-NOTE: SELFTEST_HANG: spinning forever");
		for (;;)
			selftest_spin++;
	}
	if (!strcmp(id, "SELFTEST_SEGV")) {
		th_emit("TH-NOTE: SELFTEST_SEGV: writing through NULL");
		*selftest_null = 1;
		th_emit("TH-NOTE: SELFTEST_SEGV: survived a NULL write?");
		return 1;
	}
	return -1;
}

static int run(const char *id)
{
	const struct th_attack *a = th_attack_find(id);
	const char *na;
	int st;

	if (!a) {
		st = selftest(id);
		if (st >= 0)
			return st;
		fprintf(stderr, "th-attack: no attack '%s' (see --list)\n", id);
		return 2;
	}
	na = th_attack_na_reason(a, TH_ATK_VARIANT);
	if (na) {
		th_emit("TH-NOTE: %s is NOT_APPLICABLE on %s: %s", a->id, TH_ATK_VARIANT, na);
		fprintf(stderr, "th-attack: %s: not applicable on %s: %s\n", a->id, TH_ATK_VARIANT, na);
		return 3;
	}
	if (th_base_init(&wheel, 0, 1000, TH_INITIAL_JIFFIES(1000)) || th_set_cpu(0)) {
		fprintf(stderr, "th-attack: cannot set up the timer wheel\n");
		return 1;
	}
	return th_attack_run(a);
}

int main(int argc, char **argv)
{
	/* In server mode, returns in each forked run with that run's argv. */
	th_fork_server(&argc, &argv);
	th_install_trap_reporter();
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list();
	if (argc == 2 && !strcmp(argv[1], "--info")) {
		printf("variant=%s config=%s seed=%s\n", TH_ATK_VARIANT, TH_ATK_CONFIG, TH_ATK_SEED);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--run"))
		return run(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "--run") && !strcmp(argv[3], "--aim")) {
		th_aim.name = argv[4];
		if (th_sysmap_lookup(th_aim.name, &th_aim.addr)) {
			fprintf(stderr, "th-attack: --aim %s: no such symbol in this image's .symtab\n",
				th_aim.name);
			return 2;
		}
		return run(argv[2]);
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return usage(argv[0], 0);
	return usage(argv[0], 2);
}

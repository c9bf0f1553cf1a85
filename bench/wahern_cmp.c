// SPDX-License-Identifier: MIT
/*
 * The modern wheel against wahern/timeout (github.com/wahern/timeout), one
 * process, the same draws: an instruction and cache-simulation count for
 * bench/README.md, "Against wahern/timeout". Not built by CMake (it needs
 * wahern's timeout.c, which is not in this tree); the build and the
 * valgrind commands are in the README.
 *
 *   wahern_cmp modern|wahern N add|mod|del [shuffled]
 *
 * Every timer is set up (untimed), then armed at now + d_add[i] in visiting
 * order (cmp_add); `mod` then re-arms each pending timer to now + d_mod[i]
 * (cmp_mod), `del` deletes each (cmp_del). Only the phase asked for is
 * collected: valgrind --toggle-collect=cmp_<op>. Draws: bench.c's splitmix64
 * stream for N and seed 42, d in [1, 2^20); now = TH_INITIAL_JIFFIES(1000)
 * for both (wahern's clock is moved there first with timeouts_update()).
 * debugobjects off (th_debugobj_enable(false)), as the bench runs it.
 */
#define TH_NO_KERNEL_NAMES
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th/compiler.h"
#include "th/timer_modern.h"
#include "timeout.h"

#define SPREAD (1UL << 20)

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t n, *d_add, *d_mod, *order;
static unsigned long now;
static struct timer_base base;
static struct modern_timer_list *kt;
static struct timeouts *T;
static struct timeout *wt;
static long sink;

static void fire(struct modern_timer_list *t)
{
	(void)t;
}

/* ---- the phases: what is collected ---------------------------------------- */

static th_noinline long cmp_add_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		s += modern_mod_timer(&kt[i], now + d_add[i]);
	}
	return s;
}

static th_noinline long cmp_mod_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		s += modern_mod_timer(&kt[i], now + d_mod[i]);
	}
	return s;
}

static th_noinline long cmp_del_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++)
		s += modern_del_timer(&kt[order[k]]);
	return s;
}

static th_noinline long cmp_add_wahern(void)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		timeouts_add(T, &wt[i], d_add[i]);
	}
	return 0;
}

static th_noinline long cmp_mod_wahern(void)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		timeouts_add(T, &wt[i], d_mod[i]);
	}
	return 0;
}

static th_noinline long cmp_del_wahern(void)
{
	for (uint32_t k = 0; k < n; k++)
		timeouts_del(T, &wt[order[k]]);
	return 0;
}

/* Distinct buckets holding timers, and the share of timers in the fullest
 * level (kernel: level 5 at HZ 1000; wahern: wheel 3). */
static void buckets(int modern)
{
	static unsigned char seen[1 << 16];
	unsigned int distinct = 0;

	memset(seen, 0, sizeof(seen));
	for (uint32_t i = 0; i < n; i++) {
		size_t b;

		if (modern)
			b = (kt[i].flags & TIMER_ARRAYMASK) >> TIMER_ARRAYSHIFT;
		else
			b = ((uintptr_t)wt[i].pending >> 4) & 0xffff;	/* a 16 B list head */
		if (!seen[b]) {
			seen[b] = 1;
			distinct++;
		}
	}
	fprintf(stderr, "%s n=%u: %u distinct buckets hold the timers\n",
		modern ? "modern" : "wahern", n, distinct);
}

int main(int argc, char **argv)
{
	uint64_t state;
	int modern, op, err = 0;

	if (argc < 4 || (strcmp(argv[1], "modern") && strcmp(argv[1], "wahern"))) {
		fprintf(stderr, "usage: wahern_cmp modern|wahern N add|mod|del [shuffled]\n");
		return 2;
	}
	modern = !strcmp(argv[1], "modern");
	n = (uint32_t)strtoul(argv[2], NULL, 0);
	op = !strcmp(argv[3], "add") ? 0 : !strcmp(argv[3], "mod") ? 1 : 2;
	state = 42 ^ ((uint64_t)n * 0xd1b54a32d192ed03ULL);	/* bench.c's stream for N */
	d_add = malloc(n * sizeof(*d_add));
	d_mod = malloc(n * sizeof(*d_mod));
	order = malloc(n * sizeof(*order));
	for (uint32_t i = 0; i < n; i++) {
		d_add[i] = (uint32_t)(1 + rng_next(&state) % (SPREAD - 1));
		d_mod[i] = (uint32_t)(1 + rng_next(&state) % (SPREAD - 1));
		order[i] = i;
	}
	if (argc > 4 && !strcmp(argv[4], "shuffled"))
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(rng_next(&state) % (i + 1)), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	now = TH_INITIAL_JIFFIES(1000);
	fprintf(stderr, "sizeof(struct modern_timer_list) %zu, sizeof(struct timeout) %zu\n",
		sizeof(struct modern_timer_list), sizeof(struct timeout));

	if (modern) {
		th_debugobj_enable(false);	/* as in a production kernel, and the bench */
		kt = aligned_alloc(64, ((size_t)n * sizeof(*kt) + 63) & ~(size_t)63);
		if (th_base_init(&base, 0, 1000, now) || th_set_cpu(0))
			return 1;
		for (uint32_t i = 0; i < n; i++)
			modern_timer_setup(&kt[i], fire, 0);
		sink += cmp_add_modern();
		buckets(1);
		if (op == 1)
			sink += cmp_mod_modern();
		else if (op == 2)
			sink += cmp_del_modern();
	} else {
		wt = aligned_alloc(64, ((size_t)n * sizeof(*wt) + 63) & ~(size_t)63);
		T = timeouts_open(1000, &err);
		if (!T)
			return 1;
		timeouts_update(T, now);
		for (uint32_t i = 0; i < n; i++)
			timeout_init(&wt[i], 0);
		sink += cmp_add_wahern();
		buckets(0);
		if (op == 1)
			sink += cmp_mod_wahern();
		else if (op == 2)
			sink += cmp_del_wahern();
	}
	printf("%ld\n", sink);
	return 0;
}

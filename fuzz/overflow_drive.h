/* SPDX-License-Identifier: MIT */
/*
 * The attacker's program: what an overflow input decodes into, and the
 * driver that performs it against the victim world (overflow_world.h).
 *
 * Input format (every byte string decodes; nothing is rejected):
 *   input   := op*                       at most TH_FZ_MAX_OPS, until the end
 *   op      := kind:u8 args              kind % TH_FZ_OP_COUNT selects:
 *     ARM                 ring_arm(): mod_timer(jiffies + 8), as the victim does
 *     RUN j:u8            run the wheel to jiffies + j % 80
 *     MOD j:u8            mod_timer(ring's timer, jiffies + j % 80): the victim re-arms
 *     NAME payload        ring_set_name(ring, p, min(n, 16)): the legitimate call
 *     MEMCPY payload      ring_set_name(ring, p, n): memcpy-intra (length unchecked)
 *     INDEX at:u8 payload ring_set_byte(ring, at + i, p[i]), i < min(n, 32): index-intra
 *     STRCPY payload      ring_set_name_str(ring, p up to its first NUL): strcpy-intra
 *     NEIGHBOUR payload   msg_store(msg, p, n): heap-neighbour (msg sits in the slot
 *                         before the ring)
 *     FREE                ring_release_buggy(ring), timer maybe pending: uaf-realloc
 *     SPRAY payload       spray_alloc(p, max(n, 1)) (<= 128 bytes): the refill
 *   payload := n:u8 nrel:u8 reloc[nrel % (TH_FZ_MAX_RELOCS + 1)] byte[n]
 *              (truncated at the end of the input)
 *   reloc   := slot:u8 leak:u8 addend:i8  the 8 bytes at pos = 8 * (slot % 32)
 *              (if pos + 8 <= n and no earlier relocation is there; the victim's
 *              pointers are 8-aligned fields) become the address of leak-table
 *              entry leak % TH_FZ_LEAK_COUNT: an object's plus 8 * (addend % 32)
 *              bytes, clamped (overflow_world.h); a function's entry, the addend
 *              ignored (a jump into a function's body runs code no oracle can
 *              contain in this process: the matrix's func:mid-function cell
 *              covers it);
 *              TH_FZ_LEAK_RING_VALUE instead reads the 8 bytes at ring +
 *              8 * (|addend| % 16) when the op runs (a read leak).
 * After the program the driver arms the timer if nothing did (the victim arms
 * it itself), then runs the wheel far past any expiry the program could set.
 * Every run of the wheel (RUN and the last) is the attacker sleeping, the
 * timer softirq, and the switch to the attacker after it
 * (th_schedule_after_softirq(), attacks/victim.h), as the matrix's trigger().
 *
 * Bytes a relocation produced are addresses; every other byte is a literal
 * the attacker chose. The program keeps both, and the absolute address each
 * write landed at, for the oracle.
 */
#ifndef TH_FUZZ_OVERFLOW_DRIVE_H
#define TH_FUZZ_OVERFLOW_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "overflow_world.h"

#define TH_FZ_MAX_OPS		8
#define TH_FZ_MAX_PAYLOAD	255
#define TH_FZ_MAX_RELOCS	4
#define TH_FZ_INDEX_MAX		32	/* bytes one INDEX op writes */
#define TH_FZ_NAME_LEN		16
#define TH_FZ_SPRAY_MAX		128
/* Jiffies the final run goes past the last arm (TH_RETIRE_TMO + slack, and
 * past the latest MOD). */
#define TH_FZ_FINAL_RUN		160UL

/* X(ID, "name", the timer world's technique or NULL when the op is not a write
 * through a bug; each world names its own: th_fz_world_technique()) */
#define TH_FZ_OPS(X)							\
	X(ARM, "arm", NULL)						\
	X(RUN, "run", NULL)						\
	X(MOD, "mod_timer", NULL)					\
	X(NAME, "set-name", NULL)					\
	X(MEMCPY, "memcpy", "memcpy-intra")				\
	X(INDEX, "index", "index-intra")				\
	X(STRCPY, "strcpy", "strcpy-intra")				\
	X(NEIGHBOUR, "msg-store", "heap-neighbour")			\
	X(FREE, "free", "uaf-realloc")					\
	X(SPRAY, "spray", "uaf-realloc")

#define TH_FZ_OP_ENUM_(id, name, tech) TH_FZ_OP_##id,
enum th_fz_op_kind { TH_FZ_OPS(TH_FZ_OP_ENUM_) TH_FZ_OP_COUNT };

struct th_fz_reloc {
	uint8_t pos;
	uint8_t leak;		/* enum th_fz_leak */
	int addend;		/* in 8-byte steps, -31..31 */
	uintptr_t value;	/* written, once the op ran */
};

/* The payload's arrays last: th_fz_decode() clears what comes before them
 * (offsetof), and writes them only up to n and nreloc. */
struct th_fz_op {
	enum th_fz_op_kind kind;
	uint8_t arg;		/* RUN/MOD: jiffies; INDEX: first index */
	size_t n;		/* payload bytes */
	int nreloc;
	/* Filled when the op runs. */
	int started, ran;	/* ran: it returned (a defence may stop it inside) */
	uintptr_t dest;		/* where its bytes went; 0: nowhere */
	size_t written;		/* how many of bytes[] (strcpy: with its NUL) */
	long ret;		/* mod_timer()'s return, RUN's fired count */
	int neutralised;	/* addresses made non-canonical (th_fz_check_written()) */
	uint8_t bytes[TH_FZ_MAX_PAYLOAD + 1];
	uint8_t literal[TH_FZ_MAX_PAYLOAD + 1];	/* 1: the attacker's own byte */
	struct th_fz_reloc reloc[TH_FZ_MAX_RELOCS];
};

/* The ops last: th_fz_decode() clears what comes before them (offsetof),
 * and each op it decodes. */
struct th_fz_program {
	int nops;
	int no_leak;		/* relocations ignored: the attacker without a leak */
	/* Filled when the program runs. */
	struct th_fz_objects obj;
	int implicit_arm;	/* the driver armed the timer after the program */
	int freed;		/* the ring was freed */
	long fired;		/* callbacks the final run made (-1: refused) */
	struct th_fz_op op[TH_FZ_MAX_OPS];
};

/* Decode data (any bytes) into p. no_leak: ignore relocations. */
void th_fz_decode(const uint8_t *data, size_t size, int no_leak, struct th_fz_program *p);

/* Called after each op (the replay mode tees the victim's lines). */
typedef void th_fz_op_hook(const struct th_fz_program *p, int op);

/* Run p against the world (th_fz_world_begin() already done, p->obj set). */
void th_fz_drive(struct th_fz_program *p, th_fz_op_hook *after_op);

/* The public names of an op kind and of the technique it uses (NULL: none). */
const char *th_fz_op_name(enum th_fz_op_kind k);
const char *th_fz_op_technique(enum th_fz_op_kind k);

/* The goal of the exact-value campaigns, compared in instrumented code so
 * that value profiling sees the distance: write_cr4(0x407f0), the value
 * CVE-2017-7308 wrote. Call it only with an argument the attacker wrote as
 * a literal (never an address). Return: 1 on the exact value. */
int th_fz_goal_cr4(unsigned long val);
/* The value itself, for messages. */
unsigned long th_fz_goal_cr4_value(void);

#endif

/* Neutralise, in op's bytes after its relocations are applied, every word it
 * will write at an 8-aligned address that is not a relocation yet looks like
 * an address of this process (its top byte gets bit 7: non-canonical). Without a leak the attacker
 * cannot know an address; with one it names addresses only through the leak
 * table. Defined by the oracle (overflow_oracle.c), built without
 * comparison tracing. */
void th_fz_filter_op(struct th_fz_op *op);

/*
 * After op wrote: every aligned 8-byte word it touched that now looks like
 * an address of this process is made non-canonical unless it is a
 * relocation's (the leak) or a partial overwrite of at most two low bytes of
 * a pointer already there, leading into the victim world or to a leak-table
 * entry. Neutralised: an address with three or more of the attacker's
 * literal bytes (a strcpy's NUL completing one, INDEX writes composing one:
 * the attacker cannot know it), a pointer composed outside the world, a
 * stack address the write copied. A blind pointer then faults here instead
 * of landing in the engine's memory. Return: how many words were
 * neutralised. Defined by the oracle.
 */
int th_fz_check_written(struct th_fz_op *op);

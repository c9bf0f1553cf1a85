/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target `overflow`: the attacker. An input is a small program of the
 * victim's system calls and buggy writes (memcpy, index, strcpy, heap
 * neighbour, use-after-free refill), in the attacker's own order, with
 * addresses placed through a leak table (overflow_drive.h); the oracle
 * (overflow_oracle.h) says what it did to the project's own victim and
 * wheel, in the matrix's outcomes. A finding is a HIJACKED,
 * PRIVILEGED_WRITE or REDIRECTED run (a privileged target ran, or the
 * privileged state changed); CFI blocks, crashes and hangs of the wheel are
 * counted, never reported (overflow_session.h).
 *
 * One binary per variant x config x toolchain (fuzz/overflow.cmake).
 */
#include <stddef.h>
#include <stdint.h>

#include "overflow_session.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_fz_session_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return th_fz_session_one(data, size);
}

/* SPDX-License-Identifier: MIT */
/*
 * Hand-made call sites for `timerharness reach` (tests/reach.cmake): a
 * branch decides on the call's target only through flags the function set
 * itself, by a compare or a test it reads. Each function jumps through
 * %rax behind a je and a ud2, as a cfi-icall check does; only cmp_set's je
 * reads flags a compare on the target set.
 *   entry_flags  the je reads flags set before the function: no check
 *   clobbered    a compare on the target, then a shift rewrites the flags
 *   cmp_set      the compare on the target sets them: a check (the control)
 */
__asm__(".text\n"
	".globl _start\n.type _start,@function\n_start:\n"
	"	xor %edi, %edi\n	mov $60, %eax\n	syscall\n	hlt\n"
	".size _start, .-_start\n"
	".globl entry_flags\n.type entry_flags,@function\nentry_flags:\n"
	"	je 1f\n	ud2\n1:	jmp *%rax\n"
	".size entry_flags, .-entry_flags\n"
	".globl clobbered\n.type clobbered,@function\nclobbered:\n"
	"	lea table(%rip), %rcx\n	mov %rax, %rdx\n	sub %rcx, %rdx\n"
	"	cmp $8, %rdx\n	shl $1, %rsi\n	jbe 1f\n	ud2\n1:	jmp *%rax\n"
	".size clobbered, .-clobbered\n"
	".globl cmp_set\n.type cmp_set,@function\ncmp_set:\n"
	"	lea table(%rip), %rcx\n	mov %rax, %rdx\n	sub %rcx, %rdx\n"
	"	cmp $8, %rdx\n	jbe 1f\n	ud2\n1:	jmp *%rax\n"
	".size cmp_set, .-cmp_set\n"
	".p2align 3\n.globl table\n.type table,@function\ntable:\n"
	"	jmp entry_flags\n	.p2align 3\n	jmp clobbered\n	.p2align 3\n"
	".size table, .-table\n");

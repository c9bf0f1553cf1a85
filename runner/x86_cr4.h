/* SPDX-License-Identifier: MIT */
/*
 * The simulated CPU's CR4: which values MOV to CR4 loads and which it
 * refuses with #GP(0). Pure functions, no state: the victim's
 * native_write_cr4 (attacks/victim.c) decides with them whether the mov
 * faults, and the classifier (cfi/classify.c) and the fuzz oracle name the
 * fault's cause with them from the value they read in the faulting
 * instruction's register.
 *
 * Intel SDM Vol. 3A 2.5 "Control Registers" (Figure 2-7, CR4's bits; "...
 * reserved bits ... must be 0: setting a reserved bit in CR4 to 1 causes a
 * general-protection exception") and Vol. 2B "MOV—Move to/from Control
 * Registers", 64-Bit Mode Exceptions, #GP(0): "If an attempt is made to
 * write a 1 to any reserved bit in CR4", "If an attempt is made to leave
 * IA-32e mode by clearing CR4.PAE[bit 5]", "If an attempt is made to change
 * CR4.PCIDE from 0 to 1 while CR3[11:0] != 000H", and the rule that CR4.LA57
 * cannot be changed in IA-32e mode. A bit of a feature the processor does
 * not implement is reserved on it (CPUID enumerates the features).
 *
 * The CPU: x86-64 in IA-32e mode, the features of a 2017 server part with
 * SMEP and SMAP (CVE-2017-7308's time): VME..OSXMMEXCPT (bits 0-10), VMXE,
 * SMXE, FSGSBASE, PCIDE, OSXSAVE, SMEP, SMAP, PKE. Not implemented, so
 * reserved: UMIP (11), LA57 (12), KL (19), CET (23), PKS (24), UINTR (25),
 * and the bits the SDM leaves reserved: 15, 26-31, 63:32. CR3[11:0] is 0
 * (the kernel's CR3 with PCIDE clear holds no PCD/PWT), so PCIDE 0 -> 1 is
 * not refused for that reason; LA57 cannot change because it is reserved.
 */
#ifndef TH_RUNNER_X86_CR4_H
#define TH_RUNNER_X86_CR4_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TH_X86_CR4_PAE		(1ULL << 5)
#define TH_X86_CR4_UMIP		(1ULL << 11)
#define TH_X86_CR4_LA57		(1ULL << 12)
/* The bits the simulated CPU implements (see above). */
#define TH_X86_CR4_IMPLEMENTED	(0x7ffULL | (1ULL << 13) | (1ULL << 14) | (1ULL << 16) | \
				 (1ULL << 17) | (1ULL << 18) | (1ULL << 20) | (1ULL << 21) | \
				 (1ULL << 22))
#define TH_X86_CR4_RESERVED	(~TH_X86_CR4_IMPLEMENTED)

/*
 * Does MOV to CR4 of @val raise #GP(0) in IA-32e mode on this CPU? If so,
 * and @why is not NULL, say why in @why ("reserved bits 63:32 set (0x...)").
 * Return: 1 #GP(0), 0 the CPU loads it.
 */
static inline int th_x86_cr4_gp(uint64_t val, char *why, size_t n)
{
	uint64_t high = val & 0xffffffff00000000ULL;
	uint64_t low = val & TH_X86_CR4_RESERVED & 0xffffffffULL;

	if (high || low) {
		if (why && n) {
			if (high && low)
				snprintf(why, n, "reserved bits 63:32 set (0x%llx) and reserved bits 0x%llx",
					 (unsigned long long)high, (unsigned long long)low);
			else if (high)
				snprintf(why, n, "reserved bits 63:32 set (0x%llx)",
					 (unsigned long long)high);
			else
				snprintf(why, n, "reserved bits 0x%llx set (%s)", (unsigned long long)low,
					 low & (TH_X86_CR4_UMIP | TH_X86_CR4_LA57) ?
						 "UMIP or LA57 among them: features this CPU does not implement" :
						 "reserved by the SDM or not implemented by this CPU");
		}
		return 1;
	}
	if (!(val & TH_X86_CR4_PAE)) {
		if (why && n)
			snprintf(why, n, "CR4.PAE clear: leaving IA-32e mode is refused");
		return 1;
	}
	return 0;
}

/*
 * The bytes of a MOV to CR4 from a general-purpose register (0F 22 /r with
 * ModRM.reg = 4, an optional REX without R; the SDM: "the 2 bits in the mod
 * field are ignored", the r/m field names the register): its length, and the
 * source register in x86 encoding order (RAX = 0 .. R15 = 15) in *reg.
 * Return: 0 when @p is not one.
 */
__attribute__((always_inline)) static inline size_t th_x86_mov_to_cr4(const unsigned char *p, size_t n, int *reg)
{
	size_t i = 0;
	int rex_b = 0;

	if (n > 0 && (p[0] & 0xf0) == 0x40) {
		if (p[0] & 0x04)	/* REX.R: CR12, not CR4 */
			return 0;
		rex_b = p[0] & 0x01;
		i = 1;
	}
	if (n < i + 3 || p[i] != 0x0f || p[i + 1] != 0x22)
		return 0;
	if (((p[i + 2] >> 3) & 7) != 4)
		return 0;
	*reg = (rex_b << 3) | (p[i + 2] & 7);
	return i + 3;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The CFI schemes a call site's check can be read as (binread.h): their
 * names are the vocabulary of the reach section's "scheme" (results/reach.h)
 * and of cfi/configs.tsv's scheme column. Header only, so that results/,
 * which validates the names it loads, needs no ELF or x86 decoding.
 */
#ifndef TH_BINREAD_CFI_SCHEME_H
#define TH_BINREAD_CFI_SCHEME_H

enum th_cfi_scheme {
	TH_CFI_NONE,		/* no check guards the call */
	TH_CFI_ICALL,		/* -fsanitize=cfi-icall: jump-table range check */
	TH_CFI_KCFI,		/* -fsanitize=kcfi: hash at T-4, ud2 in .kcfi_traps */
	TH_CFI_FUNCTION,	/* -fsanitize=function: signature at T-8, hash at T-4 */
	TH_CFI_UNKNOWN,		/* guarded, but by a check none of the above */
};

/* "none", "cfi-icall", "kcfi", "function", "unknown" (TH_CFI_NONE up to
 * TH_CFI_UNKNOWN, the last). */
static inline const char *th_cfi_scheme_name(enum th_cfi_scheme s)
{
	switch (s) {
	case TH_CFI_NONE: return "none";
	case TH_CFI_ICALL: return "cfi-icall";
	case TH_CFI_KCFI: return "kcfi";
	case TH_CFI_FUNCTION: return "function";
	default: return "unknown";
	}
}

#endif

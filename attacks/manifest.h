/* SPDX-License-Identifier: MIT */
/*
 * The build manifest: what one toolchain's build produced for the matrix
 * runner (build/<preset>/th-manifest.tsv, written by the top-level
 * CMakeLists.txt). One line each, TAB-separated, "-" for an empty field,
 * '#' starting a comment line:
 *   toolchain     name version compiler-path
 *   attack|probe  toolchain config variant seed path status reason flags
 * A relative path is relative to the manifest's directory (an installed
 * tree's manifest, written by CMake's install rules).
 * `make build` leaves the cold build's wall time beside it
 * (th-cold-build-seconds). Read by loops/matrix.c; fuzzed by
 * fuzz/manifest_tsv.c.
 */
#ifndef TH_ATTACKS_MANIFEST_H
#define TH_ATTACKS_MANIFEST_H

#include <stddef.h>

/* A binary; empty strings for "-". */
struct th_mbin {
	char *kind, *toolchain, *config, *variant, *seed, *path, *status, *reason, *flags;
	char *where;		/* the manifest line that lists it: "FILE:LINE" */
};

struct th_mtool {
	char *name, *version, *path;
	double cold_build;	/* seconds of its build tree's cold build; < 0: unknown */
};

/* What the builds produced: every manifest loaded into it. */
struct th_manifest {
	struct th_mbin *bins;
	size_t nbins, capbins;
	struct th_mtool *tools;
	size_t ntools;
};

/*
 * Append the manifest at @path to @b (start from a zeroed struct). A
 * manifest without a toolchain line is refused: its binaries would drop
 * out of the run. Return: 0, or -1 with "FILE:LINE: what" (or "FILE:
 * what") in @err; @b then holds what was read before the bad line.
 */
int th_manifest_load(struct th_manifest *b, const char *path, char *err, size_t n);

/* Free everything @b holds; it is zeroed, ready for reuse. */
void th_manifest_free(struct th_manifest *b);

#endif

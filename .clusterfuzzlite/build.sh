#!/bin/bash -eu
# SPDX-License-Identifier: MIT
#
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target whose crash means a
# regression, into $OUT with <f>_seed_corpus.zip, <f>.dict and <f>.options.
# Runs in the builder image (Dockerfile) from the source tree, with CC, CXX,
# CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, OUT, SRC and WORK set by OSS-Fuzz;
# tests/fuzz_cflite.cmake runs it the same way on this machine (make test).
#
# What ships: wheel_diff and the parser targets (trace_lang, results_json,
# expected_tsv, classify, manifest_tsv, binread: the binary reader on the
# files `reach --binary` is handed): any crash is a bug. Not the
# attacker against the 4.14 API: the legacy wheel is hijacked within a
# second by design, a demonstration that would be reported forever. The
# attacker against the 4.15 API (modern) does ship under the type-based
# CFI configs, where a hijack is a regression.
#
# OSS-Fuzz has no CFI sanitizer (address, undefined, memory, coverage): the
# CFI builds get their flags on top of $CFLAGS from cfi/configs.tsv, the
# project's single source of truth for them (cfi-icall: -flto
# -fvisibility=hidden -fsanitize=cfi-icall with lld; kcfi: -fsanitize=kcfi),
# through th_fuzz_add() in fuzz/CMakeLists.txt. Pure C, still linked with
# $CXX (TIMERHARNESS_FUZZ_LINK_CXX): $LIB_FUZZING_ENGINE is C++.

set -eu
src="$(pwd)"
if [ ! -f "$src/fuzz/CMakeLists.txt" ]; then
	echo "build.sh: run from the timerharness source tree (the Dockerfile's WORKDIR); $src has no fuzz/CMakeLists.txt" >&2
	exit 1
fi
build="$WORK/timerharness-build"

fuzzers="wheel_diff trace_lang results_json expected_tsv classify manifest_tsv binread"
cfi_builds=""
# ---- the attacker (fuzz/overflow.c, fuzz/overflow.cmake) ----------------
# Built when it exists: modern (4.15) under cfi-icall and kcfi only.
if [ -f "$src/fuzz/overflow.c" ]; then
	cfi_builds="overflow:modern:cfi-icall;overflow:modern:kcfi"
	fuzzers="$fuzzers overflow-modern-cfi-icall overflow-modern-kcfi"
fi
# -------------------------------------------------------------------------

cmake -S "$src" -B "$build" \
	-DCMAKE_BUILD_TYPE= \
	-DTIMERHARNESS_FUZZ_CFLITE=ON \
	"-DTIMERHARNESS_FUZZ_CFLITE_BUILDS=$cfi_builds" \
	"-DTIMERHARNESS_FUZZ_OUT=$OUT"
cmake --build "$build" --target th-fuzz-package --parallel "$(nproc)"

# Every fuzzer that should ship is there: a target dropped on the way (a
# config the compiler refused, a rename) fails the build, not the fuzzing.
missing=""
for f in $fuzzers; do
	[ -x "$OUT/$f" ] && [ -f "$OUT/${f}_seed_corpus.zip" ] && [ -f "$OUT/$f.options" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
	echo "build.sh: not in $OUT (binary, seed corpus and options):$missing" >&2
	exit 1
fi
echo "build.sh: $OUT: $fuzzers"

#!/bin/bash -eu
# SPDX-License-Identifier: MIT
#
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target whose crash means a
# regression, into $OUT with <f>_seed_corpus.zip, <f>.dict and <f>.options.
# Runs in the builder image (Dockerfile) from the source tree, with CC, CXX,
# CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, OUT, SRC and WORK set by OSS-Fuzz;
# tests/fuzz_cflite.cmake runs it the same way on this machine (make cflite;
# make test runs --configure-only for every sanitizer). With
# TIMERHARNESS_FUZZ_CFLITE the tree configures the fuzz targets and their
# libraries only (the top-level CMakeLists.txt).
#
# What ships: wheel_diff and the parser targets (trace_lang, results_json,
# expected_tsv, classify, manifest_tsv, binread: the binary reader on the
# files `reach --binary` is handed): any crash is a bug. Not the
# attacker (fuzz/overflow.c), on any API: ClusterFuzzLite knows nothing of
# fuzz/expected.tsv, and the attacker aborts on every new finding, declared
# or not. The 4.14 wheel is hijacked within a second by design; on 4.15
# under cfi-icall the declared chains (the __hlist_del write into the cred,
# the foreign callback's hijack, on every variant and config) abort it too:
# PRIVILEGED_WRITE:CRED_VIA_LIST after 4k-49k executions from the seeds
# (3 seeds, clang-22, libFuzzer, measured), so every run would fail. And under
# OSS-Fuzz's undefined build its very input is UB: UBSan's array-bounds
# stops the first out-of-bounds write into ring->name ("index 40 out of
# bounds for type 'char[16]'", measured). `timerharness fuzz` runs it,
# gated by fuzz/expected.tsv (`check`). The CFI builds would get their
# flags on top of $CFLAGS from cfi/configs.tsv through th_fuzz_add()
# (TIMERHARNESS_FUZZ_CFLITE_BUILDS "overflow:modern:cfi-icall;..."); the
# kcfi one cannot be built in the undefined build at all: clang refuses
# -fsanitize=kcfi beside its -fsanitize=function.
#
# Pure C, still linked with $CXX (TIMERHARNESS_FUZZ_LINK_CXX):
# $LIB_FUZZING_ENGINE is C++.
#
#   build.sh                   configure, build, package into $OUT, check
#   build.sh --configure-only  configure, and check that every fuzzer that
#                              should ship is planned (a config the compiler
#                              refuses with these flags is not): seconds, for
#                              tests/fuzz_cflite_configure.cmake

set -eu
configure_only=
case "${1-}" in
--configure-only) configure_only=1 ;;
"") ;;
*) echo "build.sh: unknown argument '$1' (--configure-only, or none)" >&2; exit 2 ;;
esac
src="$(pwd)"
if [ ! -f "$src/fuzz/CMakeLists.txt" ]; then
	echo "build.sh: run from the timerharness source tree (the Dockerfile's WORKDIR); $src has no fuzz/CMakeLists.txt" >&2
	exit 1
fi
build="$WORK/timerharness-build"

fuzzers="wheel_diff trace_lang results_json expected_tsv classify manifest_tsv binread"
# Per-config builds (<target>:<variant>:<config>;...): none, see above.
cfi_builds=""

cmake -S "$src" -B "$build" \
	-DCMAKE_BUILD_TYPE= \
	-DTIMERHARNESS_FUZZ_CFLITE=ON \
	"-DTIMERHARNESS_FUZZ_CFLITE_BUILDS=$cfi_builds" \
	"-DTIMERHARNESS_FUZZ_OUT=$OUT"

# Every fuzzer that should ship is planned: a config the compiler refuses
# with this sanitizer's flags drops its build at configure time, said here
# with the compiler's reason (fuzz-manifest.tsv) before anything is built.
unplanned=""
for f in $fuzzers; do
	cut -f1 "$build/th-fuzz.tsv" | grep -qx -- "$f" || unplanned="$unplanned $f"
done
if [ -n "$unplanned" ]; then
	echo "build.sh: SANITIZER=${SANITIZER-?}: not planned by the configure step:$unplanned" >&2
	grep -h $'\tunsupported\t' "$build"/fuzz-manifest.tsv "$build"/*/fuzz-manifest.tsv 2>/dev/null |
		cut -f1,3,4,7 | sed 's/^/build.sh:   /' >&2 || true
	exit 1
fi
if [ -n "$configure_only" ]; then
	echo "build.sh: SANITIZER=${SANITIZER-?}: configured, every fuzzer planned:$fuzzers"
	exit 0
fi
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

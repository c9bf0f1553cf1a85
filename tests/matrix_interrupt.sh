#!/bin/sh
# Ctrl-C during `timerharness matrix` leaves a valid results.json marked
# partial, and the exit status says it was interrupted (130).
#   matrix_interrupt.sh TIMERHARNESS BUILD_DIR OUT_DIR
set -u
th=$1 build=$2 out=$3
rm -rf "$out"
# SELFTEST_HANG cells keep the run busy long enough to be interrupted.
"$th" matrix --build-root "$build" --out "$out" --quiet --selftests --timeout 60 \
	--config none --attack 'SELFTEST_HANG,MEMCPY_INTRA_BEFORE_ARM_NONE' >"$out.log" 2>&1 &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
cat "$out.log"
[ "$rc" -eq 130 ] || { echo "FAIL: exit $rc, want 130"; exit 1; }
grep -q '"partial": true' "$out/results.json" || { echo "FAIL: results.json not marked partial"; exit 1; }
grep -q '"interrupted": "interrupted by SIGINT"' "$out/results.json" || { echo "FAIL: no interrupted reason"; exit 1; }
# The finished control cells are kept; the file is valid for the gate.
grep -q '"MEMCPY_INTRA_BEFORE_ARM_NONE"' "$out/results.json" || { echo "FAIL: finished cells lost"; exit 1; }
# Partial results fail the gate unless allowed, and say so either way.
"$th" check --results "$out/results.json" --allow-slice >"$out.check" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$out.check"; echo "FAIL: check of partial results exited $rc, want 1"; exit 1; }
# (its lines wrapped at 80 columns read as one)
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g' "$out.check" | grep -q "(PARTIAL run, interrupted: interrupted by SIGINT)" ||
	{ cat "$out.check"; echo "FAIL: check does not say partial"; exit 1; }
"$th" check --results "$out/results.json" --allow-slice --allow-partial >"$out.check" 2>&1 ||
	{ cat "$out.check"; echo "FAIL: check --allow-partial exited $?"; exit 1; }
echo "ok: interrupted run wrote a partial results.json"

#!/bin/sh
# Ctrl-C during `timerharness fuzz`: exit 130, a valid partial summary, and
# no lock file left (DIR/.timerharness.lock).
#   fuzz_interrupt.sh TIMERHARNESS BUILD TOOLCHAIN DIR FUZZ_CHECK EXPECTED PLAN
set -u
th=$1 build=$2 tool=$3 dir=$4 check=$5 expect=$6 plan=$7
rm -rf "$dir"
"$th" fuzz --build-root "$build" --toolchain "$tool" --target overflow --variant legacy --config none \
	--time 60 --jobs 1 --out "$dir" --quiet &
pid=$!
# Interrupt once the campaign runs (its files under DIR/fuzz/), not at a
# fixed time: on a loaded machine 2 s could come before the engine started.
i=0
while [ "$i" -lt 120 ] && [ -z "$(ls "$dir/fuzz" 2>/dev/null)" ]; do
	sleep 0.5
	i=$((i + 1))
done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "exit $rc, expected 130"; exit 1; }
[ ! -e "$dir/.timerharness.lock" ] || { echo "an interrupted run left $dir/.timerharness.lock"; exit 1; }
"$check" --plan "$plan" --build-root "$build" "$dir/fuzz.json" "$expect" > "$dir/check.out" 2>&1
rc=$?
grep -q "interrupted (SIGINT)" "$dir/check.out" || { echo "no partial verdict:"; cat "$dir/check.out"; exit 1; }
[ "$rc" -eq 1 ] || { echo "check exit $rc, expected 1 (a partial summary is not a result)"; cat "$dir/check.out"; exit 1; }
"$check" --plan "$plan" --build-root "$build" --allow-partial --allow-slice "$dir/fuzz.json" "$expect" > /dev/null 2>&1
rc=$?
[ "$rc" -le 1 ] || { echo "the partial summary does not load (exit $rc)"; exit 1; }
exit 0

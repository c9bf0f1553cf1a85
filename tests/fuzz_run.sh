#!/bin/sh
# `timerharness fuzz` end to end on this build (tests/fuzz_campaign.cmake):
#   1. a short run writes fuzz.json and its run directory and removes its
#      lock file (out/.timerharness.lock); check judges it
#      (its reproducers are there with the SHA-256 recorded: not bad input,
#      not a harness error; a slice fails without --allow-slice);
#   2. a second writer of the same --out (fuzz, matrix) is refused while a
#      run holds it (exit 2, naming the holder), and nothing it had is lost;
#   3. a run killed by SIGKILL leaves the previous fuzz.json and the files it
#      names whole (byte for byte; check answers as before); the next run
#      removes the killed run's directory;
#   4. a reproducer removed or changed after the summary: check exit 2,
#      naming the file; a summary doctored consistently (a reproducer
#      swapped with its hash, a finding erased, with its files too,
#      executions cut, the time stretched) is bad input, each named: by the
#      replay, the floor, or the run's own record (its campaigns' stats);
#   5. a run that plans its slice (fuzz --slice, as make demo runs): a plain
#      check answers as check --fuzz-allow-slice does, and names the slice.
# The timer's target (--target overflow); tests/fuzz_goal.cmake runs the
# tasklet's (fuzz.campaign.tasklet_goal).
#   fuzz_run.sh TIMERHARNESS BUILD TOOLCHAIN DIR FUZZ_CHECK EXPECTED PLAN
set -u
th=$1 build=$2 tool=$3 dir=$4 check=$5 expect=$6 plan=$7
out=$dir/out
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
fuzz() { "$th" fuzz --build-root "$build" --toolchain "$tool" --target overflow --variant legacy --config none \
	--jobs 1 --out "$out" --quiet --seed 7 "$@"; }
gate() { "$check" --plan "$plan" --build-root "$build" "$@" "$out/fuzz.json" "$expect"; }
hashes() { (cd "$out" && find fuzz.json "fuzz/$runs" -type f | LC_ALL=C sort | xargs sha256sum); }

# 1. A run, judged.
fuzz --time 2 > "$dir/run1.log" 2>&1 || fail "fuzz exit $?: $(cat "$dir/run1.log")"
[ -f "$out/fuzz.json" ] || fail "no fuzz.json"
[ ! -e "$out/.timerharness.lock" ] || fail "a finished run left $out/.timerharness.lock (docs/outputs.md: it removes it)"
runs=$(ls "$out/fuzz")
[ "$(echo "$runs" | wc -l)" -eq 1 ] || fail "run directories: $runs"
gate --allow-slice > "$dir/check1.out" 2>&1
rc1=$?
[ "$rc1" -le 1 ] || fail "check of a fresh run: exit $rc1 (bad input or harness error): $(cat "$dir/check1.out")"
# (the summary's lines, wrapped at 80 columns, read as one)
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g' "$dir/check1.out" |
	grep -q "^check fuzz: 1 campaigns (1 ran) (SLICE: targets overflow; variants legacy; configs none; toolchains $tool)" ||
	fail "no summary line: $(cat "$dir/check1.out")"
gate > "$dir/check1s.out" 2>&1
[ $? -eq 1 ] && grep -q "^slice: " "$dir/check1s.out" || fail "a slice passed without --allow-slice: $(cat "$dir/check1s.out")"
for allow in --allow-slice --fuzz-allow-slice; do
	"$th" check --fuzz-only "$out/fuzz.json" $allow --build-root "$build" > "$dir/cli1.out" 2>&1
	[ $? -eq "$rc1" ] || fail "timerharness check $allow answers otherwise than the gate ($rc1): $(cat "$dir/cli1.out")"
done
"$th" check --fuzz-only "$out/fuzz.json" --build-root "$build" > "$dir/cli1s.out" 2>&1
[ $? -eq 1 ] && grep -q "^slice: " "$dir/cli1s.out" || fail "timerharness check passed a slice: $(cat "$dir/cli1s.out")"
nfind=$(grep -c '"sha256"' "$out/fuzz.json")
echo "run 1: check exit $rc1, $nfind findings"

# 5. The slice its run planned: the same campaign with --slice, judged by a
# plain check as with --fuzz-allow-slice, the slice named.
planned=$dir/planned
"$th" fuzz --build-root "$build" --toolchain "$tool" --target overflow --variant legacy --config none --jobs 1 \
	--out "$planned" --quiet --seed 7 --time 2 --slice > "$dir/run5.log" 2>&1 ||
	fail "fuzz --slice exit $?: $(cat "$dir/run5.log")"
grep -q '"planned": true' "$planned/fuzz.json" || fail "fuzz --slice did not record the slice planned"
"$th" check --fuzz-only "$planned/fuzz.json" --fuzz-allow-slice --build-root "$build" \
	> "$dir/cli5a.out" 2>&1
rc5=$?
"$th" check --fuzz-only "$planned/fuzz.json" --build-root "$build" > "$dir/cli5.out" 2>&1
[ $? -eq "$rc5" ] || fail "check of a planned slice answers otherwise than with --fuzz-allow-slice ($rc5): $(cat "$dir/cli5.out")"
! grep -q "^slice: " "$dir/cli5.out" || fail "check refused the slice its run planned: $(cat "$dir/cli5.out")"
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g' "$dir/cli5.out" |
	grep -q "(the SLICE its run planned: targets overflow; variants legacy; configs none; toolchains $tool)" ||
	fail "check does not name the slice it judged: $(cat "$dir/cli5.out")"
echo "run 5: the planned slice, check exit $rc5 as with --fuzz-allow-slice"
hashes > "$dir/before"

# 2. One writer at a time: a second fuzz, and matrix, refused while it runs.
# (not through the function: $! must be the runner's own pid)
"$th" fuzz --build-root "$build" --toolchain "$tool" --target overflow --variant legacy --config none \
	--jobs 1 --out "$out" --quiet --seed 7 --time 30 > "$dir/run2.log" 2>&1 &
pid=$!
i=0
while [ ! -s "$out/.timerharness.lock" ] || ! grep -q "^$pid fuzz" "$out/.timerharness.lock"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill -INT $pid; fail "the run never took the lock"; }
	sleep 0.1
done
sleep 1
fuzz --time 2 > "$dir/second.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "is in use by another fuzz run (pid $pid)" "$dir/second.log" ||
	{ kill -INT $pid; fail "a second fuzz on the same --out: exit $rc: $(cat "$dir/second.log")"; }
"$th" matrix --build-root "$build" --out "$out" --quiet > "$dir/matrix.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "is in use by another fuzz run (pid $pid)" "$dir/matrix.log" ||
	{ kill -INT $pid; fail "matrix on a directory fuzz holds: exit $rc: $(cat "$dir/matrix.log")"; }

# 3. SIGKILL mid-campaign: the runner and its engines (each its own group).
# The runner is stopped first, so that it starts no engine between the list
# and the kill (it restarts one after each finding, and since issue 26 the
# first findings come within the first second); an engine just forked may
# not have its own group yet: it is killed by pid too.
kill -STOP $pid
engines=$(ps -o pid= --ppid $pid)
kill -KILL $pid
for e in $engines; do kill -KILL -- -"$e" 2>/dev/null; kill -KILL "$e" 2>/dev/null; done
wait $pid 2>/dev/null
hashes > "$dir/after"
cmp -s "$dir/before" "$dir/after" || fail "SIGKILL changed the previous set: $(diff "$dir/before" "$dir/after")"
gate --allow-slice > "$dir/check2.out" 2>&1
[ $? -eq "$rc1" ] || fail "the previous summary judged otherwise after SIGKILL: $(cat "$dir/check2.out")"
[ "$(ls "$out/fuzz" | wc -l)" -eq 2 ] || fail "the killed run left no directory of its own: $(ls "$out/fuzz")"
fuzz --time 1 > "$dir/run3.log" 2>&1 || fail "fuzz after the kill: exit $?: $(cat "$dir/run3.log")"
[ ! -e "$out/.timerharness.lock" ] || fail "the run after the kill left the lock file it took over"
[ "$(ls "$out/fuzz" | wc -l)" -eq 1 ] && [ "$(ls "$out/fuzz")" != "$runs" ] ||
	fail "run directories after the next run: $(ls "$out/fuzz") (was $runs)"

# 5 (before 4, which breaks a reproducer). The findings are replayed with the
# build's binary, and the rate held against a floor: a copy of the set
# doctored consistently (a reproducer swapped for another finding's bytes,
# its sha256 with them; executions cut a thousandfold, every count in step)
# is bad input, each named; --no-replay says it replayed nothing.
doc() {
	rm -rf "$dir/doc-$1" && cp -r "$out" "$dir/doc-$1" &&
		python3 "$(dirname "$0")/fuzz_doctor.py" "$1" "$dir/doc-$1/fuzz.json"
}
if doc swap > "$dir/swap.out"; then
	"$check" --plan "$plan" --build-root "$build" --allow-slice "$dir/doc-swap/fuzz.json" "$expect" > "$dir/check5.out" 2>&1
	[ $? -eq 2 ] && grep -q "^replay: .*$(cut -d' ' -f1 "$dir/swap.out"): its reproducer .* replays to $(cut -d' ' -f2 "$dir/swap.out") in each of 5 fresh runs" "$dir/check5.out" ||
		fail "a swapped reproducer: $(cat "$dir/swap.out") $(cat "$dir/check5.out")"
	"$check" --plan "$plan" --build-root "$build" --allow-slice --no-replay "$dir/doc-swap/fuzz.json" "$expect" > "$dir/check5n.out" 2>&1
	grep -q "findings not replayed (as asked" "$dir/check5n.out" ||
		fail "--no-replay did not say so: $(cat "$dir/check5n.out")"
else
	echo "run 3 has no two findings of one campaign: the swap is skipped"
fi
if doc erase > "$dir/erase.out"; then
	"$check" --plan "$plan" --build-root "$build" --allow-slice "$dir/doc-erase/fuzz.json" "$expect" > "$dir/check7.out" 2>&1
	[ $? -eq 2 ] && grep -q "^erased: .*: a finding the run saved that the summary does not list" "$dir/check7.out" ||
		fail "a finding erased from the list: $(cat "$dir/erase.out") $(cat "$dir/check7.out")"
else
	echo "run 3 has no two findings of one outcome in a campaign: the erase is skipped"
fi
# The run's own record (each campaign's stats, where the target counted as
# it ran): a finding erased with every file saved of it, and the time
# stretched tenfold, are each named against it.
if doc forget > "$dir/forget.out"; then
	"$check" --plan "$plan" --build-root "$build" --allow-slice "$dir/doc-forget/fuzz.json" "$expect" > "$dir/check8.out" 2>&1
	[ $? -eq 2 ] && grep -q "^erased: .*$(cat "$dir/forget.out"): a finding its run recorded (.*/stats) that the summary does not list" "$dir/check8.out" ||
		fail "a finding erased with its files: $(cat "$dir/forget.out") $(cat "$dir/check8.out")"
else
	echo "run 3 has no finding: the forget is skipped"
fi
doc stretch > /dev/null || fail "cannot doctor $out/fuzz.json"
"$check" --plan "$plan" --build-root "$build" --allow-slice "$dir/doc-stretch/fuzz.json" "$expect" > "$dir/check9.out" 2>&1
[ $? -eq 2 ] && grep -q "^doctored: .*: claims .* s; its run's records (.*/stats) span .* s: the time was stretched" "$dir/check9.out" ||
	fail "the time stretched tenfold: $(cat "$dir/check9.out")"
doc cut > /dev/null || fail "cannot doctor $out/fuzz.json"
"$check" --plan "$plan" --build-root "$build" --allow-slice "$dir/doc-cut/fuzz.json" "$expect" > "$dir/check6.out" 2>&1
[ $? -eq 2 ] && grep -q "^doctored: .* executions in .* CPU seconds, below the floor" "$dir/check6.out" &&
	grep -q "^doctored: .*: claims [0-9]* executions (.*); its run recorded [0-9]* (.*) in .*/stats" "$dir/check6.out" ||
	fail "executions cut a thousandfold: $(cat "$dir/check6.out")"

# 4. A reproducer gone or changed after the summary was written.
repro=$(sed -n 's/.*"reproducer": "\([^"]*\)".*/\1/p' "$out/fuzz.json" | head -n 1)
if [ -z "$repro" ]; then
	# No finding in 1 s: the first run's summary had some; judge a copy of
	# the set as it is after one is changed (the gate reads files beside it).
	echo "run 3 found nothing; part 4 skipped (covered by the fixtures' reproducer_* cases)"
	exit 0
fi
printf 'x' >> "$out/$repro"
gate --allow-slice > "$dir/check3.out" 2>&1
[ $? -eq 2 ] && grep -q "^reproducer: .*$repro: its SHA-256 is" "$dir/check3.out" ||
	fail "a changed reproducer: $(cat "$dir/check3.out")"
rm "$out/$repro"
gate --allow-slice > "$dir/check4.out" 2>&1
[ $? -eq 2 ] && grep -q "^reproducer: .*$repro: missing" "$dir/check4.out" ||
	fail "a removed reproducer: $(cat "$dir/check4.out")"
exit 0

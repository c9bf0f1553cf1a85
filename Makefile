# timerharness: the two commands of the README.
#   make demo   install what is missing, build every toolchain, run the matrix, gate it
#   make test   install what is missing, build and test with every toolchain
#   make fuzz   fuzzing campaigns of every build of the newest toolchain, gated
#   make bench  the wheel's and the defences' cost, into out/ beside the results
#   make cflite ClusterFuzzLite's build.sh in OSS-Fuzz's environment: the address
#               build in full, a seed of every fuzzer (make test configures
#               every sanitizer only)
#   make golden record the report goldens again (tests/golden/report/) after a
#               meant change of an output; commit the diff with the reason
#   make kernel the real kernel beside the model: Linux 6.1 and 6.12 built with the unit
#               (kernel/build, cached outside the clone), one QEMU boot per cell, into
#               out/results.json, gated
.PHONY: all deps build test check cflite golden demo bench fuzz kernel clean

PRESETS = $(shell scripts/toolchains)
FIRST   = $(firstword $(PRESETS))
TH      = build/$(FIRST)/cli/timerharness
# Campaigns run on the newest toolchain (kcfi and -fsanitize=function need clang >= 16/17).
NEWEST  = $(lastword $(PRESETS))
# make demo: one short campaign per API generation and config whose row of
# cfi/configs.tsv says demo in its fuzz column (the baseline and the
# type-based CFIs the kernel question is about), the timer's and the
# tasklet's (fuzz/campaigns.tsv: the tasklet under the rows that fuzz it):
# 21 campaigns, about two minutes with two at a time; make fuzz: every
# config, longer.
DEMO_CONFIGS := $(shell awk -F'\t' '!/^[#]/ && $$1 != "name" && $$6 ~ /(^|,)demo(,|$$)/ { printf "%s%s", s, $$1; s = "," }' cfi/configs.tsv)
DEMO_FUZZ = --toolchain $(NEWEST) --config $(DEMO_CONFIGS) --time 10
FUZZ_TIME ?= 60

all: build

deps:
	@scripts/install-deps

# One line per preset (scripts/build: the output in build/<preset>/th-build.log,
# warnings and failures shown; a cold build timed for metrics.build_seconds).
build: deps
	@set -e; for p in $(PRESETS); do scripts/build $$p; done

# The tests labelled toolchain-independent (tests/CMakeLists.txt: their
# result is the same whichever clang built the tree) run with the newest
# toolchain only; every other preset runs all the rest, as its test preset
# would (two at a time, output on failure, no cflite-build). Not
# `ctest --preset P -LE ...`: CMake 3.25 (Debian 12's) then applies neither
# that label filter nor the preset's. A cold build prints its time
# (scripts/build); ctest prints its own.
TEST_ONCE_EXCLUDE = ^(cflite-build|toolchain-independent)$$
test: build
	@set -e; for p in $(PRESETS); do \
		if [ "$$p" = "$(NEWEST)" ]; then \
			echo "== ctest --preset $$p"; \
			ctest --preset $$p; \
		else \
			echo "== ctest --preset $$p, less the toolchain-independent tests"; \
			ctest --test-dir build/$$p -j 2 --output-on-failure -LE '$(TEST_ONCE_EXCLUDE)'; \
		fi; \
	done

# The quick subset to run while working: the newest toolchain's tests less
# the slow (tests/CMakeLists.txt says which), browser and ClusterFuzzLite ones.
check: build
	@ctest --test-dir build/$(NEWEST) -j 2 --output-on-failure -LE 'slow|browser|cflite-build'

# The test presets leave out the label cflite-build (tests/fuzz.cmake).
cflite: build
	@ctest --test-dir build/$(NEWEST) -L cflite-build --output-on-failure

# tests/golden.py: every format of `timerharness report` of each case of
# tests/golden/cases.tsv, written where the golden.report.* tests compare.
golden: build
	@python3 tests/golden.py update --th $(TH)

# The last screen is the answer: the campaigns run first, so that the
# matrix's verdict shows them beside its cells (out/fuzz.json beside
# out/results.json), then its outputs, then the gate's findings and its PASS
# or FAIL on both. matrix exit 3 (some cells are harness errors) still wrote
# the results: the gate says which, and fails.
demo: build
	@$(TH) fuzz --slice $(DEMO_FUZZ) --out out
	@$(TH) matrix --out out || [ $$? -eq 3 ]
	@if [ -f build/kernel/initramfs.cpio ]; then $(TH) kernel --out out || [ $$? -eq 3 ]; \
	else echo "demo: no real-kernel cells: make kernel builds Linux with the unit and boots"; \
	echo "  them (about 12 CPU-minutes a config, once)"; fi
	@$(TH) check --results out/results.json
# check gates out/fuzz.json beside the matrix's results when both are there;
# a campaign summary alone is gated by the campaigns' check. The campaigns
# here are a slice of fuzz/campaigns.tsv's plan (the newest toolchain; the
# demo's four configs), which the run plans (fuzz --slice: fuzz.json records
# it so): judged by what they were asked for, every campaign of it there,
# and named; the matrix's results are judged whole. The check is the one a
# user runs later on the same files, so it answers as make demo did.
fuzz: build
	@$(TH) fuzz --slice --toolchain $(NEWEST) --time $(FUZZ_TIME) --value-profile --out out
	@if [ -f out/results.json ]; then $(TH) check --results out/results.json; \
	else $(TH) check --fuzz-only out/fuzz.json; fi


# The figures go beside the matrix's results (out/bench.json,
# out/bench-configs-<preset>.json), where report.md and report.html show
# them: re-rendered here when out/results.json exists, and by every later
# `timerharness matrix` or `timerharness report`.
# The floor, then the matrix timed in the same run: its cells a second over
# the floor's two processes forking at once (issue 32's measure), the
# matrix's own outputs under out/bench-matrix (not out/: results kept).
bench: build
	@mkdir -p out
	@build/$(FIRST)/bench/th-bench-floor | tee out/bench-floor.txt
	@floor=$$(sed -n 's/^processes, two forking at once *\([0-9]*\) a second.*/\1/p' out/bench-floor.txt); \
	cells=$$($(TH) matrix --out out/bench-matrix 2>&1 | sed -n 's/^matrix: [0-9]* cells in [0-9.]* s (\([0-9]*\) a second).*/\1/p'); \
	[ -n "$$floor" ] && [ -n "$$cells" ] || { echo "bench: no floor or matrix figure" >&2; exit 1; }; \
	echo "bench: matrix $$cells cells/s, floor $$floor processes/s two at once:"; \
	echo "bench:   $$(awk -v c=$$cells -v f=$$floor 'BEGIN { printf "%.2f", c / f }')x the floor"
	$(TH) bench --json out/bench.json
	@set -e; for p in $(PRESETS); do \
		c=$$(build/$$p/cli/timerharness bench --configs --help | sed -n 's/.*Built for this toolchain: //p'); \
		echo "== $$p: bench --configs $$c"; \
		build/$$p/cli/timerharness bench --configs $$c --json out/bench-configs-$$p.json; \
	done
	@if [ -f out/results.json ]; then \
		$(TH) report --results out/results.json --format md --out out/report.md && \
		$(TH) report --results out/results.json --format html --out out/report.html && \
		echo "bench: out/report.md and out/report.html show the figures"; \
	fi

# The real kernel beside the model (kernel/README.md). Cold: builds the
# kernels of kernel/kernels.tsv (6 to 11 minutes each here), warm: takes them
# from the cache outside the clone (TH_KERNEL_CACHE, default
# /var/cache/timerharness/kernel) and boots only. The model's matrix runs
# first when out/results.json is not there, so that every real-kernel cell
# meets its model cell in the agreement and the gate judges both.
kernel: build
	@kernel/build
	@TH_VMLINUX=$(CURDIR)/build/kernel/6.1/kcfi/vmlinux ctest --preset $(NEWEST) -R '^reach\.vmlinux(\.tasklet)?$$' --output-on-failure
	@if [ ! -f out/results.json ]; then $(TH) matrix --out out --quiet || [ $$? -eq 3 ]; fi
	@$(TH) kernel --out out || [ $$? -eq 3 ]
	@$(TH) check --results out/results.json --fuzz-allow-slice

clean:
	rm -rf build out

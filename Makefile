# timerharness: the two commands of the README.
#   make demo   install what is missing, build every toolchain, run the matrix, gate it
#   make test   install what is missing, build and test with every toolchain
.PHONY: all deps build test demo bench clean

PRESETS = $(shell scripts/toolchains)
FIRST   = $(firstword $(PRESETS))
TH      = build/$(FIRST)/cli/timerharness

all: build

deps:
	@scripts/install-deps

# One line per preset (scripts/build: the output in build/<preset>/th-build.log,
# warnings and failures shown; a cold build timed for metrics.build_seconds).
build: deps
	@set -e; for p in $(PRESETS); do scripts/build $$p; done

test: build
	@set -e; for p in $(PRESETS); do \
		echo "== ctest --preset $$p"; \
		ctest --preset $$p; \
	done

# The last screen is the answer: the matrix's verdict and outputs, then the
# gate's findings and its PASS or FAIL. matrix exit 3 (some cells are
# harness errors) still wrote the results: the gate says which, and fails.
demo: build
	@$(TH) matrix --out out || [ $$? -eq 3 ]
	@$(TH) check --results out/results.json


bench: build
	$(TH) bench
	@set -e; mkdir -p out; for p in $(PRESETS); do \
		c=$$(build/$$p/cli/timerharness bench --configs --help | sed -n 's/.*Built for this toolchain: //p'); \
		echo "== $$p: bench --configs $$c"; \
		build/$$p/cli/timerharness bench --configs $$c --json out/bench-configs-$$p.json; \
	done

clean:
	rm -rf build out

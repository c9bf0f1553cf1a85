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

build: deps
	@set -e; start=$$(date +%s); \
	for p in $(PRESETS); do \
		cmake --preset $$p >/dev/null; \
		cmake --build --preset $$p; \
	done; \
	secs=$$(( $$(date +%s) - start )); echo $$secs > build/.build-seconds; \
	echo "build: $(PRESETS) in $$secs s"

test: build
	@set -e; for p in $(PRESETS); do \
		echo "== ctest --preset $$p"; \
		ctest --preset $$p; \
	done

demo: build
	@$(TH) matrix --out out
	@$(TH) check --results out/results.json
	@echo "demo: results in out/results.json, report in out/report.md"


bench: build
	$(TH) bench

clean:
	rm -rf build out

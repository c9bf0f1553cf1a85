# SPDX-License-Identifier: MIT
#
# Fuzzing campaigns (tests/fuzz_campaign.cmake): the gate on fixtures (fuzz.json x
# their plan x the fixtures' build x fuzz/expected.tsv: the
# doctored summaries of tests/data/fuzz/make_fixtures.py), the strict
# loader's bad inputs, the plan against this build, the report section,
# and the campaign command end to end on this build (a short run, its lock,
# SIGKILL, an interrupt).
# The replays of saved inputs are registered with the targets
# (fuzz/overflow.cmake).

if(NOT TARGET th_report)
  return()
endif()
set(_fd ${CMAKE_CURRENT_LIST_DIR}/data/fuzz)
set(_fx ${PROJECT_SOURCE_DIR}/fuzz/expected.tsv)
set(_re ${CMAKE_CURRENT_LIST_DIR}/fuzz_expect.cmake)

add_executable(fuzz_check ${CMAKE_CURRENT_LIST_DIR}/fuzz_check_main.c)
target_include_directories(fuzz_check PRIVATE ${PROJECT_SOURCE_DIR}/report)
target_link_libraries(fuzz_check PRIVATE th_report)
target_compile_options(fuzz_check PRIVATE ${TH_WARN_FLAGS})

# th_fuzz_gate(NAME RC STDOUT_REGEX STDERR_REGEX ARGS...): the gate on a
# fixture, judged by the checkout's expectations, the fixtures' build
# (tests/data/fuzz/build: clang-22 and clang-14, as fuzz/overflow.cmake
# writes fuzz-manifest.tsv) and the fixtures' plan (tests/data/fuzz/
# campaigns.tsv: the checkout's, its configs named as that build holds
# them, so that a config added to cfi/configs.tsv is not missing from
# fixtures made before it). The checkout's own plan (_fp) is held to this
# build (fuzz.plan.build) and runs the campaigns below.
set(_fp ${PROJECT_SOURCE_DIR}/fuzz/campaigns.tsv)
set(_fpx ${_fd}/campaigns.tsv)
function(th_fuzz_gate name rc out_regex err_regex)
  add_test(NAME fuzz.gate.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fpx};--build-root;${_fd}/build;--no-replay;${ARGN}"
            -DRC=${rc} "-DSTDOUT_REGEX=${out_regex}" "-DSTDERR_REGEX=${err_regex}" -P ${_re})
  set_tests_properties(fuzz.gate.${name} PROPERTIES LABELS fuzz TIMEOUT 60)
endfunction()

# What is declared passes; each finding and requirement is named. good.json
# is a whole run (the plan on both toolchains of the build), demo.json the
# slice make demo runs.
th_fuzz_gate(declared_verbose 0 "expected: overflow legacy/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_RING_TIMER.*expected: overflow modern/cfi-icall/clang-22: found PRIVILEGED_WRITE:CRED_VIA_LIST.*unsupported: overflow modern/kcfi/clang-14: clang 14 < 16 required by kcfi \\(declared by [^\n]*campaigns.tsv:[0-9]+\\).*54 campaigns \\(51 ran\\): 51 as declared, 0 regressed, 0 harness errors; 5 findings.*fuzz legacy: hijacked through the timer's own call on none/clang-22 .*cfi-icall/clang-22 .*fuzz modern: no hijack through the timer's own call on none/clang-22 \\([0-9]+ executions, [0-9]+ CFI blocks\\), cfi-icall/clang-22" "^$"
  --verbose ${_fd}/good.json ${_fx})
# Without --verbose the declared findings are counted, not listed; the
# per-generation sentences are there when the summary is judged alone, and
# left to the verdict screen when it is judged beside results.json.
th_fuzz_gate(declared 0 "check fuzz: [0-9]+ campaigns .* [1-9][0-9]* findings, as declared unless listed \\(see --verbose\\).*fuzz legacy: hijacked" "^$"
  ${_fd}/good.json ${_fx})
add_test(NAME fuzz.gate.declared_beside
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fpx};--build-root;${_fd}/build;--no-replay;--beside;${_fd}/good.json;${_fx}" -DRC=0
          "-DSTDOUT_REGEX=unsupported: overflow modern/kcfi/clang-14.*\ncheck fuzz: 51 campaigns ran: 51 as declared, 0 regressed; 5 findings[ \n]+\\(--verbose\\); findings not[ \n]+replayed \\(as asked: no build to replay them\\)\n$" "-DSTDOUT_NOT_REGEX=expected: |fuzz legacy" -P ${_re})
set_tests_properties(fuzz.gate.declared_beside PROPERTIES LABELS fuzz TIMEOUT 60)
th_fuzz_gate(demo_slice_allowed 0 "check fuzz: 12 campaigns \\(12 ran\\) \\(SLICE: configs none,cfi-icall,cfi-icall-generalized,kcfi; toolchains clang-22\\): 12 as declared, 0 regressed" "^$"
  --allow-slice ${_fd}/demo.json ${_fx})
# The slice its run planned (fuzz --slice, as make demo runs it) passes
# without --allow-slice, named as such, alone and beside results.json; one
# of its campaigns gone is missing all the same.
th_fuzz_gate(demo_planned 0 "check fuzz: 12 campaigns \\(12 ran\\) \\(the SLICE its run planned: configs none,cfi-icall,cfi-icall-generalized,kcfi; toolchains clang-22\\): 12 as declared, 0 regressed" "^$"
  ${_fd}/demo_planned.json ${_fx})
th_fuzz_gate(demo_planned_beside 0 "check fuzz: 12 campaigns ran \\(the SLICE its run planned: configs[ \n]+none,cfi-icall,cfi-icall-generalized,kcfi; toolchains clang-22\\): 12 as[ \n]+declared, 0 regressed" "^$"
  --beside ${_fd}/demo_planned.json ${_fx})
th_fuzz_gate(demo_planned_short 1 "missing: overflow legacy/kcfi/clang-22: planned by .*check fuzz: 11 campaigns \\(11 ran\\) \\(the SLICE its run planned: .*1 missing" "^$"
  ${_fd}/demo_planned_short.json ${_fx})

# Regressions and lost coverage: exit 1, each named.
# A slice is not the whole plan.
th_fuzz_gate(demo_slice 1 "slice: the campaigns were asked for part of the plan only \\(configs none,cfi-icall,cfi-icall-generalized,kcfi; toolchains clang-22\\): a slice passes only with --allow-slice" "^$"
  ${_fd}/demo.json ${_fx})
# A hijack on 4.15 is declared nowhere: a regression, with its chain.
th_fuzz_gate(modern_hijack 1 "regression: overflow modern/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_FORGED_TIMER, a chain .* does not declare; reproducer fuzz/[^ ]*/clang-22/modern-cfi-icall/findings/HIJACKED-WRITE_CR4_VIA_FORGED_TIMER.bin; chain: legacy" "^$"
  --allow-slice ${_fd}/modern_hijack.json ${_fx})
# ... hidden by deleting its campaign: the plan names it missing.
th_fuzz_gate(regression_hidden 1 "missing: overflow modern/cfi-icall/clang-22: planned by [^\n]*campaigns.tsv:[0-9]+, not in the summary\n.*12 as declared|missing: overflow modern/cfi-icall/clang-22: planned by [^\n]*, not in the summary.*1 missing" "^$"
  --allow-slice ${_fd}/regression_hidden.json ${_fx})
# The required finding (the list's write into the cred on 4.14 under
# cfi-icall) not found: the search lost its power.
th_fuzz_gate(required_not_found 1 "regression: overflow legacy/cfi-icall/clang-22: no PRIVILEGED_WRITE finding matching CRED_VIA_LIST in 500000 executions" "^$"
  --allow-slice ${_fd}/legacy_no_hijack.json ${_fx})
# Chains of several steps: each step by its own rule, at its own outcome.
th_fuzz_gate(steps_declared 0 "found HIJACKED:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_407F0_VIA_FORGED_TIMER_HIJACKED after .*found REDIRECTED:FORCE_CLOSE_VIA_RING_TIMER after .*found PRIVILEGED_WRITE:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE after .*12 as declared, 0 regressed.*fuzz modern: no hijack through the timer's own call on [^\n]*, as the oracle is built: .*under CFI \\(the [0-9] campaigns whose runs a check stopped\\) it still reached: [^\n]*ring_force_close redirected \\(FORCE_CLOSE_VIA_RING_TIMER REDIRECTED, on cfi-icall" "^$"
  --verbose --allow-slice ${_fd}/steps_declared.json ${_fx})
# A target that ran where CFI should stop it, beside a declared data-only
# write, is undeclared; a step more severe than its rule fails though
# another step of the chain may be that severe; more steps than the oracle
# names are undeclared; a requirement is met by a step, not by the chain.
th_fuzz_gate(steps_hidden 1 "regression: overflow modern/cfi-icall/clang-22: found PRIVILEGED_WRITE:WRITE_CR4_VIA_RING_TIMER_PRIVILEGED_WRITE_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE, a chain .* does not declare" "^$"
  --allow-slice ${_fd}/steps_hidden.json ${_fx})
th_fuzz_gate(steps_too_severe 1 "regression: overflow modern/none/clang-22: found HIJACKED:COMMIT_CREDS_VIA_RING_TIMER_HIJACKED_THEN_PROCESS_TIMEOUT_VIA_RING_TIMER_HIJACKED, declared at most REDIRECTED" "^$"
  --allow-slice ${_fd}/steps_too_severe.json ${_fx})
th_fuzz_gate(steps_more 1 "regression: overflow legacy/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_MORE, a chain .* does not declare" "^$"
  --allow-slice ${_fd}/steps_more.json ${_fx})
th_fuzz_gate(steps_require 1 "regression: overflow legacy/cfi-icall/clang-22: no PRIVILEGED_WRITE finding matching CRED_VIA_LIST" "^$"
  --allow-slice ${_fd}/steps_require.json ${_fx})
# 10 of the slice's 12 campaigns deleted; all but 2 of a whole run's; a
# slice that says it is the whole run.
th_fuzz_gate(ten_deleted 1 "missing: overflow transitional/none/clang-22: planned by .*missing: overflow modern/kcfi/clang-22: planned by .*2 as declared, 0 regressed, 0 harness errors, 10 missing" "^$"
  --allow-slice ${_fd}/ten_deleted.json ${_fx})
th_fuzz_gate(whole_run_shrunk 1 "missing: overflow legacy/none/clang-14.*missing: overflow modern/kcfi/clang-22.*, 52 missing" "^$"
  ${_fd}/whole_run_shrunk.json ${_fx})
th_fuzz_gate(selection_erased 1 "missing: overflow legacy/asan/clang-22: planned by .*, 42 missing" "^$"
  --allow-slice ${_fd}/selection_erased.json ${_fx})
# unsupported is coverage lost unless the plan declares it: legacy/none; the
# three modern CFI campaigns.
th_fuzz_gate(unsupported_legacy_none 1 "lost coverage: overflow legacy/none/clang-22: did not run \\(unsupported: clang: error: unsupported argument 'none'\\), and [^\n]*campaigns.tsv declares no such loss.*1 lost coverage" "^$"
  ${_fd}/unsupported_legacy_none.json ${_fx})
th_fuzz_gate(unsupported_modern 1 "lost coverage: overflow modern/cfi-icall/clang-22: did not run.*lost coverage: overflow modern/cfi-icall-generalized/clang-22: did not run.*lost coverage: overflow modern/kcfi/clang-22: did not run.*3 regressed.*3 lost coverage" "^$"
  ${_fd}/unsupported_modern.json ${_fx})
# Campaigns that "ran" nothing; one with a made-up finding the run did not report.
th_fuzz_gate(zero_executions 1 "lost coverage: overflow modern/cfi-icall-generalized/clang-22: ran 0 executions in 10.2 s: nothing was searched\nlost coverage: overflow modern/kcfi/clang-22: ran 0 executions" "^$"
  ${_fd}/zero_executions.json ${_fx})
th_fuzz_gate(zero_executions_finding 1 "lost coverage: overflow legacy/cfi-icall/clang-22: ran 0 executions in 10.2 s: nothing was searched" "^$"
  ${_fd}/zero_executions_finding.json ${_fx})
# A whole run whose campaign stopped short of its budget.
th_fuzz_gate(budget_short 1 "lost coverage: overflow modern/kcfi/clang-22: ran 2.0 s of its 10 s budget: the search was cut short" "^$"
  ${_fd}/budget_short.json ${_fx})
# A regression inside a failed campaign, or one that counted a HARNESS_ERROR
# run, is a regression (1 wins over 3); the failure alone is a harness error.
th_fuzz_gate(failed_regression 1 "harness error: overflow modern/kcfi/clang-22: the campaign failed: the engine could not be started\nregression: overflow modern/kcfi/clang-22: found HIJACKED:WRITE_CR4_VIA_FORGED_TIMER, a chain" "^$"
  ${_fd}/failed_regression.json ${_fx})
th_fuzz_gate(harness_error_regression 1 "harness error: overflow modern/kcfi/clang-22: 1 runs the harness could not judge\nregression: overflow modern/kcfi/clang-22: found HIJACKED:WRITE_CR4_VIA_FORGED_TIMER" "^$"
  ${_fd}/harness_error_regression.json ${_fx})
th_fuzz_gate(failed 3 "harness error: overflow modern/kcfi/clang-22: the campaign failed: the engine could not be started.*1 harness errors" "^$"
  ${_fd}/failed.json ${_fx})
th_fuzz_gate(harness_error 3 "harness error: overflow legacy/cfi-icall/clang-22: 1 runs the harness could not judge" "^$"
  ${_fd}/harness_error.json ${_fx})
th_fuzz_gate(partial 1 "regression: the campaigns were interrupted \\(SIGINT\\)" "^$"
  ${_fd}/partial.json ${_fx})
# Allowed, a partial run still lists what it lacks.
th_fuzz_gate(partial_allowed 0 "missing: overflow legacy/none/clang-14: planned by [^\n]*, not in the summary \\(the run was interrupted\\).*\\(PARTIAL: SIGINT\\): 12 as declared, 0 regressed, 0 harness errors, 42 missing" "^$"
  --allow-partial ${_fd}/partial.json ${_fx})

# Doctored, foreign or unplanned: bad input, exit 2, saying what and where.
th_fuzz_gate(unknown_config 2 "unplanned: overflow legacy/nope/clang-22: not a campaign of the plan \\([^\n]*campaigns.tsv\\): no campaign row holds config nope for legacy on it.*1 unplanned" "^$"
  ${_fd}/unknown_config.json ${_fx})
th_fuzz_gate(unbuilt_toolchain 2 "unplanned: overflow legacy/cfi-icall/clang-99: toolchain clang-99 has no fuzz build under [^\n]*/build \\(the toolchains a run can name are the ones built there\\)" "^$"
  ${_fd}/unbuilt_toolchain.json ${_fx})
th_fuzz_gate(ran_unbuildable 2 "unplanned: overflow modern/kcfi/clang-14: the summary says it ran, but the build cannot build it \\([^\n]*clang-14/fuzz-manifest.tsv:[0-9]+: unsupported: clang 14 < 16 required by kcfi\\)" "^$"
  ${_fd}/ran_unbuildable.json ${_fx})
th_fuzz_gate(outside_selection 2 "unplanned: overflow legacy/asan/clang-22: outside the run's own selection \\(configs none,cfi-icall,cfi-icall-generalized,kcfi; toolchains clang-22\\): no run writes it" "^$"
  --allow-slice ${_fd}/outside_selection.json ${_fx})
# The reproducers: gone (a run killed after resetting its directory),
# replaced, a link to another file.
th_fuzz_gate(reproducer_missing 2 "reproducer: overflow legacy/none/clang-22: HIJACKED:WRITE_CR4_VIA_RING_TIMER: [^\n]*/fuzz/20250101T000000Z-2/clang-22/legacy-none/findings/HIJACKED-WRITE_CR4_VIA_RING_TIMER.bin: missing: the summary names a file that is not there.*5 reproducers not as recorded" "^$"
  ${_fd}/reproducer_missing.json ${_fx})
th_fuzz_gate(reproducer_mismatch 2 "reproducer: overflow legacy/cfi-icall/clang-22: HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE: [^\n]*/legacy-cfi-icall/findings/HIJACKED-WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE.bin: its SHA-256 is [0-9a-f]+\\.\\.\\., the summary records 0000000000000000\\.\\.\\.: not the input that was found.*1 reproducers not as recorded" "^$"
  ${_fd}/reproducer_mismatch.json ${_fx})
th_fuzz_gate(reproducer_symlink 2 "reproducer: overflow legacy/cfi-icall/clang-14: [^\n]*: a symbolic link, not the reproducer" "^$"
  ${_fd}/reproducer_symlink.json ${_fx})
# Every field the writer produces, held to what it makes of it (the loader).
foreach(case
    "unsupported_finding|campaigns\\[38\\]: status unsupported, but 0 executions, 0 restarts, 0 rechecked artifacts, 1 findings: a campaign that did not run has none"
    "zero_executions_reported_finding|campaigns\\[3\\].findings\\[0\\]: first found after 50 executions and 0.500 s, beyond the campaign's 0 executions"
    "replayed_mismatch|campaigns\\[5\\].findings\\[0\\]: outcome PRIVILEGED_WRITE but replayed HIJACKED: a finding is what its fresh-process replay gave"
    "first_hijack_beyond|campaigns\\[3\\]: first_hijack after 5000000 executions and 0.500 s, not within the campaign's 500000 executions"
    "finding_beyond|campaigns\\[3\\].findings\\[0\\]: first found after 5000000 executions"
    "finding_too_late|campaigns\\[3\\].findings\\[0\\]: first found after 50 executions and 99.000 s, beyond"
    "hijacks_without_first|campaigns\\[3\\]: first_hijack is null, but 10 HIJACKED runs were counted"
    "first_without_hijacks|campaigns\\[5\\]: first_hijack is set, but 0 HIJACKED runs were counted"
    "findings_beyond_rechecked|campaigns\\[3\\]: 1 findings, but 0 artifacts were rechecked"
    "ran_not_started|campaigns\\[21\\]: status ran, but no engine was started \\(restarts 0\\)"
    "rate_mismatch|campaigns\\[21\\]: exec_per_second 1000000.000 is not executions / seconds \\(500000 / 10.200\\)"
    "reported_not_counted|campaigns\\[23\\].findings\\[0\\]: reported by the run \\(reproduced\\), but the campaign counted no PRIVILEGED_WRITE run"
    "finding_removed|campaigns\\[11\\]: 10 HIJACKED runs counted, but no HIJACKED finding and no disagreement between a run and its replay: a finding is missing"
    "reproducer_elsewhere|campaigns\\[3\\].findings\\[0\\]: reproducer \"fuzz/20250101T000000Z-1/clang-22/legacy-none/findings/HIJACKED-WRITE_CR4_VIA_RING_TIMER.bin\" is not where the run keeps HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE's"
    "no_sha256|campaigns\\[3\\].findings\\[0\\]: missing field \"sha256\""
    "no_run|missing field \"run\""
    "bad_run|run: run \"../../etc\" is not fuzz/YYYYMMDDTHHMMSSZ-PID"
    "no_selection|missing field \"selection\""
    "planned_not_bool|selection: \"planned\" must be true or false"
    "not_json|not JSON: line 1"
    "empty|empty file"
    "wrong_schema|schema is not \"timerharness/fuzz/v1\""
    "unknown_field|campaigns\\[0\\]: unknown field \"surprise\""
    "counts_mismatch|campaigns\\[0\\].outcomes: counts sum to 500000, but executions is 5"
    "counts_overflow|campaigns\\[0\\].outcomes: counts sum past 9223372036854775807"
    "finding_not_a_finding|campaigns\\[3\\].findings\\[0\\]: finding .*: outcome BLOCKED_CFI is not a finding"
    "sig_mismatch|campaigns\\[3\\].findings\\[0\\]: finding \"HIJACKED:SOMETHING_ELSE\": sig must be HIJACKED:WRITE_CR4_VIA_RING_TIMER"
    "duplicate_campaign|campaigns\\[54\\]: campaign overflow legacy/cfi-icall/clang-22 \\(libfuzzer\\) added twice"
    "absolute_reproducer|reproducer \"/etc/passwd\" must be a path relative"
    "unknown_variant|campaigns\\[0\\]: unknown variant \"ancient\""
    "unknown_outcome|campaigns\\[0\\].outcomes: unknown outcome \"PWNED\""
    "no_campaign_ran|no campaign ran")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 _n)
  list(GET case 1 _r)
  th_fuzz_gate(bad_${_n} 2 "^$" "${_fd}/${_n}.json: .*${_r}|${_r}" ${_fd}/${_n}.json ${_fx})
endforeach()
th_fuzz_gate(bad_expectations 2 "^$" "nonexistent.tsv" ${_fd}/good.json ${_fd}/nonexistent.tsv)
# The tasklet family's campaigns (target tasklet, issue 28) on their own
# build (tests/data/fuzz/build-tasklet: the overflow target's builds and the
# tasklet's), the slice their run planned: judged by fuzz/tasklet/expected.tsv
# beside the timer's, each family's sentences; write_cr4 hijacked through
# modern's own call is a regression; a tasklet campaign without its "api"
# reads as the timer's, which its target is not: bad input.
# (A ; in a case would split it: the slice's "targets tasklet; toolchains" is
# matched with a dot.)
foreach(case
    "declared|0|check fuzz: 9 campaigns \\(9 ran\\) \\(the SLICE its run planned: targets tasklet. toolchains clang-22\\): 9 as declared, 0 regressed.*expectations: [^ ]*fuzz/expected.tsv, [^ ]*fuzz/tasklet/expected.tsv\\).*fuzz tasklet transitional: hijacked through the tasklet's own call \\(use_callback cleared: func\\(data\\) called, the site whose type admits write_cr4\\) on cfi-icall \\(0.50 s\\).*fuzz tasklet modern: no hijack through the tasklet's own call.*the callback-only call passes the tasklet itself|^$"
    "modern_hijack|1|regression: tasklet modern/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_NEIGHBOUR_TASKLET, a chain [^ ]*fuzz/tasklet/expected.tsv does not declare|^$"
    "no_api|2|^$|tasklet_no_api.json: campaigns\\[0\\]: api \"timer\" is not target tasklet's family")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 _n)
  list(GET case 1 _r)
  list(GET case 2 _o)
  list(GET case 3 _e)
  add_test(NAME fuzz.gate.tasklet_${_n}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fpx};--build-root;${_fd}/build-tasklet;--no-replay;${_fd}/tasklet_${_n}.json;${_fx}"
            -DRC=${_r} "-DSTDOUT_REGEX=${_o}" "-DSTDERR_REGEX=${_e}" -P ${_re})
  set_tests_properties(fuzz.gate.tasklet_${_n} PROPERTIES LABELS fuzz TIMEOUT 60)
endforeach()
# The declarations themselves: a plan that cannot be read, a build that is not there.
add_test(NAME fuzz.gate.bad_plan
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fd}/good.json;--build-root;${_fd}/build;--no-replay;${_fd}/good.json;${_fx}"
          -DRC=2 "-DSTDERR_REGEX=good.json:1: 1 TAB-separated field, expected 6 \\(kind target variant config toolchain reason\\)" -P ${_re})
add_test(NAME fuzz.gate.no_build
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fpx};--build-root;${_fd}/fuzz;--no-replay;${_fd}/good.json;${_fx}"
          -DRC=2 "-DSTDERR_REGEX=no fuzz build under [^\n]*/fuzz \\(no fuzz-manifest.tsv there or in a preset's directory below it\\)" -P ${_re})
# A plan that holds less than the build builds: the two are held to each other.
add_test(NAME fuzz.gate.plan_short
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fd}/plan_short.tsv;--build-root;${_fd}/build;--plan-build"
          -DRC=1 "-DSTDOUT_REGEX=clang-22/fuzz-manifest.tsv:[0-9]+: overflow legacy/cfi-icall-generalized/clang-22 is built, but [^\n]*plan_short.tsv does not plan it" -P ${_re})
set_tests_properties(fuzz.gate.bad_plan fuzz.gate.no_build fuzz.gate.plan_short PROPERTIES LABELS fuzz TIMEOUT 60)
# The checkout's plan against this build: every campaign it plans is built
# here or declared unsupported, and nothing else is built.
if(TARGET th-fuzz-overflow-legacy-none)
  add_test(NAME fuzz.plan.build
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--plan;${_fp};--build-root;${CMAKE_BINARY_DIR};--plan-build"
            -DRC=0 "-DSTDOUT_REGEX=^$" -P ${_re})
  set_tests_properties(fuzz.plan.build PROPERTIES LABELS fuzz TIMEOUT 60)
endif()

# The watchdog proves the soft lockup (overflow_oracle.c): the direct
# overwrite's .data (0x347872) is .flags in the 4.15 layout, TIMER_MIGRATING
# set, and mod_timer()'s lock_timer_base() spins for ever. The proof comes
# from the breakpoint on its jump back, two turns' ends compared with no
# single step (the evidence says so); with the breakpoints off, at the
# watchdog's first tick. A run that only passes through lock_timer_base
# (.flags = 5: a CPU below NR_CPUS with no base, the template's; the timer
# migrates and fires write_cr4 on the timer, #GP) never jumps back: no
# breakpoint, no step, not HANG.
if(TARGET th-fuzz-overflow-modern-none)
  add_test(NAME fuzz.overflow.lockup
    COMMAND $<TARGET_FILE:th-fuzz-overflow-modern-none>
            ${PROJECT_SOURCE_DIR}/fuzz/corpora/overflow-findings/legacy-direct.bin)
  set_tests_properties(fuzz.overflow.lockup PROPERTIES LABELS fuzz TIMEOUT 60
    ENVIRONMENT TH_FUZZ_REPLAY=1
    PASS_REGULAR_EXPRESSION "outcome=HANG sig=HANG:-[^\n]*soft lockup: spinning in lock_timer_base at pc 0x[^\n]*; proven from the breakpoint on its jump back, two turns' ends compared, no single step, before the watchdog's first tick")
  add_test(NAME fuzz.overflow.lockup.tick
    COMMAND $<TARGET_FILE:th-fuzz-overflow-modern-none>
            ${PROJECT_SOURCE_DIR}/fuzz/corpora/overflow-findings/legacy-direct.bin)
  set_tests_properties(fuzz.overflow.lockup.tick PROPERTIES LABELS fuzz TIMEOUT 60
    ENVIRONMENT "TH_FUZZ_REPLAY=1;TH_FUZZ_NO_LOCKUP_BP=1"
    PASS_REGULAR_EXPRESSION "no breakpoint on the spin loops \\(TH_FUZZ_NO_LOCKUP_BP is set\\)[^\n]*\n(.*\n)*outcome=HANG sig=HANG:-[^\n]*soft lockup: spinning in lock_timer_base at pc 0x[^\n]*; proven at the watchdog's first tick")
  add_test(NAME fuzz.overflow.lockup.pass
    COMMAND $<TARGET_FILE:th-fuzz-overflow-modern-none>
            ${CMAKE_CURRENT_LIST_DIR}/data/fuzz/lockup-pass-cpu5.bin)
  set_tests_properties(fuzz.overflow.lockup.pass PROPERTIES LABELS fuzz TIMEOUT 60
    ENVIRONMENT TH_FUZZ_REPLAY=1
    PASS_REGULAR_EXPRESSION "outcome=CRASHED sig=CRASHED:- [^\n]*#GP\\(0\\)"
    FAIL_REGULAR_EXPRESSION "HANG|soft lockup|at their breakpoints")
endif()
# try_to_wake_up()'s raw_spin_lock(&p->pi_lock) on a lock word the attacker
# left taken (lockup-pi-lock.bin, 4.14 layout: .function = process_timeout,
# .data = the ring, whose name holds the lock word: "AAAA"): the xchg's turn
# is proven from the breakpoint (the word it stores into holds what it held);
# with the breakpoints off, stepping cannot prove a turn that stores, and
# the watchdog's two ticks judge it.
if(TARGET th-fuzz-overflow-legacy-none)
  add_test(NAME fuzz.overflow.lockup.pi_lock
    COMMAND $<TARGET_FILE:th-fuzz-overflow-legacy-none> ${CMAKE_CURRENT_LIST_DIR}/data/fuzz/lockup-pi-lock.bin)
  set_tests_properties(fuzz.overflow.lockup.pi_lock PROPERTIES LABELS fuzz TIMEOUT 60
    ENVIRONMENT TH_FUZZ_REPLAY=1
    PASS_REGULAR_EXPRESSION "outcome=HANG sig=HANG:-[^\n]*soft lockup: spinning in process_timeout at pc 0x[^\n]*the word its xchg stored into holding what it held[^\n]*try_to_wake_up[^\n]*; proven from the breakpoint on its jump back, two turns' ends compared, no single step")
  add_test(NAME fuzz.overflow.lockup.pi_lock.tick
    COMMAND $<TARGET_FILE:th-fuzz-overflow-legacy-none> ${CMAKE_CURRENT_LIST_DIR}/data/fuzz/lockup-pi-lock.bin)
  set_tests_properties(fuzz.overflow.lockup.pi_lock.tick PROPERTIES LABELS fuzz TIMEOUT 60
    ENVIRONMENT "TH_FUZZ_REPLAY=1;TH_FUZZ_NO_LOCKUP_BP=1"
    PASS_REGULAR_EXPRESSION "outcome=HANG sig=HANG:-[^\n]*the run used [0-9]+ ms of CPU \\(watchdog\\)"
    FAIL_REGULAR_EXPRESSION "soft lockup: spinning")
endif()
# The dispatch's CFI trap (cfi-icall's ud1, kcfi's ud2) stops a call of
# commit_creds through the ring's timer (cfi-trap-commit-creds.bin) at an
# int3 in its place: the same verdict, the same trap and call target, as
# with the compiler's instruction (TH_FUZZ_NO_TRAP_INT3=1). The configs of
# the verdict card (cfi/configs.tsv's card column: cfi-icall's ud1, kcfi's
# ud2), each where this toolchain builds its legacy fuzz target.
th_configs_where(card card _card_configs)
foreach(_c IN LISTS _card_configs)
  if(TARGET th-fuzz-overflow-legacy-${_c})
    add_test(NAME fuzz.overflow.cfi_trap_int3.${_c}
      COMMAND $<TARGET_FILE:th-fuzz-overflow-legacy-${_c}> ${CMAKE_CURRENT_LIST_DIR}/data/fuzz/cfi-trap-commit-creds.bin)
    set_tests_properties(fuzz.overflow.cfi_trap_int3.${_c} PROPERTIES LABELS fuzz TIMEOUT 60
      ENVIRONMENT TH_FUZZ_REPLAY=1
      PASS_REGULAR_EXPRESSION "outcome=BLOCKED_CFI sig=BLOCKED_CFI:-[^\n]*SIGTRAP of the int3 on its trap instruction at pc 0x[0-9a-f]+, a CFI trap guarding call_timer_fn's indirect call [^\n]*, call target &commit_creds")
    add_test(NAME fuzz.overflow.cfi_trap_int3.${_c}.off
      COMMAND $<TARGET_FILE:th-fuzz-overflow-legacy-${_c}> ${CMAKE_CURRENT_LIST_DIR}/data/fuzz/cfi-trap-commit-creds.bin)
    set_tests_properties(fuzz.overflow.cfi_trap_int3.${_c}.off PROPERTIES LABELS fuzz TIMEOUT 60
      ENVIRONMENT "TH_FUZZ_REPLAY=1;TH_FUZZ_NO_TRAP_INT3=1"
      PASS_REGULAR_EXPRESSION "outcome=BLOCKED_CFI sig=BLOCKED_CFI:-[^\n]*SIGILL at pc 0x[0-9a-f]+, a CFI trap guarding call_timer_fn's indirect call [^\n]*, call target &commit_creds")
  endif()
endforeach()

# The report: report.md gains the section when fuzz.json is beside the results.
if(TARGET report_cli)
  add_test(NAME fuzz.report.section
    COMMAND ${CMAKE_COMMAND} -DREPORT=$<TARGET_FILE:report_cli>
            -DRESULTS=${CMAKE_CURRENT_LIST_DIR}/data/report/gate.json -DFUZZ=${_fd}/good.json
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_report -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_report.cmake)
  set_tests_properties(fuzz.report.section PROPERTIES LABELS fuzz TIMEOUT 60)
endif()

# The campaign command on this build: a short run whose summary check judges
# (reproducers and their hashes included), the lock, SIGKILL mid-run leaving
# the previous set whole; an interrupt leaves a valid partial summary.
if(TARGET timerharness AND TARGET th-fuzz-overflow-legacy-none)
  add_test(NAME fuzz.campaign.run
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fuzz_run.sh $<TARGET_FILE:timerharness>
            ${CMAKE_BINARY_DIR} ${TIMERHARNESS_TOOLCHAIN} ${CMAKE_CURRENT_BINARY_DIR}/fuzz_run
            $<TARGET_FILE:fuzz_check> ${_fx} ${_fp})
  set_tests_properties(fuzz.campaign.run PROPERTIES LABELS fuzz TIMEOUT 180 RUN_SERIAL TRUE)
  # The exact goal is a finding of its own: saved with its reproducer and
  # replayed like the others (the seed corpus is the goal's input).
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds)
  configure_file(${PROJECT_SOURCE_DIR}/fuzz/corpora/overflow-findings/legacy-direct-407f0.bin
                 ${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds/legacy-direct-407f0.bin COPYONLY)
  add_test(NAME fuzz.campaign.goal_saved
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness> -DCHECK=$<TARGET_FILE:fuzz_check>
            -DBUILD=${CMAKE_BINARY_DIR} -DEXPECT=${_fx} -DPLAN=${_fp} -DTOOLCHAIN=${TIMERHARNESS_TOOLCHAIN}
            -DSEEDS=${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds -DTIME=3
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_goal.cmake)
  set_tests_properties(fuzz.campaign.goal_saved PROPERTIES LABELS fuzz TIMEOUT 120)
  # The tasklet family's campaign (fuzz target tasklet, issue 28): the
  # downgrade on 6.1's layout under cfi-icall, use_callback cleared and
  # write_cr4(0x407f0) through func(data), seeded with its own input: saved,
  # named "api": "tasklet", replayed by check with the tasklet binary, and
  # judged by fuzz/tasklet/expected.tsv.
  if(TARGET th-fuzz-tasklet-transitional-cfi-icall)
    file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_tasklet_seeds)
    configure_file(${PROJECT_SOURCE_DIR}/fuzz/corpora/tasklet-findings/use-callback-407f0.bin
                   ${CMAKE_CURRENT_BINARY_DIR}/fuzz_tasklet_seeds/use-callback-407f0.bin COPYONLY)
    add_test(NAME fuzz.campaign.tasklet_goal
      COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness> -DCHECK=$<TARGET_FILE:fuzz_check>
              -DBUILD=${CMAKE_BINARY_DIR} -DEXPECT=${_fx} -DPLAN=${_fp} -DTOOLCHAIN=${TIMERHARNESS_TOOLCHAIN}
              -DSEEDS=${CMAKE_CURRENT_BINARY_DIR}/fuzz_tasklet_seeds -DTIME=3 -DFZ_TARGET=tasklet
              -DVARIANT=transitional -DCONFIG=cfi-icall -DAPI=tasklet
              -DSIG=HIJACKED:WRITE_CR4_407F0_VIA_NEIGHBOUR_TASKLET
              -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_tasklet_goal -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_goal.cmake)
    set_tests_properties(fuzz.campaign.tasklet_goal PROPERTIES LABELS fuzz TIMEOUT 120)
  endif()
  add_test(NAME fuzz.campaign.interrupt
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fuzz_interrupt.sh $<TARGET_FILE:timerharness>
            ${CMAKE_BINARY_DIR} ${TIMERHARNESS_TOOLCHAIN} ${CMAKE_CURRENT_BINARY_DIR}/fuzz_interrupt
            $<TARGET_FILE:fuzz_check> ${_fx} ${_fp})
  set_tests_properties(fuzz.campaign.interrupt PROPERTIES LABELS fuzz TIMEOUT 120)
  foreach(case
      "unknown_config|--config,nope|no fuzz build matches"
      "unknown_target|--target,hrtimer|--target: no such target 'hrtimer'"
      "bad_engine|--engine,honggfuzz|--engine must be libfuzzer or afl"
      "bad_time|--time,0|--time needs a number"
      "unknown_option|--frobnicate|unknown argument '--frobnicate'"
      "slice_whole|--slice|--slice without --target, --variant, --config or --toolchain: the whole plan is no slice")
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 _n)
    list(GET case 1 _a)
    list(GET case 2 _r)
    string(REPLACE "," ";" _a "${_a}")
    add_test(NAME fuzz.campaign.${_n}
      COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:timerharness>;fuzz;--build-root;${CMAKE_BINARY_DIR};--out;${CMAKE_CURRENT_BINARY_DIR}/fuzz_bad;${_a}"
              -DRC=2 "-DSTDERR_REGEX=${_r}" -P ${_re})
    set_tests_properties(fuzz.campaign.${_n} PROPERTIES LABELS fuzz TIMEOUT 60)
  endforeach()
endif()

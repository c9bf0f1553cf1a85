# SPDX-License-Identifier: MIT
#
# Fuzzing campaigns (tests/fuzz_campaign.cmake): the gate on fixtures (fuzz.json x fuzz/expected.tsv),
# the strict loader's bad inputs, the report section, and the campaign
# command end to end on this build (one second of fuzzing, an interrupt).
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

# th_fuzz_gate(NAME RC STDOUT_REGEX STDERR_REGEX ARGS...)
function(th_fuzz_gate name rc out_regex err_regex)
  add_test(NAME fuzz.gate.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;${ARGN}" -DRC=${rc}
            "-DSTDOUT_REGEX=${out_regex}" "-DSTDERR_REGEX=${err_regex}" -P ${_re})
  set_tests_properties(fuzz.gate.${name} PROPERTIES LABELS fuzz TIMEOUT 60)
endfunction()

# What is declared passes; each finding and requirement is named.
th_fuzz_gate(declared_verbose 0 "expected: overflow legacy/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_RING_TIMER.*expected: overflow modern/cfi-icall/clang-22: found PRIVILEGED_WRITE:CRED_VIA_LIST.*unsupported: overflow modern/kcfi/clang-14.*0 regressed.*fuzz legacy: hijacked through the timer's own call on none/clang-22 .*cfi-icall/clang-22 .*fuzz modern: no hijack through the timer's own call on cfi-icall/clang-22 \\([0-9]+ executions, [0-9]+ CFI blocks\\)" "^$"
  --verbose ${_fd}/good.json ${_fx})
# Without --verbose the declared findings are counted, not listed; the
# per-generation sentences are there when the summary is judged alone, and
# left to the verdict screen when it is judged beside results.json.
th_fuzz_gate(declared 0 "check fuzz: [0-9]+ campaigns .* [1-9][0-9]* findings, as declared unless listed \\(see --verbose\\).*fuzz legacy: hijacked" "^$"
  ${_fd}/good.json ${_fx})
add_test(NAME fuzz.gate.declared_beside
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_check>;--beside;${_fd}/good.json;${_fx}" -DRC=0
          "-DSTDOUT_REGEX=unsupported: overflow modern/kcfi/clang-14.*\ncheck fuzz: [0-9]+ campaigns ran: [0-9]+ as declared, 0 regressed; [1-9][0-9]* findings \\(--verbose\\)\n$" "-DSTDOUT_NOT_REGEX=expected: |fuzz legacy" -P ${_re})
set_tests_properties(fuzz.gate.declared_beside PROPERTIES LABELS fuzz TIMEOUT 60)
# A hijack on 4.15 is declared nowhere: a regression, with its chain.
th_fuzz_gate(modern_hijack 1 "regression: overflow modern/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_FORGED_TIMER, a chain .* does not declare; reproducer .*; chain: legacy" "^$"
  ${_fd}/modern_hijack.json ${_fx})
# The legacy hijack not found: the search lost its power.
th_fuzz_gate(required_not_found 1 "regression: overflow legacy/cfi-icall/clang-22: no HIJACKED finding matching WRITE_CR4_\\*VIA_RING_TIMER,WRITE_CR4_\\*VIA_FORGED_TIMER in 1000 executions" "^$"
  ${_fd}/legacy_no_hijack.json ${_fx})
# A required campaign missing fails, unless a slice is allowed.
th_fuzz_gate(required_campaign_missing 1 "regression: no campaign of legacy/none/\\*" "^$"
  ${_fd}/slice.json ${_fx})
th_fuzz_gate(slice_allowed 0 "0 regressed" "^$" --allow-slice ${_fd}/slice.json ${_fx})
th_fuzz_gate(partial 1 "regression: the campaigns were interrupted \\(SIGINT\\)" "^$"
  ${_fd}/partial.json ${_fx})
th_fuzz_gate(partial_allowed 0 "0 regressed" "^$" --allow-partial ${_fd}/partial.json ${_fx})
th_fuzz_gate(harness_error 3 "harness error: overflow legacy/cfi-icall/clang-22: 1 runs the harness could not judge" "^$"
  ${_fd}/harness_error.json ${_fx})
# Chains of several steps: each step by its own rule, at its own outcome.
th_fuzz_gate(steps_declared 0 "found HIJACKED:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_407F0_VIA_FORGED_TIMER_HIJACKED after .*found REDIRECTED:FORCE_CLOSE_VIA_RING_TIMER after .*found PRIVILEGED_WRITE:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE after .*0 regressed.*fuzz modern: no hijack through the timer's own call on cfi-icall \\([0-9]+ executions, [0-9]+ CFI blocks\\), as the oracle is built: .*under CFI \\(the 1 campaign whose runs a check stopped\\) it still reached: ring_force_close redirected \\(FORCE_CLOSE_VIA_RING_TIMER REDIRECTED, on cfi-icall\\); privileged state changed via the list's writes \\(CRED_VIA_LIST PRIVILEGED_WRITE" "^$"
  --verbose ${_fd}/steps_declared.json ${_fx})
# A target that ran where CFI should stop it, beside a declared data-only
# write, is undeclared; a step more severe than its rule fails though
# another step of the chain may be that severe; more steps than the oracle
# names are undeclared; a requirement is met by a step, not by the chain.
th_fuzz_gate(steps_hidden 1 "regression: overflow modern/cfi-icall/clang-22: found PRIVILEGED_WRITE:WRITE_CR4_VIA_RING_TIMER_PRIVILEGED_WRITE_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE, a chain .* does not declare" "^$"
  ${_fd}/steps_hidden.json ${_fx})
th_fuzz_gate(steps_too_severe 1 "regression: overflow modern/none/clang-22: found HIJACKED:COMMIT_CREDS_VIA_RING_TIMER_HIJACKED_THEN_WRITE_CR4_407F0_VIA_FOREIGN_CALLBACK_HIJACKED, declared at most PRIVILEGED_WRITE" "^$"
  ${_fd}/steps_too_severe.json ${_fx})
th_fuzz_gate(steps_more 1 "regression: overflow legacy/cfi-icall/clang-22: found HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_MORE, a chain .* does not declare" "^$"
  ${_fd}/steps_more.json ${_fx})
th_fuzz_gate(steps_require 1 "regression: overflow legacy/cfi-icall/clang-22: no HIJACKED finding matching WRITE_CR4_" "^$"
  ${_fd}/steps_require.json ${_fx})
# Bad input: exit 2, saying what and where.
foreach(case
    "not_json|not JSON: line 1"
    "empty|empty file"
    "wrong_schema|schema is not \"timerharness/fuzz/v1\""
    "unknown_field|campaigns\\[0\\]: unknown field \"surprise\""
    "counts_mismatch|campaigns\\[0\\].outcomes: counts sum to 1000, but executions is 5"
    "finding_not_a_finding|campaigns\\[1\\].findings\\[0\\]: finding .*: outcome BLOCKED_CFI is not a finding"
    "sig_mismatch|campaigns\\[1\\].findings\\[0\\]: finding \"HIJACKED:SOMETHING_ELSE\": sig must be HIJACKED:WRITE_CR4_VIA_RING_TIMER"
    "duplicate_campaign|campaigns\\[4\\]: campaign overflow legacy/cfi-icall/clang-22 \\(libfuzzer\\) added twice"
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

# The report: report.md gains the section when fuzz.json is beside the results.
if(TARGET report_cli)
  add_test(NAME fuzz.report.section
    COMMAND ${CMAKE_COMMAND} -DREPORT=$<TARGET_FILE:report_cli>
            -DRESULTS=${CMAKE_CURRENT_LIST_DIR}/data/report/gate.json -DFUZZ=${_fd}/good.json
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_report -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_report.cmake)
  set_tests_properties(fuzz.report.section PROPERTIES LABELS fuzz TIMEOUT 60)
endif()

# The campaign command on this build: one second, a summary that validates and
# that check judges; an interrupt leaves a valid partial summary. (The script
# is tests/fuzz_campaign_run.cmake: this file, run with -P, returned at once,
# so the test passed without running a campaign.)
if(TARGET timerharness AND TARGET th-fuzz-overflow-legacy-none)
  add_test(NAME fuzz.campaign.one_second
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness> -DCHECK=$<TARGET_FILE:fuzz_check>
            -DBUILD=${CMAKE_BINARY_DIR} -DEXPECT=${_fx} -DTOOLCHAIN=${TIMERHARNESS_TOOLCHAIN}
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_campaign -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_campaign_run.cmake)
  set_tests_properties(fuzz.campaign.one_second PROPERTIES LABELS fuzz TIMEOUT 120)
  # The exact goal is a finding of its own: saved with its reproducer and
  # replayed like the others (the seed corpus is the goal's input).
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds)
  configure_file(${PROJECT_SOURCE_DIR}/fuzz/corpora/overflow-findings/legacy-direct-407f0.bin
                 ${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds/legacy-direct-407f0.bin COPYONLY)
  add_test(NAME fuzz.campaign.goal_saved
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness> -DCHECK=$<TARGET_FILE:fuzz_check>
            -DBUILD=${CMAKE_BINARY_DIR} -DEXPECT=${_fx} -DTOOLCHAIN=${TIMERHARNESS_TOOLCHAIN}
            -DSEEDS=${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal_seeds -DGOAL=1 -DTIME=3
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz_goal -P ${CMAKE_CURRENT_LIST_DIR}/fuzz_campaign_run.cmake)
  set_tests_properties(fuzz.campaign.goal_saved PROPERTIES LABELS fuzz TIMEOUT 120)
  add_test(NAME fuzz.campaign.interrupt
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fuzz_interrupt.sh $<TARGET_FILE:timerharness>
            ${CMAKE_BINARY_DIR} ${TIMERHARNESS_TOOLCHAIN} ${CMAKE_CURRENT_BINARY_DIR}/fuzz_interrupt
            $<TARGET_FILE:fuzz_check> ${_fx})
  set_tests_properties(fuzz.campaign.interrupt PROPERTIES LABELS fuzz TIMEOUT 120)
  foreach(case
      "unknown_config|--config,nope|no overflow build matches"
      "bad_engine|--engine,honggfuzz|--engine must be libfuzzer or afl"
      "bad_time|--time,0|--time needs a number"
      "unknown_option|--frobnicate|unknown argument '--frobnicate'")
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

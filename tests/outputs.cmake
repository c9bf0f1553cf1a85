# SPDX-License-Identifier: MIT
# Every output checked by the consumer it is for (tests/outputs.py): the
# results files against docs/schema, JUnit against Jenkins' and Ant's XSDs,
# SARIF against the SARIF 2.1.0 schema with each result at its declaring
# line, KTAP through the kernel's KUnit parser. They read what the matrix
# tests wrote (fixture th_outputs: they run after them) and the fixtures.
if(NOT TARGET timerharness OR NOT TARGET th_report)
  return()
endif()

get_property(_th_tests DIRECTORY PROPERTY TESTS)
foreach(t IN LISTS _th_tests)
  if(t MATCHES "^(matrix[._]|fuzz\\.campaign\\.(run|interrupt)$)")
    set_tests_properties(${t} PROPERTIES FIXTURES_SETUP th_outputs)
  endif()
endforeach()

set(_out ${CMAKE_CURRENT_BINARY_DIR}/matrix-out)
set(_py ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/outputs.py)
set(_common --th $<TARGET_FILE:timerharness> --data ${CMAKE_CURRENT_SOURCE_DIR}/data/report)
# Fixtures the loader refuses for a reason a JSON Schema can state.
set(_invalid)
foreach(f not_json wrong_schema unknown_outcome unknown_verdict unknown_variant unknown_api missing_field wrong_type
          platform_bad_name)
  list(APPEND _invalid --invalid ${f}.json)
endforeach()

# Campaign summaries: the fixtures the gate passes, those the loader refuses
# for a reason a schema can state, and what the campaign tests wrote.
set(_fz ${CMAKE_CURRENT_SOURCE_DIR}/data/fuzz)
set(_fuzz --fuzz ${_fz}/good.json --fuzz ${_fz}/demo.json --fuzz ${_fz}/tasklet_declared.json
          --fuzz ${CMAKE_CURRENT_SOURCE_DIR}/data/report/with-fuzz/fuzz.json)
foreach(f no_sha256 no_run bad_run no_selection unknown_field unknown_variant unknown_outcome
          absolute_reproducer wrong_schema)
  list(APPEND _fuzz --fuzz-invalid ${_fz}/${f}.json)
endforeach()

# The preset's own runs, and apart the fixtures (the same files whichever
# clang built the tree: label toolchain-independent, tests/CMakeLists.txt).
add_test(NAME outputs.results_schema
  COMMAND ${_py} results ${_common} --schema-dir ${CMAKE_SOURCE_DIR}/docs/schema --runs-only
          ${_out} ${CMAKE_CURRENT_BINARY_DIR}/fuzz_run ${CMAKE_CURRENT_BINARY_DIR}/fuzz_interrupt
          ${CMAKE_CURRENT_BINARY_DIR}/fuzz_tasklet_goal)
add_test(NAME outputs.results_schema.fixtures
  COMMAND ${_py} results ${_common} --schema-dir ${CMAKE_SOURCE_DIR}/docs/schema --fixtures-only
          ${_invalid} ${_fuzz})
set_tests_properties(outputs.results_schema.fixtures PROPERTIES LABELS outputs TIMEOUT 300)
# Each below in two: the preset's own runs (--runs-only), and the fixtures
# of tests/data/report rendered and checked the same way (--fixtures-only,
# outputs.<name>.fixtures: label toolchain-independent, tests/CMakeLists.txt).
set(_junit junit ${_common} --xsd ${CMAKE_CURRENT_SOURCE_DIR}/data/junit/junit-10.xsd
           --xsd ${CMAKE_CURRENT_SOURCE_DIR}/data/junit/JUnit.xsd --source ${CMAKE_SOURCE_DIR})
add_test(NAME outputs.junit_schemas COMMAND ${_py} ${_junit} --runs-only ${_out})
add_test(NAME outputs.junit_schemas.fixtures COMMAND ${_py} ${_junit} --fixtures-only)
# matrix.gate's run passes the gate: its SARIF must have no result at all.
set(_sarif sarif ${_common} --schema ${CMAKE_CURRENT_SOURCE_DIR}/data/sarif/sarif-schema-2.1.0.json
           --source ${CMAKE_SOURCE_DIR})
add_test(NAME outputs.sarif COMMAND ${_py} ${_sarif} --runs-only --clean ${_out}/gate ${_out})
add_test(NAME outputs.sarif.fixtures COMMAND ${_py} ${_sarif} --fixtures-only)
# GitLab's Code Quality report: its shape, SARIF's findings, [] for a run
# that passed the gate.
add_test(NAME outputs.codequality
  COMMAND ${_py} codequality ${_common} --runs-only --clean ${_out}/gate ${_out})
add_test(NAME outputs.codequality.fixtures COMMAND ${_py} codequality ${_common} --fixtures-only)
set(_ktap ktap ${_common} --parser ${CMAKE_CURRENT_SOURCE_DIR}/data/kunit)
add_test(NAME outputs.ktap_kunit COMMAND ${_py} ${_ktap} --runs-only ${_out})
add_test(NAME outputs.ktap_kunit.fixtures COMMAND ${_py} ${_ktap} --fixtures-only)
set_tests_properties(outputs.junit_schemas.fixtures outputs.sarif.fixtures outputs.codequality.fixtures
  outputs.ktap_kunit.fixtures PROPERTIES LABELS outputs TIMEOUT 300)
# report.html in headless Chromium at a desktop's and a phone's width: no
# console error, no request, the verdict first, the charts drawn, nothing cut
# off (long-chain: a finding's 125-character chain ID in a sentence;
# shim-fuzz: the card's sentence reconciling the rc3 row and the campaigns), sticky
# grid headers, the grid's names, pinned column and every column reachable
# with a cue (two-toolchains: every config of every variant); screenshots in
# build/<preset>/screenshots.
find_program(TH_CHROMIUM chromium)
if(TH_CHROMIUM)
  add_test(NAME outputs.html_browser
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/html_check.py --chromium ${TH_CHROMIUM}
            --shots ${CMAKE_BINARY_DIR}/screenshots --th $<TARGET_FILE:timerharness>
            ${_out}/cli-shards/merged/report.html ${_out}/gate/report.html
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/markup.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/doctored_hijacked.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/platform.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/with-fuzz/results.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/long-chain/results.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/shim-fuzz/results.json
            ${CMAKE_CURRENT_SOURCE_DIR}/data/report/two-toolchains.json)
  set_tests_properties(outputs.html_browser PROPERTIES FIXTURES_REQUIRED th_outputs LABELS outputs
                       TIMEOUT 300)
else()
  # make test installs chromium (scripts/install-deps): its absence is a
  # broken set-up, never a skipped check.
  add_test(NAME outputs.html_browser COMMAND ${CMAKE_COMMAND} -E false)
  message(WARNING "chromium not found: outputs.html_browser fails (run scripts/install-deps)")
endif()
set_tests_properties(outputs.results_schema outputs.junit_schemas outputs.sarif outputs.ktap_kunit
  outputs.codequality
  PROPERTIES FIXTURES_REQUIRED th_outputs LABELS outputs TIMEOUT 300)

# 80 columns: the verdict screen of every run and fixture, check's summary of
# each, what matrix prints, a one-second fuzz run and its checks.
if(TARGET th-fuzz-overflow-legacy-none AND TARGET th-fuzz-overflow-modern-none)
  add_test(NAME outputs.widths
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/widths.py --th $<TARGET_FILE:timerharness>
            --build ${CMAKE_BINARY_DIR} --toolchain ${TIMERHARNESS_TOOLCHAIN} --source ${CMAKE_SOURCE_DIR}
            --data ${CMAKE_CURRENT_SOURCE_DIR}/data/report ${_out})
  set_tests_properties(outputs.widths PROPERTIES FIXTURES_REQUIRED th_outputs LABELS outputs
                       TIMEOUT 300)
endif()

# The example CI files run commands and options that exist, in order.
add_test(NAME outputs.ci_files
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/ci_files.py --th $<TARGET_FILE:timerharness>
          --source ${CMAKE_SOURCE_DIR})
set_tests_properties(outputs.ci_files PROPERTIES LABELS outputs TIMEOUT 60)
# Every option a command accepts is in its --help.
add_test(NAME outputs.help_complete
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/help_complete.py --th $<TARGET_FILE:timerharness>
          --source ${CMAKE_SOURCE_DIR})
set_tests_properties(outputs.help_complete PROPERTIES LABELS outputs TIMEOUT 60)
# One severity table (report/severity.def), as docs/outputs.md shows it, and
# what SARIF, Code Quality, JUnit and the verdict say of doctored runs.
add_test(NAME outputs.severity
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/severity.py --th $<TARGET_FILE:timerharness>
          --source ${CMAKE_SOURCE_DIR})
set_tests_properties(outputs.severity PROPERTIES LABELS outputs TIMEOUT 60)
# 80 columns: every --help, the man page (cli/gen-man.py, as man shows it)
# and what the Makefile echoes (docs/cli.md).
add_test(NAME outputs.help_widths
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/help_widths.py --th $<TARGET_FILE:timerharness>
          --source ${CMAKE_SOURCE_DIR})
set_tests_properties(outputs.help_widths PROPERTIES LABELS outputs TIMEOUT 60)
# The bash completion (cli/gen-man.py), driven in bash: each command offers
# exactly the options its parser accepts, each accepted, and its values
# from the tables the command reads (docs/cli.md).
add_test(NAME outputs.completion
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/completion.py --th $<TARGET_FILE:timerharness>
          --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR})
set_tests_properties(outputs.completion PROPERTIES LABELS outputs TIMEOUT 120)
# README and docs/ name only files of the repository.
add_test(NAME outputs.readme_paths
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/readme_paths.py ${CMAKE_SOURCE_DIR})
set_tests_properties(outputs.readme_paths PROPERTIES LABELS outputs TIMEOUT 60)

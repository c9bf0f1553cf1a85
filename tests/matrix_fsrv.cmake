# The fork servers (runner/child.h, struct th_fsrv) against an exec per run:
#   cmake -DTH=timerharness -DPY=python3 -DBUILD=<build dir> -DOUT=<dir> -DCASE=<name> -P matrix_fsrv.cmake
#   same_outcomes  a sample of cells (every kind of defence, both API ends) run
#                  both ways: the same outcome in every cell, and each run really
#                  went the way it says (forked by servers / exec'd)
#   server_killed  a server SIGKILLed just after a request (TH_MATRIX_FSRV_KILL):
#                  the runs it held are HARNESS_ERROR naming it (exit 3), never an
#                  outcome; another server runs the rest, each as the exec run has it
#   hang           SELFTEST_HANG forked by a server is still killed at its time
#                  limit: HANG, after the limit and not long after
#   no_server_mode an attack binary without the mode (its th_fork_server_abi
#                  symbol stripped) runs by exec beside another's server, each
#                  cell as a run of fork servers only has it
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
# Not --quiet: the line of how the runs ran (forked, exec'd) is the summary's.
set(common matrix --build-root ${BUILD} --timeout 5 --jobs 2)

function(run dir rc_var err_var)
  execute_process(COMMAND ${TH} ${common} --out ${OUT}/${dir} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(${err_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# outcomes(<dir> <prefix>): <prefix>_keys (attack|variant|config|toolchain, in
# file order) and <prefix>_<i> its outcome, <prefix>_ev_<i> its evidence
# (tests/cells.py reads the document once: string(JSON) parses it at each GET).
function(outcomes dir prefix)
  execute_process(COMMAND ${PY} ${CMAKE_CURRENT_LIST_DIR}/cells.py ${OUT}/${dir}/results.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE tsv ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OUT}/${dir}/results.json: ${err}")
  endif()
  string(REGEX REPLACE "\n$" "" tsv "${tsv}")
  if(tsv STREQUAL "")
    message(FATAL_ERROR "${OUT}/${dir}/results.json has no cells")
  endif()
  string(REPLACE "\n" ";" lines "${tsv}")
  set(keys "")
  set(i 0)
  foreach(line IN LISTS lines)
    string(REPLACE "\t" ";" f "${line}")
    list(GET f 0 key)
    list(GET f 1 o)
    list(GET f 2 e)
    list(APPEND keys "${key}|")
    set(${prefix}_${i} "${o}" PARENT_SCOPE)
    set(${prefix}_ev_${i} "${e}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
  set(${prefix}_keys "${keys}" PARENT_SCOPE)
endfunction()

# Every kind of defence, overflows and a use-after-free, both API ends; no
# randstruct (its outcomes are a set, by layout and ASLR: matrix.lockup).
set(sample --config none,asan,kcfi,cfi-icall,bounds,fortify,fsanitize-function
    --variant legacy,modern
    --attack "MEMCPY_INTRA_BEFORE_ARM_*,MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4,INDEX_INTRA_BEFORE_ARM_FUNC_WRITE_CR4,HEAP_NEIGHBOUR_PENDING_FUNC_WRITE_CR4,UAF_REALLOC_PENDING_FUNC_WRITE_CR4,STRCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4,SELFTEST_SEGV"
    --selftests)

if(CASE STREQUAL "same_outcomes")
  run(exec rc err ${sample} --no-fork-server)
  if(NOT rc EQUAL 0 OR NOT err MATCHES "runs: 0 forked by 0 fork servers \\(0 failed\\), [1-9][0-9]* exec'd")
    message(FATAL_ERROR "the exec run: exit ${rc}, or not every run exec'd:\n${err}")
  endif()
  run(fsrv rc err ${sample})
  if(NOT rc EQUAL 0 OR NOT err MATCHES "runs: [1-9][0-9]* forked by [1-9][0-9]* fork servers \\(0 failed\\), 0 exec'd")
    message(FATAL_ERROR "the fork-server run: exit ${rc}, or not every run forked by a server:\n${err}")
  endif()
  outcomes(exec e)
  outcomes(fsrv f)
  if(NOT e_keys STREQUAL f_keys)
    message(FATAL_ERROR "the two runs do not have the same cells:\n${e_keys}\n${f_keys}")
  endif()
  list(LENGTH e_keys n)
  math(EXPR last "${n} - 1")
  set(diff "")
  foreach(i RANGE ${last})
    if(NOT e_${i} STREQUAL f_${i})
      list(GET e_keys ${i} k)
      string(APPEND diff "${k}: exec ${e_${i}} (${e_ev_${i}}), fork server ${f_${i}} (${f_ev_${i}})\n")
    endif()
  endforeach()
  if(diff)
    message(FATAL_ERROR "outcomes differ between an exec per run and fork servers:\n${diff}")
  endif()
  message("${n} cells, the same outcome both ways")

elseif(CASE STREQUAL "server_killed")
  set(small --config none,kcfi --variant legacy --attack "MEMCPY_INTRA_*,HEAP_NEIGHBOUR_*")
  run(exec rc err ${small} --no-fork-server)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the exec run: exit ${rc}\n${err}")
  endif()
  set(ENV{TH_MATRIX_FSRV_KILL} 5)
  run(killed rc err ${small})
  unset(ENV{TH_MATRIX_FSRV_KILL})
  if(NOT rc EQUAL 3 OR NOT err MATCHES "could not be run or observed \\(HARNESS_ERROR\\)"
     OR NOT err MATCHES "the fork server of [^\n]* \\(pid [0-9]+\\) ended \\(SIGKILL\\); the runs it held are harness errors, another serves the rest"
     OR NOT err MATCHES "forked by [2-9][0-9]* fork servers \\(1 failed\\)")
    message(FATAL_ERROR "a killed server: exit ${rc} (want 3), its runs harness errors, another started:\n${err}")
  endif()
  outcomes(exec e)
  outcomes(killed k)
  if(NOT e_keys STREQUAL k_keys)
    message(FATAL_ERROR "the two runs do not have the same cells")
  endif()
  list(LENGTH e_keys n)
  math(EXPR last "${n} - 1")
  set(held 0)
  foreach(i RANGE ${last})
    list(GET e_keys ${i} key)
    if(k_${i} STREQUAL "HARNESS_ERROR")
      math(EXPR held "${held} + 1")
      if(NOT k_ev_${i} MATCHES "^harness: fork server .* ended \\(SIGKILL\\), before forking this run")
        message(FATAL_ERROR "${key}: a harness error that does not name the killed server: ${k_ev_${i}}")
      endif()
    elseif(NOT k_${i} STREQUAL e_${i})
      message(FATAL_ERROR "${key}: ${k_${i}} beside a killed server, ${e_${i}} by exec")
    endif()
  endforeach()
  # The 5th request at least (sent just before the kill); at most the two
  # runs --jobs 2 can have asked.
  if(held LESS 1 OR held GREATER 2)
    message(FATAL_ERROR "${held} harness errors for a server killed with 1-2 runs held:\n${err}")
  endif()
  message("${n} cells, ${held} held by the killed server are harness errors, the rest as by exec")

elseif(CASE STREQUAL "hang")
  run(hang rc err --config none --variant legacy --attack SELFTEST_HANG --selftests --timeout 1
      --lockup-ms 0)
  if(NOT rc EQUAL 0 OR NOT err MATCHES "runs: 1 forked by 1 fork servers \\(0 failed\\), 0 exec'd")
    message(FATAL_ERROR "SELFTEST_HANG in a server: exit ${rc}, or not forked by one:\n${err}")
  endif()
  file(READ ${OUT}/hang/results.json json)
  string(JSON o GET "${json}" cells 0 outcome)
  string(JSON e GET "${json}" cells 0 evidence)
  if(NOT o STREQUAL "HANG" OR NOT e MATCHES "^no exit after (1\\.[0-9]|2\\.[0-4]) s")
    message(FATAL_ERROR "SELFTEST_HANG in a server is ${o} (${e}), not HANG at its 1 s limit")
  endif()
  message("SELFTEST_HANG: ${o}: ${e}")
elseif(CASE STREQUAL "no_server_mode")
  # Two configs every toolchain builds (clang-14 has no kcfi): two servers.
  set(small --config none,cfi-icall --variant legacy --attack "MEMCPY_INTRA_BEFORE_ARM_*")
  run(servers rc err ${small})
  if(NOT rc EQUAL 0 OR NOT err MATCHES "runs: ([0-9]+) forked by 2 fork servers \\(0 failed\\), 0 exec'd")
    message(FATAL_ERROR "the run with servers: exit ${rc}\n${err}")
  endif()
  # A fake build root: this build's manifest, config none's legacy binary
  # replaced by a copy without the symbol the runner looks for.
  file(READ ${BUILD}/th-manifest.tsv manifest)
  string(REGEX MATCH "\ntoolchain\t([^\t]+)\t" _ "${manifest}")
  set(tc ${CMAKE_MATCH_1})
  set(atk ${BUILD}/attacks/th-attack-legacy-none)
  find_program(OBJCOPY NAMES llvm-objcopy objcopy REQUIRED)
  file(MAKE_DIRECTORY ${OUT}/bin ${OUT}/root/${tc})
  execute_process(COMMAND ${OBJCOPY} --strip-symbol=th_fork_server_abi ${atk} ${OUT}/bin/th-attack-legacy-none
                  RESULT_VARIABLE rc)
  string(FIND "${manifest}" "\t${atk}\t" at)
  if(NOT rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "cannot make the binary without the mode (objcopy exit ${rc}, ${atk} in the manifest: ${at})")
  endif()
  string(REPLACE "\t${atk}\t" "\t${OUT}/bin/th-attack-legacy-none\t" m "${manifest}")
  file(WRITE ${OUT}/root/${tc}/th-manifest.tsv "${m}")
  run(mixed rc err ${small} --build-root ${OUT}/root)
  if(NOT rc EQUAL 0 OR NOT err MATCHES "runs: ([0-9]+) forked by 1 fork servers \\(0 failed\\), ([1-9][0-9]*) exec'd")
    message(FATAL_ERROR "a binary without the mode: exit ${rc}, or not by exec beside a server:\n${err}")
  endif()
  outcomes(servers a)
  outcomes(mixed b)
  if(NOT a_keys STREQUAL b_keys)
    message(FATAL_ERROR "the two runs do not have the same cells")
  endif()
  list(LENGTH a_keys n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    if(NOT a_${i} STREQUAL b_${i})
      list(GET a_keys ${i} k)
      message(FATAL_ERROR "${k}: ${a_${i}} forked by a server, ${b_${i}} by exec (${b_ev_${i}})")
    endif()
  endforeach()
  message("${n} cells, the binary without the mode by exec, the same outcomes")
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()

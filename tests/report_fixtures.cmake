# SPDX-License-Identifier: MIT
# The declarations the report fixtures (tests/data/report/) are judged by,
# read from the fixtures themselves, written as C arrays for the tests that
# judge them (tests/report.cmake) and for the results_json fuzz target, which
# has nothing but its binary (fuzz/CMakeLists.txt), so that no source lists
# them again:
# - the gate fixtures' (gate*.json), from gate.json: its attacks (each
#   cell's, in name order, with its family), its configs (in its order) and
#   their flags as cfi/configs.tsv has them;
# - the real kernel's plan of platform.json: the configs of its platform
#   and which of them build the kernel's CFI (CONFIG_CFI_CLANG=y).
#
#   th_report_fixtures_inc(<out>)   writes <out> (only when it changed):
#     th_gate_attacks[], th_gate_attack_apis[], TH_GATE_NATTACKS,
#     th_gate_configs[], th_gate_config_cflags[], TH_GATE_NCONFIGS,
#     th_platform_configs[], th_platform_configs_cfi[], TH_PLATFORM_NCONFIGS
include_guard(GLOBAL)

function(_th_gate_c_array name values out)
  set(s "static const char *const ${name}[] = {")
  foreach(v IN LISTS values)
    string(REPLACE "\\" "\\\\" v "${v}")
    string(REPLACE "\"" "\\\"" v "${v}")
    string(APPEND s " \"${v}\",")
  endforeach()
  set(${out} "${s} };\n" PARENT_SCOPE)
endfunction()

function(th_report_fixtures_inc out)
  set(TH_GATE_FIXTURE "${PROJECT_SOURCE_DIR}/tests/data/report/gate.json")
  set(TH_PLATFORM_FIXTURE "${PROJECT_SOURCE_DIR}/tests/data/report/platform.json")
  file(READ "${TH_GATE_FIXTURE}" json)
  string(JSON ncells ERROR_VARIABLE e LENGTH "${json}" cells)
  string(JSON ncfg ERROR_VARIABLE e2 LENGTH "${json}" configs)
  if(e OR e2 OR NOT ncells OR NOT ncfg)
    message(FATAL_ERROR "${TH_GATE_FIXTURE}: no cells or no configs (${e}${e2})")
  endif()
  set(attacks "")
  math(EXPR last "${ncells} - 1")
  foreach(i RANGE ${last})
    string(JSON a GET "${json}" cells ${i} attack)
    # A cell without api is the timer's (results/results.h).
    string(JSON api ERROR_VARIABLE noapi GET "${json}" cells ${i} api)
    if(noapi)
      set(api timer)
    endif()
    set(api_${a} ${api})
    list(APPEND attacks ${a})
  endforeach()
  list(REMOVE_DUPLICATES attacks)
  list(SORT attacks)
  set(apis "")
  foreach(a IN LISTS attacks)
    list(APPEND apis ${api_${a}})
  endforeach()
  set(configs "")
  set(cflags "")
  math(EXPR last "${ncfg} - 1")
  foreach(i RANGE ${last})
    string(JSON c GET "${json}" configs ${i} name)
    th_config_field("${c}" cflags f)
    list(APPEND configs ${c})
    list(APPEND cflags "${f}")
  endforeach()
  list(LENGTH attacks na)
  list(LENGTH configs nc)
  file(READ "${TH_PLATFORM_FIXTURE}" json)
  string(JSON npc ERROR_VARIABLE e LENGTH "${json}" platforms 0 configs)
  if(e OR NOT npc)
    message(FATAL_ERROR "${TH_PLATFORM_FIXTURE}: platforms[0] has no configs (${e})")
  endif()
  set(pconfigs "")
  set(pcfi "")
  math(EXPR last "${npc} - 1")
  foreach(i RANGE ${last})
    string(JSON c GET "${json}" platforms 0 configs ${i} name)
    string(JSON k GET "${json}" platforms 0 configs ${i} kconfig)
    list(APPEND pconfigs ${c})
    if(k MATCHES "(^|\n)CONFIG_CFI_CLANG=y")
      list(APPEND pcfi true)
    else()
      list(APPEND pcfi false)
    endif()
  endforeach()
  list(JOIN pcfi ", " pcfi)
  set(s "/* Generated from tests/data/report/gate.json and platform.json by tests/report_fixtures.cmake. */\n")
  _th_gate_c_array(th_gate_attacks "${attacks}" a)
  _th_gate_c_array(th_gate_attack_apis "${apis}" b)
  _th_gate_c_array(th_gate_configs "${configs}" c)
  _th_gate_c_array(th_gate_config_cflags "${cflags}" d)
  _th_gate_c_array(th_platform_configs "${pconfigs}" p)
  list(LENGTH pconfigs np)
  string(APPEND s "${a}${b}#define TH_GATE_NATTACKS ${na}\n${c}${d}#define TH_GATE_NCONFIGS ${nc}\n"
    "${p}static const bool th_platform_configs_cfi[] = { ${pcfi} };\n"
    "#define TH_PLATFORM_NCONFIGS ${np}\n")
  file(WRITE "${out}.tmp" "${s}")
  configure_file("${out}.tmp" "${out}" COPYONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${TH_GATE_FIXTURE}"
    "${TH_PLATFORM_FIXTURE}")
endfunction()

# SPDX-License-Identifier: MIT
#
# Hardening configs, read from cfi/configs.tsv (the single source of truth).
# Included at top level before any add_subdirectory(), so everything here is
# visible to every folder:
#
#   TH_CONFIGS                       every config name, in table order
#   TH_PROBE_CHECKS                  every probe check (configs.tsv `probes`)
#   TIMERHARNESS_RANDSTRUCT_SEEDS    cache: seeds built for `randstruct`
#   th_config_flags(<config> <seed> <out_cflags> <out_ldflags>)
#   th_config_supported(<config> <out_ok> <out_reason>)
#   th_config_apply(<target> <config> <seed>)
#   th_config_flags_string(<config> <seed> <out>)   "cflags: ... ldflags: ..." (manifest)
#   th_config_field(<config> <column> <out>)    raw column of the table
#   th_config_scheme(<config> <out>)     the check at an indirect call, this compiler's
#   th_configs_where(<column> <word> <out>)  configs whose <column> holds <word>
#                                        (fuzz overflow, bench bench, ...)
#   th_configs_type_cfi(<out>)           configs whose scheme is not none
#   th_configs_where(card card <out>)    the configs the verdict card asks about
#
# Flag acceptance is not support: th_config_supported() only proves that this
# compiler compiles and links a small program with the flags. Whether the
# feature does anything is found at run time by the probes (cfi/probes/probe.c,
# cfi/probe_judge.h).

include_guard(GLOBAL)
include(CheckCCompilerFlag)

set(TH_CONFIGS_TSV "${CMAKE_CURRENT_LIST_DIR}/configs.tsv")
set(TH_CFI_DIR "${CMAKE_CURRENT_LIST_DIR}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${TH_CONFIGS_TSV}")

set(TIMERHARNESS_RANDSTRUCT_SEEDS "1;2;3;4;5" CACHE STRING
  "randstruct seeds: one attack build per seed (-frandomize-layout-seed=S)")

set(_th_config_columns name cflags ldflags probes scheme fuzz bench kernel card description)
# What each column may hold (configs.tsv's header says what they mean).
set(_th_config_words_scheme none cfi-icall kcfi function)
set(_th_config_words_fuzz overflow tasklet demo)
set(_th_config_words_bench bench)
set(_th_config_words_card card)
# What `th-probe-<config> <check>` can check (cfi/probe_judge.h).
set(TH_PROBE_CHECKS cfi cfi-generalized cfi-diag kcfi function asan bounds fortify randstruct)
string(JOIN ", " _th_config_columns_text ${_th_config_columns})

# ---- parse configs.tsv --------------------------------------------------------
set(TH_CONFIGS "")
# The table becomes CMake lists: refuse the characters lists mangle.
file(READ "${TH_CONFIGS_TSV}" _th_text)
if(_th_text MATCHES "[][;]")
  message(FATAL_ERROR "${TH_CONFIGS_TSV}: ';', '[' and ']' are not allowed anywhere in configs.tsv")
endif()
# One list element per line, empty ones included, so line numbers stay exact.
string(REPLACE "\r" "" _th_text "${_th_text}")
string(REPLACE "\n" ";" _th_lines "${_th_text}")
set(_th_lineno 0)
set(_th_header_seen FALSE)
foreach(_th_line IN LISTS _th_lines)
  math(EXPR _th_lineno "${_th_lineno} + 1")
  if(_th_line MATCHES "^#" OR _th_line MATCHES "^[ \t]*$")
    continue()
  endif()
  string(REPLACE "\t" ";" _th_fields "${_th_line}")
  list(LENGTH _th_fields _th_n)
  list(LENGTH _th_config_columns _th_ncols)
  if(NOT _th_n EQUAL _th_ncols)
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: ${_th_n} TAB-separated fields, expected ${_th_ncols} (${_th_config_columns_text})")
  endif()
  if(NOT _th_header_seen)
    if(NOT "${_th_fields}" STREQUAL "${_th_config_columns}")
      message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: header must be the TAB-separated columns ${_th_config_columns_text}")
    endif()
    set(_th_header_seen TRUE)
    continue()
  endif()
  list(GET _th_fields 0 _th_name)
  if(NOT _th_name MATCHES "^[a-z0-9][a-z0-9-]*$")
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: bad config name '${_th_name}' (lower case, digits, '-')")
  endif()
  if(_th_name IN_LIST TH_CONFIGS)
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: config '${_th_name}' listed twice")
  endif()
  list(APPEND TH_CONFIGS "${_th_name}")
  set(_th_i 0)
  foreach(_th_col IN LISTS _th_config_columns)
    list(GET _th_fields ${_th_i} _th_val)
    if(_th_val STREQUAL "-")
      set(_th_val "")
    endif()
    set_property(GLOBAL PROPERTY "TH_CONFIG_${_th_name}_${_th_col}" "${_th_val}")
    math(EXPR _th_i "${_th_i} + 1")
  endforeach()
  set_property(GLOBAL PROPERTY "TH_CONFIG_${_th_name}_line" "${_th_lineno}")
  get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_probes")
  string(REPLACE "," ";" _th_val "${_th_val}")
  foreach(_th_check IN LISTS _th_val)
    if(NOT _th_check IN_LIST TH_PROBE_CHECKS)
      message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: unknown probe check '${_th_check}' (known: ${TH_PROBE_CHECKS})")
    endif()
  endforeach()
  get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_scheme")
  if(NOT _th_val IN_LIST _th_config_words_scheme)
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: scheme '${_th_val}' of '${_th_name}' is not one of ${_th_config_words_scheme}")
  endif()
  foreach(_th_col fuzz bench card)
    get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_${_th_col}")
    string(REPLACE "," ";" _th_val "${_th_val}")
    foreach(_th_word IN LISTS _th_val)
      if(NOT _th_word IN_LIST _th_config_words_${_th_col})
        message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: ${_th_col} '${_th_word}' of '${_th_name}' is not one of ${_th_config_words_${_th_col}} (or '-')")
      endif()
    endforeach()
  endforeach()
  # The card asks whether type-based CFI stops the overwrite: a config
  # without a check at the call cannot answer it.
  get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_card")
  get_property(_th_s GLOBAL PROPERTY "TH_CONFIG_${_th_name}_scheme")
  if(_th_val STREQUAL "card" AND _th_s STREQUAL "none")
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: '${_th_name}' is on the verdict card (card) but its scheme is none: the card asks about type-based CFI")
  endif()
  get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_kernel")
  if(NOT _th_val STREQUAL "" AND NOT EXISTS "${CMAKE_CURRENT_LIST_DIR}/../kernel/configs/${_th_val}.config")
    message(FATAL_ERROR "${TH_CONFIGS_TSV}:${_th_lineno}: kernel fragment '${_th_val}' of '${_th_name}': no kernel/configs/${_th_val}.config")
  endif()
endforeach()
if(NOT TH_CONFIGS)
  message(FATAL_ERROR "${TH_CONFIGS_TSV}: no configs")
endif()
set(_th_card "")
foreach(_th_name IN LISTS TH_CONFIGS)
  get_property(_th_val GLOBAL PROPERTY "TH_CONFIG_${_th_name}_card")
  if(_th_val STREQUAL "card")
    list(APPEND _th_card ${_th_name})
  endif()
endforeach()
if(NOT _th_card)
  message(FATAL_ERROR "${TH_CONFIGS_TSV}: no config has 'card' in its card column: the verdict card (report/card.h) would ask about none")
endif()

# Per-toolchain pieces behind the placeholders.
check_c_compiler_flag(-fstrict-flex-arrays=3 TH_HAVE_STRICT_FLEX_ARRAYS)

function(th_config_field config column out)
  if(NOT config IN_LIST TH_CONFIGS)
    message(FATAL_ERROR "unknown config '${config}' (configs: ${TH_CONFIGS}; see ${TH_CONFIGS_TSV})")
  endif()
  get_property(v GLOBAL PROPERTY "TH_CONFIG_${config}_${column}")
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# th_config_flags(<config> <seed> <out_cflags> <out_ldflags>)
# Effective compile and link flags (CMake lists) of <config> for this compiler.
# <seed> fills @SEED@ ("-" or "" where the config has none; randstruct needs one).
function(th_config_flags config seed out_cflags out_ldflags)
  th_config_field("${config}" cflags cflags)
  th_config_field("${config}" ldflags ldflags)
  if(cflags MATCHES "@SEED@")
    if(seed STREQUAL "" OR seed STREQUAL "-")
      message(FATAL_ERROR "config '${config}' needs a seed: th_config_flags(${config} <seed> ...)")
    endif()
    if(NOT seed MATCHES "^[0-9]+$")
      message(FATAL_ERROR "config '${config}': seed '${seed}' is not a decimal number")
    endif()
    string(REPLACE "@SEED@" "${seed}" cflags "${cflags}")
  endif()
  if(TH_HAVE_STRICT_FLEX_ARRAYS)
    string(REPLACE "@STRICT_FLEX@" "-fstrict-flex-arrays=3" cflags "${cflags}")
  else()
    string(REPLACE "@STRICT_FLEX@" "" cflags "${cflags}")
  endif()
  if(cflags MATCHES "@[A-Z_]+@")
    message(FATAL_ERROR "config '${config}': unknown placeholder ${CMAKE_MATCH_0} in ${TH_CONFIGS_TSV}")
  endif()
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  separate_arguments(ldflags UNIX_COMMAND "${ldflags}")
  set(${out_cflags} "${cflags}" PARENT_SCOPE)
  set(${out_ldflags} "${ldflags}" PARENT_SCOPE)
endfunction()

# th_config_supported(<config> <out_ok> <out_reason>)
# Does this compiler accept <config>? Compile + link cfi/support_check.c with
# exactly the config's flags: no version table, the compiler is asked. Cached
# per compiler and flags; <out_reason> is empty when ok, else the compiler's
# own first error line ("clang: error: unsupported argument 'kcfi' to option
# 'fsanitize='"). Acceptance is not support: the probes decide that.
# th_config_scheme(<config> <out>): the check the config puts at an indirect
# call (call_timer_fn's) with this compiler: its row's scheme (cfi-icall,
# kcfi, function or none), but none for function before clang 17
# (-fsanitize=function checks C calls from clang 17; before, it does
# nothing). The tests that compare the binary reader's view with it
# (tests/cfi.cmake, tests/reach.cmake), the bench and the fuzz oracle read
# it here, once.
function(th_config_scheme config out)
  th_config_field("${config}" scheme s)
  if(s STREQUAL "function" AND TH_CLANG_MAJOR LESS 17)
    set(s none)
  endif()
  set(${out} ${s} PARENT_SCOPE)
endfunction()

# th_configs_where(<column> <word> <out>): the configs, in table order, whose
# <column> (a comma list: fuzz, bench, card) holds <word>.
function(th_configs_where column word out)
  set(l "")
  foreach(c IN LISTS TH_CONFIGS)
    th_config_field("${c}" ${column} v)
    string(REPLACE "," ";" v "${v}")
    if(word IN_LIST v)
      list(APPEND l ${c})
    endif()
  endforeach()
  set(${out} "${l}" PARENT_SCOPE)
endfunction()

# th_configs_type_cfi(<out>): the configs whose row puts a type check at an
# indirect call (scheme other than none), in table order, whatever this
# compiler makes of it (th_config_scheme() says that).
function(th_configs_type_cfi out)
  set(l "")
  foreach(c IN LISTS TH_CONFIGS)
    th_config_field("${c}" scheme s)
    if(NOT s STREQUAL "none")
      list(APPEND l ${c})
    endif()
  endforeach()
  set(${out} "${l}" PARENT_SCOPE)
endfunction()

function(th_config_supported config out_ok out_reason)
  th_config_flags("${config}" 1 cflags ldflags)
  string(MD5 key "${CMAKE_C_COMPILER};${CMAKE_C_COMPILER_VERSION};${cflags};${ldflags}")
  set(cvar "TH_CONFIG_ACCEPTED_${config}_${key}")
  if(NOT DEFINED CACHE{${cvar}})
    set(bindir "${CMAKE_BINARY_DIR}/CMakeFiles/th_config_check/${config}")
    file(REMOVE_RECURSE "${bindir}")
    # The old signature caches its result variable and then skips the compile
    # when asked again under the same name: one fresh name per check.
    set(res "_th_try_${config}_${key}")
    unset(${res} CACHE)
    try_compile(${res} "${bindir}" "${TH_CFI_DIR}/support_check.c"
      COMPILE_DEFINITIONS ${cflags}
      LINK_OPTIONS ${ldflags}
      OUTPUT_VARIABLE log)
    set(ok "${${res}}")
    unset(${res} CACHE)
    set(reason "")
    if(NOT ok)
      string(REGEX MATCH "[^\n]*(error|undefined reference)[^\n]*" reason "${log}")
      string(STRIP "${reason}" reason)
      if(reason STREQUAL "")
        set(reason "compile/link of a small program with the ${config} flags failed")
      endif()
      string(REGEX REPLACE "^.*(clang|ld\\.lld|ld): " "\\1: " reason "${reason}")
    endif()
    set(${cvar} "${ok}" CACHE INTERNAL "")
    set(${cvar}_REASON "${reason}" CACHE INTERNAL "")
    if(ok)
      message(STATUS "timerharness: config ${config}: flags accepted")
    else()
      message(STATUS "timerharness: config ${config}: flags rejected by ${CMAKE_C_COMPILER}: ${reason}")
    endif()
  endif()
  if($CACHE{${cvar}})
    set(${out_ok} TRUE PARENT_SCOPE)
  else()
    set(${out_ok} FALSE PARENT_SCOPE)
  endif()
  set(${out_reason} "$CACHE{${cvar}_REASON}" PARENT_SCOPE)
endfunction()

# th_config_apply(<target> <config> <seed>)
# Compile and link <target> with <config>'s flags. Every object of a binary must
# get the same config (LTO + cfi-icall sees only the bitcode it is given).
function(th_config_apply target config seed)
  th_config_flags("${config}" "${seed}" cflags ldflags)
  target_compile_options(${target} PRIVATE ${cflags})
  target_link_options(${target} PRIVATE ${ldflags})
endfunction()

# th_config_flags_string(<config> <seed> <out>)
# One string for the manifest's flags field: "cflags: ... [ldflags: ...]".
function(th_config_flags_string config seed out)
  th_config_flags("${config}" "${seed}" cflags ldflags)
  string(JOIN " " s "cflags:" ${cflags})
  if(ldflags)
    string(JOIN " " s "${s}" "ldflags:" ${ldflags})
  endif()
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

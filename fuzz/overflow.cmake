# SPDX-License-Identifier: MIT
#
# The overflow target (fuzz/overflow.c), one binary per API family x variant
# x config, the family's victim world linked in (fuzz/overflow_world.h):
#   th-fuzz-overflow-<variant>-<config>   the timer's (fuzz target "overflow":
#                                          overflow_world_timer.c)
#   th-fuzz-<api>-<variant>-<config>      every other family's (fuzz target
#                                          "<api>": the world in fuzz/<api>/,
#                                          e.g. fuzz/tasklet/)
# libFuzzer; TH_FUZZ_REPLAY=1 replays files
# built with the config's own flags (cfi/configs.tsv), like the matrix's attack
# binaries, for the configs whose row of cfi/configs.tsv names the target in
# its fuzz column (TH_FUZZ_CONFIGS_<api>) and this compiler supports.
# Every binary, and every config it cannot build, goes into
# ${CMAKE_BINARY_DIR}/fuzz-manifest.tsv, which `timerharness fuzz` reads:
#   target toolchain variant config path status reason engine
#
# Coverage: the victim, the wheel and the program's decoder/driver are built
# with libFuzzer's instrumentation; the victim and the wheel without
# comparison tracing (a traced pointer comparison would give the engine the
# victim's addresses); the oracle, the session and the ELF reader without
# any (overflow_oracle.h).

if(NOT COMMAND th_config_flags)
  message(FATAL_ERROR "cfi/configs.cmake must be included at top level before fuzz/")
endif()

# Which configs each family's target is built for is their rows' (the fuzz
# column of cfi/configs.tsv: overflow for the timer's, a family's target
# name for its own); TH_FUZZ_OVERFLOW_CONFIGS narrows them for one build.
set(TH_FUZZ_OVERFLOW_CONFIGS "" CACHE STRING
  "configs the fuzz targets are built for (cfi/configs.tsv names); empty: every config whose row's fuzz column names a target")
set(TH_FUZZ_OVERFLOW_VARIANTS legacy transitional modern)
# The API families with campaigns (results/api.def names): each a world
# (a third family is a folder fuzz/<api>/ and its name here).
set(TH_FUZZ_OVERFLOW_FAMILIES timer tasklet)
set(_fz_bin "${CMAKE_BINARY_DIR}/fuzz")
set(TH_FUZZ_MANIFEST "${CMAKE_BINARY_DIR}/fuzz-manifest.tsv")

set(_fz ${CMAKE_CURRENT_LIST_DIR})
set(_fz_core ${PROJECT_SOURCE_DIR}/timer_core)

# The sources of every family's binary but its world: those that read the
# variant (TH_ATK_<VARIANT>, TH_ATK_VARIANT, or a header of ours that does)
# compiled for each variant, the rest once per config (th_fuzz_overflow_add).
set(TH_FZ_VARIANT_SOURCES ${_fz}/overflow_world.c ${_fz}/overflow_drive.c ${_fz}/overflow_oracle.c
    ${_fz}/overflow_session.c)
set(TH_FZ_SHARED_SOURCES ${_fz}/overflow.c ${_fz}/overflow_world_base.c ${_fz}/overflow_traps.c
    ${PROJECT_SOURCE_DIR}/results/outcome.c)
# A shared object is only right while its source does not read the variant:
# a shared source or layout, or a header of ours it includes (at any depth),
# that names the variant's macros stops the configure here rather than build
# the wrong binary.
function(_th_fz_variant_reader file seen_var out)
  set(seen ${${seen_var}})
  if(file IN_LIST seen)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  list(APPEND seen ${file})
  set(${seen_var} ${seen} PARENT_SCOPE)
  file(STRINGS ${file} uses REGEX "TH_ATK_(LEGACY|TRANSITIONAL|MODERN|VARIANT|HAS_DATA)")
  if(uses)
    set(${out} ${file} PARENT_SCOPE)
    return()
  endif()
  get_filename_component(dir ${file} DIRECTORY)
  file(STRINGS ${file} incs REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(inc IN LISTS incs)
    string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*" "\\1" inc "${inc}")
    foreach(d ${dir} ${_fz} ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/attacks ${_fz_core}/include
              ${PROJECT_SOURCE_DIR}/tasklet_core/include)
      if(EXISTS ${d}/${inc})
        get_filename_component(f ${d}/${inc} ABSOLUTE)
        _th_fz_variant_reader(${f} seen r)
        if(r)
          set(${seen_var} ${seen} PARENT_SCOPE)
          set(${out} ${r} PARENT_SCOPE)
          return()
        endif()
        break()
      endif()
    endforeach()
  endforeach()
  set(${seen_var} ${seen} PARENT_SCOPE)
  set(${out} "" PARENT_SCOPE)
endfunction()
foreach(_src IN LISTS TH_FZ_SHARED_SOURCES ITEMS ${_fz_core}/legacy.c ${_fz_core}/modern.c)
  set(_seen "")
  _th_fz_variant_reader(${_src} _seen _r)
  if(_r)
    message(FATAL_ERROR "fuzz: ${_r} reads the variant (TH_ATK_...), but ${_src} includes it and is "
                        "compiled once for every variant (TH_FZ_SHARED_SOURCES): move it to TH_FZ_VARIANT_SOURCES")
  endif()
endforeach()

# The engine. Inside fuzz/CMakeLists.txt (th_fuzz_add's infrastructure) it
# is that file's: TIMERHARNESS_FUZZ_ENGINE, OSS-Fuzz's $LIB_FUZZING_ENGINE
# and $CFLAGS, AFL++'s driver. Alone: libFuzzer, or AFL++ when the compiler
# is afl-clang-fast or afl-clang-lto (its driver supplies main(); it
# instruments every file itself, without comparison logging unless asked
# for, so no address reaches it).
get_filename_component(_fz_cc "${CMAKE_C_COMPILER}" NAME)
set(_fz_infra FALSE)
if(COMMAND _th_fuzz_clone AND DEFINED _th_engine)
  set(_fz_infra TRUE)
endif()
if((_fz_infra AND _th_engine STREQUAL "afl") OR (NOT _fz_infra AND _fz_cc MATCHES "^afl-"))
  set(_fz_engine afl)
  find_file(TH_FZ_AFL_DRIVER libAFLDriver.a PATHS /usr/lib/afl /usr/local/lib/afl NO_DEFAULT_PATH)
  if(NOT TH_FZ_AFL_DRIVER)
    message(FATAL_ERROR "fuzz/overflow.cmake: libAFLDriver.a not found (Debian package afl++)")
  endif()
  set(_fz_engine_link ${TH_FZ_AFL_DRIVER})
  # Its toolchain is the clang it wraps: the campaign finds it beside that
  # clang's libFuzzer build (which must exist: the campaign's selection).
  set(_fz_toolchain clang-${TH_CLANG_MAJOR})
  set(_fz_cov "")
else()
  set(_fz_engine libfuzzer)
  set(_fz_engine_link -fsanitize=fuzzer)
  set(_fz_toolchain ${TIMERHARNESS_TOOLCHAIN})
  set(_fz_cov -fsanitize=fuzzer-no-link)
  if(_fz_infra)
    set(_fz_engine_link ${TH_FUZZ_ENGINE_LINK})
    set(_fz_cov ${TH_FUZZ_COVERAGE})
  endif()
endif()
# Which sources get which instrumentation (the same for every binary). Under
# OSS-Fuzz $CFLAGS instrument every file: the oracle's is taken off again, and
# ASan too from the victim's side (a config's own flags say what guards it).
set(_fz_oss FALSE)
if(_fz_infra AND _th_fuzz_ossfuzz)
  set(_fz_oss TRUE)
endif()
if(_fz_engine STREQUAL "libfuzzer")
  # No stack-depth feature (on by default on Linux): it rewards deeper
  # stacks, and the deepest are runs that recurse without end (the victim's
  # own stack overflows: CRASHED), milliseconds of victim lines per input.
  set(_fz_drive_opts ${_fz_cov} -fno-sanitize-coverage=stack-depth)
  set(_fz_world_opts ${_fz_cov} -fno-sanitize-coverage=trace-cmp,stack-depth)
  set(_fz_oracle_opts "")
  if(_fz_oss)
    set(_fz_world_opts -fno-sanitize-coverage=trace-cmp,stack-depth -fno-sanitize=address)
    set(_fz_drive_opts -fno-sanitize=address -fno-sanitize-coverage=stack-depth)
    set(_fz_oracle_opts -fno-sanitize=fuzzer-no-link)
  endif()
  set_source_files_properties(${_fz}/overflow.c PROPERTIES COMPILE_OPTIONS "${_fz_cov}")
  set_source_files_properties(${_fz}/overflow_drive.c PROPERTIES COMPILE_OPTIONS "${_fz_drive_opts}")
  file(GLOB _fz_family_worlds ${_fz}/*/world*.c)
  set_source_files_properties(${_fz}/overflow_world.c ${_fz}/overflow_world_base.c
    ${_fz}/overflow_world_timer.c ${_fz_family_worlds}
    ${_fz_core}/legacy.c ${_fz_core}/modern.c PROPERTIES COMPILE_OPTIONS "${_fz_world_opts}")
  set_source_files_properties(${_fz}/overflow_oracle.c ${_fz}/overflow_session.c
    ${_fz}/overflow_traps.c PROPERTIES COMPILE_OPTIONS "${_fz_oracle_opts}")
endif()

set_property(GLOBAL PROPERTY TH_FUZZ_MANIFEST_LINES "")
# The fuzz target of an API family: "overflow" for the timer (its name
# before the families), the family's name for every other.
function(_th_fuzz_family_target api out)
  if(api STREQUAL "timer")
    set(${out} overflow PARENT_SCOPE)
  else()
    set(${out} ${api} PARENT_SCOPE)
  endif()
endfunction()

function(_th_fuzz_manifest target variant config path status reason)
  foreach(v reason)
    if("${${v}}" STREQUAL "")
      set(${v} "-")
    endif()
    string(REPLACE "\t" " " ${v} "${${v}}")
  endforeach()
  set_property(GLOBAL APPEND_STRING PROPERTY TH_FUZZ_MANIFEST_LINES
    "${target}\t${_fz_toolchain}\t${variant}\t${config}\t${path}\t${status}\t${reason}\t${_fz_engine}\n")
endfunction()

# Inside the fuzz infrastructure: listed in th-fuzz.tsv (no replay binary:
# TH_FUZZ_REPLAY=1 is this target's replay mode), and packaged for
# ClusterFuzzLite when TIMERHARNESS_FUZZ_CFLITE_BUILDS names it.
function(_th_fuzz_register target variant config exe)
  set(n ${target}-${variant}-${config})
  set(P TH_FUZZ_${n})
  set_property(GLOBAL APPEND PROPERTY TH_FUZZ_NAMES ${n})
  set_property(GLOBAL PROPERTY ${P}_TARGET ${target})
  set_property(GLOBAL PROPERTY ${P}_VARIANT ${variant})
  set_property(GLOBAL PROPERTY ${P}_CONFIG ${config})
  set_property(GLOBAL PROPERTY ${P}_SEED -)
  set_property(GLOBAL PROPERTY ${P}_ENGINE ${_fz_bin}/${exe})
  set_property(GLOBAL PROPERTY ${P}_REPLAY "")
  # Its seeds: the timer's corpora/overflow, another family's corpora/<target>.
  set_property(GLOBAL PROPERTY ${P}_CORPUS ${_fz}/corpora/${target})
  set_property(GLOBAL PROPERTY ${P}_DICT "")
  set_property(GLOBAL PROPERTY ${P}_OPTIONS ${_fz}/options/overflow.options)
  set_property(GLOBAL PROPERTY ${P}_REGRESSIONS "")
  set_property(GLOBAL PROPERTY ${P}_FINDINGS "")
  set_property(GLOBAL PROPERTY ${P}_EXPECT_FUNCTION "")
  if("${target}:${variant}:${config}" IN_LIST TIMERHARNESS_FUZZ_CFLITE_BUILDS)
    set_property(GLOBAL APPEND PROPERTY TH_FUZZ_PACKAGE ${n})
  endif()
endfunction()

# th_fuzz_overflow_add(<api> <variant> <config>): one target binary.
function(th_fuzz_overflow_add api variant config)
  _th_fuzz_family_target(${api} target)
  set(name th-fuzz-${target}-${variant}-${config})
  string(TOUPPER ${variant} V)
  th_config_flags(${config} 1 cflags ldflags)
  set(layout ${_fz_core}/legacy.c)
  if(variant STREQUAL "modern")
    set(layout ${_fz_core}/modern.c)
  endif()
  # The family's world: the timer's beside the shared one; another's, its folder.
  if(api STREQUAL "timer")
    set(world ${_fz}/overflow_world_timer.c)
  else()
    file(GLOB world ${_fz}/${api}/world*.c)
  endif()
  # The attacker, the oracle and the world every family shares compile the
  # same for each family of a variant x config: once, linked into each
  # family's binary with its own world (a family adds its world's few files
  # to the build). Those that read the variant (TH_FZ_VARIANT_SOURCES) into
  # th-fuzz-objs-<variant>-<config>; the rest (TH_FZ_SHARED_SOURCES) once per
  # config for the three variants, into th-fuzz-objs-<config>, and the
  # wheel's layout once per config and layout (legacy.c for legacy and
  # transitional, modern.c for modern), into th-fuzz-objs-<config>-<layout>:
  # the same options, include directories and definitions, less the
  # variant's, which they do not read (checked at configure, below).
  set(objs th-fuzz-objs-${variant}-${config})
  get_filename_component(_fz_layout ${layout} NAME_WE)
  set(shared th-fuzz-objs-${config})
  set(shared_layout th-fuzz-objs-${config}-${_fz_layout})
  set(cdefs TH_ATK_CONFIG="${config}" TH_ATK_SEED="-")
  string(JOIN " " _cf ${cflags})
  th_config_scheme(${config} _fz_scheme)
  if(NOT _fz_scheme STREQUAL "none")
    list(APPEND cdefs TH_FZ_EXPECT_DISPATCH_TRAPS=1)
  endif()
  if(_cf MATCHES "TH_FORTIFY_FIELD")
    list(APPEND cdefs TH_FZ_CAPTURE_STDERR=1)
  endif()
  set(defs TH_ATK_${V}=1 TH_ATK_VARIANT="${variant}" ${cdefs})
  set(incs ${_fz} ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/attacks ${_fz_core}/include
      ${PROJECT_SOURCE_DIR}/tasklet_core/include)
  # The oracle reads the dispatch's checks with the binary reader (built
  # without the config: it reads, it is not attacked): th_binread itself,
  # or inside the fuzz infrastructure with TIMERHARNESS_FUZZ_STATIC_DEPS
  # rebuilt with its imported libraries static, as OSS-Fuzz's runner needs
  # them (with no flags of its own, a rebuild is otherwise the same objects).
  if(_fz_infra AND TIMERHARNESS_FUZZ_STATIC_DEPS)
    set(_fz_noflags "")
    _th_fuzz_clone(th_binread overflow _fz_noflags _fz_closure)
  else()
    set(_fz_closure th_binread)
  endif()
  foreach(o ${shared} ${shared_layout} ${objs})
    if(TARGET ${o})
      continue()
    endif()
    if(o STREQUAL shared)
      add_library(${o} OBJECT ${TH_FZ_SHARED_SOURCES})
      target_compile_definitions(${o} PRIVATE ${cdefs})
    elseif(o STREQUAL shared_layout)
      add_library(${o} OBJECT ${layout})
      target_compile_definitions(${o} PRIVATE ${cdefs})
    else()
      add_library(${o} OBJECT ${TH_FZ_VARIANT_SOURCES})
      target_compile_definitions(${o} PRIVATE ${defs})
    endif()
    target_include_directories(${o} PRIVATE ${incs})
    # The address checks of the raw-literal filter need a PIE (a fixed low image
    # would make small values like 0x407f0 look like addresses).
    target_compile_options(${o} PRIVATE ${TH_WARN_FLAGS} ${cflags} -fPIE)
    # The binary reader's headers (its libraries' include directories).
    target_link_libraries(${o} PRIVATE ${_fz_closure})
  endforeach()
  add_executable(${name} $<TARGET_OBJECTS:${shared}> $<TARGET_OBJECTS:${shared_layout}>
    $<TARGET_OBJECTS:${objs}> ${world})
  target_include_directories(${name} PRIVATE ${incs})
  target_compile_definitions(${name} PRIVATE ${defs})
  target_compile_options(${name} PRIVATE ${TH_WARN_FLAGS} ${cflags} -fPIE)
  target_link_options(${name} PRIVATE ${ldflags} -pie)
  target_link_libraries(${name} PRIVATE ${_fz_engine_link} ${_fz_closure})
  if(_fz_infra)
    if(TIMERHARNESS_FUZZ_LINK_CXX)
      set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
    endif()
    add_dependencies(th-fuzz-all ${name})
    _th_fuzz_register(${target} ${variant} ${config} ${name})
  endif()
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_fz_bin}")
  _th_fuzz_manifest(${target} ${variant} ${config} "${_fz_bin}/${name}" built "")
  set_property(GLOBAL APPEND PROPERTY TH_FUZZ_OVERFLOW_BINARIES "${api}:${variant}:${config}:${name}")
endfunction()

# Each family's configs (TH_FUZZ_CONFIGS_<api>), from the rows; their union
# is the configs built unless TH_FUZZ_OVERFLOW_CONFIGS says which.
set(_fz_configs "")
foreach(api IN LISTS TH_FUZZ_OVERFLOW_FAMILIES)
  _th_fuzz_family_target(${api} _fz_t)
  th_configs_where(fuzz ${_fz_t} TH_FUZZ_CONFIGS_${api})
  list(APPEND _fz_configs ${TH_FUZZ_CONFIGS_${api}})
endforeach()
if(TH_FUZZ_OVERFLOW_CONFIGS)
  set(_fz_configs ${TH_FUZZ_OVERFLOW_CONFIGS})
endif()
list(REMOVE_DUPLICATES _fz_configs)
set(_fz_built "")
foreach(config IN LISTS _fz_configs)
  if(NOT config IN_LIST TH_CONFIGS)
    message(FATAL_ERROR "TH_FUZZ_OVERFLOW_CONFIGS: '${config}' is not a config of cfi/configs.tsv")
  endif()
  # ClusterFuzzLite's build asks the compiler only about the configs of the
  # builds it ships.
  set(_fz_builds "")
  foreach(api IN LISTS TH_FUZZ_OVERFLOW_FAMILIES)
    _th_fuzz_family_target(${api} _fz_t)
    if(NOT config IN_LIST TH_FUZZ_CONFIGS_${api})
      continue()
    endif()
    foreach(variant IN LISTS TH_FUZZ_OVERFLOW_VARIANTS)
      if(_fz_infra AND TIMERHARNESS_FUZZ_CFLITE AND NOT "${_fz_t}:${variant}:${config}" IN_LIST TIMERHARNESS_FUZZ_CFLITE_BUILDS)
        continue()
      endif()
      list(APPEND _fz_builds "${api}:${variant}")
    endforeach()
  endforeach()
  if(NOT _fz_builds)
    continue()
  endif()
  th_config_supported(${config} ok reason)
  foreach(_fz_av IN LISTS _fz_builds)
    string(REPLACE ":" ";" _fz_av "${_fz_av}")
    list(GET _fz_av 0 api)
    list(GET _fz_av 1 variant)
    if(ok)
      th_fuzz_overflow_add(${api} ${variant} ${config})
    else()
      _th_fuzz_family_target(${api} _fz_t)
      _th_fuzz_manifest(${_fz_t} ${variant} ${config} - unsupported "${reason}")
    endif()
  endforeach()
  if(ok)
    list(APPEND _fz_built ${config})
  endif()
endforeach()

get_property(_fz_lines GLOBAL PROPERTY TH_FUZZ_MANIFEST_LINES)
file(WRITE ${TH_FUZZ_MANIFEST}
  "# timerharness fuzz manifest: target toolchain variant config path status reason engine\n"
  "${_fz_lines}")
string(JOIN ", " _fz_b ${_fz_built})
message(STATUS "timerharness fuzz: ${TIMERHARNESS_TOOLCHAIN}: overflow built for ${_fz_b}")

# The campaign loop behind `timerharness fuzz` runs these binaries: it is
# loops/campaign.c, in th_loops.

# ---- make test: replay, no campaigns ----------------------------------------------
# Every saved input on every binary of this toolchain, in a fresh process,
# against fuzz/expected.tsv's replay rules: the seeds in one test a binary,
# each regression input (corpora/overflow-findings/*.bin) in its own.
if(TARGET th_fuzz_decl)
  add_executable(th-fuzz-replay-check ${_fz}/overflow_replay_check.c)
  target_include_directories(th-fuzz-replay-check PRIVATE ${_fz})
  target_link_libraries(th-fuzz-replay-check PRIVATE th_fuzz_decl)
  target_compile_options(th-fuzz-replay-check PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(th-fuzz-replay-check PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_fz_bin}")

  # Each family's own: the timer's seeds and regression inputs in
  # corpora/overflow{,-findings}/ against fuzz/expected.tsv; another's in
  # corpora/<api>{,-findings}/ against fuzz/<api>/expected.tsv.
  get_property(_fz_bins GLOBAL PROPERTY TH_FUZZ_OVERFLOW_BINARIES)
  foreach(_b IN LISTS _fz_bins)
    string(REPLACE ":" ";" _b "${_b}")
    list(GET _b 0 _a)
    list(GET _b 1 _v)
    list(GET _b 2 _c)
    list(GET _b 3 _t)
    _th_fuzz_family_target(${_a} _tg)
    if(_a STREQUAL "timer")
      set(_fz_exp ${_fz}/expected.tsv)
    else()
      set(_fz_exp ${_fz}/${_a}/expected.tsv)
    endif()
    file(GLOB _fz_seeds CONFIGURE_DEPENDS ${_fz}/corpora/${_tg}/*)
    file(GLOB _fz_findings CONFIGURE_DEPENDS ${_fz}/corpora/${_tg}-findings/*.bin)
    if(_fz_seeds)
      add_test(NAME fuzz.${_tg}.seeds.${_v}.${_c}
        COMMAND th-fuzz-replay-check ${_fz_exp} ${TIMERHARNESS_TOOLCHAIN} ${_v} ${_c}
                $<TARGET_FILE:${_t}> ${_fz_seeds})
      set_tests_properties(fuzz.${_tg}.seeds.${_v}.${_c} PROPERTIES LABELS fuzz TIMEOUT 120)
    endif()
    # Another subsystem's callback (process_timeout) through a one- or
    # two-byte overwrite of .function: the bytes from this binary's layout
    # and its load address without randomisation
    # (tests/fuzz_foreign_partial.cmake). Under cfi-icall-generalized the
    # ring's callback and process_timeout are entries of one jump table.
    if(_a STREQUAL "timer" AND _v STREQUAL "modern" AND _c STREQUAL "cfi-icall-generalized")
      add_test(NAME fuzz.overflow.foreign_partial.${_c}
        COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DBIN=$<TARGET_FILE:${_t}>
                -DOUT=${CMAKE_CURRENT_BINARY_DIR}/foreign-partial-${_c}.bin
                -P ${PROJECT_SOURCE_DIR}/tests/fuzz_foreign_partial.cmake)
      set_tests_properties(fuzz.overflow.foreign_partial.${_c} PROPERTIES LABELS fuzz TIMEOUT 120
                           ENVIRONMENT TH_FUZZ_REPLAY=1 SKIP_REGULAR_EXPRESSION "SKIP: ")
    endif()
    foreach(_f IN LISTS _fz_findings)
      get_filename_component(_n ${_f} NAME_WE)
      add_test(NAME fuzz.${_tg}.replay.${_n}.${_v}.${_c}
        COMMAND th-fuzz-replay-check ${_fz_exp} ${TIMERHARNESS_TOOLCHAIN} ${_v} ${_c}
                $<TARGET_FILE:${_t}> ${_f})
      set_tests_properties(fuzz.${_tg}.replay.${_n}.${_v}.${_c} PROPERTIES LABELS fuzz TIMEOUT 120)
    endforeach()
  endforeach()
endif()

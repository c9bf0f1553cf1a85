# The runner never fails open: a broken build is a harness error or bad
# input, never an attack's outcome; one run's files are written as a set;
# one run at a time per --out. Each CASE builds what it needs under OUT,
# often a fake build root: a copy of this build's manifest with one thing
# broken.
#   cmake -DTH=timerharness -DBUILD=<build dir> -DOUT=<dir> -DCASE=<name> -P matrix_runner.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(READ ${BUILD}/th-manifest.tsv manifest)
string(REGEX MATCH "\ntoolchain\t([^\t]+)\t" _ "${manifest}")
set(tc ${CMAKE_MATCH_1})
# Two cells per run: config none (which also lists the attacks) and asan.
set(slice --config none,asan --variant legacy --attack MEMCPY_INTRA_BEFORE_ARM_NONE --quiet --timeout 5)

# run(<rc var> <out var> args...): timerharness with args.
function(run rc_var out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(want rc want_rc out regex what)
  if(NOT "${rc}" STREQUAL "${want_rc}" OR NOT "${out}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: exit ${rc} (want ${want_rc}), output must match '${regex}':\n${out}")
  endif()
endfunction()

# A fake build root whose one build is this manifest with `from` replaced by `to`.
function(fake_root from to)
  string(FIND "${manifest}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${from} is not in ${BUILD}/th-manifest.tsv")
  endif()
  string(REPLACE "${from}" "${to}" m "${manifest}")
  file(WRITE ${OUT}/root/${tc}/th-manifest.tsv "${m}")
endfunction()

# The gate on a run that has harness errors: exit 3, naming the cell.
function(gate_says_harness_error)
  run(rc out ${TH} check --results ${OUT}/out/results.json --allow-slice)
  want("${rc}" 3 "${out}" "harness error: MEMCPY_INTRA_BEFORE_ARM_NONE legacy/asan/${tc}: .*1 harness error"
       "check of a run with a harness error")
endfunction()

set(atk_asan ${BUILD}/attacks/th-attack-legacy-asan)
set(probe_asan ${BUILD}/probes/th-probe-asan)

if(CASE STREQUAL "missing_binary")
  # An attack binary the manifest lists as built is gone: not 1 CRASHED cell
  # ("exit 127") but a harness error, and the runner says so.
  fake_root("\t${atk_asan}\t" "\t${OUT}/gone/th-attack-legacy-asan\t")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 3 "${out}" "1 cell could not be run or observed \\(HARNESS_ERROR\\)" "matrix")
  file(READ ${OUT}/out/results.json json)
  if(NOT json MATCHES "\"outcome\": \"HARNESS_ERROR\"" OR json MATCHES "\"outcome\": \"CRASHED\""
     OR NOT json MATCHES "gone/th-attack-legacy-asan, listed as built at [^\"]*th-manifest.tsv:[0-9]+, cannot be run")
    message(FATAL_ERROR "the missing binary is not a HARNESS_ERROR cell naming it:\n${json}")
  endif()
  gate_says_harness_error()

elseif(CASE STREQUAL "unrunnable_binary")
  # It is there but cannot be started (exec fails in the child, exit 127).
  file(WRITE ${OUT}/bad/th-attack-legacy-asan "#!/nonexistent/interpreter\n")
  file(CHMOD ${OUT}/bad/th-attack-legacy-asan PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  fake_root("\t${atk_asan}\t" "\t${OUT}/bad/th-attack-legacy-asan\t")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 3 "${out}" "1 cell could not be run or observed" "matrix")
  file(READ ${OUT}/out/results.json json)
  if(NOT json MATCHES "\"HARNESS_ERROR\": 1" OR NOT json MATCHES "could not start it: ")
    message(FATAL_ERROR "the unrunnable binary is not a HARNESS_ERROR run:\n${json}")
  endif()
  gate_says_harness_error()

elseif(CASE STREQUAL "missing_probe")
  # The config's probe is gone: its support is unknown, not "no" (which would
  # make every cell UNSUPPORTED and the defence silently lost).
  fake_root("\t${probe_asan}\t" "\t${OUT}/gone/th-probe-asan\t")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 3 "${out}" "1 cell could not be run or observed" "matrix")
  file(READ ${OUT}/out/results.json json)
  if(json MATCHES "\"outcome\": \"UNSUPPORTED\"" OR NOT json MATCHES "probe asan: probe binary [^\"]*gone/th-probe-asan")
    message(FATAL_ERROR "the missing probe is not a HARNESS_ERROR naming it:\n${json}")
  endif()
  gate_says_harness_error()

elseif(CASE STREQUAL "manifest_is_a_directory" OR CASE STREQUAL "manifest_dangling"
       OR CASE STREQUAL "manifest_without_toolchain")
  # A second build whose manifest cannot be read is an error, not a
  # toolchain silently dropped from the run.
  file(WRITE ${OUT}/root/${tc}/th-manifest.tsv "${manifest}")
  if(CASE STREQUAL "manifest_is_a_directory")
    file(MAKE_DIRECTORY ${OUT}/root/other/th-manifest.tsv)
    set(regex "other/th-manifest.tsv: cannot read the build manifest: Is a directory")
  elseif(CASE STREQUAL "manifest_dangling")
    file(MAKE_DIRECTORY ${OUT}/root/other)
    file(CREATE_LINK ${OUT}/nowhere ${OUT}/root/other/th-manifest.tsv SYMBOLIC)
    set(regex "other/th-manifest.tsv: cannot read the build manifest: No such file")
  else()
    string(REGEX REPLACE "\ntoolchain\t[^\n]*" "" m "${manifest}")
    string(REPLACE "\t${tc}\t" "\tother\t" m "${m}")
    file(WRITE ${OUT}/root/other/th-manifest.tsv "${m}")
    set(regex "other/th-manifest.tsv: no toolchain line")
  endif()
  file(WRITE ${OUT}/out/results.json "sentinel\n")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 2 "${out}" "${regex}" "matrix")
  file(READ ${OUT}/out/results.json after)
  if(NOT after STREQUAL "sentinel\n")
    message(FATAL_ERROR "results.json was replaced after bad input")
  endif()

elseif(CASE STREQUAL "out_in_use")
  # A second run on a directory in use is refused before it writes anything.
  file(WRITE ${OUT}/out/results.json "sentinel\n")
  run(rc out flock ${OUT}/out/.timerharness.lock
      ${TH} matrix --build-root ${BUILD} --out ${OUT}/out ${slice})
  want("${rc}" 2 "${out}" "/out is in use by another matrix run: wait for it, or choose another --out" "matrix")
  file(READ ${OUT}/out/results.json after)
  if(NOT after STREQUAL "sentinel\n")
    message(FATAL_ERROR "results.json was replaced by a refused run")
  endif()
  # Free again once the other run is over.
  run(rc out ${TH} matrix --build-root ${BUILD} --out ${OUT}/out ${slice})
  want("${rc}" 0 "${out}" "outputs in " "matrix after the lock is released")

elseif(CASE STREQUAL "out_file_is_a_symlink")
  # A file of the set that is not a regular file is refused before the run.
  file(WRITE ${OUT}/elsewhere.html "kept\n")
  file(MAKE_DIRECTORY ${OUT}/out)
  file(CREATE_LINK ${OUT}/elsewhere.html ${OUT}/out/report.html SYMBOLIC)
  run(rc out ${TH} matrix --build-root ${BUILD} --out ${OUT}/out ${slice})
  want("${rc}" 2 "${out}" "report.html: cannot replace it: a symbolic link, not a regular file" "matrix")
  file(READ ${OUT}/elsewhere.html kept)
  if(NOT kept STREQUAL "kept\n" OR NOT IS_SYMLINK ${OUT}/out/report.html OR EXISTS ${OUT}/out/results.json)
    message(FATAL_ERROR "the symbolic link or its target was touched, or results were written")
  endif()

elseif(CASE STREQUAL "full_disk")
  # The run's files are a set: when one cannot be written (here the file
  # size limit, as a full disk would), none is replaced, no "outputs in" line is
  # printed, no temporary file is left, and the exit status says so.
  set(small --config none --variant legacy --attack MEMCPY_INTRA_BEFORE_ARM_NONE --quiet)
  set(big --config none --variant legacy,modern --attack MEMCPY_INTRA_BEFORE_ARM_*,INDEX_INTRA_* --quiet)
  run(rc out ${TH} matrix --build-root ${BUILD} --out ${OUT}/sizes ${big})
  want("${rc}" 0 "${out}" "outputs in " "matrix (measuring sizes)")
  set(files results.json report.md report.html junit.xml report.sarif)
  set(largest 0)
  set(second 0)
  foreach(f ${files})
    file(SIZE ${OUT}/sizes/${f} size)
    if(size GREATER largest)
      set(second ${largest})
      set(largest ${size})
    elseif(size GREATER second)
      set(second ${size})
    endif()
  endforeach()
  run(rc out ${TH} matrix --build-root ${BUILD} --out ${OUT}/out ${small})
  want("${rc}" 0 "${out}" "outputs in " "matrix (the old set)")
  foreach(f ${files})
    file(SHA256 ${OUT}/out/${f} old_${f})
  endforeach()
  # Every file but the largest fits, with room for the few bytes that differ
  # between runs (times, addresses).
  math(EXPR limit "(${largest} + ${second}) / 2")
  math(EXPR gap "${largest} - ${second}")
  if(gap LESS 512)
    message(FATAL_ERROR "the two largest files are too close in size (${largest}, ${second})")
  endif()
  run(rc out prlimit --fsize=${limit}:${limit} ${TH} matrix --build-root ${BUILD} --out ${OUT}/out ${big})
  want("${rc}" 1 "${out}" "File too large; the previous results in [^\n]*/out are kept" "matrix (a file too large)")
  if(out MATCHES "outputs in ")
    message(FATAL_ERROR "says it wrote what it did not:\n${out}")
  endif()
  foreach(f ${files})
    file(SHA256 ${OUT}/out/${f} now)
    if(NOT now STREQUAL old_${f})
      message(FATAL_ERROR "${f} was replaced: the set is mixed")
    endif()
  endforeach()
  file(GLOB left ${OUT}/out/*.tmp.*)
  if(left)
    message(FATAL_ERROR "temporary files left: ${left}")
  endif()

elseif(CASE STREQUAL "metrics")
  # run_cpu_seconds beside run_seconds; build_seconds only when the cold
  # build of every build tree used was measured, and then as measured.
  file(WRITE ${OUT}/root/${tc}/th-manifest.tsv "${manifest}")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 0 "${out}" "outputs in " "matrix")
  file(READ ${OUT}/out/results.json json)
  if(json MATCHES "\"build_seconds" OR NOT json MATCHES "\"run_cpu_seconds\": [0-9.e-]+,"
     OR NOT json MATCHES "\"run_seconds\": ")
    message(FATAL_ERROR "metrics without a measured cold build:\n${json}")
  endif()
  file(WRITE ${OUT}/root/${tc}/th-cold-build-seconds "123.5\n")
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 0 "${out}" "outputs in " "matrix")
  file(READ ${OUT}/out/results.json json)
  if(NOT json MATCHES "\"build_seconds\": 123.5," OR NOT json MATCHES "\"build_seconds_${tc}\": 123.5,")
    message(FATAL_ERROR "build_seconds is not the measured cold build:\n${json}")
  endif()
  # Without --quiet, the run's throughput on standard error: cells a second
  # and the CPU time split into user and system.
  list(REMOVE_ITEM slice --quiet)
  run(rc out ${TH} matrix --build-root ${OUT}/root --out ${OUT}/out ${slice})
  want("${rc}" 0 "${out}"
       "matrix: 2 cells in [0-9.]+ s \\([0-9]+ a second\\); CPU [0-9.]+ s user, [0-9.]+ s system\n"
       "matrix's throughput line")

else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()

# `report --out` writes regular files only: a symbolic link, a device node or
# a FIFO is refused (exit 2) and left as it was; a file it replaces keeps
# its mode.
#   cmake -DREPORT=report_cli -DRESULTS=<results.json> -DOUT=<dir> -DCASE=<name> -P report_out.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(report target)
  execute_process(COMMAND ${REPORT} --results ${RESULTS} --format md --out ${target}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  set(rc ${rc} PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(file_type path out)
  execute_process(COMMAND stat -c %F ${path} OUTPUT_VARIABLE t OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${t}" PARENT_SCOPE)
endfunction()

if(CASE STREQUAL "symlink")
  file(WRITE ${OUT}/target.md "kept\n")
  file(CREATE_LINK ${OUT}/target.md ${OUT}/link.md SYMBOLIC)
  report(${OUT}/link.md)
  file_type(${OUT}/link.md type)
  file(READ ${OUT}/target.md kept)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "link.md: cannot replace it: a symbolic link, not a regular file"
     OR NOT type STREQUAL "symbolic link" OR NOT kept STREQUAL "kept\n")
    message(FATAL_ERROR "exit ${rc}, link is now '${type}', target '${kept}':\n${err}")
  endif()
elseif(CASE STREQUAL "fifo")
  execute_process(COMMAND mkfifo ${OUT}/fifo.md RESULT_VARIABLE rc)
  report(${OUT}/fifo.md)
  file_type(${OUT}/fifo.md type)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "fifo.md: cannot replace it: a FIFO" OR NOT type STREQUAL "fifo")
    message(FATAL_ERROR "exit ${rc}, fifo is now '${type}':\n${err}")
  endif()
elseif(CASE STREQUAL "device")
  # A device node of our own (like /dev/full, 1:7) where mknod is allowed
  # (root); elsewhere /dev/null, which only root could replace anyway.
  execute_process(COMMAND mknod ${OUT}/full c 1 7 RESULT_VARIABLE made ERROR_QUIET)
  if(made EQUAL 0)
    set(dev ${OUT}/full)
  else()
    set(dev /dev/null)
  endif()
  report(${dev})
  file_type(${dev} type)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot replace it: a character device" OR
     NOT type STREQUAL "character special file")
    message(FATAL_ERROR "exit ${rc}, ${dev} is now '${type}':\n${err}")
  endif()
elseif(CASE STREQUAL "mode")
  file(WRITE ${OUT}/report.md "old\n")
  file(CHMOD ${OUT}/report.md PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
  report(${OUT}/report.md)
  execute_process(COMMAND stat -c %a ${OUT}/report.md OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
  file(READ ${OUT}/report.md text)
  if(NOT rc EQUAL 0 OR NOT mode STREQUAL "640" OR NOT text MATCHES "^# timerharness results")
    message(FATAL_ERROR "exit ${rc}, mode ${mode} (want 640):\n${err}")
  endif()
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()

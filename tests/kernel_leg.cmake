# SPDX-License-Identifier: MIT
# A real kernel's cells beside a real matrix run, through the API the kernel
# command calls (tests/kernel_leg_main.c: th_results_replace_platform,
# th_expect_judge_results, th_render_lock_dir, th_render_write_set), then
# gated by `timerharness check --expect --kernel`: 0 with the difference
# declared (@differs), 1 when it is not, when the declaration is stale and
# when the kernel's plan is not whole; 2 when the stored agreement is
# doctored and without a kernel plan; the run's own files every consumer
# checks (outputs.py reads matrix-out/).
#   -DTH=timerharness -DLEG=kernel_leg -DBUILD=<build dir> -DSRC=<source> -DOUT=<dir>
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/plan/configs)
set(A MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4)
set(P linux-6.1.192)
# The kernel's plan: the one attack, under none.
file(WRITE ${OUT}/plan/cells.tsv "# attack technique timing payload api\n${A}\tmemcpy-intra\tbefore-arm\tfunc:write_cr4\ttimer\n")
file(WRITE ${OUT}/plan/configs/base.config "CONFIG_64BIT=y\n")
file(WRITE ${OUT}/plan/configs/none.config "# CONFIG_CFI_CLANG is not set\n")
# The checkout's expectations, with the kernel's rule and its difference:
# the model's write_cr4 faults (#GP: CRASHED), the real one (under QEMU's TCG) hangs.
file(READ ${SRC}/attacks/expected.tsv base)
set(kernel "@platform linux-6.1.*\n*_FUNC_WRITE_CR4\tmodern\tnone\t*\tHANG\tQEMU TCG raises no #GP for reserved CR4 bits\n")
set(differs "@differs\n*_FUNC_WRITE_CR4\tmodern\tnone\t*\tCRASHED\tHANG\tQEMU TCG: no #GP, the guest stops\n")
file(WRITE ${OUT}/expected.tsv "${base}${kernel}${differs}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # Lines wrapped at 80 columns read as one.
  string(REPLACE "\n  " " " out "${out}")
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
function(want rc_want regex what)
  if(NOT rc EQUAL ${rc_want} OR NOT "${out}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: exit ${rc} (want ${rc_want}), output must match '${regex}':\n${out}")
  endif()
endfunction()
set(check ${TH} check --results ${OUT}/run/results.json --expect ${OUT}/expected.tsv
    --kernel ${OUT}/plan --allow-slice)

run(${TH} matrix --build-root ${BUILD} --out ${OUT}/run --quiet --expect ${OUT}/expected.tsv
    --config none,cfi-icall --variant modern --attack ${A})
want(0 "outputs in" "matrix")
run(${check})
want(0 "check: PASS" "check of the model's run alone")

# The kernel oopses: a declared difference.
run(${LEG} ${OUT}/run ${OUT}/expected.tsv ${P} none ${A} HANG)
want(0 "Real kernel \\(${P}\\) vs model: 1 cell, 0 agree, 1 declared, 0 disagree" "kernel_leg")
run(${check} --verbose)
want(0 "declared difference: ${A} modern/none/[^ ]+ on ${P}: model CRASHED, kernel HANG \\([^)]*expected.tsv:[0-9]+: .*check: ${P}: 1 cell, 0 agree with the model, 1 declared difference, 0 disagree.*check: PASS" "check, declared")
file(READ ${OUT}/run/results.json declared)
foreach(f report.md report.html junit.xml)
  file(READ ${OUT}/run/${f} text)
  if(NOT text MATCHES "${P}")
    message(FATAL_ERROR "${f} does not name the platform ${P}")
  endif()
endforeach()
# The run passes the gate: code scanning gets no result (each is an alert).
file(READ ${OUT}/run/report.sarif text)
if(NOT text MATCHES "\"results\": \\[\\]")
  message(FATAL_ERROR "report.sarif of a run that passes the gate has results:\n${text}")
endif()

# Its agreement doctored: the stored row says the two agree.
string(REPLACE "\"kernel_outcome\": \"HANG\",\n      \"agrees\": false" "\"kernel_outcome\": \"CRASHED\",\n      \"agrees\": true" doctored "${declared}")
if(doctored STREQUAL declared)
  message(FATAL_ERROR "nothing to doctor in the agreement:\n${declared}")
endif()
file(WRITE ${OUT}/doctored.json "${doctored}")
run(${TH} check --results ${OUT}/doctored.json --expect ${OUT}/expected.tsv --kernel ${OUT}/plan --allow-slice)
want(2 "doctored: agreement: ${A} modern/none/[^ ]+ on ${P}: stored model CRASHED, kernel CRASHED \\(agree\\), the cells say model CRASHED, kernel HANG" "check, doctored agreement")

# No kernel plan where the results hold a real kernel's cells.
run(${TH} check --results ${OUT}/run/results.json --expect ${OUT}/expected.tsv --kernel ${OUT}/none --allow-slice)
want(2 "unplanned: the results hold a real kernel's platform but there is no kernel plan to judge it by \\(kernel/cells.tsv and kernel/configs/: [^)]*none/cells.tsv: No such file or directory\\)" "check without a plan")

# The kernel's plan grows: the platform lacks a cell of it.
file(APPEND ${OUT}/plan/cells.tsv "MEMCPY_INTRA_BEFORE_ARM_NONE\tmemcpy-intra\tbefore-arm\tnone\ttimer\n")
run(${check})
want(1 "missing: MEMCPY_INTRA_BEFORE_ARM_NONE modern/none/[^ ]+ on ${P}: declared [A-Za-z_]+, not in the results \\(coverage lost\\)" "check, plan not whole")
file(WRITE ${OUT}/plan/cells.tsv "${A}\tmemcpy-intra\tbefore-arm\tfunc:write_cr4\ttimer\n")

# The kernel now does what the model does: the declaration is stale.
run(${LEG} ${OUT}/run ${OUT}/expected.tsv ${P} none ${A} CRASHED)
want(0 "1 agree, 0 declared" "kernel_leg, agreeing")
run(${check})
want(1 "stale: [^ ]*expected.tsv:[0-9]+ declares model CRASHED, kernel HANG for ${A} modern/none/[^ ]+ on ${P}, but both observed CRASHED" "check, stale")

# Another difference, undeclared.
run(${LEG} ${OUT}/run ${OUT}/expected.tsv ${P} none ${A} NO_EFFECT)
run(${check})
want(1 "disagreement: ${A} modern/none/[^ ]+ on ${P}: model CRASHED, kernel NO_EFFECT, [^ ]*expected.tsv:[0-9]+ declares model CRASHED, kernel HANG \\(stale\\); model evidence: .*; kernel evidence: the serial console's lines" "check, undeclared")

# An interrupted kernel run makes the results partial, by the platform's name.
run(${LEG} ${OUT}/run ${OUT}/expected.tsv ${P} none ${A} HANG partial)
run(${check})
want(1 "PARTIAL run, interrupted: ${P}: SIGINT" "check, interrupted kernel run")

# Declared again, whole: the run every consumer reads (outputs.py).
run(${LEG} ${OUT}/run ${OUT}/expected.tsv ${P} none ${A} HANG)
run(${check})
want(0 "check: PASS" "check, declared again")

# The model run again: the real kernel's cells are kept, beside its new cells.
run(${TH} matrix --build-root ${BUILD} --out ${OUT}/run --quiet --expect ${OUT}/expected.tsv
    --config none,cfi-icall --variant modern --attack ${A})
want(0 "outputs in" "matrix again")
run(${check})
want(0 "check: ${P}: 1 cell, 0 agree with the model, 1 declared difference, 0 disagree.*check: PASS" "check after the model's run again")
# Run by other expectations (the checkout's model rules alone: no rule, no
# difference declared for the kernel), they are kept and judged again: new,
# and undeclared.
string(FIND "${base}" "\n@platform" cut)
string(SUBSTRING "${base}" 0 ${cut} model_only)
file(WRITE ${OUT}/model-only.tsv "${model_only}\n")
file(COPY ${OUT}/run/ DESTINATION ${OUT}/other)
run(${TH} matrix --build-root ${BUILD} --out ${OUT}/other --quiet --expect ${OUT}/model-only.tsv
    --config none,cfi-icall --variant modern --attack ${A})
want(0 "outputs in" "matrix by other expectations")
run(${TH} check --results ${OUT}/other/results.json --expect ${OUT}/model-only.tsv --kernel ${OUT}/plan --allow-slice)
want(1 "new: ${A} modern/none/[^ ]+ on ${P}: expected none.*disagreement: ${A} modern/none/[^ ]+ on ${P}: model CRASHED, kernel HANG, no @differs row declares it" "check of the kept cells by other expectations")
# A toolchain of another version: not the same cells; said, and left out.
file(READ ${OUT}/other/results.json other)
string(REGEX REPLACE "\"version\": \"[^\"]*\",(\n *)\"path\"" "\"version\": \"99.0.0\",\\1\"path\"" other "${other}")
file(WRITE ${OUT}/other/results.json "${other}")
run(${TH} matrix --build-root ${BUILD} --out ${OUT}/other --quiet --expect ${OUT}/model-only.tsv
    --config none,cfi-icall --variant modern --attack ${A})
want(0 "the cells of the real kernel ${P} in [^ ]*other/results.json are not kept: toolchain [^ ]+ is [^ ]+ in the results and 99.0.0 in the ${P} run" "matrix, another toolchain version")
file(READ ${OUT}/other/results.json other)
if(other MATCHES "${P}")
  message(FATAL_ERROR "the real kernel's cells of another toolchain version were kept")
endif()
file(REMOVE_RECURSE ${OUT}/other)

# SPDX-License-Identifier: MIT
# th_fuzz_decl: the campaigns' declaration, beside the files it reads: the
# plan (fuzz/campaigns.tsv) with the build it ran from (fuzz-manifest.tsv),
# and the expected outcomes (fuzz/expected.tsv). Like attacks/' th_expect
# it is below the gate that judges by it (report/check_fuzz.c), and below
# the campaign loop (loops/campaign.c) and the replay tests
# (fuzz/overflow_replay_check.c). Included from the top level, not from
# fuzz/CMakeLists.txt: `check` needs it when the fuzz targets are not built
# (TIMERHARNESS_FUZZ=OFF).
# fuzz_replay.c: one saved input replayed by the binary the build lists for
# its campaign, how both the loop and the gate ask what an input does.
add_library(th_fuzz_decl STATIC ${CMAKE_CURRENT_LIST_DIR}/fuzz_plan.c ${CMAKE_CURRENT_LIST_DIR}/fuzz_expect.c
                                ${CMAKE_CURRENT_LIST_DIR}/fuzz_replay.c)
target_include_directories(th_fuzz_decl PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(th_fuzz_decl PUBLIC th_results th_config_table th_lib)
target_compile_options(th_fuzz_decl PRIVATE ${TH_WARN_FLAGS})

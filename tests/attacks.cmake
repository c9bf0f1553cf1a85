# SPDX-License-Identifier: MIT
#
# Tests of attacks/: the registry, expected.tsv and its loader (th-attacks-test,
# one add_test per case), and end-to-end runs of the `none` attack binaries.
# Included by tests/CMakeLists.txt after add_subdirectory(attacks).

if(NOT TARGET th_expect OR NOT TARGET th_registry)
  message(WARNING "attacks/ not configured: attack tests not built")
  return()
endif()
find_library(TH_CMOCKA_LIB cmocka)
find_path(TH_CMOCKA_INCLUDE cmocka.h)
if(NOT TH_CMOCKA_LIB OR NOT TH_CMOCKA_INCLUDE)
  message(WARNING "cmocka not found: attack tests not built (apt-get install libcmocka-dev)")
  return()
endif()
if(NOT DEFINED TH_RUN_EXPECT)
  set(TH_RUN_EXPECT ${PROJECT_SOURCE_DIR}/tests/run_expect.cmake)
endif()

string(JOIN "," _th_configs_csv ${TH_CONFIGS})
add_executable(th-attacks-test
  ${PROJECT_SOURCE_DIR}/tests/attacks_test.c
  ${PROJECT_SOURCE_DIR}/results/outcome.c)
target_include_directories(th-attacks-test PRIVATE ${TH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
target_link_libraries(th-attacks-test PRIVATE th_expect th_registry ${TH_CMOCKA_LIB})
target_compile_options(th-attacks-test PRIVATE ${TH_WARN_FLAGS})
target_compile_definitions(th-attacks-test PRIVATE
  TH_EXPECTED_TSV="${PROJECT_SOURCE_DIR}/attacks/expected.tsv"
  TH_KERNEL_DIR="${PROJECT_SOURCE_DIR}/kernel"
  TH_TEST_CONFIGS="${_th_configs_csv}"
  TH_TEST_TOOLCHAIN="${TIMERHARNESS_TOOLCHAIN}")
set_target_properties(th-attacks-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")

set(TH_ATTACKS_CASES
  registry_ids_unique registry_ids_derived registry_design_names registry_complete
  registry_not_applicable expect_loads expect_covers_every_cell expect_no_dead_rules
  expect_story_cells expect_loader_errors expect_first_match_and_alternatives
  expect_outcome_sets expect_platform_sections expect_differs_rows expect_directive_errors
  kernel_plan_loads kernel_plan_errors)
foreach(case IN LISTS TH_ATTACKS_CASES)
  add_test(NAME attacks.${case} COMMAND th-attacks-test ${case})
  set_tests_properties(attacks.${case} PROPERTIES LABELS attacks TIMEOUT 120)
endforeach()
# Every case of th-attacks-test is registered above.
string(REPLACE ";" "\n" _th_cases "${TH_ATTACKS_CASES}")
file(WRITE ${CMAKE_BINARY_DIR}/tests/attacks_cases.txt "${_th_cases}\n")
add_test(NAME attacks.all_cases_registered
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:th-attacks-test>;--list" -DRC=0
          "-DSTDOUT_FILE=${CMAKE_BINARY_DIR}/tests/attacks_cases.txt" -P ${TH_RUN_EXPECT})

# ---- --list is the same registry in every binary of a variant ------------------
get_property(_th_bins GLOBAL PROPERTY TH_ATTACK_BINARIES)
foreach(variant legacy transitional modern)
  set(_paths "")
  foreach(entry IN LISTS _th_bins)
    if(entry MATCHES "^${variant}:[^:]*:[^:]*:(.*)$")
      list(APPEND _paths $<TARGET_FILE:${CMAKE_MATCH_1}>)
    endif()
  endforeach()
  if(_paths)
    add_test(NAME attacks.list_same.${variant} COMMAND th-attacks-test list_same ${_paths})
    set_tests_properties(attacks.list_same.${variant} PROPERTIES LABELS attacks)
  endif()
endforeach()

# ---- end to end: the `none` binaries ----------------------------------------------
# th_attacks_e2e(<name> <variant> <attack> <regex>): stdout must match.
function(th_attacks_e2e name variant attack regex)
  add_test(NAME attacks.e2e.${variant}.${name}
    COMMAND th-attack-${variant}-none --run ${attack})
  set_tests_properties(attacks.e2e.${variant}.${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "${regex}" LABELS attacks TIMEOUT 30)
endfunction()
# A run that dies by a signal (sh reports 128 + its number, stdout moved to
# stderr): its lines must match regex.
function(th_attacks_e2e_dies name variant attack rc regex)
  add_test(NAME attacks.e2e.${variant}.${name}
    COMMAND ${CMAKE_COMMAND}
      "-DCMD=sh;-c;\"$0\" --run ${attack} 1>&2;$<TARGET_FILE:th-attack-${variant}-none>"
      -DRC=${rc} "-DSTDERR_REGEX=${regex}" -P ${TH_RUN_EXPECT})
  set_tests_properties(attacks.e2e.${variant}.${name} PROPERTIES LABELS attacks TIMEOUT 30)
endfunction()

if(TARGET th-attack-legacy-none AND TARGET th-attack-modern-none AND
   TARGET th-attack-transitional-none)
  # Run without the runner, the lines carry the token "-" (runner/contract.h).
  # Every control run: the legitimate callback on its own ring, then a normal end.
  foreach(variant legacy transitional modern)
    foreach(attack MEMCPY_INTRA_BEFORE_ARM MEMCPY_INTRA_PENDING INDEX_INTRA_BEFORE_ARM
        INDEX_INTRA_PENDING STRCPY_INTRA_BEFORE_ARM STRCPY_INTRA_PENDING
        HEAP_NEIGHBOUR_BEFORE_ARM HEAP_NEIGHBOUR_PENDING UAF_REALLOC_PENDING)
      string(TOLOWER ${attack} _n)
      th_attacks_e2e(control.${_n} ${variant} ${attack}_NONE
        "TH-LANDED: run=- no control run.*TH-LEGIT: run=- intended=1 .*TH-DONE: run=- fired=1 targets=0 legit=1 ")
    endforeach()
  endforeach()
  # CVE-2017-7308's overwrite: write_cr4 gets the attacker's value.
  th_attacks_e2e(func_data_write_cr4 legacy MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4
    "TH-LANDED: run=- yes .*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\nTH-NOTE: run=- CR4 0x3407f0 -> 0x407f0: SMEP off SMAP off")
  th_attacks_e2e(uaf_func_data_write_cr4 transitional UAF_REALLOC_PENDING_FUNC_DATA_WRITE_CR4
    "spray hit the freed slot.*TH-LANDED: run=- yes .*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0")
  th_attacks_e2e(fake_object legacy HEAP_NEIGHBOUR_PENDING_DATA_FAKE_OBJECT
    "TH-TARGET: run=- name=neighbour_timer_fn chosen=1 .*current uid now 0")
  # rc3 shim: .data is the fake ring's timer; the callback gets exactly that.
  th_attacks_e2e(fake_object transitional MEMCPY_INTRA_BEFORE_ARM_DATA_FAKE_OBJECT
    "TH-LANDED: run=- yes data ok .*TH-TARGET: run=- name=neighbour_timer_fn chosen=1 timer=.*current uid now 0")
  # func:ptr-class: commit_creds (kernel/cred.c) passes BUG_ON(usage < 1) on
  # the planted 0x1337, then reads new->user past the ring (the next slot,
  # zeroed) and atomic_incs through it: a fault at 0x4, before any TARGET.
  th_attacks_e2e_dies(ptr_class legacy INDEX_INTRA_BEFORE_ARM_FUNC_PTR_CLASS 139
    "TH-LANDED: run=- yes name ok .*function ok \\(0x[0-9a-f]+ commit_creds\\).*TH-TRAP: run=- sig=11 name=SIGSEGV .* addr=0x4\n")
  # ... and on CVE-2017-7308's socket, whose first word (the cred's usage) is
  # 0: BUG_ON(usage < 1), a ud2 in commit_creds.
  th_attacks_e2e_dies(ring_block.ptr_class legacy RING_BLOCK_OVERFLOW_PENDING_FUNC_PTR_CLASS 132
    "BUG_ON\\(atomic_read\\(&new->usage\\) < 1\\), usage 0 \\(0x0\\)\nTH-TRAP: run=- sig=4 name=SIGILL .* bytes=0f0b")
  # func:other-proto: call_usermodehelper's wait is what ecx held at the
  # callback call, not UMH_NO_WAIT: it would sleep in the softirq.
  th_attacks_e2e_dies(other_proto legacy MEMCPY_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO 132
    "TH-LANDED: run=- yes name ok .*BUG: scheduling while atomic: swapper/0/0/0x00000100 \\(call_usermodehelper\\(0x[0-9a-f]+, argv 0x[0-9a-f]+, envp 0x[0-9a-f]+, wait -?[1-9][0-9]*\\) waits for its helper\\)\nTH-TRAP: run=- sig=4 name=SIGILL .* bytes=0f0b")
  # func:foreign-callback: process_timeout (kernel/time/timer.c) wakes the
  # task after the timer (4.15) or in .data (4.14): the attacker's own.
  th_attacks_e2e(foreign_callback modern MEMCPY_INTRA_BEFORE_ARM_FUNC_FOREIGN_CALLBACK
    "TH-TARGET: run=- name=process_timeout chosen=1 task=0x[0-9a-f]+ \\(from_timer\\(timeout, t, timer\\)->task\\) state 1 -> 0: woken\n")
  th_attacks_e2e(foreign_callback legacy INDEX_INTRA_PENDING_FUNC_FOREIGN_CALLBACK
    "TH-TARGET: run=- name=process_timeout chosen=1 task=0x[0-9a-f]+ \\(.data\\) state 1 -> 0: woken\n")
  # Modern: the callback gets the timer, never the attacker's value: write_cr4's
  # MOV to CR4 of that address (bits 63:32 set) is #GP(0), a SIGSEGV at the mov
  # (0f 22 /4, any REX; sh reports 139), before write_cr4 reports or loads it.
  th_attacks_e2e_dies(func_write_cr4 modern MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 139
    "TH-LANDED: run=- yes .*TH-TRAP: run=- sig=11 name=SIGSEGV pc=0x[0-9a-f]+ ehdr=0x[0-9a-f]+ bytes=(4[0-9a-f])?0f22[26ae][0-7]")
  th_attacks_e2e(same_class modern HEAP_NEIGHBOUR_BEFORE_ARM_FUNC_SAME_CLASS
    "TH-TARGET: run=- name=ring_force_close chosen=0 ")
  # list:forged-timer: the expiry walks from the ring's timer (its callback runs
  # first) into the forged one: fn(data) on 4.14, fn(timer) on 4.15; two fired.
  th_attacks_e2e(forged_timer legacy MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER
    "TH-LANDED: run=- yes entry.next ok .*TH-LEGIT: run=- intended=1 .*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\n.*TH-DONE: run=- fired=2 targets=1 legit=1 ")
  # 4.15: write_cr4 gets the forged timer's address: #GP(0) at its mov.
  th_attacks_e2e_dies(forged_timer modern HEAP_NEIGHBOUR_PENDING_LIST_FORGED_TIMER 139
    "TH-LEGIT: run=- intended=1 .*TH-TRAP: run=- sig=11 name=SIGSEGV pc=0x[0-9a-f]+ ehdr=0x[0-9a-f]+ bytes=(4[0-9a-f])?0f22[26ae][0-7]")
  # Before arming, mod_timer()'s hlist_add_head() rewrites the planted entry.next.
  th_attacks_e2e(forged_timer_before_arm transitional INDEX_INTRA_BEFORE_ARM_LIST_FORGED_TIMER
    "TH-LANDED: run=- yes entry.next ok .*TH-DONE: run=- fired=1 targets=0 legit=1 stray=0 cr4=0x3407f0 uid=1000\n")
  # list:hlist-del before arming: mod_timer()'s detach does *pprev = next = NULL
  # over uid and gid, then the timer fires normally.
  th_attacks_e2e(hlist_del_before_arm legacy INDEX_INTRA_BEFORE_ARM_LIST_HLIST_DEL
    "TH-LANDED: run=- yes entry.next ok \\(0x0\\), entry.pprev ok .*TH-DONE: run=- fired=1 targets=0 legit=1 stray=0 cr4=0x3407f0 uid=0\n")
  # ... and pending: detach_timer() at expiry writes the list head's address (a
  # stack address: 5+ digits in its low half) over uid and gid through the
  # planted entry.next; *pprev = next made that next the list's head, so the
  # walk goes on into the cred as a timer and faults (the kernel: an oops in
  # the timer softirq).
  th_attacks_e2e_dies(hlist_del modern UAF_REALLOC_PENDING_LIST_HLIST_DEL 139
    "spray hit the freed slot.*TH-LANDED: run=- yes entry.next ok .*current uid now [0-9][0-9][0-9][0-9][0-9].*TH-TRAP: run=- sig=11 ")
  # ---- CVE-2017-7308's victim, af_packet's socket (attacks/af_packet.h) ----
  # Control: the attacker's ring (retire timer, 100 ms) and 32 sockets (1000
  # ms) armed; every one fires once, the watched one's run is the TH-LEGIT.
  foreach(variant legacy transitional modern)
    th_attacks_e2e(ring_block.control ${variant} RING_BLOCK_OVERFLOW_PENDING_NONE
      "TH-LANDED: run=- no control run.*TH-LEGIT: run=- intended=1 packet_sock=0x[0-9a-f]+ retire_blk_timer on its own socket .*TH-DONE: run=- fired=33 targets=0 legit=1 stray=0 bystanders=32 ")
  endforeach()
  # The exploit's frame: packet_set_ring() lets tp_sizeof_priv through, the
  # copy lands 6 bytes before the second socket's retire_blk_timer, 78 bytes;
  # the zeroed entry.next ends the bucket's list there (the socket armed
  # before it never fires: 32 of 33); write_cr4(0x407f0).
  th_attacks_e2e(ring_block.cve legacy RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4
    "packet_set_ring\\(\\) = 0;.*tpacket_rcv\\(\\): the frame's 78 bytes copied to 0x[0-9a-f]+, 6 bytes before the victim's retire_blk_timer\nTH-LANDED: run=- yes function ok \\(0x[0-9a-f]+ write_cr4\\), data ok \\(0x407f0\\); changed: entry.next entry.pprev expires function data flags\n.*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\n.*TH-DONE: run=- fired=32 targets=1 legit=0 stray=0 bystanders=31 cr4=0x407f0 ")
  # data:fake-object: the real callback on the attacker's socket closes its
  # block: 0 through pkc->prev into the uid, block_status USER|BLK_TMO, the
  # fake's sk_data_ready, the re-arm; the label after it returned.
  th_attacks_e2e(ring_block.fake_object legacy RING_BLOCK_OVERFLOW_PENDING_DATA_FAKE_OBJECT
    "prb_close_block: last_pkt->tp_next_offset = 0 through pkc->prev = 0x[0-9a-f]+ \\(current_cred.uid\\); current uid now 0\n.*block_status 0x21 .*sk_data_ready\\(sk\\) through the socket at 0x[0-9a-f]+: 0x[0-9a-f]+ \\(sock_def_readable\\)\n.*re-armed the timer .*TH-TARGET: run=- name=prb_retire_rx_blk_timer_expired chosen=1 data=0x[0-9a-f]+ \\(not a socket\\): returned; current uid 0\n")
  # func:foreign-callback: 4.15's process_timeout takes its task from the word
  # after retire_blk_timer, the end of struct tpacket_kbdq_core, which the
  # exploit's frame does not reach: NULL, and wake_up_process() faults on it
  # (try_to_wake_up()'s first access, p->pi_lock, at +8 in the model's struct).
  th_attacks_e2e_dies(ring_block.foreign_callback modern RING_BLOCK_OVERFLOW_PENDING_FUNC_FOREIGN_CALLBACK 139
    "TH-LANDED: run=- yes function ok \\(0x[0-9a-f]+ process_timeout\\).*TH-TRAP: run=- sig=11 name=SIGSEGV .* addr=0x8")
  # strcpy: no zero bytes, so .data is out of reach (.function lands unless its
  # random address has a zero byte: partial or no), and the non-zero filler in
  # entry crashes the wheel (SIGSEGV: sh reports 139; stdout moved to stderr).
  th_attacks_e2e_dies(strcpy_partial legacy STRCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4 139
    "TH-LANDED: run=- (partial|no) .*data missed.*TH-TRAP: run=- sig=11 ")

  # The tasklet family (attacks/tasklet_attack.c). Every control: the
  # victim's own callback on its own object, once.
  foreach(variant legacy transitional modern)
    foreach(attack TASKLET_MEMCPY_INTRA_BEFORE_ARM TASKLET_MEMCPY_INTRA_PENDING HSO_INDEX_BEFORE_ARM
        HSO_INDEX_PENDING)
      string(TOLOWER ${attack} _n)
      th_attacks_e2e(tasklet.control.${_n} ${variant} ${attack}_NONE
        "TH-LANDED: run=- no .*TH-LEGIT: run=- intended=1 .*TH-DONE: run=- ran=1 targets=0 legit=1 stray=0 ")
    endforeach()
  endforeach()
  # The downgrade: use_callback cleared on a tasklet_setup() tasklet, func(data)
  # = write_cr4(0x407f0) (the none build: nothing checks; the gate holds the
  # CFI configs' cells).
  th_attacks_e2e(tasklet.use_callback transitional TASKLET_MEMCPY_INTRA_PENDING_USE_CALLBACK_WRITE_CR4
    "tasklet_setup\\(t, neighbour_tasklet_fn\\).*TH-LANDED: run=- yes use_callback=ok func=ok data=ok;.*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\n.*TH-DONE: run=- ran=1 targets=1 legit=0 stray=0 cr4=0x407f0 ")
  # hso_serial's index write: rx_urb_filled[4..] is the tasklet, byte by byte.
  th_attacks_e2e(tasklet.hso_use_callback legacy HSO_INDEX_BEFORE_ARM_USE_CALLBACK_WRITE_CR4
    "rx_urb_filled\\[24\\.\\.24\\] = \\.\\.\\.: the tasklet's padding at \\+20.*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\n")
  # A forged tasklet reached through ->next: after the victim's own callback.
  th_attacks_e2e(tasklet.forged transitional TASKLET_MEMCPY_INTRA_PENDING_LIST_FORGED_TASKLET
    "TH-LANDED: run=- yes next=ok;.*TH-LEGIT: run=- intended=1 .*TH-TARGET: run=- name=write_cr4 chosen=1 val=0x407f0\n.*TH-DONE: run=- ran=2 targets=1 legit=1 ")
  # Before the schedule, __tasklet_schedule_common()'s t->next = NULL loses it.
  th_attacks_e2e(tasklet.forged_before_arm transitional TASKLET_MEMCPY_INTRA_BEFORE_ARM_LIST_FORGED_TASKLET
    "TH-DONE: run=- ran=1 targets=0 legit=1 stray=0 ")
  add_test(NAME attacks.cli.tasklet_not_applicable
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:th-attack-legacy-none>;--run;HSO_INDEX_PENDING_FUNC_SAME_CLASS" -DRC=3
            "-DSTDERR_REGEX=not applicable on legacy: no function of hso_unthrottle_tasklet's type" -P ${TH_RUN_EXPECT})

  # The binary's interface.
  set(_bin $<TARGET_FILE:th-attack-modern-none>)
  add_test(NAME attacks.cli.info COMMAND th-attack-modern-none --info)
  set_tests_properties(attacks.cli.info PROPERTIES
    PASS_REGULAR_EXPRESSION "^variant=modern config=none seed=-\n$" LABELS attacks)
  add_test(NAME attacks.cli.unknown_id
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_bin};--run;NO_SUCH_ATTACK" -DRC=2
            "-DSTDERR_REGEX=no attack 'NO_SUCH_ATTACK'" -P ${TH_RUN_EXPECT})
  add_test(NAME attacks.cli.not_applicable
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_bin};--run;MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4" -DRC=3
            "-DSTDERR_REGEX=not applicable on modern: modern timer_list has no .data" -P ${TH_RUN_EXPECT})
  add_test(NAME attacks.cli.usage
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_bin};--bogus" -DRC=2 "-DSTDERR_REGEX=usage: " -P ${TH_RUN_EXPECT})
  add_test(NAME attacks.cli.selftest_segv
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_bin};--run;SELFTEST_SEGV" "-DRC=Segmentation fault"
            -P ${TH_RUN_EXPECT})
  add_test(NAME attacks.cli.selftest_hang
    COMMAND ${CMAKE_COMMAND} "-DCMD=timeout;1;${_bin};--run;SELFTEST_HANG" -DRC=124
            -P ${TH_RUN_EXPECT})
  set_tests_properties(attacks.cli.unknown_id attacks.cli.not_applicable attacks.cli.usage
    attacks.cli.selftest_segv attacks.cli.selftest_hang PROPERTIES LABELS attacks TIMEOUT 30)
endif()

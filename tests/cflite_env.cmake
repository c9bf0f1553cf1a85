# SPDX-License-Identifier: MIT
# The environment OSS-Fuzz's builder gives .clusterfuzzlite/build.sh for a
# libFuzzer build with one sanitizer, as its images define it
# (infra/base-images/base-clang: CFLAGS; base-builder: SANITIZER_FLAGS_*,
# COVERAGE_FLAGS, COVERAGE_FLAGS_coverage; `compile` and `compile_libfuzzer`
# put them together: CFLAGS="$CFLAGS $SANITIZER_FLAGS $COVERAGE_FLAGS",
# LIB_FUZZING_ENGINE=-fsanitize=fuzzer). CXXFLAGS lack -stdlib=libc++:
# Debian's clang has no libc++ here, and nothing of ours is C++.
#   th_cflite_env(<sanitizer> <work dir> <cc> <cxx>)
#     sets ENV{CC CXX CCC CFLAGS CXXFLAGS LIB_FUZZING_ENGINE OUT SRC WORK
#     SANITIZER FUZZING_ENGINE FUZZING_LANGUAGE ARCHITECTURE UBSAN_OPTIONS}; OUT, SRC and
#     WORK are <work dir>/{out,src,work}, made here.
set(TH_CFLITE_SANITIZERS address undefined memory coverage)
function(th_cflite_env sanitizer dir cc cxx)
  set(base "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION")
  set(coverage "-fsanitize=fuzzer-no-link")
  if(sanitizer STREQUAL "address")
    set(san "-fsanitize=address -fsanitize-address-use-after-scope")
  elseif(sanitizer STREQUAL "undefined")
    set(list "array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow")
    set(san "-fsanitize=${list},unsigned-integer-overflow,unreachable,vla-bound,vptr -fno-sanitize-recover=${list},unreachable,vla-bound,vptr")
  elseif(sanitizer STREQUAL "memory")
    set(san "-fsanitize=memory -fsanitize-memory-track-origins")
  elseif(sanitizer STREQUAL "coverage")
    set(san "")
    set(coverage "-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument")
  else()
    message(FATAL_ERROR "th_cflite_env: no OSS-Fuzz sanitizer '${sanitizer}' (${TH_CFLITE_SANITIZERS})")
  endif()
  string(STRIP "${base} ${san} ${coverage}" flags)
  string(REGEX REPLACE "  +" " " flags "${flags}")
  file(MAKE_DIRECTORY ${dir}/out ${dir}/work ${dir}/src)
  set(ENV{CC} ${cc})
  set(ENV{CXX} ${cxx})
  set(ENV{CCC} ${cxx})
  set(ENV{CFLAGS} "${flags}")
  set(ENV{CXXFLAGS} "${flags}")
  set(ENV{LIB_FUZZING_ENGINE} "-fsanitize=fuzzer")
  set(ENV{OUT} ${dir}/out)
  set(ENV{SRC} ${dir}/src)
  set(ENV{WORK} ${dir}/work)
  set(ENV{SANITIZER} ${sanitizer})
  set(ENV{FUZZING_ENGINE} libfuzzer)
  set(ENV{FUZZING_LANGUAGE} c)
  set(ENV{ARCHITECTURE} x86_64)
  # base-builder's: unsigned-integer-overflow is a coverage signal there.
  set(ENV{UBSAN_OPTIONS} silence_unsigned_overflow=1)
  # A coverage build's programs that run during the build (build.sh) write
  # their profile into the work folder, not default.profraw in the checkout.
  set(ENV{LLVM_PROFILE_FILE} ${dir}/work/%p.profraw)
  unset(ENV{MAKEFLAGS})
endfunction()

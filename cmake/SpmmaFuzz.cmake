# Fuzz tests: a parser of untrusted input built with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, and run by ctest for a bounded time from a seed corpus.
#
#   spmma_find_fuzz_compiler()
#       Sets SPMMA_FUZZ_CXX to a clang++ that links -fsanitize=fuzzer,address,undefined, or
#       leaves it empty and says why (the fuzz tests are then skipped).
#
#   spmma_add_fuzz_test(NAME SOURCES src... [INCLUDES dir...] [DEFINES def...] [DICT file] [SECONDS s])
#       Builds fuzz_NAME from SOURCES (one of them defines LLVMFuzzerTestOneInput; paths relative
#       to the source tree, as INCLUDES and DICT are) with SPMMA_FUZZ_CXX, and adds the ctest
#       "fuzz: NAME ..." that runs it for SECONDS (default 30) from the seed corpus
#       tests/fuzz/corpus/NAME/ (new inputs go into the build tree, crashes too). The main build's
#       compiler plays no part: the objects are clang's own, so the rest of the tree is untouched.
#
# NOTES: the sources are compiled by custom commands rather than a second project so that adding
# a parser is one call; their header dependencies come from clang's depfiles. Call it from one
# folder (tests/fuzz): the objects fuzz tests share are made by that folder's build rules.

function(spmma_find_fuzz_compiler)
  set(SPMMA_FUZZ_CXX "" PARENT_SCOPE)
  find_program(SPMMA_CLANGXX NAMES clang++-14 clang++)
  if(NOT SPMMA_CLANGXX)
    message(STATUS "spmma: clang++ not found: the fuzz tests are skipped (apt-get install clang-14 libclang-rt-14-dev)")
    return()
  endif()
  set(probe ${CMAKE_BINARY_DIR}/CMakeFiles/spmma_fuzz_probe)
  file(WRITE ${probe}.cpp "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n")
  execute_process(COMMAND ${SPMMA_CLANGXX} -fsanitize=fuzzer,address,undefined ${probe}.cpp -o ${probe}
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(STATUS "spmma: ${SPMMA_CLANGXX} cannot link libFuzzer with the sanitizers: the fuzz tests are skipped "
                   "(apt-get install libclang-rt-14-dev)")
    return()
  endif()
  set(SPMMA_FUZZ_CXX ${SPMMA_CLANGXX} PARENT_SCOPE)
endfunction()

function(spmma_add_fuzz_test name)
  cmake_parse_arguments(ARG "" "DICT;SECONDS" "SOURCES;INCLUDES;DEFINES" ${ARGN})
  if(NOT SPMMA_FUZZ_CXX)
    return()
  endif()
  if(NOT ARG_SECONDS)
    set(ARG_SECONDS 30)
  endif()
  set(flags -std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all)
  foreach(dir ${ARG_INCLUDES})
    list(APPEND flags -I${PROJECT_SOURCE_DIR}/${dir})
  endforeach()
  foreach(def ${ARG_DEFINES})
    list(APPEND flags -D${def})
  endforeach()
  set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz_${name}.dir)
  # A source compiled with the same flags for another fuzz test is compiled once.
  string(MD5 flags_key "${flags}")
  set(objects "")
  foreach(src ${ARG_SOURCES})
    string(MAKE_C_IDENTIFIER ${src} stem)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/fuzz_objects/${flags_key}/${stem}.o)
    get_property(made DIRECTORY PROPERTY SPMMA_FUZZ_OBJECT_${flags_key}_${stem})
    if(NOT made)
      add_custom_command(OUTPUT ${obj}
        COMMAND ${SPMMA_FUZZ_CXX} ${flags} -fsanitize=fuzzer-no-link -MD -MF ${obj}.d -c ${PROJECT_SOURCE_DIR}/${src} -o ${obj}
        DEPENDS ${PROJECT_SOURCE_DIR}/${src} DEPFILE ${obj}.d
        COMMENT "clang (libFuzzer, ASan, UBSan): ${src}" VERBATIM)
      set_property(DIRECTORY PROPERTY SPMMA_FUZZ_OBJECT_${flags_key}_${stem} TRUE)
    endif()
    list(APPEND objects ${obj})
  endforeach()
  set(exe ${work}/fuzz_${name})
  add_custom_command(OUTPUT ${exe}
    COMMAND ${SPMMA_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${objects} -o ${exe}
    DEPENDS ${objects} COMMENT "linking fuzz_${name}" VERBATIM)
  add_custom_target(fuzz_${name} ALL DEPENDS ${exe})

  set(corpus ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${name})
  if(NOT IS_DIRECTORY ${corpus})
    message(FATAL_ERROR "spmma_add_fuzz_test(${name}): no seed corpus in ${corpus}")
  endif()
  file(MAKE_DIRECTORY ${work}/corpus ${work}/artifacts)
  set(run ${exe} -max_total_time=${ARG_SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix=${work}/artifacts/)
  if(ARG_DICT)
    list(APPEND run -dict=${PROJECT_SOURCE_DIR}/${ARG_DICT})
  endif()
  set(test "fuzz: ${name} runs ${ARG_SECONDS} s from its seed corpus with no crash, hang, leak or undefined behaviour")
  add_test(NAME ${test} COMMAND ${run} ${work}/corpus ${corpus})
  math(EXPR limit "${ARG_SECONDS} + 120")
  set_tests_properties(${test} PROPERTIES TIMEOUT ${limit} LABELS fuzz)
endfunction()

# merilo_fuzz_target(<name> SOURCES ... LIBS ... [SEEDED_BUG <violation>]
#                    [FUZZ_RUNS <n>])
#
# One fuzz target program, <fuzz-bin>/<name>. Defined both inside merilo's
# build (fuzz/CMakeLists.txt includes this file) and for a project that
# uses merilo through find_package(merilo) (the package config includes the
# installed copy), or through add_subdirectory.
#
# With MERILO_FUZZ=ON (clang) the target is a libFuzzer binary
# (-fsanitize=fuzzer); with MERILO_FUZZ_ENGINE it links that engine instead
# (OSS-Fuzz's $LIB_FUZZING_ENGINE, AFL++'s driver); otherwise it links
# merilo::fuzz_main and replays the files and directories it is given, so
# the same source builds with g++ too. Two tests: fuzz.<name>.seed seeds a
# corpus in the build tree (-merilo_seed) and fuzz.<name>.replay replays it
# (they run where the project called enable_testing()). A SEEDED_BUG target
# holds a bug its seeding search is bounded too small to reach: its seeding
# must report complete=false and no violation, and its seeds must replay
# clean (so the fuzzer, not the seeds, has to find the bug, within
# FUZZ_RUNS executions; merilo's `make fuzz-seeded` runs those).
#
# Every target is added to the `fuzz_targets` custom target, and its name
# is listed in <fuzz-bin>/targets.txt (or, with SEEDED_BUG,
# <fuzz-bin>/seeded-bugs.txt with the violation kind and FUZZ_RUNS).
# <fuzz-bin> is MERILO_FUZZ_BIN: merilo's build sets it to its fuzz-bin/;
# elsewhere it defaults to ${CMAKE_BINARY_DIR}/fuzz-bin.
include_guard(GLOBAL)

if(NOT DEFINED MERILO_FUZZ)
  set(MERILO_FUZZ OFF)
endif()
if(NOT DEFINED MERILO_FUZZ_ENGINE)
  set(MERILO_FUZZ_ENGINE "")
endif()
if(MERILO_FUZZ AND NOT MERILO_FUZZ_ENGINE AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MERILO_FUZZ=ON needs clang++ (libFuzzer); configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ or leave MERILO_FUZZ off to build replay drivers")
endif()

if(NOT DEFINED MERILO_FUZZ_BIN)
  set(MERILO_FUZZ_BIN ${CMAKE_BINARY_DIR}/fuzz-bin CACHE INTERNAL "")
endif()
file(MAKE_DIRECTORY ${MERILO_FUZZ_BIN})
file(WRITE ${MERILO_FUZZ_BIN}/targets.txt "")
file(WRITE ${MERILO_FUZZ_BIN}/seeded-bugs.txt "")
if(NOT TARGET fuzz_targets)
  add_custom_target(fuzz_targets)
endif()

function(merilo_fuzz_target name)
  cmake_parse_arguments(arg "" "SEEDED_BUG;FUZZ_RUNS" "SOURCES;LIBS" ${ARGN})
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "merilo_fuzz_target(${name}): SOURCES is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "merilo_fuzz_target(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(arg_SEEDED_BUG AND NOT arg_FUZZ_RUNS)
    message(FATAL_ERROR "merilo_fuzz_target(${name}): SEEDED_BUG needs FUZZ_RUNS")
  endif()
  add_executable(${name} ${arg_SOURCES})
  if(COMMAND merilo_warnings)  # merilo's own build: its warning set
    merilo_warnings(${name})
  endif()
  target_link_libraries(${name} PRIVATE merilo::fuzz ${arg_LIBS})
  if(MERILO_FUZZ_ENGINE)
    separate_arguments(engine UNIX_COMMAND "${MERILO_FUZZ_ENGINE}")
    target_link_libraries(${name} PRIVATE ${engine})
  elseif(MERILO_FUZZ)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_link_libraries(${name} PRIVATE merilo::fuzz_main)
  endif()
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${MERILO_FUZZ_BIN})
  add_dependencies(fuzz_targets ${name})
  if(arg_SEEDED_BUG)
    file(APPEND ${MERILO_FUZZ_BIN}/seeded-bugs.txt "${name} ${arg_SEEDED_BUG} ${arg_FUZZ_RUNS}\n")
  else()
    file(APPEND ${MERILO_FUZZ_BIN}/targets.txt "${name}\n")
  endif()
  # merilo's own targets get their tests with merilo's tests or examples; a
  # project using merilo gets them always (ctest runs them once the project
  # calls enable_testing()).
  # (merilo's own folders are the ones whose project() is merilo's.)
  if(PROJECT_NAME STREQUAL "merilo" AND NOT (MERILO_BUILD_TESTS OR MERILO_BUILD_EXAMPLES))
    return()
  endif()
  set(corpus ${CMAKE_CURRENT_BINARY_DIR}/${name}-corpus)
  add_test(NAME fuzz.${name}.seed COMMAND ${name} -merilo_seed=${corpus})
  add_test(NAME fuzz.${name}.replay COMMAND ${name} -runs=0 ${corpus})
  set_tests_properties(fuzz.${name}.seed PROPERTIES FIXTURES_SETUP fuzz.${name}.corpus)
  set_tests_properties(fuzz.${name}.replay PROPERTIES FIXTURES_REQUIRED fuzz.${name}.corpus)
  if(arg_SEEDED_BUG)
    set_tests_properties(fuzz.${name}.seed PROPERTIES
      PASS_REGULAR_EXPRESSION "search complete=false"
      FAIL_REGULAR_EXPRESSION "ERROR")
  endif()
endfunction()

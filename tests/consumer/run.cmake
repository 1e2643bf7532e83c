# cmake -DMODE=find_package|build_tree|add_subdirectory -DSOURCE=<merilo>
#       -DBUILD=<merilo build> -DWORK=<scratch dir> -DCXX=<compiler> -DCTEST=<ctest>
#       [-DSANITIZE=<the sanitizers merilo was built with>] -P run.cmake
#
# Configures, builds and runs tests/consumer/project against merilo: its
# explore program, and the seeding and replay of the fuzz target it builds
# with merilo_fuzz_target() (through its ctest, which must run 3 tests).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(args -DMERILO_CONSUME=${MODE} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(SANITIZE)
  # A sanitized merilo's objects call into the sanitizers' runtimes, so the
  # consumer (and, through add_subdirectory, its own merilo) is built and
  # linked with the same -fsanitize.
  list(APPEND args "-DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE} -fno-omit-frame-pointer"
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
    RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install of merilo failed (${rc})")
  endif()
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK}/prefix)
elseif(MODE STREQUAL "build_tree")
  list(APPEND args -Dmerilo_DIR=${BUILD})
else()
  # Only what the consumer links: a list value goes through an initial cache.
  file(WRITE ${WORK}/init.cmake "set(MERILO_COMPONENTS \"fsm;core;explore;fuzz;statem;linearize;parallel\" CACHE STRING \"\")\n")
  list(APPEND args -DMERILO_SOURCE_DIR=${SOURCE} -C ${WORK}/init.cmake)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/tests/consumer/project -B ${WORK}/build ${args}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer with ${MODE} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build -j 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer with ${MODE} failed")
endif()
execute_process(COMMAND ${CTEST} --test-dir ${WORK}/build --output-on-failure
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer built with ${MODE} failed its tests")
endif()
if(NOT out MATCHES "100% tests passed, 0 tests failed out of 4")
  message(FATAL_ERROR "the consumer built with ${MODE} did not run its 4 tests (the explorer, the GoogleTest glue, the fuzz target seeding and replaying)")
endif()
file(GLOB seeds ${WORK}/build/consumer_fuzz-corpus/*)
list(LENGTH seeds n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "the consumer's fuzz target seeded ${n} inputs, not one per tuple (3)")
endif()

# cmake -DMODE=find_package|add_subdirectory -DSOURCE=<merilo> -DBUILD=<merilo build>
#       -DWORK=<scratch dir> -DCXX=<compiler> -P run.cmake
#
# Configures, builds and runs tests/consumer/project against merilo.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(args -DMERILO_CONSUME=${MODE} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
    RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install of merilo failed (${rc})")
  endif()
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK}/prefix)
else()
  # Only what the consumer links: a list value goes through an initial cache.
  file(WRITE ${WORK}/init.cmake "set(MERILO_COMPONENTS \"fsm;core;explore\" CACHE STRING \"\")\n")
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
execute_process(COMMAND ${WORK}/build/consumer RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer built with ${MODE} failed")
endif()

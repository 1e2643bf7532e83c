# cmake -DEXE=<merilo-lincheck> -DA=<a|b|c> -DB=<a|b|c> [-DCODE=<exit>] -P same_output.cmake
#
# Runs the program with the arguments A and with B and fails unless both
# exit alike (with CODE, when given) and print the same standard output and
# standard error, but for the seconds taken ("0.00 s") and the file names
# given in A and B. How the JSON Lines and EDN twins of one history, and
# --jobs 1 against --jobs 2, are compared.
string(REPLACE "|" ";" a "${A}")
string(REPLACE "|" ";" b "${B}")
execute_process(COMMAND ${EXE} ${a} RESULT_VARIABLE code_a OUTPUT_VARIABLE out_a ERROR_VARIABLE err_a)
execute_process(COMMAND ${EXE} ${b} RESULT_VARIABLE code_b OUTPUT_VARIABLE out_b ERROR_VARIABLE err_b)
foreach(v out_a err_a out_b err_b)
  string(REGEX REPLACE "[0-9]+\\.[0-9][0-9] s" "X s" ${v} "${${v}}")
  string(REGEX REPLACE "[^ :]*\\.(jsonl|edn)" "FILE" ${v} "${${v}}")
endforeach()
set(shown "A: ${A}\nexit ${code_a}\n${out_a}${err_a}\nB: ${B}\nexit ${code_b}\n${out_b}${err_b}")
if(NOT code_a STREQUAL code_b OR NOT out_a STREQUAL out_b OR NOT err_a STREQUAL err_b)
  message(FATAL_ERROR "the two runs differ\n${shown}")
endif()
if(DEFINED CODE AND NOT code_a STREQUAL "${CODE}")
  message(FATAL_ERROR "expected exit ${CODE}\n${shown}")
endif()
if(out_a STREQUAL "")
  message(FATAL_ERROR "both runs printed nothing: the comparison would be vacuous\n${shown}")
endif()
message(STATUS "same output\n${shown}")

# Writes lib/libpasta_rt.a: a linker script (GNU ld, gold and lld read one
# wherever an archive may stand) that links the static host runtime from
# libpasta_rt_members.a, the real archive.
#
# Instrumented objects refer to the runtime weakly (passes/RuntimeBinding.cpp),
# and a weak reference extracts no archive member: a plain archive on the
# link line would contribute nothing, and the program would load
# libpasta_rt.so at run time instead. EXTERN() makes every one of the
# runtime's entry points (its global __pasta_* symbols) undefined, so a link
# that names libpasta_rt.a gets the whole runtime, as before.
#
#   cmake -DNM=<nm> -DMEMBERS=<libpasta_rt_members.a> -DOUT=<libpasta_rt.a>
#         -P runtime_archive_script.cmake
execute_process(COMMAND ${NM} -g --defined-only ${MEMBERS}
  OUTPUT_VARIABLE _pasta_nm RESULT_VARIABLE _pasta_rc)
if(NOT _pasta_rc EQUAL 0)
  message(FATAL_ERROR "runtime_archive_script: ${NM} failed on ${MEMBERS}")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [A-Z] __pasta_[A-Za-z0-9_]+" _pasta_defs
  "${_pasta_nm}")
set(_pasta_syms "")
foreach(_pasta_def IN LISTS _pasta_defs)
  string(REGEX REPLACE "^.* " "" _pasta_sym "${_pasta_def}")
  list(APPEND _pasta_syms "${_pasta_sym}")
endforeach()
list(REMOVE_DUPLICATES _pasta_syms)
list(SORT _pasta_syms)
list(LENGTH _pasta_syms _pasta_count)
if(_pasta_count LESS 10)
  message(FATAL_ERROR "runtime_archive_script: only ${_pasta_count} "
    "__pasta_* symbols in ${MEMBERS}")
endif()
string(REPLACE ";" "\n  " _pasta_list "${_pasta_syms}")
file(WRITE "${OUT}.tmp"
  "/* libpasta_rt.a: the PASTA host runtime, linked whole. A linker script\n"
  "   (written by cmake/runtime_archive_script.cmake): instrumented objects\n"
  "   refer to the runtime weakly, which extracts no archive member. */\n"
  "EXTERN(\n  ${_pasta_list}\n)\n"
  "INPUT(${MEMBERS})\n")
file(RENAME "${OUT}.tmp" "${OUT}")

# Helpers for PASTA's C targets (included by the top-level CMakeLists.txt).

# pasta_c_test(<name> SOURCES <files...> [LIBS <libs...>] [OPTIONS <flags...>]
#              [NO_SANITIZE])
# A C11 unit-test executable. Tests compile the library sources themselves
# (never the libraries' objects), so that PASTA_SANITIZE instruments the
# test with AddressSanitizer and UBSan and never libpasta_rt.
function(pasta_c_test name)
  cmake_parse_arguments(T "NO_SANITIZE" "" "SOURCES;LIBS;OPTIONS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  set_target_properties(${name} PROPERTIES C_STANDARD 11
    C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(${name} PRIVATE ${T_OPTIONS})
  target_link_libraries(${name} PRIVATE ${T_LIBS})
  if(PASTA_SANITIZE AND NOT T_NO_SANITIZE)
    set(flags -fsanitize=address,undefined -fno-omit-frame-pointer
              -fno-sanitize-recover=all)
    target_compile_options(${name} PRIVATE ${flags})
    target_link_options(${name} PRIVATE ${flags})
  endif()
endfunction()

# pasta_c_objects(<name> <files...>): an object library of PASTA's C code,
# position independent (it goes into libpasta_rt.so too).
function(pasta_c_objects name)
  add_library(${name} OBJECT ${ARGN})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
    C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
endfunction()

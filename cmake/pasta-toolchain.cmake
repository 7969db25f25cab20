# PASTA toolchain file: builds a CMake project's C, C++ and CUDA targets with
# clang-22 / clang++-22 and the PASTA plugin, and links the runtime
# (libpasta_rt.so, found through an rpath: one runtime per process) and the
# wrappers of cudaDeviceReset/hipDeviceReset (libpasta_glue.a) into every
# executable and shared library, as scripts/pasta-clang++ does.
#
#   cmake -S app -B app/build \
#         -DCMAKE_TOOLCHAIN_FILE=<pasta>/cmake/pasta-toolchain.cmake \
#         [-DPASTA_LINES='kernel.cu:40-60'] [-DPASTA_KERNELS='^axpy$'] \
#         [-DPASTA_HOST=ON] [-DPASTA_BUILD_DIR=<pasta>/build]
#
# Cache variables (docs/user-guide.md):
#   PASTA_BUILD_DIR    the PASTA build with lib/libpasta.so,
#                      lib/libpasta_rt.so and lib/libpasta_glue.a
#                      (default: <this repo>/build)
#   PASTA_CUDA_PATH    the CUDA toolkit (default: /usr/local/cuda)
#   PASTA_LINES        as the PASTA_LINES environment variable
#   PASTA_KERNELS      as the PASTA_KERNELS environment variable
#   PASTA_HOST         ON: also count host functions (as PASTA_HOST=1)
#   PASTA_LINE_TABLES  ON (default; the environment variable of that name,
#                      as pasta-clang and pasta-nvcc read it, at the first
#                      configure): add -gline-tables-only, so that counts
#                      are tied to source lines in any build type
# An empty option adds no flag, so the environment variable of the same
# name still works at build time. Options become
# `-Xclang -mllvm -Xclang '-pasta-<option>=VALUE'` compile flags (the form
# that reaches the plugin in CUDA and HIP builds alike), single-quoted for
# the shell (a value cannot contain a single quote; a "$" is written "$$" for
# Ninja and Make).
#
# The flags go into CMAKE_<LANG>_FLAGS_INIT; if CMAKE_<LANG>_FLAGS is already
# in the cache (a second configure, or -DCMAKE_CUDA_FLAGS=... on the command
# line), the PASTA part of it is replaced on every configure, so changing
# PASTA_LINES and re-running cmake takes effect and user flags are kept.
#
# CUDA compiles also search <PASTA_CUDA_PATH>/include/cccl (Thrust, CUB and
# libcu++ in CUDA 13), as nvcc does.
#
# CMAKE_CUDA_ARCHITECTURES defaults to 90 (clang's own default, sm_52, is not
# in CUDA 13). CMake itself links CUDA executables with cudart_static, rt,
# pthread and dl (CMAKE_CUDA_RUNTIME_LIBRARY, default Static).
#
# Relocatable device code (CUDA_SEPARABLE_COMPILATION ON): CMake compiles
# such targets with -fgpu-rdc, but its own device-link step (nvlink, then
# `fatbinary -im`, an option CUDA 13 removed) cannot handle clang 22's
# objects. So device linking is left to clang, as with plain clang: CMake's
# step is off (CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS), and targets with
# separable compilation link with `-fgpu-rdc --offload-link`, which device-
# links every object and static-library member the link pulls in.

# CMake reads a toolchain file again in every try_compile project, where the
# main project's cache is not visible: these variables are forwarded.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES
  PASTA_BUILD_DIR PASTA_CUDA_PATH PASTA_LINES PASTA_KERNELS PASTA_HOST
  PASTA_LINE_TABLES PASTA_CUDA_ARCHITECTURES)

get_filename_component(_pasta_repo "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(PASTA_BUILD_DIR "${_pasta_repo}/build" CACHE PATH
  "PASTA build directory (holds lib/libpasta.so and lib/libpasta_rt.a)")
set(PASTA_CUDA_PATH "/usr/local/cuda" CACHE PATH "CUDA toolkit used by clang")
set(PASTA_LINES "" CACHE STRING
  "PASTA: source lines to instrument, e.g. kernel.cu:40-60 (empty: all)")
set(PASTA_KERNELS "" CACHE STRING
  "PASTA: regular expression over the kernels to instrument (empty: all)")
set(PASTA_HOST "" CACHE STRING
  "PASTA: ON to also count host functions (empty: PASTA_HOST at build time)")
# The default follows the PASTA_LINE_TABLES environment variable, as
# pasta-clang and pasta-nvcc read it (PASTA_LINE_TABLES=0: off).
set(_pasta_line_tables ON)
if(NOT "$ENV{PASTA_LINE_TABLES}" STREQUAL "")
  set(_pasta_line_tables "$ENV{PASTA_LINE_TABLES}")
endif()
set(PASTA_LINE_TABLES ${_pasta_line_tables} CACHE BOOL
  "PASTA: compile with -gline-tables-only (per-line counts in any build type)")
set(PASTA_CUDA_ARCHITECTURES "" CACHE STRING
  "PASTA: build CUDA code for these only, e.g. 90 or 90;100, whatever the project sets (empty: the project's list)")

set(_pasta_plugin "${PASTA_BUILD_DIR}/lib/libpasta.so")
set(_pasta_rt "${PASTA_BUILD_DIR}/lib/libpasta_rt.so")
set(_pasta_glue "${PASTA_BUILD_DIR}/lib/libpasta_glue.a")
foreach(_pasta_file IN ITEMS "${_pasta_plugin}" "${_pasta_rt}" "${_pasta_glue}")
  if(NOT EXISTS "${_pasta_file}")
    message(FATAL_ERROR "pasta-toolchain: ${_pasta_file} does not exist: "
      "build PASTA first (scripts/build.sh) or set PASTA_BUILD_DIR")
  endif()
endforeach()

# ccache keys a compile by its command line and the compiler, not by the
# pass plugin a -fpass-plugin= names: after PASTA is rebuilt or upgraded it
# would return objects the earlier plugin instrumented (of another ABI
# version they then run uninstrumented, with the runtime's warning; of the
# same, silently with the earlier instrumentation). Where a project's
# compiler launcher is ccache (CMAKE_<LANG>_COMPILER_LAUNCHER, as a CMake
# variable or from the environment), it runs with the plugin among the
# files it hashes (CCACHE_EXTRAFILES).
foreach(_pasta_lang IN ITEMS C CXX CUDA)
  set(_pasta_launcher "${CMAKE_${_pasta_lang}_COMPILER_LAUNCHER}")
  if(_pasta_launcher STREQUAL "")
    set(_pasta_launcher "$ENV{CMAKE_${_pasta_lang}_COMPILER_LAUNCHER}")
  endif()
  set(_pasta_first "")
  if(NOT _pasta_launcher STREQUAL "")
    list(GET _pasta_launcher 0 _pasta_first)
    get_filename_component(_pasta_first "${_pasta_first}" NAME)
  endif()
  if(_pasta_first STREQUAL "ccache")
    set(CMAKE_${_pasta_lang}_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;CCACHE_EXTRAFILES=${_pasta_plugin};${_pasta_launcher}")
  endif()
endforeach()

find_program(PASTA_C_COMPILER NAMES clang-22 PATHS /usr/lib/llvm-22/bin REQUIRED)
find_program(PASTA_CXX_COMPILER NAMES clang++-22 PATHS /usr/lib/llvm-22/bin REQUIRED)
# C and C++ through CC and CXX, which CMake reads only when the project
# enables the language: a project of `LANGUAGES CUDA` alone must not see
# CMAKE_C_COMPILER set, or find_package(CUDAToolkit) asks FindThreads,
# which stops at "FindThreads only works if either C or CXX language is
# enabled" (NVIDIA's lineOfSight sample; with nvcc it configures).
set(ENV{CC} "${PASTA_C_COMPILER}")
set(ENV{CXX} "${PASTA_CXX_COMPILER}")
set(CMAKE_CUDA_COMPILER "${PASTA_CXX_COMPILER}")
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
# CMake finds the toolkit for clang through nvcc under CUDAToolkit_ROOT.
if(NOT DEFINED CUDAToolkit_ROOT)
  set(CUDAToolkit_ROOT "${PASTA_CUDA_PATH}")
endif()
# CMake before 3.27 identifies clang as a CUDA compiler by building a test
# program for sm_52, sm_30 or sm_20, none of which CUDA 13 supports (ptxas:
# "Value 'sm_52' is not defined for option 'gpu-name'"). It appends those
# attempts to this internal list, so an attempt for our first architecture
# comes first.
list(GET CMAKE_CUDA_ARCHITECTURES 0 _pasta_arch)
string(REGEX REPLACE "-(real|virtual)$" "" _pasta_arch "${_pasta_arch}")
if(_pasta_arch MATCHES "^[0-9]+a?$")
  set(CMAKE_CUDA_COMPILER_ID_TEST_FLAGS_FIRST
    "--cuda-path=\"${PASTA_CUDA_PATH}\" --cuda-gpu-arch=sm_${_pasta_arch}")
endif()

# The flags PASTA adds: what the regular expressions below remove again.
# _pasta_cuda_own: the same CUDA flags, one '--pasta-flag=ARG' each
# (single-quoted for sh; a string, not a list: PASTA_LINES holds ";"), as
# the CUDA compiler script gives them to pasta-cuda-launcher (below).
set(_pasta_options "")
set(_pasta_cuda_own "'--pasta-flag=-fpass-plugin=${_pasta_plugin}'")
foreach(_pasta_opt IN ITEMS LINES KERNELS)
  if(NOT PASTA_${_pasta_opt} STREQUAL "")
    if(PASTA_${_pasta_opt} MATCHES "'")
      message(FATAL_ERROR "pasta-toolchain: PASTA_${_pasta_opt} cannot "
        "contain a single quote")
    endif()
    string(TOLOWER "${_pasta_opt}" _pasta_name)
    # Ninja and Make both read "$$" as a literal "$" (e.g. '^axpy$').
    string(REPLACE "$" "$$" _pasta_value "${PASTA_${_pasta_opt}}")
    string(APPEND _pasta_options
      " -Xclang -mllvm -Xclang '-pasta-${_pasta_name}=${_pasta_value}'")
    string(APPEND _pasta_cuda_own " '--pasta-flag=-Xclang'"
      " '--pasta-flag=-mllvm' '--pasta-flag=-Xclang'"
      " '--pasta-flag=-pasta-${_pasta_name}=${PASTA_${_pasta_opt}}'")
  endif()
endforeach()
if(NOT PASTA_HOST STREQUAL "")
  if(PASTA_HOST)
    string(APPEND _pasta_options " -Xclang -mllvm -Xclang '-pasta-host=true'")
    string(APPEND _pasta_cuda_own " '--pasta-flag=-Xclang'"
      " '--pasta-flag=-mllvm' '--pasta-flag=-Xclang'"
      " '--pasta-flag=-pasta-host=true'")
  else()
    string(APPEND _pasta_options " -Xclang -mllvm -Xclang '-pasta-host=false'")
    string(APPEND _pasta_cuda_own " '--pasta-flag=-Xclang'"
      " '--pasta-flag=-mllvm' '--pasta-flag=-Xclang'"
      " '--pasta-flag=-pasta-host=false'")
  endif()
endif()
set(_pasta_common "-fpass-plugin=${_pasta_plugin}")
if(PASTA_LINE_TABLES)
  string(APPEND _pasta_common " -gline-tables-only")
  string(APPEND _pasta_cuda_own " '--pasta-flag=-gline-tables-only'")
endif()
string(APPEND _pasta_cuda_own " '--pasta-flag=--cuda-path=${PASTA_CUDA_PATH}'"
  " '--pasta-flag=-Wno-unknown-cuda-version'")

foreach(_pasta_lang IN ITEMS C CXX CUDA)
  set(_pasta_flags "${_pasta_common}")
  if(_pasta_lang STREQUAL "CUDA")
    string(APPEND _pasta_flags
      " --cuda-path=${PASTA_CUDA_PATH} -Wno-unknown-cuda-version")
    # CUDA 13 keeps Thrust, CUB and libcu++ under include/cccl, which nvcc
    # searches and clang does not.
    if(IS_DIRECTORY "${PASTA_CUDA_PATH}/include/cccl")
      string(APPEND _pasta_flags " -isystem ${PASTA_CUDA_PATH}/include/cccl")
      string(APPEND _pasta_cuda_own " '--pasta-flag=-isystem'"
        " '--pasta-flag=${PASTA_CUDA_PATH}/include/cccl'")
    endif()
    # Launches written `kernel << <grid, block >> > (args)`, which nvcc
    # reads: clang does with PASTA's frontend plugin.
    if(EXISTS "${PASTA_BUILD_DIR}/lib/libpasta-frontend.so")
      string(APPEND _pasta_flags
        " -fplugin=${PASTA_BUILD_DIR}/lib/libpasta-frontend.so")
      string(APPEND _pasta_cuda_own
        " '--pasta-flag=-fplugin=${PASTA_BUILD_DIR}/lib/libpasta-frontend.so'")
    endif()
  endif()
  string(APPEND _pasta_flags "${_pasta_options}")
  set(CMAKE_${_pasta_lang}_FLAGS_INIT "${_pasta_flags}")
  if(DEFINED CACHE{CMAKE_${_pasta_lang}_FLAGS})
    set(_pasta_old "$CACHE{CMAKE_${_pasta_lang}_FLAGS}")
    set(_pasta_user "${_pasta_old}")
    foreach(_pasta_re IN ITEMS
        "-fpass-plugin=[^ ]*libpasta\\.so"
        "-fplugin=[^ ]*libpasta-frontend\\.so"
        "-Xclang -mllvm -Xclang '-pasta-[a-z]+=[^']*'"
        "-gline-tables-only" "--cuda-path=[^ ]*" "-Wno-unknown-cuda-version"
        "-isystem [^ ]*/include/cccl")
      string(REGEX REPLACE "(^| )${_pasta_re}( |$)" " " _pasta_user
        "${_pasta_user}")
      string(REGEX REPLACE "(^| )${_pasta_re}( |$)" " " _pasta_user
        "${_pasta_user}")
    endforeach()
    string(STRIP "${_pasta_user}" _pasta_user)
    string(REGEX REPLACE "  +" " " _pasta_user "${_pasta_user}")
    set(_pasta_new "${_pasta_flags}")
    if(NOT _pasta_user STREQUAL "")
      string(APPEND _pasta_new " ${_pasta_user}")
    endif()
    if(NOT _pasta_new STREQUAL _pasta_old)
      set(CMAKE_${_pasta_lang}_FLAGS "${_pasta_new}" CACHE STRING
        "Flags used by the ${_pasta_lang} compiler during all build types."
        FORCE)
    endif()
  endif()
  # After everything else on each link line: the reset wrappers (only a
  # link that calls cudaDeviceReset or hipDeviceReset pulls one in) and the
  # runtime, which needs nothing but libc (needed even where the linker
  # runs --as-needed: instrumented objects refer to it weakly).
  set(CMAKE_${_pasta_lang}_STANDARD_LIBRARIES_INIT
    "${_pasta_glue} -Wl,--push-state,--no-as-needed ${_pasta_rt} -Wl,--pop-state -Wl,-rpath,${PASTA_BUILD_DIR}/lib -Wl,--wrap=cudaDeviceReset -Wl,--wrap=hipDeviceReset")
endforeach()

# Projects written for nvcc: their CUDA flags (target_compile_options,
# CMAKE_CUDA_FLAGS) may hold options only nvcc has (--extended-lambda,
# -lineinfo, -Xcompiler=..., -use_fast_math), their own
# CMAKE_CUDA_ARCHITECTURES list architectures clang-22 cannot build
# (sm_110), and their own commands may call ${CMAKE_CUDA_COMPILER} with
# nvcc's options (`-gencode=... -fatbin` for a module loaded at run time).
# So the CUDA compiler is a small script in the build tree that runs clang
# through pasta-cuda-launcher (driver/), which maps or drops the nvcc-only
# options, drops each architecture clang cannot build with one warning,
# builds -fatbin/-cubin/-ptx outputs, optimizes device code as nvcc does and
# gives host code nvcc's min/max (docs/nvcc.md). With
# PASTA_CUDA_ARCHITECTURES set, it builds for those only: a project's own
# list wins over -DCMAKE_CUDA_ARCHITECTURES, and building every sample for
# eight architectures is rarely what a profiling build wants.
set(_pasta_launcher "${PASTA_BUILD_DIR}/bin/pasta-cuda-launcher")
if(EXISTS "${_pasta_launcher}")
  set(_pasta_only "")
  if(PASTA_CUDA_ARCHITECTURES)
    string(REPLACE ";" "," _pasta_only "${PASTA_CUDA_ARCHITECTURES}")
    set(_pasta_only "'--pasta-archs=${_pasta_only}' ")
  endif()
  # The toolchain's CUDA flags again, for the launcher to add to a compile
  # without the plugin: a project that sets CMAKE_CUDA_FLAGS before
  # enable_language(CUDA) (miniBUDE) hides CMAKE_CUDA_FLAGS_INIT, and its
  # kernels compiled without PASTA, or not at all (no value holds a single
  # quote: checked above).
  set(_pasta_own "${_pasta_cuda_own} ")
  set(_pasta_cuda_compiler "${CMAKE_BINARY_DIR}/pasta-cuda-clang++")
  file(WRITE "${_pasta_cuda_compiler}.tmp" "#!/bin/sh\n"
    "# Written by cmake/pasta-toolchain.cmake: the CUDA compiler.\n"
    "exec '${_pasta_launcher}' ${_pasta_only}${_pasta_own}"
    "'${PASTA_CXX_COMPILER}' \"$@\"\n")
  file(CHMOD "${_pasta_cuda_compiler}.tmp" PERMISSIONS OWNER_READ OWNER_WRITE
    OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  file(RENAME "${_pasta_cuda_compiler}.tmp" "${_pasta_cuda_compiler}")
  set(CMAKE_CUDA_COMPILER "${_pasta_cuda_compiler}")
else()
  # A PASTA build of some targets only (scripts/build.sh with
  # PASTA_BUILD_TARGETS="pasta pasta_rt") has no launcher: clang is then the
  # CUDA compiler as it is, and a project's nvcc-only options fail
  # ("clang++-22: error: unknown argument: '-rdc=true'"). Said once, not
  # again in each try_compile project.
  get_property(_pasta_told GLOBAL PROPERTY PASTA_TOLD_NO_LAUNCHER)
  get_property(_pasta_in_try GLOBAL PROPERTY IN_TRY_COMPILE)
  if(NOT _pasta_told AND NOT _pasta_in_try)
    set_property(GLOBAL PROPERTY PASTA_TOLD_NO_LAUNCHER ON)
    message(WARNING "pasta-toolchain: no ${_pasta_launcher} (build the "
      "target pasta-cuda-launcher): clang is the CUDA compiler without it, "
      "and nvcc-only options in the project's CUDA flags will fail")
  endif()
endif()

# Projects of CMake's FindCUDA module (find_package(CUDA), then
# cuda_add_executable/cuda_add_library) compile their .cu files with
# CUDA_NVCC_EXECUTABLE, not CMAKE_CUDA_COMPILER: without this they ran the
# real nvcc with clang-22 as its host compiler (`-ccbin`), which nvcc 13
# refuses. FindCUDA takes the environment variable when the cache has no
# CUDA_NVCC_EXECUTABLE yet (a user's -DCUDA_NVCC_EXECUTABLE still wins).
# The host flags it forwards through -Xcompiler hold the plugin again;
# pasta-clang++ loads it once.
if(NOT DEFINED ENV{CUDA_NVCC_EXECUTABLE})
  set(ENV{CUDA_NVCC_EXECUTABLE} "${PASTA_BUILD_DIR}/bin/pasta-nvcc")
endif()

# A project that sets CMAKE_CUDA_COMPILER itself (hardware-effects-gpu:
# `set(CMAKE_CUDA_COMPILER ${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc)` before
# enable_language(CUDA)) would replace the toolchain's compiler with nvcc,
# which then fails CMake's compiler check on the toolchain's clang flags.
# The toolchain's compiler is kept, with a warning naming the project's.
# Sets made by this file (CMake reads it more than once) and a try_compile
# project's own copy of the compiler script are the toolchain's. One watch;
# the compiler in a global property (the watch runs in the scope of the
# set() it watches).
set_property(GLOBAL PROPERTY PASTA_CUDA_COMPILER "${CMAKE_CUDA_COMPILER}")
macro(_pasta_keep_cuda_compiler _pasta_var _pasta_access _pasta_value)
  get_property(_pasta_ours GLOBAL PROPERTY PASTA_CUDA_COMPILER)
  get_filename_component(_pasta_from "${CMAKE_CURRENT_LIST_FILE}" NAME)
  get_filename_component(_pasta_to "${_pasta_value}" NAME)
  if(NOT "${_pasta_access}" STREQUAL "MODIFIED_ACCESS" OR
     "${_pasta_value}" STREQUAL "${_pasta_ours}")
  elseif(_pasta_from STREQUAL "pasta-toolchain.cmake")
    set_property(GLOBAL PROPERTY PASTA_CUDA_COMPILER "${_pasta_value}")
  elseif(NOT _pasta_to STREQUAL "pasta-cuda-clang++")
    message(WARNING "pasta-toolchain: the project sets CMAKE_CUDA_COMPILER "
      "to ${_pasta_value}; kept PASTA's (${_pasta_ours})")
    set(CMAKE_CUDA_COMPILER "${_pasta_ours}")
  endif()
endmacro()
get_property(_pasta_watching GLOBAL PROPERTY PASTA_WATCHING_CUDA_COMPILER)
if(NOT _pasta_watching)
  set_property(GLOBAL PROPERTY PASTA_WATCHING_CUDA_COMPILER ON)
  variable_watch(CMAKE_CUDA_COMPILER _pasta_keep_cuda_compiler)
endif()

# Relocatable device code: clang device-links at the final link (see above).
set(CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS OFF)
# On the target's separable compilation alone, not on its link language: a
# target with C++ sources beside its CUDA ones links with the C++ compiler
# (CMake prefers it), and still needs the device link.
# CUDA's device runtime (libcudadevrt.a: dynamic parallelism, kernels
# launched from kernels) is linked on the device side, as CMake and nvcc do
# for separable compilation.
set(_pasta_device_link "-fgpu-rdc;--offload-link;SHELL:-Xoffload-linker -L${PASTA_CUDA_PATH}/lib64;SHELL:-Xoffload-linker -lcudadevrt")
add_link_options("$<$<BOOL:$<TARGET_PROPERTY:CUDA_SEPARABLE_COMPILATION>>:${_pasta_device_link}>")

# A target without separable compilation that links a static or object
# library with it needs the device link too: CMake device-links such an
# executable or shared library for nvcc (Altis: every benchmark's library
# is separable, the executables are not). The link options above see the
# linking target's own property only; without this its kernels were never
# registered (no device image: every launch failed). So each such library
# hands the device link to whatever executable or shared library links it,
# once every directory has been read.
# clang's linker wrapper takes an archive member's device code only when it
# defines a device symbol an earlier input needs: an executable whose own
# objects hold no relocatable device code (non-rdc main.cu, a .cpp) would
# link none of the library's kernels. nvcc's device link takes them all;
# `--should-extract=sm_NN` makes the wrapper do so for the library's
# architectures (PASTA_CUDA_ARCHITECTURES, else its CUDA_ARCHITECTURES;
# `all`, `all-major` and `native` as CMake expands them). A library none of
# whose architectures is a number is named: its executables would again
# link its kernels only where they need one of its device symbols.
function(_pasta_extract_options _pasta_target _pasta_out)
  set(_pasta_archs "${PASTA_CUDA_ARCHITECTURES}")
  if(NOT _pasta_archs)
    get_target_property(_pasta_archs ${_pasta_target} CUDA_ARCHITECTURES)
  endif()
  list(TRANSFORM _pasta_archs REPLACE "^all$" "${CMAKE_CUDA_ARCHITECTURES_ALL}")
  list(TRANSFORM _pasta_archs REPLACE "^all-major$"
    "${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR}")
  list(TRANSFORM _pasta_archs REPLACE "^native$"
    "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  set(_pasta_options "")
  foreach(_pasta_arch IN LISTS _pasta_archs)
    if(_pasta_arch MATCHES "^([0-9]+[af]?)(-real|-virtual)?$")
      string(APPEND _pasta_options ";-Wl,--should-extract=sm_${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT _pasta_options)
    message(WARNING "pasta-toolchain: ${_pasta_target}'s CUDA architectures "
      "name no sm_NN: executables that link it take its kernels only where "
      "they need one of its device symbols (set CMAKE_CUDA_ARCHITECTURES or "
      "PASTA_CUDA_ARCHITECTURES to numbers)")
  endif()
  set(${_pasta_out} "${_pasta_options}" PARENT_SCOPE)
endfunction()

function(_pasta_device_link_consumers)
  get_property(_pasta_link GLOBAL PROPERTY PASTA_DEVICE_LINK)
  set(_pasta_dirs "${CMAKE_SOURCE_DIR}")
  while(_pasta_dirs)
    list(POP_FRONT _pasta_dirs _pasta_dir)
    get_property(_pasta_sub DIRECTORY "${_pasta_dir}" PROPERTY SUBDIRECTORIES)
    list(APPEND _pasta_dirs ${_pasta_sub})
    get_property(_pasta_targets DIRECTORY "${_pasta_dir}"
      PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_pasta_target IN LISTS _pasta_targets)
      get_target_property(_pasta_type ${_pasta_target} TYPE)
      get_target_property(_pasta_rdc ${_pasta_target} CUDA_SEPARABLE_COMPILATION)
      if(_pasta_rdc AND _pasta_type MATCHES "^(STATIC|OBJECT)_LIBRARY$")
        _pasta_extract_options(${_pasta_target} _pasta_extract)
        target_link_options(${_pasta_target} INTERFACE
          "$<$<IN_LIST:$<TARGET_PROPERTY:TYPE>,EXECUTABLE;SHARED_LIBRARY;MODULE_LIBRARY>:${_pasta_link}${_pasta_extract}>")
      endif()
    endforeach()
  endwhile()
endfunction()
set_property(GLOBAL PROPERTY PASTA_DEVICE_LINK "${_pasta_device_link}")
get_property(_pasta_deferred GLOBAL PROPERTY PASTA_DEVICE_LINK_DEFERRED)
if(NOT _pasta_deferred)
  set_property(GLOBAL PROPERTY PASTA_DEVICE_LINK_DEFERRED ON)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL _pasta_device_link_consumers)
endif()

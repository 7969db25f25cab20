/* The shared library of the exit-path test: its own fake vendor runtime
 * and module (kernel lib_kernel), as a library that links its own CUDA
 * runtime has. The program dlopen's it, calls lib_run and dlclose's it. */
#define FAKE_PREFIX libfake_
#define FAKE_FUNC "lib_kernel"
#define FAKE_FILE "exit_lib.cu"
#include "fake_vendor.h"

int lib_run(uint32_t blocks);
int lib_run(uint32_t blocks) { return libfake_run(blocks); }

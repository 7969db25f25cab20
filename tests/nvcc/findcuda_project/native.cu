// The same kernel as a target of CMake's CUDA language
// (tests/nvcc/findcuda_project): FindCUDA marks the .cu files it compiles
// as headers for every other target, so this file includes scale.cu.
#include "scale.cu"

/*===- builtin.c - The list of PASTA's own analyzers ----------------------===*/
#include "builtin.h"

const pasta__builtin_analyzer pasta__builtin_analyzers[] = {
    {&pasta__tables_analyzer, NULL},
    {&pasta__kernels_analyzer, NULL},
    {&pasta__working_set_analyzer, NULL},
    {&pasta__bandwidth_analyzer, NULL},
    {&pasta__trace_analyzer, &pasta__trace_hooks},
};

const size_t pasta__num_builtin_analyzers =
    sizeof pasta__builtin_analyzers / sizeof pasta__builtin_analyzers[0];

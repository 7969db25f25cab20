// The project's entry points, called from main.cpp (a host file).
#pragma once
#include <cstddef>

void run_saxpy(float a, const float *x, float *y, size_t n);
long long run_thrust_sum(size_t n);
void run_scale_twice(float *y, size_t n);

// Thrust from the CUDA toolkit (CUDA 13 keeps it under include/cccl).
#include "kernels.h"

#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

long long run_thrust_sum(size_t n) {
  thrust::device_vector<long long> v(n);
  thrust::sequence(v.begin(), v.end());
  return thrust::reduce(v.begin(), v.end(), 0LL);
}

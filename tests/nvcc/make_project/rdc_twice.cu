// A __device__ function called from another file (relocatable device code).
__device__ float twice(float v) { return 2.0f * v; }

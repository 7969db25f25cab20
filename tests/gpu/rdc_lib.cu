// Relocatable device code (-fgpu-rdc), translation unit 1 of 2: a kernel and
// its launcher. With rdc, clang's linker wrapper registers every module's
// kernels and variables at link time; PASTA's descriptor of each unit must
// be registered the same way (HostRegistration.cpp, offloading entries).
// Expected (tests/gpu/rdc_main.cu runs both kernels once, 32 threads each):
// add_one: 1 launch, 128 B loaded, 128 B stored, 32 f32 FLOPs.
__global__ void add_one(float *x) { x[threadIdx.x] += 1.0f; }

void launch_add_one(float *x) { add_one<<<1, 32>>>(x); }

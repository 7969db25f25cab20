; A host module's calls to the host runtime go through slots of its own,
; filled at load time (RuntimeBinding.cpp): the runtime's functions and its
; ABI symbol are weak (a link without the runtime succeeds), each call loads
; its slot, each slot starts at a lazy stub that binds first, and the binder
; takes the weak address, else dlsym's, else the fallback (a wrapper's calls
; the function it wraps; anything else does nothing). Without a runtime in
; the process it dlopens $PASTA_RUNTIME, else the recorded path.
; RUN: %opt -passes=pasta -pasta-host -pasta-runtime=/opt/pasta/lib/libpasta_rt.so -S %s 2>/dev/null | FileCheck %s
; The path by default: the libpasta_rt.so beside the plugin.
; RUN: %opt -passes=pasta -pasta-host -S %s 2>/dev/null | FileCheck %s --check-prefix=DEFAULT
; A module that calls no runtime function is left alone.
; RUN: %opt -passes=pasta -pasta-intercept=0 -S %s | FileCheck %s --check-prefix=NONE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-DAG: @__pasta_abi_v{{[0-9]+}} = extern_weak global i8
; CHECK-DAG: @__pasta_rt_slots.[[ID:[0-9a-f]+]] = internal global [4 x ptr] [ptr @__pasta_rt_lazy.__pasta_register_host_module, ptr @__pasta_rt_lazy.__pasta_malloc, ptr @__pasta_rt_lazy.__pasta_device_synchronize, ptr @__pasta_rt_lazy.__pasta_main_exit]
; CHECK-DAG: @__pasta_rt_weak.[[ID]] = internal constant [4 x ptr] [ptr @__pasta_register_host_module, ptr @__pasta_malloc, ptr @__pasta_device_synchronize, ptr @__pasta_main_exit]
; CHECK-DAG: @__pasta_rt_fallbacks.[[ID]] = internal constant [4 x ptr] [ptr @__pasta_rt_fallback.__pasta_register_host_module, ptr @__pasta_rt_fallback.__pasta_malloc,
; CHECK-DAG: @__pasta_rt_env = private unnamed_addr constant [14 x i8] c"PASTA_RUNTIME\00"
; CHECK-DAG: @__pasta_rt_path = private unnamed_addr constant {{.*}} c"/opt/pasta/lib/libpasta_rt.so\00"
; CHECK-DAG: @__pasta_rt_soname = private unnamed_addr constant {{.*}} c"libpasta_rt.so\00"
; CHECK-DAG: @llvm.global_ctors = {{.*}} ptr @__pasta_host_ctor_[[ID]], {{.*}} ptr @__pasta_rt_bind.[[ID]],
; DEFAULT: @__pasta_rt_path = private unnamed_addr constant {{.*}} c"{{.*}}/lib/libpasta_rt.so\00"
; NONE-NOT: __pasta_rt

declare i32 @cudaMalloc(ptr, i64)
declare i32 @cudaDeviceSynchronize()

; No call names a runtime function: each loads its slot.
; CHECK-LABEL: define i32 @main(
; CHECK-NOT: call {{[^(]*}}@__pasta_
; CHECK: [[M:%[0-9]+]] = load atomic ptr, ptr getelementptr inbounds ([4 x ptr], ptr @__pasta_rt_slots.[[ID]], i32 0, i32 1) unordered
; CHECK-NEXT: %a = call i32 [[M]](ptr %p, i64 1024, ptr @cudaMalloc, ptr @__pasta_cuda_ops)
; CHECK-NOT: call {{[^(]*}}@__pasta_
; CHECK: [[E:%[0-9]+]] = load atomic ptr, ptr getelementptr inbounds ([4 x ptr], ptr @__pasta_rt_slots.[[ID]], i32 0, i32 3) unordered
; CHECK-NEXT: call void [[E]]()
; CHECK-NEXT: ret i32 %a
define i32 @main() {
  %p = alloca ptr
  %a = call i32 @cudaMalloc(ptr %p, i64 1024)
  %b = call i32 @cudaDeviceSynchronize()
  ret i32 %a
}

; CHECK-LABEL: define internal void @__pasta_host_ctor_{{[0-9a-f]+}}()
; CHECK-NEXT: [[R:%[0-9]+]] = load atomic ptr, ptr @__pasta_rt_slots.[[ID]] unordered
; CHECK-NEXT: call void [[R]](ptr @__pasta_host_desc_[[ID]])

; CHECK-DAG: declare extern_weak void @__pasta_register_host_module(ptr)
; CHECK-DAG: declare extern_weak i32 @__pasta_malloc(ptr, i64, ptr, ptr)
; CHECK-DAG: declare extern_weak void @__pasta_main_exit()

; The binder runs once, and fills each slot: with a runtime of this ABI
; version, the weak address, else dlsym's; otherwise the fallback.
; CHECK-LABEL: define internal void @__pasta_rt_bind.{{[0-9a-f]+}}()
; CHECK: load atomic i8, ptr @__pasta_rt_bound.[[ID]] unordered
; CHECK: store atomic i8 1, ptr @__pasta_rt_bound.[[ID]] unordered
; CHECK: [[FOUND:%[0-9]+]] = call i1 @__pasta_rt_find.[[ID]]()
; CHECK: br i1 [[FOUND]], label %found, label %fallback
; CHECK: getelementptr inbounds [4 x ptr], ptr @__pasta_rt_weak.[[ID]], i32 0, i32 %i
; CHECK: call ptr @dlsym(ptr null, ptr
; CHECK: getelementptr inbounds [4 x ptr], ptr @__pasta_rt_fallbacks.[[ID]], i32 0, i32 %i
; CHECK: [[P:%[0-9]+]] = phi ptr
; CHECK: [[S:%[0-9]+]] = getelementptr inbounds [4 x ptr], ptr @__pasta_rt_slots.[[ID]], i32 0, i32 %i
; CHECK-NEXT: store atomic ptr [[P]], ptr [[S]] unordered
; CHECK: icmp ult i32 %{{[0-9]+}}, 4

; A lazy stub binds, then calls through the slot.
; CHECK-LABEL: define internal i32 @__pasta_rt_lazy.__pasta_malloc(ptr %0, i64 %1, ptr %2, ptr %3)
; CHECK-NEXT: call void @__pasta_rt_bind.[[ID]]()
; CHECK-NEXT: [[L:%[0-9]+]] = load atomic ptr, ptr getelementptr inbounds ([4 x ptr], ptr @__pasta_rt_slots.[[ID]], i32 0, i32 1) unordered
; CHECK-NEXT: [[LR:%[0-9]+]] = call i32 [[L]](ptr %0, i64 %1, ptr %2, ptr %3)
; CHECK-NEXT: ret i32 [[LR]]

; Fallbacks: the registration does nothing; the wrapper calls cudaMalloc
; (its second-to-last argument) with the program's arguments.
; CHECK-LABEL: define internal void @__pasta_rt_fallback.__pasta_register_host_module(ptr %0)
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal i32 @__pasta_rt_fallback.__pasta_malloc(ptr %0, i64 %1, ptr %2, ptr %3)
; CHECK-NEXT: [[V:%[0-9]+]] = call i32 %2(ptr %0, i64 %1)
; CHECK-NEXT: ret i32 [[V]]
; CHECK-LABEL: define internal i32 @__pasta_rt_fallback.__pasta_device_synchronize(ptr %0, ptr %1)
; CHECK-NEXT: [[D:%[0-9]+]] = call i32 %0()

; Finding the runtime: linked in (the weak ABI symbol), already loaded
; (dlsym of the ABI symbol), another version loaded (refused), else dlopen
; (RTLD_NOW | RTLD_GLOBAL) of $PASTA_RUNTIME when set and not empty, else of
; the recorded path and then of libpasta_rt.so on the library path; a
; library without the ABI symbol is refused.
; CHECK-LABEL: define internal i1 @__pasta_rt_find.{{[0-9a-f]+}}()
; CHECK: icmp ne ptr @__pasta_abi_v{{[0-9]+}}, null
; CHECK: icmp ne ptr @dlopen, null
; CHECK: call ptr @dlsym(ptr null, ptr @[[ABINAME:__pasta_rt_name[.0-9]*]])
; CHECK: call i32 (i32, ptr, ...) @dprintf(i32 2,
; CHECK: call ptr @dlsym(ptr null, ptr
;; secure_getenv: a set-user-ID program never loads what its caller names.
; CHECK: [[ENV:%[0-9]+]] = call ptr @secure_getenv(ptr @__pasta_rt_env)
; CHECK: [[USEENV:%[0-9]+]] = phi i1 [ false, %load ], [ %{{[0-9]+}}, %env_set ]
;; A path with a '/' is probed first: opened without blocking
;; (O_NONBLOCK | O_CLOEXEC = 526336) and refused when it cannot seek (a fifo,
;; a pipe, a terminal: dlopen would block on it for ever).
; CHECK-NEXT: [[OPEN:%[0-9]+]] = select i1 [[USEENV]], ptr [[ENV]], ptr @__pasta_rt_path
; CHECK-NEXT: [[SLASH:%[0-9]+]] = call ptr @strchr(ptr [[OPEN]], i32 47)
; CHECK: probe:
; CHECK-NEXT: [[FD:%[0-9]+]] = call i32 (ptr, i32, ...) @open(ptr [[OPEN]], i32 526336)
; CHECK: seek:
; CHECK-NEXT: [[END:%[0-9]+]] = call i64 @lseek(i32 [[FD]], i64 0, i32 2)
; CHECK-NEXT: call i32 @close(i32 [[FD]])
; CHECK-NEXT: [[BAD:%[0-9]+]] = icmp slt i64 [[END]], 0
; CHECK-NEXT: br i1 [[BAD]], label %not_a_file, label %dlopen
; CHECK: dlopen:
; CHECK-NEXT: [[H1:%[0-9]+]] = call ptr @dlopen(ptr [[OPEN]], i32 258)
; CHECK: warn{{[0-9]+}}: ; preds = %not_a_file
; CHECK-NEXT: call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @{{.*}}, ptr [[OPEN]])
; CHECK: [[H:%[0-9]+]] = phi ptr [ [[H1]], %dlopen ], [ [[H2:%[0-9]+]], %open_by_name ]
; CHECK: call ptr @dlsym(ptr [[H]], ptr @[[ABINAME]])
; CHECK: open_failed:
; CHECK-NEXT: br i1 [[USEENV]], label %not_found, label %open_by_name
; CHECK: [[H2]] = call ptr @dlopen(ptr @__pasta_rt_soname, i32 258)
; CHECK: call ptr @dlerror()

; dlopen and friends are weak too (an old glibc without -ldl); getenv and
; dprintf are libc's.
; CHECK-DAG: declare extern_weak ptr @dlopen(ptr, i32)
; CHECK-DAG: declare extern_weak ptr @dlsym(ptr, ptr)
; CHECK-DAG: declare extern_weak ptr @dlerror()

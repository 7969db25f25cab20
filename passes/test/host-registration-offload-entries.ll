; With -fgpu-rdc and clang's new offloading driver, a host module lists its
; kernels as offloading entries and the linker wrapper registers them: the
; descriptor becomes one more entry (a 72-byte variable, same kind as the
; module's entries), and a constructor hands its shadow to the runtime.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
; Its register-capped counting copy (CUDA entries) is an entry too, its
; handle handed to the runtime, before any divergence copy.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s --check-prefix=CAPPED
; CAPPED: @.offloading.entry._Z2kaPf__pasta_capped = weak constant
; CAPPED: call void @__pasta_register_kernel(ptr @stub,
; CAPPED-NEXT: call void @__pasta_register_capped_kernel(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_capped)
; CAPPED-NEXT: call void @__pasta_register_ws_capped_kernel(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_wscap)
; With -pasta-divergence the kernel's divergence copy and (CUDA entries, caps
; on) its uncapped twin, general copy and one-lane copy become entries too,
; handed to the runtime.
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIV
; DIV-DAG: @.offloading.entry._Z2kaPf__pasta_div = weak constant
; DIV-DAG: @.offloading.entry._Z2kaPf__pasta_divu = weak constant
; DIV-DAG: @.offloading.entry._Z2kaPf__pasta_divg = weak constant
; DIV-DAG: @.offloading.entry._Z2kaPf__pasta_div1 = weak constant
; (A divergence build has no working-set copies, so no capped one either.)
; DIV: call void @__pasta_register_capped_kernel(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_capped)
; DIV-NOT: __pasta_wscap
; DIV-NEXT: call void @__pasta_register_divergence_kernel(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_div)
; DIV-NEXT: call void @__pasta_register_divergence_uncapped(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_divu)
; DIV-NEXT: call void @__pasta_register_divergence_general(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_divg)
; DIV-NEXT: call void @__pasta_register_divergence_one_lane(ptr @stub, ptr @__pasta_handle__Z2kaPf__pasta_div1)
; With PASTA_VARIANTS=ws the working-set copy is an entry and the plain copy
; is not (the device half emits none).
; RUN: env PASTA_VARIANTS=ws %opt -passes=pasta-host-registration -S %s > %t.ws.ll
; RUN: FileCheck %s --check-prefix=WSONLY < %t.ws.ll
; RUN: FileCheck %s --check-prefix=NOPLAIN < %t.ws.ll
; WSONLY: @.offloading.entry._Z2kaPf__pasta_ws = weak constant
; WSONLY: call void @__pasta_register_kernel(ptr @stub, ptr @__pasta_kernel_name{{[.0-9]*}}, ptr null, ptr @__pasta_handle__Z2kaPf__pasta_ws, ptr null,
; NOPLAIN-NOT: __pasta_plain
source_filename = "lib.cu"
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }

@.offloading.entry_name = internal unnamed_addr constant [8 x i8] c"_Z2kaPf\00", section ".llvm.rodata.offloading", align 1
@.offloading.entry._Z2kaPf = weak constant %struct.__tgt_offload_entry { i64 0, i16 1, i16 2, i32 0, ptr @stub, ptr @.offloading.entry_name, i64 0, i64 0, ptr null }, section "llvm_offload_entries", align 8

; CHECK: @__pasta_shadow_[[ID:[0-9a-f]+]] = internal global [128 x i8] zeroinitializer
; CHECK: @.offloading.entry_name.pasta = internal unnamed_addr constant [{{[0-9]+}} x i8] c"__pasta_desc_[[ID]]\00", section ".llvm.rodata.offloading"
; CHECK: @.offloading.entry.__pasta_desc_[[ID]] = weak constant { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr } { i64 0, i16 1, i16 2, i32 0, ptr @__pasta_shadow_[[ID]], ptr @.offloading.entry_name.pasta, i64 128, i64 0, ptr null }, section "llvm_offload_entries"
; CHECK: @llvm.global_ctors = {{.*}} @__pasta_register_ctor_[[ID]]
; CHECK: define internal void @__pasta_register_ctor_[[ID]]()
; CHECK-NEXT: call void @__pasta_register_device_module(ptr @__pasta_shadow_[[ID]], ptr @__pasta_cuda_ops)

define void @stub() {
  ret void
}

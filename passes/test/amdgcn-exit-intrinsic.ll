; Threads that end through the intrinsics clang's <gpuintrin.h> __gpu_exit()
; calls (llvm.amdgcn.endpgm here, llvm.amdgcn.endpgm on AMD: the second file of
; this pair) end like inline `exit;` (passes/ThreadExits.h): the counts are
; flushed before the call, and the block leaves for the placement's virtual
; node. Before, the placement took the exit's block for one that never
; runs: the other path was derived as every launched thread, and the exit
; path's own count was never measured (it read 0).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=SITES

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; The thread whose index is n ends; the others return.
; CHECK-LABEL: define amdgpu_kernel void @ends_one(
; CHECK: die:
; CHECK: call void @__pasta_flush
; CHECK-NEXT: call void @llvm.amdgcn.endpgm()
; CHECK-NEXT: unreachable
; SITES: derived [[WORK:[0-9]+]] = -1*c[[DIE:[0-9]+]] +1*c[[THREADS:[0-9]+]]
; SITES-NOT: derived [[DIE]] =
define amdgpu_kernel void @ends_one(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr %a, i32 %t
  store float 1.0, ptr %p
  %c = icmp eq i32 %t, %n
  br i1 %c, label %die, label %work
die:
  store float 3.0, ptr %p
  call void @llvm.amdgcn.endpgm()
  unreachable
work:
  store float 2.0, ptr %p
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.endpgm()

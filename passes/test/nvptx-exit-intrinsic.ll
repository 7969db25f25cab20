; Threads that end through the intrinsics clang's <gpuintrin.h> __gpu_exit()
; calls (llvm.nvvm.exit here, llvm.amdgcn.endpgm on AMD: the second file of
; this pair) end like inline `exit;` (passes/ThreadExits.h): the counts are
; flushed before the call, and the block leaves for the placement's virtual
; node. Before, the placement took the exit's block for one that never
; runs: the other path was derived as every launched thread, and the exit
; path's own count was never measured (it read 0).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=SITES

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The thread whose index is n ends; the others return.
; CHECK-LABEL: define ptx_kernel void @ends_one(
; CHECK: die:
; CHECK: call void @__pasta_flush
; CHECK-NEXT: call void @llvm.nvvm.exit()
; CHECK-NEXT: unreachable
; SITES: derived [[WORK:[0-9]+]] = -1*c[[DIE:[0-9]+]] +1*c[[THREADS:[0-9]+]]
; SITES-NOT: derived [[DIE]] =
define ptx_kernel void @ends_one(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr %a, i32 %t
  store float 1.0, ptr %p
  %c = icmp eq i32 %t, %n
  br i1 %c, label %die, label %work
die:
  store float 3.0, ptr %p
  call void @llvm.nvvm.exit()
  unreachable
work:
  store float 2.0, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.exit()

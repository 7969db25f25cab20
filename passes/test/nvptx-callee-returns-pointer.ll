; A device function twin that returns a pointer and hands its counts back
; to the kernel (CalleeCounts.h: its return becomes { ptr, counts }): the
; kernel's store through that pointer is a generic access whose run-time
; space test must read the pointer the new call returns (its extractvalue),
; not the erased call's. The plan kept the old call (freed memory: the test
; read whatever value was allocated there next; the verifier rejected the
; module, clang crashed).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %p, float %v) {
entry:
  %o = call ptr @at(ptr %p, i64 4)
  store float %v, ptr %o
  ret void
}

define internal ptr @at(ptr %p, i64 %n) noinline {
  %q = getelementptr float, ptr %p, i64 %n
  %x = load float, ptr %q
  store float %x, ptr %p
  ret ptr %q
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %[[CALL:[0-9a-z.]+]] = call { ptr{{.*}} } @at__pasta_callee(ptr %p, i64 4)
; CHECK-NEXT: %[[PTR:[0-9a-z.]+]] = extractvalue { ptr{{.*}} } %[[CALL]], 0
; CHECK: call i64 @__pasta_is_shared(ptr %[[PTR]])
; CHECK: call i64 @__pasta_is_local(ptr %[[PTR]])
; CHECK: store float %v, ptr %[[PTR]]

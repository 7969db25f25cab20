; Host functions without optimization in position-independent code that is
; not an executable (a shared library): the address of the thread-local
; counts is a call to __tls_get_addr, so it is computed once for the uses
; that follow up to a call of the program's (x86-host-optnone-counts.ll).
; RUN: %opt -passes=pasta-count -pasta-host -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @g()

; One address for the increment, the flush before the call and the reset.
; CHECK-LABEL: define void @f(
; CHECK: [[B:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__pasta_tls.f)
; CHECK-NOT: threadlocal.address
; CHECK: getelementptr inbounds [1 x i64], ptr [[B]], i32 0, i32 0
; CHECK-NOT: threadlocal.address
; CHECK: atomicrmw add
; CHECK-NOT: threadlocal.address
; CHECK: getelementptr inbounds [1 x i64], ptr [[B]], i32 0, i32 0
; CHECK-NEXT: store i64 0
; CHECK-NEXT: call void @g()
define void @f() #0 {
entry:
  call void @g()
  ret void
}

attributes #0 = { noinline optnone }

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIC Level", i32 2}

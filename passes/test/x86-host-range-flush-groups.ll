; A host function with more counters than registers (here the limit is
; forced to 2) keeps them thread-local and flushes them in groups: each
; counted block sets its counters' group bits in a mask, and a flush point
; (a call that may leave the frame, a return) passes the mask to
; __pasta_host_flush_groups and clears it. A dispatch loop: the static range
; at the call is every counter (the handlers join at %latch), the mask only
; what the path since the last flush touched. 4 counters, groups of 1:
; 0 = calls (the entry's too), 1 = %loop, 2 = %add, 3 = %other.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-register-counters=2 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @may_leave(i32)

; CHECK-LABEL: define void @dispatch(
; CHECK: loop:
; CHECK-NEXT: %[[D:[a-z0-9.]+]] = phi i64 [ 1, %entry ], [ %[[L:[a-z0-9.]+]], %latch ]
; CHECK: %[[M:[0-9]+]] = or i64 %[[D]], 2
; CHECK: add:
; CHECK-NEXT: %[[A:[0-9]+]] = or i64 %[[M]], 4
; CHECK: call:
; CHECK: call void @__pasta_host_flush_groups(ptr @__pasta_counters_{{[0-9a-f]+}}, i32 0, ptr %{{[0-9]+}}, i32 4, i64 %[[M]], i32 1)
; CHECK-NEXT: call void @may_leave(
; CHECK: other:
; CHECK-NEXT: %[[O:[0-9]+]] = or i64 %[[M]], 8
; CHECK: latch:
; CHECK-NEXT: %[[L]] = phi i64 [ %[[O]], %other ], [ %[[A]], %add ], [ 0, %call ]
; CHECK: done:
; CHECK: call void @__pasta_host_flush_groups({{.*}}, i32 4, i64 %[[L]], i32 1)
; CHECK-NEXT: ret void
; No zeroing of the whole range: the runtime resets what it flushed.
; CHECK-NOT: llvm.memset
; CHECK-NOT: @__pasta_host_flush(
define void @dispatch(ptr %ops, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %p = getelementptr i32, ptr %ops, i32 %i
  %op = load i32, ptr %p
  switch i32 %op, label %other [ i32 0, label %add
                                 i32 1, label %call ]
add:
  store i32 1, ptr %p
  br label %latch
call:
  call void @may_leave(i32 %i)
  br label %latch
other:
  store i32 2, ptr %p
  br label %latch
latch:
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}

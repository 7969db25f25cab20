; Trace mode in host code (PASTA_HOST=1 PASTA_TRACE=1): a function with a
; loop that a `return` may leave early. Calls report to the host runtime,
; with the module's descriptor and the scope's row: the function's entry
; and return, the loop's entry and both of its exits (the normal one and
; the early return's edge), each exit with the iterations completed so far.
; The descriptor lists the 2 scopes.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-trace -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__pasta_host_desc_[[ID:[0-9a-f]+]] = internal constant {{.*}} i32 2, i32 0, i64 ptrtoint

; CHECK-LABEL: define i32 @find(
; CHECK: call void @__pasta_scope_enter(ptr @__pasta_host_desc_[[ID]], i32 0)
; CHECK: call void @__pasta_scope_enter(ptr @__pasta_host_desc_[[ID]], i32 1)
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK: %pasta.trips.0 = phi i32
; The early return leaves the loop with the iterations completed before it.
; CHECK: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 1, i32 %pasta.trips.0)
; CHECK: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 1, i32 [[NEXT:%[0-9a-z.]+]])
; CHECK: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 0, i32 0)
; CHECK-NEXT: ret i32

define i32 @find(ptr %a, i32 %n, i32 %key) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %latch

latch:
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %missing

found:
  br label %done

missing:
  br label %done

done:
  %r = phi i32 [ %i, %found ], [ -1, %missing ]
  ret i32 %r
}

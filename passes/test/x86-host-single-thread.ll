; Host flushes on glibc: while the process has one thread
; (__libc_single_threaded, which turns 0 before a second thread exists),
; plain adds; otherwise relaxed atomic adds; either way of the counters that
; are not zero (here both are certainly 1: no test). Without glibc (musl
; here), atomic adds only.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s
; RUN: sed 's/linux-gnu/linux-musl/' %s | %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -S 2>/dev/null | FileCheck %s --check-prefix=MUSL

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @may_throw()

; CHECK: @__libc_single_threaded = external global i8
; CHECK-LABEL: define void @f(
; CHECK: entry:
; CHECK-NEXT: store double 1.0
; CHECK-NEXT: [[ST:%[0-9]+]] = load i8, ptr @__libc_single_threaded
; CHECK-NEXT: [[ONE:%[0-9]+]] = icmp ne i8 [[ST]], 0
; CHECK-NEXT: br i1 [[ONE]], label %[[PLAIN:[0-9]+]], label %[[ATOMIC:[0-9]+]], !pasta.instrumentation
; The plain path: both counters (calls, entry block), loaded, added, stored.
; CHECK: [[PLAIN]]:
; CHECK-NEXT: load i64, ptr @__pasta_counters_[[ID:[0-9a-f]+]]
; CHECK-NEXT: add i64
; CHECK-NEXT: store i64 {{.*}}, ptr @__pasta_counters_[[ID]]
; CHECK-NEXT: load i64, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1)
; CHECK-NEXT: add i64
; CHECK-NEXT: store i64 {{.*}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1)
; CHECK-NOT: atomicrmw
; CHECK: [[ATOMIC]]:
; CHECK-NEXT: atomicrmw add ptr @__pasta_counters_[[ID]], i64 1 monotonic
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1), i64 1 monotonic
; CHECK: call void @may_throw()

; MUSL-NOT: __libc_single_threaded
; MUSL-LABEL: define void @f(
; MUSL: entry:
; MUSL-NEXT: store double 1.0
; MUSL-NEXT: atomicrmw add ptr @__pasta_counters_[[ID:[0-9a-f]+]], i64 1 monotonic
; MUSL-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1), i64 1 monotonic
; MUSL-NEXT: call void @may_throw()
; MUSL-NOT: __libc_single_threaded
define void @f(ptr %p) {
entry:
  store double 1.0, ptr %p
  call void @may_throw()
  ret void
}

; Host counts are flushed before every call that may leave the frame without
; returning to it (it may unwind, exit, longjmp or return twice), and the
; counters flushed there restart from zero; calls that will return and
; cannot unwind are no flush points. A flush point flushes only the counters
; that may be non-zero there.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
; A triple without glibc: every flush is atomic adds (with glibc, plain adds
; while the process has one thread first: x86-host-single-thread.ll).
target triple = "x86_64-pc-linux-musl"

declare void @may_throw()
declare void @exit(i32) noreturn nounwind
declare double @pure(double) nounwind willreturn memory(none)
declare i32 @setjmp(ptr) returns_twice nounwind
declare i32 @__gxx_personality_v0(...)

; Counters: 0 = calls, 1 = entry, 2 = %loop, 3 = %done; then @jumps 4-5,
; @invokes 6 (calls), 7 (entry), 8 (%ok), 9 (%lpad).
; CHECK-LABEL: define void @calls(
; CHECK: entry:
; CHECK-NEXT: store double 1.0
; The call counter and the entry block's are certainly 1 before the first call.
; CHECK-NEXT: atomicrmw add ptr @__pasta_counters_[[ID:[0-9a-f]+]], i64 1 monotonic
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1), i64 1 monotonic
; CHECK-NEXT: call void @may_throw()
; In the loop, a call that will return and cannot unwind flushes nothing;
; the loop's own counter is flushed (certainly non-zero) before the call
; that may leave, and restarts from zero after it.
; CHECK: loop:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: %[[INC:[0-9]+]] = add i64 0, 1
; CHECK-NEXT: call double @pure(
; CHECK-NEXT: store double
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 2), i64 %[[INC]] monotonic
; CHECK-NEXT: call void @may_throw()
; The loop block holds a flush point: nothing of it is left for the return.
; The call counter was flushed before the first call: not again.
; CHECK: done:
; CHECK: store double 3.0
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 3)
; CHECK-NEXT: call void @exit(i32 0)
; CHECK-NEXT: ret void
define void @calls(ptr %p, i32 %n) {
entry:
  store double 1.0, ptr %p
  call void @may_throw()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %x = call double @pure(double 2.0)
  store double %x, ptr %p
  call void @may_throw()
  %i.next = add i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %done, label %loop
done:
  store double 3.0, ptr %p
  call void @exit(i32 0)
  ret void
}

; setjmp returns twice: counts are flushed before it, so what a longjmp
; back to it finds in the counters is zero.
; CHECK-LABEL: define i32 @jumps(
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 4), i64 1
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 5), i64 1
; CHECK-NEXT: call i32 @setjmp(
; CHECK-NEXT: ret i32
define i32 @jumps(ptr %env, ptr %p) {
entry:
  store double 1.0, ptr %p
  %r = call i32 @setjmp(ptr %env)
  ret i32 %r
}

; An invoke that may unwind is a flush point too; the landing pad's counts
; are flushed at the resume.
; CHECK-LABEL: define void @invokes(
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 7), i64 1
; CHECK-NEXT: invoke void @may_throw()
; CHECK: ok:
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 8)
; CHECK-NEXT: ret void
; CHECK: lpad:
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 9)
; CHECK-NEXT: resume
define void @invokes(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  store double 1.0, ptr %p
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  store double 2.0, ptr %p
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  store double 3.0, ptr %p
  resume { ptr, i32 } %lp
}

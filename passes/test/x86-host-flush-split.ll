; Host flush points that would test many counters. A return, or a call that
; may leave the frame, reached from several paths, whose flush would test
; more than 4 counters while a path into it would test at most half as many,
; is flushed on each path instead (@cases, @joincall: each case flushes its
; own block's counter and the call counter, the return or call nothing).
; Where a flush point keeps more than 16 counters that may be non-zero
; (@many), the single-threaded path still adds them inline, each after its
; test, and only the atomic path stages them for one call of
; __pasta_host_flush.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Counters: @cases 0 (calls), 1-10 (%c0-%c9); @many 11 (calls), 12-29
; (%s0-%s17); @joincall 30 (calls), 31-40 (%c0-%c9).
; CHECK-LABEL: define i32 @cases(
; CHECK: entry.ret_crit_edge:
; CHECK-NEXT: load i8, ptr @__libc_single_threaded
; CHECK: store i64 %{{[0-9]+}}, ptr @__pasta_counters_[[ID:[0-9a-f]+]], align 8
; CHECK-NOT: i32 1)
; CHECK: br label %ret
; CHECK: c0:
; CHECK-NEXT: %[[ONE:[0-9]+]] = add i64 0, 1
; CHECK-NEXT: store i32 0, ptr %p
; CHECK-NEXT: load i8, ptr @__libc_single_threaded
; CHECK: store i64 %{{[0-9]+}}, ptr @__pasta_counters_[[ID]], align 8
; CHECK: add i64 %{{[0-9]+}}, %[[ONE]]
; CHECK-NEXT: store i64 %{{[0-9]+}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1), align 8
; CHECK-NOT: i32 2)
; CHECK: br label %ret
; CHECK: c9:
; CHECK: store i64 %{{[0-9]+}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 10), align 8
; CHECK: br label %ret
; CHECK: ret:
; CHECK-NEXT: %r = phi i32
; CHECK-NEXT: ret i32 %r
define i32 @cases(ptr %p, i32 %k) {
entry:
  switch i32 %k, label %ret [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
    i32 8, label %c8
    i32 9, label %c9
  ]
c0:
  store i32 0, ptr %p
  br label %ret
c1:
  store i32 1, ptr %p
  br label %ret
c2:
  store i32 2, ptr %p
  br label %ret
c3:
  store i32 3, ptr %p
  br label %ret
c4:
  store i32 4, ptr %p
  br label %ret
c5:
  store i32 5, ptr %p
  br label %ret
c6:
  store i32 6, ptr %p
  br label %ret
c7:
  store i32 7, ptr %p
  br label %ret
c8:
  store i32 8, ptr %p
  br label %ret
c9:
  store i32 9, ptr %p
  br label %ret
ret:
  %r = phi i32 [ 0, %c0 ], [ 1, %c1 ], [ 2, %c2 ], [ 3, %c3 ], [ 4, %c4 ], [ 5, %c5 ], [ 6, %c6 ], [ 7, %c7 ], [ 8, %c8 ], [ 9, %c9 ], [ -1, %entry ]
  ret i32 %r
}

; CHECK-LABEL: define void @many(
; CHECK: %pasta.flush = alloca [19 x i64]
; CHECK: t18:
; CHECK: load i8, ptr @__libc_single_threaded
; CHECK: br i1 %{{[0-9]+}}, label %[[PLAIN:[0-9]+]], label %[[ATOMIC:[0-9]+]]
; CHECK: [[PLAIN]]:
; The call counter is certainly 1: no test.
; CHECK-NEXT: load i64, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 11)
; CHECK: icmp ne i64 %pasta.count
; CHECK: store i64 %{{[0-9]+}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 12)
; CHECK: store i64 %{{[0-9]+}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 29)
; CHECK-NOT: __pasta_host_flush
; CHECK: [[ATOMIC]]:
; CHECK-NOT: atomicrmw
; CHECK: store i64 %pasta.count
; CHECK: call void @__pasta_host_flush(ptr @__pasta_counters_[[ID]], i32 11, ptr %pasta.flush, i32 19)
; CHECK: ret void
define void @many(ptr %p, i32 %m) {
entry:
  br label %t0
t0:
  %c0 = icmp ugt i32 %m, 0
  br i1 %c0, label %s0, label %t1
s0:
  store i32 0, ptr %p
  br label %t1
t1:
  %c1 = icmp ugt i32 %m, 1
  br i1 %c1, label %s1, label %t2
s1:
  store i32 1, ptr %p
  br label %t2
t2:
  %c2 = icmp ugt i32 %m, 2
  br i1 %c2, label %s2, label %t3
s2:
  store i32 2, ptr %p
  br label %t3
t3:
  %c3 = icmp ugt i32 %m, 3
  br i1 %c3, label %s3, label %t4
s3:
  store i32 3, ptr %p
  br label %t4
t4:
  %c4 = icmp ugt i32 %m, 4
  br i1 %c4, label %s4, label %t5
s4:
  store i32 4, ptr %p
  br label %t5
t5:
  %c5 = icmp ugt i32 %m, 5
  br i1 %c5, label %s5, label %t6
s5:
  store i32 5, ptr %p
  br label %t6
t6:
  %c6 = icmp ugt i32 %m, 6
  br i1 %c6, label %s6, label %t7
s6:
  store i32 6, ptr %p
  br label %t7
t7:
  %c7 = icmp ugt i32 %m, 7
  br i1 %c7, label %s7, label %t8
s7:
  store i32 7, ptr %p
  br label %t8
t8:
  %c8 = icmp ugt i32 %m, 8
  br i1 %c8, label %s8, label %t9
s8:
  store i32 8, ptr %p
  br label %t9
t9:
  %c9 = icmp ugt i32 %m, 9
  br i1 %c9, label %s9, label %t10
s9:
  store i32 9, ptr %p
  br label %t10
t10:
  %c10 = icmp ugt i32 %m, 10
  br i1 %c10, label %s10, label %t11
s10:
  store i32 10, ptr %p
  br label %t11
t11:
  %c11 = icmp ugt i32 %m, 11
  br i1 %c11, label %s11, label %t12
s11:
  store i32 11, ptr %p
  br label %t12
t12:
  %c12 = icmp ugt i32 %m, 12
  br i1 %c12, label %s12, label %t13
s12:
  store i32 12, ptr %p
  br label %t13
t13:
  %c13 = icmp ugt i32 %m, 13
  br i1 %c13, label %s13, label %t14
s13:
  store i32 13, ptr %p
  br label %t14
t14:
  %c14 = icmp ugt i32 %m, 14
  br i1 %c14, label %s14, label %t15
s14:
  store i32 14, ptr %p
  br label %t15
t15:
  %c15 = icmp ugt i32 %m, 15
  br i1 %c15, label %s15, label %t16
s15:
  store i32 15, ptr %p
  br label %t16
t16:
  %c16 = icmp ugt i32 %m, 16
  br i1 %c16, label %s16, label %t17
s16:
  store i32 16, ptr %p
  br label %t17
t17:
  %c17 = icmp ugt i32 %m, 17
  br i1 %c17, label %s17, label %t18
s17:
  store i32 17, ptr %p
  br label %t18
t18:
  ret void
}

declare void @may_throw()

; CHECK-LABEL: define void @joincall(
; CHECK: c9:
; CHECK: store i64 %{{[0-9]+}}, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 40), align 8
; CHECK: br label %j
; CHECK: j:
; CHECK-NEXT: call void @may_throw()
; CHECK-NEXT: ret void
define void @joincall(ptr %p, i32 %k) {
entry:
  switch i32 %k, label %j [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
    i32 8, label %c8
    i32 9, label %c9
  ]
c0:
  store i32 0, ptr %p
  br label %j
c1:
  store i32 1, ptr %p
  br label %j
c2:
  store i32 2, ptr %p
  br label %j
c3:
  store i32 3, ptr %p
  br label %j
c4:
  store i32 4, ptr %p
  br label %j
c5:
  store i32 5, ptr %p
  br label %j
c6:
  store i32 6, ptr %p
  br label %j
c7:
  store i32 7, ptr %p
  br label %j
c8:
  store i32 8, ptr %p
  br label %j
c9:
  store i32 9, ptr %p
  br label %j
j:
  call void @may_throw()
  ret void
}

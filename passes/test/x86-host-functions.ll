; PASTA_HOST=1 counts host functions: calls and block executions, flushed at
; every return (and resume) with one atomic add per counter that may be
; non-zero there (x86-host-flush-points.ll: before calls too), and the module
; registers its table from a constructor. Without it, host code is untouched.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-print-sites -S %s 2>&1 | FileCheck %s
; RUN: env PASTA_HOST=1 %opt -passes=pasta-count -pasta-host-once-in-memory=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=IR
; RUN: %opt -passes=pasta-count -S %s | FileCheck %s --check-prefix=OFF
; Yes/no values in any spelling: on/true/YES count, off/false/No do not.
; RUN: env PASTA_HOST=on %opt -passes=pasta-count -pasta-host-once-in-memory=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=IR
; RUN: env PASTA_HOST=YES %opt -passes=pasta-count -pasta-host-once-in-memory=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=IR
; RUN: env PASTA_HOST=off %opt -passes=pasta-count -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PASTA_HOST=false %opt -passes=pasta-count -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PASTA_HOST=No %opt -passes=pasta-count -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: pasta: func sum kind=host calls=0
; CHECK: pasta: site ?:0 func=sum counter=1 ld.generic=1 ldB.generic=8 flop.f64=1{{$}}

; IR: @llvm.global_ctors = appending global {{.*}} @__pasta_host_ctor_
; IR-LABEL: define double @sum(
; IR: exit:
; While the process has one thread (glibc's flag), plain adds; else relaxed
; atomic adds of the counters that are not zero.
; IR-NEXT: [[ST:%[0-9]+]] = load i8, ptr @__libc_single_threaded
; IR-NEXT: [[ONE:%[0-9]+]] = icmp ne i8 [[ST]], 0
; IR-NEXT: br i1 [[ONE]], label %[[PLAIN:[0-9]+]], label %[[ATOMIC:[0-9]+]], !pasta.instrumentation
; IR: [[PLAIN]]:
; IR-NEXT: [[C0:%[0-9]+]] = load i64, ptr @__pasta_counters_[[ID:[0-9a-f]+]]
; IR-NEXT: [[S0:%[0-9]+]] = add i64 [[C0]], 1
; IR-NEXT: store i64 [[S0]], ptr @__pasta_counters_[[ID]]
; The loop's count may be zero: on both paths it is added only when not.
; IR-NEXT: [[PNZ:%[0-9]+]] = icmp ne i64 [[PLOOP:%[0-9]+]], 0
; IR-NEXT: br i1 [[PNZ]], {{.*}} !pasta.instrumentation
; IR-NOT: atomicrmw
; IR: add i64 {{%[0-9]+}}, [[PLOOP]]
; IR: [[ATOMIC]]:
; IR-NEXT: atomicrmw add ptr @__pasta_counters_[[ID]], i64 1 monotonic
; IR-NEXT: [[NZ:%[0-9]+]] = icmp ne i64 [[LOOP:%[0-9]+]], 0
; IR-NEXT: br i1 [[NZ]], {{.*}} !pasta.instrumentation
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 1), i64 [[LOOP]] monotonic
; IR: ret double

; OFF-NOT: __pasta_host_flush
; OFF-NOT: atomicrmw
; OFF-NOT: __pasta_register_host_module
define double @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %a, i64 %i
  %x = load double, ptr %p
  %s.next = fadd double %s, %x
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; The runtime's own functions are never instrumented.
; IR-LABEL: define void @__pasta_mine(
; IR-NOT: __pasta_host_flush
; IR: ret void
define void @__pasta_mine(ptr %a) {
  store i32 0, ptr %a
  ret void
}

; IR: define internal void @__pasta_host_ctor_{{[0-9a-f]+}}()
; IR-NEXT: call void @__pasta_register_host_module(ptr @__pasta_host_desc_

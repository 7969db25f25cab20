; Host functions built without optimization (optnone, clang -O0) keep their
; counts in a thread-local array of their own, not in registers (which -O0
; gives a stack slot each: deep recursion overflowed the stack): each
; increment is a load, add and store of its element; the entry adds its
; initial counts (a recursive activation must not overwrite its caller's);
; every flush adds each element without a test (no block is split, so no
; value of the program's crosses a new block) and resets it, at returns too;
; in an executable each access computes the array's address (folded into
; a %fs-relative operand), in a shared library once per run of uses up to a
; call (it is a call to __tls_get_addr there: x86-host-optnone-pic.ll).
; Optimized functions keep counting in registers.
; RUN: %opt -passes=pasta-count -pasta-host -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Without debug info, rec counts its calls only (counter 0).
; CHECK: @__pasta_tls.rec = internal thread_local global [1 x i64] zeroinitializer, align 8

; CHECK-LABEL: define i32 @rec(
; CHECK-NOT: alloca
; CHECK: [[B:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__pasta_tls.rec)
; CHECK-NEXT: [[P:%.*]] = getelementptr inbounds [1 x i64], ptr [[B]], i32 0, i32 0
; CHECK-NEXT: [[V:%.*]] = load i64, ptr [[P]]
; CHECK-NEXT: [[N:%.*]] = add i64 [[V]], 1
; CHECK-NEXT: [[B2:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__pasta_tls.rec)
; CHECK-NEXT: [[Q:%.*]] = getelementptr inbounds [1 x i64], ptr [[B2]], i32 0, i32 0
; CHECK-NEXT: store i64 [[N]], ptr [[Q]]
; CHECK: more:
; CHECK: [[M:%.*]] = sub i32 %n, 1
; No test, no new block: the flush before the recursive call is straight
; code, then the counts restart from zero.
; CHECK-NOT: br
; CHECK: atomicrmw add ptr @__pasta_counters_{{[0-9a-f]+}}, i64 {{%.*}} monotonic
; CHECK-NOT: br
; CHECK: store i64 0, ptr
; CHECK-NOT: br
; CHECK: %r = call i32 @rec(i32 [[M]])
; At the return: added and reset as well, without a test.
; CHECK: done:
; CHECK-NOT: br
; CHECK: atomicrmw add ptr @__pasta_counters_{{[0-9a-f]+}}, i64 {{%.*}} monotonic
; CHECK-NOT: br
; CHECK: store i64 0, ptr
; CHECK-NOT: br
; CHECK: ret i32 %v
define i32 @rec(i32 %n) #0 {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more

more:
  %m = sub i32 %n, 1
  %r = call i32 @rec(i32 %m)
  %s = add i32 %r, 1
  br label %done

done:
  %v = phi i32 [ 0, %entry ], [ %s, %more ]
  ret i32 %v
}

; CHECK-LABEL: define i32 @optimized(
; CHECK-NOT: threadlocal
; CHECK: ret i32
define i32 @optimized(i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more

more:
  %m = sub i32 %n, 1
  %r = call i32 @optimized(i32 %m)
  br label %done

done:
  %v = phi i32 [ 0, %entry ], [ %r, %more ]
  ret i32 %v
}

attributes #0 = { noinline optnone }

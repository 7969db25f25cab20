; A divergence copy of more than 12 measured access groups calls the access
; helpers out of line by default (passes/DivergenceMeasures.h
; OutOfLineAccessGroups; 32 before): @sixteen has 16, one store through a
; lane-shaped address in each of 16 blocks. Inlined, the helpers made lud's
; perimeter copy (27 groups) cost ptxas 2.5 s, out of line 0.8 s
; (docs/lab/2026-11-30-divergence-29-compile-calls.md).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; -pasta-div-out-of-line-above=16 keeps its helpers inline.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-out-of-line-above=16 -S %s 2>/dev/null | FileCheck %s --check-prefix=INLINE

; CHECK-LABEL: define ptx_kernel void @sixteen__pasta_div(
; CHECK: %pasta.div.out = alloca [8 x i32]
; CHECK-NOT: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK-COUNT-16: call i32 @__pasta_div_access{{(_lanes)?}}_out(
; CHECK-NOT: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK: ret void

; INLINE-LABEL: define ptx_kernel void @sixteen__pasta_div(
; INLINE-NOT: __pasta_div_access{{(_lanes)?}}_out(
; INLINE-COUNT-16: call i32 @__pasta_div_access{{(_lanes)?}}(
; INLINE-NOT: __pasta_div_access{{(_lanes)?}}_out(
; INLINE: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @sixteen(ptr %a) {
entry:
  %k = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds float, ptr %a, i32 %t
  br label %test0
test0:
  %c0 = icmp eq i32 %k, 0
  br i1 %c0, label %then0, label %test1
then0:
  store float 0.0, ptr %p
  br label %test1
test1:
  %c1 = icmp eq i32 %k, 1
  br i1 %c1, label %then1, label %test2
then1:
  store float 1.0, ptr %p
  br label %test2
test2:
  %c2 = icmp eq i32 %k, 2
  br i1 %c2, label %then2, label %test3
then2:
  store float 2.0, ptr %p
  br label %test3
test3:
  %c3 = icmp eq i32 %k, 3
  br i1 %c3, label %then3, label %test4
then3:
  store float 3.0, ptr %p
  br label %test4
test4:
  %c4 = icmp eq i32 %k, 4
  br i1 %c4, label %then4, label %test5
then4:
  store float 4.0, ptr %p
  br label %test5
test5:
  %c5 = icmp eq i32 %k, 5
  br i1 %c5, label %then5, label %test6
then5:
  store float 5.0, ptr %p
  br label %test6
test6:
  %c6 = icmp eq i32 %k, 6
  br i1 %c6, label %then6, label %test7
then6:
  store float 6.0, ptr %p
  br label %test7
test7:
  %c7 = icmp eq i32 %k, 7
  br i1 %c7, label %then7, label %test8
then7:
  store float 7.0, ptr %p
  br label %test8
test8:
  %c8 = icmp eq i32 %k, 8
  br i1 %c8, label %then8, label %test9
then8:
  store float 8.0, ptr %p
  br label %test9
test9:
  %c9 = icmp eq i32 %k, 9
  br i1 %c9, label %then9, label %test10
then9:
  store float 9.0, ptr %p
  br label %test10
test10:
  %c10 = icmp eq i32 %k, 10
  br i1 %c10, label %then10, label %test11
then10:
  store float 10.0, ptr %p
  br label %test11
test11:
  %c11 = icmp eq i32 %k, 11
  br i1 %c11, label %then11, label %test12
then11:
  store float 11.0, ptr %p
  br label %test12
test12:
  %c12 = icmp eq i32 %k, 12
  br i1 %c12, label %then12, label %test13
then12:
  store float 12.0, ptr %p
  br label %test13
test13:
  %c13 = icmp eq i32 %k, 13
  br i1 %c13, label %then13, label %test14
then13:
  store float 13.0, ptr %p
  br label %test14
test14:
  %c14 = icmp eq i32 %k, 14
  br i1 %c14, label %then14, label %test15
then14:
  store float 14.0, ptr %p
  br label %test15
test15:
  %c15 = icmp eq i32 %k, 15
  br i1 %c15, label %then15, label %test16
then15:
  store float 15.0, ptr %p
  br label %test16
test16:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

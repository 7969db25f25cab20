; Where the device code is the whole program (no -fgpu-rdc), no other
; module can call an external device function: an original whose every
; direct call went to its twin never runs, and goes instead of being
; counted (passes/CalleeCounts.cpp, -pasta-whole-program; unset, clang's
; command line decides, and opt's reads as not whole). With -fgpu-rdc it
; stays, counted, for other modules; an original still used (its address
; taken) stays either way. A device function nothing calls (inlined
; everywhere) goes too where the program is whole; kernels always stay.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-whole-program=1 -S %s 2>/dev/null | FileCheck %s --check-prefix=WHOLE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-whole-program=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=RDC
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=RDC
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global ptr @viaptr

; WHOLE-LABEL: define ptx_kernel void @k(
; WHOLE: call {{.*}}@step__pasta_callee(
; WHOLE: call {{.*}}@viaptr__pasta_callee(
; RDC-LABEL: define ptx_kernel void @k(
; RDC: call {{.*}}@step__pasta_callee(
define ptx_kernel void @k(ptr %a, i32 %n) {
entry:
  call void @step(ptr %a, i32 %n)
  call void @viaptr(ptr %a)
  ret void
}

; Only the kernel's direct call reached it: gone where the program is
; whole; counted (a flush at its return) for other modules otherwise.
; WHOLE-NOT: define void @step(
; RDC-LABEL: define void @step(
; RDC: __pasta_flush
; RDC: ret void
define void @step(ptr %p, i32 %i) noinline {
entry:
  %q = getelementptr float, ptr %p, i32 %i
  %c = icmp sgt i32 %i, 0
  br i1 %c, label %then, label %done
then:
  store float 1.0, ptr %q
  br label %done
done:
  ret void
}

; Its address is in @table: it stays, counted, in every build.
; WHOLE-LABEL: define void @viaptr(
; WHOLE: __pasta_flush
; RDC-LABEL: define void @viaptr(
; RDC: __pasta_flush
define void @viaptr(ptr %p) noinline {
entry:
  %c = load float, ptr %p
  %d = fcmp ogt float %c, 0.0
  br i1 %d, label %then, label %done
then:
  store float 0.0, ptr %p
  br label %done
done:
  ret void
}

; Nothing calls it: gone where the program is whole, as it was otherwise.
; WHOLE-NOT: define void @inlined(
; RDC: define void @inlined(
define void @inlined(ptr %p) {
entry:
  store float 3.0, ptr %p
  ret void
}

; A kernel nothing calls stays.
; WHOLE: define ptx_kernel void @other(
; RDC: define ptx_kernel void @other(
define ptx_kernel void @other(ptr %p) {
entry:
  store float 4.0, ptr %p
  ret void
}

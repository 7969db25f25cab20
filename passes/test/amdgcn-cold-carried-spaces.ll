; nvptx-cold-carried-spaces.ll on amdgcn: a device function's twin returns
; its flat accesses' address-space counts into a kernel's loop; the kernel
; ors them, tests them once and adds them to its local-memory array
; (addrspace 5) on the cold path, with no 64-bit count carried through the
; loop. Checked on IR and by compiling to a gfx942 code object with the
; runtime linked (no AMD GPU runs it here).
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -S %s 2>/dev/null | llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o %t.o
; RUN: llvm-readobj --symbols %t.o | FileCheck %s --check-prefix=OBJ

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @walk(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [4 x i64], align 8, addrspace(5)
; CHECK: loop:
; CHECK-NOT: phi i64
; CHECK: call { float, i64, i64, i64, i64 } @get__pasta_callee(ptr %p)
; CHECK: br i1 %pasta.not.global, label %pasta.space.cold,
; CHECK: pasta.space.cold:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5)
; CHECK-NEXT: load volatile i64
; CHECK: ret void
; OBJ: Name: walk
define internal float @get(ptr %p) noinline "target-cpu"="gfx942" {
entry:
  %a = load float, ptr %p, align 4
  %pb = getelementptr inbounds float, ptr %p, i64 1
  %b = load float, ptr %pb, align 4
  %s = fadd float %a, %b
  ret float %s
}

define amdgpu_kernel void @walk(ptr addrspace(1) %list, i32 %m, ptr addrspace(1) %out) "target-cpu"="gfx942" {
entry:
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %pp = getelementptr inbounds ptr, ptr addrspace(1) %list, i32 %j
  %p = load ptr, ptr addrspace(1) %pp, align 8
  %v = call float @get(ptr %p)
  %acc.next = fadd float %acc, %v
  %j.next = add i32 %j, 1
  %more = icmp slt i32 %j.next, %m
  br i1 %more, label %loop, label %done
done:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

; nvptx-cold-address-spaces.ll on amdgcn: a flat access in a loop through
; a pointer read from global memory tests its address space once per base
; pointer and block and adds its counts to local memory (addrspace 5) only
; on the cold path; no 64-bit count is carried through the loop. Checked on
; IR and by compiling to a gfx942 code object with the runtime linked (no
; AMD GPU runs it here).
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -S %s 2>/dev/null | llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o %t.o
; RUN: llvm-readobj --symbols %t.o | FileCheck %s --check-prefix=OBJ

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @fields(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [4 x i64], align 8, addrspace(5)
; CHECK: loop:
; CHECK-NOT: phi i64
; CHECK: %[[SH:[0-9]+]] = call i64 @__pasta_is_shared(ptr %pa)
; CHECK-NEXT: %[[LO:[0-9]+]] = call i64 @__pasta_is_local(ptr %pa)
; CHECK: br i1 %pasta.not.global, label %pasta.space.cold,
; CHECK: pasta.space.cold:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5)
; CHECK-NEXT: load volatile i64
; CHECK-NEXT: mul i64 %[[SH]], 2
; CHECK-NOT: __pasta_is_shared
; CHECK: ret void
; OBJ: Name: fields
define amdgpu_kernel void @fields(ptr addrspace(1) %objs, ptr addrspace(1) %out, i32 %n) "target-cpu"="gfx942" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %op = getelementptr inbounds ptr, ptr addrspace(1) %objs, i32 %i
  %o = load ptr, ptr addrspace(1) %op, align 8
  %pa = getelementptr inbounds float, ptr %o, i32 0
  %a = load float, ptr %pa, align 4
  %pb = getelementptr inbounds float, ptr %o, i32 1
  %b = load float, ptr %pb, align 4
  %ab = fadd float %a, %b
  %sum = fadd float %acc, %ab
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  store float %sum, ptr addrspace(1) %out, align 4
  ret void
}

; In a counting copy, a generic access in a loop keeps its run-time
; address-space counts (shared, shared bytes, local, local bytes) in local
; memory and adds them only where its pointer is shared or local: one test
; per base pointer and block (its in-bounds offsets are in its object),
; and a branch, marked unlikely, around the adds (CounterEmissionSpaces.cpp).
; The ray tracer of round 20 carried 146 such 64-bit counts through its
; sample loop in registers.
; @fields: two bases (an object read from memory each iteration, and a
; camera read once): two tests; the object's two loads and one store add
; 2 accesses, 8 bytes and 1 access, 4 bytes; no 64-bit phi in the loop.
; @once: no loop: the counts stay in registers, added in every execution.
; @offsets: a non-inbounds offset may leave the object: its own test.
; @copies: a memcpy of run-time length keeps its registers.
; With -pasta-cold-address-spaces=0, and in the divergence build, no test
; is on a cold path.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-cold-address-spaces=0 -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

; CHECK-LABEL: define ptx_kernel void @fields(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [8 x i64], align 8
; CHECK: loop:
; CHECK-NOT: phi i64
; CHECK: %pa = getelementptr inbounds %obj, ptr %o, i32 0, i32 0
; CHECK-NEXT: %[[SH:[0-9]+]] = call i64 @__pasta_is_shared(ptr %pa)
; CHECK-NEXT: %[[LO:[0-9]+]] = call i64 @__pasta_is_local(ptr %pa)
; CHECK-NEXT: %[[ANY:[0-9]+]] = or i64 %[[SH]], %[[LO]]
; CHECK-NEXT: %pasta.not.global = icmp ne i64 %[[ANY]], 0
; CHECK-NEXT: br i1 %pasta.not.global, label %pasta.space.cold, label %[[HOT:[0-9]+]], !prof ![[RARE:[0-9]+]]
; CHECK: pasta.space.cold:
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[SH]], 2
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[SH]], 8
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[LO]], 2
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[LO]], 8
; CHECK: load volatile i64
; CHECK-NEXT: add i64 %{{[0-9]+}}, %[[SH]]
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[SH]], 4
; CHECK: load volatile i64
; CHECK-NEXT: add i64 %{{[0-9]+}}, %[[LO]]
; CHECK: load volatile i64
; CHECK-NEXT: mul i64 %[[LO]], 4
; CHECK: store volatile i64
; CHECK-NEXT: br label %[[HOT]]
; CHECK: [[HOT]]:
; CHECK-NEXT: %a = load float, ptr %pa
; CHECK: %b = load float, ptr %pb
; CHECK-NEXT: call i64 @__pasta_is_shared(ptr %cam)
; CHECK: br i1 %pasta.not.global{{[0-9]+}}, label %pasta.space.cold{{[0-9]+}}
; CHECK: %x = load float, ptr %cam
; CHECK-NOT: __pasta_is_shared
; CHECK: done:
; CHECK: call void @__pasta_gather_lanes
; CHECK: load volatile i64
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @once(
; CHECK-NOT: alloca
; CHECK-NOT: space.cold
; CHECK: call i64 @__pasta_is_shared(ptr %o)
; CHECK-NEXT: call i64 @__pasta_is_local(ptr %o)
; CHECK-NEXT: add i64 0,
; CHECK-NOT: space.cold
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @offsets(
; CHECK: call i64 @__pasta_is_shared(ptr %p1)
; CHECK: pasta.space.cold:
; CHECK: %a = load float, ptr %p1
; CHECK-NEXT: %p2 = getelementptr i8, ptr %o, i64 %off
; CHECK-NEXT: call i64 @__pasta_is_shared(ptr %p2)
; CHECK: pasta.space.cold{{[0-9]+}}:
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @copies(
; CHECK-NOT: space.cold
; CHECK: loop:
; CHECK-NEXT: phi i64
; CHECK-NOT: space.cold
; CHECK: ret void

; CHECK: ![[RARE]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}

; OFF-LABEL: define ptx_kernel void @fields(
; OFF-NOT: space.cold
; OFF: loop:
; OFF-NEXT: phi i64
; OFF-NOT: space.cold
; OFF: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%obj = type { float, float, float }

define ptx_kernel void @fields(ptr addrspace(1) %objs, ptr addrspace(1) %cams, ptr addrspace(1) %out, i32 %n) {
entry:
  %cam = load ptr, ptr addrspace(1) %cams, align 8
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %op = getelementptr inbounds ptr, ptr addrspace(1) %objs, i32 %i
  %o = load ptr, ptr addrspace(1) %op, align 8
  %pa = getelementptr inbounds %obj, ptr %o, i32 0, i32 0
  %a = load float, ptr %pa, align 4
  %pb = getelementptr inbounds %obj, ptr %o, i32 0, i32 1
  %b = load float, ptr %pb, align 4
  %x = load float, ptr %cam, align 4
  %pc = getelementptr inbounds %obj, ptr %o, i32 0, i32 2
  store float %x, ptr %pc, align 4
  %ab = fadd float %a, %b
  %sum = fadd float %acc, %ab
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  store float %sum, ptr addrspace(1) %out, align 4
  ret void
}

define ptx_kernel void @once(ptr addrspace(1) %objs, ptr addrspace(1) %out) {
entry:
  %o = load ptr, ptr addrspace(1) %objs, align 8
  %a = load float, ptr %o, align 4
  store float %a, ptr addrspace(1) %out, align 4
  ret void
}

define ptx_kernel void @offsets(ptr addrspace(1) %objs, ptr addrspace(1) %out, i64 %off, i32 %n) {
entry:
  %o = load ptr, ptr addrspace(1) %objs, align 8
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p1 = getelementptr inbounds i8, ptr %o, i64 4
  %a = load float, ptr %p1, align 4
  %p2 = getelementptr i8, ptr %o, i64 %off
  %b = load float, ptr %p2, align 4
  %ab = fadd float %a, %b
  store float %ab, ptr addrspace(1) %out, align 4
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define ptx_kernel void @copies(ptr addrspace(1) %objs, i64 %len, i32 %n) {
entry:
  %o = load ptr, ptr addrspace(1) %objs, align 8
  %q = getelementptr inbounds ptr, ptr addrspace(1) %objs, i32 1
  %d = load ptr, ptr addrspace(1) %q, align 8
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %o, i64 %len, i1 false)
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

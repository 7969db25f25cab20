; Loop blocks' counters beyond the budget in local memory on amdgcn (see
; nvptx-loop-counters-in-memory.ll).
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-loop-counter-registers=8 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-loop-counter-registers=16 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=ALL %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK: @[[MEM:__pasta_flush_indices[.0-9]*]] = {{.*}} constant [2 x i32] [i32 5, i32 8]
; CHECK: @[[REST:__pasta_flush_indices[.0-9]*]] = {{.*}} constant [8 x i32] [i32 2, i32 3, i32 4, i32 6, i32 7, i32 9, i32 10, i32 11]
; CHECK-LABEL: define amdgpu_kernel void @many(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [2 x i64], align 8, addrspace(5)
; CHECK-NEXT: %[[Z0:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 0
; CHECK-NEXT: store i64 0, ptr addrspace(5) %[[Z0]]
; CHECK-NEXT: %[[Z1:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 8
; CHECK-NEXT: store i64 0, ptr addrspace(5) %[[Z1]]
; CHECK-NOT: asm
; CHECK-NOT: store volatile
; CHECK: b0:
; CHECK-NOT: volatile
; CHECK: b3:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 0
; CHECK-NEXT: load volatile i64, ptr addrspace(5)
; CHECK-NEXT: add i64
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 0
; CHECK-NEXT: store volatile i64
; CHECK: b4:
; CHECK-NOT: volatile
; CHECK: b6:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 8
; CHECK-NEXT: load volatile i64, ptr addrspace(5)
; CHECK-NEXT: add i64
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.mem, i64 8
; CHECK-NEXT: store volatile i64
; CHECK: b7:
; CHECK-NOT: volatile
; CHECK: b8:
; CHECK: t9:
; CHECK-NOT: load volatile
; CHECK: call void @__pasta_flush_indexed({{.*}}, ptr addrspace(1) @[[REST]], i32 8)
; CHECK-NEXT: %[[GEN:[0-9]+]] = addrspacecast ptr addrspace(5) %pasta.counts.mem to ptr
; CHECK-NEXT: call void @__pasta_flush_indexed({{.*}}, ptr %[[GEN]], ptr addrspace(1) @[[MEM]], i32 2)
; ALL-LABEL: define amdgpu_kernel void @many(
; ALL-NOT: volatile
; ALL: ret void
define amdgpu_kernel void @many(ptr addrspace(1) %a, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %t9 ]
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p
  %c0 = fcmp olt float %v, 0.0
  br i1 %c0, label %b0, label %t0
b0:
  store float 0.0, ptr addrspace(1) %p
  br label %t0
t0:
  %c1 = fcmp olt float %v, 1.0
  br i1 %c1, label %b1, label %t1
b1:
  store float 1.0, ptr addrspace(1) %p
  br label %t1
t1:
  %c2 = fcmp olt float %v, 2.0
  br i1 %c2, label %b2, label %t2
b2:
  store float 2.0, ptr addrspace(1) %p
  br label %t2
t2:
  %c3 = fcmp olt float %v, 3.0
  br i1 %c3, label %b3, label %t3, !prof !0
b3:
  store float 3.0, ptr addrspace(1) %p
  br label %t3
t3:
  %c4 = fcmp olt float %v, 4.0
  br i1 %c4, label %b4, label %t4
b4:
  store float 4.0, ptr addrspace(1) %p
  br label %t4
t4:
  %c5 = fcmp olt float %v, 5.0
  br i1 %c5, label %b5, label %t5
b5:
  store float 5.0, ptr addrspace(1) %p
  br label %t5
t5:
  %c6 = fcmp olt float %v, 6.0
  br i1 %c6, label %b6, label %t6, !prof !0
b6:
  store float 6.0, ptr addrspace(1) %p
  br label %t6
t6:
  %c7 = fcmp olt float %v, 7.0
  br i1 %c7, label %b7, label %t7
b7:
  store float 7.0, ptr addrspace(1) %p
  br label %t7
t7:
  %c8 = fcmp olt float %v, 8.0
  br i1 %c8, label %b8, label %t8
b8:
  store float 8.0, ptr addrspace(1) %p
  br label %t8
t8:
  %c9 = fcmp olt float %v, 9.0
  br i1 %c9, label %b9, label %t9
b9:
  store float 9.0, ptr addrspace(1) %p
  br label %t9
t9:
  %i.next = add nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 1000}

; Beyond 8 counters of loop blocks (-pasta-loop-counter-registers), the
; coldest by the blocks' estimated frequency stay in local memory: volatile
; loads and stores of the 64-bit slots of one array (zeroed whole at the
; entry, in place of each counter's own initial store), which neither
; mem2reg nor the code generator's SROA promotes (CounterEmission.cpp,
; countsInLocalMemory, keepCountsInOneArray), each addressed at its use
; from one base in the local space (an empty asm move: no slot address
; for the back end to hoist into a register of its own). Ten blocks on
; loaded data in a loop over a 64-bit bound (counters 2-11 in block order,
; the out-of-line flush's table); two of them (%b3, %b6: counters 5 and 8)
; are cold by their branch weights (the third of the eleven loop counters
; left out, %b9's, is the last of equal frequency). The exit flushes the
; array itself, in a call of its own with its slots' counters, and stages
; only the other eight. With a budget of 16, or in the divergence build,
; all stay in registers.
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-loop-counter-registers=8 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-loop-counter-registers=16 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=ALL %s
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-divergence -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=ALL %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @[[MEM:__pasta_flush_indices[0-9]*]] = {{.*}} constant [2 x i32] [i32 5, i32 8]
; CHECK: @[[REST:__pasta_flush_indices[0-9]*]] = {{.*}} constant [8 x i32] [i32 2, i32 3, i32 4, i32 6, i32 7, i32 9, i32 10, i32 11]
; CHECK-LABEL: define ptx_kernel void @many(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [2 x i64], align 8
; CHECK-NEXT: %[[CAST:[0-9]+]] = addrspacecast ptr %pasta.counts.mem to ptr addrspace(5)
; CHECK-NEXT: %pasta.counts.local = call ptr addrspace(5) asm "", "=l,0"(ptr addrspace(5) %[[CAST]])
; CHECK-NEXT: %[[Z0:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: store i64 0, ptr addrspace(5) %[[Z0]]
; CHECK-NEXT: %[[Z1:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 8
; CHECK-NEXT: store i64 0, ptr addrspace(5) %[[Z1]]
; CHECK-NOT: alloca i64
; CHECK-NOT: store volatile
; CHECK: b0:
; CHECK-NOT: volatile
; CHECK: b3:
; CHECK-NEXT: %[[A1:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: load volatile i64, ptr addrspace(5) %[[A1]]
; CHECK-NEXT: add i64
; CHECK-NEXT: %[[A2:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: store volatile i64 %{{[0-9]+}}, ptr addrspace(5) %[[A2]]
; CHECK: b4:
; CHECK-NOT: volatile
; CHECK: b6:
; CHECK-NEXT: %[[B1:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 8
; CHECK-NEXT: load volatile i64, ptr addrspace(5) %[[B1]]
; CHECK-NEXT: add i64
; CHECK-NEXT: %[[B2:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 8
; CHECK-NEXT: store volatile i64 %{{[0-9]+}}, ptr addrspace(5) %[[B2]]
; CHECK: b7:
; CHECK-NOT: volatile
; CHECK: b8:
; CHECK: t9:
; CHECK-NOT: load volatile
; CHECK: call void @__pasta_flush_indexed({{.*}}, ptr %pasta.flush, ptr addrspace(1) @[[REST]], i32 8)
; CHECK-NEXT: call void @__pasta_flush_indexed({{.*}}, ptr %pasta.counts.mem, ptr addrspace(1) @[[MEM]], i32 2)
; ALL-LABEL: define ptx_kernel void @many(
; ALL-NOT: volatile
; ALL: ret void
define ptx_kernel void @many(ptr %a, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %t9 ]
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p
  %c0 = fcmp olt float %v, 0.0
  br i1 %c0, label %b0, label %t0
b0:
  store float 0.0, ptr %p
  br label %t0
t0:
  %c1 = fcmp olt float %v, 1.0
  br i1 %c1, label %b1, label %t1
b1:
  store float 1.0, ptr %p
  br label %t1
t1:
  %c2 = fcmp olt float %v, 2.0
  br i1 %c2, label %b2, label %t2
b2:
  store float 2.0, ptr %p
  br label %t2
t2:
  %c3 = fcmp olt float %v, 3.0
  br i1 %c3, label %b3, label %t3, !prof !0
b3:
  store float 3.0, ptr %p
  br label %t3
t3:
  %c4 = fcmp olt float %v, 4.0
  br i1 %c4, label %b4, label %t4
b4:
  store float 4.0, ptr %p
  br label %t4
t4:
  %c5 = fcmp olt float %v, 5.0
  br i1 %c5, label %b5, label %t5
b5:
  store float 5.0, ptr %p
  br label %t5
t5:
  %c6 = fcmp olt float %v, 6.0
  br i1 %c6, label %b6, label %t6, !prof !0
b6:
  store float 6.0, ptr %p
  br label %t6
t6:
  %c7 = fcmp olt float %v, 7.0
  br i1 %c7, label %b7, label %t7
b7:
  store float 7.0, ptr %p
  br label %t7
t7:
  %c8 = fcmp olt float %v, 8.0
  br i1 %c8, label %b8, label %t8
b8:
  store float 8.0, ptr %p
  br label %t8
t8:
  %c9 = fcmp olt float %v, 9.0
  br i1 %c9, label %b9, label %t9
b9:
  store float 9.0, ptr %p
  br label %t9
t9:
  %i.next = add nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 1000}

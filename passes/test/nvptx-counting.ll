; Counter rows are padded to 16 (128 bytes) per bank; 4096 banks of 64 fit in 4 MiB.
; Block counters live in registers (phis after mem2reg) and are flushed once
; per thread at every return, through the linked and inlined device runtime:
; per counter a ballot (skip when the warp holds only zeros), a warp sum, and
; a `red` by the first lane (or, in a partial warp, by each lane with a count:
; the second `red`). Functions with more than 32 counters call __pasta_flush.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-prefetch-counter-rows=1 -pasta-place-counters=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-place-counters=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=LAUNCH
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-callee-counts=0 -pasta-inline-launch-count -pasta-prefetch-counter-rows=1 -S %s 2>/dev/null | FileCheck %s --check-prefix=INLINE
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=DEFAULT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__pasta_counters_{{[0-9a-f]+}} = internal addrspace(1) global [262144 x i64] zeroinitializer
; CHECK: @__pasta_desc_{{[0-9a-f]+}} = addrspace(1) constant {{.*}} { i32 1096045392, i32 22, i32 1, i32 4096, i32 4, i32 7, i32 64,

; CHECK-LABEL: define ptx_kernel void @loop(
; The first thread of the grid counts the launch, at entry, in bank 0.
; CHECK: entry:
; CHECK: %[[FIRST:[0-9]+]] = icmp eq i32 %{{[0-9]+}}, 0
; CHECK: br i1 %[[FIRST]]
; With -pasta-prefetch-counter-rows=1 (off by default), before the call,
; that thread (in the block of index x 0, thread index x 0) asks L2 for the kernel's counter lines: in bank row 0 (past the
; launch counter, whose line the call's own add brings) and in its own
; block's row (%smid and the block index x, as the flush's bank key; rows
; of 64 counters), its first and last counter's.
; CHECK: call i32 asm sideeffect "mov.u32 $0, %tid.x;"
; CHECK: call i32 asm sideeffect "mov.u32 $0, %smid;"
; CHECK: mul nuw i64 %{{[0-9]+}}, 64
; (The branch to it is taken by the warp that holds thread index x 0, a
; ballot: the prefetch tests the thread, the call after it too.)
; CHECK-COUNT-3: call void asm sideeffect "prefetch.global.L2 [$0];"
; CHECK: call void @__pasta_count_launch_first(ptr addrspace(1) noundef @__pasta_counters_{{[0-9a-f]+}})
; With -pasta-inline-launch-count the rest of the first-thread test and
; the add follow inline in that branch: no call.
; INLINE-LABEL: define ptx_kernel void @loop(
; INLINE: call i32 asm sideeffect "mov.u32 $0, %tid.x;"
; INLINE-COUNT-3: call void asm sideeffect "prefetch.global.L2 [$0];"
; INLINE-NOT: call void @__pasta_count_launch_first
; INLINE: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; INLINE-NOT: call void @__pasta_count_launch_first
; INLINE: call void asm sideeffect "red.relaxed.gpu.global.add.u64 [$0], $1;", "l,l,~{memory}"(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i64 1)
; INLINE-LABEL: define ptx_kernel void @loop__pasta_plain(
; The default: the launch count inline, no prefetch (neither showed a gain
; on an H200, the prefetch none at all).
; DEFAULT-LABEL: define ptx_kernel void @loop(
; DEFAULT: call i32 asm sideeffect "mov.u32 $0, %tid.x;"
; DEFAULT-NOT: prefetch.global.L2
; DEFAULT-NOT: call void @__pasta_count_launch_first
; DEFAULT: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; DEFAULT-NOT: prefetch.global.L2
; DEFAULT: call void asm sideeffect "red.relaxed.gpu.global.add.u64 [$0], $1;", "l,l,~{memory}"(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i64 1)
; DEFAULT-NOT: prefetch.global.L2
; DEFAULT-LABEL: define ptx_kernel void @loop__pasta_plain(
define ptx_kernel void @loop(ptr %a, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %early, label %body

; Nothing counted reaches the early return: no flush there.
; CHECK: early:
; CHECK-NEXT: ret void
early:
  ret void

; %body runs n times a thread, a count known before the loop: added at its
; exit, not 1 per iteration (nvptx-trip-counts.ll).
; CHECK: body:
; CHECK-NOT: add i64
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr %a, i32 %i
  %x = load float, ptr %p
  %y = fmul float %x, %x
  store float %y, ptr %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body

; CHECK: exit:
; CHECK: add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK: call void @helper(
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(
; CHECK: call void asm sideeffect "red.relaxed.gpu.global.add.u64
; CHECK: ret void
exit:
  call void @helper(ptr %a)
  ret void
}

; A device function counts its calls (per thread) and flushes at its return.
; Its pointer argument may point anywhere, so the store is classified at run
; time into 8 more counters (shared/local loads/stores and bytes).
; CHECK-LABEL: define internal void @helper(
; CHECK: call i1 @llvm.nvvm.isspacep.shared(ptr {{.*}}%a)
; CHECK: call i1 @llvm.nvvm.isspacep.local(ptr {{.*}}%a)
; CHECK: store float 0.0
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(
; CHECK: call void asm sideeffect "red.relaxed.gpu.global.add.u64
; CHECK: ret void
define internal void @helper(ptr %a) noinline {
  store float 0.0, ptr %a
  ret void
}

; 1 call counter + 4 blocks + 4 x 8 run-time space counters = 37 > 32: the
; counts are staged and flushed by one call.
; CHECK-LABEL: define internal void @many(
; CHECK: %pasta.flush = alloca [37 x i64]
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 64, i32 4096, i32 14, ptr %pasta.flush, i32 37)
; CHECK-NEXT: ret void
define internal void @many(ptr %a, i32 %k) noinline {
entry:
  switch i32 %k, label %d [ i32 0, label %b0
                            i32 1, label %b1
                            i32 2, label %b2 ]
b0:
  store float 0.0, ptr %a
  br label %done
b1:
  store float 1.0, ptr %a
  br label %done
b2:
  store float 2.0, ptr %a
  br label %done
d:
  store float 3.0, ptr %a
  br label %done
done:
  ret void
}

define ptx_kernel void @caller(ptr %p, i32 %k) {
  %g = getelementptr i8, ptr %p, i64 8
  %q = load ptr, ptr %g
  call void @many(ptr %q, i32 %k)
  ret void
}

; The runtime is linked, internal, and its inline helpers are gone.
; CHECK-LABEL: define internal void @__pasta_flush(
; CHECK-NOT: define {{.*}}@__pasta_count_launch
; CHECK-NOT: define {{.*}}@__pasta_flush_counter

; The rest of the first-thread test and the add, out of line: every other
; thread pays the x test alone (ptxas if-converted the inline form).
; LAUNCH-LABEL: define internal void @__pasta_count_launch_first(
; LAUNCH: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; LAUNCH: call void asm sideeffect "red.relaxed.gpu.global.add.u64 [$0], $1;", "l,l,~{memory}"(ptr addrspace(1) %0, i64 1)
; LAUNCH: ret void

; Bounds checks (passes/CounterPlacement.cpp, coldSuccessor): a branch that
; compares a thread's place in the grid (its block's and its own index) with
; a bound every thread shares is counted on its cold edge, the one leaving
; the bound, in a block split into that edge; the blocks inside the bound
; are derived from the threads launched. Warps inside the bound then flush
; only zeros, which skip their atomics.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Counters, function by function: @bounds 0 launches, 1 %then, 2 threads,
; 3 the cold edge; @early_return 4 launches, 5 %work, 6 %lead, 7 threads,
; 8 the cold edge; @both 9-12 as @bounds; @thread_only 13 launches, 14
; %then (nothing derived: `tid < 16` is no bounds check); @loaded_bound 15
; launches, 16 %entry (= threads), 17 %then (a bound read from memory is not
; shared: counted), 18 threads; @in_loop 19 launches, 20 %body, 21 %then
; (= body - cold), 22 the cold edge.
; SITES: pasta: func bounds kind=kernel calls=0
; SITES: pasta: func early_return kind=kernel calls=4
; SITES: pasta: func both kind=kernel calls=9
; SITES: pasta: func thread_only kind=kernel calls=13
; SITES: pasta: func loaded_bound kind=kernel calls=15
; SITES: pasta: func in_loop kind=kernel calls=19
; SITES: pasta: derived 1 = +1*c2 -1*c3
; SITES-NEXT: pasta: derived 5 = +1*c7 -1*c8
; SITES-NEXT: pasta: derived 10 = +1*c11 -1*c12
; SITES-NEXT: pasta: derived 16 = +1*c18
; SITES-NEXT: pasta: derived 21 = +1*c20 -1*c22
; SITES-NEXT: pasta: module counters=32

; `i < n`: the false edge is cold. Its split block counts the lanes that
; take it, there (__pasta_count_lanes, counter 3: no bit, nothing at a
; flush); %then counts nothing and flushes nothing: warps inside the bound
; leave without a vote.
; CHECK-LABEL: define ptx_kernel void @bounds(
; CHECK: call void @__pasta_count_launch_threads(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 2), i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}})
; CHECK: br i1 %in, label %then, label %entry.done_crit_edge
; CHECK: entry.done_crit_edge:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 32, i32 4096, i32 3)
; CHECK-NEXT: br label %done, !pasta.instrumentation
; CHECK: then:
; CHECK-NOT: call
; CHECK: done:
; CHECK-NEXT: ret void
define ptx_kernel void @bounds(ptr %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %done
then:
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  br label %done
done:
  ret void
}

; `if (i >= n) return;` into a shared return: the true edge is cold (split,
; as it is critical); `lane == 0` is no bounds check, %lead keeps its bit.
; CHECK-LABEL: define ptx_kernel void @early_return(
; CHECK: br i1 %out, label %entry.ret_crit_edge, label %work
; The cold way counts its lanes where it is taken (counter 8) and flushes
; nothing; %work's lanes and %lead's (`lane == 0` splits a warp) meet in one
; flush block, where %lead's bit, which one lane of a warp has, is added by
; that lane (no warp sum).
; CHECK: entry.ret_crit_edge:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 32, i32 4096, i32 8)
; CHECK-NEXT: br label %ret, !pasta.instrumentation
; CHECK: lead:
; CHECK-NEXT: or i32 0, 1
; CHECK: ret.pasta.flush: {{.*}} preds = %work, %lead
; CHECK-NOT: __pasta_count_lanes
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.0, i32 0)
; CHECK-NOT: __pasta_flush_bit_fast
; CHECK-NOT: __pasta_flush_any
; CHECK: ret:
; CHECK-NEXT: ret void
define ptx_kernel void @early_return(ptr %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  %lane = and i32 %t, 31
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; A 2-D check, `row < h && col < w` as clang emits it (a select), the bound
; on the left: the false edge is cold.
; CHECK-LABEL: define ptx_kernel void @both(
; CHECK: br i1 %in, label %then, label %entry.done_crit_edge
define ptx_kernel void @both(ptr %a, i32 %h, i32 %w) {
entry:
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %by16 = shl i32 %by, 4
  %row = add i32 %by16, %ty
  %bx16 = shl i32 %bx, 4
  %col = add i32 %bx16, %tx
  %r.in = icmp sgt i32 %h, %row
  %c.in = icmp ult i32 %col, %w
  %in = select i1 %r.in, i1 %c.in, i1 false
  br i1 %in, label %then, label %done
then:
  store float 1.0, ptr %a
  br label %done
done:
  ret void
}

; Thread-only and memory-bound comparisons are not bounds checks: their
; blocks are counted, nothing is split.
; CHECK-LABEL: define ptx_kernel void @thread_only(
; CHECK-NOT: crit_edge
; CHECK: then:
; CHECK-NEXT: or i32 0, 1
; CHECK-NOT: __pasta_flush_any
; CHECK: ret void
define ptx_kernel void @thread_only(ptr %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 16
  br i1 %low, label %then, label %done
then:
  store float 1.0, ptr %a
  br label %done
done:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loaded_bound(
; CHECK-NOT: crit_edge
; CHECK: then:
; CHECK-NEXT: or i32 0, 1
define ptx_kernel void @loaded_bound(ptr %a, ptr %np) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %n = load i32, ptr %np
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %done
then:
  store float 1.0, ptr %a
  br label %done
done:
  ret void
}

; A bounds check in a loop, its index an induction variable: the cold edge
; is on the loop's cycle, so it is counted in 64 bits, and %then is derived
; from the loop's counted %body.
; CHECK-LABEL: define ptx_kernel void @in_loop(
; CHECK: body.latch_crit_edge:
; CHECK-NEXT: %{{[0-9]+}} = add i64 %{{.*}}, 1
; CHECK-NEXT: br label %latch, !pasta.instrumentation
; CHECK: then:
; CHECK-NOT: add i64
; CHECK: latch:
; The loop's own count is live at the return, non-zero in most warps: no
; vote before the flush.
; CHECK-NOT: __pasta_flush_any
; CHECK: ret void
define ptx_kernel void @in_loop(ptr %a, i32 %n, i32 %k0) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %k = add i32 %k0, %b ; trips that differ between thread blocks
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i0 = add i32 %bd, %t
  br label %body
body:
  %j = phi i32 [ 0, %entry ], [ %j.next, %latch ]
  %off = shl i32 %j, 20
  %i = add i32 %i0, %off
  %q = getelementptr float, ptr %a, i32 %j
  %v = load float, ptr %q
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %latch
then:
  store float 1.0, ptr %a
  br label %latch
latch:
  %j.next = add i32 %j, 1
  %more = icmp slt i32 %j.next, %k
  br i1 %more, label %body, label %done
done:
  ret void
}

; A bounds check around a loop (kmeans_assign's shape) is left alone: the
; loop's count is flushed by every warp anyway. Nothing is split, and %tail
; keeps its bit.
; CHECK-LABEL: define ptx_kernel void @around_loop(
; CHECK-NOT: crit_edge
; CHECK: tail:
; CHECK-NEXT: or i32 0, 1
; CHECK-NOT: __pasta_flush_any
; CHECK: ret void
define ptx_kernel void @around_loop(ptr %a, i32 %n, i32 %k0) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %k = add i32 %k0, %b
  %in = icmp slt i32 %i, %n
  br i1 %in, label %loop, label %done
loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  store float 1.0, ptr %a
  %j.next = add i32 %j, 1
  %more = icmp slt i32 %j.next, %k
  br i1 %more, label %loop, label %tail
tail:
  store float 2.0, ptr %a
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

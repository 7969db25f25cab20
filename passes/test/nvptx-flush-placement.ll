; Where the flush goes and what it flushes (runtime calls left visible):
; every return flushes only the counters of blocks that can reach it, behind
; one fast-path test (full warp, small counts) with a general path beside it.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-prefetch-counter-rows=1 -pasta-place-counters=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; The default: no prefetch.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-place-counters=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=NOPREFETCH

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Counters: 0 = launches, 1 = %work (the loop), 2 = %tail. The launch is
; counted at entry by the first thread of the grid, in bank 0; with
; -pasta-prefetch-counter-rows=1 that thread also asks L2 for the lines of
; the kernel's 3 counters in row 0 and in its own block's row, which the
; flush at exit adds to (by default it passes 0: no prefetch). A row holds the
; module's counters padded to 128 bytes: over 16 here (store_any's site has
; 8 run-time address-space counters), so 32; 4096 banks (the most) of 256
; bytes fit in 4 MiB.
; CHECK-LABEL: entry:
; CHECK-NEXT: call void @__pasta_count_launch(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 32, i32 4096, i32 3)
; NOPREFETCH-LABEL: entry:
; NOPREFETCH-NEXT: call void @__pasta_count_launch(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 32, i32 4096, i32 0)
define ptx_kernel void @k(ptr %a, i32 %n) {
entry:
  %skip = icmp sle i32 %n, 0
  br i1 %skip, label %early, label %work

; The early return cannot be reached from %work or %tail, and launches are
; counted at entry: nothing is flushed there.
; CHECK-LABEL: early:
; CHECK-NOT: __pasta_flush
; CHECK: ret void
early:
  ret void

work:
  %i = phi i32 [ 0, %entry ], [ %i.next, %work ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %work, label %tail

; The last return flushes the two block counters, on both paths.
; CHECK-LABEL: tail:
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK-COUNT-2: call void @__pasta_flush_counter_fast(
; CHECK-NOT: call void @__pasta_flush_counter_fast(
; CHECK-COUNT-2: call void @__pasta_flush_counter(
; CHECK: ret void
tail:
  store float 2.0, ptr %a
  ret void
}

; A device function's store through a generic pointer gets 8 run-time
; address-space counters, 4 of them for stores: those are flushed after one
; test that skips all 4 (the 4 for loads stay zero and are not flushed:
; nvptx-flush-group-half.ll).
; CHECK-LABEL: define void @store_any(
; CHECK: call void @__pasta_flush_counter_fast(
; CHECK: call i64 @__pasta_flush_any(
; CHECK-COUNT-4: call void @__pasta_flush_counter_fast(
; CHECK-NOT: call void @__pasta_flush_counter_fast(
; CHECK: call i64 @__pasta_flush_any(
; CHECK-COUNT-4: call void @__pasta_flush_counter(
; CHECK-NOT: __pasta_flush_group
; CHECK: ret void
define void @store_any(ptr %p) noinline {
  store i32 7, ptr %p
  ret void
}

define ptx_kernel void @calls_store_any(ptr %base) {
  %g = getelementptr i8, ptr %base, i64 8
  %q = load ptr, ptr %g
  call void @store_any(ptr %q)
  ret void
}

; Blocks that run alike in every thread block (passes/BlockInvariance.h):
; their counters are flushed by the grid's first thread block alone, each
; warp sum times the number of thread blocks (__pasta_first_block_scale,
; __pasta_flush_scaled, __pasta_flush_bits_scaled); every other warp skips
; them. Blocks that a block-variant value decides (the block index, memory,
; a phi merging what such a branch decided) are flushed by every warp.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.args = type { i32 }

; A shared-memory tree over the thread index, a loop over a kernel
; argument and a bound read from a by-value parameter: all alike. Nothing is
; flushed per warp.
; @tree's table of bits (below).
; CHECK: @__pasta_flush_bits = private unnamed_addr addrspace(1) constant [32 x i32] [i32 1, i32 4, i32 0,
; CHECK-LABEL: define ptx_kernel void @tree(
; Counters 1 (%add, bit 0), 2 (%loop, 64 bits) and 4 (%last, bit 1) go to
; the first block's row (bank 0), out of line: one call for the 64-bit
; count, one for the mask (live bits 3; its table maps bit 0 to counter 1,
; bit 1 to counter 4); 3 (%tail) is derived from the threads.
; CHECK: ret:
; CHECK: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp ne i64 %[[SCALE]], 0
; CHECK-NEXT: br i1 %[[FIRST]], label %[[FLUSH:[0-9]+]], label %[[DONE:[0-9]+]], !pasta.instrumentation
; CHECK: [[FLUSH]]:
; CHECK-NEXT: call void @__pasta_flush_scaled(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 2), i64 %{{[0-9]+}}, i64 %[[SCALE]])
; CHECK-NEXT: call void @__pasta_flush_bits_scaled(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 0, i32 %pasta.count.1, i32 3, ptr addrspace(1) @__pasta_flush_bits, i64 %[[SCALE]])
; CHECK-NEXT: br label %[[DONE]]
; CHECK: [[DONE]]:
; CHECK-NOT: __pasta_flush
; CHECK: ret void
define ptx_kernel void @tree(ptr addrspace(3) %s, i32 %n, ptr byval(%struct.args) %args) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %even = and i32 %t, 1
  %is.even = icmp eq i32 %even, 0
  br i1 %is.even, label %add, label %loop
add:
  store float 1.0, ptr addrspace(3) %s
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ 0, %add ], [ %i.next, %loop ]
  store float 2.0, ptr addrspace(3) %s
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %tail
tail:
  %bound.p = getelementptr %struct.args, ptr %args, i32 0, i32 0
  %bound = load i32, ptr %bound.p
  %low = icmp ult i32 %t, %bound
  br i1 %low, label %last, label %ret
last:
  store float 3.0, ptr addrspace(3) %s
  br label %ret
ret:
  ret void
}

; %half runs alike (a thread-index test). The block index decides %first;
; %after post-dominates it and runs alike (derived here: once per thread);
; %low then depends on a phi merging what the block index decided: %last is
; block-variant too. A bound read from global memory makes %mem variant.
; One scaled flush (%half), three bits per warp (%first, %last, %mem).
; CHECK-LABEL: define ptx_kernel void @variant(
; CHECK: ret:
; CHECK: call i64 @__pasta_first_block_scale()
; CHECK: call void @__pasta_flush_bits_scaled(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 6, i32 %{{.*}}, i32 1,
; CHECK-NOT: call void @__pasta_flush_bits_scaled(
; CHECK: call i64 @__pasta_flush_is_full_warp()
; CHECK: call void @__pasta_flush_bits_fast({{.*}}, i32 3)
; CHECK: ret void
define ptx_kernel void @variant(ptr addrspace(3) %s, ptr addrspace(1) %g) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lower = icmp ult i32 %t, 16
  br i1 %lower, label %half, label %split
half:
  store float 0.0, ptr addrspace(3) %s
  br label %split
split:
  %is.first = icmp eq i32 %b, 0
  br i1 %is.first, label %first, label %after
first:
  store float 1.0, ptr addrspace(3) %s
  br label %after
after:
  %k = phi i32 [ 1, %first ], [ 2, %split ]
  store float 2.0, ptr addrspace(3) %s
  %low = icmp ult i32 %t, %k
  br i1 %low, label %last, label %check
last:
  store float 3.0, ptr addrspace(3) %s
  br label %check
check:
  %m = load i32, ptr addrspace(1) %g
  %big = icmp ugt i32 %t, %m
  br i1 %big, label %mem, label %ret
mem:
  store float 4.0, ptr addrspace(3) %s
  br label %ret
ret:
  ret void
}

; A loop left when a value read from memory says so: its blocks run as
; often as that value decides (variant), the block after it once per
; thread (alike, here derived from the threads).
; CHECK-LABEL: define ptx_kernel void @search(
; CHECK: done:
; CHECK-NOT: __pasta_first_block_scale
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: ret void
define ptx_kernel void @search(ptr addrspace(1) %g, ptr addrspace(3) %s) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %g, i64 %i
  %v = load i32, ptr addrspace(1) %p
  %i.next = add i64 %i, 1
  %found = icmp eq i32 %v, 0
  br i1 %found, label %done, label %loop
done:
  store float 1.0, ptr addrspace(3) %s
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

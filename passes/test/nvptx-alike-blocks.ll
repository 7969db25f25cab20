; Blocks that run alike in every thread block (passes/BlockInvariance.h):
; their counters are flushed by the grid's first thread block alone, each
; warp sum times the number of thread blocks (__pasta_first_block_scale,
; __pasta_flush_scaled, __pasta_flush_bits_scaled); every other warp skips
; them. Blocks that a block-variant value decides (the block index, memory,
; a phi merging what such a branch decided) are flushed by every warp.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-packed-bit-indices=0 -S %s | FileCheck %s --check-prefix=TABLE
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-lane-adds-batch=2 -S %s | FileCheck %s --check-prefix=B2
; A divergence copy (-pasta-divergence) keeps the first block's flush too,
; through the inline forms (full warps of small counts inline, the others
; call the out-of-line ones): per warp, it was 105-109 of bpnn_layerforward's
; 355 SASS instructions per warp on an H200.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s --check-prefix=DIVFB
; With -pasta-div-alike-first-block=0 the same counters are flushed by
; every warp into its bank row, scale 1 (the first block's flush once raised
; matmul_tiled's uncapped copy from 80 to 85 registers), through the same
; inline forms: hotspot's copy spent some 58 of its 731 SASS instructions
; per warp in the out-of-line call, on an H200; -pasta-div-inline-warp-flush=0
; keeps the calls.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-alike-first-block=0 -S %s | FileCheck %s --check-prefixes=DIV,DIVINL
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-alike-first-block=0 -pasta-div-inline-warp-flush=0 -S %s | FileCheck %s --check-prefixes=DIV,DIVCALL
; With -pasta-inline-first-block-flush=2 the first block's counts go
; through the inline forms (full warps inline, partial warps and large
; counts call the out-of-line ones): the same arguments, no call of an
; out-of-line flush at the exit itself; =1 inlines the bits' flush alone.
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-inline-first-block-flush=2 -pasta-batched-lane-adds=0 -S %s | FileCheck %s --check-prefix=INL
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-inline-first-block-flush=1 -pasta-batched-lane-adds=0 -S %s | FileCheck %s --check-prefix=BITS
; The default is =1, with -pasta-batched-lane-adds (counting builds): a full
; warp counts each alike bit by a ballot, then lane 0 adds the counts times
; the scale in one branch; a partial warp calls the out-of-line flush.
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=BATCH
; With -pasta-predicated-lane-adds (off by default) the adds are calls
; that lane 0 alone runs, under a predicate: no branch between the sums and
; the adds, nor between one add and the next.
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-predicated-lane-adds -S %s | FileCheck %s --check-prefix=PRED
; Below =2 the 64-bit count's call goes through the warp's test of it
; (__pasta_flush_scaled_nonzero: a warp of zeros skips the call; CUB's
; single-tile reduction called six such flushes in every warp, of which
; one or two add); -pasta-test-scaled-flush=0 calls the flush directly.
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-test-scaled-flush=0 -pasta-batched-lane-adds=0 -S %s | FileCheck %s --check-prefix=CALL
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-batched-lane-adds=0 -S %s | FileCheck %s --check-prefix=FAST
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=BFAST
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-predicated-lane-adds -S %s | FileCheck %s --check-prefix=PFAST
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-first-block-fast-flush=0 -S %s | FileCheck %s --check-prefix=NOFAST

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.args = type { i32 }

; A shared-memory tree over the thread index, a loop over a kernel
; argument and a bound read from a by-value parameter: all alike. Nothing is
; flushed per warp.
; CHECK-LABEL: define ptx_kernel void @tree(
; Counters 1 (%add, bit 0), 2 (%loop, 64 bits) and 4 (%last, bit 1) go to
; the first block's row (bank 0), out of line: one call for the 64-bit
; count, one for both bits (row 0's slots 1 and 4 by value, bits 0 and 1,
; n = 2); 3 (%tail) is derived from the threads.
; CHECK: ret:
; CHECK: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp ne i64 %[[SCALE]], 0
; CHECK-NEXT: br i1 %[[FIRST]], label %[[FLUSH:[0-9]+]], label %[[DONE:[0-9]+]], !pasta.instrumentation
; CHECK: [[FLUSH]]:
; CHECK-NEXT: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2), i64 %{{[0-9]+}}, i64 %[[SCALE]])
; CHECK-NEXT: call void @__pasta_flush_bits_scaled(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), i32 %pasta.count.1, i32 0, i32 1, i32 0, i32 0, i32 2, i64 %[[SCALE]])
; CHECK-NEXT: br label %[[DONE]]
; CHECK: [[DONE]]:
; CHECK-NOT: __pasta_flush
; CHECK: ret void
; CALL-LABEL: define ptx_kernel void @tree(
; CALL: ret:
; CALL-NOT: __pasta_flush_scaled_nonzero
; CALL: call void @__pasta_flush_scaled(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2),
; CALL-NEXT: call void @__pasta_flush_bits_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1),
; CALL: ret void
; INL-LABEL: define ptx_kernel void @tree(
; INL: ret:
; INL: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; INL-NOT: call void @__pasta_flush_scaled(
; INL: call void @__pasta_flush_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2), i64 %{{[0-9]+}}, i64 %[[SCALE]])
; INL-NEXT: call void @__pasta_flush_bits_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), i32 %pasta.count.1, i32 0, i32 1, i32 0, i32 0, i32 2, i64 %[[SCALE]])
; INL-NOT: call void @__pasta_flush_{{(bits_)?}}scaled(
; INL: ret void
; BITS-LABEL: define ptx_kernel void @tree(
; BITS: ret:
; BITS: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2),
; BITS-NEXT: call void @__pasta_flush_bits_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1),
; BITS-NOT: call void @__pasta_flush_{{(bits_)?}}scaled
; BITS: ret void
; BATCH-LABEL: define ptx_kernel void @tree(
; BATCH: ret:
; BATCH: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; BATCH: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2),
; BATCH-NEXT: %[[FULL:[0-9]+]] = call i64 @__pasta_flush_is_full_warp()
; BATCH-NEXT: %[[ISFULL:[0-9]+]] = icmp ne i64 %[[FULL]], 0
; BATCH-NEXT: br i1 %[[ISFULL]], label %[[COUNT:[0-9]+]], label %[[PARTIAL:[0-9]+]], !pasta.instrumentation
; BATCH: [[COUNT]]:
; BATCH-NEXT: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; BATCH-NEXT: %[[N0:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %pasta.count.1, i32 0)
; BATCH-NEXT: %[[N1:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %pasta.count.1, i32 1)
; BATCH-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[LANE]], 0
; BATCH-NEXT: br i1 %[[L0]], label %[[ADDS:[0-9]+]], label %{{[0-9]+}}, !pasta.instrumentation
; BATCH: [[ADDS]]:
; BATCH-NEXT: %[[Z0:[0-9]+]] = zext i32 %[[N0]] to i64
; BATCH-NEXT: %[[M0:[0-9]+]] = mul i64 %[[Z0]], %[[SCALE]]
; BATCH-NEXT: call void @__pasta_add_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), i64 %[[M0]])
; BATCH-NEXT: %[[Z1:[0-9]+]] = zext i32 %[[N1]] to i64
; BATCH-NEXT: %[[M1:[0-9]+]] = mul i64 %[[Z1]], %[[SCALE]]
; BATCH-NEXT: call void @__pasta_add_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), i64 %[[M1]])
; BATCH: [[PARTIAL]]:
; BATCH-NEXT: call void @__pasta_flush_bits_scaled(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), {{.*}}, i32 %pasta.count.1, i32 0, i32 1, i32 0, i32 0, i32 2, i64 %[[SCALE]])
; BATCH-NOT: __pasta_flush_bits_scaled_inline
; BATCH: ret void
; PRED-LABEL: define ptx_kernel void @tree(
; PRED: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; PRED: %[[FULL:[0-9]+]] = call i64 @__pasta_flush_is_full_warp()
; PRED: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; PRED-NEXT: %[[N0:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %pasta.count.1, i32 0)
; PRED-NEXT: %[[N1:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %pasta.count.1, i32 1)
; PRED-NEXT: %[[Z0:[0-9]+]] = zext i32 %[[N0]] to i64
; PRED-NEXT: %[[M0:[0-9]+]] = mul i64 %[[Z0]], %[[SCALE]]
; PRED-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 1), i64 %[[M0]], i32 %[[LANE]])
; PRED-NEXT: %[[Z1:[0-9]+]] = zext i32 %[[N1]] to i64
; PRED-NEXT: %[[M1:[0-9]+]] = mul i64 %[[Z1]], %[[SCALE]]
; PRED-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), i64 %[[M1]], i32 %[[LANE]])
; PRED-NEXT: br label
; PRED-NOT: __pasta_add_nonzero
; PRED: ret void
; The inline flush's three bits: their ballots, then their adds, with no
; branch.
; PRED-LABEL: define ptx_kernel void @variant(
; PRED: ret:
; PRED: call ptr addrspace(1) @__pasta_bank_row(
; PRED: %[[VLANE:[0-9]+]] = call i32 @__pasta_lane_id()
; PRED-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 1)
; PRED-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 2)
; PRED-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 3)
; PRED-NOT: br
; PRED-COUNT-3: call void @__pasta_add_from_lane_zero({{.*}}, i32 %[[VLANE]])
; PRED-NOT: __pasta_add_nonzero
; PRED: ret void
; DIVFB-LABEL: define ptx_kernel void @tree__pasta_div(
; DIVFB: ret:
; DIVFB-NOT: __pasta_bank_row
; DIVFB: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; DIVFB-NEXT: %[[FIRST:[0-9]+]] = icmp ne i64 %[[SCALE]], 0
; DIVFB-NEXT: br i1 %[[FIRST]], label %[[FLUSH:[0-9]+]], label %[[DONE:[0-9]+]], !pasta.instrumentation
; DIVFB: [[FLUSH]]:
; DIVFB-NEXT: call void @__pasta_flush_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID:[0-9a-f]+]], i32 2), i64 %{{[0-9]+}}, i64 %[[SCALE]])
; DIVFB-NEXT: call void @__pasta_flush_bits_scaled_inline(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 1), ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[ID]], i32 4), {{.*}}, i32 %pasta.count.1, i32 0, i32 1, i32 0, i32 0, i32 2, i64 %[[SCALE]])
; DIVFB-NEXT: br label %[[DONE]]
; DIVFB: [[DONE]]:
; DIVFB-NOT: __pasta_flush
; DIVFB: ret void
; DIV-LABEL: define ptx_kernel void @tree__pasta_div(
; DIV-NOT: __pasta_first_block_scale
; DIV: ret:
; DIV: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}})
; DIV-NOT: __pasta_first_block_scale
; DIV: %[[LOOP:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %[[ROW]], i64 16
; DIVINL-NEXT: call void @__pasta_flush_scaled_inline(ptr addrspace(1) %[[LOOP]], i64 %{{[0-9]+}}, i64 1)
; DIVCALL-NEXT: call void @__pasta_flush_scaled(ptr addrspace(1) %[[LOOP]], i64 %{{[0-9]+}}, i64 1)
; DIV-NEXT: %[[ADD:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %[[ROW]], i64 8
; DIV-NEXT: %[[LAST:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %[[ROW]], i64 32
; DIVINL: call void @__pasta_flush_bits_scaled_inline(ptr addrspace(1) %[[ADD]], ptr addrspace(1) %[[LAST]], {{.*}}, i32 0, i32 1, i32 0, i32 0, i32 2, i64 1)
; DIVCALL: call void @__pasta_flush_bits_scaled(ptr addrspace(1) %[[ADD]], ptr addrspace(1) %[[LAST]], {{.*}}, i32 0, i32 1, i32 0, i32 0, i32 2, i64 1)
; DIV-NOT: __pasta_first_block_scale
; DIV: ret void
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
; CHECK: call void @__pasta_flush_bits_scaled(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 7), {{.*}}, i32 0, i32 0, i32 0, i32 0, i32 1, i64
; CHECK-NOT: call void @__pasta_flush_bits_scaled(
; CHECK: call i64 @__pasta_flush_is_full_warp()
; CHECK: call i32 @__pasta_lane_id()
; CHECK-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 1)
; CHECK-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 2)
; CHECK-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 3)
; CHECK-NEXT: icmp eq i32
; CHECK-NEXT: br i1
; CHECK-COUNT-3: call void @__pasta_add_nonzero(
; CHECK-NOT: call void @__pasta_flush_bit_fast(
; CHECK-NOT: call void @__pasta_add_nonzero(
; At most -pasta-lane-adds-batch counts a lane-0 branch (default 4): with
; 2, bits 1 and 2 in one branch, bit 3 in the next.
; B2-LABEL: define ptx_kernel void @variant(
; B2: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; B2-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 1)
; B2-NEXT: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 2)
; B2-NEXT: icmp eq i32 %[[LANE]], 0
; B2-NEXT: br i1
; B2-COUNT-2: call void @__pasta_add_nonzero(
; B2: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 3)
; B2-NEXT: icmp eq i32 %[[LANE]], 0
; B2-NEXT: br i1
; B2: call void @__pasta_add_nonzero(
; B2-NOT: call void @__pasta_add_nonzero(
; B2: ret void
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

; Two loops alike in every block (CUB's single-tile reduction has six, of
; which three run in Thrust's test): one ballot of both 64-bit counts (the or of
; them, __pasta_flush_any) before their tested calls, so that a warp whose
; counts are all zero skips both in one test. Where both counts are 32-bit
; (the FAST lines: the counters narrowed, here the loops' trip counts), a
; full warp of small counts (__pasta_flush_is_fast of the or) then sums
; each inline (__pasta_flush_scaled_fast), any other warp makes the tested
; calls; with a 64-bit count (the default prefix's run, with
; -pasta-narrow-counters=0) only the tested calls, as before (lud's and
; nw's first blocks); -pasta-first-block-fast-flush=0 (the NOFAST lines):
; the tested calls alone. -pasta-test-scaled-flush=0: the calls as before,
; no ballot.
; CHECK-LABEL: define ptx_kernel void @twoloops(
; CHECK: ret:
; CHECK: call i64 @__pasta_first_block_scale()
; CHECK: %[[OR:[0-9]+]] = or i64 %{{[0-9a-z.]+}}, %{{[0-9a-z.]+}}
; CHECK-NEXT: %[[ANY:[0-9]+]] = call i64 @__pasta_flush_any(i64 %[[OR]])
; CHECK-NEXT: %[[TEST:[0-9]+]] = icmp ne i64 %[[ANY]], 0
; CHECK-NEXT: br i1 %[[TEST]], label %[[WIDE:[0-9]+]], label %{{[0-9]+}}, !pasta.instrumentation
; CHECK: [[WIDE]]:
; CHECK-NEXT: call void @__pasta_flush_scaled_nonzero(
; CHECK-NEXT: call void @__pasta_flush_scaled_nonzero(
; CHECK-NOT: __pasta_flush_scaled
; CHECK: ret void
; FAST-LABEL: define ptx_kernel void @twoloops(
; FAST: ret:
; FAST: call i64 @__pasta_first_block_scale()
; FAST: %[[Z1:[0-9]+]] = zext i32 %{{[0-9a-z.]+}} to i64
; FAST-NEXT: %[[Z2:[0-9]+]] = zext i32 %{{[0-9a-z.]+}} to i64
; FAST-NEXT: %[[OR:[0-9]+]] = or i64 %[[Z1]], %[[Z2]]
; FAST-NEXT: %[[ANY:[0-9]+]] = call i64 @__pasta_flush_any(i64 %[[OR]])
; FAST-NEXT: %[[TEST:[0-9]+]] = icmp ne i64 %[[ANY]], 0
; FAST-NEXT: br i1 %[[TEST]], label %[[WIDE:[0-9]+]], label %{{[0-9]+}}, !pasta.instrumentation
; FAST: [[WIDE]]:
; FAST-NEXT: %[[ISFAST:[0-9]+]] = call i64 @__pasta_flush_is_fast(i64 %[[OR]])
; FAST-NEXT: %[[FASTTEST:[0-9]+]] = icmp ne i64 %[[ISFAST]], 0
; FAST-NEXT: br i1 %[[FASTTEST]], label %[[INLINE:[0-9]+]], label %[[CALLS:[0-9]+]], !pasta.instrumentation
; FAST: [[INLINE]]:
; FAST-NEXT: %[[V1:[0-9]+]] = zext i32 %[[C1:[0-9a-z.]+]] to i64
; FAST-NEXT: call void @__pasta_flush_scaled_fast(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID:[0-9a-f]+]], i32 [[S1:[0-9]+]]), i64 %[[V1]], i64 %[[S:[0-9]+]])
; FAST-NEXT: %[[V2:[0-9]+]] = zext i32 %[[C2:[0-9a-z.]+]] to i64
; FAST-NEXT: call void @__pasta_flush_scaled_fast(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S2:[0-9]+]]), i64 %[[V2]], i64 %[[S]])
; FAST: [[CALLS]]:
; FAST-NEXT: %[[W1:[0-9]+]] = zext i32 %[[C1]] to i64
; FAST-NEXT: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S1]]), i64 %[[W1]], i64 %[[S]])
; FAST-NEXT: %[[W2:[0-9]+]] = zext i32 %[[C2]] to i64
; FAST-NEXT: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S2]]), i64 %[[W2]], i64 %[[S]])
; FAST-NOT: __pasta_flush_scaled
; FAST: ret void
; With -pasta-batched-lane-adds (the default), the full warp's path takes
; both warp sums first, then lane 0 adds each times the scale in one branch.
; With -pasta-predicated-lane-adds each add is lane 0's predicated call:
; the sums, then the adds, no branch.
; PFAST-LABEL: define ptx_kernel void @twoloops(
; PFAST: call i64 @__pasta_flush_is_fast(
; PFAST-NEXT: icmp ne i64
; PFAST-NEXT: br i1 %{{[0-9]+}}, label %[[INLINE:[0-9]+]], label %[[CALLS:[0-9]+]], !pasta.instrumentation
; PFAST: [[INLINE]]:
; PFAST-NEXT: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; PFAST-NEXT: %[[V1:[0-9]+]] = zext i32 %{{[0-9a-z.]+}} to i64
; PFAST-NEXT: %[[SUM1:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %[[V1]])
; PFAST-NEXT: %[[V2:[0-9]+]] = zext i32 %{{[0-9a-z.]+}} to i64
; PFAST-NEXT: %[[SUM2:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %[[V2]])
; PFAST-NEXT: %[[Z1:[0-9]+]] = zext i32 %[[SUM1]] to i64
; PFAST-NEXT: %[[M1:[0-9]+]] = mul i64 %[[Z1]], %[[S:[0-9]+]]
; PFAST-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID:[0-9a-f]+]], i32 {{[0-9]+}}), i64 %[[M1]], i32 %[[LANE]])
; PFAST-NEXT: %[[Z2:[0-9]+]] = zext i32 %[[SUM2]] to i64
; PFAST-NEXT: %[[M2:[0-9]+]] = mul i64 %[[Z2]], %[[S]]
; PFAST-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 {{[0-9]+}}), i64 %[[M2]], i32 %[[LANE]])
; PFAST-NEXT: br label
; PFAST-NOT: __pasta_add_nonzero
; PFAST: ret void
; BFAST-LABEL: define ptx_kernel void @twoloops(
; BFAST: call i64 @__pasta_flush_is_fast(
; BFAST-NEXT: icmp ne i64
; BFAST-NEXT: br i1 %{{[0-9]+}}, label %[[INLINE:[0-9]+]], label %[[CALLS:[0-9]+]], !pasta.instrumentation
; BFAST: [[INLINE]]:
; BFAST-NEXT: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; BFAST-NEXT: %[[V1:[0-9]+]] = zext i32 %[[C1:[0-9a-z.]+]] to i64
; BFAST-NEXT: %[[SUM1:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %[[V1]])
; BFAST-NEXT: %[[V2:[0-9]+]] = zext i32 %[[C2:[0-9a-z.]+]] to i64
; BFAST-NEXT: %[[SUM2:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %[[V2]])
; BFAST-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[LANE]], 0
; BFAST-NEXT: br i1 %[[L0]], label %[[ADDS:[0-9]+]], label %{{[0-9]+}}, !pasta.instrumentation
; BFAST: [[ADDS]]:
; BFAST-NEXT: %[[Z1:[0-9]+]] = zext i32 %[[SUM1]] to i64
; BFAST-NEXT: %[[M1:[0-9]+]] = mul i64 %[[Z1]], %[[S:[0-9]+]]
; BFAST-NEXT: call void @__pasta_add_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID:[0-9a-f]+]], i32 [[S1:[0-9]+]]), i64 %[[M1]])
; BFAST-NEXT: %[[Z2:[0-9]+]] = zext i32 %[[SUM2]] to i64
; BFAST-NEXT: %[[M2:[0-9]+]] = mul i64 %[[Z2]], %[[S]]
; BFAST-NEXT: call void @__pasta_add_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S2:[0-9]+]]), i64 %[[M2]])
; BFAST-NOT: __pasta_flush_scaled_fast
; BFAST: [[CALLS]]:
; BFAST-NEXT: zext i32 %[[C1]] to i64
; BFAST-NEXT: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S1]]), i64 %{{[0-9]+}}, i64 %[[S]])
; BFAST-NEXT: zext i32 %[[C2]] to i64
; BFAST-NEXT: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_[[TID]], i32 [[S2]]), i64 %{{[0-9]+}}, i64 %[[S]])
; BFAST: ret void
; NOFAST-LABEL: define ptx_kernel void @twoloops(
; NOFAST: call i64 @__pasta_flush_any(
; NOFAST-NOT: __pasta_flush_is_fast
; NOFAST: call void @__pasta_flush_scaled_nonzero(
; NOFAST-NOT: __pasta_flush_is_fast
; NOFAST-NEXT: zext i32
; NOFAST-NEXT: call void @__pasta_flush_scaled_nonzero(
; NOFAST-NOT: __pasta_flush_scaled_fast
; NOFAST: ret void
; CALL-LABEL: define ptx_kernel void @twoloops(
; CALL-NOT: __pasta_flush_any
; CALL: call void @__pasta_flush_scaled(
; CALL-NEXT: call void @__pasta_flush_scaled(
; CALL-NOT: __pasta_flush_any
; CALL: ret void
define ptx_kernel void @twoloops(ptr addrspace(3) %s, i32 %n, i32 %m) {
entry:
  br label %one
one:
  %i = phi i32 [ 0, %entry ], [ %i.next, %one ]
  store float 1.0, ptr addrspace(3) %s
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %one, label %two
two:
  %j = phi i32 [ 0, %one ], [ %j.next, %two ]
  store float 2.0, ptr addrspace(3) %s
  %j.next = add i32 %j, 1
  %again = icmp slt i32 %j.next, %m
  br i1 %again, label %two, label %ret
ret:
  ret void
}

; More than 32 block-variant bits after the alike kernels: flushed per warp
; by __pasta_flush_bits_packed (their counters packed in constants), or with
; -pasta-packed-bit-indices=0 (TABLE) by __pasta_flush_bits, which must stay
; the runtime's function (bit tables were once named __pasta_flush_bits and
; took its name when one was made before the function's declaration: ptxas
; rejected the calls).
; CHECK-LABEL: define ptx_kernel void @many(
; CHECK: call void @__pasta_flush_bits_packed(ptr addrspace(1) %{{[0-9]+}}, i32 %{{.*}}, i32 -1, i64 {{[0-9]+}}, i64 {{[0-9]+}}, i64 {{[0-9]+}}, i64 {{[0-9]+}})
; CHECK: declare void @__pasta_flush_bits_packed(ptr addrspace(1), i32, i32, i64, i64, i64, i64)
; TABLE-LABEL: define ptx_kernel void @many(
; TABLE: call void @__pasta_flush_bits(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 %{{.*}}, i32 -1, ptr addrspace(1) @__pasta_bit_table{{[0-9]*}})
; TABLE: declare void @__pasta_flush_bits(ptr addrspace(1), i32, i32, i32, i32, i32, ptr addrspace(1))
define ptx_kernel void @many(ptr %a) {
entry:
  %k = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  br label %test0
test0:
  %c0 = icmp eq i32 %k, 0
  br i1 %c0, label %then0, label %test1
then0:
  store float 0.0, ptr %a
  br label %test1
test1:
  %c1 = icmp eq i32 %k, 1
  br i1 %c1, label %then1, label %test2
then1:
  store float 1.0, ptr %a
  br label %test2
test2:
  %c2 = icmp eq i32 %k, 2
  br i1 %c2, label %then2, label %test3
then2:
  store float 2.0, ptr %a
  br label %test3
test3:
  %c3 = icmp eq i32 %k, 3
  br i1 %c3, label %then3, label %test4
then3:
  store float 3.0, ptr %a
  br label %test4
test4:
  %c4 = icmp eq i32 %k, 4
  br i1 %c4, label %then4, label %test5
then4:
  store float 4.0, ptr %a
  br label %test5
test5:
  %c5 = icmp eq i32 %k, 5
  br i1 %c5, label %then5, label %test6
then5:
  store float 5.0, ptr %a
  br label %test6
test6:
  %c6 = icmp eq i32 %k, 6
  br i1 %c6, label %then6, label %test7
then6:
  store float 6.0, ptr %a
  br label %test7
test7:
  %c7 = icmp eq i32 %k, 7
  br i1 %c7, label %then7, label %test8
then7:
  store float 7.0, ptr %a
  br label %test8
test8:
  %c8 = icmp eq i32 %k, 8
  br i1 %c8, label %then8, label %test9
then8:
  store float 8.0, ptr %a
  br label %test9
test9:
  %c9 = icmp eq i32 %k, 9
  br i1 %c9, label %then9, label %test10
then9:
  store float 9.0, ptr %a
  br label %test10
test10:
  %c10 = icmp eq i32 %k, 10
  br i1 %c10, label %then10, label %test11
then10:
  store float 10.0, ptr %a
  br label %test11
test11:
  %c11 = icmp eq i32 %k, 11
  br i1 %c11, label %then11, label %test12
then11:
  store float 11.0, ptr %a
  br label %test12
test12:
  %c12 = icmp eq i32 %k, 12
  br i1 %c12, label %then12, label %test13
then12:
  store float 12.0, ptr %a
  br label %test13
test13:
  %c13 = icmp eq i32 %k, 13
  br i1 %c13, label %then13, label %test14
then13:
  store float 13.0, ptr %a
  br label %test14
test14:
  %c14 = icmp eq i32 %k, 14
  br i1 %c14, label %then14, label %test15
then14:
  store float 14.0, ptr %a
  br label %test15
test15:
  %c15 = icmp eq i32 %k, 15
  br i1 %c15, label %then15, label %test16
then15:
  store float 15.0, ptr %a
  br label %test16
test16:
  %c16 = icmp eq i32 %k, 16
  br i1 %c16, label %then16, label %test17
then16:
  store float 16.0, ptr %a
  br label %test17
test17:
  %c17 = icmp eq i32 %k, 17
  br i1 %c17, label %then17, label %test18
then17:
  store float 17.0, ptr %a
  br label %test18
test18:
  %c18 = icmp eq i32 %k, 18
  br i1 %c18, label %then18, label %test19
then18:
  store float 18.0, ptr %a
  br label %test19
test19:
  %c19 = icmp eq i32 %k, 19
  br i1 %c19, label %then19, label %test20
then19:
  store float 19.0, ptr %a
  br label %test20
test20:
  %c20 = icmp eq i32 %k, 20
  br i1 %c20, label %then20, label %test21
then20:
  store float 20.0, ptr %a
  br label %test21
test21:
  %c21 = icmp eq i32 %k, 21
  br i1 %c21, label %then21, label %test22
then21:
  store float 21.0, ptr %a
  br label %test22
test22:
  %c22 = icmp eq i32 %k, 22
  br i1 %c22, label %then22, label %test23
then22:
  store float 22.0, ptr %a
  br label %test23
test23:
  %c23 = icmp eq i32 %k, 23
  br i1 %c23, label %then23, label %test24
then23:
  store float 23.0, ptr %a
  br label %test24
test24:
  %c24 = icmp eq i32 %k, 24
  br i1 %c24, label %then24, label %test25
then24:
  store float 24.0, ptr %a
  br label %test25
test25:
  %c25 = icmp eq i32 %k, 25
  br i1 %c25, label %then25, label %test26
then25:
  store float 25.0, ptr %a
  br label %test26
test26:
  %c26 = icmp eq i32 %k, 26
  br i1 %c26, label %then26, label %test27
then26:
  store float 26.0, ptr %a
  br label %test27
test27:
  %c27 = icmp eq i32 %k, 27
  br i1 %c27, label %then27, label %test28
then27:
  store float 27.0, ptr %a
  br label %test28
test28:
  %c28 = icmp eq i32 %k, 28
  br i1 %c28, label %then28, label %test29
then28:
  store float 28.0, ptr %a
  br label %test29
test29:
  %c29 = icmp eq i32 %k, 29
  br i1 %c29, label %then29, label %test30
then29:
  store float 29.0, ptr %a
  br label %test30
test30:
  %c30 = icmp eq i32 %k, 30
  br i1 %c30, label %then30, label %test31
then30:
  store float 30.0, ptr %a
  br label %test31
test31:
  %c31 = icmp eq i32 %k, 31
  br i1 %c31, label %then31, label %test32
then31:
  store float 31.0, ptr %a
  br label %test32
test32:
  %c32 = icmp eq i32 %k, 32
  br i1 %c32, label %then32, label %test33
then32:
  store float 32.0, ptr %a
  br label %test33
test33:
  %c33 = icmp eq i32 %k, 33
  br i1 %c33, label %then33, label %test34
then33:
  store float 33.0, ptr %a
  br label %test34
test34:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Where a kernel's exit flush goes (passes/CounterEmission.cpp,
; InlineFlushLimit): up to 8 counters live at a return are flushed inline
; (one fast-path test, then a warp sum per counter, the general path
; beside it), more are staged in local memory and flushed by one call of
; __pasta_flush_indexed with a table of their module counter indices (an
; inline flush of each counter, repeated in the working-set copy, was most
; of ptxas's time on kernels inlining several loops; issue [overhead-3]).
; Each loop's trip count depends on the thread block, so no count is alike
; in every block (those go to __pasta_flush_scaled instead). The general
; path of an inline flush (partial warps, large counts) of 5 or more
; counters that are not bits calls __pasta_flush_indexed too
; (-pasta-flush-general-out-of-line): inline, ptxas computed its 64-bit
; values and slot addresses ahead of the fast-path test, in registers the
; fast path kept too. Fewer counters keep it inline (a call costs at least
; 32 registers and a stack frame).
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-link-runtime=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-link-runtime=0 -pasta-inline-flush-limit=32 -pasta-flush-general-out-of-line=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=INLINE
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-link-runtime=0 -pasta-flush-general-out-of-line=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=GENERAL

; nine's counters are 10 to 18 (one per loop), in the table in that order;
; the call passes first = 0 (the table holds module indices).
; SITES: func nine kind=kernel
; SITES-COUNT-9: site ?:0 func=nine counter=1{{[0-8]}} st.global=1
; CHECK: @[[TABLE:__pasta_flush_indices[0-9]*]] = private unnamed_addr addrspace(1) constant [9 x i32] [i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16, i32 17, i32 18]
; CHECK: @[[MIXED:__pasta_flush_indices[0-9]*]] = private unnamed_addr addrspace(1) constant [10 x i32] [i32 21, i32 30, i32 39, i32 40, i32 41, i32 42, i32 43, i32 44, i32 45, i32 46]

; Eight counters: inline, a warp sum each on the fast path; the general
; path stages them and calls the out-of-line flush.
; CHECK-LABEL: define ptx_kernel void @eight(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK-COUNT-8: call void @__pasta_flush_counter_fast(
; CHECK-NOT: call void @__pasta_flush_counter(
; CHECK: call void @__pasta_flush_indexed({{.*}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @{{__pasta_flush_indices[0-9]*}}, i32 8)
; CHECK-NOT: call void @__pasta_flush_counter(
; CHECK: ret void
; Without it, the general path inline: a flush of each counter.
; GENERAL-LABEL: define ptx_kernel void @eight(
; GENERAL-COUNT-8: call void @__pasta_flush_counter_fast(
; GENERAL-COUNT-8: call void @__pasta_flush_counter(
; GENERAL-NOT: __pasta_flush_indexed
; GENERAL: ret void

; Nine: staged, one call.
; CHECK-LABEL: define ptx_kernel void @nine(
; CHECK: %pasta.flush = alloca [{{[0-9]+}} x i64]
; CHECK-NOT: __pasta_flush_counter
; CHECK: call void @__pasta_flush_indexed(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @[[TABLE]], i32 9)
; CHECK-NEXT: ret void

; mixed: ten loops, the first two storing through a pointer of unknown
; space (each site's eight run-time address-space counters, a group, from
; 22 and 31). The groups (usually all zero: one ballot skips each; their
; sites only store, so only their four store counters are summed:
; nvptx-flush-group-half.ll) stay inline; the ten loop counters are staged.
; SITES: site ?:0 func=mixed counter=21 dyn=22 st.generic=1
; SITES: site ?:0 func=mixed counter=30 dyn=31 st.generic=1
; SITES-COUNT-8: site ?:0 func=mixed counter={{39|4[0-6]}} st.global=1
; CHECK-LABEL: define ptx_kernel void @mixed(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK-COUNT-2: call void @__pasta_flush_half_fast(
; CHECK-NOT: call void @__pasta_flush_counter_fast(
; CHECK: call void @__pasta_flush_indexed({{.*}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @[[MIXED]], i32 10)

; Four counters: the general path stays inline.
; CHECK-LABEL: define ptx_kernel void @four(
; CHECK-COUNT-4: call void @__pasta_flush_counter_fast(
; CHECK-COUNT-4: call void @__pasta_flush_counter(
; CHECK-NOT: __pasta_flush_indexed
; CHECK: ret void

; The working-set copy has the same flush.
; CHECK-LABEL: define ptx_kernel void @nine__pasta_ws(
; CHECK: call void @__pasta_flush_indexed({{.*}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @[[TABLE]], i32 9)

; With the limit at 32, as before: nine inline too.
; INLINE-LABEL: define ptx_kernel void @nine(
; INLINE-COUNT-9: call void @__pasta_flush_counter_fast(
; INLINE-NOT: __pasta_flush_indexed
; INLINE: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @eight(ptr addrspace(1) %a, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %bid
  br label %l0
l0:
  %i0 = phi i32 [ 0, %entry ], [ %i0.next, %l0 ]
  %p0 = getelementptr float, ptr addrspace(1) %a, i32 %i0
  store float 0.0, ptr addrspace(1) %p0
  %i0.next = add i32 %i0, 1
  %c0 = icmp slt i32 %i0.next, %m
  br i1 %c0, label %l0, label %l1
l1:
  %i1 = phi i32 [ 0, %l0 ], [ %i1.next, %l1 ]
  %p1 = getelementptr float, ptr addrspace(1) %a, i32 %i1
  store float 1.0, ptr addrspace(1) %p1
  %i1.next = add i32 %i1, 2
  %c1 = icmp slt i32 %i1.next, %m
  br i1 %c1, label %l1, label %l2
l2:
  %i2 = phi i32 [ 0, %l1 ], [ %i2.next, %l2 ]
  %p2 = getelementptr float, ptr addrspace(1) %a, i32 %i2
  store float 2.0, ptr addrspace(1) %p2
  %i2.next = add i32 %i2, 3
  %c2 = icmp slt i32 %i2.next, %m
  br i1 %c2, label %l2, label %l3
l3:
  %i3 = phi i32 [ 0, %l2 ], [ %i3.next, %l3 ]
  %p3 = getelementptr float, ptr addrspace(1) %a, i32 %i3
  store float 3.0, ptr addrspace(1) %p3
  %i3.next = add i32 %i3, 4
  %c3 = icmp slt i32 %i3.next, %m
  br i1 %c3, label %l3, label %l4
l4:
  %i4 = phi i32 [ 0, %l3 ], [ %i4.next, %l4 ]
  %p4 = getelementptr float, ptr addrspace(1) %a, i32 %i4
  store float 4.0, ptr addrspace(1) %p4
  %i4.next = add i32 %i4, 5
  %c4 = icmp slt i32 %i4.next, %m
  br i1 %c4, label %l4, label %l5
l5:
  %i5 = phi i32 [ 0, %l4 ], [ %i5.next, %l5 ]
  %p5 = getelementptr float, ptr addrspace(1) %a, i32 %i5
  store float 5.0, ptr addrspace(1) %p5
  %i5.next = add i32 %i5, 6
  %c5 = icmp slt i32 %i5.next, %m
  br i1 %c5, label %l5, label %l6
l6:
  %i6 = phi i32 [ 0, %l5 ], [ %i6.next, %l6 ]
  %p6 = getelementptr float, ptr addrspace(1) %a, i32 %i6
  store float 6.0, ptr addrspace(1) %p6
  %i6.next = add i32 %i6, 7
  %c6 = icmp slt i32 %i6.next, %m
  br i1 %c6, label %l6, label %l7
l7:
  %i7 = phi i32 [ 0, %l6 ], [ %i7.next, %l7 ]
  %p7 = getelementptr float, ptr addrspace(1) %a, i32 %i7
  store float 7.0, ptr addrspace(1) %p7
  %i7.next = add i32 %i7, 8
  %c7 = icmp slt i32 %i7.next, %m
  br i1 %c7, label %l7, label %done
done:
  ret void
}

define ptx_kernel void @nine(ptr addrspace(1) %a, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %bid
  br label %l0
l0:
  %i0 = phi i32 [ 0, %entry ], [ %i0.next, %l0 ]
  %p0 = getelementptr float, ptr addrspace(1) %a, i32 %i0
  store float 0.0, ptr addrspace(1) %p0
  %i0.next = add i32 %i0, 1
  %c0 = icmp slt i32 %i0.next, %m
  br i1 %c0, label %l0, label %l1
l1:
  %i1 = phi i32 [ 0, %l0 ], [ %i1.next, %l1 ]
  %p1 = getelementptr float, ptr addrspace(1) %a, i32 %i1
  store float 1.0, ptr addrspace(1) %p1
  %i1.next = add i32 %i1, 2
  %c1 = icmp slt i32 %i1.next, %m
  br i1 %c1, label %l1, label %l2
l2:
  %i2 = phi i32 [ 0, %l1 ], [ %i2.next, %l2 ]
  %p2 = getelementptr float, ptr addrspace(1) %a, i32 %i2
  store float 2.0, ptr addrspace(1) %p2
  %i2.next = add i32 %i2, 3
  %c2 = icmp slt i32 %i2.next, %m
  br i1 %c2, label %l2, label %l3
l3:
  %i3 = phi i32 [ 0, %l2 ], [ %i3.next, %l3 ]
  %p3 = getelementptr float, ptr addrspace(1) %a, i32 %i3
  store float 3.0, ptr addrspace(1) %p3
  %i3.next = add i32 %i3, 4
  %c3 = icmp slt i32 %i3.next, %m
  br i1 %c3, label %l3, label %l4
l4:
  %i4 = phi i32 [ 0, %l3 ], [ %i4.next, %l4 ]
  %p4 = getelementptr float, ptr addrspace(1) %a, i32 %i4
  store float 4.0, ptr addrspace(1) %p4
  %i4.next = add i32 %i4, 5
  %c4 = icmp slt i32 %i4.next, %m
  br i1 %c4, label %l4, label %l5
l5:
  %i5 = phi i32 [ 0, %l4 ], [ %i5.next, %l5 ]
  %p5 = getelementptr float, ptr addrspace(1) %a, i32 %i5
  store float 5.0, ptr addrspace(1) %p5
  %i5.next = add i32 %i5, 6
  %c5 = icmp slt i32 %i5.next, %m
  br i1 %c5, label %l5, label %l6
l6:
  %i6 = phi i32 [ 0, %l5 ], [ %i6.next, %l6 ]
  %p6 = getelementptr float, ptr addrspace(1) %a, i32 %i6
  store float 6.0, ptr addrspace(1) %p6
  %i6.next = add i32 %i6, 7
  %c6 = icmp slt i32 %i6.next, %m
  br i1 %c6, label %l6, label %l7
l7:
  %i7 = phi i32 [ 0, %l6 ], [ %i7.next, %l7 ]
  %p7 = getelementptr float, ptr addrspace(1) %a, i32 %i7
  store float 7.0, ptr addrspace(1) %p7
  %i7.next = add i32 %i7, 8
  %c7 = icmp slt i32 %i7.next, %m
  br i1 %c7, label %l7, label %l8
l8:
  %i8 = phi i32 [ 0, %l7 ], [ %i8.next, %l8 ]
  %p8 = getelementptr float, ptr addrspace(1) %a, i32 %i8
  store float 8.0, ptr addrspace(1) %p8
  %i8.next = add i32 %i8, 9
  %c8 = icmp slt i32 %i8.next, %m
  br i1 %c8, label %l8, label %done
done:
  ret void
}

define ptx_kernel void @mixed(ptr addrspace(1) %a, ptr addrspace(1) %tab, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %bid
  %g = load ptr, ptr addrspace(1) %tab
  br label %l0
l0:
  %i0 = phi i32 [ 0, %entry ], [ %i0.next, %l0 ]
  %p0 = getelementptr float, ptr %g, i32 %i0
  store float 0.0, ptr %p0
  %i0.next = add i32 %i0, 1
  %c0 = icmp slt i32 %i0.next, %m
  br i1 %c0, label %l0, label %l1
l1:
  %i1 = phi i32 [ 0, %l0 ], [ %i1.next, %l1 ]
  %p1 = getelementptr float, ptr %g, i32 %i1
  store float 1.0, ptr %p1
  %i1.next = add i32 %i1, 2
  %c1 = icmp slt i32 %i1.next, %m
  br i1 %c1, label %l1, label %l2
l2:
  %i2 = phi i32 [ 0, %l1 ], [ %i2.next, %l2 ]
  %p2 = getelementptr float, ptr addrspace(1) %a, i32 %i2
  store float 2.0, ptr addrspace(1) %p2
  %i2.next = add i32 %i2, 3
  %c2 = icmp slt i32 %i2.next, %m
  br i1 %c2, label %l2, label %l3
l3:
  %i3 = phi i32 [ 0, %l2 ], [ %i3.next, %l3 ]
  %p3 = getelementptr float, ptr addrspace(1) %a, i32 %i3
  store float 3.0, ptr addrspace(1) %p3
  %i3.next = add i32 %i3, 4
  %c3 = icmp slt i32 %i3.next, %m
  br i1 %c3, label %l3, label %l4
l4:
  %i4 = phi i32 [ 0, %l3 ], [ %i4.next, %l4 ]
  %p4 = getelementptr float, ptr addrspace(1) %a, i32 %i4
  store float 4.0, ptr addrspace(1) %p4
  %i4.next = add i32 %i4, 5
  %c4 = icmp slt i32 %i4.next, %m
  br i1 %c4, label %l4, label %l5
l5:
  %i5 = phi i32 [ 0, %l4 ], [ %i5.next, %l5 ]
  %p5 = getelementptr float, ptr addrspace(1) %a, i32 %i5
  store float 5.0, ptr addrspace(1) %p5
  %i5.next = add i32 %i5, 6
  %c5 = icmp slt i32 %i5.next, %m
  br i1 %c5, label %l5, label %l6
l6:
  %i6 = phi i32 [ 0, %l5 ], [ %i6.next, %l6 ]
  %p6 = getelementptr float, ptr addrspace(1) %a, i32 %i6
  store float 6.0, ptr addrspace(1) %p6
  %i6.next = add i32 %i6, 7
  %c6 = icmp slt i32 %i6.next, %m
  br i1 %c6, label %l6, label %l7
l7:
  %i7 = phi i32 [ 0, %l6 ], [ %i7.next, %l7 ]
  %p7 = getelementptr float, ptr addrspace(1) %a, i32 %i7
  store float 7.0, ptr addrspace(1) %p7
  %i7.next = add i32 %i7, 8
  %c7 = icmp slt i32 %i7.next, %m
  br i1 %c7, label %l7, label %l8
l8:
  %i8 = phi i32 [ 0, %l7 ], [ %i8.next, %l8 ]
  %p8 = getelementptr float, ptr addrspace(1) %a, i32 %i8
  store float 8.0, ptr addrspace(1) %p8
  %i8.next = add i32 %i8, 9
  %c8 = icmp slt i32 %i8.next, %m
  br i1 %c8, label %l8, label %l9
l9:
  %i9 = phi i32 [ 0, %l8 ], [ %i9.next, %l9 ]
  %p9 = getelementptr float, ptr addrspace(1) %a, i32 %i9
  store float 9.0, ptr addrspace(1) %p9
  %i9.next = add i32 %i9, 10
  %c9 = icmp slt i32 %i9.next, %m
  br i1 %c9, label %l9, label %done
done:
  ret void
}

define ptx_kernel void @four(ptr addrspace(1) %a, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %bid
  br label %l0
l0:
  %i0 = phi i32 [ 0, %entry ], [ %i0.next, %l0 ]
  %p0 = getelementptr float, ptr addrspace(1) %a, i32 %i0
  store float 0.0, ptr addrspace(1) %p0
  %i0.next = add i32 %i0, 1
  %c0 = icmp slt i32 %i0.next, %m
  br i1 %c0, label %l0, label %l1
l1:
  %i1 = phi i32 [ 0, %l0 ], [ %i1.next, %l1 ]
  %p1 = getelementptr float, ptr addrspace(1) %a, i32 %i1
  store float 1.0, ptr addrspace(1) %p1
  %i1.next = add i32 %i1, 2
  %c1 = icmp slt i32 %i1.next, %m
  br i1 %c1, label %l1, label %l2
l2:
  %i2 = phi i32 [ 0, %l1 ], [ %i2.next, %l2 ]
  %p2 = getelementptr float, ptr addrspace(1) %a, i32 %i2
  store float 2.0, ptr addrspace(1) %p2
  %i2.next = add i32 %i2, 3
  %c2 = icmp slt i32 %i2.next, %m
  br i1 %c2, label %l2, label %l3
l3:
  %i3 = phi i32 [ 0, %l2 ], [ %i3.next, %l3 ]
  %p3 = getelementptr float, ptr addrspace(1) %a, i32 %i3
  store float 3.0, ptr addrspace(1) %p3
  %i3.next = add i32 %i3, 4
  %c3 = icmp slt i32 %i3.next, %m
  br i1 %c3, label %l3, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

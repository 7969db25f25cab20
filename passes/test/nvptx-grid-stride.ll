; A grid-stride loop's header (GridStrideLoops.h) is counted by the grid's
; first thread at entry (__pasta_count_grid_stride with the loop's bound:
; the runs summed over the launch depend only on it and the grid), not by
; an add per iteration and a flush at exit. Flags: 2 where the start and
; the stride are 32-bit products (they wrap in a grid of 2^32 threads along
; x), 1 for a signed bound. Loops that are not exactly that shape keep
; their counter: a stride of the block alone, a break out of the loop, an
; early return before the loop's guard, a call that could end a thread.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
; With -pasta-grid-stride-first-thread=0 every thread counts its own turns.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-grid-stride-first-thread=0 -S %s | FileCheck %s --check-prefix=OFF
; OFF-LABEL: define ptx_kernel void @fill(
; OFF-NOT: call void @__pasta_count_grid_stride
; OFF: call void @__pasta_flush

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; gups' d_init: i = blockIdx.x * blockDim.x + threadIdx.x in unsigned int,
; i < n (size_t), i += gridDim.x * blockDim.x.
; CHECK-LABEL: define ptx_kernel void @fill(
; CHECK: call void @__pasta_count_launch_inline(
; CHECK-NEXT: call void @__pasta_count_grid_stride(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}), i64 %n, i32 2)
; CHECK: loop:
; CHECK-NOT: pasta.count
; CHECK-NOT: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @fill(i64 %n, ptr addrspace(1) %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %loop ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  store i64 %i, ptr addrspace(1) %p
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; The same in 64 bits ((size_t)blockIdx.x * blockDim.x + threadIdx.x),
; the operands the other way round, a signed bound (long n): flags 1.
; CHECK-LABEL: define ptx_kernel void @fill_wide_signed(
; CHECK: call void @__pasta_count_grid_stride(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}), i64 %n, i32 1)
; CHECK-NOT: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @fill_wide_signed(i64 %n, ptr addrspace(1) %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bx64 = zext i32 %bx to i64
  %bd64 = zext i32 %bd to i64
  %base = mul nuw nsw i64 %bd64, %bx64
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tx64 = zext i32 %tx to i64
  %start = add nuw nsw i64 %tx64, %base
  %in = icmp slt i64 %start, %n
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gx64 = zext i32 %gx to i64
  %stride = mul nuw nsw i64 %gx64, %bd64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %loop ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  store i64 %i, ptr addrspace(1) %p
  %next = add nsw i64 %stride, %i
  %stop = icmp sge i64 %next, %n
  br i1 %stop, label %done, label %loop
done:
  ret void
}

; gups' d_check: a data-dependent block in the loop keeps its own counter
; (flushed at exit), the header is the first thread's.
; CHECK-LABEL: define ptx_kernel void @check(
; CHECK: call void @__pasta_count_grid_stride(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}), i64 %n, i32 2)
; CHECK: wrong:
; CHECK-NEXT: pasta.count
; CHECK: ret void
define ptx_kernel void @check(i64 %n, ptr addrspace(1) %t, ptr addrspace(1) %bad) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %latch ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  %v = load i64, ptr addrspace(1) %p
  %ok = icmp eq i64 %v, %i
  br i1 %ok, label %latch, label %wrong
wrong:
  %old = atomicrmw add ptr addrspace(1) %bad, i32 1 seq_cst
  br label %latch
latch:
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; The guard branching straight into the loop (no preheader: the stride is
; computed before the guard).
; CHECK-LABEL: define ptx_kernel void @fill_no_preheader(
; CHECK: call void @__pasta_count_grid_stride(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}), i64 %n, i32 2)
; CHECK-NOT: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @fill_no_preheader(i64 %n, ptr addrspace(1) %t) {
entry:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ult i64 %start, %n
  br i1 %in, label %loop, label %done
loop:
  %i = phi i64 [ %next, %loop ], [ %start, %entry ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  store i64 %i, ptr addrspace(1) %p
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; An `int` index (histogram's loop): the bound sign-extended, flags 7
; (signed, 32-bit products, an `int` index: starts and stride that wrap to
; negative values in a grid of 2^31 threads or more are summed as such).
; CHECK-LABEL: define ptx_kernel void @int_index(
; CHECK: [[N:%.*]] = sext i32 %n to i64
; CHECK-NEXT: call void @__pasta_count_grid_stride(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}), i64 [[N]], i32 7)
; CHECK-NOT: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @int_index(i32 %n, ptr addrspace(1) %t) {
entry:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %stride = mul i32 %gx, %bd
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %start = add i32 %base, %tx
  %in = icmp slt i32 %start, %n
  br i1 %in, label %loop, label %done
loop:
  %i = phi i32 [ %next, %loop ], [ %start, %entry ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %t, i32 %i
  store i32 %i, ptr addrspace(1) %p
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; An `unsigned` index: its `i += stride` may wrap (no nsw), and wraps
; back below the bound: not summed.
; CHECK-LABEL: define ptx_kernel void @unsigned_index(
; CHECK-NOT: call void @__pasta_count_grid_stride
; CHECK: ret void
define ptx_kernel void @unsigned_index(i32 %n, ptr addrspace(1) %t) {
entry:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %stride = mul i32 %gx, %bd
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %start = add i32 %base, %tx
  %in = icmp ult i32 %start, %n
  br i1 %in, label %loop, label %done
loop:
  %i = phi i32 [ %next, %loop ], [ %start, %entry ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %t, i32 %i
  store i32 %i, ptr addrspace(1) %p
  %next = add i32 %i, %stride
  %more = icmp ult i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A block-stride loop (i += blockDim.x): the starts do not cover the grid.
; CHECK-LABEL: define ptx_kernel void @block_stride(
; CHECK-NOT: call void @__pasta_count_grid_stride
; CHECK: ret void
define ptx_kernel void @block_stride(i64 %n, ptr addrspace(1) %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %stride = zext i32 %bd to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %loop ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  store i64 %i, ptr addrspace(1) %p
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A second way out of the loop (a break on data): runs depend on data.
; CHECK-LABEL: define ptx_kernel void @breaks(
; CHECK-NOT: call void @__pasta_count_grid_stride
; CHECK: ret void
define ptx_kernel void @breaks(i64 %n, ptr addrspace(1) %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %latch ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  %v = load i64, ptr addrspace(1) %p
  %stop = icmp eq i64 %v, 0
  br i1 %stop, label %done, label %latch
latch:
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; Threads of index y 1 leave before the loop's guard: not every thread
; tests it once.
; CHECK-LABEL: define ptx_kernel void @early_return(
; CHECK-NOT: call void @__pasta_count_grid_stride
; CHECK: ret void
define ptx_kernel void @early_return(i64 %n, ptr addrspace(1) %t) {
entry:
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %skip = icmp ne i32 %ty, 0
  br i1 %skip, label %done, label %go
go:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %loop ]
  %p = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %i
  store i64 %i, ptr addrspace(1) %p
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A call to a device function, which could end the thread inside.
; CHECK-LABEL: define ptx_kernel void @calls(
; CHECK-NOT: call void @__pasta_count_grid_stride
; CHECK: ret void
define ptx_kernel void @calls(i64 %n, ptr addrspace(1) %t) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bx, %bd
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s32 = add i32 %base, %tx
  %start = zext i32 %s32 to i64
  %in = icmp ugt i64 %n, %start
  br i1 %in, label %pre, label %done
pre:
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %st32 = mul i32 %gx, %bd
  %stride = zext i32 %st32 to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %pre ], [ %next, %loop ]
  call void @helper(i64 %i)
  %next = add nuw nsw i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

declare void @helper(i64)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

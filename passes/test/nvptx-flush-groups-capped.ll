; A kernel's exit flush of many run-time address-space groups takes its
; general path out of line (-pasta-flush-groups-out-of-line=N) only where
; ptxas has registers to spare: its register-capped copy (__pasta_capped,
; .maxnreg 64) keeps the inline general path, as a kernel whose own cap or
; launch bounds (over 256 threads) limit its registers does. Under the cap,
; `generic 14`'s copy with the call ran 1.46x slower on an H200 (1,268
; against 869 us a launch at 1,024 threads) for the same code before the
; flush. The copy is cloned from the counting kernel after the flush is
; emitted, so both general paths are emitted behind a marker call, and each
; function keeps one when every copy is made; no marker is left.
; Two groups here, the rule at 2 (a load half each, as in
; nvptx-flush-groups-out-of-line.ll).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-flush-groups-out-of-line=2 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-flush-groups-out-of-line=2 -pasta-divergence -S %s | FileCheck %s --check-prefix=DIV
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __pasta_uncapped_choice
; The counting kernel: the general path out of line, no inline half flush.
; CHECK-LABEL: define ptx_kernel void @two(
; CHECK-COUNT-2: call void @__pasta_flush_half_fast(
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: call void @__pasta_flush_indexed(
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: ret void
; Launch bounds of 1,024 threads (at most 64 registers): inline.
; CHECK-LABEL: define ptx_kernel void @bounded(
; CHECK-COUNT-2: call void @__pasta_flush_half_fast(
; CHECK-NOT: __pasta_flush_indexed
; CHECK-COUNT-2: call void @__pasta_flush_half(
; CHECK-NOT: __pasta_flush_indexed
; CHECK: ret void
; Launch bounds of 256 threads (255 registers): out of line.
; CHECK-LABEL: define ptx_kernel void @small_bounds(
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: call void @__pasta_flush_indexed(
; CHECK: ret void
; The capped copy: inline, both halves written out as without the rule.
; CHECK-LABEL: define ptx_kernel void @two__pasta_capped(
; CHECK-COUNT-2: call void @__pasta_flush_half_fast(
; CHECK-NOT: __pasta_flush_indexed
; CHECK-COUNT-2: call void @__pasta_flush_half(
; CHECK-NOT: __pasta_flush_indexed
; CHECK: ret void
; CHECK-NOT: __pasta_uncapped_choice
; Divergence builds: the capped divergence copy inline, the uncapped twin
; (or the copy, where caps are off) out of line.
; DIV-NOT: __pasta_uncapped_choice
; DIV-LABEL: define ptx_kernel void @two__pasta_capped(
; DIV-NOT: __pasta_flush_indexed
; DIV: ret void
; DIV-LABEL: define ptx_kernel void @two__pasta_div(
; DIV-NOT: __pasta_flush_indexed
; DIV: call void @__pasta_flush_half(
; DIV-NOT: __pasta_flush_indexed
; DIV: ret void
; DIV-LABEL: define ptx_kernel void @two__pasta_divu(
; DIV-NOT: call void @__pasta_flush_half(
; DIV: call void @__pasta_flush_indexed(
; DIV: ret void
; DIV-NOT: __pasta_uncapped_choice

define ptx_kernel void @two(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) {
entry:
  %p = load ptr, ptr addrspace(1) %table
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %t0, label %b1
t0:
  %x0 = load float, ptr %p
  br label %b1
b1:
  %acc1 = phi float [ 0.0, %entry ], [ %x0, %t0 ]
  %c1 = icmp sgt i32 %m, 1
  br i1 %c1, label %t1, label %done
t1:
  %q1 = getelementptr float, ptr %p, i32 1
  %x1 = load float, ptr %q1
  %sum1 = fadd float %acc1, %x1
  br label %done
done:
  %r = phi float [ %acc1, %b1 ], [ %sum1, %t1 ]
  store float %r, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @bounded(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) #0 {
entry:
  %p = load ptr, ptr addrspace(1) %table
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %t0, label %b1
t0:
  %x0 = load float, ptr %p
  br label %b1
b1:
  %acc1 = phi float [ 0.0, %entry ], [ %x0, %t0 ]
  %c1 = icmp sgt i32 %m, 1
  br i1 %c1, label %t1, label %done
t1:
  %q1 = getelementptr float, ptr %p, i32 1
  %x1 = load float, ptr %q1
  %sum1 = fadd float %acc1, %x1
  br label %done
done:
  %r = phi float [ %acc1, %b1 ], [ %sum1, %t1 ]
  store float %r, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @small_bounds(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) #1 {
entry:
  %p = load ptr, ptr addrspace(1) %table
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %t0, label %b1
t0:
  %x0 = load float, ptr %p
  br label %b1
b1:
  %acc1 = phi float [ 0.0, %entry ], [ %x0, %t0 ]
  %c1 = icmp sgt i32 %m, 1
  br i1 %c1, label %t1, label %done
t1:
  %q1 = getelementptr float, ptr %p, i32 1
  %x1 = load float, ptr %q1
  %sum1 = fadd float %acc1, %x1
  br label %done
done:
  %r = phi float [ %acc1, %b1 ], [ %sum1, %t1 ]
  store float %r, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "nvvm.maxntid"="1024" }
attributes #1 = { "nvvm.maxntid"="256" }

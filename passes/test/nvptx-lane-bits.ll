; Bits of blocks that one lane of a warp runs (CounterEmission.cpp,
; oneLaneBlock, flushOwnLanes): the lane adds its own bit
; (__pasta_flush_bit_lane), with no warp sum, no full-warp test, no vote;
; other bits keep the warp's flush (__pasta_warp_bit_count in counting builds,
; __pasta_flush_bit_fast in divergence builds). Each kernel:
; `if (i >= n) return;` (so nothing runs alike in every thread block), then
; a lane's test picks %lead, counted in bit 0. The divergence build keeps
; the warp's flush.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s
; DIV-NOT: __pasta_flush_bit_lane

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; `lane == 0`, lane = x & 31: one lane.
; CHECK-LABEL: define ptx_kernel void @lane_zero(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @lane_zero(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 31
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `threadIdx.x == k`, k an argument: one lane (in blocks of one dimension).
; CHECK-LABEL: define ptx_kernel void @tid_is_arg(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @tid_is_arg(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %c = icmp eq i32 %k, %t
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `x % 64 == 3`: one lane of 32.
; CHECK-LABEL: define ptx_kernel void @rem_64(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @rem_64(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = urem i32 %t, 64
  %c = icmp eq i32 %lane, 3
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; %laneid == 0: one lane.
; CHECK-LABEL: define ptx_kernel void @laneid(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @laneid(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `lane == 0 && v > 0` (a select, as clang emits `&&`): one lane at most.
; CHECK-LABEL: define ptx_kernel void @lane_and_value(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @lane_and_value(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 31
  %z = icmp eq i32 %lane, 0
  %v = load i32, ptr %m
  %p = icmp sgt i32 %v, 0
  %c = select i1 %z, i1 %p, i1 false
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `if (lane != 0) return;`: the false edge is lane 0's.
; CHECK-LABEL: define ptx_kernel void @lane_ne_false(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define ptx_kernel void @lane_ne_false(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 31
  %c = icmp ne i32 %lane, 0
  br i1 %c, label %ret, label %lead
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `lane != 0`'s true edge: 31 lanes, the warp's flush.
; CHECK-LABEL: define ptx_kernel void @lane_ne_true(
; CHECK-NOT: __pasta_flush_bit_lane
; CHECK: call i32 @__pasta_warp_bit_count(i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_bit_lane
define ptx_kernel void @lane_ne_true(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 31
  %c = icmp ne i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `(x & 1) == 0`: 16 lanes.
; CHECK-LABEL: define ptx_kernel void @even_lanes(
; CHECK-NOT: __pasta_flush_bit_lane
; CHECK: call i32 @__pasta_warp_bit_count(i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_bit_lane
define ptx_kernel void @even_lanes(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 1
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `lane == v`, v loaded per thread: not known one lane.
; CHECK-LABEL: define ptx_kernel void @lane_is_loaded(
; CHECK-NOT: __pasta_flush_bit_lane
; CHECK: call i32 @__pasta_warp_bit_count(i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_bit_lane
define ptx_kernel void @lane_is_loaded(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 31
  %v = load i32, ptr %m
  %c = icmp eq i32 %lane, %v
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; `threadIdx.y == 0`: a row of lanes.
; CHECK-LABEL: define ptx_kernel void @tid_y(
; CHECK-NOT: __pasta_flush_bit_lane
; CHECK: call i32 @__pasta_warp_bit_count(i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_bit_lane
define ptx_kernel void @tid_y(ptr %a, i32 %n, i32 %k, ptr %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %c = icmp eq i32 %y, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr %a
  br label %ret
ret:
  ret void
}

; The runtime's declarations end the last kernel's checks.
; CHECK-LABEL: declare
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()

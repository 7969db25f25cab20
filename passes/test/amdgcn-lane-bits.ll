; Bits of blocks one lane of a wave runs, on amdgcn (see
; nvptx-lane-bits.ll): the lane adds its own bit (__pasta_flush_bit_lane).
; `x & 31` leaves two lanes of a 64-lane wave with one value: still each
; adds its own (a guess of the cost, never of the count).
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; `lane == 0`, lane = x & 63: one lane.
; CHECK-LABEL: define amdgpu_kernel void @lane_zero(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define amdgpu_kernel void @lane_zero(ptr addrspace(1) %a, i32 %n, i32 %k, ptr addrspace(1) %m) {
entry:
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 63
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

; The lane's number from mbcnt: one lane.
; CHECK-LABEL: define amdgpu_kernel void @mbcnt(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define amdgpu_kernel void @mbcnt(ptr addrspace(1) %a, i32 %n, i32 %k, ptr addrspace(1) %m) {
entry:
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

; `threadIdx.x == k`: one lane.
; CHECK-LABEL: define amdgpu_kernel void @tid_is_arg(
; CHECK: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_is_full_warp
; CHECK-NOT: {{__pasta_flush_bit_fast|__pasta_warp_bit_count}}
define amdgpu_kernel void @tid_is_arg(ptr addrspace(1) %a, i32 %n, i32 %k, ptr addrspace(1) %m) {
entry:
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %c = icmp eq i32 %t, %k
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

; `(x & 1) == 0`: 32 lanes, the wave's flush.
; CHECK-LABEL: define amdgpu_kernel void @even_lanes(
; CHECK-NOT: __pasta_flush_bit_lane
; CHECK: call i32 @__pasta_warp_bit_count(i32 %pasta.count.{{[0-9]+}}, i32 0)
; CHECK-NOT: __pasta_flush_bit_lane
define amdgpu_kernel void @even_lanes(ptr addrspace(1) %a, i32 %n, i32 %k, ptr addrspace(1) %m) {
entry:
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %bd = shl i32 %b, 8
  %i = add i32 %bd, %t
  %out = icmp sge i32 %i, %n
  br i1 %out, label %ret, label %work
work:
  %lane = and i32 %t, 1
  %c = icmp eq i32 %lane, 0
  br i1 %c, label %lead, label %ret
lead:
  store float 2.0, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

; The runtime's declarations end the last kernel's checks.
; CHECK-LABEL: declare
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)

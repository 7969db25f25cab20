; Flushes on the ways into a kernel's return on amdgcn (see
; nvptx-flush-paths.ll): warps of 64 lanes, so `x >> 6` is warp-uniform and
; `x >> 5` is not.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Bits: 0 %lead, 1 %tail, 2 %last (a lane's loaded value picks %lead and
; %last, so that no block runs alike in every thread block). Waves 1-3
; leave after %join and flush bit 0 alone; wave 0's lanes meet in one flush
; block.
; CHECK-LABEL: define amdgpu_kernel void @tree(
; CHECK: join.ret_crit_edge:
; CHECK: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 0)
; CHECK-NOT: __pasta_warp_bit_count
; CHECK: call void @__pasta_add_nonzero(
; CHECK-NOT: __pasta_flush_bit_fast
; CHECK: br label %ret
; CHECK: ret.pasta.flush: {{.*}} preds = %tail, %last
; %tail runs alike in every thread block (its first flushes it: a full
; warp counts its bit by a ballot, lane 0 adds it times the scale, a partial
; warp calls the out-of-line flush); then the other 2 bits.
; CHECK: call i32 @__pasta_warp_bit_count(i32 %{{[a-z0-9.]+}}, i32 1)
; CHECK: call void @__pasta_add_nonzero(
; CHECK: call void @__pasta_flush_bits_scaled(
; CHECK-COUNT-2: call i32 @__pasta_warp_bit_count(
; CHECK-NOT: __pasta_warp_bit_count
; CHECK-COUNT-2: call void @__pasta_add_nonzero(
; CHECK-NOT: __pasta_flush_bit_fast
; CHECK: ret:
; CHECK-NEXT: ret void
define amdgpu_kernel void @tree(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %v = load float, ptr addrspace(1) %a
  %first = fcmp ogt float %v, 0.0
  br i1 %first, label %lead, label %join
lead:
  store float %v, ptr addrspace(1) %out
  br label %join
join:
  %wave = lshr i32 %t, 6
  %rest = icmp ne i32 %wave, 0
  br i1 %rest, label %ret, label %tail
tail:
  %q = load float, ptr addrspace(1) %out
  br i1 %first, label %last, label %ret
last:
  store float %q, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

; The same with `x >> 5`: half a wave leaves, the other half goes on; one
; flush, at the return.
; CHECK-LABEL: define amdgpu_kernel void @half_wave(
; CHECK-NOT: crit_edge:
; CHECK-NOT: pasta.flush:
; CHECK: ret: {{.*}} preds = %last, %tail, %join
; CHECK: call ptr addrspace(1) @__pasta_bank_row(
define amdgpu_kernel void @half_wave(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %v = load float, ptr addrspace(1) %a
  %first = fcmp ogt float %v, 0.0
  br i1 %first, label %lead, label %join
lead:
  store float %v, ptr addrspace(1) %out
  br label %join
join:
  %half = lshr i32 %t, 5
  %rest = icmp ne i32 %half, 0
  br i1 %rest, label %ret, label %tail
tail:
  %q = load float, ptr addrspace(1) %out
  br i1 %first, label %last, label %ret
last:
  store float %q, ptr addrspace(1) %a
  br label %ret
ret:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

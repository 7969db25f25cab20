; A site's run-time address-space counters come in a group of eight (loads
; and stores, shared and local, count and bytes). Where a group's sites only
; load, its four store counters stay zero: the flush sums only the four
; load counters, after one vote, instead of the group flush's eight warp
; sums (a warp sum of a constant zero is not folded: it is inline
; assembly). moderngpu's segreduce twin summed four zeros so at every
; return. The four go to the runtime's half flush, one call a path, whose
; loop stays rolled: written out four times (the general path's 64-bit warp
; sums each time), they made ptxas twice as slow on the ray tracer's
; `render`, a kernel of many such groups. A group with loads and stores
; keeps the group flush.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -S %s 2>/dev/null | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Counters: 0 launches, 1 the block, 2-9 the group (2-5 loads, 6-9 stores).
; CHECK-LABEL: define ptx_kernel void @loads_only(
; CHECK: __pasta_flush_is_fast
; CHECK-NOT: __pasta_flush_group
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 2
; CHECK-NEXT: call void @__pasta_flush_half_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK-NOT: call void @__pasta_flush_counter_fast(
; The general path alike.
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 2
; CHECK: call void @__pasta_flush_half(
; CHECK-NOT: __pasta_flush_group
; CHECK: ret void
; In the PTX, each path's half flush is one loop (the kernel has none of its
; own), its values in registers, not in a local array.
; PTX-LABEL: .entry loads_only(
; PTX-NOT: __local_depot
; PTX: Inner Loop Header
; PTX-NOT: __local_depot
; PTX: Inner Loop Header
; PTX-NOT: __local_depot
; PTX-LABEL: .entry both(
define ptx_kernel void @loads_only(ptr addrspace(1) %table, ptr %out) {
  %p = load ptr, ptr addrspace(1) %table
  %x = load float, ptr %p
  %q = getelementptr float, ptr %p, i64 1
  %y = load float, ptr %q
  %s = fadd float %x, %y
  store float %s, ptr %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @both(
; CHECK: call void @__pasta_flush_group_fast(
; CHECK: call void @__pasta_flush_group(
; CHECK-NOT: __pasta_flush_any
; CHECK: ret void
define ptx_kernel void @both(ptr addrspace(1) %table, ptr %out) {
  %p = load ptr, ptr addrspace(1) %table
  %x = load float, ptr %p
  %q = getelementptr float, ptr %p, i64 1
  store float %x, ptr %q
  ret void
}

; A device function's return flush runs at every call: its half stays
; written out, one vote and four counter flushes (the loop made cities'
; segreduce twin, which flushes at each return, slower).
; CHECK-LABEL: define {{.*}}@load_any
; CHECK-NOT: __pasta_flush_half
; CHECK: call i64 @__pasta_flush_any(
; CHECK-COUNT-4: call void @__pasta_flush_counter_fast(
; CHECK-NOT: __pasta_flush_half
; CHECK: ret
define float @load_any(ptr %p) noinline {
  %x = load float, ptr %p
  %q = getelementptr float, ptr %p, i64 1
  %y = load float, ptr %q
  %s = fadd float %x, %y
  ret float %s
}

define ptx_kernel void @calls_load_any(ptr addrspace(1) %table, ptr addrspace(1) %out) {
  %p = load ptr, ptr addrspace(1) %table
  %x = call float @load_any(ptr %p)
  store float %x, ptr addrspace(1) %out
  ret void
}

; Bounds checks on amdgcn (see nvptx-cold-edges.ll): the block size is read
; from the implicit kernel arguments (a load every thread shares), the
; indices from the workgroup and workitem intrinsics. The false edge of
; `i < n` is counted; the block inside is derived from the threads.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Counters: 0 launches, 1 %entry (its load of the block size is counted:
; = threads), 2 %then, 3 threads, 4 the cold edge. A bound read from global
; memory (@loaded) is no bounds check: 5 launches, 6 %entry (= threads), 7
; %then (counted), 8 threads.
; SITES: pasta: func bounds kind=kernel calls=0
; SITES: pasta: func loaded kind=kernel calls=5
; SITES: pasta: func alike kind=kernel calls=9
; SITES: pasta: derived 1 = +1*c3
; SITES-NEXT: pasta: derived 2 = +1*c3 -1*c4
; SITES-NEXT: pasta: derived 6 = +1*c8
; @alike: 9 launches, 10 %lead, 11 %then (= threads - cold), 12 threads,
; 13 the cold edge.
; SITES-NEXT: pasta: derived 11 = +1*c12 -1*c13
; SITES-NEXT: pasta: module counters=16

; CHECK-LABEL: define amdgpu_kernel void @bounds(
; CHECK: br i1 %in, label %then, label %entry.done_crit_edge
; CHECK: entry.done_crit_edge:
; The cold way counts its lanes where it is taken (nvptx-cold-edges.ll);
; %then flushes nothing.
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 4)
; CHECK-NEXT: br label %done, !pasta.instrumentation
; CHECK: then:
; CHECK-NOT: call
; CHECK: done:
; CHECK-NEXT: ret void
define amdgpu_kernel void @bounds(ptr addrspace(1) %a, i32 %n) {
entry:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %size.p = getelementptr i8, ptr addrspace(4) %args, i64 12
  %size16 = load i16, ptr addrspace(4) %size.p
  %size = zext i16 %size16 to i32
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %wg, %size
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %done
then:
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  br label %done
done:
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @loaded(
; CHECK-NOT: crit_edge
; CHECK: then:
; CHECK-NEXT: or i32 0, 1
define amdgpu_kernel void @loaded(ptr addrspace(1) %a, ptr addrspace(1) %np) {
entry:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %wg, 8
  %i = add i32 %base, %tid
  %n = load i32, ptr addrspace(1) %np
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %done
then:
  store float 1.0, ptr addrspace(1) %a
  br label %done
done:
  ret void
}

; A thread-index test runs alike in every workgroup: its counter is flushed
; by the first workgroup alone (nvptx-alike-blocks.ll); the bounds check's
; cold edge where it is taken.
; CHECK-LABEL: define amdgpu_kernel void @alike(
; CHECK: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 13)
; CHECK: call i64 @__pasta_first_block_scale()
; CHECK: call void @__pasta_flush_bits_scaled(
; CHECK-NOT: call i64 @__pasta_flush_any(
; CHECK: ret void
define amdgpu_kernel void @alike(ptr addrspace(1) %a, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %low = icmp ult i32 %tid, 16
  br i1 %low, label %lead, label %bound
lead:
  store float 2.0, ptr addrspace(1) %a
  br label %bound
bound:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 8
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %then, label %done
then:
  store float 1.0, ptr addrspace(1) %a
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()

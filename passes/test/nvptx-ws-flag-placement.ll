; Where the working-set copy sets its page flags: after the accesses, not in
; front of each, so that waiting for a flag does not delay the accesses. A
; block's accesses go in batches of four: their flags found
; (__pasta_ws_flag_arg, __pasta_ws_flag: no branch), then read and set by
; one __pasta_ws_mark_args / __pasta_ws_mark_cached (one branch, to the
; full path of the whole batch), in front
; of the next batch's first access or at the block's end; a loop's body (one
; whose flags cannot be set in front of the loop: nvptx-ws-loop-marks.ll)
; sets its flags at the end of the body; a barrier or a call after a batch
; takes its flags in front of it.
; (-pasta-ws-loop-min-trips=1: a loop mark for every count, as the loop's
; checks below expect; nvptx-ws-loop-guard.ll has the minimum.)
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=1 -pasta-link-runtime=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @six(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) {
entry:
  %p1 = getelementptr inbounds float, ptr addrspace(1) %a, i64 1
  %p2 = getelementptr inbounds float, ptr addrspace(1) %a, i64 2
  %p3 = getelementptr inbounds float, ptr addrspace(1) %a, i64 3
  %p4 = getelementptr inbounds float, ptr addrspace(1) %a, i64 4
  %v0 = load float, ptr addrspace(1) %a
  %v1 = load float, ptr addrspace(1) %p1
  %v2 = load float, ptr addrspace(1) %p2
  %v3 = load float, ptr addrspace(1) %p3
  %v4 = load float, ptr addrspace(1) %p4
  %s01 = fadd float %v0, %v1
  %s23 = fadd float %v2, %v3
  %s = fadd float %s01, %s23
  %t = fadd float %s, %v4
  store float %t, ptr addrspace(1) %out
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i32 %i
  store float %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Each batch's constant (struct pasta_ws_batch): four sites, then the
; generic mask; @generic's batch has its two generic loads second and third.
; CHECK: @[[B4:__pasta_ws_batch[.0-9]*]] = private unnamed_addr addrspace(1) constant [5 x i32] zeroinitializer
; CHECK: @[[BG:__pasta_ws_batch[.0-9]*]] = private unnamed_addr addrspace(1) constant [5 x i32] [i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 6]
; CHECK-LABEL: define ptx_kernel void @six__pasta_ws(
; The first four loads, then their page flags found and set by one mark,
; then the fifth load.
; CHECK: %v0 = load float, ptr addrspace(1) %a
; CHECK-NOT: @__pasta_ws_
; CHECK: %v3 = load float, ptr addrspace(1) %p3
; The parameter's range, loaded for the batch (kept in registers from the
; kernel's entry, the ranges of every parameter raised a copy's register
; count: srad_coeff 82 registers).
; CHECK-NOT: call
; CHECK: load i64, {{.*}} !invariant.load
; CHECK-NOT: call
; CHECK: addrspacecast ptr addrspace(1) %a to ptr
; CHECK-NEXT: %[[F0:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: %[[P1:.*]] = addrspacecast ptr addrspace(1) %p1 to ptr
; CHECK-NEXT: %[[F1:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: %[[P2:.*]] = addrspacecast ptr addrspace(1) %p2 to ptr
; CHECK-NEXT: %[[F2:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: %[[P3:.*]] = addrspacecast ptr addrspace(1) %p3 to ptr
; CHECK-NEXT: %[[F3:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(ptr addrspace(1) %pasta.ws, i64 %pasta.ws.blocks, i64 %[[F0]], i64 %[[F1]], i64 %[[F2]], i64 %[[F3]], ptr %{{.*}}, ptr %[[P1]], ptr %[[P2]], ptr %[[P3]], ptr addrspace(1) @[[B4]])
; CHECK-NEXT: %v4 = load float, ptr addrspace(1) %p4
; The loop's store, in every iteration of a loop of %n: set once, in front
; of the loop (nvptx-ws-loop-marks.ll), then the fifth load's and the
; store's at the block's end, the mark padded with zeros.
; CHECK-NOT: @__pasta_ws_
; CHECK: store float %t, ptr addrspace(1) %out
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NOT: call
; CHECK: addrspacecast ptr addrspace(1) %p4 to ptr
; CHECK-NEXT: %[[F4:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NOT: call
; CHECK: addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: %[[F5:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args({{.*}}, i64 %[[F4]], i64 %[[F5]], i64 0, i64 0, ptr %{{.*}}, ptr %{{.*}}, ptr null, ptr null, ptr addrspace(1) @{{.*}})
; CHECK-NEXT: br label %loop
; Nothing in the loop.
; CHECK: store float %t, ptr addrspace(1) %q
; CHECK-NOT: @__pasta_ws_
; CHECK: br i1 %done

; A barrier after the accesses: the flags are set in front of it, not at
; the block's end (a warp waiting for its flags there would hold the whole
; thread block), and the loop of plain arithmetic after it is not delayed.
define ptx_kernel void @tile(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %v = load float, ptr addrspace(1) %a
  store float %v, ptr addrspace(3) @tile_buf
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w = load float, ptr addrspace(3) @tile_buf
  %x = fmul float %w, %w
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %x, ptr addrspace(1) %out
  ret void
}
@tile_buf = internal addrspace(3) global float 0.0
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; CHECK-LABEL: define ptx_kernel void @tile__pasta_ws(
; CHECK: %v = load float, ptr addrspace(1) %a
; CHECK-NEXT: store float %v, ptr addrspace(3) @tile_buf
; CHECK-NOT: call
; CHECK: addrspacecast ptr addrspace(1) %a to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: @__pasta_ws_
; CHECK: store float %x, ptr addrspace(1) %out
; CHECK-NOT: call
; CHECK: addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(

; Generic accesses: the counting code's own helpers in front of each
; (__pasta_is_shared, __pasta_is_local: the pointer is loaded, so its address
; space is found at run time) and an assumption do not end the batch, so the
; pointer's load, both generic loads and the store share one mark.
define ptx_kernel void @generic(ptr addrspace(1) %pp, ptr addrspace(1) %out) {
entry:
  %p = load ptr, ptr addrspace(1) %pp
  %x = load float, ptr %p
  %q = getelementptr inbounds float, ptr %p, i64 8
  %nonnull = icmp ne ptr %q, null
  call void @llvm.assume(i1 %nonnull)
  %y = load float, ptr %q
  %s = fadd float %x, %y
  store float %s, ptr addrspace(1) %out
  ret void
}
declare void @llvm.assume(i1)

; CHECK-LABEL: define ptx_kernel void @generic__pasta_ws(
; CHECK: %p = load ptr, ptr addrspace(1) %pp
; CHECK-NOT: @__pasta_ws_mark
; CHECK: call {{.*}} @__pasta_is_shared(
; CHECK-NOT: @__pasta_ws_mark
; CHECK: %x = load float, ptr %p
; CHECK-NOT: @__pasta_ws_mark
; CHECK: call {{.*}} @__pasta_is_shared(
; CHECK-NOT: @__pasta_ws_mark
; CHECK: %y = load float, ptr %q
; CHECK-NOT: @__pasta_ws_mark
; CHECK: store float %s, ptr addrspace(1) %out
; CHECK: call void @__pasta_ws_mark_cached({{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr addrspace(1) @[[BG]],
; CHECK-NOT: @__pasta_ws_mark
; CHECK: ret void

; Where the working-set copy finds, reads and sets its page flags: each
; access's flag is found (__pasta_ws_resolve) and read (__pasta_ws_peek)
; right after the access, so that the flag loads are in flight with the
; accesses that follow; nothing waits for them until the mark. A block's
; accesses go in batches of four, set by one __pasta_ws_mark right after the
; next batch's first access (issued before the mark waits) or in front of
; whatever ends the batch: the block's end (a loop's body sets its flags at
; the end of the body), a barrier, a call.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
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

; CHECK-LABEL: define ptx_kernel void @six__pasta_ws(
; Each load, then its flag found and read.
; CHECK: %v0 = load float, ptr addrspace(1) %a
; CHECK-NEXT: addrspacecast ptr addrspace(1) %a to ptr
; CHECK-NEXT: %[[F0:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V0:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F0]])
; CHECK-NEXT: %v1 = load float, ptr addrspace(1) %p1
; CHECK-NEXT: addrspacecast ptr addrspace(1) %p1 to ptr
; CHECK-NEXT: %[[F1:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V1:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F1]])
; CHECK-NEXT: %v2 = load float, ptr addrspace(1) %p2
; CHECK-NEXT: addrspacecast ptr addrspace(1) %p2 to ptr
; CHECK-NEXT: %[[F2:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V2:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F2]])
; CHECK-NEXT: %v3 = load float, ptr addrspace(1) %p3
; CHECK-NEXT: addrspacecast ptr addrspace(1) %p3 to ptr
; CHECK-NEXT: %[[F3:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V3:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F3]])
; The fifth load (the next batch's first access) and its flag's read go
; first, then the first four flags are set.
; CHECK-NEXT: %v4 = load float, ptr addrspace(1) %p4
; CHECK-NEXT: addrspacecast ptr addrspace(1) %p4 to ptr
; CHECK-NEXT: %[[F4:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V4:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F4]])
; CHECK-NEXT: call void @__pasta_ws_mark(i64 %[[F0]], i64 %[[F1]], i64 %[[F2]], i64 %[[F3]], i32 %[[V0]], i32 %[[V1]], i32 %[[V2]], i32 %[[V3]])
; The store's flag after it; the fifth load's and the store's set at the
; block's end, the mark padded with no flags seen as set.
; CHECK-NOT: @__pasta_ws_
; CHECK: store float %t, ptr addrspace(1) %out
; CHECK-NEXT: addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: %[[F5:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V5:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F5]])
; CHECK-NEXT: call void @__pasta_ws_mark(i64 %[[F4]], i64 %[[F5]], i64 0, i64 0, i32 %[[V4]], i32 %[[V5]], i32 1, i32 1)
; CHECK-NEXT: br label %loop
; The loop's store, its flag set at the end of its body.
; CHECK: store float %t, ptr addrspace(1) %q
; CHECK-NEXT: addrspacecast
; CHECK-NEXT: %[[F6:pasta.ws.flag[0-9]*]] = call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: %[[V6:pasta.ws.seen[0-9]*]] = call i32 @__pasta_ws_peek(i64 %[[F6]])
; CHECK-NOT: @__pasta_ws_
; CHECK: call void @__pasta_ws_mark(i64 %[[F6]], i64 0, i64 0, i64 0, i32 %[[V6]], i32 1, i32 1, i32 1)
; CHECK-NEXT: br i1 %done

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
; CHECK-NEXT: addrspacecast ptr addrspace(1) %a to ptr
; CHECK-NEXT: call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: call i32 @__pasta_ws_peek(
; CHECK-NEXT: store float %v, ptr addrspace(3) @tile_buf
; CHECK-NEXT: call void @__pasta_ws_mark(
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: @__pasta_ws_
; CHECK: store float %x, ptr addrspace(1) %out
; CHECK-NEXT: addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: call i64 @__pasta_ws_resolve_arg(
; CHECK-NEXT: call i32 @__pasta_ws_peek(
; CHECK-NEXT: call void @__pasta_ws_mark(

; Generic accesses: the counting code's own helpers in front of each
; (__pasta_is_shared, __pasta_is_local) and an assumption do not end the
; batch, so both loads' flags are set by one mark.
define ptx_kernel void @generic(ptr %p, ptr addrspace(1) %out) {
entry:
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
; CHECK: %x = load float, ptr %p
; CHECK-NOT: @__pasta_ws_mark
; CHECK: %y = load float, ptr %q
; CHECK-NOT: @__pasta_ws_mark
; CHECK: store float %s, ptr addrspace(1) %out
; CHECK: call void @__pasta_ws_mark(i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 0, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 1)
; CHECK-NEXT: ret void

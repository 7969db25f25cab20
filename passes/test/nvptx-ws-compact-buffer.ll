; A compact working-set copy (over -pasta-ws-compact-above) of a kernel
; whose tree tracks more than -pasta-ws-buffer-above accesses (256 by
; default: the per-batch calls of a tree that large dominate its compile;
; Onesweep's 123 keep them, their buffer cost its run time) buffers its
; accesses, -pasta-ws-compact-buffer of them (32 by default): after each
; access a store of its address in its slot of a buffer in the copy's
; frame; its word, the access's site
; (bits 0-31), generic bit (32), kernel parameter + 1 (bits 40-47) and a
; 16-bit offset (bits 48-63) from the address stored (an earlier access's
; address where the two differ by a constant: x + 4 and x + 8 store x),
; is in the call's table where one access only can be in the slot there,
; else stored after the address; one call of
; __pasta_ws_mark_buffer(state, buffer, slots, words) where the buffer may
; be full, before a loop, at a loop's latch and at a return. A slot is
; past the most the buffer can hold in front of the access and past the
; slots of the blocks before it since the last call: the two branches'
; stores of y take slots of their own (4 and 6) and the join's call reads
; 7 slots; the loop's own access is marked in front of it (no call in the
; loop); the slots used are zeroed at entry. Words: x is parameter 0 (arg 1 << 40 =
; 1099511627776), y 1 (2 << 40), pp 2 (3 << 40); offset 4 is 4 << 48 =
; 1125899906842624, 8 << 48 = 2251799813685248; generic: 1 << 32 =
; 4294967296. Accesses of one block share a site here (no debug info).
; The tree of @big tracks 10 accesses (9 in @big, 1 in @dev).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -pasta-ws-buffer-above=0 -pasta-ws-compact-buffer=32 -S %s | FileCheck %s
; Just above the gate (10 > 9), the default buffer: the same.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -pasta-ws-buffer-above=9 -S %s | FileCheck %s
; At the gate (10), by default (256) and with no buffer: a call of
; __pasta_ws_mark_compact per batch, no buffer.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -pasta-ws-buffer-above=10 -S %s | FileCheck %s --check-prefix=BATCH
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -S %s | FileCheck %s --check-prefix=BATCH
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -pasta-ws-buffer-above=0 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s --check-prefix=BATCH
; A buffer of 2: the entry's third access finds it full.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=0 -pasta-ws-buffer-above=0 -pasta-ws-compact-buffer=2 -S %s | FileCheck %s --check-prefix=SMALL
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @big(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %pp, i32 %n, i1 %c) {
entry:
  %a = load float, ptr addrspace(1) %x
  %x1 = getelementptr inbounds float, ptr addrspace(1) %x, i64 1
  store float %a, ptr addrspace(1) %x1
  %q = load ptr, ptr addrspace(1) %pp
  %b = load float, ptr %q
  br i1 %c, label %then, label %else

then:
  %x2 = getelementptr inbounds float, ptr addrspace(1) %x, i64 2
  store float %b, ptr addrspace(1) %x2
  store float %b, ptr addrspace(1) %y
  br label %join

else:
  store float %a, ptr addrspace(1) %y
  br label %join

join:
  call void @dev(ptr addrspace(1) %y)
  br label %loop

loop:
  %i = phi i32 [ 0, %join ], [ %i1, %loop ]
  %idx = zext i32 %i to i64
  %yi = getelementptr inbounds float, ptr addrspace(1) %y, i64 %idx
  %v = load volatile float, ptr addrspace(1) %yi
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit

exit:
  store float %b, ptr addrspace(1) %x
  ret void
}

define internal void @dev(ptr addrspace(1) %p) noinline {
entry:
  store float 2.0, ptr addrspace(1) %p
  ret void
}

; The words of the slots each call reads, a constant per call (distinct
; tables once): one access only can be in each slot at every call here, so
; the copy stores no word. Slots 0-3 the entry's (x, x + 4 stored as x, pp,
; q: generic, traced to no parameter), 4 the else arm's y (its own site),
; 5-6 the then arm's x + 8 (stored as x) and y (a site of their own).
; CHECK: @__pasta_ws_buffer_words = private unnamed_addr addrspace(1) constant [7 x i64] [i64 [[#%d,W0:]],
; CHECK-SAME: i64 [[#W0 + 1125899906842624]], i64 [[#W0 + 2199023255552]], i64 [[#W0 - 1099511627776 + 4294967296]], i64 [[#%d,W2:]], i64 [[#%d,W1:]],
; CHECK-SAME: i64 [[#W1 - 2251799813685248 + 1099511627776]]]
; The loop's access (on the short path) and the exit's, in slot 0 each,
; are x's parameter bits with their sites.
; CHECK: @[[T1:__pasta_ws_buffer_words[0-9]+]] = private unnamed_addr addrspace(1) constant [1 x i64] [i64 [[#W2 + 1]]]
; CHECK: @[[T2:__pasta_ws_buffer_words[0-9]+]] = private unnamed_addr addrspace(1) constant [1 x i64] [i64 [[#W0 + 4]]]
; CHECK-LABEL: define ptx_kernel void @big__pasta_ws(
; CHECK-NEXT: entry:
; CHECK-NEXT: %pasta.ws.buffer = alloca [14 x i64], align 16
; CHECK-COUNT-7: store i64 0, ptr %{{.*}}, align 8
; CHECK-NOT: @__pasta_ws_mark_compact
; CHECK: %a = load float, ptr addrspace(1) %x
; CHECK-NEXT: %[[X:.*]] = addrspacecast ptr addrspace(1) %x to ptr
; CHECK-NEXT: %[[XI:.*]] = ptrtoint ptr %[[X]] to i64
; CHECK-NEXT: %[[S0:.*]] = getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; CHECK-NEXT: store i64 %[[XI]], ptr %[[S0]], align 8
; CHECK-NEXT: getelementptr
; CHECK-NEXT: store float %a, ptr addrspace(1) %x1
; CHECK-NEXT: addrspacecast ptr addrspace(1) %x to ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 2
; CHECK-NEXT: store i64
; CHECK-NEXT: %q = load ptr, ptr addrspace(1) %pp
; CHECK-NEXT: addrspacecast ptr addrspace(1) %pp to ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 4
; CHECK-NEXT: store i64
; CHECK: %b = load float, ptr %q
; CHECK-NEXT: %[[QI:.*]] = ptrtoint ptr %q to i64
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 6
; CHECK-NEXT: store i64 %[[QI]],
; CHECK-NOT: call void @__pasta_ws_mark_buffer
; CHECK: then:
; CHECK: store float %b, ptr addrspace(1) %x2
; CHECK-NEXT: addrspacecast ptr addrspace(1) %x to ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 10
; CHECK-NEXT: store i64
; CHECK-NEXT: store float %b, ptr addrspace(1) %y
; CHECK-NEXT: addrspacecast ptr addrspace(1) %y to ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 12
; CHECK-NEXT: store i64
; CHECK-NEXT: br label %join
; CHECK: else:
; CHECK: store float %a, ptr addrspace(1) %y
; CHECK-NEXT: addrspacecast ptr addrspace(1) %y to ptr
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 8
; CHECK-NEXT: store i64
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK: call void @dev__pasta_callee__pasta_ws(
; CHECK: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 7, ptr addrspace(1) @__pasta_ws_buffer_words)
; CHECK: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 1, ptr addrspace(1) @[[T1]])
; CHECK: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 7, ptr addrspace(1) @__pasta_ws_buffer_words)
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: call void @__pasta_ws_mark_buffer
; CHECK: exit:
; CHECK: store float %b, ptr addrspace(1) %x
; CHECK-NEXT: addrspacecast
; CHECK-NEXT: ptrtoint
; CHECK-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; CHECK-NEXT: store i64
; CHECK: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 1, ptr addrspace(1) @[[T2]])
; CHECK-NEXT: ret void

; CHECK-LABEL: define internal {{.*}} @dev__pasta_callee__pasta_ws(
; CHECK: %pasta.ws.buffer = alloca [2 x i64], align 16
; CHECK: store float 2.0
; CHECK: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; CHECK: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 1, ptr addrspace(1) @{{__pasta_ws_buffer_words[0-9]+}})
; CHECK-NEXT: ret

; With 2 slots each arm finds the buffer full and starts again at slot 0:
; at the join either arm's access can be in slot 0, so the table says its
; word is in the buffer (-1, PASTA_WS_WORD_IN_BUFFER) and both arms store
; it; slot 1 holds the then arm's y only: its word is the table's.
; SMALL: @{{__pasta_ws_buffer_words[0-9]+}} = private unnamed_addr addrspace(1) constant [2 x i64] [i64 -1, i64 [[#%d,Y:]]]
; SMALL-LABEL: define ptx_kernel void @big__pasta_ws(
; SMALL: %pasta.ws.buffer = alloca [4 x i64], align 16
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 2
; SMALL: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 2, ptr addrspace(1) @__pasta_ws_buffer_words)
; SMALL-NEXT: %q = load ptr, ptr addrspace(1) %pp
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; SMALL: %b = load float, ptr %q
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 2
; SMALL: then:
; SMALL: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr %pasta.ws.buffer, i32 2, ptr addrspace(1) @{{__pasta_ws_buffer_words[0-9]+}})
; SMALL-NEXT: store float %b, ptr addrspace(1) %x2
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; SMALL-NEXT: store i64
; SMALL-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 1
; SMALL-NEXT: store i64 [[#Y + 2251799813685248 - 1099511627776]],
; SMALL-NEXT: store float %b, ptr addrspace(1) %y
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 2
; SMALL-NEXT: store i64
; SMALL-NEXT: br label %join
; SMALL: else:
; SMALL: store float %a, ptr addrspace(1) %y
; SMALL: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 0
; SMALL-NEXT: store i64
; SMALL-NEXT: getelementptr inbounds i64, ptr %pasta.ws.buffer, i64 1
; SMALL-NEXT: store i64 [[#Y + 1]],
; SMALL-NEXT: br label %join

; BATCH-LABEL: define ptx_kernel void @big__pasta_ws(
; BATCH-NOT: pasta.ws.buffer
; BATCH-NOT: @__pasta_ws_mark_buffer
; BATCH: call void @__pasta_ws_mark_compact(
; BATCH-NOT: @__pasta_ws_mark_buffer
; BATCH-LABEL: define internal {{.*}} @dev__pasta_callee__pasta_ws(
; BATCH-NOT: pasta.ws.buffer
; BATCH: call void @__pasta_ws_mark_compact(
; BATCH-NOT: @__pasta_ws_mark_buffer

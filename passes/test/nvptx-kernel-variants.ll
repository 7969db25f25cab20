; Every instrumented kernel gets a plain copy (the original code: no
; counting) and a working-set copy (counting, plus the page flag of each
; global or generic access, __pasta_ws_flag_arg or __pasta_ws_flag, set by a
; __pasta_ws_mark_args or __pasta_ws_mark_cached per batch of up to four,
; with the launch's state as one more parameter).
; The device function the kernel calls gets both copies too, and each copy
; calls the copy of its own kind.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-variants=0 -pasta-callee-counts=0 -S %s | FileCheck %s --check-prefix=NOVAR
; PASTA_VARIANTS=plain: the plain copies only; =ws: the working-set copies
; only (both the flag and the variable, in any case).
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-variants=plain -pasta-callee-counts=0 -S %s > %t.plain.ll
; RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.ll
; RUN: FileCheck %s --check-prefix=NOWS < %t.plain.ll
; RUN: env PASTA_VARIANTS=WS %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s > %t.ws.ll
; RUN: FileCheck %s --check-prefix=WS < %t.ws.ll
; RUN: FileCheck %s --check-prefix=NOPLAIN < %t.ws.ll
; RUN: env PASTA_VARIANTS=plain %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-link-runtime=0 -pasta-variants=1 -pasta-callee-counts=0 -S %s | FileCheck %s --check-prefixes=PLAIN,WS
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x float] zeroinitializer

define ptx_kernel void @k(ptr addrspace(1) %out, ptr %in) {
entry:
  %v = call float @load_it(ptr %in)
  store float %v, ptr addrspace(3) @tile
  store float %v, ptr addrspace(1) %out
  ret void
}

define internal float @load_it(ptr %p) noinline {
entry:
  %v = load float, ptr %p
  ret float %v
}

; The counting kernel is unchanged in signature and calls the counting callee.
; CHECK-LABEL: define ptx_kernel void @k(ptr addrspace(1) %out, ptr %in)
; CHECK: call float @load_it(ptr %in)
; CHECK-NOT: __pasta_ws_resolve
; CHECK: ret void

; The plain copies: no counting at all, calling the plain callee.
; CHECK-LABEL: define ptx_kernel void @k__pasta_plain(ptr addrspace(1) %out, ptr %in)
; CHECK-NOT: __pasta
; CHECK: call float @load_it__pasta_plain(ptr %in)
; CHECK-NOT: __pasta_count
; CHECK-NOT: __pasta_flush
; CHECK: ret void
; CHECK-LABEL: define internal float @load_it__pasta_plain(ptr %p)
; CHECK-NOT: __pasta_
; CHECK: ret float

; The working-set copies: counting, the state forwarded to the callee, and a
; page flag found for the global store but not for the shared one; the generic load in the
; callee is marked generic (last argument 1).
; What every access needs of the state (hotness on or off, the page shift) is
; loaded once, at entry, and passed to every lookup with the state's address
; (a cache miss reads the rest) and the six allocas that keep the two
; allocations the thread touched last.
; A kernel's copy takes the state twice: its address (%pasta.ws), passed to
; the runtime and to the callee's copy, and the state by value (byval, the
; parameter space: abi.h), from which the kernel reads what its accesses
; need, without a global load per batch.
; CHECK-LABEL: define ptx_kernel void @k__pasta_ws(ptr addrspace(1) %out, ptr %in, ptr addrspace(1) %pasta.ws, ptr noalias readonly byval([1208 x i8]) align 8 %pasta.ws.value)
; The flag addresses (the page flags and the parameter's range's flags) are
; moved to this thread block's bank once.
; CHECK-DAG: %pasta.ws.blocks = load i64, ptr {{%.*}}, align 8, !invariant.load
; CHECK-DAG: %pasta.ws.shift = load i32, ptr {{%.*}}, align 4, !invariant.load
; CHECK-DAG: %pasta.ws.bank = call i64 @__pasta_ws_bank_offset(i32 %pasta.ws.np, i32 %pasta.ws.nb)
; CHECK: call void @__pasta_count_launch{{(_threads)?}}(
; CHECK: call float @load_it__pasta_ws(ptr %in, ptr addrspace(1) %pasta.ws)
; CHECK-NOT: call i64 @__pasta_ws_flag{{.*}} addrspace(3)
; The store's address comes from parameter 0 (%out): the range the host
; found for that argument (struct pasta_ws_arg at offset 56 of the state,
; by value),
; loaded where the batch's flags are found, is checked first.
; Each access's page flag is found and set after it (with up to three more
; of its block), so that waiting for the flag does not hold the access up.
; CHECK: store float %v, ptr addrspace(1) %out
; CHECK-NEXT: getelementptr inbounds i8, ptr %pasta.ws.value, i64 56
; CHECK: %[[ARGFLAGS:.*]] = add i64 %pasta.ws.arg{{[0-9]*}}, %pasta.ws.bank
; CHECK-NEXT: %[[G:.*]] = addrspacecast ptr addrspace(1) %out to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg(i64 %{{pasta.ws.arg[0-9]*}}, i64 %{{pasta.ws.arg[0-9]*}}, i64 %[[ARGFLAGS]], i32 %pasta.ws.shift, ptr %[[G]])
; CHECK-NEXT: call void @__pasta_ws_mark_args(ptr addrspace(1) %pasta.ws, i64 %pasta.ws.blocks, i64 %pasta.ws.flag, i64 0, i64 0, i64 0, ptr %[[G]], ptr null, ptr null, ptr null, ptr addrspace(1) @__pasta_ws_batch{{[.0-9]*}})
; The callee's only call passes the kernel's parameter 1 (%in): its load is
; checked against that parameter's range too, which the callee loads from
; the state itself (struct pasta_ws_arg 1, at offset 80); the batch's full
; path is the uncached one (nvptx-ws-traced-callee.ll has the other cases).
; CHECK-LABEL: define internal float @load_it__pasta_ws(ptr %p, ptr addrspace(1) %pasta.ws)
; CHECK: %pasta.ws.blocks = load i64
; CHECK: load float, ptr %p
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %pasta.ws, i64 80
; CHECK: %[[CFLAGS:.*]] = add i64 %{{pasta.ws.arg[0-9]*}}, %pasta.ws.bank
; CHECK: %[[PF:.*]] = call i64 @__pasta_ws_flag_arg(i64 %{{pasta.ws.arg[0-9]*}}, i64 %{{pasta.ws.arg[0-9]*}}, i64 %[[CFLAGS]], i32 %pasta.ws.shift, ptr %p)
; CHECK-NEXT: call void @__pasta_ws_mark_args(ptr addrspace(1) %pasta.ws, i64 %pasta.ws.blocks, i64 %[[PF]], i64 0, i64 0, i64 0, ptr %p, ptr null, ptr null, ptr null, ptr addrspace(1) @__pasta_ws_batch{{[.0-9]*}})

; NOVAR-NOT: __pasta_plain
; NOVAR-NOT: __pasta_ws

; PLAIN-DAG: define ptx_kernel void @k__pasta_plain(
; PLAIN-DAG: define internal float @load_it__pasta_plain(
; WS-DAG: define ptx_kernel void @k__pasta_ws(
; WS-DAG: define internal float @load_it__pasta_ws(
; NOWS-NOT: __pasta_ws(
; NOPLAIN-NOT: __pasta_plain

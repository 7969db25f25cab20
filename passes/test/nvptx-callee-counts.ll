; Device functions called directly hand their counts to their callers
; (passes/CalleeCounts.h): a twin, <name>__pasta_callee, takes the kernels'
; direct calls and returns its counts after its value; the kernel adds them
; to registers and flushes them once, at its exit. No vote, warp sum or
; atomic runs at a twin's return. (The runtime is not linked here: a flush
; is a call of __pasta_flush_*.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=GONE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s --check-prefix=DIV
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-inline-flush-limit=0 -pasta-print-sites -S %s 2>%t.ool | FileCheck %s --check-prefix=OOL
; RUN: FileCheck --check-prefix=OOLSITES %s < %t.ool
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global ptr @viaptr

; The clustering shape: dist, external (another module could call it), is
; called in a loop with pointers derived from the kernel's arguments. Its
; twin's pointer parameters are proven global: no run-time address-space
; test; it returns its loop's count after its value, which the kernel adds
; to a register. Its calls are not counted on the GPU: the host derives
; them from the counter of the kernel's block that calls it (a derived
; row, SITES below).
; CHECK-LABEL: define ptx_kernel void @assign(
; CHECK: %[[R:[0-9]+]] = call { float, i64 } @dist__pasta_callee(ptr %a, ptr %b, i32 %n)
; CHECK: %[[N:[0-9]+]] = extractvalue { float, i64 } %[[R]], 1
; CHECK: add i64 %{{[a-z0-9.]+}}, %[[N]]
; CHECK-NOT: __pasta_flush
; CHECK: done:
; CHECK: __pasta_flush
; CHECK: ret void
define ptx_kernel void @assign(ptr %a, ptr %b, i32 %n, i32 %k) {
entry:
  br label %loop
loop:
  %c = phi i32 [ 0, %entry ], [ %c.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %e = call float @dist(ptr %a, ptr %b, i32 %n)
  %s.next = fadd float %s, %e
  %c.next = add i32 %c, 1
  %more = icmp slt i32 %c.next, %k
  br i1 %more, label %loop, label %done
done:
  store float %s.next, ptr %a
  ret void
}

; The original stays, for other modules: it flushes at its return as before.
; CHECK-LABEL: define float @dist(
; CHECK: __pasta_is_shared
; CHECK: __pasta_flush
; CHECK: ret float
define float @dist(ptr %p, ptr %q, i32 %d) noinline {
entry:
  br label %body
body:
  %f = phi i32 [ 0, %entry ], [ %f.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %pp = getelementptr float, ptr %p, i32 %f
  %qq = getelementptr float, ptr %q, i32 %f
  %x = load float, ptr %pp
  %y = load float, ptr %qq
  %t = fsub float %x, %y
  %acc.next = fadd float %acc, %t
  %f.next = add i32 %f, 1
  %more = icmp slt i32 %f.next, %d
  br i1 %more, label %body, label %out
out:
  ret float %acc.next
}

; A kernel passes a pointer to its own stack (local memory) or to global
; memory, chosen at run time: that twin keeps its run-time test (4
; counters of the load's space) and still returns its counts. An outer twin carries an inner twin's counts.
; CHECK-LABEL: define ptx_kernel void @chain(
; CHECK: call { float, i64, i64, i64, i64 } @peek__pasta_callee(ptr %either)
; CHECK: call { float } @outer__pasta_callee(float
; CHECK: call float %{{.*}}(float
; After a call through a pointer (which might end the thread), the block's
; count may not be viaptr's calls: chain counts them, +1 per call.
; CHECK: call { float } @viaptr__pasta_callee(float
; CHECK-NEXT: add i64 {{.*}}, 1
; CHECK: call float @rec(
; CHECK: ret void
; GONE-NOT: @rec__pasta_callee
define ptx_kernel void @chain(ptr %out, float %v) {
entry:
  %slot = alloca float, align 4, addrspace(5)
  %slot.gen = addrspacecast ptr addrspace(5) %slot to ptr
  store float %v, ptr %slot.gen
  %mine = fcmp ogt float %v, 0.0
  %either = select i1 %mine, ptr %slot.gen, ptr %out
  %p = call float @peek(ptr %either)
  %o = call float @outer(float %p)
  %fp = load ptr, ptr addrspace(1) @table
  %i = call float %fp(float %o)
  %d = call float @viaptr(float %i)
  %r = call float @rec(float %d, i32 3)
  store float %r, ptr %out
  ret void
}

; Flushed out of line (no inline flush at all, -pasta-inline-flush-limit=0),
; chain stages the counts it keeps for its callees with its own and flushes
; them by module index: peek's four counters of its load's run-time space
; (its site's group starts at 25: loads and their bytes, shared then local)
; and the call counter of viaptr's twin (37).
; OOLSITES: func viaptr kind=device calls=17
; OOLSITES: func peek kind=device calls=23
; OOLSITES: func viaptr kind=device calls=37
; OOLSITES: site ?:0 func=peek counter=24 dyn=25 ld.generic=1
; OOL: @[[CHAIN:__pasta_flush_indices[0-9]*]] = {{.*}} constant [5 x i32] [i32 25, i32 26, i32 27, i32 28, i32 37]
; OOL-LABEL: define ptx_kernel void @chain(
; OOL-NOT: __pasta_flush_counter
; OOL: call void @__pasta_flush_indexed({{.*}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @[[CHAIN]], i32 5)
; OOL-NEXT: ret void
define internal float @peek(ptr %p) noinline {
  %x = load float, ptr %p
  ret float %x
}

define internal float @outer(float %v) noinline {
  %a = call float @inner(float %v)
  %b = fmul float %a, %v
  ret float %b
}

define internal float @inner(float %v) noinline {
  %a = fmul float %v, %v
  ret float %a
}

; Called through a pointer too: the original stays, for that call.
; CHECK-LABEL: define internal float @viaptr(
; CHECK: __pasta_flush
define internal float @viaptr(float %v) noinline {
  %a = fadd float %v, 1.0
  ret float %a
}

; Recursive: no twin; it flushes at every return as before.
; CHECK-LABEL: define internal float @rec(
; CHECK: __pasta_flush
define internal float @rec(float %v, i32 %n) noinline {
entry:
  %stop = icmp eq i32 %n, 0
  br i1 %stop, label %base, label %step
base:
  ret float %v
step:
  %n1 = sub i32 %n, 1
  %v1 = fmul float %v, 2.0
  %r = call float @rec(float %v1, i32 %n1)
  ret float %r
}

; The twins come after the originals, and their plain copies.
; CHECK-LABEL: define internal { float, i64 } @dist__pasta_callee(
; CHECK-NOT: __pasta_is_
; CHECK-NOT: __pasta_flush
; CHECK: ret { float, i64 }
; CHECK-LABEL: define internal { float, i64, i64, i64, i64 } @peek__pasta_callee(
; CHECK: __pasta_is_shared
; CHECK-NOT: __pasta_flush
; CHECK: ret { float, i64, i64, i64, i64 }
; inner is internal and only called directly: its original goes; it has
; nothing to return but its value (its block is its calls).
; GONE-NOT: define internal float @inner(
; CHECK-LABEL: define internal { float } @inner__pasta_callee(
; outer returns nothing but its value: its block's count (its calls) is
; derived from chain's block, inner's calls from outer's block.
; CHECK-LABEL: define internal { float } @outer__pasta_callee(
; CHECK: call { float } @inner__pasta_callee(
; CHECK-NOT: __pasta_flush
; CHECK: ret { float }
; The working-set copies call the twins' working-set copies.
; CHECK-LABEL: define ptx_kernel void @assign__pasta_ws(
; CHECK: call { float, i64 } @dist__pasta_callee__pasta_ws(

; The twin's rows carry the original's name (the profile merges them):
; dist's loads are global in the twin's rows, resolved at run time in the
; original's.
; SITES-DAG: site {{.*}} func=dist {{.*}}ld.global=2 ldB.global=8
; SITES-DAG: site {{.*}} func=dist {{.*}}ld.generic=2 ldB.generic=8
; SITES-NOT: __pasta_callee
; A twin's calls counter is derived after the caller's block counter it
; comes from, and before the twin's own rows that read it: dist's twin's
; calls (counter 21) from assign's loop block (counter 1).
; SITES: pasta: derived 21 = +1*c1
; SITES-NOT: pasta: derived 1 =

; OFF-NOT: __pasta_callee

; Divergence builds too: the kernel's divergence copy calls the twin's
; divergence copy and adds the counting counts it returns; the twin's copy
; has no counting flush at its return (no flush_any: the warp test of the
; counting flush) and no address-space test (its pointers are global). Its
; divergence figures leave as before (atomics and its loop's flush).
; DIV-LABEL: define ptx_kernel void @assign__pasta_div(
; DIV: %[[R:[0-9]+]] = call { float, i64 } @dist__pasta_callee__pasta_div(ptr %a, ptr %b, i32 %n)
; DIV-NEXT: %[[N:[0-9]+]] = extractvalue { float, i64 } %[[R]], 1
; DIV-NEXT: add i64 %{{[a-z0-9.]+}}, %[[N]]
; DIV-LABEL: define internal { float, i64 } @dist__pasta_callee__pasta_div(
; DIV-NOT: __pasta_flush_any
; DIV-NOT: __pasta_is_shared
; DIV: __pasta_div_access
; DIV-NOT: __pasta_flush_any
; DIV: ret { float, i64 }

; A device function's twin returns its address-space counts with its value
; (CalleeCounts.h); called in a loop, its caller would carry them through
; the loop in registers, as its own. In a counting build they are added in
; local memory behind one test of them all, marked unlikely
; (CounterEmissionSpaces.cpp, addColdCarriedCounts): a six-field read
; through a pointer, called in a loop, took 40 registers against the
; plain copy's 23 with them in registers, 32 with them there.
; @walk: the call in a loop: the four returned counts or'ed, tested, added
; to four slots of the local-memory array on the cold path; no 64-bit phi
; in the loop.
; @once: the call outside loops: added to registers as before.
; With -pasta-cold-address-spaces=0 the loop carries them again.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-cold-address-spaces=0 -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

; CHECK-LABEL: define ptx_kernel void @walk(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [4 x i64], align 8
; CHECK: loop:
; CHECK-NOT: phi i64
; CHECK: %[[R:[0-9]+]] = call { float, i64, i64, i64, i64 } @get__pasta_callee(ptr %p)
; CHECK-NEXT: %[[C1:[0-9]+]] = extractvalue { float, i64, i64, i64, i64 } %[[R]], 1
; CHECK-NEXT: %[[C2:[0-9]+]] = extractvalue { float, i64, i64, i64, i64 } %[[R]], 2
; CHECK-NEXT: or i64 %[[C1]], %[[C2]]
; CHECK: %pasta.not.global = icmp ne i64 %{{[0-9]+}}, 0
; CHECK-NEXT: br i1 %pasta.not.global, label %pasta.space.cold, label %[[HOT:[0-9]+]], !prof
; CHECK: pasta.space.cold:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: load volatile i64
; CHECK-NEXT: add i64 %{{[0-9]+}}, %[[C1]]
; CHECK-COUNT-3: store volatile i64
; CHECK: store volatile i64
; CHECK-NEXT: br label %[[HOT]]
; CHECK: [[HOT]]:
; CHECK-NEXT: extractvalue { float, i64, i64, i64, i64 } %[[R]], 0
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @once(
; CHECK-NOT: space.cold
; CHECK: call { float, i64, i64, i64, i64 } @get__pasta_callee(ptr %p)
; CHECK-NOT: space.cold
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @walk(
; OFF-NOT: space.cold
; OFF: loop:
; OFF-NEXT: phi i64
; OFF-NOT: space.cold
; OFF: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal float @get(ptr %p) noinline {
entry:
  %a = load float, ptr %p, align 4
  %pb = getelementptr inbounds float, ptr %p, i64 1
  %b = load float, ptr %pb, align 4
  %s = fadd float %a, %b
  ret float %s
}

define ptx_kernel void @walk(ptr addrspace(1) %list, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %pp = getelementptr inbounds ptr, ptr addrspace(1) %list, i32 %j
  %p = load ptr, ptr addrspace(1) %pp, align 8
  %v = call float @get(ptr %p)
  %acc.next = fadd float %acc, %v
  %j.next = add i32 %j, 1
  %more = icmp slt i32 %j.next, %m
  br i1 %more, label %loop, label %done
done:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

define ptx_kernel void @once(ptr addrspace(1) %list, ptr addrspace(1) %out) {
entry:
  %p = load ptr, ptr addrspace(1) %list, align 8
  %v = call float @get(ptr %p)
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

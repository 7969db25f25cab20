; In a counting copy, a loop that waits for atomics on global memory (a
; compare-and-swap, or a read-modify-write whose old value is used, on a
; global or generic address, run at least once in 4 iterations by the
; blocks' estimated frequencies) keeps its blocks' counters in local
; memory: volatile loads and stores of one array's slots
; (CounterEmission.cpp, findAtomicLoopCounters; AtomicLoops.h). SlabHash's
; insert loop held 10 64-bit counters there: 48 registers against 26, 57%
; of the warps active against 91%. A generic access's address-space
; counters stay in registers (in memory, their four adds in every lane
; cost more than the registers); here with -pasta-cold-address-spaces=0,
; since by default a generic access in a loop adds them in local memory on
; a path global pointers skip (nvptx-cold-address-spaces.ll).
; @insert: an open-addressing insert retrying its cmpxchg on a generic
; pointer: the header's and the claim's counters in a two-slot array, the
; generic load's four counters (shared, shared bytes, local, local bytes)
; in registers.
; @tally: a loop whose global atomic's result is unused (a reduction the
; warp does not wait for) and a spin on a shared-memory lock: registers.
; @rare: the cmpxchg in 1 of 101 iterations by its branch weights:
; registers. With -pasta-atomic-loop-iterations=0, and in the divergence
; build, nothing is in local memory.
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-cold-address-spaces=0 -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-cold-address-spaces=0 -pasta-share-like-counters=0 -pasta-atomic-loop-iterations=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-cold-address-spaces=0 -pasta-share-like-counters=0 -pasta-divergence -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @insert(
; CHECK: entry:
; CHECK-NEXT: %pasta.counts.mem = alloca [2 x i64], align 8
; CHECK-NOT: alloca i64
; CHECK: probe:
; CHECK-COUNT-4: phi i64 [ 0, %entry ]
; CHECK-NEXT: %slot = phi
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: load volatile i64
; CHECK-NEXT: add i64
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 0
; CHECK-NEXT: store volatile i64
; CHECK: %[[SH:[0-9]+]] = call i64 @__pasta_is_shared(ptr %p)
; CHECK-NEXT: %[[LO:[0-9]+]] = call i64 @__pasta_is_local(ptr %p)
; CHECK-NEXT: add i64 %pasta.count{{[0-9]+}}.0, %[[SH]]
; CHECK-NOT: volatile
; CHECK: %old = load i32, ptr %p
; CHECK: claim:
; CHECK-NEXT: getelementptr inbounds i8, ptr addrspace(5) %pasta.counts.local, i64 8
; CHECK-NEXT: load volatile i64
; CHECK: cmpxchg ptr %p
; CHECK: taken:
; CHECK-NOT: volatile
; CHECK: done:
; CHECK-LABEL: define ptx_kernel void @tally(
; CHECK-NOT: volatile
; CHECK: loop:
; CHECK-NEXT: phi i64
; CHECK-LABEL: define ptx_kernel void @rare(
; CHECK-NOT: volatile
; CHECK: loop:
; CHECK-NEXT: phi i64
; CHECK-NOT: volatile
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @insert(
; OFF-NOT: volatile
; OFF: probe:
; OFF-NEXT: phi i64
; OFF-NOT: volatile
; OFF: define ptx_kernel void @tally(
; OFF-NOT: volatile
; OFF: define ptx_kernel void @rare(
; OFF-NOT: volatile
; OFF: ret void
@lock = internal addrspace(3) global i32 0

define ptx_kernel void @insert(ptr addrspace(1) %tables, ptr addrspace(1) %keys, i32 %n) {
entry:
  %table = load ptr, ptr addrspace(1) %tables
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %kp = getelementptr i32, ptr addrspace(1) %keys, i32 %tid
  %key = load i32, ptr addrspace(1) %kp
  br label %probe
probe:
  %slot = phi i32 [ %key, %entry ], [ %next, %taken ]
  %h = urem i32 %slot, %n
  %p = getelementptr i32, ptr %table, i32 %h
  %old = load i32, ptr %p
  %free = icmp eq i32 %old, -1
  br i1 %free, label %claim, label %taken
claim:
  %r = cmpxchg ptr %p, i32 -1, i32 %key seq_cst seq_cst
  %ok = extractvalue { i32, i1 } %r, 1
  br i1 %ok, label %done, label %taken
taken:
  %next = add i32 %slot, 1
  br label %probe
done:
  ret void
}

define ptx_kernel void @tally(ptr addrspace(1) %bins, ptr addrspace(1) %data) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %dp = getelementptr i32, ptr addrspace(1) %data, i32 %i
  %v = load i32, ptr addrspace(1) %dp
  %odd = and i32 %v, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %add, label %lock
add:
  %bp = getelementptr i32, ptr addrspace(1) %bins, i32 %v
  %unused = atomicrmw add ptr addrspace(1) %bp, i32 1 monotonic
  br label %next
lock:
  %r = cmpxchg ptr addrspace(3) @lock, i32 0, i32 1 seq_cst seq_cst
  %got = extractvalue { i32, i1 } %r, 1
  br i1 %got, label %next, label %lock
next:
  %i.next = add i32 %i, 1
  %more = icmp ne i32 %v, 0
  br i1 %more, label %loop, label %done
done:
  ret void
}


; A loop whose compare-and-swap its branch weights make rare (1 run in 101
; iterations, estimated) keeps its counters in registers.
define ptx_kernel void @rare(ptr addrspace(1) %tables, ptr addrspace(1) %data) {
entry:
  %table = load ptr, ptr addrspace(1) %tables
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %dp = getelementptr i32, ptr addrspace(1) %data, i32 %i
  %v = load i32, ptr addrspace(1) %dp
  %hit = icmp eq i32 %v, 7
  br i1 %hit, label %swap, label %next, !prof !0
swap:
  %p = getelementptr i32, ptr %table, i32 %v
  %r = cmpxchg ptr %p, i32 -1, i32 %i seq_cst seq_cst
  br label %next
next:
  %i.next = add i32 %i, 1
  %more = icmp ne i32 %v, 0
  br i1 %more, label %loop, label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 100}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

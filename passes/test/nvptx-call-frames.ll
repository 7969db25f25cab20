; Device functions that are not inlined (CallFrames.h): each gets a twin,
; <name>__pasta_frame, with one more parameter, its caller's frame (private
; memory, addrspace 5). The twin adds its counts to the frame at its
; returns, with no flush; a kernel zeroes a frame at entry and flushes it
; (__pasta_flush: warp-reduced, banked) at its return, once per thread. The
; original symbol becomes a wrapper owning a frame for one call: indirect
; calls, like the one through @table here, still count exactly.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=SITES < %t.sites
; Without frames (the comparison switch), trace and divergence modes: a
; flush at every return of the device functions, no twin.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-call-frames=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-link-runtime=0 -pasta-trace -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global ptr @leaf

; Counters (module indices, kernels first, in order, then the device
; functions): k1 0-1 (launches, its block), k2 2-3, then dist, leaf, rec.
; Each device function has a call counter and one per block that counts
; something: dist 2 (calls, %loop), leaf 2 (calls, its block), rec 3
; (calls, %entry's store, %down's store): 7 counters from index 4 on.
; SITES: pasta: func k1 kind=kernel calls=0
; SITES: pasta: func k2 kind=kernel calls=2
; SITES: pasta: func dist kind=device calls=4
; SITES: pasta: func leaf kind=device calls=6
; SITES: pasta: func rec kind=device calls=8

; k1 calls dist (which calls leaf) and rec: its frame holds all 7 counters,
; element 0 being counter 4. It is zeroed at entry and flushed at the
; return, with the kernel's own counters.
; CHECK-LABEL: define ptx_kernel void @k1(
; CHECK-NEXT: entry:
; CHECK-NEXT: %pasta.frame = alloca [7 x i64], align 8
; CHECK: call void @llvm.memset.p0.i64(ptr align 8 %pasta.frame, i8 0, i64 56, i1 false)
; CHECK: %pasta.frame.base = getelementptr i8, ptr addrspace(5) %{{.*}}, i64 0
; CHECK: call float @dist__pasta_frame(ptr addrspace(1) %a, i32 %d, ptr addrspace(5) %pasta.frame.base)
; CHECK: call float @dist__pasta_frame(ptr addrspace(1) %a, i32 %d2, ptr addrspace(5) %pasta.frame.base)
; The indirect call goes to whatever the table holds: @leaf, the wrapper.
; CHECK: %fp = load ptr, ptr addrspace(1) @table
; CHECK: call float %fp(float %s)
; CHECK: call i32 @rec__pasta_frame(i32 %d, ptr addrspace(5) %pasta.frame.base)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 4, ptr %pasta.frame, i32 7)
; CHECK: ret void
define ptx_kernel void @k1(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %d) {
entry:
  %x = call float @dist(ptr addrspace(1) %a, i32 %d)
  %d2 = add i32 %d, 1
  %y = call float @dist(ptr addrspace(1) %a, i32 %d2)
  %s = fadd float %x, %y
  %fp = load ptr, ptr addrspace(1) @table
  %z = call float %fp(float %s)
  %r = call i32 @rec(i32 %d)
  %rf = sitofp i32 %r to float
  %t = fadd float %z, %rf
  store float %t, ptr addrspace(1) %out
  ret void
}

; k2 reaches dist and leaf only: counters 4-7, frame elements 0-3.
; CHECK-LABEL: define ptx_kernel void @k2(
; CHECK-NEXT: entry:
; CHECK-NEXT: %pasta.frame = alloca [4 x i64], align 8
; CHECK: call float @dist__pasta_frame(ptr addrspace(1) %a, i32 8, ptr addrspace(5) %pasta.frame.base)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 4, ptr %pasta.frame, i32 4)
; CHECK: ret void
define ptx_kernel void @k2(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %x = call float @dist(ptr addrspace(1) %a, i32 8)
  store float %x, ptr addrspace(1) %out
  ret void
}

; The original dist: a wrapper with a frame of its own for dist and leaf,
; flushed when the call returns (no counting of its own).
; CHECK-LABEL: define internal float @dist(ptr addrspace(1) %0, i32 %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: %pasta.frame = alloca [4 x i64], align 8
; CHECK: %[[R:[0-9]+]] = call float @dist__pasta_frame(ptr addrspace(1) %0, i32 %1, ptr addrspace(5) %pasta.frame.base)
; CHECK-NEXT: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 4, ptr %pasta.frame, i32 4)
; CHECK-NEXT: ret float %[[R]]
define internal float @dist(ptr addrspace(1) %a, i32 %d) noinline {
entry:
  %empty = icmp sle i32 %d, 0
  br i1 %empty, label %done, label %loop
loop:
  %f = phi i32 [ 0, %entry ], [ %f.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %f
  %v = load float, ptr addrspace(1) %p
  %s.next = fadd float %s, %v
  %f.next = add i32 %f, 1
  %more = icmp slt i32 %f.next, %d
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %l = call float @leaf(float %r)
  ret float %l
}

; CHECK-LABEL: define internal float @leaf(float %0)
; CHECK: call float @leaf__pasta_frame(float %0, ptr addrspace(5) %pasta.frame.base)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 6, ptr %pasta.frame, i32 2)
define internal float @leaf(float %x) noinline {
  %y = fmul float %x, %x
  ret float %y
}

define internal i32 @rec(i32 %n) noinline {
entry:
  store i32 %n, ptr addrspace(1) null
  %stop = icmp sle i32 %n, 0
  br i1 %stop, label %base, label %down
down:
  store i32 0, ptr addrspace(1) null
  %m = sub i32 %n, 1
  %r = call i32 @rec(i32 %m)
  %s = add i32 %r, 1
  ret i32 %s
base:
  ret i32 0
}

; The twins: the bodies, counting in registers, adding to the frame at each
; return (dist's calls at element 0, its loop at element 1, leaf's at 2
; and 3); no flush, no warp vote, no atomic.
; CHECK-LABEL: define internal float @dist__pasta_frame(ptr addrspace(1) %a, i32 %d, ptr addrspace(5) %pasta.frame)
; CHECK-NOT: __pasta_flush
; CHECK: %l = call float @leaf__pasta_frame(float %r, ptr addrspace(5) %pasta.frame)
; CHECK-NEXT: %[[C0:[0-9]+]] = getelementptr i64, ptr addrspace(5) %pasta.frame, i32 0
; CHECK-NEXT: %[[O0:[0-9]+]] = load i64, ptr addrspace(5) %[[C0]], align 8
; CHECK-NEXT: %[[N0:[0-9]+]] = add i64 %[[O0]], 1
; CHECK-NEXT: store i64 %[[N0]], ptr addrspace(5) %[[C0]], align 8
; CHECK-NEXT: %[[C1:[0-9]+]] = getelementptr i64, ptr addrspace(5) %pasta.frame, i32 1
; CHECK-NEXT: %[[O1:[0-9]+]] = load i64, ptr addrspace(5) %[[C1]], align 8
; CHECK-NEXT: add i64 %[[O1]], %
; CHECK-NEXT: store i64
; CHECK-NEXT: ret float %l
; CHECK-LABEL: define internal float @leaf__pasta_frame(float %x, ptr addrspace(5) %pasta.frame)
; CHECK-NOT: __pasta_flush
; CHECK: getelementptr i64, ptr addrspace(5) %pasta.frame, i32 2
; CHECK: getelementptr i64, ptr addrspace(5) %pasta.frame, i32 3
; CHECK: ret float %y
; Recursion: every activation adds its own counts to the same frame.
; CHECK-LABEL: define internal i32 @rec__pasta_frame(i32 %n, ptr addrspace(5) %pasta.frame)
; CHECK-NOT: __pasta_flush
; CHECK: %r = call i32 @rec__pasta_frame(i32 %m, ptr addrspace(5) %pasta.frame)
; CHECK: ret i32 %s
; CHECK-NOT: __pasta_flush
; CHECK: ret i32 0
; CHECK-NOT: __pasta_flush
; CHECK-LABEL: declare void @__pasta_flush(

; OFF-NOT: __pasta_frame
; OFF-LABEL: define internal float @dist(
; OFF: call float @leaf(
; OFF: __pasta_flush_counter
; OFF: ret float
; OFF-NOT: __pasta_frame

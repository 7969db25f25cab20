; Tile checks (passes/CounterPlacement.cpp, tileCheck, coldWays): in a loop
; over a thread block's tiles, the test of whether the tile is whole
; (`if (n - offset > 2047)`, a place that changes in the loop against a
; shared bound) has a cold successor, the partial last tile. The blocks of
; the loop that run only after it (the partial tile's guarded loads) are
; counted where they are taken (__pasta_count_lanes), as is the edge itself
; where a derivation uses it: no register through the loop. CUB's radix-sort
; histogram kept sixteen such 64-bit counters through its loop (96
; registers against 32 plain; 64 now).
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

; Counters: @tiles 0 launches, 1 %whole, 2 %load0, 3 %load1; @block_bound
; 4 launches, 5 %some; @partial_loop 6 launches, 7 %whole, 8 %part, 9
; %rest, 10 the cold edge (%part = the edge).
; SITES: pasta: func tiles kind=kernel calls=0
; SITES: pasta: func block_bound kind=kernel calls=4
; SITES: pasta: func partial_loop kind=kernel calls=6
; SITES: pasta: derived 8 = +1*c10

; The whole tile keeps its register (one phi at the loop's header); each
; guarded load of the partial tile is counted where it runs.
; CHECK-LABEL: define ptx_kernel void @tiles(
; CHECK: tile:
; CHECK-NEXT: %pasta.count1.0 = phi i64
; CHECK-NEXT: %off = phi i64
; CHECK: whole:
; CHECK-NEXT: add i64 %pasta.count1.0, 1
; CHECK: load0:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 2)
; CHECK: load1:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 3)
; CHECK: latch:
; CHECK-NEXT: %pasta.count1.1 = phi i64
; CHECK-NEXT: %off.next
; CHECK: ret void

; A block-dependent test that does not change in the loop is no tile check
; (nor is the loop's trip test against `n + blockIdx.x`): %some keeps its
; register.
; CHECK-LABEL: define ptx_kernel void @block_bound(
; CHECK-NOT: __pasta_count_lanes
; CHECK: some:
; CHECK-NEXT: add i32 %pasta.count1.0, 1
; CHECK: ret void

; A loop inside the partial tile runs many times per tile: its block keeps
; a register; the edge into the partial tile is counted where taken.
; CHECK-LABEL: define ptx_kernel void @partial_loop(
; CHECK: part.split:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 10)
; CHECK: rest:
; CHECK: %pasta.count3.2 = phi i64
; CHECK: add i64 %pasta.count3.2, 1
; CHECK: ret void

; The working-set copy, a kernel of the counting build, counts them alike.
; CHECK-LABEL: define ptx_kernel void @tiles__pasta_ws(
; CHECK: load0:
; CHECK-NEXT: call void @__pasta_count_lanes(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @tiles(ptr %a, i64 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b11 = shl i32 %b, 11
  %start = zext i32 %b11 to i64
  %g11 = shl i32 %g, 11
  %stride = zext i32 %g11 to i64
  %t64 = zext i32 %t to i64
  %t1 = add i32 %t, 128
  %any = icmp ult i64 %start, %n
  br i1 %any, label %tile, label %done
tile:
  %off = phi i64 [ %start, %entry ], [ %off.next, %latch ]
  %left = sub i64 %n, %off
  %full = icmp ugt i64 %left, 2047
  %p = getelementptr float, ptr %a, i64 %off
  br i1 %full, label %whole, label %part
whole:
  %p0 = getelementptr float, ptr %p, i64 %t64
  store float 1.0, ptr %p0
  br label %latch
part:
  %left32 = trunc i64 %left to i32
  %in0 = icmp slt i32 %t, %left32
  br i1 %in0, label %load0, label %next
load0:
  %q0 = getelementptr float, ptr %p, i64 %t64
  store float 2.0, ptr %q0
  br label %next
next:
  %in1 = icmp slt i32 %t1, %left32
  br i1 %in1, label %load1, label %latch
load1:
  %q1 = getelementptr float, ptr %p, i32 %t1
  store float 3.0, ptr %q1
  br label %latch
latch:
  %off.next = add i64 %off, %stride
  %more = icmp ult i64 %off.next, %n
  br i1 %more, label %tile, label %done
done:
  ret void
}


define ptx_kernel void @block_bound(ptr %a, i32 %n, i32 %k) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b4 = shl i32 %b, 4
  %m = add i32 %n, %b
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %latch ]
  %few = icmp slt i32 %b4, %k
  br i1 %few, label %some, label %latch
some:
  %q = getelementptr float, ptr %a, i32 %j
  store float 1.0, ptr %q
  br label %latch
latch:
  %j.next = add i32 %j, 1
  %more = icmp slt i32 %j.next, %m
  br i1 %more, label %loop, label %done
done:
  ret void
}

define ptx_kernel void @partial_loop(ptr %a, i64 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b11 = shl i32 %b, 11
  %start = zext i32 %b11 to i64
  %g11 = shl i32 %g, 11
  %stride = zext i32 %g11 to i64
  %t64 = zext i32 %t to i64
  %any = icmp ult i64 %start, %n
  br i1 %any, label %tile, label %done
tile:
  %off = phi i64 [ %start, %entry ], [ %off.next, %latch ]
  %left = sub i64 %n, %off
  %full = icmp ugt i64 %left, 2047
  %p = getelementptr float, ptr %a, i64 %off
  br i1 %full, label %whole, label %part
whole:
  %p0 = getelementptr float, ptr %p, i64 %t64
  store float 1.0, ptr %p0
  br label %latch
part:
  %q = getelementptr float, ptr %p, i64 %t64
  store float 2.0, ptr %q
  br label %rest
rest:
  %k = phi i64 [ %t64, %part ], [ %k.next, %rest ]
  %r = getelementptr float, ptr %p, i64 %k
  store float 3.0, ptr %r
  %k.next = add i64 %k, 128
  %in = icmp ult i64 %k.next, %left
  br i1 %in, label %rest, label %latch
latch:
  %off.next = add i64 %off, %stride
  %more = icmp ult i64 %off.next, %n
  br i1 %more, label %tile, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A loop whose only access is a load in inline PTX (CUB's tile loops:
; `ld.global.nc` through ThreadLoad<LOAD_LDG>, counted as a load) is
; counted by its trip count at its exit, like a loop of ordinary loads
; (CounterEmission.cpp, addTripCount), and its counter narrowed to 32 bits.
; LLVM takes inline assembly to possibly never return, so scalar evolution
; counted no trips of such a loop: before this, the loop's block added 1 to
; a 64-bit register in every trip (the OFF lines). A counted access returns
; as a load does (InlineAsmMemory.h, asmAccessReturns): the pass marks it
; `willreturn` while it emits the counting code, and takes the mark off
; again. An assembly statement with `trap` beside its load is not marked.
; The exit gather is off here (nvptx-gather-tail-lanes.ll): its calls would
; sit between the lines checked.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-asm-accesses-return=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; for (i = tid; i < n; i += 256) sum += ld.global.nc(a + i): each thread's
; trips, ((n - 1 - tid) >> 8) + 1, added once at the loop's exit, in 32
; bits (at most 2^23 trips); nothing added in the loop.
; CHECK-LABEL: define ptx_kernel void @tile(
; CHECK: body:
; CHECK-NOT: add i64 %pasta.count
; CHECK: %v = call i64 asm sideeffect "ld.global.nc.u64 $0, [$1];", "=l,l"(ptr %p) #[[ASM:[0-9]+]]
; CHECK-NOT: add i64 %pasta.count
; CHECK: br i1 %more, label %body, label %[[EXIT:[a-z._]+]]
; CHECK: [[EXIT]]:
; CHECK: %[[LAST:[0-9]+]] = add i32 %n, -1
; CHECK-NEXT: %[[LEFT:[0-9]+]] = sub i32 %[[LAST]], %tid
; CHECK-NEXT: %[[WIDE:[0-9]+]] = zext i32 %[[LEFT]] to i64
; CHECK-NEXT: %[[BACK:[0-9]+]] = lshr i64 %[[WIDE]], 8
; CHECK-NEXT: %[[TRIPS:[0-9]+]] = add nuw nsw i64 %[[BACK]], 1
; CHECK-NEXT: %[[T32:[0-9]+]] = trunc i64 %[[TRIPS]] to i32
; CHECK-NEXT: %[[SUM:[0-9]+]] = add i32 0, %[[T32]]
; CHECK: done:
; CHECK-NEXT: %[[COUNT:pasta.count[0-9.]+]] = phi i32 [ %[[SUM]], %[[EXIT]] ], [ 0, %entry ]
; CHECK: zext i32 %[[COUNT]] to i64
; OFF-LABEL: define ptx_kernel void @tile(
; OFF: body:
; OFF: add i64 %pasta.count{{.*}}, 1
; OFF: %v = call i64 asm sideeffect "ld.global.nc.u64
define ptx_kernel void @tile(ptr %a, i32 %n, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %go = icmp slt i32 %tid, %n
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %body ]
  %w = sext i32 %i to i64
  %p = getelementptr inbounds i64, ptr %a, i64 %w
  %v = call i64 asm sideeffect "ld.global.nc.u64 $0, [$1];", "=l,l"(ptr %p) #0
  %s.next = add nsw i64 %v, %s
  %i.next = add nuw nsw i32 %i, 256
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %s.next, %body ]
  store i64 %r, ptr %out
  ret void
}

; The same loop with `trap` in the statement: it may not return, and its
; loop keeps the count of every trip.
; CHECK-LABEL: define ptx_kernel void @trapping(
; CHECK: body:
; CHECK: add i64 %pasta.count{{.*}}, 1
; CHECK: call i64 asm sideeffect "ld.global.nc.u64 $0, [$1]; trap;"
define ptx_kernel void @trapping(ptr %a, i32 %n, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %go = icmp slt i32 %tid, %n
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %body ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %body ]
  %w = sext i32 %i to i64
  %p = getelementptr inbounds i64, ptr %a, i64 %w
  %v = call i64 asm sideeffect "ld.global.nc.u64 $0, [$1]; trap;", "=l,l"(ptr %p) #0
  %s.next = add nsw i64 %v, %s
  %i.next = add nuw nsw i32 %i, 256
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %s.next, %body ]
  store i64 %r, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The mark is taken off again: the program's call keeps clang's attributes.
; CHECK: attributes #[[ASM]] = { convergent nounwind }
attributes #0 = { convergent nounwind }

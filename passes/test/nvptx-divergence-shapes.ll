; Shapes the divergence copies must NOT take shortcuts on (each would change
; a figure): the measurement stays at the access, or the count in a
; register.
; Its accesses of one address in every lane are measured here, to test the
; measuring code (-pasta-div-derive-whole=0; by default their figures are
; derived: nvptx-divergence-uniform.ll).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; g[threadIdx.x & 15]: lanes 16-31 repeat lanes 0-15, so the address is not
; base + 4 * lane (scalar evolution: zext(trunc x to i4)).
; CHECK-LABEL: define ptx_kernel void @masked__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_access_lanes
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: ret void
define ptx_kernel void @masked(ptr addrspace(1) %g) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %m = and i32 %tid, 15, !dbg !10
  %i = zext i32 %m to i64, !dbg !10
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %i, !dbg !10
  store float 1.0, ptr addrspace(1) %p, align 4, !dbg !10
  ret void, !dbg !10
}

; After a loop whose lanes leave at different iterations (each its own
; limit), i = x + 32 * (its own trip count): not base + 4 * lane.
; CHECK-LABEL: define ptx_kernel void @after__pasta_div(
; CHECK: done:
; CHECK-NOT: call i32 @__pasta_div_access_lanes
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: ret void
define ptx_kernel void @after(ptr addrspace(1) %g, ptr addrspace(1) %lim) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %t = zext i32 %tid to i64, !dbg !11
  %lp = getelementptr inbounds i64, ptr addrspace(1) %lim, i64 %t, !dbg !11
  %l = load i64, ptr addrspace(1) %lp, align 8, !dbg !11
  br label %loop, !dbg !11
loop:
  %i = phi i64 [ %t, %entry ], [ %i.next, %loop ]
  %i.next = add nuw nsw i64 %i, 32, !dbg !11
  %more = icmp ult i64 %i.next, %l, !dbg !11
  br i1 %more, label %loop, label %done, !dbg !11
done:
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %i.next, !dbg !12
  store float 1.0, ptr addrspace(1) %p, align 4, !dbg !12
  ret void, !dbg !12
}

; A step from a loop with a divergent exit: s = 32 * (lane's own count),
; then for (k < n) g[k * s + x]: the step differs between lanes, so the
; store is measured at every iteration, not once at the uniform loop's
; preheader.
; CHECK-LABEL: define ptx_kernel void @step__pasta_div(
; CHECK: body:
; CHECK: call i32 @__pasta_div_access{{(_lanes)?}}(ptr %{{.*}}, i32 4,
; CHECK: ret void
define ptx_kernel void @step(ptr addrspace(1) %g, ptr addrspace(1) %lim, i64 %n) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %t = zext i32 %tid to i64, !dbg !13
  %lp = getelementptr inbounds i64, ptr addrspace(1) %lim, i64 %t, !dbg !13
  %l = load i64, ptr addrspace(1) %lp, align 8, !dbg !13
  br label %find, !dbg !13
find:
  %s = phi i64 [ 32, %entry ], [ %s.next, %find ]
  %s.next = add nuw nsw i64 %s, 32, !dbg !13
  %again = icmp ult i64 %s.next, %l, !dbg !13
  br i1 %again, label %find, label %ready, !dbg !13
ready:
  %go = icmp sgt i64 %n, 0, !dbg !14
  br i1 %go, label %body, label %out, !dbg !14
body:
  %k = phi i64 [ 0, %ready ], [ %k.next, %body ]
  %ks = mul nsw i64 %k, %s.next, !dbg !14
  %idx = add nsw i64 %ks, %t, !dbg !14
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %idx, !dbg !14
  store float 1.0, ptr addrspace(1) %p, align 4, !dbg !14
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !14
  %k.next = add nuw nsw i64 %k, 1, !dbg !14
  %more = icmp slt i64 %k.next, %n, !dbg !14
  br i1 %more, label %body, label %out, !dbg !14
out:
  ret void, !dbg !14
}

; An irreducible cycle (a <-> c, entered at either) inside a uniform loop:
; c dominates the latch but can run several times per iteration, so its
; executions are counted in a register, not taken as the loop's trips.
; CHECK-LABEL: define ptx_kernel void @tangle__pasta_div(
; CHECK: c:
; CHECK: load i64, ptr %pasta.div.n
; CHECK: add i64 %{{.*}}, 1
; CHECK: store i64 %{{.*}}, ptr %pasta.div.n
; CHECK: ret void
define ptx_kernel void @tangle(ptr addrspace(1) %g, i64 %n, i1 %u, i1 %w) !dbg !8 {
entry:
  %go = icmp sgt i64 %n, 0, !dbg !15
  br i1 %go, label %head, label %out, !dbg !15
head:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  br i1 %u, label %a, label %c, !dbg !15
a:
  store float 2.0, ptr addrspace(1) %g, align 4, !dbg !16
  br label %c, !dbg !16
c:
  store float 1.0, ptr addrspace(1) %g, align 4, !dbg !17
  br i1 %w, label %a, label %latch, !dbg !17
latch:
  %j.next = add nuw nsw i64 %j, 1, !dbg !15
  %more = icmp slt i64 %j.next, %n, !dbg !15
  br i1 %more, label %head, label %out, !dbg !15
out:
  ret void, !dbg !15
}

; A functor passed by value (a lambda's captures): its loads read the
; parameter space (ld.param), not memory the warp requests; only the store
; through the pointer it holds is measured.
%struct.Functor = type { ptr, float }
; CHECK-LABEL: define ptx_kernel void @functor__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: call i32 @__pasta_div_access(ptr %out, i32 4, i32 16, i32 1,
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: ret void
define ptx_kernel void @functor(ptr byval(%struct.Functor) align 8 %f) !dbg !9 {
entry:
  %out = load ptr, ptr %f, align 8, !dbg !18
  %vp = getelementptr inbounds i8, ptr %f, i64 8, !dbg !18
  %v = load float, ptr %vp, align 4, !dbg !18
  store float %v, ptr %out, align 4, !dbg !18
  ret void, !dbg !18
}

; Where the general helper tests its lanes for rows at run time (it is
; given the row width) and where not (0). g[max(x - 1, 31 - x)] (no
; lane stride the pass can tell; a clamp against a uniform bound is
; lane-shaped: nvptx-divergence-clamps.ll): tested. g[x * n] (a column
; walk): one row at a step known only at run time, tested. In a loop,
; under the loop's own divergent branch (if (x > k) g[max(x - 1, 31 -
; x)]): mostly partial warps, not tested.
; CHECK-LABEL: define ptx_kernel void @rows__pasta_div(
; CHECK: %[[RW:[^ ]+]] = call i32 @__pasta_div_row_width()
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1, i32 %[[RW]],
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1, i32 %[[RW]],
; CHECK: then:
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1, i32 0,
; CHECK: ret void
define ptx_kernel void @rows(ptr addrspace(1) %g, i64 %n) !dbg !19 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !20
  %t = zext i32 %tid to i64, !dbg !20
  %left = add nsw i64 %t, -1, !dbg !20
  %mirror = sub nsw i64 31, %t, !dbg !20
  %clamp = call i64 @llvm.smax.i64(i64 %left, i64 %mirror), !dbg !20
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %clamp, !dbg !20
  store float 1.0, ptr addrspace(1) %p, align 4, !dbg !20
  %col = mul nsw i64 %t, %n, !dbg !21
  %q = getelementptr inbounds float, ptr addrspace(1) %g, i64 %col, !dbg !21
  store float 2.0, ptr addrspace(1) %q, align 4, !dbg !21
  %go = icmp sgt i64 %n, 0, !dbg !22
  br i1 %go, label %loop, label %out, !dbg !22
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %latch ]
  %in = icmp ugt i64 %t, %k, !dbg !22
  br i1 %in, label %then, label %latch, !dbg !22
then:
  store float 3.0, ptr addrspace(1) %p, align 4, !dbg !22
  br label %latch, !dbg !22
latch:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !22
  %k.next = add nuw nsw i64 %k, 1, !dbg !22
  %more = icmp slt i64 %k.next, %n, !dbg !22
  br i1 %more, label %loop, label %out, !dbg !22
out:
  ret void, !dbg !22
}
declare i64 @llvm.smax.i64(i64, i64)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "shapes.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "masked", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "after", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "step", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "tangle", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 11, scope: !6)
!12 = !DILocation(line: 12, scope: !6)
!13 = !DILocation(line: 21, scope: !7)
!14 = !DILocation(line: 22, scope: !7)
!15 = !DILocation(line: 31, scope: !8)
!16 = !DILocation(line: 32, scope: !8)
!17 = !DILocation(line: 33, scope: !8)
!9 = distinct !DISubprogram(name: "functor", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!18 = !DILocation(line: 41, scope: !9)
!19 = distinct !DISubprogram(name: "rows", scope: !1, file: !1, line: 50, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 51, scope: !19)
!21 = !DILocation(line: 52, scope: !19)
!22 = !DILocation(line: 53, scope: !19)

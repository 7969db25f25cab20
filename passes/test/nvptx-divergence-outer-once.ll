; An access that repeats in a uniform loop is measured once per entry of
; that loop, in its preheader (nvptx-divergence-loops.ll). When the loop is
; itself in a uniform loop in which the access's first-iteration addresses
; do not change (kmeans: `features[f * n + p]` in the feature loop, in the
; cluster loop), every entry measures the same addresses with the same
; lanes (no branch between is divergent): it is measured once, before the
; outermost such loop. Every entry adds the same figures times the same
; trips, so they are added once, at the cluster loop's exit, times the
; entries' trips counted at the feature loop's preheader (one figure at
; every entry of the feature loop before: -pasta-div-folds-for-all-trips=0,
; EACH). The run-time tests go with it: the step's
; alignment and each lane's no-wrap test of the int index (a vote).
; A step whose place in a sector is not known (4n bytes) has its trips
; summed there too, by __pasta_div_lanes_trips given the inner loop's trips
; and step (kmeans' 17,695 objects: the step test fails for 7 of 8 n, and
; the loop measured every trip), what it adds beyond the first trip's
; figures added per entry (times the entries, at the exit); the same out of line in a copy
; that calls the access helpers so (OOL), and not with
; -pasta-div-lanes-trips-hoisted=0 (NOFOLD).
; Left per entry: a start that changes in the outer loop
; (`g[c * 64 + f * 8 + tid]`),
; and with -pasta-div-outer-once=0.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-out-of-line-above=0 -S %s | FileCheck %s --check-prefix=OOL
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-lanes-trips-hoisted=0 -S %s | FileCheck %s --check-prefix=NOFOLD
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-folds-for-all-trips=0 -S %s | FileCheck %s --check-prefix=EACH
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-outer-once=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @clusters(ptr addrspace(1) %feat, ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n, i32 %nc, i32 %nf) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %blk = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %base = mul i32 %blk, %nt, !dbg !10
  %p = add nsw i32 %base, %tid, !dbg !10
  %goc = icmp sgt i32 %nc, 0, !dbg !10
  br i1 %goc, label %outer, label %done, !dbg !10

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %gof = icmp sgt i32 %nf, 0, !dbg !11
  br i1 %gof, label %inner, label %outer.latch, !dbg !11

inner:
  %f = phi i32 [ 0, %outer ], [ %f.next, %inner ]
  %s = phi float [ %acc, %outer ], [ %s.next, %inner ]
  %fn = mul nsw i32 %f, %n, !dbg !12
  %idx = add nsw i32 %fn, %p, !dbg !12
  %w = sext i32 %idx to i64, !dbg !12
  %ptr = getelementptr inbounds float, ptr addrspace(1) %feat, i64 %w, !dbg !12
  %v = load float, ptr addrspace(1) %ptr, align 4, !dbg !12
  %c64 = shl nsw i32 %c, 6, !dbg !13
  %f8 = shl nsw i32 %f, 3, !dbg !13
  %gi = add nsw i32 %c64, %f8, !dbg !13
  %gt = add nsw i32 %gi, %tid, !dbg !13
  %gw = sext i32 %gt to i64, !dbg !13
  %gp = getelementptr inbounds float, ptr addrspace(1) %g, i64 %gw, !dbg !13
  %u = load float, ptr addrspace(1) %gp, align 4, !dbg !13
  %vu = fadd float %v, %u, !dbg !13
  %s.next = fadd float %s, %vu, !dbg !12
  %f.next = add nuw nsw i32 %f, 1, !dbg !11
  %fmore = icmp slt i32 %f.next, %nf, !dbg !11
  br i1 %fmore, label %inner, label %outer.latch, !dbg !11

outer.latch:
  %sum = phi float [ %acc, %outer ], [ %s.next, %inner ]
  %c.next = add nuw nsw i32 %c, 1, !dbg !10
  %cmore = icmp slt i32 %c.next, %nc, !dbg !10
  br i1 %cmore, label %outer, label %done, !dbg !10

done:
  %r = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %pw = sext i32 %p to i64, !dbg !14
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %pw, !dbg !14
  store float %r, ptr addrspace(1) %op, align 4, !dbg !14
  ret void, !dbg !14
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "outer.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "clusters", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 2, scope: !5)
!11 = !DILocation(line: 3, scope: !5)
!12 = !DILocation(line: 4, scope: !5)
!13 = !DILocation(line: 5, scope: !5)
!14 = !DILocation(line: 6, scope: !5)

; feat's test and measurement before the cluster loop; g's in the feature
; loop's preheader (its start moves with c); both added there per entry.
; CHECK-LABEL: define ptx_kernel void @clusters__pasta_div(
; CHECK: outer.preheader:
; CHECK: %[[NF:.*]] = add i32 %nf, -1
; CHECK: %[[NF64:.*]] = zext i32 %[[NF]] to i64
; CHECK: %[[TRIPS:.*]] = add nuw nsw i64 %[[NF64]], 1
; CHECK: %[[STEP:.*]] = shl nsw i64 %{{.*}}, 2
; CHECK: %pasta.div.step.ok = icmp eq i64
; CHECK: call i32 @__pasta_div_lanes_trips(ptr %{{.*}}, i64 %[[STEP]], i64 %[[TRIPS]], i32 4, i32 4, i32 1, i32 1, i32 32, ptr %[[B:pasta.div.trips.beyond[0-9]*]],
; CHECK: %pasta.div.trips.ok = or i1 %pasta.div.step.ok,
; CHECK: call i32 @__pasta_div_all_lanes(
; CHECK: %[[OK:.*]] = and i1 %pasta.div.trips.ok, %pasta.div.nowrap.all
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, ptr %[[FEAT:pasta.div.once[0-9]*]],
; CHECK: store i64 0, ptr %pasta.div.entry.trips
; CHECK: store i64 0, ptr %pasta.div.entries
; CHECK: outer:
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; CHECK: inner.preheader:
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; The feature loop's entries and their trips counted here; feat's figures
; are not added here but once, at the cluster loop's exit.
; CHECK: %[[E:.*]] = load i64, ptr %pasta.div.entry.trips
; CHECK-NEXT: %[[E2:.*]] = add i64 %[[E]], %[[TRIPS]]
; CHECK-NEXT: store i64 %[[E2]], ptr %pasta.div.entry.trips
; CHECK-NEXT: %[[N:.*]] = load i64, ptr %pasta.div.entries
; CHECK-NEXT: %[[N2:.*]] = add i64 %[[N]], 1
; CHECK-NEXT: store i64 %[[N2]], ptr %pasta.div.entries
; g's start moves with c: measured and added here, at every entry.
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, ptr %[[G:pasta.div.once[0-9]*]],
; CHECK: %pasta.div.small = icmp ule i64
; CHECK-NOT: load i32, ptr %[[FEAT]],
; CHECK: load i32, ptr %[[G]],
; CHECK-NOT: load i32, ptr %[[FEAT]],
; CHECK: inner:
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK: done.loopexit:
; CHECK: load i64, ptr %pasta.div.entry.trips
; CHECK: %[[T:.*]] = load i64, ptr %pasta.div.entry.trips
; CHECK-NEXT: load i32, ptr %[[FEAT]],
; CHECK-NEXT: %[[F64:.*]] = sext i32 %{{.*}} to i64
; CHECK-NEXT: %[[S:.*]] = select i1 %[[OK]], i64 %[[F64]], i64 0
; CHECK-NEXT: mul i64 %[[S]], %[[T]]
; CHECK: %[[EN:.*]] = load i64, ptr %pasta.div.entries
; CHECK-NEXT: load i32, ptr %[[B]],
; CHECK-NEXT: %[[B64:.*]] = sext i32 %{{.*}} to i64
; CHECK-NEXT: %[[BS:.*]] = select i1 %[[OK]], i64 %[[B64]], i64 0
; CHECK-NEXT: mul i64 %[[BS]], %[[EN]]
; CHECK: done:

; With -pasta-div-folds-for-all-trips=0 (EACH) feat's figures are added at
; every entry of the feature loop, in its preheader.
; EACH-LABEL: define ptx_kernel void @clusters__pasta_div(
; EACH: call i32 @__pasta_div_access_row32(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, ptr %[[FEAT:pasta.div.once[0-9]*]],
; EACH-NOT: pasta.div.entry.trips
; EACH: inner.preheader:
; EACH: load i32, ptr %[[FEAT]],
; EACH: inner:

; OOL-LABEL: define ptx_kernel void @clusters__pasta_div(
; OOL: outer.preheader:
; OOL: call i32 @__pasta_div_lanes_trips_out(ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %{{.*}}, ptr %pasta.div.trips.out)
; OOL: %pasta.div.trips.ok = or i1 %pasta.div.step.ok,
; OOL: call i32 @__pasta_div_access_lanes_out(
; OOL: outer:

; NOFOLD-LABEL: define ptx_kernel void @clusters__pasta_div(
; NOFOLD-NOT: __pasta_div_lanes_trips
; NOFOLD: and i1 %pasta.div.step.ok, %pasta.div.nowrap.all
; NOFOLD-NOT: __pasta_div_lanes_trips
; NOFOLD: ret void

; OFF-LABEL: define ptx_kernel void @clusters__pasta_div(
; OFF: outer.preheader:
; OFF-NOT: call i32 @__pasta_div_access_lanes(
; OFF: inner.preheader:
; OFF: call i32 @__pasta_div_all_lanes(
; OFF: call i32 @__pasta_div_access_lanes(
; OFF: call i32 @__pasta_div_access_lanes(
; OFF: inner:

; A block reduction's lane and warp tests in a divergence copy
; (DivergencePlan.cpp, splitBody; DivergenceRows32.cpp,
; dropRows32UniformBranches). The kernel is test_kernels/reduction.cu's
; shape:
;   if (base + warp * 32 >= n) return;   // line 3
;   v = i < n ? in[i] : 0;               // lines 4-5
;   if (lane == 0) sums[warp] = v;       // lines 6-7
;   __syncthreads();
;   if (warp != 0) return;               // line 8
;   if (lane < n - base) w = sums[lane]; // lines 9-10
;   if (lane == 0) out[blockIdx.x] = w;  // lines 11-12
;  - `lane == 0` (lane = tid.x & 31), a derived body's branch on a lane
;    test that lanes 1..31 fail: a full warp of one 32-lane row splits
;    there, the usual case, so the branch counts the executions in which no
;    lane and every lane takes the body (__pasta_div_branch_split_add, in
;    both bodies) and read-back derives its divergent ones as its
;    executions less those two; `lane < n - base` (a bound known only at
;    run time) keeps __pasta_div_branch_none_add with its divergent count;
;  - `warp != 0` (tid.x >> 5) is the same in every lane of a warp of one
;    32-lane row: the body for rows of 32 does not measure it (no
;    __pasta_div_branch_add there), the general function does; line 3's
;    none_add keeps its no-lane count there without its divergent count
;    (i32 0 for with_divergent), moved onto the edge where no lane goes
;    on, so that a warp that goes on runs no measuring code.
; -pasta-div-split-bodies=0 and -pasta-div-rows32-uniform-branches=0
; restore both measurements.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-print-sites -S %s -o %t.ll 2>%t.sites
; RUN: cat %t.ll %t.sites | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-split-bodies=0 -pasta-div-rows32-uniform-branches=0 -pasta-print-sites -S %s -o %t.off.ll 2>%t.off
; RUN: cat %t.off.ll %t.off | FileCheck %s --check-prefix=OFF
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sums = external addrspace(3) global [0 x float], align 4

define ptx_kernel void @red(ptr readonly %in, ptr writeonly %out, i32 %n) !dbg !5 {
entry:
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bdim = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %base = mul i32 %bid, %bdim, !dbg !10
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %lane = and i32 %tid, 31, !dbg !10
  %warp = lshr i32 %tid, 5, !dbg !10
  %wbase = and i32 %tid, 992, !dbg !10
  %first = add nsw i32 %base, %wbase, !dbg !10
  %live = icmp slt i32 %first, %n, !dbg !10
  br i1 %live, label %go, label %exit, !dbg !10
go:
  %i = add i32 %base, %tid, !dbg !11
  %inb = icmp slt i32 %i, %n, !dbg !11
  br i1 %inb, label %load, label %loaded, !dbg !11
load:
  %i64 = sext i32 %i to i64, !dbg !12
  %p = getelementptr inbounds float, ptr %in, i64 %i64, !dbg !12
  %x = load float, ptr %p, align 4, !dbg !12
  br label %loaded, !dbg !12
loaded:
  %v = phi float [ %x, %load ], [ 0.000000e+00, %go ], !dbg !12
  %lead = icmp eq i32 %lane, 0, !dbg !13
  br i1 %lead, label %keep, label %kept, !dbg !13
keep:
  %w64 = zext nneg i32 %warp to i64, !dbg !14
  %s = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @sums to ptr), i64 %w64, !dbg !14
  store float %v, ptr %s, align 4, !dbg !14
  br label %kept, !dbg !14
kept:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !15
  %w0 = icmp eq i32 %warp, 0, !dbg !15
  br i1 %w0, label %second, label %exit, !dbg !15
second:
  %left = sub nsw i32 %n, %base, !dbg !16
  %has = icmp slt i32 %lane, %left, !dbg !16
  br i1 %has, label %read, label %sum, !dbg !16
read:
  %l64 = zext nneg i32 %lane to i64, !dbg !17
  %q = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @sums to ptr), i64 %l64, !dbg !17
  %y = load float, ptr %q, align 4, !dbg !17
  br label %sum, !dbg !17
sum:
  %w = phi float [ %y, %read ], [ 0.000000e+00, %second ], !dbg !17
  br i1 %lead, label %store, label %exit, !dbg !18
store:
  %b64 = zext nneg i32 %bid to i64, !dbg !19
  %o = getelementptr inbounds nuw float, ptr %out, i64 %b64, !dbg !19
  store float %w, ptr %o, align 4, !dbg !19
  br label %exit, !dbg !19
exit:
  ret void, !dbg !19
}

; The body for rows of 32 (the copy itself). Line 3: no measuring code
; before the branch; its no-lane count and others, without its divergent
; count (with_divergent 0), on the edge where no lane goes on (taken 0).
; CHECK-LABEL: define ptx_kernel void @red__pasta_div(
; CHECK: pasta.div.body32:
; CHECK-NOT: call void @__pasta_div_branch
; CHECK: br i1 %live, label %go, label %[[NONE3:[^,]*]],
; CHECK: [[NONE3]]:
; CHECK-NEXT: call i32 @__pasta_div_branch_none_add(i32 0, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 0, ptr addrspace(1) %{{.*}}, i32 1)
; `i < n`: as before.
; CHECK: call i32 @__pasta_div_branch_none_add(i32 %{{.*}}, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 1, ptr addrspace(1) %{{.*}}, i32 0)
; CHECK-NEXT: br i1 %inb
; Line 6's `lane == 0`: the no-lane and every-lane counts; a full warp
; splits there (full_splits 1: no vote in such a warp).
; CHECK: loaded:
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 [[NONE6:[0-9]+]]
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 [[ALL6:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_branch_split_add(i32 %{{.*}}, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 1)
; CHECK-NEXT: br i1 %lead, label %keep
; Line 8's `warp != 0`: not measured in this body.
; CHECK: kept:
; CHECK-NOT: call void @__pasta_div_branch
; CHECK: br i1 %w0, label %second
; Line 9: a bound known at run time only, measured as before.
; CHECK: call i32 @__pasta_div_branch_none_add(i32 %{{.*}}, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 1, ptr addrspace(1) %{{.*}}, i32 0)
; CHECK-NEXT: br i1 %has
; Line 11: `lane == 0` again.
; CHECK: sum:
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 [[NONE11:[0-9]+]]
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 [[ALL11:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_branch_split_add({{.*}}, i32 1)
; CHECK-NEXT: br i1 %lead, label %store
; CHECK-NOT: call void @__pasta_div_branch_add(
; CHECK: ret void
; The general function (other row widths): line 3 with its divergent
; count, line 8 measured, the split branches with their vote (full_splits
; 0: a full warp of 16-wide rows may take `lane < 16` whole).
; CHECK-LABEL: define internal void @red__pasta_div_general(
; CHECK: call i32 @__pasta_div_branch_none_add(i32 %{{.*}}, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 1, ptr addrspace(1) %{{.*}}, i32 1)
; CHECK-NEXT: br i1 %live, label %go
; CHECK: call void @__pasta_div_branch_split_add({{.*}}, i32 0)
; CHECK-NEXT: br i1 %lead, label %keep
; CHECK: call void @__pasta_div_branch_add(
; CHECK-NEXT: br i1 %w0, label %second
; CHECK: call void @__pasta_div_branch_split_add({{.*}}, i32 0)
; CHECK-NEXT: br i1 %lead, label %store
; Read-back: each split branch's divergent executions (its line's
; divergent figure, the row's counter + 9) are its block's warps less the
; two counts.
; CHECK: pasta: derived [[#DIV6:]] = +1*c{{[0-9]+}} -1*c[[NONE6]] -1*c[[ALL6]]
; CHECK-NEXT: pasta: derived [[#DIV11:]] = +1*c{{[0-9]+}} -1*c[[NONE11]] -1*c[[ALL11]]
; CHECK: pasta: div red.cu:6 func=red counters=[[#DIV6-9]]..
; CHECK: pasta: div red.cu:11 func=red counters=[[#DIV11-9]]..

; Off: the divergent counts measured by the branches, in both bodies.
; OFF-LABEL: define ptx_kernel void @red__pasta_div(
; OFF-NOT: __pasta_div_branch_split_add
; OFF: call i32 @__pasta_div_branch_none_add(i32 %{{.*}}, ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 1, ptr addrspace(1) %{{.*}}, i32 1)
; OFF-NEXT: br i1 %live, label %go
; OFF: call i32 @__pasta_div_branch_none_add(
; OFF-NEXT: br i1 %inb
; OFF: call i32 @__pasta_div_branch_none_add(
; OFF-NEXT: br i1 %lead, label %keep
; OFF: call void @__pasta_div_branch_add(
; OFF-NEXT: br i1 %w0, label %second
; OFF: call i32 @__pasta_div_branch_none_add(
; OFF-NEXT: br i1 %has
; OFF: call i32 @__pasta_div_branch_none_add(
; OFF-NEXT: br i1 %lead, label %store
; OFF-NOT: __pasta_div_branch_split_add

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "red.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "red", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!16 = !DILocation(line: 9, scope: !5)
!17 = !DILocation(line: 10, scope: !5)
!18 = !DILocation(line: 11, scope: !5)
!19 = !DILocation(line: 12, scope: !5)

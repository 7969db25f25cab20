; Branches whose condition is the same in every lane of a warp are never
; measured (their divergent executions are 0), nor are loops whose every
; branch is such taken as divergent (UniformLoops.h, provenUniform): beyond
; LLVM's uniformity analysis, which takes NVPTX's block index and size
; (calls) and loads through generic pointers as divergent, a condition on
; blockIdx, a load of a uniform address through a kernel's pointer
; parameter or from a __constant__ variable, or arithmetic on such, is
; uniform. A thread's own element, and memory reached through a loaded
; pointer (which may be a thread's stack), are not.
; (-pasta-div-derive-bodies=0: the blocks are measured, as this test was
; written for; nvptx-divergence-bodies.ll derives if-then bodies.)
; (-pasta-div-cold-general-above=64: the lane-shaped helper as written
; for, not its _cold form: nvptx-divergence-cold-general.ll.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-derive-bodies=0 -pasta-div-cold-general-above=64 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-derive-bodies=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@c = addrspace(4) externally_initialized global i32 0, align 4

define ptx_kernel void @uni(ptr %a, ptr %b, i32 %n, i32 %m) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %t64 = zext i32 %tid to i64, !dbg !10
  %pa = getelementptr inbounds i32, ptr %a, i64 %t64, !dbg !10
  %byblock = icmp ult i32 %bid, %m, !dbg !10
  br i1 %byblock, label %b1, label %j1, !dbg !10
b1:
  store i32 1, ptr %pa, align 4, !dbg !11
  %old = atomicrmw add ptr %b, i32 1 monotonic, align 4, !dbg !11
  br label %j1, !dbg !11
j1:
  %first = load i32, ptr %b, align 4, !dbg !11
  %byload = icmp sgt i32 %first, 3, !dbg !11
  br i1 %byload, label %b2, label %j2, !dbg !11
b2:
  store i32 2, ptr %pa, align 4, !dbg !11
  br label %j2, !dbg !11
j2:
  %cv = load i32, ptr addrspacecast (ptr addrspace(4) @c to ptr), align 4, !dbg !11
  %byconst = icmp eq i32 %cv, 0, !dbg !11
  br i1 %byconst, label %j3, label %b3, !dbg !11
b3:
  store i32 3, ptr %pa, align 4, !dbg !11
  br label %j3, !dbg !11
j3:
  %off = mul i32 %bid, %bdim, !dbg !11
  %o64 = zext i32 %off to i64, !dbg !11
  %pbb = getelementptr inbounds i32, ptr %b, i64 %o64, !dbg !11
  %vb = load i32, ptr %pbb, align 4, !dbg !11
  %byblockload = icmp eq i32 %vb, 0, !dbg !11
  br i1 %byblockload, label %j4, label %b4, !dbg !11
b4:
  store i32 4, ptr %pa, align 4, !dbg !11
  br label %j4, !dbg !11
j4:
  %pbt = getelementptr inbounds i32, ptr %b, i64 %t64, !dbg !12
  %vt = load i32, ptr %pbt, align 4, !dbg !12
  %bythread = icmp eq i32 %vt, 0, !dbg !12
  br i1 %bythread, label %j5, label %b5, !dbg !12
b5:
  store i32 5, ptr %pa, align 4, !dbg !12
  br label %j5, !dbg !12
j5:
  %pp = load ptr, ptr %b, align 8, !dbg !12
  %vp = load i32, ptr %pp, align 4, !dbg !12
  %bypointer = icmp eq i32 %vp, 0, !dbg !12
  br i1 %bypointer, label %j6, label %b6, !dbg !12
b6:
  store i32 6, ptr %pa, align 4, !dbg !12
  br label %j6, !dbg !12
j6:
  %bytid = icmp ult i32 %tid, %n, !dbg !12
  br i1 %bytid, label %b7, label %j7, !dbg !12
b7:
  store i32 7, ptr %pa, align 4, !dbg !12
  br label %j7, !dbg !12
j7:
  %go = icmp sgt i32 %first, 0, !dbg !13
  br i1 %go, label %loop, label %done, !dbg !13
loop:
  %i = phi i32 [ 0, %j7 ], [ %i.next, %loop ]
  store i32 %i, ptr %pa, align 4, !dbg !13
  %i.next = add nsw i32 %i, 1, !dbg !13
  %again = icmp slt i32 %i.next, %first, !dbg !13
  br i1 %again, label %loop, label %done, !dbg !13
done:
  ret void, !dbg !13
}

; A grid-stride loop over blocks: its induction starts at blockIdx.x and
; steps by gridDim.x (calls, so the analysis takes the phi as divergent),
; so its exit is uniform by induction on the iterations (proveByInduction).
; Another whose induction starts at the thread index stays measured.
define ptx_kernel void @strided(ptr %a, i32 %n) !dbg !20 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !21
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !21
  %grid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !21
  %go = icmp ult i32 %bid, %n, !dbg !21
  br i1 %go, label %blocks, label %mid, !dbg !21
blocks:
  %b = phi i32 [ %bid, %entry ], [ %b.next, %blocks ]
  %b64 = zext i32 %b to i64, !dbg !22
  %pb = getelementptr inbounds i32, ptr %a, i64 %b64, !dbg !22
  store i32 1, ptr %pb, align 4, !dbg !22
  %b.next = add nuw i32 %b, %grid, !dbg !22
  %moreblocks = icmp ult i32 %b.next, %n, !dbg !22
  br i1 %moreblocks, label %blocks, label %mid, !dbg !22
mid:
  %go2 = icmp ult i32 %tid, %n, !dbg !23
  br i1 %go2, label %threads, label %done, !dbg !23
threads:
  %t = phi i32 [ %tid, %mid ], [ %t.next, %threads ]
  %t64 = zext i32 %t to i64, !dbg !23
  %pt = getelementptr inbounds i32, ptr %a, i64 %t64, !dbg !23
  store i32 2, ptr %pt, align 4, !dbg !23
  %t.next = add nuw i32 %t, %grid, !dbg !23
  %morethreads = icmp ult i32 %t.next, %n, !dbg !23
  br i1 %morethreads, label %threads, label %done, !dbg !23
done:
  ret void, !dbg !23
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

; The loads of one aligned address in every lane (b[0], b[blockIdx.x *
; blockDim.x], the pointer in b[0]) are not measured either: however many
; lanes run them, one request, the size in distinct bytes, one sector, no
; bank conflict, all derived at read-back; nor is the atomic add to b[0]
; (one request, its size in distinct bytes), nor @strided's store to a[b]. The thread's own element is measured, and so is the load through
; the loaded pointer (its space unknown: global or shared).
; The copy measures the branches on the thread's own element, on memory
; reached through a loaded pointer and on the thread index, in this
; order, outside loops (each adds to its counter itself), and none of the
; others: the loop's is uniform too, so no loop helper is called either.
; CHECK-LABEL: define ptx_kernel void @uni__pasta_div(
; CHECK-NOT: zext i1 %byblock to i32
; CHECK-NOT: zext i1 %byload to i32
; CHECK-NOT: zext i1 %byconst to i32
; CHECK-NOT: zext i1 %byblockload to i32
; CHECK-NOT: @__pasta_div_access{{.*}}(ptr %b,
; CHECK-NOT: @__pasta_div_access{{.*}}(ptr %pbb,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %pbt,
; CHECK: %[[T1:[0-9]+]] = zext i1 %bythread to i32
; CHECK: call void @__pasta_div_branch_add(i32 %[[T1]],
; CHECK-NOT: @__pasta_div_access{{.*}}(ptr %b,
; CHECK: call i32 @__pasta_div_access{{.*}}(ptr %pp,
; CHECK: %[[T2:[0-9]+]] = zext i1 %bypointer to i32
; CHECK: call void @__pasta_div_branch_add(i32 %[[T2]],
; CHECK: %[[T3:[0-9]+]] = zext i1 %bytid to i32
; CHECK: call void @__pasta_div_branch_add(i32 %[[T3]],
; CHECK-NOT: zext i1 %go to i32
; CHECK-NOT: zext i1 %again to i32
; CHECK-NOT: call void @__pasta_div_branch(
; CHECK: ret void

; @strided: its first loop is not measured, its second is.
; CHECK-LABEL: define ptx_kernel void @strided__pasta_div(
; CHECK-NOT: zext i1 %go to i32
; CHECK-NOT: @__pasta_div_access{{.*}}(ptr %pb,
; CHECK-NOT: zext i1 %moreblocks to i32
; CHECK: %[[G2:[0-9]+]] = zext i1 %go2 to i32
; CHECK: call void @__pasta_div_branch_add(i32 %[[G2]],
; CHECK: %[[MT:[0-9]+]] = zext i1 %morethreads to i32
; CHECK: call void @__pasta_div_branch_body(i32 %[[MT]],
; CHECK: ret void

; Thirteen branches: @uni's nine, six uniform, and @strided's four, two
; uniform; all eight beyond the analysis, as are the two loops found
; uniform (@uni's and @strided's first). Of the access groups, those of
; b[0] (i32 and ptr loads, the atomic add), b[blockIdx.x * blockDim.x]
; and a[b] are not measured.
; STATS: pasta: div-stats: nvptx64-nvidia-cuda {{.*}}: branches 13 (uniform, not measured: 8, 8 beyond LLVM's uniformity analysis); uniform loops 2 (2 beyond the analysis); access groups {{[0-9]+}} (lane-shaped: {{[0-9]+}}, not measured: one aligned address in every lane: 5; measured only where rows of lanes are not 32 wide: 0, of them in rows stacked in y too: 0; global ones taken by arithmetic in full 32-lane rows: {{[0-9]+}})

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "uni", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!20 = distinct !DISubprogram(name: "strided", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 11, scope: !20)
!22 = !DILocation(line: 12, scope: !20)
!23 = !DILocation(line: 13, scope: !20)

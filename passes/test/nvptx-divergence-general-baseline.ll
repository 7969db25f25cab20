; In a device function's copy, an access of a known space that only the
; general helper measures outside loops (its address comes from loaded
; data: bfs's visit, level[v]) adds its figures less one lane's per warp
; execution: its size in distinct
; bytes and, for a global load or store, one sector and ceil(size / 32)
; ideal sectors. Read-back derives those from the block's warp executions
; (as a lane-shaped access's at stride 0), so the sums are the measured
; figures for any baseline, and a one-lane execution of an aligned access
; adds nothing: no atomic. Not in loops (the figures go to registers,
; where there is no atomic to save) nor in kernels' copies (their code
; outside loops runs once a warp). The subtraction is made
; in the lane the helper says added (its first active one), in the scratch
; registers before the test of that answer. An atomic (not sectored) has
; distinct bytes only. -pasta-div-general-baseline=0 adds the whole figures, no derived
; row.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-general-baseline=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-general-baseline=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=OFFROWS
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The gather in a kernel (its copy comes first): its whole figures, no
; subtraction.
; CHECK-LABEL: define ptx_kernel void @kgather__pasta_div(
; CHECK: %[[K:[0-9]+]] = call i32 @__pasta_div_access(ptr %{{[0-9a-z.]+}}, i32 4, i32 17, i32 1,
; CHECK-NEXT: %[[KA:[0-9]+]] = icmp ne i32 %[[K]], 0
; CHECK-NEXT: br i1 %[[KA]],
; CHECK: ret void

; A gather: 4-byte global load at a loaded index (distinct 4, sectors 1,
; ideal 1 per execution), then an atomic add at another loaded index
; (distinct 4).
; CHECK-LABEL: define internal void @gather__pasta_div(
; CHECK: %[[A:[0-9]+]] = call i32 @__pasta_div_access(ptr %{{[0-9a-z.]+}}, i32 4, i32 17, i32 1,
; CHECK-SAME: ptr %[[DG:pasta.div.t[0-9]*]], ptr %pasta.div.none, ptr %[[SE:pasta.div.t[0-9]*]], ptr %[[ID:pasta.div.t[0-9]*]], ptr %pasta.div.none)
; CHECK-NEXT: %[[F:[0-9]+]] = icmp ne i32 %[[A]], 0
; CHECK-NEXT: %[[B1:[0-9]+]] = select i1 %[[F]], i32 4, i32 0
; CHECK-NEXT: %[[V1:[0-9]+]] = load i32, ptr %[[DG]]
; CHECK-NEXT: %[[S1:[0-9]+]] = sub i32 %[[V1]], %[[B1]]
; CHECK-NEXT: store i32 %[[S1]], ptr %[[DG]]
; CHECK-NEXT: %[[B2:[0-9]+]] = select i1 %[[F]], i32 1, i32 0
; CHECK-NEXT: %[[V2:[0-9]+]] = load i32, ptr %[[SE]]
; CHECK-NEXT: %[[S2:[0-9]+]] = sub i32 %[[V2]], %[[B2]]
; CHECK-NEXT: store i32 %[[S2]], ptr %[[SE]]
; CHECK-NEXT: %[[B3:[0-9]+]] = select i1 %[[F]], i32 1, i32 0
; CHECK-NEXT: %[[V3:[0-9]+]] = load i32, ptr %[[ID]]
; CHECK-NEXT: %[[S3:[0-9]+]] = sub i32 %[[V3]], %[[B3]]
; CHECK-NEXT: store i32 %[[S3]], ptr %[[ID]]
; CHECK-NEXT: %[[ANY:[0-9]+]] = icmp ne i32 %[[A]], 0
; CHECK-NEXT: br i1 %[[ANY]],
; CHECK: call void @__pasta_div_add(
; CHECK: %[[AT:[0-9]+]] = call i32 @__pasta_div_access(ptr %{{[0-9a-z.]+}}, i32 4, i32 17, i32 0,
; CHECK-SAME: ptr %[[DA:pasta.div.t[0-9]*]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none)
; CHECK-NEXT: %[[FA:[0-9]+]] = icmp ne i32 %[[AT]], 0
; CHECK-NEXT: %[[BA:[0-9]+]] = select i1 %[[FA]], i32 4, i32 0
; CHECK-NEXT: %[[VA:[0-9]+]] = load i32, ptr %[[DA]]
; CHECK-NEXT: %[[SA:[0-9]+]] = sub i32 %[[VA]], %[[BA]]
; CHECK-NEXT: store i32 %[[SA]], ptr %[[DA]]
; CHECK-NEXT: %{{[0-9]+}} = icmp ne i32 %[[AT]], 0
; CHECK: atomicrmw add ptr addrspace(1)
; CHECK: ret void
; OFF-LABEL: define internal void @gather__pasta_div(
; OFF: %[[A:[0-9]+]] = call i32 @__pasta_div_access(
; OFF-NEXT: %[[ANY:[0-9]+]] = icmp ne i32 %[[A]], 0
; OFF-NEXT: br i1 %[[ANY]],
; OFF: ret void
; The module's rows (the layout, by -pasta-print-sites): @gather's line 4
; (src[i]) at counters 47-58, line 5 (the atomic) 59-70, its block's warp
; executions counter 83; @walk's line 22 (the loop's gather) 97-108;
; @kgather's line 31 (its three accesses) 9-20, its block's warps 33. A
; row's requests, distinct global bytes, sectors and ideal sectors are its
; counters +0, +3, +5 and +6. The gather's requests come from the block's
; warps (+1 x c83); then its baseline rows: distinct bytes +4 x c83,
; sectors and ideal sectors +1 x c83 each, the atomic's distinct bytes
; +4 x c83; none for the kernel's gather (its sectors would be 14 =
; +1 x c33) nor the loop's (100, 102, 103).
; ROWS: pasta: derived 47 = +1*c83
; ROWS-NOT: pasta: derived {{14|15}} = +1*c33
; ROWS: pasta: derived 50 = +4*c83
; ROWS-NEXT: pasta: derived 52 = +1*c83
; ROWS-NEXT: pasta: derived 53 = +1*c83
; ROWS-NEXT: pasta: derived 62 = +4*c83
; ROWS-NOT: pasta: derived {{100|102|103}} =
; ROWS: pasta: module counters=
; OFFROWS: pasta: derived 47 = +1*c83
; OFFROWS-NOT: pasta: derived {{50|52|53|62}} =
; OFFROWS: pasta: module counters=
define internal void @gather(ptr addrspace(1) %idx, ptr addrspace(1) %src, ptr addrspace(1) %dst, ptr addrspace(1) %bins) noinline !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %ti = zext i32 %tid to i64, !dbg !10
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %ti, !dbg !10
  %i = load i32, ptr addrspace(1) %ip, align 4, !dbg !10
  %ie = sext i32 %i to i64, !dbg !11
  %sp = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %ie, !dbg !11
  %v = load i32, ptr addrspace(1) %sp, align 4, !dbg !11
  %bp = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %ie, !dbg !12
  %old = atomicrmw add ptr addrspace(1) %bp, i32 1 monotonic, align 4, !dbg !12
  %dp = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %ti, !dbg !13
  store i32 %v, ptr addrspace(1) %dp, align 4, !dbg !13
  ret void, !dbg !13
}

; In a loop whose trip count is the thread's (a divergent loop: bfs's edge
; loop, src[n + k] with n loaded per thread), the lone gather's figures go
; to its registers whole: no atomic to save there.
; CHECK-LABEL: define internal void @walk__pasta_div(
; CHECK: loop:
; CHECK: %[[L:[0-9]+]] = call i32 @__pasta_div_access(ptr %{{[0-9a-z.]+}}, i32 4, i32 17, i32 1,
; CHECK-SAME: ptr %[[LD:pasta.div[0-9]+]], ptr %pasta.div.none, ptr %[[LS:pasta.div[0-9]+]], ptr %[[LI:pasta.div[0-9]+]], ptr %pasta.div.none)
; CHECK-NOT: select i1 %{{[0-9]+}}, i32 4, i32 0
; CHECK: done:
; CHECK: exit:
; CHECK: ret void
define internal void @walk(ptr addrspace(1) %idx, ptr addrspace(1) %src, ptr addrspace(1) %dst) noinline !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %ti = zext i32 %tid to i64, !dbg !14
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %ti, !dbg !14
  %n = load i32, ptr addrspace(1) %ip, align 4, !dbg !14
  %any = icmp sgt i32 %n, 0, !dbg !14
  br i1 %any, label %loop, label %exit, !dbg !14

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ], !dbg !15
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ], !dbg !15
  %j = add nsw i32 %n, %k, !dbg !15
  %je = sext i32 %j to i64, !dbg !15
  %sp = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %je, !dbg !15
  %v = load i32, ptr addrspace(1) %sp, align 4, !dbg !15
  %s1 = add i32 %s, %v, !dbg !15
  %k1 = add nuw nsw i32 %k, 1, !dbg !15
  %more = icmp slt i32 %k1, %n, !dbg !15
  br i1 %more, label %loop, label %done, !dbg !15

done:
  %dp = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %ti, !dbg !16
  store i32 %s1, ptr addrspace(1) %dp, align 4, !dbg !16
  br label %exit, !dbg !16

exit:
  ret void, !dbg !16
}

; The kernel that calls both functions below.
define ptx_kernel void @kgather(ptr addrspace(1) %idx, ptr addrspace(1) %src, ptr addrspace(1) %dst) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !17
  %ti = zext i32 %tid to i64, !dbg !17
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %ti, !dbg !17
  %i = load i32, ptr addrspace(1) %ip, align 4, !dbg !17
  %ie = sext i32 %i to i64, !dbg !17
  %sp = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %ie, !dbg !17
  %v = load i32, ptr addrspace(1) %sp, align 4, !dbg !17
  %dp = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %ti, !dbg !17
  store i32 %v, ptr addrspace(1) %dp, align 4, !dbg !17
  call void @gather(ptr addrspace(1) %idx, ptr addrspace(1) %src, ptr addrspace(1) %dst, ptr addrspace(1) %dst), !dbg !18
  call void @walk(ptr addrspace(1) %idx, ptr addrspace(1) %src, ptr addrspace(1) %dst), !dbg !18
  ret void, !dbg !18
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "baseline.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "gather", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "walk", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "kgather", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 21, scope: !6)
!15 = !DILocation(line: 22, scope: !6)
!16 = !DILocation(line: 23, scope: !6)
!17 = !DILocation(line: 31, scope: !7)
!18 = !DILocation(line: 32, scope: !7)

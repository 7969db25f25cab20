; A loop that is not uniform (a branch inside it diverges) but whose only
; exit, at its latch, is on a warp-uniform condition keeps at its header the
; lanes that entered it: every iteration runs the header once with them
; (lanes parted inside meet again at the latch, as the planner trusts
; joins). So the header's warps and lanes are the preheader's times the
; loop's iterations (UniformLoops::countedHeader): one __pasta_div_block at
; the preheader and a fold of each figure times the trip count
; (pathfinder's row loop, nw_tile's diagonal loop), in place of an active
; mask, a first-lane test and a population count per iteration, and two
; loop registers. The fold adds to the counters the header's own call
; flushed its registers to (35 and 36, OFF). Not so: a loop whose exit is
; divergent (@divexit: its header from its latch's ballot instead,
; nvptx-divergence-loop-bodies.ll); measured at every visit: a loop holding
; a loop with a divergent exit (@nested: lanes leaving it apart may stay
; apart), a loop that calls a function (@calls).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-counted-headers=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @counted(ptr addrspace(1) %g, i32 %n) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %go = icmp sgt i32 %n, 0, !dbg !10
  br i1 %go, label %head, label %done, !dbg !10
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !11
  %t = icmp ult i32 %x, %k, !dbg !11
  br i1 %t, label %then, label %tail, !dbg !11
then:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !12
  br label %tail, !dbg !12
tail:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !13
  %k.next = add nuw nsw i32 %k, 1, !dbg !13
  %more = icmp slt i32 %k.next, %n, !dbg !13
  br i1 %more, label %head, label %done, !dbg !13
done:
  ret void, !dbg !13
}

define ptx_kernel void @divexit(ptr addrspace(1) %g, i32 %n) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !20
  %go = icmp sgt i32 %x, 0, !dbg !20
  br i1 %go, label %head, label %done, !dbg !20
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !21
  %t = icmp ult i32 %k, %n, !dbg !21
  br i1 %t, label %then, label %tail, !dbg !21
then:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !22
  br label %tail, !dbg !22
tail:
  %k.next = add nuw nsw i32 %k, 1, !dbg !23
  %more = icmp slt i32 %k.next, %x, !dbg !23
  br i1 %more, label %head, label %done, !dbg !23
done:
  ret void, !dbg !23
}

define ptx_kernel void @nested(ptr addrspace(1) %g, i32 %n) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !30
  %go = icmp sgt i32 %n, 0, !dbg !30
  br i1 %go, label %head, label %done, !dbg !30
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !31
  %y = icmp ult i32 0, %x, !dbg !31
  br i1 %y, label %inner, label %tail, !dbg !31
inner:
  %m = phi i32 [ 0, %head ], [ %m.next, %inner ], !dbg !32
  store i32 %m, ptr addrspace(1) %g, align 4, !dbg !32
  %m.next = add nuw nsw i32 %m, 1, !dbg !32
  %q = icmp ult i32 %m.next, %x, !dbg !32
  br i1 %q, label %inner, label %tail, !dbg !32
tail:
  %k.next = add nuw nsw i32 %k, 1, !dbg !33
  %more = icmp slt i32 %k.next, %n, !dbg !33
  br i1 %more, label %head, label %done, !dbg !33
done:
  ret void, !dbg !33
}

define ptx_kernel void @calls(ptr addrspace(1) %g, i32 %n) !dbg !8 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !40
  %go = icmp sgt i32 %n, 0, !dbg !40
  br i1 %go, label %head, label %done, !dbg !40
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !41
  %t = icmp ult i32 %x, %k, !dbg !41
  br i1 %t, label %then, label %tail, !dbg !41
then:
  call void @f(ptr addrspace(1) %g), !dbg !42
  br label %tail, !dbg !42
tail:
  %k.next = add nuw nsw i32 %k, 1, !dbg !43
  %more = icmp slt i32 %k.next, %n, !dbg !43
  br i1 %more, label %head, label %done, !dbg !43
done:
  ret void, !dbg !43
}

define void @f(ptr addrspace(1) %g) noinline !dbg !9 {
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !50
  %c = icmp eq i32 %x, 3, !dbg !50
  br i1 %c, label %s, label %e, !dbg !50
s:
  store i32 2, ptr addrspace(1) %g, align 4, !dbg !50
  br label %e, !dbg !50
e:
  ret void, !dbg !50
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; CHECK-LABEL: define ptx_kernel void @counted__pasta_div(
; CHECK: head.preheader:
; CHECK-NEXT: store i32 0, ptr %pasta.div.leader
; CHECK-NEXT: store i32 0, ptr %pasta.div.lanes
; CHECK-NEXT: call void @__pasta_div_block(i32 1, ptr %pasta.div.leader, ptr %pasta.div.lanes)
; CHECK-NEXT: %[[NM1:.*]] = add i32 %n, -1
; CHECK-NEXT: %[[NM1W:.*]] = zext i32 %[[NM1]] to i64
; CHECK-NEXT: %[[TRIPS:.*]] = add nuw nsw i64 %[[NM1W]], 1
; CHECK-NEXT: %[[L:.*]] = load i32, ptr %pasta.div.leader
; CHECK-NEXT: %[[LW:.*]] = sext i32 %[[L]] to i64
; CHECK-NEXT: %[[W:.*]] = mul i64 %[[LW]], %[[TRIPS]]
; CHECK-NEXT: %[[WC:.*]] = getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 35
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[WC]], i64 %[[W]])
; CHECK-NEXT: %[[N:.*]] = load i32, ptr %pasta.div.lanes
; CHECK-NEXT: %[[NW:.*]] = sext i32 %[[N]] to i64
; CHECK-NEXT: %[[T:.*]] = mul i64 %[[NW]], %[[TRIPS]]
; CHECK-NEXT: %[[TC:.*]] = getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 36
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[TC]], i64 %[[T]])
; CHECK-NEXT: br label %head
; CHECK: head:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: call void @__pasta_div_branch_body(
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: ret void

; @divexit's header: the lanes entering the loop at its preheader, then
; its latch branch's ballot of the lanes going round (no fold).
; CHECK-LABEL: define ptx_kernel void @divexit__pasta_div(
; CHECK-NOT: %pasta.div.leader
; CHECK: head.preheader:
; CHECK-NEXT: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: head:
; CHECK-NOT: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw,
; CHECK: tail:
; CHECK: call void @__pasta_div_branch_body(i32 %{{.*}}, ptr %pasta.div, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK-NEXT: br i1 %more, label %head, label %done
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @nested__pasta_div(
; CHECK-NOT: %pasta.div.leader
; CHECK: head:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: inner:
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @calls__pasta_div(
; CHECK-NOT: %pasta.div.leader
; CHECK: head:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @counted__pasta_div(
; OFF-NOT: %pasta.div.leader
; OFF: head:
; OFF: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; OFF: load i32, ptr %pasta.div.bw
; OFF: load i32, ptr %pasta.div.bt
; OFF: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 35
; OFF: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 36
; OFF: ret void

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "h.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "counted", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "divexit", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "nested", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "calls", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 50, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!20 = !DILocation(line: 21, scope: !6)
!21 = !DILocation(line: 22, scope: !6)
!22 = !DILocation(line: 23, scope: !6)
!23 = !DILocation(line: 24, scope: !6)
!30 = !DILocation(line: 31, scope: !7)
!31 = !DILocation(line: 32, scope: !7)
!32 = !DILocation(line: 33, scope: !7)
!33 = !DILocation(line: 34, scope: !7)
!40 = !DILocation(line: 41, scope: !8)
!41 = !DILocation(line: 42, scope: !8)
!42 = !DILocation(line: 43, scope: !8)
!43 = !DILocation(line: 44, scope: !8)
!50 = !DILocation(line: 51, scope: !9)

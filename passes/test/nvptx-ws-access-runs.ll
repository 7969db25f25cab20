; Compact working-set copies (over -pasta-ws-compact-above) mark a run of
; accesses by one __pasta_ws_mark_loop call in front of its first access
; (WorkingSetLoops.h, markAccessRuns): one block's loads (or stores) of one
; source line at constant distances a fixed step apart, at least
; -pasta-ws-run-min of them (default 8), every instruction between the
; first and the last passing control on: an unrolled loop's, such as CUB's
; BlockLoad of a thread's items. The call's operands: scale 1, the lowest
; offset from the first access's address, the step, the count, 64 bits.
; Here 8 loads 512 bytes apart (in block order 3, 0, 1, ...: from the first,
; -1536); 8 stores 128 bytes apart, a call that may not return among them:
; no run, their batches as before (4 and 4, the call ends a batch). With
; -pasta-ws-run-min=0 (OFF) every access is in a batch, as before: 4
; calls; an inline copy (within the budget) has no runs.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=2 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=2 -pasta-ws-compact-buffer=0 -pasta-ws-run-min=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=100 -S %s | FileCheck %s --check-prefix=INLINE
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @runs__pasta_ws(
; CHECK: %[[G:.*]] = addrspacecast ptr addrspace(1) %px3{{.*}} to ptr
; CHECK-NEXT: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %[[G]], i64 1, i64 -1536, i64 512, i64 8, i32 64, ptr addrspace(1) @{{.*}})
; CHECK-NEXT: %v3 = load i32
; CHECK-NOT: __pasta_ws_mark_compact
; CHECK: store i32 %v0
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr addrspace(1)
; CHECK-NEXT: call void @opaque()
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr addrspace(1)
; CHECK-NOT: __pasta_ws_mark_loop
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @runs__pasta_ws(
; OFF-NOT: __pasta_ws_mark_loop
; OFF-COUNT-4: call void @__pasta_ws_mark_compact(
; OFF-NOT: __pasta_ws_mark
; OFF: ret void

; INLINE-LABEL: define ptx_kernel void @runs__pasta_ws(
; INLINE-NOT: __pasta_ws_mark_loop
; INLINE: ret void

define ptx_kernel void @runs(ptr addrspace(1) %x, ptr addrspace(1) %y) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %t = zext i32 %tid to i64, !dbg !10
  %xt = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %t, !dbg !10
  %yt = getelementptr inbounds i32, ptr addrspace(1) %y, i64 %t, !dbg !11
  %px3 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 1536, !dbg !10
  %v3 = load i32, ptr addrspace(1) %px3, !dbg !10
  %px0 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 0, !dbg !10
  %v0 = load i32, ptr addrspace(1) %px0, !dbg !10
  %px1 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 512, !dbg !10
  %v1 = load i32, ptr addrspace(1) %px1, !dbg !10
  %px2 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 1024, !dbg !10
  %v2 = load i32, ptr addrspace(1) %px2, !dbg !10
  %px4 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 2048, !dbg !10
  %v4 = load i32, ptr addrspace(1) %px4, !dbg !10
  %px5 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 2560, !dbg !10
  %v5 = load i32, ptr addrspace(1) %px5, !dbg !10
  %px6 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 3072, !dbg !10
  %v6 = load i32, ptr addrspace(1) %px6, !dbg !10
  %px7 = getelementptr inbounds i8, ptr addrspace(1) %xt, i64 3584, !dbg !10
  %v7 = load i32, ptr addrspace(1) %px7, !dbg !10
  %py0 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 0, !dbg !11
  store i32 %v0, ptr addrspace(1) %py0, !dbg !11
  %py1 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 128, !dbg !11
  store i32 %v1, ptr addrspace(1) %py1, !dbg !11
  %py2 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 256, !dbg !11
  store i32 %v2, ptr addrspace(1) %py2, !dbg !11
  %py3 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 384, !dbg !11
  store i32 %v3, ptr addrspace(1) %py3, !dbg !11
  call void @opaque(), !dbg !12
  %py4 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 512, !dbg !11
  store i32 %v4, ptr addrspace(1) %py4, !dbg !11
  %py5 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 640, !dbg !11
  store i32 %v5, ptr addrspace(1) %py5, !dbg !11
  %py6 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 768, !dbg !11
  store i32 %v6, ptr addrspace(1) %py6, !dbg !11
  %py7 = getelementptr inbounds i8, ptr addrspace(1) %yt, i64 896, !dbg !11
  store i32 %v7, ptr addrspace(1) %py7, !dbg !11
  ret void, !dbg !12
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @opaque()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "runs.cu", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DISubroutineType(types: !{null})
!5 = distinct !DISubprogram(name: "runs", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 5, column: 3, scope: !5)
!11 = !DILocation(line: 6, column: 3, scope: !5)
!12 = !DILocation(line: 7, column: 1, scope: !5)

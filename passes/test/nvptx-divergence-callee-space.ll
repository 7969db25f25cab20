; A device function's pointer parameter takes the space its callers' pointers
; point into when every use of the function in this module is a direct
; call and every call agrees (a kernel's pointer parameter: global; a
; shared variable: shared): its accesses then get the space's hint (1
; global, 3 shared), their requests and bytes are derived from the block's
; counters and no lane tests its address's space. Its linkage does not
; matter: the divergence copy is called only from the copies of its
; callers here (visit is external, as clang leaves bfs's `__noinline__`
; visit without -fgpu-rdc). Where the callers disagree, or the function's
; address is taken, the access stays generic (0). On the tree before,
; every one was generic.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; visit's load and atomic, onshared's store:
; STATS: access groups 7 ({{.*}}; groups in their callers' space: 3
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [64 x i32] undef, align 4
@table = internal addrspace(1) global ptr null

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Called with the kernel's parameters only, two calls deep: global.
; CHECK-LABEL: define {{.*}}void @visit__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK: ret void
define void @visit(ptr %level, i32 %v) noinline !dbg !5 {
entry:
  %vi = sext i32 %v to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr %level, i64 %vi, !dbg !10
  %l = load i32, ptr %p, align 4, !dbg !10
  %o = atomicrmw add ptr %p, i32 %l monotonic, align 4, !dbg !10
  ret void, !dbg !10
}

define internal void @forward(ptr %level, i32 %v) noinline !dbg !6 {
entry:
  call void @visit(ptr %level, i32 %v), !dbg !11
  ret void, !dbg !11
}

; Called with a kernel's parameter and with a shared array: generic.
; CHECK-LABEL: define internal void @mixed__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 16, i32 1,
; CHECK: ret void
define internal void @mixed(ptr %a, i32 %v) noinline !dbg !7 {
entry:
  %vi = sext i32 %v to i64, !dbg !12
  %p = getelementptr inbounds i32, ptr %a, i64 %vi, !dbg !12
  store i32 1, ptr %p, align 4, !dbg !12
  ret void, !dbg !12
}

; Called with the shared array only: shared.
; CHECK-LABEL: define internal void @onshared__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 19, i32 1,
; CHECK: ret void
define internal void @onshared(ptr %a, i32 %v) noinline !dbg !8 {
entry:
  %vi = sext i32 %v to i64, !dbg !13
  %p = getelementptr inbounds i32, ptr %a, i64 %vi, !dbg !13
  store i32 2, ptr %p, align 4, !dbg !13
  ret void, !dbg !13
}

; Its address is stored (it may be called through the pointer): generic.
; CHECK-LABEL: define internal void @escaped__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 16, i32 1,
; CHECK: ret void
define internal void @escaped(ptr %a, i32 %v) noinline !dbg !9 {
entry:
  %vi = sext i32 %v to i64, !dbg !14
  %p = getelementptr inbounds i32, ptr %a, i64 %vi, !dbg !14
  store i32 3, ptr %p, align 4, !dbg !14
  ret void, !dbg !14
}

define ptx_kernel void @k(ptr %level, ptr %cols) !dbg !15 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %cp = getelementptr inbounds i32, ptr %cols, i64 %ti, !dbg !16
  %v = load i32, ptr %cp, align 4, !dbg !16
  call void @forward(ptr %level, i32 %v), !dbg !16
  call void @mixed(ptr %level, i32 %v), !dbg !16
  call void @mixed(ptr addrspacecast (ptr addrspace(3) @sh to ptr), i32 %v), !dbg !16
  call void @onshared(ptr addrspacecast (ptr addrspace(3) @sh to ptr), i32 %v), !dbg !16
  store ptr @escaped, ptr addrspace(1) @table, align 8, !dbg !16
  call void @escaped(ptr %level, i32 %v), !dbg !16
  ret void, !dbg !16
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "callee.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "visit", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "forward", scope: !1, file: !1, line: 6, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "mixed", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "onshared", scope: !1, file: !1, line: 14, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "escaped", scope: !1, file: !1, line: 18, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!15 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 22, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 7, scope: !6)
!12 = !DILocation(line: 11, scope: !7)
!13 = !DILocation(line: 15, scope: !8)
!14 = !DILocation(line: 19, scope: !9)
!16 = !DILocation(line: 23, scope: !15)

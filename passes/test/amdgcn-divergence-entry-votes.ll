; nvptx-divergence-entry-votes.ll on amdgcn: a lane select in a loop on a
; condition each work-item computes from its indices and the arguments is
; voted on once at the kernel copy's entry, where every lane of the wave is
; active (__pasta_div_uniform over its 64 lanes), not at every iteration.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

; CHECK-LABEL: define amdgpu_kernel void @tile__pasta_div(
; CHECK: %[[GT:[0-9]+]] = icmp sgt i32 %{{[0-9]+}}, 0
; CHECK-NEXT: %[[F:[0-9]+]] = freeze i1 %[[GT]]
; CHECK-NEXT: %[[Z:[0-9]+]] = zext i1 %[[F]] to i32
; CHECK-NEXT: %[[U:[0-9]+]] = call i32 @__pasta_div_uniform(i32 %[[Z]])
; CHECK-NEXT: %[[AGREE:pasta.div.agree.entry[0-9]*]] = icmp ne i32 %[[U]], 0
; CHECK: loop:
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32, %{{[0-9]+}}
; CHECK: select i1 %[[AGREE]], i32 %{{[0-9]+}}, i32 0
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: ret void
define amdgpu_kernel void @tile(ptr addrspace(1) %g, i32 %steps) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %bid = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !10
  %b = mul nuw nsw i32 %bid, 216, !dbg !10
  %t = add nsw i32 %tid, -20, !dbg !10
  %x = add nsw i32 %t, %b, !dbg !10
  %ti = zext i32 %tid to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(3) @lds, i64 %ti, !dbg !10
  %left = icmp sgt i32 %x, 0, !dbg !10
  %off = select i1 %left, i64 -4, i64 0, !dbg !10
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !10
  br label %loop, !dbg !10

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !10
  %act = icmp ugt i32 %tid, %k, !dbg !10
  br i1 %act, label %body, label %latch, !dbg !10

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !10
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !10
  br label %latch, !dbg !10

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "votes.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)

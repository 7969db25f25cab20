; The divergence copy for amdgcn (wave64, gfx90a), with the device runtime
; linked and inlined: the same source as on NVIDIA, so the figures come from
; 64-lane ballots (llvm.amdgcn.ballot.i64) and the registers in private
; memory (address space 5) are promoted: no alloca and no runtime call is
; left in the copy. There is no AMD
; GPU here: this checks the code, not the counts. Every block is measured
; (-pasta-div-derive-bodies=0: amdgcn-divergence-bodies.ll derives bodies).
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-derive-bodies=0 -S %s | FileCheck %s
; Register caps, and so the copies' uncapped twins, are NVIDIA's only.
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-derive-bodies=0 -S %s | FileCheck %s --check-prefix=NOCAP
; NOCAP-NOT: nvvm.maxnreg
; NOCAP-NOT: __pasta_divu
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-derive-bodies=0 -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=CALLS

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [64 x float] poison

define amdgpu_kernel void @k(ptr addrspace(1) %out, float %v, i32 %n) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %lane = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %c = icmp slt i32 %lane, %n, !dbg !10
  br i1 %c, label %then, label %done, !dbg !10
then:
  store float %v, ptr addrspace(3) @lds, !dbg !11
  %t = zext i32 %lane to i64, !dbg !12
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t, !dbg !12
  store float %v, ptr addrspace(1) %q, !dbg !12
  br label %done, !dbg !12
done:
  ret void, !dbg !13
}

define amdgpu_kernel void @loop(ptr addrspace(1) %out, i32 %n) "target-cpu"="gfx90a" !dbg !20 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !21
  %t = zext i32 %tid to i64, !dbg !21
  %p = getelementptr inbounds float, ptr addrspace(3) @lds, i64 %t, !dbg !21
  %go = icmp sgt i32 %n, 0, !dbg !21
  br i1 %go, label %body, label %exit, !dbg !21
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %x = load float, ptr addrspace(3) %p, align 4, !dbg !22
  store float %x, ptr addrspace(1) %out, align 4, !dbg !22
  %i.next = add nsw i32 %i, 1, !dbg !22
  %more = icmp slt i32 %i.next, %n, !dbg !22
  br i1 %more, label %body, label %exit, !dbg !22
exit:
  ret void, !dbg !23
}

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: define amdgpu_kernel void @k__pasta_div(ptr addrspace(1) %out, float %v, i32 %n)
; CHECK-NOT: alloca i{{32|64}},
; CHECK-NOT: call {{.*}}@__pasta_div
; CHECK: call i64 @llvm.amdgcn.ballot.i64(
; CHECK: call i64 @llvm.amdgcn.readfirstlane.i64
; CHECK: ret void

; Before linking: private (addrspace 5) registers, and the global store of
; each lane's element (the lanes helper, whose wave64 check sends it to the
; general path at run time). The LDS store, one aligned address in every
; lane, is not measured: its figures are all derived.
; CALLS-LABEL: define amdgpu_kernel void @k__pasta_div(
; CALLS: alloca i32, align 4, addrspace(5)
; CALLS: call void @__pasta_div_branch_add(i32 %{{.*}}, ptr addrspace(1)
; CALLS-NOT: @lds to ptr), i32 4, i32 0,
; CALLS: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %{{.*}}, ptr addrspace(5)
; Outside loops each figure is added where it is measured.
; CALLS: call void @__pasta_div_add(ptr addrspace(1)
; CALLS-NOT: @__pasta_flush(

; A loop whose branches are uniform on wave64 too: its LDS load and its
; lanes are measured in the preheader and added there times its %n
; iterations (its global store, one address in every lane, not at all);
; the loop body only runs.
; CHECK-LABEL: define amdgpu_kernel void @loop__pasta_div(
; CHECK-NOT: alloca i{{32|64}},
; CHECK-NOT: call {{.*}}@__pasta_div
; CHECK: ret void
; CALLS-LABEL: define amdgpu_kernel void @loop__pasta_div(
; CALLS: body.preheader:
; CALLS: call void @__pasta_div_block(i32 1, ptr addrspace(5) %pasta.div.leader, ptr addrspace(5) %pasta.div.lanes)
; CALLS: call void @__pasta_div_add(ptr addrspace(1)
; CALLS: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %{{.*}}, ptr addrspace(5)
; CALLS: call void @__pasta_div_add(ptr addrspace(1)
; CALLS: body:
; CALLS-NOT: call {{.*}}@__pasta_div_
; CALLS: exit.loopexit:

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!20 = distinct !DISubprogram(name: "loop", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 11, scope: !20)
!22 = !DILocation(line: 12, scope: !20)
!23 = !DILocation(line: 13, scope: !20)

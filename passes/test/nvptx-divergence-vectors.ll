; NVPTX's back end joins adjacent accesses of one base into one vector
; access after PASTA has run (its load-store vectorizer): an int4's four
; element loads become one ld.global.v4, which ncu counts as one request.
; The divergence copies measure such a run as one access of the joined
; size at its first element (passes/DivergencePlan.cpp, joinVectorAccesses):
; 2 or 4 loads or stores of 4 or 8 bytes, adjacent in the block and in
; memory, the first aligned to the joined size. Runs the vectorizer would
; not join stay apart: under-aligned, with a store between two loads, of
; 2-byte elements. The counting copy still counts every element.
; (-pasta-div-cold-general-above=64: the lane-shaped helper as written
; for, not its _cold form: nvptx-divergence-cold-general.ll.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows32=0 -pasta-div-cold-general-above=64 -S %s | FileCheck %s
; With FullRow loads measured after the load (-pasta-div-fullrow-after-load),
; a joined run is still measured before its first element (a call between
; its loads would keep the vectorizer from joining them); a load alone is
; measured after it.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows32=0 -pasta-div-fullrow-after-load=1 -pasta-div-cold-general-above=64 -S %s | FileCheck %s --check-prefix=AFTER
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; An int4 (16 bytes, align 16) loaded element by element and stored back
; as a float4: one 16-byte load, one 16-byte store, each at its first
; element; a float2 (align 8): one 8-byte load; a double2 (align 16): one
; 16-byte load. Three elements of an aligned int4: the first two joined,
; the third alone.
; AFTER-LABEL: define ptx_kernel void @joined__pasta_div(
; AFTER: %[[X:.*]] = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %t
; AFTER: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 16, i32 16, i32 1, i32 1,
; AFTER: load i32, ptr addrspace(1) %[[X]], align 16
; AFTER-NOT: call i32 @__pasta_div_access
; AFTER: %v3 = load i32
; AFTER: %e2 = load i32
; AFTER-NEXT: br i1 %pasta.div.rowslow,
; AFTER: br i1 %pasta.div.fullrow,
; AFTER: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; AFTER: ret void
; AFTER-LABEL: define ptx_kernel void @apart__pasta_div(
; AFTER: %a0 = load i32
; AFTER: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; AFTER: %a1 = load i32
; AFTER: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; AFTER: ret void
; CHECK-LABEL: define ptx_kernel void @joined__pasta_div(
; CHECK: %[[X:.*]] = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %t
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 16, i32 16, i32 1, i32 1,
; CHECK: load i32, ptr addrspace(1) %[[X]], align 16
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: %v3 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 16, i32 16, i32 1, i32 1,
; CHECK: store float %f0, ptr addrspace(1) %o0, align 16
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: store float %f3
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 8, i32 8, i32 1, i32 1,
; CHECK: %h0 = load float
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: %h1 = load float
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 16, i32 16, i32 1, i32 1,
; CHECK: %d0 = load double
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: %d1 = load double
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 8, i32 16, i32 1, i32 1,
; CHECK: %e0 = load i32
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: %e1 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; CHECK: %e2 = load i32
; CHECK: ret void
define ptx_kernel void @joined(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %in2, ptr addrspace(1) %in3) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %t = zext i32 %x to i64, !dbg !10
  %p0 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %t, !dbg !10
  %v0 = load i32, ptr addrspace(1) %p0, align 16, !dbg !10
  %p1 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 4, !dbg !10
  %v1 = load i32, ptr addrspace(1) %p1, align 4, !dbg !10
  %p2 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 8, !dbg !10
  %v2 = load i32, ptr addrspace(1) %p2, align 8, !dbg !10
  %p3 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 12, !dbg !10
  %v3 = load i32, ptr addrspace(1) %p3, align 4, !dbg !10
  %f0 = sitofp i32 %v0 to float, !dbg !11
  %f1 = sitofp i32 %v1 to float, !dbg !11
  %f2 = sitofp i32 %v2 to float, !dbg !11
  %f3 = sitofp i32 %v3 to float, !dbg !11
  %o0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %t, !dbg !11
  store float %f0, ptr addrspace(1) %o0, align 16, !dbg !11
  %o1 = getelementptr inbounds i8, ptr addrspace(1) %o0, i64 4, !dbg !11
  store float %f1, ptr addrspace(1) %o1, align 4, !dbg !11
  %o2 = getelementptr inbounds i8, ptr addrspace(1) %o0, i64 8, !dbg !11
  store float %f2, ptr addrspace(1) %o2, align 8, !dbg !11
  %o3 = getelementptr inbounds i8, ptr addrspace(1) %o0, i64 12, !dbg !11
  store float %f3, ptr addrspace(1) %o3, align 4, !dbg !11
  %q0 = getelementptr inbounds <2 x float>, ptr addrspace(1) %in2, i64 %t, !dbg !12
  %h0 = load float, ptr addrspace(1) %q0, align 8, !dbg !12
  %q1 = getelementptr inbounds i8, ptr addrspace(1) %q0, i64 4, !dbg !12
  %h1 = load float, ptr addrspace(1) %q1, align 4, !dbg !12
  %r0 = getelementptr inbounds <2 x double>, ptr addrspace(1) %in3, i64 %t, !dbg !13
  %d0 = load double, ptr addrspace(1) %r0, align 16, !dbg !13
  %r1 = getelementptr inbounds i8, ptr addrspace(1) %r0, i64 8, !dbg !13
  %d1 = load double, ptr addrspace(1) %r1, align 8, !dbg !13
  %s0 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %t, !dbg !14
  %e0 = load i32, ptr addrspace(1) %s0, align 16, !dbg !14
  %s1 = getelementptr inbounds i8, ptr addrspace(1) %s0, i64 4, !dbg !14
  %e1 = load i32, ptr addrspace(1) %s1, align 4, !dbg !14
  %s2 = getelementptr inbounds i8, ptr addrspace(1) %s0, i64 8, !dbg !14
  %e2 = load i32, ptr addrspace(1) %s2, align 8, !dbg !14
  %sum = fadd float %h0, %h1, !dbg !15
  %dsum = fadd double %d0, %d1, !dbg !15
  %ds = fptrunc double %dsum to float, !dbg !15
  %all = fadd float %sum, %ds, !dbg !15
  %ie = add i32 %e0, %e1, !dbg !15
  %ie2 = add i32 %ie, %e2, !dbg !15
  %fe = sitofp i32 %ie2 to float, !dbg !15
  %tot = fadd float %all, %fe, !dbg !15
  %z = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t, !dbg !15
  store float %tot, ptr addrspace(1) %z, align 4, !dbg !15
  ret void, !dbg !16
}

; Not joined: an int4 only 4-byte aligned (four 4-byte loads), two loads
; with a store between them, and four 2-byte loads (a short4).
; CHECK-LABEL: define ptx_kernel void @apart__pasta_div(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; CHECK: %a0 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; CHECK: %a1 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; CHECK: %a2 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 16, i32 1, i32 1,
; CHECK: %a3 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 8, i32 1, i32 1,
; CHECK: %b0 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1,
; CHECK: store i32 %b0
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 8, i32 1, i32 1,
; CHECK: %b1 = load i32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 2, i32 8, i32 1, i32 1,
; CHECK: %c0 = load i16
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 2, i32 8, i32 1, i32 1,
; CHECK: %c1 = load i16
; CHECK: ret void
define ptx_kernel void @apart(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %in2, ptr addrspace(1) %in3) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !20
  %t = zext i32 %x to i64, !dbg !20
  %p0 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %t, !dbg !20
  %a0 = load i32, ptr addrspace(1) %p0, align 4, !dbg !20
  %p1 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 4, !dbg !20
  %a1 = load i32, ptr addrspace(1) %p1, align 4, !dbg !20
  %p2 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 8, !dbg !20
  %a2 = load i32, ptr addrspace(1) %p2, align 4, !dbg !20
  %p3 = getelementptr inbounds i8, ptr addrspace(1) %p0, i64 12, !dbg !20
  %a3 = load i32, ptr addrspace(1) %p3, align 4, !dbg !20
  %q0 = getelementptr inbounds <2 x i32>, ptr addrspace(1) %in2, i64 %t, !dbg !21
  %b0 = load i32, ptr addrspace(1) %q0, align 8, !dbg !21
  %w = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t, !dbg !21
  store i32 %b0, ptr addrspace(1) %w, align 4, !dbg !21
  %q1 = getelementptr inbounds i8, ptr addrspace(1) %q0, i64 4, !dbg !21
  %b1 = load i32, ptr addrspace(1) %q1, align 4, !dbg !21
  %r0 = getelementptr inbounds <4 x i16>, ptr addrspace(1) %in3, i64 %t, !dbg !22
  %c0 = load i16, ptr addrspace(1) %r0, align 8, !dbg !22
  %r1 = getelementptr inbounds i8, ptr addrspace(1) %r0, i64 2, !dbg !22
  %c1 = load i16, ptr addrspace(1) %r1, align 2, !dbg !22
  %s = add i32 %a0, %a1, !dbg !23
  %s1 = add i32 %s, %a2, !dbg !23
  %s2 = add i32 %s1, %a3, !dbg !23
  %s3 = add i32 %s2, %b1, !dbg !23
  %c0w = zext i16 %c0 to i32, !dbg !23
  %c1w = zext i16 %c1 to i32, !dbg !23
  %s4 = add i32 %s3, %c0w, !dbg !23
  %s5 = add i32 %s4, %c1w, !dbg !23
  %z = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t, !dbg !23
  store i32 %s5, ptr addrspace(1) %z, align 4, !dbg !23
  ret void, !dbg !24
}

; An int4 gathered at a loaded index (a group the general helper measures,
; at every execution: measured after its load when that load is alone): its
; four loads are one joined access, measured before its first element, no
; call between them (one would keep the vectorizer from joining them).
; CHECK-LABEL: define ptx_kernel void @gathered__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 16,
; CHECK: %g0 = load i32, ptr addrspace(1) %[[G:.*]], align 16
; CHECK-NOT: call
; CHECK: %g3 = load i32
; CHECK: ret void
define ptx_kernel void @gathered(ptr addrspace(1) %in, ptr addrspace(1) %idx, ptr addrspace(1) %out) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !30
  %t = zext i32 %x to i64, !dbg !30
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %t, !dbg !30
  %i = load i32, ptr addrspace(1) %ip, align 4, !dbg !30
  %ie = sext i32 %i to i64, !dbg !30
  %g = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %ie, !dbg !31
  %g0 = load i32, ptr addrspace(1) %g, align 16, !dbg !31
  %gp1 = getelementptr inbounds i8, ptr addrspace(1) %g, i64 4, !dbg !31
  %g1 = load i32, ptr addrspace(1) %gp1, align 4, !dbg !31
  %gp2 = getelementptr inbounds i8, ptr addrspace(1) %g, i64 8, !dbg !31
  %g2 = load i32, ptr addrspace(1) %gp2, align 8, !dbg !31
  %gp3 = getelementptr inbounds i8, ptr addrspace(1) %g, i64 12, !dbg !31
  %g3 = load i32, ptr addrspace(1) %gp3, align 4, !dbg !31
  %s0 = add i32 %g0, %g1, !dbg !32
  %s1 = add i32 %s0, %g2, !dbg !32
  %s2 = add i32 %s1, %g3, !dbg !32
  %z = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t, !dbg !32
  store i32 %s2, ptr addrspace(1) %z, align 4, !dbg !32
  ret void, !dbg !32
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "vectors.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "joined", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "apart", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "gathered", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!16 = !DILocation(line: 9, scope: !5)
!20 = !DILocation(line: 21, scope: !6)
!21 = !DILocation(line: 22, scope: !6)
!22 = !DILocation(line: 23, scope: !6)
!23 = !DILocation(line: 24, scope: !6)
!24 = !DILocation(line: 25, scope: !6)
!30 = !DILocation(line: 31, scope: !7)
!31 = !DILocation(line: 32, scope: !7)
!32 = !DILocation(line: 33, scope: !7)

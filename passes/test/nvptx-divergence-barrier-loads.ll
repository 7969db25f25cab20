; After a block barrier, a run of loads (no store, atomic or call between
; them) that holds a global load is measured after its last load
; (-pasta-div-barrier-loads-first, on): every warp of the block leaves the
; barrier at once, so a global load issued behind the measurements of the
; loads before it (hotspot's power[idx] behind its shared tile's) adds its
; whole latency to every warp. Not where the run holds no global load
; (shared), more than 8 loads (their values wait in registers: many), no
; barrier before it in its block (nobarrier), in loops (rowloop: its loads
; held across a loop's measurements cost registers), and not with the
; option off.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-barrier-loads-first=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@t = internal addrspace(3) global [256 x float] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; The shared load and the global one issue together, then both are measured.
; CHECK-LABEL: define ptx_kernel void @tile__pasta_div(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(
; CHECK-NOT: br
; CHECK-NOT: call
; CHECK: %a = load float, ptr addrspace(3) %sq, align 4
; CHECK-NOT: br
; CHECK-NOT: call
; CHECK: %b = load float, ptr addrspace(1) %pp, align 4
; CHECK-NEXT: {{call|br}}
; CHECK: store float %s, ptr addrspace(1) %op
; Only shared loads: the second load's measurement stays before it.
; CHECK-LABEL: define ptx_kernel void @shared__pasta_div(
; CHECK: %a = load float, ptr addrspace(3) %sq, align 4
; CHECK: {{call|br}}
; CHECK: %c = load float, ptr addrspace(3) %sp2, align 4
; Nine loads: as before.
; CHECK-LABEL: define ptx_kernel void @many__pasta_div(
; CHECK: %a = load float, ptr addrspace(3) %sq, align 4
; CHECK: {{call|br}}
; CHECK: %b = load float, ptr addrspace(1) %pp, align 4
; No barrier before the run: as before.
; CHECK-LABEL: define ptx_kernel void @nobarrier__pasta_div(
; CHECK: %a = load float, ptr addrspace(3) %sq, align 4
; CHECK: {{call|br}}
; CHECK: %b = load float, ptr addrspace(1) %pp, align 4
; In a loop (with a barrier too): as before.
; CHECK-LABEL: define ptx_kernel void @rowloop__pasta_div(
; CHECK: %a = load float, ptr addrspace(3) %sq, align 4
; CHECK: {{call|br}}
; CHECK: %b = load float, ptr addrspace(1) %pp, align 4

; OFF-LABEL: define ptx_kernel void @tile__pasta_div(
; OFF: %a = load float, ptr addrspace(3) %sq, align 4
; OFF: {{call|br}}
; OFF: %b = load float, ptr addrspace(1) %pp, align 4

; t[tid] = p[x]; __syncthreads(); out[x] = t[3 tid % 256] + p[x + 256];
define ptx_kernel void @tile(ptr addrspace(1) %p, ptr addrspace(1) %out) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bx = shl nuw nsw i32 %bid, 8, !dbg !10
  %x = add nuw nsw i32 %bx, %tid, !dbg !10
  %xe = zext i32 %x to i64, !dbg !10
  %m3 = mul nuw nsw i32 %tid, 3
  %m = and i32 %m3, 255
  %sq = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %m
  %te = zext i32 %tid to i64, !dbg !10
  %ip = getelementptr inbounds float, ptr addrspace(1) %p, i64 %xe, !dbg !10
  %in = load float, ptr addrspace(1) %ip, align 4, !dbg !10
  %sp = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i64 0, i64 %te, !dbg !10
  store float %in, ptr addrspace(3) %sp, align 4, !dbg !10
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !11
  %a = load float, ptr addrspace(3) %sq, align 4, !dbg !12
  %x2 = add nuw nsw i32 %x, 256, !dbg !12
  %x2e = zext i32 %x2 to i64, !dbg !12
  %pp = getelementptr inbounds float, ptr addrspace(1) %p, i64 %x2e, !dbg !12
  %b = load float, ptr addrspace(1) %pp, align 4, !dbg !12
  %s = fadd float %a, %b, !dbg !12
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xe, !dbg !13
  store float %s, ptr addrspace(1) %op, align 4, !dbg !13
  ret void, !dbg !13
}

; t[tid] = 1; __syncthreads(); out[x] = t[3 tid % 256] + t[5 tid % 256];
define ptx_kernel void @shared(ptr addrspace(1) %out) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !14
  %bx = shl nuw nsw i32 %bid, 8, !dbg !14
  %x = add nuw nsw i32 %bx, %tid, !dbg !14
  %xe = zext i32 %x to i64, !dbg !14
  %m3 = mul nuw nsw i32 %tid, 3
  %m = and i32 %m3, 255
  %sq = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %m
  %te = zext i32 %tid to i64, !dbg !14
  %sp = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i64 0, i64 %te, !dbg !14
  store float 1.0, ptr addrspace(3) %sp, align 4, !dbg !14
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !14
  %a = load float, ptr addrspace(3) %sq, align 4, !dbg !15
  %t5 = mul nuw nsw i32 %tid, 5, !dbg !15
  %t2 = and i32 %t5, 255, !dbg !15
  %sp2 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t2, !dbg !15
  %c = load float, ptr addrspace(3) %sp2, align 4, !dbg !15
  %s = fadd float %a, %c, !dbg !15
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xe, !dbg !16
  store float %s, ptr addrspace(1) %op, align 4, !dbg !16
  ret void, !dbg !16
}

; As tile, with seven more shared loads in the run (t[tid ^ k], k = 1..7).
define ptx_kernel void @many(ptr addrspace(1) %p, ptr addrspace(1) %out) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !17
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !17
  %bx = shl nuw nsw i32 %bid, 8, !dbg !17
  %x = add nuw nsw i32 %bx, %tid, !dbg !17
  %xe = zext i32 %x to i64, !dbg !17
  %m3 = mul nuw nsw i32 %tid, 3
  %m = and i32 %m3, 255
  %sq = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %m
  %te = zext i32 %tid to i64, !dbg !17
  %sp = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i64 0, i64 %te, !dbg !17
  store float 1.0, ptr addrspace(3) %sp, align 4, !dbg !17
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !17
  %a = load float, ptr addrspace(3) %sq, align 4, !dbg !18
  %s0 = fadd float %a, 0.0, !dbg !18
  %t1 = xor i32 %tid, 1, !dbg !18
  %q1 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t1, !dbg !18
  %v1 = load float, ptr addrspace(3) %q1, align 4, !dbg !18
  %s1 = fadd float %s0, %v1, !dbg !18
  %t2 = xor i32 %tid, 2, !dbg !18
  %q2 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t2, !dbg !18
  %v2 = load float, ptr addrspace(3) %q2, align 4, !dbg !18
  %s2 = fadd float %s1, %v2, !dbg !18
  %t3 = xor i32 %tid, 3, !dbg !18
  %q3 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t3, !dbg !18
  %v3 = load float, ptr addrspace(3) %q3, align 4, !dbg !18
  %s3 = fadd float %s2, %v3, !dbg !18
  %t4 = xor i32 %tid, 4, !dbg !18
  %q4 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t4, !dbg !18
  %v4 = load float, ptr addrspace(3) %q4, align 4, !dbg !18
  %s4 = fadd float %s3, %v4, !dbg !18
  %t5 = xor i32 %tid, 5, !dbg !18
  %q5 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t5, !dbg !18
  %v5 = load float, ptr addrspace(3) %q5, align 4, !dbg !18
  %s5 = fadd float %s4, %v5, !dbg !18
  %t6 = xor i32 %tid, 6, !dbg !18
  %q6 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t6, !dbg !18
  %v6 = load float, ptr addrspace(3) %q6, align 4, !dbg !18
  %s6 = fadd float %s5, %v6, !dbg !18
  %t7 = xor i32 %tid, 7, !dbg !18
  %q7 = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %t7, !dbg !18
  %v7 = load float, ptr addrspace(3) %q7, align 4, !dbg !18
  %s7 = fadd float %s6, %v7, !dbg !18
  %pp = getelementptr inbounds float, ptr addrspace(1) %p, i64 %xe, !dbg !18
  %b = load float, ptr addrspace(1) %pp, align 4, !dbg !18
  %s = fadd float %s7, %b, !dbg !18
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xe, !dbg !19
  store float %s, ptr addrspace(1) %op, align 4, !dbg !19
  ret void, !dbg !19
}

; As tile, the barrier in the block before the loads' (a branch between).
define ptx_kernel void @nobarrier(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n) !dbg !8 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !20
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !20
  %bx = shl nuw nsw i32 %bid, 8, !dbg !20
  %x = add nuw nsw i32 %bx, %tid, !dbg !20
  %xe = zext i32 %x to i64, !dbg !20
  %m3 = mul nuw nsw i32 %tid, 3
  %m = and i32 %m3, 255
  %sq = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %m
  %te = zext i32 %tid to i64, !dbg !20
  %sp = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i64 0, i64 %te, !dbg !20
  store float 1.0, ptr addrspace(3) %sp, align 4, !dbg !20
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !20
  %in = icmp slt i32 %x, %n, !dbg !20
  br i1 %in, label %then, label %done, !dbg !20

then:
  %a = load float, ptr addrspace(3) %sq, align 4, !dbg !21
  %pp = getelementptr inbounds float, ptr addrspace(1) %p, i64 %xe, !dbg !21
  %b = load float, ptr addrspace(1) %pp, align 4, !dbg !21
  %s = fadd float %a, %b, !dbg !21
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xe, !dbg !21
  store float %s, ptr addrspace(1) %op, align 4, !dbg !21
  br label %done, !dbg !21

done:
  ret void, !dbg !21
}

; for (k = 0; k < steps; k++) { if (tid > k) t[tid] += p[k * 256 + x];
;                               __syncthreads(); }
define ptx_kernel void @rowloop(ptr addrspace(1) %p, i32 %steps) !dbg !9 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !22
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !22
  %bx = shl nuw nsw i32 %bid, 8, !dbg !22
  %x = add nuw nsw i32 %bx, %tid, !dbg !22
  %m3 = mul nuw nsw i32 %tid, 3
  %m = and i32 %m3, 255
  %sq = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i32 0, i32 %m
  %te = zext i32 %tid to i64, !dbg !22
  %sp = getelementptr inbounds [256 x float], ptr addrspace(3) @t, i64 0, i64 %te, !dbg !22
  %any = icmp sgt i32 %steps, 0, !dbg !22
  br i1 %any, label %loop, label %exit, !dbg !22

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !22
  %act = icmp ugt i32 %tid, %k, !dbg !22
  br i1 %act, label %body, label %latch, !dbg !22

body:
  %a = load float, ptr addrspace(3) %sq, align 4, !dbg !23
  %row = shl nsw i32 %k, 8, !dbg !23
  %i = add nsw i32 %row, %x, !dbg !23
  %ie = sext i32 %i to i64, !dbg !23
  %pp = getelementptr inbounds float, ptr addrspace(1) %p, i64 %ie, !dbg !23
  %b = load float, ptr addrspace(1) %pp, align 4, !dbg !23
  %s = fadd float %a, %b, !dbg !23
  store float %s, ptr addrspace(3) %sp, align 4, !dbg !23
  br label %latch, !dbg !22

latch:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !22
  %k1 = add nuw nsw i32 %k, 1, !dbg !22
  %done = icmp eq i32 %k1, %steps, !dbg !22
  br i1 %done, label %exit, label %loop, !dbg !22

exit:
  ret void, !dbg !22
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "barrier-loads.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "shared", scope: !1, file: !1, line: 8, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "many", scope: !1, file: !1, line: 14, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "nobarrier", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "rowloop", scope: !1, file: !1, line: 26, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 9, scope: !6)
!15 = !DILocation(line: 10, scope: !6)
!16 = !DILocation(line: 11, scope: !6)
!17 = !DILocation(line: 15, scope: !7)
!18 = !DILocation(line: 16, scope: !7)
!19 = !DILocation(line: 17, scope: !7)
!20 = !DILocation(line: 21, scope: !8)
!21 = !DILocation(line: 22, scope: !8)
!22 = !DILocation(line: 27, scope: !9)
!23 = !DILocation(line: 28, scope: !9)

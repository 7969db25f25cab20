; Floating-point arithmetic in inline PTX (InlineAsmMemory.h, asmArithmetic):
; unpredicated add/sub/mul (1 FLOP) and fma/mad (2) of .f32/.f64 count at
; every execution, in the block's site; those predicated on the predicate
; output of the statement's shfl.sync (CUB's warp reductions: `shfl.sync.down
; r0|p ...; @p add.f32`, whose adds Nsight Compute counts in the lanes where
; p is on) get a site of their own per line whose bytes counter adds 1 in each
; lane whose shuffle source lane is in range (PTX's rule, computed from
; %laneid, the lane operand and the clamp), the site's FLOPs counting per
; unit of it (abi.h). Arithmetic under any other predicate is not counted.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; Divergence mode's copy counts them as the counting kernel does:
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Line 7: an fma and an add, unpredicated: 3 FLOPs an execution. Lines 5
; (two steps of CUB's float reduction: one group, one counter), 6 (CUB's
; double step: two shuffles of the halves set one p) and 9 (an up-shuffle of
; a run-time offset): sites of their own with bytes counters. Line 8's add
; runs under setp's predicate: not counted, and line 8 has no site.
; SITES: pasta: func k kind=kernel calls=0
; SITES-NEXT: pasta: site flops.cu:7 func=k counter=[[C:[0-9]+]] flop.f32=3{{$}}
; SITES-NEXT: pasta: site flops.cu:10 func=k counter=[[C]] st.global=1 stB.global=4{{$}}
; SITES-NEXT: pasta: site flops.cu:9 func=k counter=[[C]] bytes={{[0-9]+}} flop.f32=1{{$}}
; Full member mask, constant lane and clamp: a warp's total, no run-time
; code (abi.h, PASTA_WARP_TOTAL): line 5 down 1 and 2, 31 + 30 lanes of 32;
; line 6 down 1, 31 lanes.
; SITES-NEXT: pasta: site flops.cu:5 func=k counter=[[C]] per-warp flop.f32=61{{$}}
; SITES-NEXT: pasta: site flops.cu:6 func=k counter=[[C]] per-warp flop.f64=31{{$}}
; SITES-NOT: flops.cu:8

; The constant steps read no %laneid; the run-time offset (line 9) does:
; in range where lane - (b & 31) >= the segment's first lane.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: laneid
; CHECK: call float asm sideeffect "{  .reg .f32 r0;  .reg .pred p;  shfl.sync.down.b32 r0|p, $1, $2, $3, $5;
; CHECK-NOT: laneid
; CHECK: call double asm sideeffect
; CHECK: [[L9:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: [[B9:%[0-9]+]] = and i32 %b, 31
; CHECK: [[S9:%[0-9]+]] = sub i32 [[L9]], [[B9]]
; CHECK-NEXT: icmp sge i32 [[S9]],
; CHECK: call float asm sideeffect "{ .reg .pred p; shfl.sync.up.b32
; DIV-LABEL: define ptx_kernel void @k__pasta_div(
; DIV-NOT: laneid
; DIV: call float asm sideeffect "{  .reg .f32 r0;  .reg .pred p;  shfl.sync.down.b32
; DIV: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; DIV: shfl.sync.up.b32
define ptx_kernel void @k(float %v, double %d, i32 %b, ptr %out) !dbg !5 {
entry:
  %s1 = call float asm sideeffect "{  .reg .f32 r0;  .reg .pred p;  shfl.sync.down.b32 r0|p, $1, $2, $3, $5;  @p add.f32 r0, r0, $4;  mov.f32 $0, r0;}", "=f,f,r,r,f,r"(float %v, i32 1, i32 31, float %v, i32 -1), !dbg !10
  %s2 = call float asm sideeffect "{  .reg .f32 r0;  .reg .pred p;  shfl.sync.down.b32 r0|p, $1, $2, $3, $5;  @p add.f32 r0, r0, $4;  mov.f32 $0, r0;}", "=f,f,r,r,f,r"(float %s1, i32 2, i32 31, float %s1, i32 -1), !dbg !10
  %d1 = call double asm sideeffect "{  .reg .u32 lo;  .reg .u32 hi;  .reg .pred p;  .reg .f64 r0;  mov.b64 $0, $1;  mov.b64 {lo, hi}, $1;  shfl.sync.down.b32 lo|p, lo, $2, $3, $4;  shfl.sync.down.b32 hi|p, hi, $2, $3, $4;  mov.b64 r0, {lo, hi};  @p add.f64 $0, $0, r0;}", "=d,d,r,r,r"(double %d, i32 1, i32 31, i32 -1), !dbg !11
  %f = call float asm "{ .reg .f32 t; fma.rn.f32 t, $1, $1, $1; add.rn.ftz.f32 $0, t, $1; }", "=f,f"(float %s2), !dbg !12
  %g = call float asm "{ .reg .pred q; setp.ne.s32 q, $2, 0; @q add.f32 $0, $1, $1; }", "=f,f,r"(float %f, i32 %b), !dbg !13
  %u = call float asm sideeffect "{ .reg .pred p; shfl.sync.up.b32 $0|p, $1, $2, $3, $4; @p add.f32 $0, $0, $1; }", "=f,f,r,r,r"(float %g, i32 %b, i32 0, i32 -1), !dbg !14
  store float %u, ptr %out, !dbg !15
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "flops.cu", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 4, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 5, scope: !5)
!11 = !DILocation(line: 6, scope: !5)
!12 = !DILocation(line: 7, scope: !5)
!13 = !DILocation(line: 8, scope: !5)
!14 = !DILocation(line: 9, scope: !5)
!15 = !DILocation(line: 10, scope: !5)

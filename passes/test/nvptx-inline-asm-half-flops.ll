; Half-precision arithmetic in inline PTX (InlineAsmMemory.cpp, floatOp):
; add/sub/mul (1 FLOP) and fma (2) of .f16 and .bf16 count in those
; precisions, with the .relu qualifier; the packed pairs .f16x2, .bf16x2 and
; .f32x2 count per element (2 elements), as vector IR does. What is not
; arithmetic (neg, cvt, mov) and vectors PTX has no such instruction for are
; not counted.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites >/dev/null
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Line 5: add.rn.f16 (1) + sub.f16 (1) = 2 f16.
; Line 6: fma.rn.f16x2 = 2 elements x 2 = 4 f16.
; Line 7: mul.rn.bf16 (1) + fma.rn.relu.bf16x2 (2 x 2) = 5 bf16.
; Line 8: add.rn.f32x2 = 2 f32.
; Line 9: neg.f16x2, cvt.f32.f16 and mov.b32: no FLOPs, no site.
; SITES: pasta: func k kind=kernel calls=0
; SITES-DAG: pasta: site half.cu:5 func=k counter={{[0-9]+}} flop.f16=2{{$}}
; SITES-DAG: pasta: site half.cu:6 func=k counter={{[0-9]+}} flop.f16=4{{$}}
; SITES-DAG: pasta: site half.cu:7 func=k counter={{[0-9]+}} flop.bf16=5{{$}}
; SITES-DAG: pasta: site half.cu:8 func=k counter={{[0-9]+}} flop.f32=2{{$}}
; SITES-NOT: half.cu:9

define ptx_kernel void @k(ptr %out, i16 %a, i32 %p, i64 %q) !dbg !5 {
entry:
  %h1 = call i16 asm "add.rn.f16 $0, $1, $1;", "=h,h"(i16 %a), !dbg !10
  %h2 = call i16 asm "sub.f16 $0, $1, $1;", "=h,h"(i16 %h1), !dbg !10
  %p1 = call i32 asm "fma.rn.f16x2 $0, $1, $1, $1;", "=r,r"(i32 %p), !dbg !11
  %b1 = call i16 asm "mul.rn.bf16 $0, $1, $1;", "=h,h"(i16 %h2), !dbg !12
  %p2 = call i32 asm "fma.rn.relu.bf16x2 $0, $1, $1, $1;", "=r,r"(i32 %p1), !dbg !12
  %q1 = call i64 asm "add.rn.f32x2 $0, $1, $1;", "=l,l"(i64 %q), !dbg !13
  %p3 = call i32 asm "{ .reg .f32 t; neg.f16x2 $0, $1; cvt.f32.f16 t, $2; mov.b32 $0, $0; }", "=r,r,h"(i32 %p2, i16 %b1), !dbg !14
  %w = zext i16 %b1 to i64
  %x = add i64 %q1, %w
  %y = zext i32 %p3 to i64
  %z = add i64 %x, %y
  store i64 %z, ptr %out, !dbg !15
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "half.cu", directory: "/src")
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

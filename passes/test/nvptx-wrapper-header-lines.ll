; Code inlined from a header that only wraps one operation for the user
; counts at the line that called it (passes/IRHelpers.h, userLocation):
; cuda_fp16.hpp's __hfma (inline PTX), device_atomic_functions.hpp's
; atomicAdd, __clang_cuda_math.h's sqrtf, two wrappers deep (cuda_fp16.hpp
; calling __clang_cuda_device_functions.h). A header the user's project
; wrote (hdr.cuh) keeps its own rows, in counting and divergence mode.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=DIV %s

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: pasta: func k kind=kernel calls=0
; CHECK-DAG: pasta: site k.cu:5 func=k counter={{[0-9]+}} flop.f16=2{{$}}
; CHECK-DAG: pasta: site k.cu:6 func=k counter={{[0-9]+}} {{.*}}atom.global=1
; CHECK-DAG: pasta: site k.cu:7 func=k counter={{[0-9]+}} special=1{{$}}
; CHECK-DAG: pasta: site k.cu:8 func=k counter={{[0-9]+}} flop.f32=1{{$}}
; CHECK-DAG: pasta: site hdr.cuh:40 func=k counter={{[0-9]+}} ld.global=1 ldB.global=4{{$}}
; CHECK-NOT: cuda_fp16.hpp
; CHECK-NOT: device_atomic_functions.hpp
; CHECK-NOT: __clang_cuda
; DIV-DAG: pasta: div k.cu:6 func=k
; DIV-DAG: pasta: div hdr.cuh:40 func=k
; DIV-NOT: pasta: div {{.*}}device_atomic_functions.hpp

define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, i16 %h, float %f) !dbg !10 {
entry:
  %a = call i16 asm "{fma.rn.f16 $0,$1,$2,$3;\0A}", "=h,h,h,h"(i16 %h, i16 %h, i16 %h), !dbg !20
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 seq_cst, align 4, !dbg !22
  %s = call float @llvm.nvvm.sqrt.rn.f(float %f), !dbg !24
  %m = fmul float %s, %f, !dbg !27
  %v = load i32, ptr addrspace(1) %q, align 4, !dbg !29
  %w = add i32 %v, %old
  %x = zext i16 %a to i32
  %y = add i32 %w, %x
  %z = bitcast float %m to i32
  %t = add i32 %y, %z
  store i32 %t, ptr addrspace(1) %q, align 4, !dbg !31
  ret void
}

declare float @llvm.nvvm.sqrt.rn.f(float)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !DIFile(filename: "/usr/local/cuda/include/cuda_fp16.hpp", directory: "")
!5 = !DIFile(filename: "/usr/local/cuda/include/device_atomic_functions.hpp", directory: "")
!6 = !DIFile(filename: "__clang_cuda_math.h", directory: "/usr/lib/llvm-22/lib/clang/22/include")
!7 = !DIFile(filename: "__clang_cuda_device_functions.h", directory: "/usr/lib/llvm-22/lib/clang/22/include")
!8 = !DIFile(filename: "hdr.cuh", directory: "/src/include")
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = distinct !DISubprogram(name: "__hfma", scope: !4, file: !4, line: 2714, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!13 = distinct !DISubprogram(name: "atomicAdd", scope: !5, file: !5, line: 110, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!14 = distinct !DISubprogram(name: "sqrtf", scope: !6, file: !6, line: 260, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!15 = distinct !DISubprogram(name: "__fmul_rn", scope: !7, file: !7, line: 500, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!16 = distinct !DISubprogram(name: "__hmul_f", scope: !4, file: !4, line: 3000, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!17 = distinct !DISubprogram(name: "load", scope: !8, file: !8, line: 38, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 2716, column: 3, scope: !12, inlinedAt: !21)
!21 = distinct !DILocation(line: 5, column: 3, scope: !10)
!22 = !DILocation(line: 112, column: 3, scope: !13, inlinedAt: !23)
!23 = distinct !DILocation(line: 6, column: 3, scope: !10)
!24 = !DILocation(line: 262, column: 3, scope: !14, inlinedAt: !25)
!25 = distinct !DILocation(line: 7, column: 3, scope: !10)
!27 = !DILocation(line: 502, column: 3, scope: !15, inlinedAt: !26)
!26 = distinct !DILocation(line: 3002, column: 3, scope: !16, inlinedAt: !28)
!28 = distinct !DILocation(line: 8, column: 3, scope: !10)
!29 = !DILocation(line: 40, column: 3, scope: !17, inlinedAt: !30)
!30 = distinct !DILocation(line: 9, column: 3, scope: !10)
!31 = !DILocation(line: 10, column: 3, scope: !10)

; Device code: a line given to an instruction without a debug location
; comes with the file of the instruction it came from (hdr.cuh, inlined into
; the kernel in k.cu, a file of 30 lines), in the site table and in the
; divergence rows alike. The kernel's name is recorded demangled by LLVM's
; demangler (clang-22 mangles the `auto` template parameter as `TnDa`,
; which older C++ runtimes cannot read).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: pasta: func _Z4addnITnDaLi5EEvPiS0_ kind=kernel calls=0 shown="void addn<5>(int*, int*)"
; CHECK-DAG: pasta: site hdr.cuh:500 func=_Z4addnITnDaLi5EEvPiS0_ counter={{[0-9]+}} ld.global=1 ldB.global=4{{$}}
; CHECK-DAG: pasta: site hdr.cuh:500 func=_Z4addnITnDaLi5EEvPiS0_ counter={{[0-9]+}} st.global=1 stB.global=4{{$}}
; CHECK-DAG: pasta: div hdr.cuh:500 func=_Z4addnITnDaLi5EEvPiS0_
; In one block (the divergence rows' own propagation, within a block): the
; store after the inlined load is in hdr.cuh too.
; CHECK-DAG: pasta: div hdr.cuh:500 func=one counters=
; CHECK-NOT: k.cu:500

define ptx_kernel void @_Z4addnITnDaLi5EEvPiS0_(ptr addrspace(1) %p, ptr addrspace(1) %q) !dbg !10 {
entry:
  %v = load i32, ptr addrspace(1) %q, align 4, !dbg !20
  br label %next, !dbg !20

next:
  %w = add i32 %v, 5
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

define ptx_kernel void @one(ptr addrspace(1) %p, ptr addrspace(1) %q) !dbg !30 {
entry:
  %v = load i32, ptr addrspace(1) %q, align 4, !dbg !31
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void, !dbg !33
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: DebugDirectivesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !DIFile(filename: "hdr.cuh", directory: "/src/include")
!10 = distinct !DISubprogram(name: "addn<5>", linkageName: "_Z4addnITnDaLi5EEvPiS0_", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = distinct !DISubprogram(name: "load", scope: !4, file: !4, line: 498, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 500, column: 3, scope: !12, inlinedAt: !21)
!21 = distinct !DILocation(line: 5, column: 3, scope: !10)
!30 = distinct !DISubprogram(name: "one", scope: !1, file: !1, line: 10, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!31 = !DILocation(line: 500, column: 3, scope: !12, inlinedAt: !32)
!32 = distinct !DILocation(line: 12, column: 3, scope: !30)
!33 = !DILocation(line: 14, column: 1, scope: !30)

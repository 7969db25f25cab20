; A line given to an instruction without a debug location comes with the
; file of the instruction it came from, not the enclosing function's: the
; store below has none, and its neighbour's line 1107 is in hdr.h (inlined
; into f, which is in main.cpp, a file of 20 lines). Each site names the
; file its line is in.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s
; PASTA_LINES selects by that file too.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-lines='hdr.h:1107' -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SELECT
; RUN: %opt -passes=pasta-count -pasta-host -pasta-lines='main.cpp:1107' -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-DAG: pasta: site hdr.h:1107 func=f counter=1 ld.generic=1 ldB.generic=4{{$}}
; CHECK-DAG: pasta: site hdr.h:1107 func=f counter=2 st.generic=1 stB.generic=4{{$}}
; CHECK-DAG: pasta: site hdr.h:1107 func=f counter=3 st.generic=1 stB.generic=4{{$}}
; Nothing before the store in h: the line after it, in hdr.h again.
; CHECK-DAG: pasta: site hdr.h:1107 func=h counter={{[0-9]+}} st.generic=1 stB.generic=4{{$}}
; CHECK-DAG: pasta: site main.cpp:12 func=h counter={{[0-9]+}} ld.generic=1 ldB.generic=4{{$}}
; CHECK-NOT: main.cpp:1107

; SELECT: pasta: site hdr.h:1107 func=f counter=1 ld.generic=1
; SELECT: pasta: site hdr.h:1107 func=f counter=2 st.generic=1
; SELECT-NOT: main.cpp:12
; NONE: warning: pasta: PASTA_LINES 'main.cpp:1107' selects nothing to count
; NONE-NOT: pasta: site

define void @f(ptr %p, ptr %q) !dbg !10 {
entry:
  %v = load i32, ptr %q, align 4, !dbg !20
  br label %next, !dbg !20

next:
  store i32 %v, ptr %p, align 4
  br label %tail

tail:
  store i32 1, ptr %q, align 4
  ret void, !dbg !22
}

define void @h(ptr %p, ptr %q) !dbg !30 {
entry:
  store i32 2, ptr %p, align 4
  br label %more, !dbg !32

more:
  %v = load i32, ptr %q, align 4, !dbg !31
  ret void, !dbg !31
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "main.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DIFile(filename: "hdr.h", directory: "/src/include")
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = distinct !DISubprogram(name: "g", scope: !4, file: !4, line: 1100, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 1107, column: 3, scope: !12, inlinedAt: !21)
!21 = distinct !DILocation(line: 5, column: 3, scope: !10)
!22 = !DILocation(line: 9, column: 1, scope: !10)
!30 = distinct !DISubprogram(name: "h", scope: !1, file: !1, line: 11, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!31 = !DILocation(line: 12, column: 3, scope: !30)
!32 = !DILocation(line: 1107, column: 1, scope: !12, inlinedAt: !33)
!33 = distinct !DILocation(line: 13, column: 3, scope: !30)

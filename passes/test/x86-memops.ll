; memcpy, memmove and memset of run-time length (the intrinsics, their
; .inline and element-wise atomic forms, and libc calls) count one load
; (copies) and one store per execution, and the bytes they move: each group
; of a block's line gets a site of its own (same block counter) whose bytes
; counter adds up the lengths in a register, flushed with the others. A
; constant length stays in the block's mix. Host code: every space generic.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-place-counters=0 -pasta-print-sites -S %s 2>%t.err | FileCheck %s --check-prefix=IR
; RUN: FileCheck %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: pasta: func copy kind=host calls=0
; CHECK-NEXT: pasta: func loop kind=host calls=5
; CHECK-NEXT: pasta: func libc kind=host calls=8
; CHECK-NEXT: pasta: func forms kind=host calls=14
; CHECK-NEXT: pasta: func fortified kind=host calls=18
; Line 6's constant-length copy stays in the block's site; lines 5, 7 and 8
; get bytes counters 2, 3, 4 (two copies on line 5 share one); memset only
; stores.
; CHECK-NEXT: pasta: site memops.c:6 func=copy counter=1 ld.generic=1 st.generic=1 ldB.generic=16 stB.generic=16{{$}}
; CHECK-NEXT: pasta: site memops.c:5 func=copy counter=1 bytes=2 ld.generic=2 st.generic=2 ldB.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:7 func=copy counter=1 bytes=3 ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:8 func=copy counter=1 bytes=4 st.generic=1 stB.generic=1{{$}}
; A load and a copy on one line of a loop: two sites, one block counter.
; CHECK-NEXT: pasta: site memops.c:12 func=loop counter=6 ld.generic=1 ldB.generic=4{{$}}
; CHECK-NEXT: pasta: site memops.c:12 func=loop counter=6 bytes=7 ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
; libc: bzero may leave the frame (no attributes), so it ends its block.
; CHECK-NEXT: pasta: site memops.c:20 func=libc counter=9 bytes=10 ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:21 func=libc counter=9 bytes=11 st.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:23 func=libc counter=12 ld.generic=1 st.generic=1 ldB.generic=32 stB.generic=32{{$}}
; CHECK-NEXT: pasta: site memops.c:22 func=libc counter=12 bytes=13 st.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:30 func=forms counter=15 bytes=16 ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: site memops.c:31 func=forms counter=15 bytes=17 st.generic=2 stB.generic=1{{$}}
; A copy inlined from a wrapper named memcpy (glibc's fortified one, CUDA's
; device memcpy) counts on the line that called the wrapper, 51, not the
; wrapper's 100 in string.h.
; CHECK-NEXT: pasta: site memops.c:51 func=fortified counter=19 bytes=20 ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
; CHECK-NEXT: pasta: module counters=21

; IR-LABEL: define void @copy(
; IR: [[A:%[0-9]+]] = add i64 0, %n
; IR: [[B:%[0-9]+]] = add i64 [[A]], %n
; IR-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; IR: [[M:%[0-9]+]] = zext i32 %m to i64
; IR-NEXT: [[C:%[0-9]+]] = add i64 0, [[M]]
; IR-NEXT: call void @llvm.memset.p0.i32(ptr %d, i8 0, i32 %m, i1 false)
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID:[0-9a-f]+]], i32 2), i64 [[B]] monotonic
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 4), i64 [[C]] monotonic
; IR: ret void
define void @copy(ptr %d, ptr %s, i64 %n, i32 %m) !dbg !5 {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false), !dbg !10
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false), !dbg !10
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false), !dbg !11
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %d, i64 %n, i1 false), !dbg !12
  call void @llvm.memset.p0.i32(ptr %d, i8 0, i32 %m, i1 false), !dbg !13
  ret void, !dbg !13
}

; In a loop the bytes counter is a phi; the exit flushes the last sum.
; IR-LABEL: define void @loop(
; IR: body:
; IR: [[NEXT:%[0-9]+]] = add i64 %pasta.count{{[0-9.]+}}, %n
; IR-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; IR: exit:
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 7), i64 [[NEXT]] monotonic
define void @loop(ptr %d, ptr %s, i64 %n, i32 %k) !dbg !20 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %v = load volatile i32, ptr %s, !dbg !21
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false), !dbg !21
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %k
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; A flush point flushes what was added before it, then restarts from zero.
; IR-LABEL: define void @libc(
; IR: [[L20:%[0-9]+]] = add i64 0, %n
; IR-NEXT: call ptr @memcpy(ptr %d, ptr %s, i64 %n)
; IR: [[L21:%[0-9]+]] = add i64 0, %n
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 10), i64 [[L20]] monotonic
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 11), i64 [[L21]] monotonic
; IR: call void @bzero(ptr %d, i64 %n)
; IR: [[L22:%[0-9]+]] = add i64 0, %n
; IR-NEXT: call ptr @__memset_chk(ptr %d, i32 0, i64 %n, i64 %n)
; IR: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 13), i64 [[L22]] monotonic
define void @libc(ptr %d, ptr %s, i64 %n) !dbg !30 {
entry:
  %a = call ptr @memcpy(ptr %d, ptr %s, i64 %n) #0, !dbg !31
  call void @bzero(ptr %d, i64 %n), !dbg !32
  %b = call ptr @__memset_chk(ptr %d, i32 0, i64 %n, i64 %n) #0, !dbg !33
  %c = call ptr @memcpy(ptr %d, ptr %s, i64 32) #0, !dbg !34
  ret void
}

; .inline and element-wise atomic forms.
; IR-LABEL: define void @forms(
; IR: add i64 0, %n
; IR-NEXT: call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(
define void @forms(ptr %d, ptr %s, i64 %n) !dbg !40 {
entry:
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %d, ptr align 4 %s, i64 %n, i32 4), !dbg !41
  call void @llvm.memset.inline.p0.i64(ptr %d, i8 0, i64 %n, i1 false), !dbg !42
  call void @llvm.memset.element.unordered.atomic.p0.i64(ptr align 4 %d, i8 0, i64 %n, i32 4), !dbg !42
  ret void
}

define void @fortified(ptr %d, ptr %s, i64 %n) !dbg !50 {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false), !dbg !53
  ret void
}

declare ptr @memcpy(ptr, ptr, i64)
declare void @bzero(ptr, i64)
declare ptr @__memset_chk(ptr, i32, i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i32(ptr, i8, i32, i1)
declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr, ptr, i64, i32)
declare void @llvm.memset.element.unordered.atomic.p0.i64(ptr, i8, i64, i32)

attributes #0 = { nounwind willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "memops.c", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "copy", scope: !1, file: !1, line: 4, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 5, scope: !5)
!11 = !DILocation(line: 6, scope: !5)
!12 = !DILocation(line: 7, scope: !5)
!13 = !DILocation(line: 8, scope: !5)
!20 = distinct !DISubprogram(name: "loop", scope: !1, file: !1, line: 11, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 12, scope: !20)
!30 = distinct !DISubprogram(name: "libc", scope: !1, file: !1, line: 19, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!31 = !DILocation(line: 20, scope: !30)
!32 = !DILocation(line: 21, scope: !30)
!33 = !DILocation(line: 22, scope: !30)
!34 = !DILocation(line: 23, scope: !30)
!40 = distinct !DISubprogram(name: "forms", scope: !1, file: !1, line: 29, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!41 = !DILocation(line: 30, scope: !40)
!42 = !DILocation(line: 31, scope: !40)
!50 = distinct !DISubprogram(name: "fortified", scope: !1, file: !1, line: 50, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!51 = !DIFile(filename: "string.h", directory: "/usr/include")
!52 = distinct !DISubprogram(name: "memcpy", scope: !51, file: !51, line: 99, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!53 = !DILocation(line: 100, scope: !52, inlinedAt: !54)
!54 = distinct !DILocation(line: 51, scope: !50)

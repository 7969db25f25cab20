; Host functions with register counts: the counter of a block in no cycle
; of the CFG (and the call counter) is added to memory in its block, plain
; while the process has one thread, else atomically, before the block's
; call that may leave the frame (a setjmp returns twice) or its end; the
; flush points test only the counters of blocks in cycles (here the loop's).
; RUN: %opt -passes=pasta-count -pasta-host -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s
; The way before: registers, tested at the flush before @may_leave.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=REG

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @may_leave()
declare i32 @setjmp(ptr) returns_twice

; CHECK-LABEL: define i32 @f(
; CHECK: entry:
; CHECK-NEXT: load i8, ptr @__libc_single_threaded
; CHECK: load i64, ptr @__pasta_counters_[[ID:[0-9a-f]+]]
; CHECK-NEXT: add i64 %{{[0-9]+}}, 1
; CHECK-NEXT: store i64
; CHECK: atomicrmw add ptr @__pasta_counters_[[ID]], i64 1 monotonic
; CHECK: then:
; CHECK-NEXT: store i32 1
; CHECK-NEXT: load i8, ptr @__libc_single_threaded
; CHECK: load i64, ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 [[THEN:[0-9]+]])
; CHECK-NEXT: add i64 %{{[0-9]+}}, 1
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 [[THEN]]), i64 1 monotonic
; CHECK: else:
; CHECK-NEXT: store i32 2
; CHECK-NEXT: load i8, ptr @__libc_single_threaded
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 {{[0-9]+}}), i64 1 monotonic
; Nothing of then's or else's is left to test at the call.
; CHECK: join:
; CHECK-NEXT: store i32 3
; CHECK-NOT: icmp ne i64
; CHECK-NOT: phi i64
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 {{[0-9]+}}), i64 1 monotonic
; CHECK-NOT: icmp ne i64
; CHECK: call void @may_leave()
; Before setjmp: counted once however often it returns.
; CHECK: jmp:
; CHECK-NEXT: store i32 4
; CHECK-NOT: call
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 [[JMP:[0-9]+]]), i64 1 monotonic
; CHECK-NOT: pasta_counters_[[ID]], i32 [[JMP]])
; CHECK: call i32 @setjmp(
; CHECK-NOT: pasta_counters_[[ID]], i32 [[JMP]])
; The loop's block: a register, tested and added at the return.
; CHECK: loop:
; CHECK-NEXT: [[LOOP:%pasta.count[0-9.]+]] = phi i64
; CHECK: exit:
; CHECK-NEXT: store i32 6
; CHECK: icmp ne i64
; CHECK: ret i32

; REG-LABEL: define i32 @f(
; REG: then:
; REG-NEXT: add i64 0, 1
; REG: join:
; REG-NEXT: phi i64
; REG-NEXT: phi i64
; REG: icmp ne i64
; REG: call void @may_leave()
define i32 @f(i1 %c, ptr %buf, i32 %n) !dbg !5 {
entry:
  br i1 %c, label %then, label %else, !dbg !8
then:
  store i32 1, ptr %buf, !dbg !8
  br label %join, !dbg !8
else:
  store i32 2, ptr %buf, !dbg !8
  br label %join, !dbg !8
join:
  store i32 3, ptr %buf, !dbg !8
  call void @may_leave(), !dbg !8
  br label %jmp, !dbg !8
jmp:
  store i32 4, ptr %buf, !dbg !8
  %r = call i32 @setjmp(ptr %buf), !dbg !8
  br label %loop, !dbg !8
loop:
  %i = phi i32 [ 0, %jmp ], [ %i1, %loop ]
  store i32 %i, ptr %buf, !dbg !8
  %i1 = add i32 %i, 1, !dbg !8
  %d = icmp slt i32 %i1, %n, !dbg !8
  br i1 %d, label %loop, label %exit, !dbg !8
exit:
  store i32 6, ptr %buf, !dbg !8
  ret i32 %r, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 1, scope: !5)

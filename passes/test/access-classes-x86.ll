; pasta-print-access-classes on host code: how each access's offset moves
; along the innermost loop that changes it (C.A.T.S. access view).
; RUN: %opt -passes=pasta-print-access-classes -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; a[i] = 0 (with a debug location), then a[i] += 1 atomically.
; CHECK: pasta: access unit 3:7 w stride-1 stride=1 offset=4*i<loop>
; CHECK-NEXT: pasta: access unit 0:0 w stride-1 stride=1 offset=4*i<loop>
define void @unit(ptr %a, i64 %n) !dbg !5 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %a, i64 %i
  store float 0.0, ptr %p, !dbg !8
  %old = atomicrmw fadd ptr %p, float 1.0 monotonic
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; a[2*i]: two elements per iteration.
; CHECK: pasta: access two 0:0 r stride-k stride=2 offset=8*i<loop>
define float @two(ptr %a, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %j = shl nuw nsw i64 %i, 1
  %p = getelementptr inbounds float, ptr %a, i64 %j
  %x = load float, ptr %p
  %s.next = fadd float %s, %x
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret float %s.next
}

; a[i*N] with N a run-time argument: strided, but by no known constant.
; CHECK: pasta: access by_n 0:0 w stride-k stride=0 offset=4*%N*i<loop>
define void @by_n(ptr %a, i64 %n, i64 %N) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %j = mul nsw i64 %i, %N
  %p = getelementptr inbounds float, ptr %a, i64 %j
  store float 0.0, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; a[idx[i]] += 1: idx itself is read contiguously; a through loaded data.
; CHECK: pasta: access gather 0:0 r stride-1 stride=1 offset=4*i<loop>
; CHECK-NEXT: pasta: access gather 0:0 r indirect stride=0 offset=4*%k
; CHECK-NEXT: pasta: access gather 0:0 w indirect stride=0 offset=4*%k
define void @gather(ptr %a, ptr %idx, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds i32, ptr %idx, i64 %i
  %k = load i32, ptr %q
  %k.ext = sext i32 %k to i64
  %p = getelementptr inbounds float, ptr %a, i64 %k.ext
  %x = load float, ptr %p
  %y = fadd float %x, 1.0
  store float %y, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; a[0] += 1; a[m] = a[0]: the same addresses in every iteration.
; CHECK: pasta: access invariant 0:0 r constant stride=0 offset=0
; CHECK-NEXT: pasta: access invariant 0:0 w constant stride=0 offset=0
; CHECK-NEXT: pasta: access invariant 0:0 w constant stride=0 offset=4*%m
define void @invariant(ptr %a, i64 %n, i64 %m) {
entry:
  %pm = getelementptr inbounds float, ptr %a, i64 %m
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = load volatile float, ptr %a
  %y = fadd float %x, 1.0
  store volatile float %y, ptr %a
  store volatile float %y, ptr %pm
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; a[n-i] with 32-bit indices: contiguous, descending.
; CHECK: pasta: access descending 0:0 w stride-1 stride=-1 offset=4*%n - 4*i<loop>
define void @descending(ptr %a, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = sub nsw i32 %n, %i
  %j.ext = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr %a, i64 %j.ext
  store float 0.0, ptr %p
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; for i, for j: a[i] += b[4*j + i]. a[i] does not move with the inner loop,
; so the outer loop classifies it; b moves four elements per inner iteration.
; CHECK: pasta: access nested 0:0 r stride-k stride=4 offset=4*i<outer> + 16*i<inner>
; CHECK-NEXT: pasta: access nested 0:0 r stride-1 stride=1 offset=4*i<outer>
; CHECK-NEXT: pasta: access nested 0:0 w stride-1 stride=1 offset=4*i<outer>
define void @nested(ptr %a, ptr %b, i64 %n, i64 %m) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %j4 = shl nuw nsw i64 %j, 2
  %k = add nuw nsw i64 %j4, %i
  %pb = getelementptr inbounds float, ptr %b, i64 %k
  %x = load float, ptr %pb
  %y = load float, ptr %pa
  %z = fadd float %x, %y
  store float %z, ptr %pa
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %m
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %i.next = add nuw nsw i64 %i, 1
  %i.done = icmp eq i64 %i.next, %n
  br i1 %i.done, label %exit, label %outer

exit:
  ret void
}

; p[i].y = 0 for struct { float x, y, z, u, v, w; }: 24*i + 4 bytes, six
; 4-byte elements apart.
%struct.P = type { float, float, float, float, float, float }
; CHECK: pasta: access soa 0:0 w stride-k stride=6 offset=24*i<loop> + 4
define void @soa(ptr %p, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %y = getelementptr inbounds %struct.P, ptr %p, i64 %i, i32 1
  store float 0.0, ptr %y
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; s->data[i]: the base pointer is itself loaded from memory, which makes the
; access indirect although its offset is contiguous.
; CHECK: pasta: access loaded_base 0:0 r constant stride=0 offset=0
; CHECK-NEXT: pasta: access loaded_base 0:0 w indirect stride=0 offset=4*i<loop>
define void @loaded_base(ptr %s, i64 %n) {
entry:
  %data = load ptr, ptr %s
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr %data, i64 %i
  store float 0.0, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "unit.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "unit", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, column: 7, scope: !5)

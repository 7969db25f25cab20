; Device memcpy, memmove and memset of run-time length: one load of the
; source's space (copies) and one store of the destination's per thread and
; execution, and the bytes they move in a bytes counter per (block, line,
; kind, spaces), always measured and flushed with the block counters (NVPTX
; expands these intrinsics into loops after PASTA; docs/counting-conventions.md).
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; Divergence mode measures no figures for them (the loop NVPTX makes is not
; there yet) but its copy counts their bytes like the counting kernel:
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i8] zeroinitializer

; Counters: 0 launches, 1 entry, 2-4 the entry's bytes (lines 5, 6, 7),
; 5 the loop, 6 its bytes (line 9), 7 the threads (the entry is derived).
; SITES: pasta: func k kind=kernel calls=0
; SITES-NEXT: pasta: site memops.cu:5 func=k counter=1 bytes=2 ld.global=1 st.shared=1 ldB.global=1 stB.shared=1{{$}}
; SITES-NEXT: pasta: site memops.cu:6 func=k counter=1 bytes=3 ld.shared=1 st.global=1 ldB.shared=1 stB.global=1{{$}}
; SITES-NEXT: pasta: site memops.cu:7 func=k counter=1 bytes=4 st.local=1 stB.local=1{{$}}
; SITES-NEXT: pasta: site memops.cu:9 func=k counter=5 bytes=6 ld.global=1 st.global=1 ldB.global=1 stB.global=1{{$}}
; SITES-NEXT: pasta: derived 1 = +1*c7
; SITES-NEXT: pasta: module counters=16

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: add i64 0, %n
; CHECK-NEXT: call void @llvm.memcpy.p3.p0.i64(
; CHECK: [[M:%[0-9]+]] = zext i32 %m to i64
; CHECK-NEXT: add i64 0, [[M]]
; CHECK-NEXT: call void @llvm.memset.p5.i32(
; CHECK: loop:
; CHECK: [[NEXT:%[0-9]+]] = add i64 %pasta.count{{[0-9.]+}}, %n
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 %n, i1 false)
; The return flushes the bytes counters like block counters: no ballot
; skips them (they are rarely zero), and a large count takes the general
; path (the fast test sees it).
; CHECK: exit:
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: [[G:%[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 6
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) [[G]], i64 [[NEXT]])
; CHECK: [[S:%[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 6
; CHECK-NEXT: call void @__pasta_flush_counter(ptr addrspace(1) [[S]], i64 [[NEXT]])
; CHECK: ret void
; DIV-LABEL: define ptx_kernel void @k__pasta_div(
; DIV: add i64 %pasta.count{{[0-9.]+}}, %n
; DIV-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 %n, i1 false)
; DIV-NOT: call {{.*}}@__pasta_div_access({{.*}}%out
; DIV: ret void
define ptx_kernel void @k(ptr %in, ptr %out, i64 %n, i32 %m, i32 %k) !dbg !5 {
entry:
  %slot = alloca [64 x i8], align 1, addrspace(5)
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) @tile, ptr %in, i64 %n, i1 false), !dbg !10
  call void @llvm.memmove.p0.p3.i64(ptr %out, ptr addrspace(3) @tile, i64 %n, i1 false), !dbg !11
  call void @llvm.memset.p5.i32(ptr addrspace(5) %slot, i8 0, i32 %m, i1 false), !dbg !12
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 %n, i1 false), !dbg !13
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %k
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare void @llvm.memcpy.p3.p0.i64(ptr addrspace(3), ptr, i64, i1)
declare void @llvm.memmove.p0.p3.i64(ptr, ptr addrspace(3), i64, i1)
declare void @llvm.memset.p5.i32(ptr addrspace(5), i8, i32, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "memops.cu", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 4, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 5, scope: !5)
!11 = !DILocation(line: 6, scope: !5)
!12 = !DILocation(line: 7, scope: !5)
!13 = !DILocation(line: 9, scope: !5)

; With -pasta-divergence (PASTA_DIVERGENCE=1) every kernel and the device
; functions it reaches get a divergence copy, <name>__pasta_div: the counting
; code plus one __pasta_div_access per global, shared or generic access (its
; size, address space and whether it is a load/store), one __pasta_div_branch
; or __pasta_div_switch per conditional branch, one __pasta_div_block per
; block (its lines' instruction counts multiply the block's two registers at
; the flush), and a flush of every figure at each return. One divergence row
; per (function, line), PASTA_DIV_NUM (12) counters each, after the
; functions' own counters; code inlined from clang's wrapper headers counts
; at the line that used it. Without the option nothing of this is emitted.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=ROWS < %t.sites
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=NODIV
; RUN: env PASTA_DIVERGENCE=1 %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=ENV
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x double] zeroinitializer

define ptx_kernel void @k(ptr addrspace(1) %out, ptr %in, i32 %n) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %c = icmp slt i32 %n, %tid, !dbg !10
  br i1 %c, label %then, label %done, !dbg !10
then:
  %v = call float @load_it(ptr %in), !dbg !11
  store double 1.0, ptr addrspace(3) @tile, !dbg !12
  store float %v, ptr addrspace(1) %out, !dbg !13
  %old = atomicrmw add ptr addrspace(1) %out, i32 1 monotonic, !dbg !13
  switch i32 %n, label %done [ i32 1, label %done ], !dbg !14
done:
  ret void, !dbg !15
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal float @load_it(ptr %p) noinline !dbg !20 {
entry:
  %v = load float, ptr %p, !dbg !21
  ret float %v, !dbg !21
}

; The counting kernel measures nothing.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: __pasta_div
; CHECK: ret void

; The divergence copy: same parameters, a kernel, one register per figure.
; CHECK-LABEL: define ptx_kernel void @k__pasta_div(ptr addrspace(1) %out, ptr %in, i32 %n)
; CHECK: alloca i64
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: call void @__pasta_div_branch(i32 %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
; CHECK-NEXT: br i1 %c
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw1, ptr %pasta.div.bt2)
; CHECK: call float @load_it__pasta_div(ptr %in)
; Shared (3), 8 bytes, a store; global (1) 4 bytes store; the atomic: not
; sectored (0). Figures an access cannot produce (the other space's; sectors
; and conflicts of an atomic) go to a register that is never flushed.
; CHECK: call void @__pasta_div_access(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i32 8, i32 3, i32 1, ptr %pasta.div.none, ptr %[[RS:[^,]+]], ptr %[[B:[^,]+]], ptr %pasta.div.none, ptr %[[DS:[^,]+]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[BC:[^,)]+]])
; CHECK: call void @__pasta_div_access(ptr %{{.*}}, i32 4, i32 1, i32 1, ptr %[[RG:[^,]+]], ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %[[DG:[^,]+]], ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none)
; CHECK: call void @__pasta_div_access(ptr %{{.*}}, i32 4, i32 1, i32 0, ptr %[[RG]], ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %[[DG]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none)
; CHECK: call void @__pasta_div_switch(i64 %{{.*}}, ptr
; CHECK-NEXT: switch i32 %n
; At the return, after the counting flush: the divergence figures' fast
; path inline (a warp sum and a `red` per figure; a warp sum per block
; register, and a `red` per line of their combination), and the general
; path, each row's 12 figures staged for the out-of-line __pasta_flush. The
; counting flush before it has only bits: its test is a full warp.
; CHECK: call i64 @__pasta_flush_is_full_warp(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{.*}}, i64 %{{.*}})
; CHECK-NOT: __pasta_flush_counter_fast(ptr addrspace(1) %{{.*}}, i64 %pasta.div.none
; CHECK: call i64 @__pasta_flush_sum_fast(i64 %{{.*}})
; CHECK: call void @__pasta_flush_add_sum(ptr addrspace(1) %{{.*}}, i64 %{{.*}})
; CHECK: store i64 %{{.*}}, ptr %{{.*}}
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, ptr %pasta.div.flush, i32 12)
; CHECK: ret void

; The device function's copy: a generic (0) load of 4 bytes, flushed.
; CHECK-LABEL: define internal float @load_it__pasta_div(ptr %p)
; CHECK: call void @__pasta_div_access(ptr %p, i32 4, i32 0, i32 1,
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, ptr %pasta.div.flush, i32 12)
; CHECK: ret float

; ROWS-NOT: __clang_cuda_builtin_vars.h
; ROWS: pasta: div k.cu:3 func=k counters=[[R0:[0-9]+]]..
; ROWS: pasta: div k.cu:4 func=k
; ROWS: pasta: div k.cu:5 func=k
; ROWS: pasta: div k.cu:6 func=k
; ROWS: pasta: div k.cu:7 func=k
; ROWS: pasta: div k.cu:8 func=k
; ROWS: pasta: div k.cu:21 func=load_it
; ROWS-NOT: __clang_cuda_builtin_vars.h

; NODIV: i32 0, i32 0, i64 ptrtoint (ptr addrspace(1) @__pasta_div_rows_
; NODIV-NOT: __pasta_div_{{access|branch|switch|block}}
; NODIV-NOT: @k__pasta_div
; ENV: define ptx_kernel void @k__pasta_div(

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!20 = distinct !DISubprogram(name: "load_it", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 21, scope: !20)
; threadIdx.x's getter, inlined from clang's header into line 3.
!16 = !DILocation(line: 70, scope: !17, inlinedAt: !10)
!17 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !18, file: !18, line: 70, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!18 = !DIFile(filename: "__clang_cuda_builtin_vars.h", directory: "/usr/lib/llvm-22/lib/clang/22/include")

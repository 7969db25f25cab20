; With -pasta-divergence (PASTA_DIVERGENCE=1) every kernel and the device
; functions it reaches get a divergence copy, <name>__pasta_div: the counting
; code plus one __pasta_div_access per global, shared or generic access (its
; size, address space and whether it is a load/store), one __pasta_div_branch
; or __pasta_div_switch per conditional branch, one __pasta_div_block per
; block (its lines' instruction counts times its figures). One divergence
; row per (function, line), PASTA_DIV_NUM (12) counters each, after the
; functions' own counters; code inlined from clang's wrapper headers counts
; at the line that used it. Code outside loops (all of it here) adds each
; figure to its counter where it was measured (__pasta_div_add, the lane
; that measured it), so no register is flushed at the return; loops:
; nvptx-divergence-loops.ll. Without the option nothing of this is emitted.
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

; The divergence copy: same parameters, a kernel. The entry block's lanes
; (line 3, three instructions) go to row 3's warp and thread executions
; (counters 12 + 10 and 12 + 11 of this thread block's row).
; CHECK-LABEL: define ptx_kernel void @k__pasta_div(ptr addrspace(1) %out, ptr %in, i32 %n)
; CHECK: call void @__pasta_div_block(i32 1, ptr %[[W:pasta.div.t[0-9]*]], ptr %[[T:pasta.div.t[0-9]*]])
; CHECK-NEXT: %[[WV:.*]] = load i64, ptr %[[W]]
; CHECK-NEXT: %[[TV:.*]] = load i64, ptr %[[T]]
; CHECK-NEXT: %[[W3:.*]] = mul i64 %[[WV]], 3
; CHECK-NEXT: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 96, i32 4096)
; CHECK-NEXT: %[[C22:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 22
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C22]], i64 %[[W3]])
; CHECK-NEXT: %[[T3:.*]] = mul i64 %[[TV]], 3
; CHECK-NEXT: %[[C23:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 23
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C23]], i64 %[[T3]])
; The branch: its two figures to row 3's branch counters (12 + 8, 12 + 9).
; CHECK: %[[FOLLOW:.*]] = call i32 @__pasta_div_lanes_follow_x()
; CHECK: call void @__pasta_div_branch(i32 %{{.*}}, ptr %[[W]], ptr %[[T]])
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 20
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 21
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK-NEXT: br i1 %c
; CHECK: call void @__pasta_div_block(i32 1,
; CHECK: call float @load_it__pasta_div(ptr %in)
; Shared (3), 8 bytes, a store; global (1) 4 bytes store; the atomic: not
; sectored (0). Figures an access cannot produce (the other space's; sectors
; and conflicts of an atomic) go to a register that is never read. The
; shared store adds row 5's shared requests, bytes, shared distinct bytes
; and conflicts (36 + 1, 2, 4, 7). All three addresses are the same in every
; lane (stride 0 per thread index x): __pasta_div_access_lanes, with the
; entry's test that the lanes follow x.
; CHECK: call void @__pasta_div_access_lanes(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i32 8, i32 0, i32 3, i32 1, i32 %[[FOLLOW]], ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[^,)]+}})
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 37
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 38
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 40
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 43
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK-NEXT: store double
; CHECK: call void @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 1, i32 %[[FOLLOW]], ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none)
; CHECK-COUNT-5: call void @__pasta_div_add(
; CHECK-NEXT: store float %v
; CHECK: call void @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 0, i32 %[[FOLLOW]], ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none)
; CHECK-COUNT-3: call void @__pasta_div_add(
; CHECK-NEXT: atomicrmw add
; CHECK: call void @__pasta_div_switch(i64 %{{.*}}, ptr
; CHECK: switch i32 %n
; At the return only the counting flush (`n < tid` is alike in every
; block, but a divergence copy flushes it from every warp, scale 1): no
; divergence register is left.
; CHECK-NOT: @__pasta_first_block_scale(
; CHECK: call void @__pasta_flush_bits_scaled({{.*}}, i64 1)
; CHECK-NOT: @__pasta_flush_is_fast(
; CHECK-NOT: @__pasta_flush(
; CHECK: ret void

; The device function's copy: a generic (0) load of 4 bytes, all eight
; figures added where measured; its parameter may differ between lanes (a
; device function's are not known to be uniform): the general helper.
; CHECK-LABEL: define internal float @load_it__pasta_div(ptr %p)
; CHECK: call void @__pasta_div_access(ptr %p, i32 4, i32 0, i32 1,
; CHECK-COUNT-8: call void @__pasta_div_add(
; CHECK-NOT: @__pasta_flush(
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

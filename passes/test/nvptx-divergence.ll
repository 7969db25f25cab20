; With -pasta-divergence (PASTA_DIVERGENCE=1) every kernel and the device
; functions it reaches get a divergence copy, <name>__pasta_div: the counting
; code plus one __pasta_div_access per global, shared or generic access (its
; size, address space and whether it is a load/store), one __pasta_div_branch
; or __pasta_div_switch per conditional branch, one __pasta_div_block per
; block (two counters of its own, from which its lines' instruction
; figures, its branch's executions and its accesses' requests and bytes are
; derived at read-back). One divergence
; row per (function, line), PASTA_DIV_NUM (12) counters each, after the
; functions' own counters; code inlined from clang's wrapper headers counts
; at the line that used it. Code outside loops (all of it here) adds each
; figure to its counter where it was measured (__pasta_div_add, the lane
; that measured it), so no register is flushed at the return; loops:
; nvptx-divergence-loops.ll. Without the option nothing of this is emitted.
; Its accesses of one address in every lane are measured here, to test the
; measuring code (-pasta-div-derive-whole=0; by default their figures are
; derived: nvptx-divergence-uniform.ll).
; Every block is measured here too (-pasta-div-derive-bodies=0; if-then
; bodies derived from their branch: nvptx-divergence-bodies.ll).
; -pasta-div-derive-returns=0: the kernels' returns are measured here as any
; block (nvptx-divergence-sole-return.ll tests the derived ones).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-div-derive-lane-affine=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-callee-counts=0 -pasta-div-derive-bodies=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=ROWS < %t.sites
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=NODIV
; RUN: env PASTA_DIVERGENCE=1 %opt -passes=pasta-count -pasta-callee-counts=0 -pasta-div-derive-whole=0 -pasta-div-derive-lane-affine=0 -pasta-div-derive-bodies=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -S %s | FileCheck %s --check-prefix=ENV
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
  switch i32 %tid, label %done [ i32 1, label %done ], !dbg !14
done:
  ret void, !dbg !15
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

@llvm.used = appending global [1 x ptr] [ptr @load_it], section "llvm.metadata"

define internal float @load_it(ptr %p) noinline !dbg !20 {
entry:
  %v = load float, ptr %p, !dbg !21
  ret float %v, !dbg !21
}

; The counting kernel measures nothing.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: __pasta_div
; CHECK: ret void

; The divergence copy: same parameters, a kernel. Each block measures its
; warp-level executions and their active lanes once, into counters of its
; own, but for the active lanes of blocks the counting code counts (their
; thread-level executions); the figures of its lines, its branch and its
; accesses' requests and bytes follow from them at read-back (the ROWS
; checks below). The entry's (24 and 25 of this thread block's row) are
; the warps and threads of the launch, added once by the grid's first
; thread (__pasta_div_count_launch): no warp measures them.
; Outside loops the first active lane adds straight to the counters: the
; block, branch and switch helpers take the counters themselves (*_add), no
; register.
; CHECK-LABEL: define ptx_kernel void @k__pasta_div(ptr addrspace(1) %out, ptr %in, i32 %n)
; CHECK: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 112, i32 4096)
; CHECK-NEXT: %[[C24:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 24
; CHECK-NEXT: %[[C25:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 25
; CHECK-NEXT: call void @__pasta_div_count_launch(ptr addrspace(1) %[[C24]], ptr addrspace(1) %[[C25]])
; CHECK-NOT: call void @__pasta_div_block_add(ptr addrspace(1) %[[C24]]
; The branch: only whether it diverged, to row 3's counter 12 + 9.
; CHECK: %[[WIDTH:.*]] = call i32 @__pasta_div_row_width()
; CHECK: %[[C21:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 21
; CHECK-NEXT: call void @__pasta_div_branch_add(i32 %{{.*}}, ptr addrspace(1) %[[C21]])
; CHECK-NEXT: br i1 %c
; `then`: its warp executions only (74; no active lanes: with_threads 0).
; CHECK: %[[C74:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 74
; CHECK-NEXT: call void @__pasta_div_block_add(ptr addrspace(1) %[[C74]], ptr addrspace(1) %[[C74]], i32 0)
; CHECK-NEXT: or i32
; The code after the call is a segment of its own (the callee may bring
; lanes that came in apart back together): its warp executions (75) are
; counted right after the call, and the stores', the atomic's and the
; switch's figures are derived from them.
; CHECK: call float @load_it__pasta_div(ptr %in)
; CHECK-NEXT: %[[C75:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 75
; CHECK-NEXT: call void @__pasta_div_block_add(ptr addrspace(1) %[[C75]], ptr addrspace(1) %[[C75]], i32 0)
; Shared (3), 8 bytes, a store; global (1) 4 bytes store; the atomic: not
; sectored (0). Figures an access need not produce (requests and bytes,
; derived; the other space's; sectors and conflicts of an atomic) go to a
; register that is never read. The shared store adds row 5's shared
; distinct bytes and conflicts (38 + 4, 7). All three addresses are the
; same in every lane (stride 0 per thread index x): __pasta_div_access_lanes,
; with the warp's row width, read at the entry. Its figures are added only
; where it returns nonzero (a lane added to its registers): a warp whose
; figures are all derived skips every add.
; CHECK: %[[ADDED:.*]] = call i32 @__pasta_div_access_lanes(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i32 8, i32 0, i32 3, i32 1, i32 %[[WIDTH]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[^,)]+}})
; CHECK-NEXT: %[[ANY:.*]] = icmp ne i32 %[[ADDED]], 0
; CHECK-NEXT: br i1 %[[ANY]], label %[[ADD:.*]], label %[[AFTER:[^,]*]]
; CHECK: [[ADD]]:
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 42
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 45
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: store double
; The global store: distinct bytes, sectors, ideal sectors (50 + 3, 5, 6).
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 1, i32 %[[WIDTH]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %pasta.div.none)
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 53
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 55
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 56
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK-NEXT: br label
; CHECK: store float %v
; The atomic: distinct bytes only.
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 0, i32 %[[WIDTH]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[^,]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none)
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 53
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK-NEXT: br label
; CHECK: atomicrmw add
; CHECK: %[[C71:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 71
; CHECK-NEXT: call void @__pasta_div_switch_add(i64 %{{.*}}, ptr addrspace(1) %[[C71]])
; CHECK: switch i32 %tid
; At the return only the counting flush (`n < tid` is alike in every
; block: the first thread block flushes it, times the grid's blocks, through
; the inline form): no divergence register is left.
; CHECK: %[[SCALE:[0-9]+]] = call i64 @__pasta_first_block_scale()
; CHECK: call void @__pasta_flush_bits_scaled_inline({{.*}}, i64 %[[SCALE]])
; CHECK-NOT: @__pasta_flush_is_fast(
; CHECK-NOT: @__pasta_flush(
; CHECK: ret void

; The device function's copy (load_it is in llvm.used: it may be called
; from anywhere, so its parameter's space is unknown; one only called with
; its callers' global pointers: nvptx-divergence-callee-space.ll): a
; generic (0) load of 4 bytes, all eight
; figures added where measured, under one test of what the helper returns;
; its parameter may differ between lanes (a
; device function's are not known to be uniform): the general helper,
; just after the load (nvptx-divergence-after-load.ll).
; CHECK-LABEL: define internal float @load_it__pasta_div(ptr %p)
; CHECK: %[[PWIDTH:[^ ]+]] = call i32 @__pasta_div_row_width()
; CHECK: load float
; CHECK: call i32 @__pasta_div_access(ptr %p, i32 4, i32 16, i32 1, i32 %[[PWIDTH]],
; CHECK-COUNT-8: call void @__pasta_div_add(
; CHECK-NEXT: br label
; CHECK-NOT: @__pasta_flush(
; CHECK: ret float

; What the blocks' counters give at read-back (counter += coeff * block
; counter). The entry (warp executions 24, active lanes 25: the counting
; code has no counter of its own for it): line 3's three instructions (row
; 12: warp and thread executions 22, 23) and its branch's executions (20).
; `then` (warp executions 74; its active lanes are the counting code's
; count of the block, counter 1): lines 4 to 7 (row 26 one instruction:
; 36, 37; row 38: 48, 49; row 50 two: 60, 61; row 62: 72, 73); after the
; call (75): the switch's executions (70), the shared store's request and
; 8 bytes (39, 40), the global store's and the atomic's (50, 52, twice).
; `done` (88, 89); load_it's block (102 and the counting code's 3, itself
; derived from counter 2 by the row before). The device function's load is generic: its
; requests and bytes are measured, per space.
; ROWS: pasta: derived 3 = +1*c2
; ROWS: pasta: derived 22 = +3*c24
; ROWS-NEXT: pasta: derived 23 = +3*c25
; ROWS-NEXT: pasta: derived 20 = +1*c24
; ROWS-NEXT: pasta: derived 36 = +1*c74
; ROWS-NEXT: pasta: derived 37 = +1*c1
; ROWS-NEXT: pasta: derived 48 = +1*c74
; ROWS-NEXT: pasta: derived 49 = +1*c1
; ROWS-NEXT: pasta: derived 60 = +2*c74
; ROWS-NEXT: pasta: derived 61 = +2*c1
; ROWS-NEXT: pasta: derived 72 = +1*c74
; ROWS-NEXT: pasta: derived 73 = +1*c1
; ROWS-NEXT: pasta: derived 70 = +1*c75
; ROWS-NEXT: pasta: derived 39 = +1*c75
; ROWS-NEXT: pasta: derived 40 = +8*c1
; ROWS-NEXT: pasta: derived 50 = +1*c75
; ROWS-NEXT: pasta: derived 52 = +4*c1
; ROWS-NEXT: pasta: derived 50 = +1*c75
; ROWS-NEXT: pasta: derived 52 = +4*c1
; ROWS-NEXT: pasta: derived 86 = +1*c88
; ROWS-NEXT: pasta: derived 87 = +1*c89
; ROWS-NEXT: pasta: derived 100 = +2*c102
; ROWS-NEXT: pasta: derived 101 = +2*c3
; Then, from the copy, what the lane shape gives (stride 0 here: the same
; element in every lane; __pasta_div_access_lanes adds only the rest): the
; shared store's 8 distinct bytes per execution (42), the global store's 4,
; one sector and one ideal sector (53, 55, 56), the atomic's 4 (53).
; ROWS-NEXT: pasta: derived 42 = +8*c75
; ROWS-NEXT: pasta: derived 53 = +4*c75
; ROWS-NEXT: pasta: derived 55 = +1*c75
; ROWS-NEXT: pasta: derived 56 = +1*c75
; ROWS-NEXT: pasta: derived 53 = +4*c75
; ROWS-NOT: __clang_cuda_builtin_vars.h
; ROWS: pasta: div k.cu:3 func=k counters=12..23
; ROWS: pasta: div k.cu:4 func=k counters=26..37
; ROWS: pasta: div k.cu:5 func=k counters=38..49
; ROWS: pasta: div k.cu:6 func=k counters=50..61
; ROWS: pasta: div k.cu:7 func=k counters=62..73
; ROWS: pasta: div k.cu:8 func=k counters=76..87
; ROWS: pasta: div k.cu:21 func=load_it counters=90..101
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

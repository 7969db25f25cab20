; Inline PTX that the session-17 review found miscounted or untracked
; (InlineAsmMemory.h):
; - a bulk copy (2,048 bytes, many pages): working-set mode sets one flag
;   per access, which marked only its first page; now its own call after
;   it (__pasta_ws_mark_range) marks every page of its bytes, and no flag
;   of a batch stands for it. A load whose address is integer arithmetic on
;   a pointer ("l"((size_t)p + 16 * i): the pointer's page is not the
;   access's) is counted but not tracked, and a working-set build says so.
;   Before, it went unnamed.
; - a label glued to its instruction ("L1:ld.global.u32") hides a load
;   that a branch may repeat: the statement is opaque (not counted, named).
;   Before, 'glued' counted one load of its two and 'gluedonly' none,
;   neither named.
; - cp.async.bulk.commit_group / wait_group[.read] and
;   cp.async.mbarrier.arrive move no data: not named. Before, 'waits' was.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s -o %t.ll 2>%t.err
; RUN: FileCheck --check-prefix=ERR %s < %t.err
; RUN: FileCheck %s < %t.ll
; Without working-set copies, nothing to say about the working set:
; RUN: env PASTA_VARIANTS=plain %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=PLAIN %s

; ERR: warning: pasta: inline assembly that loads, stores or copies memory is not counted (its accesses and bytes are missing from the profile) in 'glued', 'gluedonly'{{$}}
; ERR: warning: pasta: global accesses written in inline PTX are counted but their pages are missing from the working set (addresses computed from integers, two in one statement) in 'intaddr'{{$}}
; PLAIN-NOT: missing from the working set

; 'bulk': the 4-byte load and the bulk copy both count and have access
; rows.
; ERR: pasta: site rv.cu:10 func=bulk counter=1 ld.global=1 ldB.global=4{{$}}
; ERR-NEXT: pasta: site rv.cu:11 func=bulk counter=1 ld.global=1 st.shared=1 ldB.global=2048 stB.shared=2048{{$}}
; 'intaddr': counted, no access row.
; ERR: pasta: site rv.cu:20 func=intaddr counter={{[0-9]+}} ld.global=1 ldB.global=4{{$}}
; 'glued', 'gluedonly', 'waits': no memory site.
; ERR-NOT: pasta: site rv.cu:{{[345]}}0
; ERR: pasta: access site=0 scope=0 r constant stride=0 param=0 bytes=4 line=10
; ERR-NEXT: pasta: access site=1 scope=0 r constant stride=0 param=0 bytes=2048 line=11
; ERR-NOT: pasta: access

; The working-set copy of 'bulk' marks the load's page through a flag, the
; copy's 2,048 bytes' pages with their own call after it (site 1, generic).
; CHECK-LABEL: define ptx_kernel void @bulk__pasta_ws(
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %in)
; CHECK: cp.async.bulk.shared::cluster
; CHECK-NOT: @__pasta_ws_flag
; CHECK-NEXT: call void @__pasta_ws_mark_range(ptr addrspace(1) %{{.*}}, ptr %in, i32 2048, i32 1, i32 1), !dbg [[LINE11:![0-9]+]]
; CHECK-NOT: @__pasta_ws_flag
; CHECK: ret void
; CHECK-LABEL: define ptx_kernel void @intaddr__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK-NOT: @__pasta_ws_mark
; CHECK: ret void
; CHECK: [[LINE11]] = !DILocation(line: 11,

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @bulk(ptr %in) !dbg !5 {
  %v = call i32 asm sideeffect "ld.global.u32 $0, [$1];", "=r,l"(ptr %in), !dbg !10
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], 2048, [$2];", "r,l,r,~{memory}"(i32 0, ptr %in, i32 4096), !dbg !11
  ret void, !dbg !10
}

define ptx_kernel void @intaddr(ptr %in, i64 %i) !dbg !6 {
  %a = ptrtoint ptr %in to i64, !dbg !20
  %o = shl i64 %i, 4, !dbg !20
  %b = add i64 %a, %o, !dbg !20
  %v = call i32 asm sideeffect "ld.global.u32 $0, [$1];", "=r,l"(i64 %b), !dbg !20
  ret void, !dbg !20
}

define ptx_kernel void @glued(ptr %a, ptr %b) !dbg !7 {
  %v = call { i32, i32 } asm sideeffect "ld.global.u32 $0, [$2];\0AL1:ld.global.u32 $1, [$3];", "=r,=r,l,l"(ptr %a, ptr %b), !dbg !30
  ret void, !dbg !30
}

define ptx_kernel void @gluedonly(ptr %a) !dbg !8 {
  %v = call i32 asm sideeffect "L1:ld.global.u32 $0, [$1];", "=r,l"(ptr %a), !dbg !40
  ret void, !dbg !40
}

define ptx_kernel void @waits(i32 %bar) !dbg !9 {
  call void asm sideeffect "cp.async.bulk.commit_group;\0Acp.async.bulk.wait_group.read 0;\0Acp.async.bulk.wait_group 0;\0Acp.async.mbarrier.arrive.noinc.shared.b64 [$0];", "r,~{memory}"(i32 %bar), !dbg !50
  ret void, !dbg !50
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "rv.cu", directory: "")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "bulk", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = distinct !DISubprogram(name: "intaddr", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!7 = distinct !DISubprogram(name: "glued", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!8 = distinct !DISubprogram(name: "gluedonly", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!9 = distinct !DISubprogram(name: "waits", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 10, column: 3, scope: !5)
!11 = !DILocation(line: 11, column: 3, scope: !5)
!20 = !DILocation(line: 20, column: 3, scope: !6)
!30 = !DILocation(line: 30, column: 3, scope: !7)
!40 = !DILocation(line: 40, column: 3, scope: !8)
!50 = !DILocation(line: 50, column: 3, scope: !9)

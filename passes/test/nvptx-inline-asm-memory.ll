; Loads, stores and copies written in inline PTX, in the forms PASTA names
; exactly (InlineAsmMemory.h), are counted like ordinary accesses: one
; execution per thread, the bytes from the instruction's type and vector
; width (not the operand registers: `.u8` into a 16-bit register is 1
; byte), the space from the instruction (`.global`, `.shared`) or, where it
; names none (CUB's ThreadLoad<LOAD_CG> is `ld.cg`), from the address as an
; ordinary access's, resolved at run time where the pass cannot tell.
; cp.async is a global load of its source size and a shared store of its
; copy size; ldmatrix a shared load of 4 bytes per matrix a lane. None is
; named by the compile-time warning. Before this, none was counted (every
; site below but line 13's pointer load was missing) and the warning named
; the kernel.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s -o %t.ll 2>%t.sites
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck --check-prefix=NOWARN %s < %t.sites
; Divergence mode measures no figures for them (as for memory-copy calls),
; and says so at compile time, but its copy counts them like the counting
; kernel:
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-print-sites -pasta-link-runtime=0 -S %s -o - 2>%t.div.sites | FileCheck --check-prefix=DIV %s
; RUN: FileCheck --check-prefix=SITES %s < %t.div.sites
; RUN: FileCheck --check-prefix=DIVWARN %s < %t.div.sites
; NOWARN-NOT: warning
; DIVWARN: warning: pasta: loads, stores and copies written in inline PTX are counted but not measured in divergence mode (no requests, sectors or bank conflicts of theirs in the figures) in 'k'{{$}}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Per thread, by line (all in the entry block: counter 1):
;  10 __ldcs(float4): ld.global.cs.v4.f32       1 global load, 4 x 4 = 16 B
;  11 CUB LOAD_LDG uint4: ld.global.nc.v4.u32   1 global load, 16 B
;  12 CUB LOAD_CG uchar: { .reg; ld.cg.u8; cvt } no space: the address is
;     the kernel's argument %in, global       1 global load, 1 B
;  13 a pointer loaded from %pp (a kernel argument: global, 8 B), then
;     ld.cg.u32 through it: generic, resolved at run time (dyn=2: the
;     counters after the block's own)         1 generic load, 4 B
;  14 __stcs(float2): st.global.cs.v2.f32       1 global store, 2 x 4 = 8 B
;  15 cp.async.ca ... 4                         1 global load 4 B,
;                                               1 shared store 4 B
;  16 cp.async.cg.shared.global.L2::128B ... 16, 8 (source size 8: the rest
;     zero-filled)                             1 global load 8 B,
;                                               1 shared store 16 B
;  17 cp.async.commit_group; cp.async.wait_group 0: no memory, no site
;  18 ldmatrix .x1                              1 shared load, 4 B
;  19 ldmatrix .m8n8.x2.trans                   1 shared load, 8 B
;  20 ldmatrix .x4                              1 shared load, 16 B
;  21 ld.shared.v2.u64 through a 32-bit shared address: 1 shared load, 16 B
;  22 st.global.wb.u8 (an 8-bit store from a 16-bit register): 1 global
;     store, 1 B
;  23 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes of
;     2,048 B (an "n" operand; libcu++'s memcpy_async on sm_90): 1 global
;     load 2,048 B, 1 shared store 2,048 B
;  24 cp.async.bulk.global.shared::cta.bulk_group of 512 B (an immediate):
;     1 shared load 512 B, 1 global store 512 B
;  26 libcu++'s cp.async.ca [$0], [$1], $2, $2 (size an "n" operand, the
;     source an integer: __cvta_generic_to_global's ptrtoint of %in in
;     the global space): 1 global load 8 B, 1 shared store 8 B; working set
;     and the access table take the pointer the integer was made from
; SITES-NOT: warning: pasta: inline assembly
; SITES: pasta: func k kind=kernel calls=0
; SITES-NEXT: pasta: site asm.cu:10 func=k counter=1 ld.global=1 ldB.global=16{{$}}
; SITES-NEXT: pasta: site asm.cu:11 func=k counter=1 ld.global=1 ldB.global=16{{$}}
; SITES-NEXT: pasta: site asm.cu:12 func=k counter=1 ld.global=1 ldB.global=1{{$}}
; SITES-NEXT: pasta: site asm.cu:13 func=k counter=1 dyn=2 ld.global=1 ld.generic=1 ldB.global=8 ldB.generic=4{{$}}
; SITES-NEXT: pasta: site asm.cu:14 func=k counter=1 st.global=1 stB.global=8{{$}}
; SITES-NEXT: pasta: site asm.cu:15 func=k counter=1 ld.global=1 st.shared=1 ldB.global=4 stB.shared=4{{$}}
; SITES-NEXT: pasta: site asm.cu:16 func=k counter=1 ld.global=1 st.shared=1 ldB.global=8 stB.shared=16{{$}}
; SITES-NEXT: pasta: site asm.cu:18 func=k counter=1 ld.shared=1 ldB.shared=4{{$}}
; SITES-NEXT: pasta: site asm.cu:19 func=k counter=1 ld.shared=1 ldB.shared=8{{$}}
; SITES-NEXT: pasta: site asm.cu:20 func=k counter=1 ld.shared=1 ldB.shared=16{{$}}
; SITES-NEXT: pasta: site asm.cu:21 func=k counter=1 ld.shared=1 ldB.shared=16{{$}}
; SITES-NEXT: pasta: site asm.cu:22 func=k counter=1 st.global=1 stB.global=1{{$}}
; SITES-NEXT: pasta: site asm.cu:23 func=k counter=1 ld.global=1 st.shared=1 ldB.global=2048 stB.shared=2048{{$}}
; SITES-NEXT: pasta: site asm.cu:24 func=k counter=1 ld.shared=1 st.global=1 ldB.shared=512 stB.global=512{{$}}
; SITES-NEXT: pasta: site asm.cu:26 func=k counter=1 ld.global=1 st.shared=1 ldB.global=8 stB.shared=8{{$}}
; The access table (what working-set mode tracks, classified): one row per
; global or generic access through a pointer, loads 'r', stores 'w', with
; the instruction's bytes (a cp.async's source size); the shared ones have
; none, as ordinary shared accesses.
; SITES: pasta: access site=0 scope=0 r constant stride=0 param=0 bytes=16 line=10
; SITES-NEXT: pasta: access site=1 scope=0 r constant stride=0 param=0 bytes=16 line=11
; SITES-NEXT: pasta: access site=2 scope=0 r constant stride=0 param=0 bytes=1 line=12
; SITES-NEXT: pasta: access site=3 scope=0 r constant stride=0 param=2 bytes=8 line=13
; SITES-NEXT: pasta: access site=3 scope=0 r indirect stride=0 param=none bytes=4 line=13
; SITES-NEXT: pasta: access site=4 scope=0 w constant stride=0 param=1 bytes=8 line=14
; SITES-NEXT: pasta: access site=5 scope=0 r constant stride=0 param=0 bytes=4 line=15
; SITES-NEXT: pasta: access site=6 scope=0 r constant stride=0 param=0 bytes=8 line=16
; SITES-NEXT: pasta: access site=11 scope=0 w constant stride=0 param=1 bytes=1 line=22
; SITES-NEXT: pasta: access site=12 scope=0 r constant stride=0 param=0 bytes=2048 line=23
; SITES-NEXT: pasta: access site=13 scope=0 w constant stride=0 param=1 bytes=512 line=24
; SITES-NEXT: pasta: access site=14 scope=0 r constant stride=0 param=0 bytes=8 line=26
; SITES-NOT: pasta: access

; The generic load's space is asked at run time, in front of it:
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %p = load ptr, ptr %pp
; CHECK-NEXT: call i64 @__pasta_is_shared(ptr %p)
; CHECK-NEXT: call i64 @__pasta_is_local(ptr %p)
; CHECK: call i32 asm sideeffect "ld.cg.u32 $0, [$1];"
; The working-set copy marks the pages of the global accesses' addresses
; (%in, the loaded %p and %out), as it does an ordinary access's; a bulk
; copy's pages from its first byte's to its last's, after it, on its own
; (__pasta_ws_mark_range: the state, the address, the bytes, the site, 1
; for a generic address), not by its first byte's flag:
; CHECK-LABEL: define ptx_kernel void @k__pasta_ws(
; CHECK: asm "ld.global.cs.v4.f32
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %in)
; CHECK: call i64 @__pasta_ws_flag({{.*}}, ptr %p,
; CHECK: asm sideeffect "st.global.cs.v2.f32
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %out)
; CHECK: cvt.u8.u16 datum, $1;    st.global.wb.u8
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %out)
; CHECK: cp.async.bulk.shared::cluster.global
; CHECK-NEXT: call void @__pasta_ws_mark_range(ptr addrspace(1) %{{.*}}, ptr %in, i32 2048, i32 12, i32 1)
; CHECK: cp.async.bulk.global.shared::cta
; CHECK-NEXT: call void @__pasta_ws_mark_range(ptr addrspace(1) %{{.*}}, ptr %out, i32 512, i32 13, i32 1)
; CHECK: cp.async.ca.shared.global [$0], [$1], $2, $2;
; CHECK: [[GIN:%[0-9]+]] = addrspacecast ptr addrspace(1) %gin to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg({{.*}}, ptr [[GIN]])
; CHECK: ret void

; DIV-LABEL: define ptx_kernel void @k__pasta_div(
; DIV-NOT: @__pasta_div_access
; DIV: ret void
define ptx_kernel void @k(ptr %in, ptr %out, ptr %pp) !dbg !5 {
entry:
  %v = call { float, float, float, float } asm "ld.global.cs.v4.f32 {$0,$1,$2,$3}, [$4];", "=f,=f,=f,=f,l"(ptr %in), !dbg !10
  %u = call { i32, i32, i32, i32 } asm sideeffect "ld.global.nc.v4.u32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr %in), !dbg !11
  %b = call i16 asm sideeffect "{   .reg .u8 datum;    ld.cg.u8 datum, [$1];    cvt.u16.u8 $0, datum;}", "=h,l"(ptr %in), !dbg !12
  %p = load ptr, ptr %pp, !dbg !13
  %c = call i32 asm sideeffect "ld.cg.u32 $0, [$1];", "=r,l"(ptr %p), !dbg !13
  call void asm sideeffect "st.global.cs.v2.f32 [$0], {$1,$2};", "l,f,f,~{memory}"(ptr %out, float 1.0, float 2.0), !dbg !14
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], 4;\0A", "r,l,~{memory}"(i32 0, ptr %in), !dbg !15
  call void asm sideeffect "cp.async.cg.shared.global.L2::128B [$0], [$1], 16, $2;\0A", "r,l,n,~{memory}"(i32 16, ptr %in, i32 8), !dbg !16
  call void asm sideeffect "cp.async.commit_group;\0Acp.async.wait_group 0;\0A", "~{memory}"(), !dbg !17
  %m1 = call i32 asm sideeffect "ldmatrix.sync.aligned.x1.m8n8.shared.b16 {$0}, [$1];\0A", "=r,r"(i32 0), !dbg !18
  %m2 = call { i32, i32 } asm sideeffect "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {$0, $1}, [$2];\0A", "=r,=r,r"(i32 0), !dbg !19
  %m4 = call { i32, i32, i32, i32 } asm sideeffect "ldmatrix.sync.aligned.x4.m8n8.shared.b16 {$0, $1, $2, $3}, [$4];\0A", "=r,=r,=r,=r,r"(i32 0), !dbg !20
  %s = call { i64, i64 } asm sideeffect "ld.shared.v2.u64 {$0, $1}, [$2];", "=l,=l,r"(i32 64), !dbg !21
  call void asm sideeffect "{   .reg .u8 datum;    cvt.u8.u16 datum, $1;    st.global.wb.u8 [$0], datum;}", "l,h,~{memory}"(ptr %out, i16 7), !dbg !22
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}"(i32 0, ptr %in, i32 2048, i32 4096), !dbg !24
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], 512;", "l,r,~{memory}"(ptr %out, i32 0), !dbg !25
  %gin = addrspacecast ptr %in to ptr addrspace(1), !dbg !26
  %gint = ptrtoint ptr addrspace(1) %gin to i64, !dbg !26
  call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], $2, $2;", "r,l,n,~{memory}"(i32 32, i64 %gint, i32 8), !dbg !26
  ret void, !dbg !23
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "asm.cu", directory: "")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 4}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 10, column: 3, scope: !5)
!11 = !DILocation(line: 11, column: 3, scope: !5)
!12 = !DILocation(line: 12, column: 3, scope: !5)
!13 = !DILocation(line: 13, column: 3, scope: !5)
!14 = !DILocation(line: 14, column: 3, scope: !5)
!15 = !DILocation(line: 15, column: 3, scope: !5)
!16 = !DILocation(line: 16, column: 3, scope: !5)
!17 = !DILocation(line: 17, column: 3, scope: !5)
!18 = !DILocation(line: 18, column: 3, scope: !5)
!19 = !DILocation(line: 19, column: 3, scope: !5)
!20 = !DILocation(line: 20, column: 3, scope: !5)
!21 = !DILocation(line: 21, column: 3, scope: !5)
!22 = !DILocation(line: 22, column: 3, scope: !5)
!23 = !DILocation(line: 25, column: 3, scope: !5)
!24 = !DILocation(line: 23, column: 3, scope: !5)
!25 = !DILocation(line: 24, column: 3, scope: !5)
!26 = !DILocation(line: 26, column: 3, scope: !5)

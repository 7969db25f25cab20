; clang's scoped atomics (atomicAdd_system, atomicAdd_block, atomicCAS_system,
; atomicExch_system, atomicMax_block, ...) are intrinsic calls on a generic
; pointer, llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>, not atomicrmw or
; cmpxchg instructions. Each is one atomic of the bytes of the value it
; returns, in its pointer's space (a kernel argument's: global; a
; __shared__ array's: shared), as atomicrmw is; the working-set copy marks
; their global pages. Before, none was counted (no site, no bytes) and
; PASTA only warned that "target intrinsics ... are not counted": Chai's
; CUDA-U kernels, which spin on flags with atomicAdd_system, showed no
; atomics at all.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s -o %t.ll 2>%t.sites
; RUN: FileCheck %s < %t.sites
; RUN: FileCheck --check-prefix=WS %s < %t.ll
; Divergence mode measures atomicrmw and cmpxchg only: it says so once.
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=DIVWARN %s
; DIVWARN: warning: pasta: scoped atomics (atomicAdd_block, atomicAdd_system, ...) are counted but not measured in divergence mode (no requests, sectors or bank conflicts of theirs in the figures) in 'flags'{{$}}
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [32 x i32] undef, align 4

; CHECK-NOT: warning: pasta: target intrinsics
; CHECK-DAG: site {{.*}}t.cu:2 func=flags counter={{[0-9]+}} atom.global=1 atomB.global=4{{$}}
; CHECK-DAG: site {{.*}}t.cu:3 func=flags counter={{[0-9]+}} atom.global=1 atomB.global=4{{$}}
; CHECK-DAG: site {{.*}}t.cu:4 func=flags counter={{[0-9]+}} atom.global=1 atomB.global=8{{$}}
; CHECK-DAG: site {{.*}}t.cu:5 func=flags counter={{[0-9]+}} atom.global=1 atomB.global=4{{$}}
; CHECK-DAG: site {{.*}}t.cu:6 func=flags counter={{[0-9]+}} atom.shared=1 atomB.shared=4{{$}}
; The working-set copy marks the page of each global one (the shared one
; has none), as for atomicrmw:
; WS-LABEL: define ptx_kernel void @flags__pasta_ws(
; WS: call i32 @llvm.nvvm.atomic.add.gen.i.sys.i32.p0(ptr %f, i32 1)
; WS: call void @__pasta_ws_mark_args(ptr addrspace(1) %pasta.ws, {{.*}}, ptr %f,
; The access classes see each one's bytes (4, 4, 8, 4, 4), as an
; atomicrmw's:
; CHECK-DAG: access site=0 {{.*}} bytes=4 line=2{{$}}
; CHECK-DAG: access site=2 {{.*}} bytes=8 line=4{{$}}

define ptx_kernel void @flags(ptr %f, ptr %c, ptr %x) !dbg !5 {
  %a = call i32 @llvm.nvvm.atomic.add.gen.i.sys.i32.p0(ptr %f, i32 1), !dbg !8
  %b = call i32 @llvm.nvvm.atomic.cas.gen.i.sys.i32.p0(ptr %f, i32 0, i32 1), !dbg !9
  %e = call i64 @llvm.nvvm.atomic.exch.gen.i.sys.i64.p0(ptr %c, i64 5), !dbg !10
  %g = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr %x, float 1.0), !dbg !11
  %s = addrspacecast ptr addrspace(3) @bins to ptr
  %m = call i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr %s, i32 3), !dbg !12
  ret void
}

declare i32 @llvm.nvvm.atomic.add.gen.i.sys.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.atomic.cas.gen.i.sys.i32.p0(ptr, i32, i32)
declare i64 @llvm.nvvm.atomic.exch.gen.i.sys.i64.p0(ptr, i64)
declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr, float)
declare i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr, i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "t.cu", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "flags", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 3, scope: !5)
!10 = !DILocation(line: 4, column: 3, scope: !5)
!11 = !DILocation(line: 5, column: 3, scope: !5)
!12 = !DILocation(line: 6, column: 3, scope: !5)

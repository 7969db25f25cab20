; Warp-matrix (wmma) loads and stores are intrinsic calls, not load or
; store instructions: nvcuda::wmma's load_matrix_sync becomes
; llvm.nvvm.wmma.<shape>.load.<a|b|c>..., store_matrix_sync
; llvm.nvvm.wmma.<shape>.store.d... . Each is counted as one access per
; lane of its tile's bytes over the warp's 32 lanes (a: M x K, b: K x N,
; c and d: M x N elements of the type the name gives; not the fragment's
; registers, which repeat elements across lanes: a 16 x 16 half a or b
; tile is 512 bytes, 16 a lane, in 32 bytes of registers a lane), in the
; space of its pointer: a kernel argument's is global, a __shared__
; array's shared, a pointer loaded from memory generic, resolved at run
; time (dyn=). The mma itself moves no memory. Before, none of them was
; counted and nothing said so: a tensor-core GEMM's profile held only its
; scalar accesses (here lines 15, 30 and 31), none of its tiles.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s -o %t.ll 2>%t.sites
; RUN: FileCheck %s < %t.sites
; RUN: FileCheck --check-prefix=RESOLVE %s < %t.ll
; RUN: FileCheck --check-prefix=WSWARN %s < %t.sites
; The working set and the divergence figures see only loads, stores and
; atomics: a build with working-set copies (the default) and a divergence
; build name the functions once (before: nothing, as nothing was counted).
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=DIVWARN %s
; WSWARN: warning: pasta: tensor-core fragment loads and stores (wmma) are counted but their pages are missing from the working set in 'tile(__half const*, __half const*, float*)', 'staged(__half const*, __half*)' and 1 more{{$}}
; DIVWARN: warning: pasta: tensor-core fragment loads and stores (wmma) are counted but not measured in divergence mode (no requests, sectors or bank conflicts of theirs in the figures) in 'tile(__half const*, __half const*, float*)', 'staged(__half const*, __half*)' and 1 more{{$}}
;
; Source (t.cu, clang++-22 -x cuda --cuda-device-only --offload-arch=sm_90
; -O3 -gline-tables-only -S -emit-llvm; comments, paths and attributes as
; clang wrote them but the directories):
;   tile:   load_matrix_sync c (16x16 f32: 1,024 B, 32 a lane), a and b
;           (16x16 f16: 512 B, 16 a lane), mma, store_matrix_sync d
;           (f32, 32 a lane), all through the kernel's arguments: global
;   staged: a and b from a __shared__ tile (16 a lane each, shared), the
;           half accumulator stored (16x16 f16: 16 a lane, global)
;   bytes:  s8 a and b (16x16 bytes: 8 a lane) through pointers read from
;           p[]: generic, resolved at run time; the s32 result (32, global)
;
; tile: one block; mma.hpp lines of the intrinsics' calls
; CHECK-DAG: site {{.*}}mma.hpp:115 func=_Z4tilePK6__halfS1_Pf counter=1 ld.global=1 ldB.global=32{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:91 func=_Z4tilePK6__halfS1_Pf counter=1 ld.global=1 ldB.global=16{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:103 func=_Z4tilePK6__halfS1_Pf counter=1 ld.global=1 ldB.global=16{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:476 func=_Z4tilePK6__halfS1_Pf counter=1 st.global=1 stB.global=32{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:91 func=_Z6stagedPK6__halfPS_ counter={{[0-9]+}} ld.shared=1 ldB.shared=16{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:99 func=_Z6stagedPK6__halfPS_ counter={{[0-9]+}} ld.shared=1 ldB.shared=16{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:467 func=_Z6stagedPK6__halfPS_ counter={{[0-9]+}} st.global=1 stB.global=16{{$}}
; CHECK-DAG: site {{.*}}t.cu:15 func=_Z6stagedPK6__halfPS_ counter={{[0-9]+}} ld.global=1 st.shared=1 ldB.global=2 stB.shared=2{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:122 func=_Z5bytesPKPKaPi counter={{[0-9]+}} dyn={{[0-9]+}} ld.generic=1 ldB.generic=8{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:142 func=_Z5bytesPKPKaPi counter={{[0-9]+}} dyn={{[0-9]+}} ld.generic=1 ldB.generic=8{{$}}
; CHECK-DAG: site {{.*}}mma.hpp:482 func=_Z5bytesPKPKaPi counter={{[0-9]+}} st.global=1 stB.global=32{{$}}
; CHECK-DAG: site {{.*}}t.cu:30 func=_Z5bytesPKPKaPi counter={{[0-9]+}} ld.global=1 ldB.global=8{{$}}
; CHECK-DAG: site {{.*}}t.cu:31 func=_Z5bytesPKPKaPi counter={{[0-9]+}} ld.global=1 ldB.global=8{{$}}
; The generic fragments' pointers are tested for their space before the
; load, as a generic load's are (8 bytes where shared or local):
; RESOLVE-LABEL: define {{.*}} @_Z5bytesPKPKaPi(
; RESOLVE: [[P:%[0-9]+]] = load ptr, ptr
; RESOLVE-NEXT: [[S:%[0-9]+]] = call i64 @__pasta_is_shared(ptr [[P]])
; RESOLVE-NEXT: call i64 @__pasta_is_local(ptr [[P]])
; RESOLVE-NEXT: add i64 0, [[S]]
; RESOLVE-NEXT: mul i64 [[S]], 8
; RESOLVE: llvm.nvvm.wmma.m16n16k16.load.a.row.stride.s8.p0(ptr readonly [[P]]
;
; ModuleID = 't.cu'
source_filename = "t.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__half = type { i16 }

@_ZZ6stagedPK6__halfPS_E1s = internal addrspace(3) global [256 x %struct.__half] undef, align 2

; Function Attrs: mustprogress noinline norecurse nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4tilePK6__halfS1_Pf(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef captures(none) %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call contract { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr readonly %2, i32 16), !dbg !18
  %5 = extractvalue { float, float, float, float, float, float, float, float } %4, 0, !dbg !18
  %6 = extractvalue { float, float, float, float, float, float, float, float } %4, 1, !dbg !18
  %7 = extractvalue { float, float, float, float, float, float, float, float } %4, 2, !dbg !18
  %8 = extractvalue { float, float, float, float, float, float, float, float } %4, 3, !dbg !18
  %9 = extractvalue { float, float, float, float, float, float, float, float } %4, 4, !dbg !18
  %10 = extractvalue { float, float, float, float, float, float, float, float } %4, 5, !dbg !18
  %11 = extractvalue { float, float, float, float, float, float, float, float } %4, 6, !dbg !18
  %12 = extractvalue { float, float, float, float, float, float, float, float } %4, 7, !dbg !18
  %13 = tail call contract { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr readonly %0, i32 16), !dbg !22
  %14 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 0, !dbg !22
  %15 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 1, !dbg !22
  %16 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 2, !dbg !22
  %17 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 3, !dbg !22
  %18 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 4, !dbg !22
  %19 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 5, !dbg !22
  %20 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 6, !dbg !22
  %21 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %13, 7, !dbg !22
  %22 = tail call contract { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.f16.p0(ptr readonly %1, i32 16), !dbg !25
  %23 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 0, !dbg !25
  %24 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 1, !dbg !25
  %25 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 2, !dbg !25
  %26 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 3, !dbg !25
  %27 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 4, !dbg !25
  %28 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 5, !dbg !25
  %29 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 6, !dbg !25
  %30 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %22, 7, !dbg !25
  %31 = tail call contract { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half> %14, <2 x half> %15, <2 x half> %16, <2 x half> %17, <2 x half> %18, <2 x half> %19, <2 x half> %20, <2 x half> %21, <2 x half> %23, <2 x half> %24, <2 x half> %25, <2 x half> %26, <2 x half> %27, <2 x half> %28, <2 x half> %29, <2 x half> %30, float %5, float %6, float %7, float %8, float %9, float %10, float %11, float %12), !dbg !28
  %32 = extractvalue { float, float, float, float, float, float, float, float } %31, 0, !dbg !28
  %33 = extractvalue { float, float, float, float, float, float, float, float } %31, 1, !dbg !28
  %34 = extractvalue { float, float, float, float, float, float, float, float } %31, 2, !dbg !28
  %35 = extractvalue { float, float, float, float, float, float, float, float } %31, 3, !dbg !28
  %36 = extractvalue { float, float, float, float, float, float, float, float } %31, 4, !dbg !28
  %37 = extractvalue { float, float, float, float, float, float, float, float } %31, 5, !dbg !28
  %38 = extractvalue { float, float, float, float, float, float, float, float } %31, 6, !dbg !28
  %39 = extractvalue { float, float, float, float, float, float, float, float } %31, 7, !dbg !28
  tail call void @llvm.nvvm.wmma.m16n16k16.store.d.col.stride.f32.p0(ptr %2, float %32, float %33, float %34, float %35, float %36, float %37, float %38, float %39, i32 16), !dbg !31
  ret void, !dbg !34
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z6stagedPK6__halfPS_(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #1 !dbg !35 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !36
  %4 = zext nneg i32 %3 to i64, !dbg !40
  %5 = getelementptr inbounds nuw %struct.__half, ptr %0, i64 %4, !dbg !40
  %6 = getelementptr inbounds nuw %struct.__half, ptr addrspacecast (ptr addrspace(3) @_ZZ6stagedPK6__halfPS_E1s to ptr), i64 %4, !dbg !41
  %7 = load i16, ptr %5, align 2, !dbg !42, !tbaa !43
  store i16 %7, ptr %6, align 2, !dbg !42, !tbaa !43
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !45
  %8 = tail call contract { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr readonly addrspacecast (ptr addrspace(3) @_ZZ6stagedPK6__halfPS_E1s to ptr), i32 16), !dbg !46
  %9 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 0, !dbg !46
  %10 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 1, !dbg !46
  %11 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 2, !dbg !46
  %12 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 3, !dbg !46
  %13 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 4, !dbg !46
  %14 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 5, !dbg !46
  %15 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 6, !dbg !46
  %16 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %8, 7, !dbg !46
  %17 = tail call contract { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.row.stride.f16.p0(ptr addrspacecast (ptr addrspace(3) @_ZZ6stagedPK6__halfPS_E1s to ptr), i32 16), !dbg !48
  %18 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 0, !dbg !48
  %19 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 1, !dbg !48
  %20 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 2, !dbg !48
  %21 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 3, !dbg !48
  %22 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 4, !dbg !48
  %23 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 5, !dbg !48
  %24 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 6, !dbg !48
  %25 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %17, 7, !dbg !48
  %26 = tail call i16 asm "{  cvt.rn.f16.f32 $0, $1;}\0A", "=h,f"(float 0.000000e+00) #8, !dbg !51, !srcloc !60
  %27 = insertelement <2 x i16> poison, i16 %26, i64 0, !dbg !61
  %28 = bitcast <2 x i16> %27 to <2 x half>, !dbg !61
  %29 = shufflevector <2 x half> %28, <2 x half> poison, <2 x i32> zeroinitializer, !dbg !61
  %30 = tail call contract { <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f16.f16(<2 x half> %9, <2 x half> %10, <2 x half> %11, <2 x half> %12, <2 x half> %13, <2 x half> %14, <2 x half> %15, <2 x half> %16, <2 x half> %18, <2 x half> %19, <2 x half> %20, <2 x half> %21, <2 x half> %22, <2 x half> %23, <2 x half> %24, <2 x half> %25, <2 x half> %29, <2 x half> %29, <2 x half> %29, <2 x half> %29), !dbg !65
  %31 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half> } %30, 0, !dbg !65
  %32 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half> } %30, 1, !dbg !65
  %33 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half> } %30, 2, !dbg !65
  %34 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half> } %30, 3, !dbg !65
  tail call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f16.p0(ptr %1, <2 x half> %31, <2 x half> %32, <2 x half> %33, <2 x half> %34, i32 16), !dbg !68
  ret void, !dbg !71
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: mustprogress noinline norecurse nounwind memory(read, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptx_kernel void @_Z5bytesPKPKaPi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #3 !dbg !72 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !73
  %4 = zext nneg i32 %3 to i64, !dbg !76
  %5 = getelementptr inbounds nuw ptr, ptr %0, i64 %4, !dbg !76
  %6 = load ptr, ptr %5, align 8, !dbg !76, !tbaa !77
  %7 = tail call { i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.s8.p0(ptr readonly %6, i32 16), !dbg !80
  %8 = extractvalue { i32, i32 } %7, 0, !dbg !80
  %9 = extractvalue { i32, i32 } %7, 1, !dbg !80
  %10 = load ptr, ptr %0, align 8, !dbg !83, !tbaa !77
  %11 = tail call { i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.s8.p0(ptr readonly %10, i32 16), !dbg !84
  %12 = extractvalue { i32, i32 } %11, 0, !dbg !84
  %13 = extractvalue { i32, i32 } %11, 1, !dbg !84
  %14 = tail call { i32, i32, i32, i32, i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.mma.row.col.s8(i32 %8, i32 %9, i32 %12, i32 %13, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0), !dbg !87
  %15 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 0, !dbg !87
  %16 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 1, !dbg !87
  %17 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 2, !dbg !87
  %18 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 3, !dbg !87
  %19 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 4, !dbg !87
  %20 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 5, !dbg !87
  %21 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 6, !dbg !87
  %22 = extractvalue { i32, i32, i32, i32, i32, i32, i32, i32 } %14, 7, !dbg !87
  tail call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.s32.p0(ptr %1, i32 %15, i32 %16, i32 %17, i32 %18, i32 %19, i32 %20, i32 %21, i32 %22, i32 16), !dbg !90
  ret void, !dbg !93
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr readonly captures(none), i32) #4

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr readonly captures(none), i32) #4

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.f16.p0(ptr readonly captures(none), i32) #4

; Function Attrs: nocallback nofree nosync nounwind memory(none)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float) #5

; Function Attrs: nocallback nounwind memory(argmem: write)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.col.stride.f32.p0(ptr writeonly captures(none), float, float, float, float, float, float, float, float, i32) #6

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #7

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.row.stride.f16.p0(ptr readonly captures(none), i32) #4

; Function Attrs: nocallback nofree nosync nounwind memory(none)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f16.f16(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>) #5

; Function Attrs: nocallback nounwind memory(argmem: write)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f16.p0(ptr writeonly captures(none), <2 x half>, <2 x half>, <2 x half>, <2 x half>, i32) #6

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.s8.p0(ptr readonly captures(none), i32) #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #7

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: read)
declare { i32, i32 } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.s8.p0(ptr readonly captures(none), i32) #4

; Function Attrs: nocallback nofree nosync nounwind memory(none)
declare { i32, i32, i32, i32, i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.mma.row.col.s8(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) #5

; Function Attrs: nocallback nounwind memory(argmem: write)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.s32.p0(ptr writeonly captures(none), i32, i32, i32, i32, i32, i32, i32, i32, i32) #6

attributes #0 = { mustprogress noinline norecurse nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { mustprogress noinline norecurse nounwind memory(read, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #4 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: read) }
attributes #5 = { nocallback nofree nosync nounwind memory(none) }
attributes #6 = { nocallback nounwind memory(argmem: write) }
attributes #7 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #8 = { convergent nounwind memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "t.cu", directory: "/src")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "tile", scope: !7, file: !7, line: 3, type: !16, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 115, column: 7, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 113, type: !16, scopeLine: 113, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "cuda/include/crt/mma.hpp", directory: "")
!21 = distinct !DILocation(line: 7, column: 3, scope: !15)
!22 = !DILocation(line: 91, column: 5, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 90, type: !16, scopeLine: 90, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 8, column: 3, scope: !15)
!25 = !DILocation(line: 103, column: 5, scope: !26, inlinedAt: !27)
!26 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 102, type: !16, scopeLine: 102, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!27 = distinct !DILocation(line: 9, column: 3, scope: !15)
!28 = !DILocation(line: 626, column: 5, scope: !29, inlinedAt: !30)
!29 = distinct !DISubprogram(name: "mma_sync", scope: !20, file: !20, line: 625, type: !16, scopeLine: 625, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!30 = distinct !DILocation(line: 10, column: 3, scope: !15)
!31 = !DILocation(line: 476, column: 7, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "store_matrix_sync", scope: !20, file: !20, line: 472, type: !16, scopeLine: 472, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 11, column: 3, scope: !15)
!34 = !DILocation(line: 12, column: 1, scope: !15)
!35 = distinct !DISubprogram(name: "staged", scope: !7, file: !7, line: 13, type: !16, scopeLine: 13, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = !DILocation(line: 53, column: 27, scope: !37, inlinedAt: !39)
!37 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !38, file: !38, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!38 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!39 = distinct !DILocation(line: 15, column: 22, scope: !35)
!40 = !DILocation(line: 15, column: 20, scope: !35)
!41 = !DILocation(line: 15, column: 3, scope: !35)
!42 = !DILocation(line: 15, column: 18, scope: !35)
!43 = !{!44, !44, i64 0}
!44 = !{!"short", !12, i64 0}
!45 = !DILocation(line: 16, column: 3, scope: !35)
!46 = !DILocation(line: 91, column: 5, scope: !23, inlinedAt: !47)
!47 = distinct !DILocation(line: 20, column: 3, scope: !35)
!48 = !DILocation(line: 99, column: 5, scope: !49, inlinedAt: !50)
!49 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 98, type: !16, scopeLine: 98, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!50 = distinct !DILocation(line: 21, column: 3, scope: !35)
!51 = !DILocation(line: 550, column: 5, scope: !52, inlinedAt: !54)
!52 = distinct !DISubprogram(name: "__float2half", scope: !53, file: !53, line: 546, type: !16, scopeLine: 547, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!53 = !DIFile(filename: "cuda/include/cuda_fp16.hpp", directory: "")
!54 = distinct !DILocation(line: 4690, column: 55, scope: !55, inlinedAt: !57)
!55 = distinct !DISubprogram(name: "__half", scope: !56, file: !56, line: 4690, type: !16, scopeLine: 4690, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = !DIFile(filename: "cuda/include/cuda_fp16.h", directory: "")
!57 = distinct !DILocation(line: 4690, column: 47, scope: !58, inlinedAt: !59)
!58 = distinct !DISubprogram(name: "__half", scope: !56, file: !56, line: 4690, type: !16, scopeLine: 4690, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!59 = distinct !DILocation(line: 22, column: 27, scope: !35)
!60 = !{i64 2156188557}
!61 = !DILocation(line: 276, column: 14, scope: !62, inlinedAt: !64)
!62 = distinct !DISubprogram(name: "fill_fragment<__half, 8, 8>", scope: !63, file: !63, line: 260, type: !16, scopeLine: 268, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!63 = !DIFile(filename: "cuda/include/crt/mma.h", directory: "")
!64 = distinct !DILocation(line: 22, column: 3, scope: !35)
!65 = !DILocation(line: 600, column: 5, scope: !66, inlinedAt: !67)
!66 = distinct !DISubprogram(name: "mma_sync", scope: !20, file: !20, line: 599, type: !16, scopeLine: 599, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!67 = distinct !DILocation(line: 23, column: 3, scope: !35)
!68 = !DILocation(line: 467, column: 7, scope: !69, inlinedAt: !70)
!69 = distinct !DISubprogram(name: "store_matrix_sync", scope: !20, file: !20, line: 465, type: !16, scopeLine: 465, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!70 = distinct !DILocation(line: 24, column: 3, scope: !35)
!71 = !DILocation(line: 25, column: 1, scope: !35)
!72 = distinct !DISubprogram(name: "bytes", scope: !7, file: !7, line: 26, type: !16, scopeLine: 26, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!73 = !DILocation(line: 66, column: 27, scope: !74, inlinedAt: !75)
!74 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !38, file: !38, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!75 = distinct !DILocation(line: 30, column: 32, scope: !72)
!76 = !DILocation(line: 30, column: 30, scope: !72)
!77 = !{!78, !78, i64 0}
!78 = !{!"p1 omnipotent char", !79, i64 0}
!79 = !{!"any pointer", !12, i64 0}
!80 = !DILocation(line: 122, column: 5, scope: !81, inlinedAt: !82)
!81 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 121, type: !16, scopeLine: 121, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!82 = distinct !DILocation(line: 30, column: 3, scope: !72)
!83 = !DILocation(line: 31, column: 30, scope: !72)
!84 = !DILocation(line: 142, column: 5, scope: !85, inlinedAt: !86)
!85 = distinct !DISubprogram(name: "load_matrix_sync", scope: !20, file: !20, line: 141, type: !16, scopeLine: 141, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!86 = distinct !DILocation(line: 31, column: 3, scope: !72)
!87 = !DILocation(line: 663, column: 7, scope: !88, inlinedAt: !89)
!88 = distinct !DISubprogram(name: "mma_sync", scope: !20, file: !20, line: 659, type: !16, scopeLine: 659, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!89 = distinct !DILocation(line: 33, column: 3, scope: !72)
!90 = !DILocation(line: 482, column: 7, scope: !91, inlinedAt: !92)
!91 = distinct !DISubprogram(name: "store_matrix_sync", scope: !20, file: !20, line: 480, type: !16, scopeLine: 480, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!92 = distinct !DILocation(line: 34, column: 3, scope: !72)
!93 = !DILocation(line: 35, column: 1, scope: !72)

; Device memcpy and memset of run-time length on amdgcn: a flat pointer
; loaded from memory is resolved at run time like a flat load (is.shared,
; is.private; the site's 8 DYN counters take the length where it is shared
; or private), LDS and private by their address spaces. The bytes counters
; flush with the 64-lane wave's block counters.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [256 x i8] poison

; Counters: 0 launches, 1 entry, 2 the copy's bytes, 3-10 its DYN set, 11
; the loop, 12 the memset's bytes.
; SITES: pasta: func k kind=kernel calls=0
; The load of %flat (no location: line 5 by propagation) is the entry's
; own site, beside the copy's.
; SITES-NEXT: pasta: site memops.hip:5 func=k counter=1 ld.constant=1 ldB.constant=8{{$}}
; SITES-NEXT: pasta: site memops.hip:5 func=k counter=1 dyn=3 bytes=2 ld.generic=1 st.shared=1 ldB.generic=1 stB.shared=1{{$}}
; SITES-NEXT: pasta: site memops.hip:8 func=k counter=11 bytes=12 st.local=1 stB.local=1{{$}}
; SITES-NEXT: pasta: module counters=16

; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK: call {{.*}}i1 @llvm.amdgcn.is.shared(ptr {{.*}}%flat)
; CHECK: call {{.*}}i1 @llvm.amdgcn.is.private(ptr {{.*}}%flat)
; CHECK: mul i64 %{{[0-9]+}}, %n
; CHECK: add i64 0, %n
; CHECK-NEXT: call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) @lds, ptr %flat, i64 %n, i1 false)
; CHECK: loop:
; CHECK: [[NEXT:%[0-9]+]] = add i64 %pasta.count{{[0-9.]+}}, %n
; CHECK-NEXT: call void @llvm.memset.p5.i64(
; The runtime is linked and inlined: the bytes go out with a 64-bit ballot
; and an agent-scope atomic add like every counter.
; CHECK: exit:
; CHECK: call {{.*}}i64 @llvm.amdgcn.ballot.i64(
; CHECK: atomicrmw add ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}} syncscope("agent") monotonic
; CHECK: ret void
define amdgpu_kernel void @k(ptr addrspace(4) %table, i64 %n, i32 %k) !dbg !5 {
entry:
  %slot = alloca [64 x i8], align 1, addrspace(5)
  %flat = load ptr, ptr addrspace(4) %table
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) @lds, ptr %flat, i64 %n, i1 false), !dbg !10
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @llvm.memset.p5.i64(ptr addrspace(5) %slot, i8 0, i64 %n, i1 false), !dbg !11
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %k
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare void @llvm.memcpy.p3.p0.i64(ptr addrspace(3), ptr, i64, i1)
declare void @llvm.memset.p5.i64(ptr addrspace(5), i8, i64, i1)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "memops.hip", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 4, type: !2, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 5, scope: !5)
!11 = !DILocation(line: 8, scope: !5)

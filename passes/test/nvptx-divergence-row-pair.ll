; One lane in each row of a 16-wide warp (addPairRows): backprop's
; layerforward stages `s[ty] = input[row]` under `if (threadIdx.x == 0)`, so
; in 16 x 16 blocks every warp runs both accesses with lanes 0 and 16 only
; (x = 0, y and y + 1). Both addresses have a constant y step of 4 bytes and
; stride 0 in x (RowsProven, AccessGroup::ApartStep), so lane 16's element
; is 4 bytes past lane 0's: where the active lanes are l and l + 16 and the
; warp holds 16-wide rows stacked in y (__pasta_div_stacked_width 16), the
; lower lane adds, beyond the derived figures of one element a warp, the
; other element's 4 distinct bytes and (global) a sector where
; (address + 4) >> 5 differs from address >> 5, with no helper call (before:
; __pasta_div_access_rows16, whose one-lane-a-row path shuffles lane 16's
; address under a register mask, in every such warp). By hand, from the two
; lanes' elements: input[row] 8 distinct bytes (4 derived), 1 or 2 sectors
; (1 derived), 1 ideal sector (1 derived: nothing to add); s[ty] 8 distinct
; bytes (4 derived), words 1 apart: no bank conflict. Other warps measure
; as before. -pasta-div-pair-rows=0 measures (as before). The IR is
; clang's -O2 output (-gline-tables-only) for
;   __global__ void rowpair(const float *input, float *out) {
;     __shared__ float s[16];
;     int ty = threadIdx.y;
;     int row = blockIdx.x * 16 + ty;
;     if (threadIdx.x == 0)
;       s[ty] = input[row];
;     __syncthreads();
;     out[row * 16 + threadIdx.x] = s[ty];
;   }
;   __global__ void rowpair_wide(float *out) {
;     __shared__ float w[16 * 32];
;     int ty = threadIdx.y;
;     if (threadIdx.x == 0)
;       w[ty * 32] = 1.0f;
;     __syncthreads();
;     out[(blockIdx.x * 16 + ty) * 16 + threadIdx.x] = w[ty * 32 + threadIdx.x];
;   }
; where the pair's words are 128 bytes (32 words) apart: one bank, a
; conflict (the lower lane adds 1 to the bank conflicts beside the 4
; distinct bytes, where the full-warp gap path adds the same 1).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-pair-rows=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z7rowpairPKfPf__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[W:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK: %[[S16:pasta.div.stacked16[.a-z0-9]*]] = icmp eq i32 %[[W]], 16
; input[row]: the full-warp step path first, then the pair's test
; CHECK: %[[IN:[0-9]+]] = getelementptr inbounds float, ptr %0, i64 %{{[0-9]+}}
; CHECK: pasta.div.steprows
; CHECK: %[[M:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: %[[LO:[0-9]+]] = and i32 %[[M]], 65535
; CHECK-NEXT: %[[HI:[0-9]+]] = lshr i32 %[[M]], 16
; CHECK-NEXT: %[[EQ:[0-9]+]] = icmp eq i32 %[[HI]], %[[LO]]
; CHECK-NEXT: %[[LM1:[0-9]+]] = sub i32 %[[LO]], 1
; CHECK-NEXT: %[[AND:[0-9]+]] = and i32 %[[LO]], %[[LM1]]
; CHECK-NEXT: %[[ONE:[0-9]+]] = icmp eq i32 %[[AND]], 0
; CHECK-NEXT: %[[SE:[0-9]+]] = and i1 %[[S16]], %[[EQ]]
; CHECK-NEXT: %[[P:pasta.div.rowpair[.a-z0-9]*]] = and i1 %[[SE]], %[[ONE]]
; CHECK-NEXT: br i1 %[[P]], label %[[PAIR:[0-9]+]], label %[[MEAS:[0-9]+]]
; CHECK: [[PAIR]]:
; CHECK-NEXT: %[[A:[0-9]+]] = ptrtoint ptr %[[IN]] to i64
; CHECK-NEXT: %[[L:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[LOW:[0-9]+]] = icmp ult i32 %[[L]], 16
; CHECK-NEXT: %[[O:[0-9]+]] = add i64 %[[A]], 4
; CHECK-NEXT: %[[SA:[0-9]+]] = lshr i64 %[[A]], 5
; CHECK-NEXT: %[[SO:[0-9]+]] = lshr i64 %[[O]], 5
; CHECK-NEXT: %[[AP:pasta.div.pairsector[.a-z0-9]*]] = icmp ne i64 %[[SA]], %[[SO]]
; CHECK-NEXT: %[[D:[0-9]+]] = select i1 %[[LOW]], i64 4, i64 0
; CHECK-NEXT: %[[DG:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[DISTG:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[DG]], i64 %[[D]])
; CHECK-NEXT: %[[S64:[0-9]+]] = zext i1 %[[AP]] to i64
; CHECK-NEXT: %[[S:[0-9]+]] = select i1 %[[LOW]], i64 %[[S64]], i64 0
; CHECK-NEXT: %[[SG:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[SECT:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[SG]], i64 %[[S]])
; CHECK-NEXT: br label
; CHECK: [[MEAS]]:
; CHECK-NOT: pasta.div.rowpair
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly %[[IN]], i32 4, i32 0,
; the helper's figures go to the same counters
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[DISTG]]
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[SECT]]
; s[ty] = ...: after the full-warp gap path, the pair's test and 4 distinct
; shared bytes from the lower lane (no bank conflict at a 4-byte step)
; CHECK: pasta.div.fullgap
; CHECK: call i32 @llvm.nvvm.activemask()
; CHECK: %[[P2:pasta.div.rowpair[.a-z0-9]*]] = and i1
; CHECK-NEXT: br i1 %[[P2]], label %[[PAIR2:[0-9]+]], label %[[MEAS2:[0-9]+]]
; CHECK: [[PAIR2]]:
; CHECK-NEXT: %[[L2:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[LOW2:[0-9]+]] = icmp ult i32 %[[L2]], 16
; CHECK-NEXT: %[[D2:[0-9]+]] = select i1 %[[LOW2]], i64 4, i64 0
; CHECK-NEXT: %[[DS:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[DISTS:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[DS]], i64 %[[D2]])
; CHECK-NEXT: br label
; CHECK: [[MEAS2]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 0, i32 3,
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[DISTS]]

; CHECK-LABEL: define {{.*}} @_Z12rowpair_widePf__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: pasta.div.fullgap
; CHECK: %[[WP:pasta.div.rowpair[.a-z0-9]*]] = and i1
; CHECK-NEXT: br i1 %[[WP]], label %[[WPAIR:[0-9]+]], label %[[WMEAS:[0-9]+]]
; CHECK: [[WPAIR]]:
; CHECK-NEXT: %[[WL:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[WLOW:[0-9]+]] = icmp ult i32 %[[WL]], 16
; CHECK-NEXT: %[[WD:[0-9]+]] = select i1 %[[WLOW]], i64 4, i64 0
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[WDIST:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[WD]])
; CHECK-NEXT: %[[WB:[0-9]+]] = select i1 %[[WLOW]], i64 1, i64 0
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[WBANK:[0-9]+]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[WB]])
; CHECK-NEXT: br label
; CHECK: [[WMEAS]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 0, i32 3,
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[WDIST]]
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[WBANK]]

; OFF-LABEL: define {{.*}} @_Z7rowpairPKfPf__pasta_div(
; OFF-NOT: pasta.div.rowpair
; OFF: call i32 @__pasta_div_access_rows16(ptr readonly %{{[0-9]+}}, i32 4, i32 0,
; OFF-NOT: pasta.div.rowpair
; OFF: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 0, i32 3,
; OFF-NOT: pasta.div.rowpair

; ModuleID = 'both.cu'
source_filename = "both.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ7rowpairPKfPfE1s = internal unnamed_addr addrspace(3) global [16 x float] undef, align 4
@_ZZ12rowpair_widePfE1w = internal unnamed_addr addrspace(3) global [512 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7rowpairPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !18
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !22
  %5 = shl i32 %4, 4, !dbg !25
  %6 = add i32 %5, %3, !dbg !26
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !27
  %8 = icmp eq i32 %7, 0, !dbg !30
  %9 = zext nneg i32 %3 to i64
  br i1 %8, label %10, label %15, !dbg !30

10:                                               ; preds = %2
  %11 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ7rowpairPKfPfE1s to ptr), i64 %9
  %12 = sext i32 %6 to i64
  %13 = getelementptr inbounds float, ptr %0, i64 %12
  %14 = load float, ptr %13, align 4, !dbg !31, !tbaa !32
  store float %14, ptr %11, align 4, !dbg !34, !tbaa !32
  br label %15, !dbg !35

15:                                               ; preds = %2, %10
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !36
  %16 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ7rowpairPKfPfE1s to ptr), i64 %9, !dbg !37
  %17 = load float, ptr %16, align 4, !dbg !37, !tbaa !32
  %18 = shl nsw i32 %6, 4, !dbg !38
  %19 = add i32 %18, %7, !dbg !39
  %20 = zext i32 %19 to i64, !dbg !40
  %21 = getelementptr inbounds nuw float, ptr %1, i64 %20, !dbg !40
  store float %17, ptr %21, align 4, !dbg !41, !tbaa !32
  ret void, !dbg !42
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z12rowpair_widePf(ptr noundef writeonly captures(none) %0) local_unnamed_addr #0 !dbg !43 {
  %2 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !44
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !46
  %4 = icmp eq i32 %3, 0, !dbg !48
  %5 = shl nuw nsw i32 %2, 5
  br i1 %4, label %6, label %9, !dbg !48

6:                                                ; preds = %1
  %7 = zext nneg i32 %5 to i64
  %8 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ12rowpair_widePfE1w to ptr), i64 %7
  store float 1.000000e+00, ptr %8, align 4, !dbg !49, !tbaa !32
  br label %9, !dbg !50

9:                                                ; preds = %1, %6
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !51
  %10 = add nuw nsw i32 %5, %3, !dbg !52
  %11 = zext nneg i32 %10 to i64, !dbg !53
  %12 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ12rowpair_widePfE1w to ptr), i64 %11, !dbg !53
  %13 = load float, ptr %12, align 4, !dbg !53, !tbaa !32
  %14 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !54
  %15 = shl i32 %14, 8, !dbg !56
  %16 = shl nuw nsw i32 %2, 4, !dbg !56
  %17 = add nuw nsw i32 %16, %3, !dbg !56
  %18 = add i32 %17, %15, !dbg !57
  %19 = zext i32 %18 to i64, !dbg !58
  %20 = getelementptr inbounds nuw float, ptr %0, i64 %19, !dbg !58
  store float %13, ptr %20, align 4, !dbg !59, !tbaa !32
  ret void, !dbg !60
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "both.cu", directory: "/tmp/divlf/t")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "rowpair", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 54, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 3, column: 12, scope: !15)
!22 = !DILocation(line: 66, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 4, column: 13, scope: !15)
!25 = !DILocation(line: 4, column: 24, scope: !15)
!26 = !DILocation(line: 4, column: 29, scope: !15)
!27 = !DILocation(line: 53, column: 27, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 5, column: 7, scope: !15)
!30 = !DILocation(line: 5, column: 19, scope: !15)
!31 = !DILocation(line: 6, column: 13, scope: !15)
!32 = !{!33, !33, i64 0}
!33 = !{!"float", !12, i64 0}
!34 = !DILocation(line: 6, column: 11, scope: !15)
!35 = !DILocation(line: 6, column: 5, scope: !15)
!36 = !DILocation(line: 7, column: 3, scope: !15)
!37 = !DILocation(line: 8, column: 33, scope: !15)
!38 = !DILocation(line: 8, column: 11, scope: !15)
!39 = !DILocation(line: 8, column: 16, scope: !15)
!40 = !DILocation(line: 8, column: 3, scope: !15)
!41 = !DILocation(line: 8, column: 31, scope: !15)
!42 = !DILocation(line: 9, column: 1, scope: !15)
!43 = distinct !DISubprogram(name: "rowpair_wide", scope: !7, file: !7, line: 10, type: !16, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!44 = !DILocation(line: 54, column: 27, scope: !19, inlinedAt: !45)
!45 = distinct !DILocation(line: 12, column: 12, scope: !43)
!46 = !DILocation(line: 53, column: 27, scope: !28, inlinedAt: !47)
!47 = distinct !DILocation(line: 13, column: 7, scope: !43)
!48 = !DILocation(line: 13, column: 19, scope: !43)
!49 = !DILocation(line: 14, column: 16, scope: !43)
!50 = !DILocation(line: 14, column: 5, scope: !43)
!51 = !DILocation(line: 15, column: 3, scope: !43)
!52 = !DILocation(line: 16, column: 62, scope: !43)
!53 = !DILocation(line: 16, column: 52, scope: !43)
!54 = !DILocation(line: 66, column: 27, scope: !23, inlinedAt: !55)
!55 = distinct !DILocation(line: 16, column: 8, scope: !43)
!56 = !DILocation(line: 16, column: 30, scope: !43)
!57 = !DILocation(line: 16, column: 35, scope: !43)
!58 = !DILocation(line: 16, column: 3, scope: !43)
!59 = !DILocation(line: 16, column: 50, scope: !43)
!60 = !DILocation(line: 17, column: 1, scope: !43)

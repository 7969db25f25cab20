; At a return, a divergence copy flushes its loop registers: a full warp of
; small registers through the fast path (one warp sum per register), else
; the registers staged for the out-of-line __pasta_flush. A warp that is
; not full (nw_tile's blocks are one warp of 16 lanes) with figures in two
; lanes or more took the staged path: 8 calls through a stack array in
; nw_tile's copy. Now a warp that is not full but whose registers are
; all small and whose lanes can sum together (__pasta_div_flush_lanes_fast:
; redux.sync on NVIDIA GPUs) reads its lanes once (__pasta_div_flush_lanes)
; and sums each register over them inline, the first lane adding the sum
; (__pasta_div_flush_counter_lanes); large registers still take the staged
; flush. The same sums: every active lane's register is in its lanes' sum.
; On the tree before, the fast path's else branch was the staged flush.
; -pasta-div-partial-warp-flush=0 keeps the flush as it was.
; The IR is clang's -O2 output for
;   __global__ void diag(int *out, const int *in) {
;     __shared__ int s[17][17];
;     int tx = threadIdx.x;
;     s[tx + 1][0] = in[tx];
;     s[0][tx + 1] = in[tx + 16];
;     __syncthreads();
;     for (int m = 0; m < 31; m++) {
;       int c = m - tx + 1;
;       if (c >= 1 && c <= 16)
;         s[tx + 1][c] = max(s[tx][c - 1], s[tx][c]);
;       __syncthreads();
;     }
;     out[tx] = s[tx + 1][16];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-signed-lanes-flush=0 -pasta-div-narrow-flush-tests=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-partial-warp-flush=0 -S %s | FileCheck %s --check-prefix=OFF

; The fast path's test, then its else branch: the partial warp's test on the
; same OR of the registers, its inline sums, the staged flush after them.
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_div(
; CHECK: call i64 @__pasta_flush_is_fast(i64 %[[ANY:[0-9]+]])
; CHECK: call void @__pasta_flush_counter_fast(
; CHECK: %[[FAST:[0-9]+]] = call i64 @__pasta_div_flush_lanes_fast(i64 %[[ANY]])
; CHECK-NEXT: %pasta.div.lanes{{[0-9]*}} = icmp ne i64 %[[FAST]], 0
; CHECK-NEXT: br i1 %pasta.div.lanes{{[0-9]*}}, label %[[SUMS:[0-9]+]], label %[[STAGED:[0-9]+]]
; CHECK: [[SUMS]]:
; CHECK-NEXT: %[[LANES:[0-9]+]] = call i64 @__pasta_div_flush_lanes()
; CHECK-NEXT: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]]
; CHECK-NEXT: call void @__pasta_div_flush_counter_lanes(ptr addrspace(1) %[[SLOT]], i64 %{{[0-9]+}}, i64 %[[LANES]])
; CHECK-NOT: call void @__pasta_flush(
; CHECK: [[STAGED]]:
; CHECK-NOT: __pasta_div_flush_counter_lanes
; CHECK: call void @__pasta_flush(
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_divu(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_div(
; OFF-NOT: __pasta_div_flush_lanes
; OFF: call i64 @__pasta_flush_is_fast(
; OFF-NOT: __pasta_div_flush_lanes
; OFF: call void @__pasta_flush(
; OFF-NOT: __pasta_div_flush_lanes
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_divu(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4diagPiPKiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local ptx_kernel void @_Z4diagPiPKi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr %1, i64 %4
  %6 = load i32, ptr %5, align 4, !tbaa !6
  %7 = add nuw nsw i32 %3, 1
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %8
  store i32 %6, ptr %9, align 4, !tbaa !6
  %10 = getelementptr i8, ptr %5, i64 64
  %11 = load i32, ptr %10, align 4, !tbaa !6
  %12 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %8
  store i32 %11, ptr %12, align 4, !tbaa !6
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %13 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %4
  br label %18

14:                                               ; preds = %32
  %15 = getelementptr inbounds nuw i8, ptr %9, i64 64
  %16 = load i32, ptr %15, align 4, !tbaa !6
  %17 = getelementptr inbounds nuw i32, ptr %0, i64 %4
  store i32 %16, ptr %17, align 4, !tbaa !6
  ret void

18:                                               ; preds = %2, %32
  %19 = phi i32 [ 0, %2 ], [ %33, %32 ]
  %20 = sub nsw i32 %19, %3
  %21 = icmp ult i32 %20, 16
  br i1 %21, label %22, label %32

22:                                               ; preds = %18
  %23 = add nuw nsw i32 %20, 1
  %24 = zext nneg i32 %23 to i64
  %25 = getelementptr inbounds nuw i32, ptr %9, i64 %24
  %26 = getelementptr inbounds nuw i32, ptr %13, i64 %24
  %27 = zext nneg i32 %20 to i64
  %28 = getelementptr inbounds nuw i32, ptr %13, i64 %27
  %29 = load i32, ptr %28, align 4, !tbaa !6
  %30 = load i32, ptr %26, align 4, !tbaa !6
  %31 = tail call noundef i32 @llvm.smax.i32(i32 %29, i32 %30)
  store i32 %31, ptr %25, align 4, !tbaa !6
  br label %32

32:                                               ; preds = %22, %18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %33 = add nuw nsw i32 %19, 1
  %34 = icmp eq i32 %33, 31
  br i1 %34, label %14, label %18, !llvm.loop !11
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}

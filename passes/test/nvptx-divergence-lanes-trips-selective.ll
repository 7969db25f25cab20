; The trips fold (__pasta_div_lanes_trips at a uniform loop's preheader,
; nvptx-divergence-lanes-trips.ll) is made only where the step the fold
; tests at run time is off a sector even where every value it is computed
; from is a multiple of one: its fixed part (the step with those values 0)
; is not a multiple of 32 bytes. store_pitch is lud's store loop,
; a[(off + i) * n + off + tx]: its step 4n has no fixed part, so for every
; n a multiple of 8 the run-time step test passes and the helper's code and
; its call at every entry bought nothing (lud 2.00x -> 2.10x plain on an
; H200). store_pitch1 steps by rows of n + 1 floats (nw_tile's shape): its
; fixed part 4 is off a sector, so it keeps the fold.
; -pasta-div-lanes-trips-selective=0 folds both, as before the rule.
; The IR is clang's -O2 output for
;   __global__ void store_pitch(float *a, int n, int off) {
;       __shared__ float s[16][16];
;       int tx = threadIdx.x;
;       s[tx][tx] = tx;
;       __syncthreads();
;   #pragma unroll 1
;       for (int i = 0; i < 16; i++)
;           a[(off + i) * n + off + tx] = s[i][tx];
;   }
; and store_pitch1, the same with (n + 1) for n.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-lanes-trips-selective=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=ALL

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z11store_pitchPfii__pasta_div(
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK: %pasta.div.step.ok = icmp eq i64
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z12store_pitch1Pfii__pasta_div(
; CHECK: %pasta.div.step.ok = icmp eq i64
; CHECK: call i32 @__pasta_div_lanes_trips(ptr %{{[a-z0-9.]+}}, i64 %{{[0-9]+}}, i64 16, i32 4, i32 4, i32 1, i32 1, i32 32,
; CHECK: %pasta.div.trips.ok = or i1 %pasta.div.step.ok,

; ALL-LABEL: define {{.*}}ptx_kernel void @_Z11store_pitchPfii__pasta_div(
; ALL: %pasta.div.step.ok = icmp eq i64
; ALL: call i32 @__pasta_div_lanes_trips(ptr %{{[a-z0-9.]+}}, i64 %{{[0-9]+}}, i64 16, i32 4, i32 4, i32 1, i32 1, i32 32,
; ALL-LABEL: define {{.*}}ptx_kernel void @_Z12store_pitch1Pfii__pasta_div(
; ALL: call i32 @__pasta_div_lanes_trips(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ11store_pitchPfiiE1s = internal unnamed_addr addrspace(3) global [16 x [16 x float]] undef, align 4
@_ZZ12store_pitch1PfiiE1s = internal unnamed_addr addrspace(3) global [16 x [16 x float]] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z11store_pitchPfii(ptr noundef writeonly captures(none) %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = uitofp nneg i32 %4 to float
  %6 = zext nneg i32 %4 to i64
  %7 = getelementptr inbounds nuw [16 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11store_pitchPfiiE1s to ptr), i64 %6
  %8 = getelementptr inbounds nuw float, ptr %7, i64 %6
  store float %5, ptr %8, align 4, !tbaa !11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ11store_pitchPfiiE1s to ptr), i64 %6
  %10 = add i32 %2, %4
  br label %12

11:                                               ; preds = %12
  ret void

12:                                               ; preds = %3, %12
  %13 = phi i32 [ 0, %3 ], [ %22, %12 ]
  %14 = zext nneg i32 %13 to i64
  %15 = getelementptr inbounds nuw [16 x float], ptr %9, i64 %14
  %16 = load float, ptr %15, align 4, !tbaa !11
  %17 = add nsw i32 %13, %2
  %18 = mul nsw i32 %17, %1
  %19 = add i32 %10, %18
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds float, ptr %0, i64 %20
  store float %16, ptr %21, align 4, !tbaa !11
  %22 = add nuw nsw i32 %13, 1
  %23 = icmp eq i32 %22, 16
  br i1 %23, label %11, label %12, !llvm.loop !13
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z12store_pitch1Pfii(ptr noundef writeonly captures(none) %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = uitofp nneg i32 %4 to float
  %6 = zext nneg i32 %4 to i64
  %7 = getelementptr inbounds nuw [16 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ12store_pitch1PfiiE1s to ptr), i64 %6
  %8 = getelementptr inbounds nuw float, ptr %7, i64 %6
  store float %5, ptr %8, align 4, !tbaa !11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ12store_pitch1PfiiE1s to ptr), i64 %6
  %10 = add nsw i32 %1, 1
  %11 = add i32 %2, %4
  br label %13

12:                                               ; preds = %13
  ret void

13:                                               ; preds = %3, %13
  %14 = phi i32 [ 0, %3 ], [ %23, %13 ]
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds nuw [16 x float], ptr %9, i64 %15
  %17 = load float, ptr %16, align 4, !tbaa !11
  %18 = add nsw i32 %14, %2
  %19 = mul nsw i32 %18, %10
  %20 = add i32 %11, %19
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds float, ptr %0, i64 %21
  store float %17, ptr %22, align 4, !tbaa !11
  %23 = add nuw nsw i32 %14, 1
  %24 = icmp eq i32 %23, 16
  br i1 %24, label %12, label %13, !llvm.loop !16
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
!16 = distinct !{!16, !14, !15}

; A shared access whose index is thread index y truncated to 10 bits or more
; (hotspot's halo store t_s[k / 18][k % 18], k = 16 * y + x, an i16 sum
; after clang's -O2) moves 16 times its lane stride per y: y itself, as a
; block is at most 1,024 threads high (UniformLoops::yTerm). In warps of
; 16-wide rows stacked in y its figures are then the derived ones
; (LaneAffine.h), so the copy measures it only where the rows are neither 32
; nor 16 wide (%pasta.div.unstacked16), as it does for an index of y not
; truncated; before, the truncation hid the term and every 16 x 16 warp
; called the access helper at each iteration. An 8-bit truncation (wrapped:
; (unsigned char)(16 * y + x), an `and 255`) may wrap between the rows of
; a warp: still measured in every warp of rows narrower than 32.
; The IR is clang's -O2 output for
;   __global__ void halo(const float *in, float *out) {
;     __shared__ float s[18][18];
;     for (int k = threadIdx.y * 16 + threadIdx.x; k < 324; k += 256)
;       s[k / 18][k % 18] = in[k];
;     __syncthreads();
;     out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y + 1][threadIdx.x + 1];
;   }
;   __global__ void wrapped(const float *in, float *out) {
;     __shared__ float s8[256];
;     unsigned char k = threadIdx.y * 16 + threadIdx.x;
;     s8[k] = in[threadIdx.x];
;     __syncthreads();
;     out[threadIdx.x] = s8[threadIdx.x];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4haloPKfPf__pasta_div(
; CHECK: %pasta.div.not32 = icmp ne i32 %[[W:[0-9]+]], 32
; CHECK: %[[NOT16:[0-9]+]] = icmp ne i32 %[[W]], 16
; CHECK: %pasta.div.unstacked16 = and i1 %pasta.div.not32, %[[NOT16]]
; The loop's shared store (hint 3), after the global load's full-row test:
; CHECK: %pasta.div.fullrow{{[0-9]*}} = icmp ne i32
; CHECK: br i1 %pasta.div.unstacked16, label %[[MEASURE:[0-9]+]], label %[[STORE:[0-9]+]]
; CHECK: [[MEASURE]]:
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %[[PTR:[0-9]+]], i32 4, i32 4, i32 3, i32 1,
; CHECK: [[STORE]]:
; CHECK-NEXT: store float %{{[0-9]+}}, ptr %[[PTR]], align 4

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z7wrappedPKfPf__pasta_div(
; CHECK-NOT: unstacked16
; CHECK: br i1 %pasta.div.not32{{(\.i)?}}, label %[[M8:[0-9]+]], label %[[S8:[0-9]+]]
; CHECK: [[M8]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr %[[P8:[0-9]+]], i32 4, i32 4, i32 3, i32 1,
; CHECK: [[S8]]:
; CHECK-NEXT: store float %{{[0-9]+}}, ptr %[[P8]], align 4
; CHECK-NOT: unstacked16
; CHECK-LABEL: define internal void @_Z7wrappedPKfPf__pasta_div_general(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4haloPKfPfE1s = internal unnamed_addr addrspace(3) global [18 x [18 x float]] undef, align 4
@_ZZ7wrappedPKfPfE2s8 = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z4haloPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %4 = shl nuw nsw i32 %3, 4
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = add nuw nsw i32 %4, %5
  %7 = icmp samesign ult i32 %6, 324
  br i1 %7, label %17, label %8

8:                                                ; preds = %17, %2
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = zext nneg i32 %3 to i64
  %10 = getelementptr inbounds nuw [18 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ4haloPKfPfE1s to ptr), i64 %9
  %11 = zext nneg i32 %5 to i64
  %12 = getelementptr inbounds nuw float, ptr %10, i64 %11
  %13 = getelementptr inbounds nuw i8, ptr %12, i64 76
  %14 = load float, ptr %13, align 4, !tbaa !11
  %15 = zext nneg i32 %6 to i64
  %16 = getelementptr inbounds nuw float, ptr %1, i64 %15
  store float %14, ptr %16, align 4, !tbaa !11
  ret void

17:                                               ; preds = %2, %17
  %18 = phi i32 [ %30, %17 ], [ %6, %2 ]
  %19 = zext nneg i32 %18 to i64
  %20 = getelementptr inbounds nuw float, ptr %0, i64 %19
  %21 = load float, ptr %20, align 4, !tbaa !11
  %22 = trunc i32 %18 to i16
  %23 = udiv i16 %22, 18
  %24 = zext nneg i16 %23 to i64
  %25 = getelementptr inbounds nuw [18 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ4haloPKfPfE1s to ptr), i64 %24
  %26 = trunc i32 %18 to i16
  %27 = urem i16 %26, 18
  %28 = zext nneg i16 %27 to i64
  %29 = getelementptr inbounds nuw float, ptr %25, i64 %28
  store float %21, ptr %29, align 4, !tbaa !11
  %30 = add nuw nsw i32 %18, 256
  %31 = icmp samesign ult i32 %18, 68
  br i1 %31, label %17, label %8, !llvm.loop !13
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7wrappedPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %4 = shl nuw nsw i32 %3, 4
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = add nuw nsw i32 %4, %5
  %7 = zext nneg i32 %5 to i64
  %8 = getelementptr inbounds nuw float, ptr %0, i64 %7
  %9 = load float, ptr %8, align 4, !tbaa !11
  %10 = and i32 %6, 255
  %11 = zext nneg i32 %10 to i64
  %12 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ7wrappedPKfPfE2s8 to ptr), i64 %11
  store float %9, ptr %12, align 4, !tbaa !11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %13 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ7wrappedPKfPfE2s8 to ptr), i64 %7
  %14 = load float, ptr %13, align 4, !tbaa !11
  %15 = getelementptr inbounds nuw float, ptr %1, i64 %7
  store float %14, ptr %15, align 4, !tbaa !11
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

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
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.mustprogress"}

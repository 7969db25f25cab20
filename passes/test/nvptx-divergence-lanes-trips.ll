; A lane-shaped access of a uniform loop is measured once per loop entry,
; at its first trip's address, when its step is a multiple of a sector
; (pasta.div.step.ok); else at every trip. nw_tile's store loop,
; score[(row0 + r) * w + col0 + tx + 1] with w = n + 1, moves by 4(n + 1)
; bytes a trip, never a multiple of 32: each of its 16 stores ran the lanes
; helper. Now, where the access is measured by the inline lanes helper, in
; a known space, of a power-of-2 size up to 32, in a block run at every
; trip, __pasta_div_lanes_trips at the preheader sums what the trips' one-row
; measurements add beyond the first's times the trips (into its own
; registers, added once per entry with the fold's test), and its result
; joins the step test: the loop measures no trip where either holds.
; store_rows is nw_tile's store loop (unrolled twice by clang: two stores,
; 8 trips, step 8(n + 1)); store_generic stores through a pointer of
; unknown space (the general helper: its step test alone); store_some
; stores in a block that not every trip runs (its executions counted: the
; step test alone). -pasta-div-lanes-trips=0 keeps the step test alone.
; The IR is clang's -O2 output for
;   __global__ void store_rows(int *score, int n, int row0, int col0) {
;       __shared__ int s[17][17];
;       int tx = threadIdx.x;
;       int w = n + 1;
;       s[tx + 1][tx] = tx;
;       __syncthreads();
;       for (int r = 1; r <= 16; r++)
;           score[(row0 + r) * w + col0 + tx + 1] = s[r][tx + 1];
;   }
;   __global__ void store_generic(int **p, int n) {
;       __shared__ int s[17][17];
;       int tx = threadIdx.x;
;       int *q = p[0];
;       s[tx + 1][tx] = tx;
;       __syncthreads();
;   #pragma unroll 1
;       for (int r = 1; r <= 16; r++)
;           q[r * (n + 1) + tx] = s[r][tx + 1];
;   }
;   __global__ void store_some(int *score, int n) {
;       __shared__ int s[17][17];
;       int tx = threadIdx.x;
;       s[tx + 1][tx] = tx;
;       __syncthreads();
;       for (int r = 1; r <= 16; r++)
;           if (s[r][0] > 0)
;               score[r * (n + 1) + tx] = s[r][tx + 1];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-lanes-trips=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF

; Each store: the step test, the trips' sum at the same first address (8
; trips, size 4, stride 4, global, a store; sectors and ideal sectors, no
; bank conflicts), the two tests or-ed, the first trip's measurement, its
; figures and the sum's added under the test.
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z10store_rowsPiiii__pasta_div(
; CHECK: %pasta.div.step.ok = icmp eq i64 %{{[0-9]+}}, 0
; CHECK: %[[T:[0-9]+]] = call i32 @__pasta_div_lanes_trips(ptr %[[START:[a-z0-9.]+]], i64 %[[STEP:[0-9]+]], i64 8, i32 4, i32 4, i32 1, i32 1, i32 %{{[0-9]+}}, ptr %[[S:pasta.div.trips.beyond[0-9]*]], ptr %[[I:pasta.div.trips.beyond[0-9]*]], ptr %pasta.div.none)
; CHECK-NEXT: %[[TOK:[0-9]+]] = icmp ne i32 %[[T]], 0
; CHECK-NEXT: %pasta.div.trips.ok = or i1 %pasta.div.step.ok, %[[TOK]]
; CHECK: %[[OK:[0-9]+]] = and i1 %pasta.div.trips.ok, %pasta.div.nowrap.all
; CHECK: call i32 @__pasta_div_access_lanes(ptr %[[START]], i32 4, i32 4, i32 1, i32 1,
; CHECK: load i32, ptr %[[S]]
; CHECK: select i1 %[[OK]], i64 %{{[0-9]+}}, i64 0
; CHECK: load i32, ptr %[[I]]
; CHECK: select i1 %[[OK]], i64 %{{[0-9]+}}, i64 0
; CHECK: %pasta.div.step.ok{{[0-9]+}} = icmp eq i64
; CHECK: call i32 @__pasta_div_lanes_trips(ptr %{{[a-z0-9.]+}}, i64 %[[STEP]], i64 8, i32 4, i32 4, i32 1, i32 1,
; The loop: each store measured only where its test failed.
; CHECK: xor i1 %[[OK]], true

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z13store_genericPPii__pasta_div(
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK: %pasta.div.step.ok = icmp eq i64
; CHECK-NOT: __pasta_div_lanes_trips

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z10store_somePii__pasta_div(
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK: %pasta.div.step.ok = icmp eq i64
; CHECK-NOT: __pasta_div_lanes_trips
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z10store_somePii__pasta_divu(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z10store_rowsPiiii__pasta_div(
; OFF-NOT: __pasta_div_lanes_trips
; OFF: %pasta.div.step.ok = icmp eq i64
; OFF-NOT: __pasta_div_lanes_trips
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z13store_genericPPii__pasta_div(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ10store_rowsPiiiiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4
@_ZZ13store_genericPPiiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4
@_ZZ10store_somePiiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z10store_rowsPiiii(ptr noundef writeonly captures(none) %0, i32 noundef %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = add nsw i32 %1, 1
  %7 = add nuw nsw i32 %5, 1
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ10store_rowsPiiiiE1s to ptr), i64 %8
  %10 = zext nneg i32 %5 to i64
  %11 = getelementptr inbounds nuw i32, ptr %9, i64 %10
  store i32 %5, ptr %11, align 4, !tbaa !6
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %12 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ10store_rowsPiiiiE1s to ptr), i64 %8
  %13 = add i32 %3, %5
  br label %15

14:                                               ; preds = %15
  ret void

15:                                               ; preds = %15, %4
  %16 = phi i32 [ 1, %4 ], [ %36, %15 ]
  %17 = zext nneg i32 %16 to i64
  %18 = getelementptr inbounds nuw [17 x i32], ptr %12, i64 %17
  %19 = load i32, ptr %18, align 4, !tbaa !6
  %20 = add nsw i32 %16, %2
  %21 = mul nsw i32 %20, %6
  %22 = add i32 %13, %21
  %23 = sext i32 %22 to i64
  %24 = getelementptr i32, ptr %0, i64 %23
  %25 = getelementptr i8, ptr %24, i64 4
  store i32 %19, ptr %25, align 4, !tbaa !6
  %26 = add nuw nsw i32 %16, 1
  %27 = zext nneg i32 %26 to i64
  %28 = getelementptr inbounds nuw [17 x i32], ptr %12, i64 %27
  %29 = load i32, ptr %28, align 4, !tbaa !6
  %30 = add nsw i32 %26, %2
  %31 = mul nsw i32 %30, %6
  %32 = add i32 %13, %31
  %33 = sext i32 %32 to i64
  %34 = getelementptr i32, ptr %0, i64 %33
  %35 = getelementptr i8, ptr %34, i64 4
  store i32 %29, ptr %35, align 4, !tbaa !6
  %36 = add nuw nsw i32 %16, 2
  %37 = icmp eq i32 %36, 17
  br i1 %37, label %14, label %15, !llvm.loop !11
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z13store_genericPPii(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = load ptr, ptr %0, align 8, !tbaa !13
  %5 = add nuw nsw i32 %3, 1
  %6 = zext nneg i32 %5 to i64
  %7 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ13store_genericPPiiE1s to ptr), i64 %6
  %8 = zext nneg i32 %3 to i64
  %9 = getelementptr inbounds nuw i32, ptr %7, i64 %8
  store i32 %3, ptr %9, align 4, !tbaa !6
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %10 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ13store_genericPPiiE1s to ptr), i64 %6
  %11 = add nsw i32 %1, 1
  br label %13

12:                                               ; preds = %13
  ret void

13:                                               ; preds = %2, %13
  %14 = phi i32 [ 1, %2 ], [ %22, %13 ]
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds nuw [17 x i32], ptr %10, i64 %15
  %17 = load i32, ptr %16, align 4, !tbaa !6
  %18 = mul nsw i32 %14, %11
  %19 = add nsw i32 %18, %3
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr %4, i64 %20
  store i32 %17, ptr %21, align 4, !tbaa !6
  %22 = add nuw nsw i32 %14, 1
  %23 = icmp eq i32 %22, 17
  br i1 %23, label %12, label %13, !llvm.loop !16
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z10store_somePii(ptr noundef writeonly captures(none) %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = add nuw nsw i32 %3, 1
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ10store_somePiiE1s to ptr), i64 %5
  %7 = zext nneg i32 %3 to i64
  %8 = getelementptr inbounds nuw i32, ptr %6, i64 %7
  store i32 %3, ptr %8, align 4, !tbaa !6
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = add nsw i32 %1, 1
  br label %11

10:                                               ; preds = %37
  ret void

11:                                               ; preds = %37, %2
  %12 = phi i32 [ 1, %2 ], [ %38, %37 ]
  %13 = zext nneg i32 %12 to i64
  %14 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ10store_somePiiE1s to ptr), i64 %13
  %15 = load i32, ptr %14, align 4, !tbaa !6
  %16 = icmp sgt i32 %15, 0
  br i1 %16, label %17, label %24

17:                                               ; preds = %11
  %18 = mul nsw i32 %12, %9
  %19 = add nsw i32 %18, %3
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr %0, i64 %20
  %22 = getelementptr inbounds nuw i32, ptr %14, i64 %5
  %23 = load i32, ptr %22, align 4, !tbaa !6
  store i32 %23, ptr %21, align 4, !tbaa !6
  br label %24

24:                                               ; preds = %11, %17
  %25 = add nuw nsw i32 %12, 1
  %26 = zext nneg i32 %25 to i64
  %27 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ10store_somePiiE1s to ptr), i64 %26
  %28 = load i32, ptr %27, align 4, !tbaa !6
  %29 = icmp sgt i32 %28, 0
  br i1 %29, label %30, label %37

30:                                               ; preds = %24
  %31 = mul nsw i32 %25, %9
  %32 = add nsw i32 %31, %3
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds i32, ptr %0, i64 %33
  %35 = getelementptr inbounds nuw i32, ptr %27, i64 %5
  %36 = load i32, ptr %35, align 4, !tbaa !6
  store i32 %36, ptr %34, align 4, !tbaa !6
  br label %37

37:                                               ; preds = %30, %24
  %38 = add nuw nsw i32 %12, 2
  %39 = icmp eq i32 %38, 17
  br i1 %39, label %10, label %11, !llvm.loop !18
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
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!14, !14, i64 0}
!14 = !{!"p1 int", !15, i64 0}
!15 = !{!"any pointer", !8, i64 0}
!16 = distinct !{!16, !12, !17}
!17 = !{!"llvm.loop.unroll.disable"}
!18 = distinct !{!18, !12}

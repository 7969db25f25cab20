; A loop whose header runs with its preheader's lanes in each of its
; iterations (UniformLoops::countedHeader) and branches there on an interval
; of the iteration, `X u< Bound` with X = Start + k in trip k (nw_tile's
; anti-diagonal: `m - tx u< 16` in trip m of 31), counted the if-then body
; at the branch (__pasta_div_branch_body: a vote, a population count and
; three adds) at every trip. Each lane knows at the preheader in which
; trips it takes the body (a mask of at most 32 bits), so one
; __pasta_div_interval_body there (start, bound, trips, whether the body is
; the false side) adds what the trips' calls added, and the loop measures
; nothing for the branch. Not for more than 32 trips, trips not a constant,
; or a step other than 1 per trip: the trip's call stays.
; -pasta-div-interval-bodies=0 keeps the trip's call everywhere.
; A shared access of the body at a lane stride other than its size (diag's
; s[tx][c - 1]: 4 bytes at 64), aligned: in a trip whose lanes are one row
; its lanes helper adds only those lanes' bank conflicts, so
; __pasta_div_interval_conflicts at the preheader sums them over the trips'
; lanes into the group's bank register and returns 1 where every trip is
; one row; the trip measures only where it returned 0. Not for outside's
; s[tx] (stride = size: nothing to add). -pasta-div-interval-conflicts=0
; measures at every trip.
; The IR is clang's -O2 output (-nocudalib) for
;   // Anti-diagonal sweeps: the body on m - tx u< 16 in trip m of 31.
;   __global__ void diag(int *out, const int *in) {
;     __shared__ int s[17][17];
;     int tx = threadIdx.x;
;     s[tx + 1][0] = in[tx];
;     s[0][tx + 1] = in[tx + 16];
;     __syncthreads();
;     for (int m = 0; m < 31; m++) {
;       int c = m - tx + 1;
;       if (c >= 1 && c <= 16)
;         { int a = s[tx][c - 1], b = s[tx][c]; s[tx + 1][c] = a > b ? a : b; }
;       __syncthreads();
;     }
;     out[tx] = s[tx + 1][16];
;   }
;   // The body on the other side: skipped where m - tx u< 16.
;   __global__ void outside(int *out, const int *in) {
;     __shared__ int s[64];
;     int tx = threadIdx.x;
;     s[tx] = in[tx];
;     __syncthreads();
;     for (int m = 0; m < 31; m++) {
;       unsigned c = m - tx;
;       if (c >= 16)
;         s[tx] += 1;
;       __syncthreads();
;     }
;     out[tx] = s[tx];
;   }
;   // 40 trips: more than a 32-bit mask holds; the trip's vote stays.
;   __global__ void longer(int *out, const int *in) {
;     __shared__ int s[64];
;     int tx = threadIdx.x;
;     s[tx] = in[tx];
;     __syncthreads();
;     for (int m = 0; m < 40; m++) {
;       if ((unsigned)(m - tx) < 16u)
;         s[tx] += 1;
;       __syncthreads();
;     }
;     out[tx] = s[tx];
;   }
;   // Trips from an argument: not a constant; the trip's vote stays.
;   __global__ void bytrips(int *out, const int *in, int n) {
;     __shared__ int s[64];
;     int tx = threadIdx.x;
;     s[tx] = in[tx];
;     __syncthreads();
;     for (int m = 0; m < n; m++) {
;       if ((unsigned)(m - tx) < 16u)
;         s[tx] += 1;
;       __syncthreads();
;     }
;     out[tx] = s[tx];
;   }
;   // A step of 2 per trip: not an interval of the trip; the vote stays.
;   __global__ void stride2(int *out, const int *in) {
;     __shared__ int s[64];
;     int tx = threadIdx.x;
;     s[tx] = in[tx];
;     __syncthreads();
;     for (int m = 0; m < 31; m++) {
;       if ((unsigned)(2 * m - tx) < 16u)
;         s[tx] += 1;
;       __syncthreads();
;     }
;     out[tx] = s[tx];
;   }
;; with `outside`'s `icmp ugt i32 %13, 15` written as its equal `icmp ult
; i32 %13, 16` with the successors swapped (clang's form puts the body on
; the true side).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-interval-bodies=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-interval-conflicts=0 -S %s | FileCheck %s --check-prefix=NOBANK

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_div(
; CHECK: %[[START:[0-9]+]] = sub i32 0, %{{[0-9]+}}
; CHECK-NEXT: call void @__pasta_div_interval_body(i32 %[[START]], i32 16, i32 31, i32 0, ptr %pasta.div, ptr %pasta.div.bw, ptr %pasta.div.none)
; CHECK-NEXT: %[[OK:[0-9]+]] = call i32 @__pasta_div_interval_conflicts(i32 %[[START]], i32 16, i32 31, i32 0, i32 4, i32 64, i32 %{{[0-9]+}}, ptr %[[BANK:pasta.div.group[0-9]*]])
; CHECK-NEXT: br label
; CHECK-NOT: __pasta_div_branch_body
; CHECK: %pasta.div.trips.measure = icmp eq i32 %[[OK]], 0
; CHECK-NEXT: br i1 %pasta.div.trips.measure, label %[[TRIP:[0-9]+]], label
; CHECK: [[TRIP]]:
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 64, i32 3, i32 1, i32 %{{[0-9]+}}, {{.*}}, ptr %[[BANK]])
; CHECK-NOT: __pasta_div_branch_body
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z7outsidePiPKi__pasta_div(
; CHECK: %[[START2:[0-9]+]] = sub i32 0, %{{[0-9]+}}
; CHECK-NEXT: call void @__pasta_div_interval_body(i32 %[[START2]], i32 16, i32 31, i32 1, ptr %pasta.div, ptr %pasta.div.bw, ptr %pasta.div.none)
; CHECK-NOT: __pasta_div_interval_conflicts
; CHECK-NOT: __pasta_div_branch_body
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6longerPiPKi__pasta_div(
; CHECK-NOT: __pasta_div_interval_body
; CHECK: call void @__pasta_div_branch_body(
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z7bytripsPiPKii__pasta_div(
; CHECK-NOT: __pasta_div_interval_body
; CHECK: call void @__pasta_div_branch_body(
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z7stride2PiPKi__pasta_div(
; CHECK-NOT: __pasta_div_interval_body
; CHECK: call void @__pasta_div_branch_body(
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_divu(

; NOBANK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_div(
; NOBANK: call void @__pasta_div_interval_body(
; NOBANK-NOT: __pasta_div_interval_conflicts
; NOBANK-NOT: pasta.div.trips.measure
; NOBANK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 64, i32 3,
; NOBANK-LABEL: define {{.*}}ptx_kernel void @_Z7outsidePiPKi__pasta_div(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKi__pasta_div(
; OFF-NOT: __pasta_div_interval_body
; OFF-NOT: __pasta_div_interval_conflicts
; OFF: call void @__pasta_div_branch_body(
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z7outsidePiPKi__pasta_div(
; OFF-NOT: __pasta_div_interval_body
; OFF: call void @__pasta_div_branch_body(
; OFF-NOT: __pasta_div_interval_body
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z6longerPiPKi__pasta_div(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4diagPiPKiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4
@_ZZ7outsidePiPKiE1s = internal unnamed_addr addrspace(3) global [64 x i32] undef, align 4
@_ZZ6longerPiPKiE1s = internal unnamed_addr addrspace(3) global [64 x i32] undef, align 4
@_ZZ7bytripsPiPKiiE1s = internal unnamed_addr addrspace(3) global [64 x i32] undef, align 4
@_ZZ7stride2PiPKiE1s = internal unnamed_addr addrspace(3) global [64 x i32] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z4diagPiPKi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr %1, i64 %4
  %6 = load i32, ptr %5, align 4, !tbaa !4
  %7 = add nuw nsw i32 %3, 1
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %8
  store i32 %6, ptr %9, align 4, !tbaa !4
  %10 = getelementptr i8, ptr %5, i64 64
  %11 = load i32, ptr %10, align 4, !tbaa !4
  %12 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %8
  store i32 %11, ptr %12, align 4, !tbaa !4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %13 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiE1s to ptr), i64 %4
  br label %18

14:                                               ; preds = %32
  %15 = getelementptr inbounds nuw i8, ptr %9, i64 64
  %16 = load i32, ptr %15, align 4, !tbaa !4
  %17 = getelementptr inbounds nuw i32, ptr %0, i64 %4
  store i32 %16, ptr %17, align 4, !tbaa !4
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
  %29 = load i32, ptr %28, align 4, !tbaa !4
  %30 = load i32, ptr %26, align 4, !tbaa !4
  %31 = tail call i32 @llvm.smax.i32(i32 %29, i32 %30)
  store i32 %31, ptr %25, align 4, !tbaa !4
  br label %32

32:                                               ; preds = %22, %18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %33 = add nuw nsw i32 %19, 1
  %34 = icmp eq i32 %33, 31
  br i1 %34, label %14, label %18, !llvm.loop !8
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7outsidePiPKi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr %1, i64 %4
  %6 = load i32, ptr %5, align 4, !tbaa !4
  %7 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ7outsidePiPKiE1s to ptr), i64 %4
  store i32 %6, ptr %7, align 4, !tbaa !4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %11

8:                                                ; preds = %18
  %9 = load i32, ptr %7, align 4, !tbaa !4
  %10 = getelementptr inbounds nuw i32, ptr %0, i64 %4
  store i32 %9, ptr %10, align 4, !tbaa !4
  ret void

11:                                               ; preds = %2, %18
  %12 = phi i32 [ 0, %2 ], [ %19, %18 ]
  %13 = sub nsw i32 %12, %3
  %14 = icmp ult i32 %13, 16
  br i1 %14, label %18, label %15

15:                                               ; preds = %11
  %16 = load i32, ptr %7, align 4, !tbaa !4
  %17 = add nsw i32 %16, 1
  store i32 %17, ptr %7, align 4, !tbaa !4
  br label %18

18:                                               ; preds = %15, %11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %19 = add nuw nsw i32 %12, 1
  %20 = icmp eq i32 %19, 31
  br i1 %20, label %8, label %11, !llvm.loop !10
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z6longerPiPKi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr %1, i64 %4
  %6 = load i32, ptr %5, align 4, !tbaa !4
  %7 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ6longerPiPKiE1s to ptr), i64 %4
  store i32 %6, ptr %7, align 4, !tbaa !4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %11

8:                                                ; preds = %25
  %9 = load i32, ptr %7, align 4, !tbaa !4
  %10 = getelementptr inbounds nuw i32, ptr %0, i64 %4
  store i32 %9, ptr %10, align 4, !tbaa !4
  ret void

11:                                               ; preds = %25, %2
  %12 = phi i32 [ 0, %2 ], [ %26, %25 ]
  %13 = sub nsw i32 %12, %3
  %14 = icmp ult i32 %13, 16
  br i1 %14, label %15, label %18

15:                                               ; preds = %11
  %16 = load i32, ptr %7, align 4, !tbaa !4
  %17 = add nsw i32 %16, 1
  store i32 %17, ptr %7, align 4, !tbaa !4
  br label %18

18:                                               ; preds = %15, %11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %19 = or disjoint i32 %12, 1
  %20 = sub nsw i32 %19, %3
  %21 = icmp ult i32 %20, 16
  br i1 %21, label %22, label %25

22:                                               ; preds = %18
  %23 = load i32, ptr %7, align 4, !tbaa !4
  %24 = add nsw i32 %23, 1
  store i32 %24, ptr %7, align 4, !tbaa !4
  br label %25

25:                                               ; preds = %22, %18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %26 = add nuw nsw i32 %12, 2
  %27 = icmp eq i32 %26, 40
  br i1 %27, label %8, label %11, !llvm.loop !11
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7bytripsPiPKii(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds nuw i32, ptr %1, i64 %5
  %7 = load i32, ptr %6, align 4, !tbaa !4
  %8 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ7bytripsPiPKiiE1s to ptr), i64 %5
  store i32 %7, ptr %8, align 4, !tbaa !4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = icmp sgt i32 %2, 0
  br i1 %9, label %13, label %10

10:                                               ; preds = %20, %3
  %11 = load i32, ptr %8, align 4, !tbaa !4
  %12 = getelementptr inbounds nuw i32, ptr %0, i64 %5
  store i32 %11, ptr %12, align 4, !tbaa !4
  ret void

13:                                               ; preds = %3, %20
  %14 = phi i32 [ %21, %20 ], [ 0, %3 ]
  %15 = sub nsw i32 %14, %4
  %16 = icmp ult i32 %15, 16
  br i1 %16, label %17, label %20

17:                                               ; preds = %13
  %18 = load i32, ptr %8, align 4, !tbaa !4
  %19 = add nsw i32 %18, 1
  store i32 %19, ptr %8, align 4, !tbaa !4
  br label %20

20:                                               ; preds = %17, %13
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %21 = add nuw nsw i32 %14, 1
  %22 = icmp eq i32 %21, %2
  br i1 %22, label %10, label %13, !llvm.loop !12
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7stride2PiPKi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr %1, i64 %4
  %6 = load i32, ptr %5, align 4, !tbaa !4
  %7 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ7stride2PiPKiE1s to ptr), i64 %4
  store i32 %6, ptr %7, align 4, !tbaa !4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %11

8:                                                ; preds = %19
  %9 = load i32, ptr %7, align 4, !tbaa !4
  %10 = getelementptr inbounds nuw i32, ptr %0, i64 %4
  store i32 %9, ptr %10, align 4, !tbaa !4
  ret void

11:                                               ; preds = %2, %19
  %12 = phi i32 [ 0, %2 ], [ %20, %19 ]
  %13 = shl nuw nsw i32 %12, 1
  %14 = sub nsw i32 %13, %3
  %15 = icmp ult i32 %14, 16
  br i1 %15, label %16, label %19

16:                                               ; preds = %11
  %17 = load i32, ptr %7, align 4, !tbaa !4
  %18 = add nsw i32 %17, 1
  store i32 %18, ptr %7, align 4, !tbaa !4
  br label %19

19:                                               ; preds = %16, %11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %20 = add nuw nsw i32 %12, 1
  %21 = icmp eq i32 %20, 31
  br i1 %21, label %8, label %11, !llvm.loop !13
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C++ TBAA"}
!8 = distinct !{!8, !9}
!9 = !{!"llvm.loop.mustprogress"}
!10 = distinct !{!10, !9}
!11 = distinct !{!11, !9}
!12 = distinct !{!12, !9}
!13 = distinct !{!13, !9}

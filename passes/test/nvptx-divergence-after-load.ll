; A group measured at each execution whose first access is a load is
; measured just after the load: the helper's code (mask, ballots, its
; first lane's adds; none of it uses the loaded value) then runs while the
; load is in flight, where before it ran first and delayed the load's
; issue (nw_traceback: one thread, three dependent loads a step). The same
; lanes and address, so the same figures.
; -pasta-div-measure-after-load=0 measures before the load, as before.
; The IR is clang's -O2 output (device only, no CUDA headers) for
;   __global__ void walk(const int *s, int *out, int n) {
;     int i = n, len = 0;
;     while (i > 0) {
;       int here = s[i];
;       i = here == s[i - 1] ? i - 1 : i - 2;
;       len++;
;     }
;     *out = len;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-measure-after-load=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4walkPKiPii__pasta_div(
; CHECK: %[[P1:[0-9]+]] = getelementptr inbounds nuw i32, ptr %0, i64
; CHECK-NEXT: %[[V1:[0-9]+]] = load i32, ptr %[[P1]], align 4
; CHECK-NEXT: call i32 @__pasta_div_access(ptr %[[P1]], i32 4,
; CHECK: %[[P2:[0-9]+]] = getelementptr inbounds nuw i32, ptr %0, i64
; CHECK-NEXT: %[[V2:[0-9]+]] = load i32, ptr %[[P2]], align 4
; CHECK-NEXT: call i32 @__pasta_div_access(ptr %[[P2]], i32 4,
; CHECK: icmp eq i32 %[[V1]], %[[V2]]
; CHECK: ret void

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4walkPKiPii__pasta_div(
; OFF: %[[P1:[0-9]+]] = getelementptr inbounds nuw i32, ptr %0, i64
; OFF-NEXT: call i32 @__pasta_div_access(ptr %[[P1]], i32 4,
; OFF-NEXT: load i32, ptr %[[P1]], align 4
; OFF: %[[P2:[0-9]+]] = getelementptr inbounds nuw i32, ptr %0, i64
; OFF-NEXT: call i32 @__pasta_div_access(ptr %[[P2]], i32 4,
; OFF-NEXT: load i32, ptr %[[P2]], align 4
; OFF: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4walkPKiPii(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %20

5:                                                ; preds = %3, %5
  %6 = phi i32 [ %17, %5 ], [ %2, %3 ]
  %7 = phi i32 [ %18, %5 ], [ 0, %3 ]
  %8 = zext nneg i32 %6 to i64
  %9 = getelementptr inbounds nuw i32, ptr %0, i64 %8
  %10 = load i32, ptr %9, align 4, !tbaa !4
  %11 = add nsw i32 %6, -1
  %12 = zext nneg i32 %11 to i64
  %13 = getelementptr inbounds nuw i32, ptr %0, i64 %12
  %14 = load i32, ptr %13, align 4, !tbaa !4
  %15 = icmp eq i32 %10, %14
  %16 = add nsw i32 %6, -2
  %17 = select i1 %15, i32 %11, i32 %16
  %18 = add nuw nsw i32 %7, 1
  %19 = icmp sgt i32 %17, 0
  br i1 %19, label %5, label %20, !llvm.loop !8

20:                                               ; preds = %5, %3
  %21 = phi i32 [ 0, %3 ], [ %18, %5 ]
  store i32 %21, ptr %1, align 4, !tbaa !4
  ret void
}

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }

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

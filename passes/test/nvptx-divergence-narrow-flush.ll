; At a return, a divergence copy flushes its registers (32 bits each; a
; counter's value is its register, or group registers times their
; accesses, sign-extended to 64 bits).
; 1. Where every counter's value is one 32-bit register alone, the tests
;    are made in 32 bits: the lone-lane test on the registers' OR (taken
;    zero-extended: zero exactly when the OR is), that lane's adds by
;    __pasta_div_flush_add32 (tested in 32 bits, sign-extended when added),
;    and the fast path's test on the OR sign-extended in the warps that go
;    on (the extension of an OR is the OR of the extensions). hotspot's
;    exit: seven extensions, a 64-bit OR chain and seven 64-bit tests in
;    every warp before.
; 2. A partial warp (nw_tile's 16-lane blocks) whose registers are not all
;    small took the staged flush; registers hold figures less derived ones,
;    so they are often negative, which the unsigned test takes for large
;    and stages for out-of-line __pasta_flush calls. The test is
;    now signed, on the OR of each register's magnitude v ^ (v >> 63)
;    (__pasta_div_flush_lanes_fast_signed), and each sum is added
;    sign-extended (__pasta_div_flush_counter_lanes_signed).
; -pasta-div-narrow-flush-tests=0 and -pasta-div-signed-lanes-flush=0 keep
; the flush as it was.
; The IR is clang's -O2 output for
;   __global__ void walk(int *out, const int *in, int n) {
;       int tx = threadIdx.x;
;       int s = 0;
;       for (int i = 0; i < n; i++)
;           if (in[i * 33 + tx] > 0)
;               s += in[i];
;       out[tx] = s;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-narrow-flush-tests=0 -pasta-div-signed-lanes-flush=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4walkPiPKii__pasta_div(
; CHECK: %[[O1:[0-9]+]] = or i32 %[[R1:[0-9]+]], %{{[0-9]+}}
; CHECK-NEXT: or i32 %[[O1]], %{{[0-9]+}}
; CHECK-NEXT: or i32
; CHECK-NEXT: or i32
; CHECK-NEXT: %[[ANY:[0-9]+]] = or i32 %{{[0-9]+}}, %[[R6:[0-9]+]]
; CHECK-NEXT: %[[Z:[0-9]+]] = zext i32 %[[ANY]] to i64
; CHECK-NEXT: %[[LONE:[0-9]+]] = call i64 @__pasta_div_flush_lone(i64 %[[Z]])
; CHECK-NEXT: %pasta.div.lone = icmp ne i64 %[[LONE]], 0
; CHECK-NEXT: br i1 %pasta.div.lone, label %[[ONE:[0-9]+]], label %[[REST:[0-9]+]]
; CHECK: [[ONE]]:
; CHECK-NOT: call void @__pasta_div_flush_add(
; CHECK: call void @__pasta_div_flush_add32(ptr addrspace(1) %{{[0-9]+}}, i32 %[[R1]])
; CHECK: call void @__pasta_div_flush_add32(ptr addrspace(1) %{{[0-9]+}}, i32 %[[R6]])
; CHECK-NOT: call void @__pasta_div_flush_add(
; CHECK: [[REST]]:
; CHECK-NEXT: %[[S:[0-9]+]] = sext i32 %[[ANY]] to i64
; CHECK-NEXT: call i64 @__pasta_flush_is_fast(i64 %[[S]])
; CHECK: call void @__pasta_flush_counter_fast(
; The partial warp's test: each register's magnitude, or-ed, in 32 bits.
; CHECK: %[[SIGN:[0-9]+]] = ashr i32 %[[R1]], 31
; CHECK-NEXT: xor i32 %[[R1]], %[[SIGN]]
; CHECK: %[[MAG:[0-9]+]] = zext i32 %{{[0-9]+}} to i64
; CHECK-NEXT: %[[FAST:[0-9]+]] = call i64 @__pasta_div_flush_lanes_fast_signed(i64 %[[MAG]])
; CHECK-NEXT: %pasta.div.lanes{{[0-9]*}} = icmp ne i64 %[[FAST]], 0
; CHECK-NEXT: br i1 %pasta.div.lanes{{[0-9]*}}, label %[[SUMS:[0-9]+]], label %[[STAGED:[0-9]+]]
; CHECK: [[SUMS]]:
; CHECK: call void @__pasta_div_flush_counter_lanes_signed(
; CHECK-NOT: call void @__pasta_flush(
; CHECK: [[STAGED]]:
; CHECK: call void @__pasta_flush(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4walkPiPKii__pasta_div(
; OFF-NOT: __pasta_div_flush_add32
; OFF: call i64 @__pasta_div_flush_lone(i64
; OFF-NOT: __pasta_div_flush_add32
; OFF: call i64 @__pasta_div_flush_lanes_fast(i64
; OFF-NOT: _signed
; OFF: call void @__pasta_div_flush_counter_lanes(
; OFF-NOT: _signed
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4walkPiPKii__pasta_divu(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4walkPiPKii(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = icmp sgt i32 %2, 0
  br i1 %5, label %6, label %28

6:                                                ; preds = %3
  %7 = and i32 %2, 1
  %8 = icmp eq i32 %2, 1
  br i1 %8, label %13, label %9

9:                                                ; preds = %6
  %10 = and i32 %2, 2147483646
  br label %32

11:                                               ; preds = %61
  %12 = icmp eq i32 %7, 0
  br i1 %12, label %28, label %13

13:                                               ; preds = %11, %6
  %14 = phi i32 [ 0, %6 ], [ %63, %11 ]
  %15 = phi i32 [ 0, %6 ], [ %62, %11 ]
  %16 = icmp ne i32 %7, 0
  tail call void @llvm.assume(i1 %16)
  %17 = mul nuw nsw i32 %14, 33
  %18 = add nuw nsw i32 %17, %4
  %19 = zext nneg i32 %18 to i64
  %20 = getelementptr inbounds nuw i32, ptr %1, i64 %19
  %21 = load i32, ptr %20, align 4, !tbaa !6
  %22 = icmp sgt i32 %21, 0
  br i1 %22, label %23, label %28

23:                                               ; preds = %13
  %24 = zext nneg i32 %14 to i64
  %25 = getelementptr inbounds nuw i32, ptr %1, i64 %24
  %26 = load i32, ptr %25, align 4, !tbaa !6
  %27 = add nsw i32 %26, %15
  br label %28

28:                                               ; preds = %11, %23, %13, %3
  %29 = phi i32 [ 0, %3 ], [ %62, %11 ], [ %27, %23 ], [ %15, %13 ]
  %30 = zext nneg i32 %4 to i64
  %31 = getelementptr inbounds nuw i32, ptr %0, i64 %30
  store i32 %29, ptr %31, align 4, !tbaa !6
  ret void

32:                                               ; preds = %61, %9
  %33 = phi i32 [ 0, %9 ], [ %63, %61 ]
  %34 = phi i32 [ 0, %9 ], [ %62, %61 ]
  %35 = phi i32 [ 0, %9 ], [ %64, %61 ]
  %36 = mul nuw nsw i32 %33, 33
  %37 = add nuw nsw i32 %36, %4
  %38 = zext nneg i32 %37 to i64
  %39 = getelementptr inbounds nuw i32, ptr %1, i64 %38
  %40 = load i32, ptr %39, align 4, !tbaa !6
  %41 = icmp sgt i32 %40, 0
  br i1 %41, label %42, label %47

42:                                               ; preds = %32
  %43 = zext nneg i32 %33 to i64
  %44 = getelementptr inbounds nuw i32, ptr %1, i64 %43
  %45 = load i32, ptr %44, align 4, !tbaa !6
  %46 = add nsw i32 %45, %34
  br label %47

47:                                               ; preds = %32, %42
  %48 = phi i32 [ %46, %42 ], [ %34, %32 ]
  %49 = or disjoint i32 %33, 1
  %50 = mul nuw nsw i32 %49, 33
  %51 = add nuw nsw i32 %50, %4
  %52 = zext nneg i32 %51 to i64
  %53 = getelementptr inbounds nuw i32, ptr %1, i64 %52
  %54 = load i32, ptr %53, align 4, !tbaa !6
  %55 = icmp sgt i32 %54, 0
  br i1 %55, label %56, label %61

56:                                               ; preds = %47
  %57 = zext nneg i32 %49 to i64
  %58 = getelementptr inbounds nuw i32, ptr %1, i64 %57
  %59 = load i32, ptr %58, align 4, !tbaa !6
  %60 = add nsw i32 %59, %48
  br label %61

61:                                               ; preds = %56, %47
  %62 = phi i32 [ %60, %56 ], [ %48, %47 ]
  %63 = add nuw nsw i32 %33, 2
  %64 = add i32 %35, 2
  %65 = icmp eq i32 %64, %10
  br i1 %65, label %11, label %32, !llvm.loop !11
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

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

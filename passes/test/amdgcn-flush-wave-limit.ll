; The flush's fast path sums a warp's counts in 32 bits when every lane's
; count is below (2^32 / lanes): 2^26 for a wave64 (the default runtime
; for amdgcn), 2^27 for a wave32 ("+wavefrontsize32": the w32 runtime).
; 2^27 with 64 lanes let a full wave of counts in [2^26, 2^27) wrap its
; sum (device_rt.c, pasta_small_count_limit; found in review, 2026-11-29).
; RUN: %opt -passes=pasta-count -pasta-variants=0 -S %s 2>/dev/null | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @wave64(
; CHECK-NOT: 134217727
; CHECK: icmp {{ugt|ult|uge}} i64 %{{.*}}, {{67108863|67108864}}
; CHECK-NOT: 134217727
; CHECK: ret void
define amdgpu_kernel void @wave64(ptr addrspace(1) %a, i32 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 3
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}

attributes #0 = { "target-cpu"="gfx90a" }

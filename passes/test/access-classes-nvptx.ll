; pasta-print-access-classes in CUDA kernels: with no loop moving the
; offset, the coefficient of threadIdx.x decides (stride-1 = coalesced).
; RUN: %opt -passes=pasta-print-access-classes -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Args = type { ptr, i32 }

; a[blockIdx.x * blockDim.x + threadIdx.x] = 0
; CHECK: pasta: access linear 0:0 w stride-1 stride=1 offset=4*(ctaid.x*ntid.x + tid.x)
define ptx_kernel void @linear(ptr %a) {
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %base, %tid
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  ret void
}

; a[threadIdx.x * 33]: 33 elements between neighbouring lanes.
; CHECK: pasta: access by_33 0:0 r stride-k stride=33 offset=132*tid.x
define ptx_kernel void @by_33(ptr %a, ptr %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = mul nuw nsw i32 %tid, 33
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  %x = load float, ptr %p
  store float %x, ptr %out
  ret void
}
; CHECK-NEXT: pasta: access by_33 0:0 w constant stride=0 offset=0

; a[threadIdx.y * n + threadIdx.x]: tid.y does not change along x.
; CHECK: pasta: access two_d 0:0 w stride-1 stride=1 offset=4*(%n*tid.y + tid.x)
define ptx_kernel void @two_d(ptr %a, i32 %n) {
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = mul i32 %ty, %n
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %row, %tx
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  ret void
}

; a[threadIdx.y]: like blockIdx.x, the same for the lanes of a warp (taking
; blockDim.x to be a multiple of 32): a broadcast.
; CHECK: pasta: access only_y 0:0 w constant stride=0 offset=4*tid.y
define ptx_kernel void @only_y(ptr %a) {
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %i.ext = zext i32 %ty to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  ret void
}

; a[blockIdx.x + n], and atomicAdd(&a[0], 1): one address for the whole warp.
; CHECK: pasta: access uniform 0:0 w constant stride=0 offset=4*(ctaid.x + %n)
; CHECK-NEXT: pasta: access uniform 0:0 w constant stride=0 offset=0
define ptx_kernel void @uniform(ptr %a, i32 %n) {
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = add nsw i32 %bid, %n
  %i.ext = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  %old = atomicrmw add ptr %a, i32 1 monotonic
  ret void
}

; a[idx[threadIdx.x]]: idx is coalesced, a is read through loaded data.
; CHECK: pasta: access gather 0:0 r stride-1 stride=1 offset=4*tid.x
; CHECK-NEXT: pasta: access gather 0:0 w indirect stride=0 offset=4*%k
define ptx_kernel void @gather(ptr %a, ptr %idx) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid.ext = zext i32 %tid to i64
  %q = getelementptr inbounds i32, ptr %idx, i64 %tid.ext
  %k = load i32, ptr %q
  %k.ext = sext i32 %k to i64
  %p = getelementptr inbounds float, ptr %a, i64 %k.ext
  store float 0.0, ptr %p
  ret void
}

; args.a[threadIdx.x] with the struct passed by value: loading the pointer
; from the kernel parameter does not make the access indirect.
; CHECK: pasta: access byval_param 0:0 r constant stride=0 offset=0
; CHECK-NEXT: pasta: access byval_param 0:0 w stride-1 stride=1 offset=4*tid.x
define ptx_kernel void @byval_param(ptr byval(%struct.Args) align 8 %args) {
  %a = load ptr, ptr %args
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid.ext = zext i32 %tid to i64
  %p = getelementptr inbounds float, ptr %a, i64 %tid.ext
  store float 0.0, ptr %p
  ret void
}

; for k: a[threadIdx.x * n + k]: the loop decides (stride-1 along k),
; although neighbouring lanes are n elements apart.
; CHECK: pasta: access row_loop 0:0 r stride-1 stride=1 offset=4*%n*tid.x + 4*i<loop>
define ptx_kernel void @row_loop(ptr %a, ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = mul nuw nsw i32 %tid, %n
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %i = add nuw nsw i32 %row, %k
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  %x = load float, ptr %p
  %s.next = fadd float %s, %x
  %k.next = add nuw nsw i32 %k, 1
  %done = icmp eq i32 %k.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Grid-stride loop: the loop's symbolic step (gridDim.x * blockDim.x)
; decides, so it is stride-k with no constant stride, although the lanes of
; a warp access consecutive elements.
; CHECK: pasta: access grid_stride 0:0 w stride-k stride=0 offset=4*%start + 4*nctaid.x*ntid.x*i<loop>
define ptx_kernel void @grid_stride(ptr %a, i32 %start, i32 %n) {
entry:
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %gdim = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %step = mul i32 %gdim, %bdim
  br label %loop

loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  %i.next = add nuw i32 %i, %step
  %done = icmp uge i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; a[laneid]: differs between lanes, but not through tid.x; not decided.
; CHECK: pasta: access lane 0:0 w unknown stride=0 offset=4*laneid
define ptx_kernel void @lane(ptr %a) {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %i.ext = zext i32 %lane to i64
  %p = getelementptr inbounds float, ptr %a, i64 %i.ext
  store float 0.0, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

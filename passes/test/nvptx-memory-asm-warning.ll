; Loads, stores and copies written in inline assembly in forms PASTA does
; not read (InlineAsmMemory.h: memory-model loads, a cp.async whose source
; size is known only at run time, predicated stores, atomics) are opaque to
; PASTA and missing from the counts. PASTA says so at compile time, naming
; the kernels and the device functions they reach that hold such assembly;
; assembly that moves no memory (mov of %laneid, arithmetic,
; cp.async.wait_all) is not named, nor a mnemonic that only contains "ld."
; inside another word (a register named %fld.x), nor the forms it counts
; (clang's __ldcs: nvptx-inline-asm-memory.ll), which it named before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-kernels='^quiet$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The count ("4 more": 'predicated', 'atomic', 'labelled', 'bulkvar')
; leaves out 'hinted' and 'waits', which the warning named before.
; CHECK: warning: pasta: inline assembly that loads, stores or copies memory is not counted (its accesses and bytes are missing from the profile) in 'streaming', 'stage' and 4 more{{$}}
; CHECK-NOT: 'quiet'
; CHECK-NOT: 'lanes'
; QUIET-NOT: inline assembly

define ptx_kernel void @streaming(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v = call float asm sideeffect "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l"(ptr addrspace(1) %in)
  store float %v, ptr addrspace(1) %out
  ret void
}

; A device function a kernel reaches: cp.async after a brace, its source
; size a register.
define void @stage(ptr addrspace(3) %dst, ptr addrspace(1) %src, i32 %n) noinline {
  call void asm sideeffect "{cp.async.cg.shared.global [$0], [$1], 16, $2;}", "r,l,r"(ptr addrspace(3) %dst, ptr addrspace(1) %src, i32 %n)
  ret void
}

define ptx_kernel void @tile(ptr addrspace(3) %dst, ptr addrspace(1) %src, i32 %n) {
  call void @stage(ptr addrspace(3) %dst, ptr addrspace(1) %src, i32 %n)
  ret void
}

; A predicated store.
define ptx_kernel void @predicated(ptr addrspace(1) %out, i32 %x) {
  call void asm sideeffect "{.reg .pred p; setp.ne.s32 p, $1, 0; @p st.global.u32 [$0], $1;}", "l,r"(ptr addrspace(1) %out, i32 %x)
  ret void
}

define ptx_kernel void @atomic(ptr addrspace(1) %out) {
  %o = call i32 asm sideeffect "atom.global.add.u32 $0, [$1], 1;", "=r,l"(ptr addrspace(1) %out)
  ret void
}

; A load behind a label (a branch elsewhere may reach it again).
define ptx_kernel void @labelled(ptr addrspace(1) %in) {
  %v = call i32 asm sideeffect "{ $$L_again: ld.global.u32 $0, [$1]; }", "=r,l"(ptr addrspace(1) %in)
  ret void
}

; A bulk copy of a run-time size.
define ptx_kernel void @bulkvar(ptr addrspace(1) %in, i32 %n) {
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}"(i32 0, ptr addrspace(1) %in, i32 %n, i32 64)
  ret void
}

; Counted (nvptx-inline-asm-memory.ll), or no memory: not named.
define ptx_kernel void @hinted(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v = call float asm "ld.global.cs.f32 $0, [$1];", "=f,l"(ptr addrspace(1) %in)
  store float %v, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @waits() {
  call void asm sideeffect "cp.async.wait_all;", "~{memory}"()
  ret void
}

; No memory: the lane id, and a register whose name ends in "ld".
define ptx_kernel void @quiet(ptr addrspace(1) %out) {
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %f = call i32 asm "{.reg .b32 %fld; mov.b32 %fld, $1; add.s32 $0, %fld, 1;}", "=r,r"(i32 %l)
  store i32 %f, ptr addrspace(1) %out
  ret void
}

define void @lanes(ptr addrspace(1) %out) noinline {
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  store i32 %l, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @uses_lanes(ptr addrspace(1) %out) {
  call void @lanes(ptr addrspace(1) %out)
  ret void
}

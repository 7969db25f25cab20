; With -pasta-launch-count-at-exit the grid's first thread counts the launch
; where it ends, not at the kernel's entry: before every return and every
; instruction that ends the thread (ThreadExits.h), after that exit's flush.
; Each thread leaves through exactly one of them, once, so the launch is
; counted once (the entry `red` delays a one-block kernel's first warp).
; Without the option (the default) the count stays at entry.
; A kernel that calls a device function (not the runtime's) keeps it at
; entry. The copies cloned from the counted kernel (register-capped,
; working-set) count where it does; the plain copy counts nothing.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-launch-count-at-exit -S %s | FileCheck %s --check-prefix=EXIT
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=ENTRY

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Two returns: each counts the launch after its flush, none at entry.
; EXIT-LABEL: define ptx_kernel void @two_returns(
; EXIT-NEXT: entry:
; EXIT-NOT: call void @__pasta_count_launch
; EXIT: early:
; EXIT-NEXT: call void @__pasta_count_launch_inline(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0)
; EXIT-NEXT: ret void
; EXIT: done:
; EXIT-NOT: call void @__pasta_count_launch
; EXIT: call void @__pasta_flush
; EXIT-NOT: ret void
; EXIT: call void @__pasta_count_launch_inline(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0)
; EXIT-NEXT: ret void
; ENTRY-LABEL: define ptx_kernel void @two_returns(
; ENTRY-NEXT: entry:
; ENTRY-NEXT: call void @__pasta_count_launch_inline(
; ENTRY-NOT: call void @__pasta_count_launch
; ENTRY-LABEL: define ptx_kernel void @ends_in_asm(
define ptx_kernel void @two_returns(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %empty = icmp sge i32 %t, %n
  br i1 %empty, label %early, label %body
early:
  ret void
body:
  %i = phi i32 [ %t, %entry ], [ %next, %body ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p
  %next = add i32 %i, 32
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

; A thread that ends in inline assembly (`exit;`) never reaches the return:
; the launch is counted before the exit too.
; EXIT-LABEL: define ptx_kernel void @ends_in_asm(
; EXIT-NOT: call void @__pasta_count_launch
; EXIT: finished:
; EXIT: call void @__pasta_count_launch_threads_inline(
; EXIT-NEXT: call void asm sideeffect "exit;", ""()
; EXIT: work:
; EXIT: call void @__pasta_count_launch_threads_inline(
; EXIT-NEXT: ret void
define ptx_kernel void @ends_in_asm(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = load i32, ptr addrspace(1) %out
  %last = icmp uge i32 %t, %v
  br i1 %last, label %finished, label %work
finished:
  call void asm sideeffect "exit;", ""()
  unreachable
work:
  store i32 1, ptr addrspace(1) %out
  ret void
}

; A kernel that calls a device function keeps the count at entry: the
; first thread could end inside the callee (inline `exit;` there), past
; every exit of the kernel.
; EXIT-LABEL: define ptx_kernel void @calls_helper(
; EXIT-NEXT: entry:
; EXIT-NEXT: call void @__pasta_count_launch{{(_threads)?}}_inline(
; EXIT-NOT: call void @__pasta_count_launch
; EXIT: ret void
; The copies, after the kernels.
; EXIT-LABEL: define ptx_kernel void @two_returns__pasta_plain(
; EXIT-NOT: call void @__pasta_count_launch
; EXIT-LABEL: define ptx_kernel void @ends_in_asm__pasta_plain(
; EXIT-NOT: call void @__pasta_count_launch
; EXIT-LABEL: define ptx_kernel void @two_returns__pasta_capped(
; EXIT-NEXT: entry:
; EXIT-NOT: call void @__pasta_count_launch
; EXIT: early:
; EXIT-NEXT: call void @__pasta_count_launch_inline(
define ptx_kernel void @calls_helper(ptr addrspace(1) %out) {
entry:
  call void @helper(ptr addrspace(1) %out)
  ret void
}

define void @helper(ptr addrspace(1) %out) noinline {
entry:
  %v = load i32, ptr addrspace(1) %out
  %stop = icmp eq i32 %v, 0
  br i1 %stop, label %finished, label %work
finished:
  call void asm sideeffect "exit;", ""()
  unreachable
work:
  store i32 1, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

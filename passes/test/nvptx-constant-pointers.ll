; A pointer loaded from a __constant__ variable (address space 4) was
; written by the host (cudaMemcpyToSymbol): device code cannot write
; constant memory. Like a kernel's pointer argument it points to global
; memory, and its accesses need no run-time address-space test
; (AutoDock-GPU keeps all its device pointers in one such struct: 57 sites
; of gpu_calc_energrad were run-time tests, their address-space counters
; 456 of its 528).
; Not where the variable's initializer holds an address (the host did not
; write it: it may point to a constant, or anywhere), nor a variable only
; declared here (another module defines it), nor a volatile load: resolved
; at run time as before.
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Tables = type { ptr, ptr, i32 }

@table = internal addrspace(4) global %struct.Tables zeroinitializer, align 8
@data = internal addrspace(1) global [4 x float] zeroinitializer, align 4
@initialized = internal addrspace(4) global ptr addrspacecast (ptr addrspace(1) @data to ptr), align 8
@declared = external addrspace(4) global ptr, align 8

; CHECK: pasta: func from_table kind=kernel
define ptx_kernel void @from_table(float %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = load ptr, ptr addrspacecast (ptr addrspace(4) @table to ptr), align 8
  %outp = getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(4) @table to ptr), i64 8
  %out = load ptr, ptr %outp, align 8
  %a = getelementptr float, ptr %in, i32 %tid
  %x = load float, ptr %a, align 4
  %y = fadd float %x, %v
  %b = getelementptr float, ptr %out, i32 %tid
  store float %y, ptr %b, align 4
  ret void
}

; The same pointer loaded in a device function, and one held as an integer.
define internal void @helper(float %v) noinline {
entry:
  %outi = load i64, ptr addrspacecast (ptr addrspace(4) getelementptr inbounds (i8, ptr addrspace(4) @table, i64 8) to ptr), align 8
  %out = inttoptr i64 %outi to ptr
  store float %v, ptr %out, align 4
  ret void
}

define ptx_kernel void @calls_helper(float %v) {
entry:
  call void @helper(float %v)
  ret void
}

; CHECK: pasta: func not_written_by_host kind=kernel
define ptx_kernel void @not_written_by_host(float %v) {
entry:
  %p = load ptr, ptr addrspacecast (ptr addrspace(4) @initialized to ptr), align 8
  store float %v, ptr %p, align 4
  %q = load ptr, ptr addrspacecast (ptr addrspace(4) @declared to ptr), align 8
  store float %v, ptr %q, align 4
  %r = load volatile ptr, ptr addrspacecast (ptr addrspace(4) @table to ptr), align 8
  store float %v, ptr %r, align 4
  ret void
}

; CHECK: pasta: site ?:0 func=from_table counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: ld.global=1 ld.constant=2 st.global=1
; CHECK-NOT: generic
; CHECK-SAME: ldB.global=4 ldB.constant=16 stB.global=4 flop.f32=1{{$}}
; CHECK: pasta: site ?:0 func=not_written_by_host counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: ld.constant=3 st.generic=3
; CHECK-SAME: ldB.constant=24 stB.generic=12{{$}}
; CHECK: pasta: site ?:0 func=helper counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: ld.constant=1 st.global=1
; CHECK-NOT: generic
; CHECK-SAME: ldB.constant=8 stB.global=4{{$}}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The static mix of each kind of instruction, by address space and precision.
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] zeroinitializer
@table = internal addrspace(4) constant [4 x double] zeroinitializer

; CHECK: warning: pasta: 'mix' has no debug info
; CHECK: pasta: func mix kind=kernel calls=0
define ptx_kernel void @mix(ptr %in, ptr %out, ptr %indirect, half %h, bfloat %b, <2 x double> %v, i64 %i) {
entry:
  %slot = alloca float, align 4, addrspace(5)
  ; a kernel pointer argument is global, even through a GEP
  %p = getelementptr float, ptr %in, i64 %i
  %x = load float, ptr %p
  ; shared through an addrspacecast to generic
  %t = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %i
  %tg = addrspacecast ptr addrspace(3) %t to ptr
  store float %x, ptr %tg
  ; local
  store float %x, ptr addrspace(5) %slot
  ; constant
  %c = getelementptr [4 x double], ptr addrspace(4) @table, i64 0, i64 %i
  %d = load double, ptr addrspace(4) %c
  ; a pointer loaded from memory: generic, resolved at run time
  %q = load ptr, ptr %indirect
  %y = load <4 x float>, ptr %q
  ; arithmetic
  %h2 = fadd half %h, %h
  %b2 = fmul bfloat %b, %b
  %f = call float @llvm.fma.f32(float %x, float %x, float %x)
  %v2 = call <2 x double> @llvm.fmuladd.v2f64(<2 x double> %v, <2 x double> %v, <2 x double> %v)
  %dd = fsub double %d, %d
  %q1 = fdiv float %f, %x
  %s = call float @llvm.sqrt.f32(float %q1)
  %old = atomicrmw add ptr %out, i32 1 monotonic
  store float %s, ptr %out
  ret void
}
; CHECK-NEXT: pasta: site ?:0 func=mix counter=1 dyn=2
; CHECK-SAME: ld.global=2 ld.constant=1 ld.generic=1
; CHECK-SAME: st.global=1 st.shared=1 st.local=1
; CHECK-SAME: ldB.global=12 ldB.constant=8 ldB.generic=16
; CHECK-SAME: stB.global=4 stB.shared=4 stB.local=4
; CHECK-SAME: atom.global=1 atomB.global=4
; CHECK-SAME: flop.f16=1 flop.bf16=1 flop.f32=2 flop.f64=5 special=2{{$}}
; The single block runs once per thread: its count is the threads counter.
; CHECK-NEXT: pasta: derived 1 = +1*c10
; CHECK-NEXT: pasta: module counters=16

declare float @llvm.fma.f32(float, float, float)
declare <2 x double> @llvm.fmuladd.v2f64(<2 x double>, <2 x double>, <2 x double>)
declare float @llvm.sqrt.f32(float)

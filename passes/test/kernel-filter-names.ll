; PASTA_KERNELS matches a kernel's symbol, its name as PASTA prints it
; (LLVM's demangling: `main::'lambda'(float)`), and the C++ runtime's
; demangling (lambdas read `main::{lambda(float)#1}`). The two kernels are
; ns::apply<float, main::{lambda(float)#1}> and ns::scale<float>, as clang
; mangles them.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-kernels='\{lambda\(float\)#1\}' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINTED
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-kernels="main::'lambda'" -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINTED
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-kernels='^void ns::scale<float>\(float\*, int\)$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALE
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-kernels='^_ZN2ns5scale' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALE

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; PRINTED: pasta: func _ZN2ns5applyIfZ4mainEUlfE_EEvPT_iT0_ kind=kernel
; PRINTED-NOT: pasta: func _ZN2ns5scaleIfEEvPT_i
; SCALE-NOT: pasta: func _ZN2ns5applyIfZ4mainEUlfE_EEvPT_iT0_
; SCALE: pasta: func _ZN2ns5scaleIfEEvPT_i kind=kernel
; SCALE-NOT: pasta: func _ZN2ns5applyIfZ4mainEUlfE_EEvPT_iT0_

define ptx_kernel void @_ZN2ns5applyIfZ4mainEUlfE_EEvPT_iT0_(ptr %x, i32 %n) {
entry:
  %v = load float, ptr %x, align 4
  %m = fmul float %v, 3.0
  store float %m, ptr %x, align 4
  ret void
}

define ptx_kernel void @_ZN2ns5scaleIfEEvPT_i(ptr %x, i32 %n) {
entry:
  %v = load float, ptr %x, align 4
  %m = fmul float %v, 2.0
  store float %m, ptr %x, align 4
  ret void
}

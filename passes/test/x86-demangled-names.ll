; The plugin records each function's name demangled by LLVM's demangler
; beside its symbol (the function table's `display`), so that reports never
; depend on the C++ runtime of the machine that shows them: clang-22's
; manglings of constrained templates (`Q...E` requires-clauses), `Tn`
; non-type template parameters and lambdas in templates read as C++. C
; names have none; kernels that -fgpu-rdc made unique read as the name
; before "__intern__<hex>".
; RUN: %opt -passes=pasta-count -pasta-host -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; template <auto N> int addn(int)
; CHECK-DAG: pasta: func _Z4addnITnDaLi5EEii kind=host calls={{[0-9]+}} shown="int addn<5>(int)"{{$}}
; template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0> T half(T)
; CHECK-DAG: pasta: func _Z4halfIdTnNSt9enable_ifIXsr3stdE19is_floating_point_vIT_EEiE4typeELi0EES1_S1_ kind=host calls={{[0-9]+}} shown="double half<double, 0>(double)"{{$}}
; template <typename T> requires std::integral<T> T twice(T)
; CHECK-DAG: pasta: func _Z5twiceIiQsr3stdE8integralIT_EES0_S0_ kind=host calls={{[0-9]+}} shown="{{.*}}twice<int>({{.*}})"{{$}}
; The lambda in template <typename T> int viaLambda(T)
; CHECK-DAG: pasta: func _ZZ9viaLambdaIlEiT_ENKUliE_clEi kind=host calls={{[0-9]+}} shown="int viaLambda<long>(long)::'lambda'(int)::operator()(int) const"{{$}}
; CHECK-DAG: pasta: func _Z4addnITnDaLi5EEii__intern__1f2e kind=host calls={{[0-9]+}} shown="int addn<5>(int)"{{$}}
; CHECK-DAG: pasta: func sum kind=host calls={{[0-9]+}}{{$}}
; CHECK-DAG: pasta: func _Znot_a_mangling kind=host calls={{[0-9]+}}{{$}}

define i32 @_Z4addnITnDaLi5EEii(i32 %x) {
  %r = add i32 %x, 5
  ret i32 %r
}

define double @_Z4halfIdTnNSt9enable_ifIXsr3stdE19is_floating_point_vIT_EEiE4typeELi0EES1_S1_(double %x) {
  %r = fmul double %x, 5.0e-01
  ret double %r
}

define i32 @_Z5twiceIiQsr3stdE8integralIT_EES0_S0_(i32 %x) {
  %r = shl i32 %x, 1
  ret i32 %r
}

define i32 @_ZZ9viaLambdaIlEiT_ENKUliE_clEi(ptr %this, i32 %x) {
  %t = load i64, ptr %this, align 8
  %t32 = trunc i64 %t to i32
  %r = add i32 %x, %t32
  ret i32 %r
}

define internal i32 @_Z4addnITnDaLi5EEii__intern__1f2e(i32 %x) {
  %r = add i32 %x, 5
  ret i32 %r
}

define double @sum(ptr %p) {
  %v = load double, ptr %p, align 8
  ret double %v
}

define i32 @_Znot_a_mangling(ptr %p) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; A GPU target without a PASTA device runtime (here SPIR-V) is compiled
; untouched, with one warning, even with PASTA_HOST=1.
; RUN: %opt -passes=pasta-count -pasta-host -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err

; WARN: warning: pasta: target 'spirv64-unknown-unknown' is not supported (only nvptx64 and amdgcn GPUs); {{.*}} is compiled without instrumentation
; CHECK-NOT: __pasta

target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %a) {
  store float 1.0, ptr addrspace(1) %a
  ret void
}

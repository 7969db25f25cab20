; A PASTA_KERNELS regular expression whose nested counted repetitions
; would expand into gigabytes when compiled (four levels of {1,100} took 21 s
; and 6 GB in LLVM's regex compiler) is refused before it is compiled, with
; one error; nesting that stays small is accepted (include/pasta/regex_cost.h).
; RUN: env PASTA_KERNELS='(((k{1,100}){1,100}){1,100})' not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COSTLY
; RUN: not %opt -passes=pasta-count -pasta-kernels='((((k{1,100}){1,100}){1,100}){1,100})' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COSTLY
; RUN: env PASTA_KERNELS='((k{1,20}){1,20}){1,20}' %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FINE --allow-empty

; COSTLY: error: pasta: PASTA_KERNELS regular expression '{{.*}}' is too costly to compile: its counted repetitions expand to about {{[0-9]+}} atoms (at most 100000); write fewer nested {m,n}
; FINE-NOT: error

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %a) {
  store float 0.0, ptr %a
  ret void
}

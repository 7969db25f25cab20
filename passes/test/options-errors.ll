; Bad options stop the compile with one clear error naming the bad part.
; RUN: not %opt -passes=pasta-count -pasta-lines='k.cu:60-41' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REVERSED
; RUN: not %opt -passes=pasta-count -pasta-lines='k.cu:' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
; RUN: env PASTA_LINES='k.cu:4x' not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NUMBER
; RUN: not %opt -passes=pasta-count -pasta-kernels='(' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGEX
; A yes/no variable takes 1/0, on/off, true/false, yes/no (any case); any
; other value is an error naming the variable and what is accepted.
; RUN: env PASTA_HOST=maybe not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAG
; RUN: env PASTA_TRACE=2 not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAG2
; RUN: env PASTA_CAPPED_COPIES=some not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAG3

; A register cap for the divergence copies takes 16 to 255, or 0 for none.
; RUN: env PASTA_DIV_MAXNREG=8 not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
; RUN: env PASTA_DIV_MAXNREG=64k not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS2
; RUN: not %opt -passes=pasta-count -pasta-div-maxnreg=300 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS3
; RUN: env PASTA_DIV_DRAIN_EVERY=often not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRAIN
; RUN: not %opt -passes=pasta-count -pasta-div-drain-every=-1 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRAIN2
; RUN: env PASTA_WS_COMPACT_ABOVE=lots not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
; RUN: not %opt -passes=pasta-count -pasta-ws-compact-above=-1 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET2
; RUN: env PASTA_VARIANTS=wsonly not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANTS
; RUN: not %opt -passes=pasta-count -pasta-variants=2 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANTS2
; RUN: env PASTA_CLEANUP=most not %opt -passes=pasta-count -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEANUP

; REVERSED: error: pasta: bad range '60-41'
; EMPTY: error: pasta: {{.*}}'k.cu:'
; NUMBER: error: pasta: {{.*}}'4x'
; REGEX: error: pasta: bad PASTA_KERNELS regular expression '('
; FLAG: error: pasta: PASTA_HOST='maybe' is not 1/0, on/off, true/false or yes/no
; FLAG2: error: pasta: PASTA_TRACE='2' is not 1/0, on/off, true/false or yes/no
; FLAG3: error: pasta: PASTA_CAPPED_COPIES='some' is not 1/0, on/off, true/false or yes/no
; REGS: error: pasta: PASTA_DIV_MAXNREG='8' is not a register count: give 16 to 255, or 0 for no cap
; REGS2: error: pasta: PASTA_DIV_MAXNREG='64k' is not a register count
; REGS3: error: pasta: PASTA_DIV_MAXNREG='300' is not a register count
; DRAIN: error: pasta: PASTA_DIV_DRAIN_EVERY='often' is not a count of loop-header visits: give 0 or more
; DRAIN2: error: pasta: PASTA_DIV_DRAIN_EVERY='-1' is not a count of loop-header visits
; BUDGET: error: pasta: PASTA_WS_COMPACT_ABOVE='lots' is not a count of accesses: give 0 or more
; BUDGET2: error: pasta: PASTA_WS_COMPACT_ABOVE='-1' is not a count of accesses
; VARIANTS: error: pasta: PASTA_VARIANTS='wsonly' is not 1/0 (on/off, true/false, yes/no), plain or ws
; VARIANTS2: error: pasta: PASTA_VARIANTS='2' is not 1/0
; CLEANUP: error: pasta: PASTA_CLEANUP='most' is not div, all or 1/0 (on/off, true/false, yes/no)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %a) {
  store float 0.0, ptr %a
  ret void
}

; Divergence copies with many measured accesses (more than 32 groups of
; accesses with the same figures, passes/DivergenceMeasures.cpp
; OutOfLineAccessGroups) call the access helpers out of line: each call
; writes its eight figures to the copy's array %pasta.div.out, and the
; figures the access measures are added to their 32-bit registers. Inlined
; at every access, the helpers made such a copy tens of times the kernel's
; size (and ptxas's time with it). @many_bits of nvptx-counter-placement.ll
; has 34 loads, one per block; @diamond there has two and keeps the
; helpers inline.
; Its accesses of one address in every lane are measured here, to test the
; measuring code (-pasta-div-derive-whole=0; by default their figures are
; derived: nvptx-divergence-uniform.ll).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s
; -pasta-div-out-of-line-above=1 takes @diamond's two groups out of line too
; (ptxas's time on small copies; docs/design.md).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-out-of-line-above=1 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=ABOVE1

; ABOVE1-LABEL: define ptx_kernel void @diamond__pasta_div(
; ABOVE1: %pasta.div.out = alloca [8 x i32]
; ABOVE1-NOT: call i32 @__pasta_div_access{{(_lanes)?}}(
; ABOVE1: call i32 @__pasta_div_access{{(_lanes)?}}_out(
; ABOVE1: ret void

; CHECK-LABEL: define ptx_kernel void @diamond__pasta_div(
; CHECK-NOT: __pasta_div_access{{(_lanes)?}}_out
; CHECK: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK-NOT: __pasta_div_access{{(_lanes)?}}_out
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @many_bits__pasta_div(
; CHECK: %pasta.div.out = alloca [8 x i32]
; CHECK-NOT: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK: call i32 @__pasta_div_access_lanes_out(ptr %a, i32 4, i32 0, i32 1, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.out)
; The distinct global bytes (figure 3) and the sectors (5) go to registers.
; CHECK-NEXT: %[[P3:[0-9]+]] = getelementptr inbounds [8 x i32], ptr %pasta.div.out, i32 0, i32 3
; CHECK-NEXT: %[[F3:[0-9]+]] = load i32, ptr %[[P3]]
; CHECK-NEXT: %[[R3:[0-9]+]] = load i32, ptr %[[REG3:pasta.div.t[0-9]*]]
; CHECK-NEXT: %[[S3:[0-9]+]] = add i32 %[[R3]], %[[F3]]
; CHECK-NEXT: store i32 %[[S3]], ptr %[[REG3]]
; CHECK-NEXT: %[[P5:[0-9]+]] = getelementptr inbounds [8 x i32], ptr %pasta.div.out, i32 0, i32 5
; CHECK-NOT: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK: ret void

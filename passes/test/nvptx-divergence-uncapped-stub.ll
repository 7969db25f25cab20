; A divergence copy that, with the functions it calls, makes more out-of-line
; access calls than -pasta-div-uncapped-max-calls (default 0) gets no
; uncapped twin: ptxas compiles each entry whole-program, at about 20 ms per
; such call, and the twin doubled myocyte 12's divergence compile. In its
; place, under the twin's name (the host registers it whatever the device
; code holds), a kernel that returns at once and whose largest block is one
; thread, which the runtime never launches (host_rt/launch.c,
; twin_is_stub). @many_bits of nvptx-counter-placement.ll calls the
; helpers out of line (nvptx-divergence-out-of-line.ll); @diamond keeps them
; inline and its twin.
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-uncapped-max-calls=1000 -pasta-div-uncapped-max-measures=1000 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=TWIN

; The capped copy keeps its body and its cap.
; CHECK: define ptx_kernel void @many_bits__pasta_div(ptr %a) [[CAPPED:#[0-9]+]]
; CHECK: call i32 @__pasta_div_access_lanes_out(
; CHECK-LABEL: define ptx_kernel void @diamond__pasta_divu(ptr %a)
; CHECK: call i32 @__pasta_div_access{{(_lanes)?}}(
; CHECK: ret void
; CHECK: define ptx_kernel void @many_bits__pasta_divu(ptr %a) [[STUB:#[0-9]+]] {
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK-DAG: attributes [[CAPPED]] = { "nvvm.maxnreg"="{{[0-9]+}}" "pasta-variant" }
; CHECK-DAG: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }

; TWIN: define ptx_kernel void @many_bits__pasta_divu(ptr %a) [[TWIN:#[0-9]+]]
; TWIN: call i32 @__pasta_div_access_lanes_out(
; TWIN: ret void
; TWIN: attributes [[TWIN]] = { "pasta-variant" }

; A function of many lane-shaped access measurements (more than 20 calls of
; __pasta_div_access_lanes, -pasta-div-cold-general-above) calls
; __pasta_div_access_lanes_cold instead: the same figures, with the
; helper's general path (misaligned addresses, rows other than one aligned
; row or two full ones) out of line once per module, where inline it was
; most of each measurement's PTX and of ptxas's time. @many_bits of
; nvptx-counter-placement.ll has 34 loads, one per block, kept inline here
; (-pasta-div-out-of-line-above=64); its copy's body for rows other than
; 32 (@many_bits__pasta_div_general) measures each of them. @diamond's
; and @loop's three stay as they were.
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-out-of-line-above=64 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s
; At a higher limit no function changes.
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-out-of-line-above=64 -pasta-div-cold-general-above=34 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=ABOVE34
; Linked with the runtime and compiled, the general path is one function
; called from the measurements, not written out at each.
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-out-of-line-above=64 %S/nvptx-counter-placement.ll 2>/dev/null | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

; CHECK-LABEL: define ptx_kernel void @loop__pasta_div(
; CHECK-NOT: @__pasta_div_access_lanes_cold(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: @__pasta_div_access_lanes_cold(
; CHECK: ret void

; CHECK-LABEL: define internal void @diamond__pasta_div_general(
; CHECK-NOT: @__pasta_div_access_lanes_cold(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: @__pasta_div_access_lanes_cold(
; CHECK: ret void

; CHECK-LABEL: define internal void @many_bits__pasta_div_general(
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK-COUNT-34: call i32 @__pasta_div_access_lanes_cold(ptr %a, i32 4, i32 0, i32 1, i32 1,
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK: ret void

; ABOVE34-NOT: @__pasta_div_access_lanes_cold(
; ABOVE34-COUNT-34: call i32 @__pasta_div_access_lanes(ptr %a, i32 4, i32 0, i32 1, i32 1,
; ABOVE34-NOT: @__pasta_div_access_lanes_cold(

; PTX: .func pasta_div_lanes_general
; PTX-LABEL: .func many_bits__pasta_div_general(
; PTX-COUNT-34: call.uni pasta_div_lanes_general,
; PTX: ret;

; -pasta-where-taken-row-at-entry (off by default): the blocks a function
; counts where they are taken (__pasta_count_lanes) find their bank row of
; counters once, at the function's entry (__pasta_bank_row), and add
; through it (__pasta_count_lanes_in_row), instead of finding the row again
; at each block (%smid, %ctaid.x, a multiply and adds each time): in MCX's
; photon loop that was a quarter to a half of the 141 sites' ptxas time
; (docs/lab/2026-11-30-overhead3-73-compile.md). The counts are the same:
; a bank only spreads the atomics, and read-back sums every bank. The input
; is nvptx-many-counters-where-taken.ll with its loop taken as crowded: 34
; blocks of @start and 38 of @walk counted where taken.
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-where-taken-row-at-entry -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %S/nvptx-many-counters-where-taken.ll 2>/dev/null | FileCheck %s
; By default each block finds the row itself.
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %S/nvptx-many-counters-where-taken.ll 2>/dev/null | FileCheck --check-prefix=DEFAULT %s
; Linked with the runtime and compiled, the PTX reads %smid a few times
; (each function's entry and its flushes), not at every such block.
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-where-taken-row-at-entry -pasta-variants=0 -pasta-callee-counts=0 %S/nvptx-many-counters-where-taken.ll 2>/dev/null | llc -mcpu=sm_90 | FileCheck --check-prefix=PTX %s

; CHECK-LABEL: define internal i32 @start(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 80, i32 4096)
; CHECK-NOT: call void @__pasta_count_lanes(
; CHECK-COUNT-34: call void @__pasta_count_lanes_in_row(ptr addrspace(1) %[[ROW]], i32 {{[0-9]+}})
; CHECK-NOT: call void @__pasta_count_lanes
; CHECK: ret i32
; CHECK-LABEL: define ptx_kernel void @walk(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[KROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NOT: call void @__pasta_count_lanes(
; CHECK-COUNT-38: call void @__pasta_count_lanes_in_row(ptr addrspace(1) %[[KROW]], i32 {{[0-9]+}})
; CHECK-NOT: call void @__pasta_count_lanes
; CHECK: ret void

; DEFAULT-LABEL: define internal i32 @start(
; DEFAULT-NOT: __pasta_count_lanes_in_row
; DEFAULT-COUNT-34: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 80, i32 4096, i32 {{[0-9]+}})
; DEFAULT-LABEL: define ptx_kernel void @walk(
; DEFAULT-NOT: __pasta_count_lanes_in_row
; DEFAULT-COUNT-38: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 80, i32 4096, i32 {{[0-9]+}})

; PTX-LABEL: .func (.param .b32 func_retval0) start(
; PTX-COUNT-2: %smid
; PTX-NOT: %smid
; PTX-LABEL: .entry walk(

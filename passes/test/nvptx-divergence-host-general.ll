; A divergence copy with a body for rows of 32 and none for rows of 16 is
; that body alone (addRows32Body with a general kernel): no test of the row
; width at its entry, no call of a general function, and its uncapped twin
; is the same body. The copy as it was is a kernel of its own,
; <kernel>__pasta_divg (abi.h, PASTA_DIV_GENERAL_SUFFIX), capped as a copy
; without such a body (48 loop-free, 64 with loops), which the runtime
; launches for blocks whose warps are not rows of 32 (host_rt/launch.c).
; A kernel whose copy has no such body (gather) or also one for rows of 16
; (tile2d, whose entry still switches on the width) gets a stub there: one
; thread, returns at once, never launched. -pasta-div-host-general=0: the
; copy tests the width and calls <copy>_general, and every general kernel
; is a stub. Input: the kernels of nvptx-divergence-rows32.ll.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -S %S/nvptx-divergence-rows32.ll | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-host-general=0 -S %S/nvptx-divergence-rows32.ll | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; CHECK-SAME: #[[CAP32:[0-9]+]]
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|_general|__pasta_divg}}
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|_general|__pasta_divg}}
; CHECK-LABEL: define {{.*}} @_Z6stagedPKfPf__pasta_div(
; CHECK-LABEL: define {{.*}} @_Z6tile2dPKfPfi__pasta_div(
; CHECK: switch i32
; CHECK: call void @_Z6tile2dPKfPfi__pasta_div_general(
; CHECK-LABEL: define {{.*}} ptx_kernel void @_Z6streamPKfS0_Pfi__pasta_divg(
; CHECK-SAME: #[[CAP48:[0-9]+]]
; CHECK: call i32 @__pasta_div_row_width()
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-LABEL: define {{.*}} ptx_kernel void @_Z6loopedPfi__pasta_divg(
; CHECK-SAME: #[[CAP64:[0-9]+]]
; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_divu(
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|_general}}
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|_general}}
; CHECK-LABEL: define {{.*}} @_Z6stagedPKfPf__pasta_divu(
; CHECK: define {{.*}} ptx_kernel void @_Z6gatherPKfPKiPf__pasta_divg({{.*}}) {{.*}}#[[STUB:[0-9]+]] {
; CHECK-NEXT: ret void
; CHECK: define {{.*}} ptx_kernel void @_Z6tile2dPKfPfi__pasta_divg({{.*}}) {{.*}}#[[STUB]] {
; CHECK-NEXT: ret void
; CHECK-DAG: attributes #[[CAP32]] = { {{.*}}"nvvm.maxnreg"="32"
; CHECK-DAG: attributes #[[CAP48]] = { {{.*}}"nvvm.maxnreg"="48"
; CHECK-DAG: attributes #[[CAP64]] = { {{.*}}"nvvm.maxnreg"="64"
; CHECK-DAG: attributes #[[STUB]] = { {{.*}}"nvvm.maxntid"="1"

; OFF-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; OFF: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; OFF: call void @_Z6streamPKfS0_Pfi__pasta_div_general(
; OFF: define {{.*}} ptx_kernel void @_Z6streamPKfS0_Pfi__pasta_divg({{.*}}) {{.*}}#[[STUB:[0-9]+]] {
; OFF-NEXT: ret void
; OFF: attributes #[[STUB]] = { {{.*}}"nvvm.maxntid"="1"

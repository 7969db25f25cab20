; A divergence build compiles the copies divergence runs launch (the
; divergence copies; the counting kernel, its plain and capped copies for
; runs without PASTA_DIVERGENCE and for fallbacks) but no working-set
; copies, which only working-set runs launch and which were about a tenth
; of a myocyte-like kernel's divergence build (Options.cpp).
; PASTA_VARIANTS given (1, or ws) keeps them; a counting build keeps them
; by default. The kernels and device function of nvptx-counter-placement.ll:
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=DIV
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-variants=1 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=WS
; RUN: env PASTA_VARIANTS=yes %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=WS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s --check-prefix=WS

; DIV-NOT: __pasta_ws
; DIV: define ptx_kernel void @diamond__pasta_plain(
; DIV-NOT: __pasta_ws
; DIV: define ptx_kernel void @diamond__pasta_div(
; DIV-NOT: __pasta_ws

; WS: define ptx_kernel void @diamond__pasta_plain(
; WS: define ptx_kernel void @diamond__pasta_ws(
; WS: define ptx_kernel void @loop__pasta_ws(
; WS: define ptx_kernel void @many_bits__pasta_ws(

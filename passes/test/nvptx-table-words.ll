; A module's tables (strings, functions, sites, scopes, accesses, derived
; counters, divergence rows) reach the PTX as 64-bit words: each ends with
; the counters' address (after zero padding to 8 bytes), and the NVPTX
; printer writes a global holding an address in words, one without in
; bytes. The table itself is the same array as before; the descriptor still
; points at its start. ptxas parsed MCX's 3 MB of tables in 0.78 s as bytes,
; 0.19 s as words. The input
; is nvptx-counter-placement.ll; an AMD module keeps plain arrays.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %S/nvptx-counter-placement.ll 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 %S/nvptx-counter-placement.ll 2>/dev/null | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
; RUN: %opt -passes=pasta-count -S %S/amdgcn-callee-counts.ll 2>/dev/null | FileCheck %s --check-prefix=AMD

; CHECK: @[[CTR:__pasta_counters_[0-9a-f]+]] = internal addrspace(1) global [{{[0-9]+}} x i64] zeroinitializer, align 8
; The names (the module's path among them: any length) are followed by up to
; 7 bytes of padding, then the address.
; CHECK: @__pasta_strings_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [{{[0-9]+}} x i8], [{{[0-7]}} x i8], i64 }> <{ [{{[0-9]+}} x i8] c"diamond\00{{.*}}", [{{[0-7]}} x i8] zeroinitializer, i64 ptrtoint (ptr addrspace(1) @[[CTR]] to i64) }>, align 8
; CHECK: @__pasta_funcs_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [28 x i32], [0 x i8], i64 }> <{ [28 x i32] [i32 0, {{.*}}], [0 x i8] zeroinitializer, i64 ptrtoint (ptr addrspace(1) @[[CTR]] to i64) }>, align 8
; CHECK: @__pasta_sites_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [{{[0-9]+}} x i32], [0 x i8], i64 }> {{.*}} i64 ptrtoint (ptr addrspace(1) @[[CTR]] to i64) }>, align 8
; CHECK: @__pasta_scopes_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [{{[0-9]+}} x i32], [0 x i8], i64 }>
; CHECK: @__pasta_accesses_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [{{[0-9]+}} x i32], [0 x i8], i64 }>
; 15 words of derived rows: 4 bytes of padding.
; CHECK: @__pasta_derived_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [15 x i32], [4 x i8], i64 }>
; CHECK: @__pasta_div_rows_{{[0-9a-f]+}} = internal addrspace(1) constant <{ [0 x i32], [0 x i8], i64 }> <{ [0 x i32] zeroinitializer, [0 x i8] zeroinitializer, i64 ptrtoint (ptr addrspace(1) @[[CTR]] to i64) }>, align 8
; CHECK: @__pasta_desc_{{[0-9a-f]+}} = addrspace(1) constant {{.*}} ptrtoint (ptr addrspace(1) @__pasta_funcs_{{[0-9a-f]+}} to i64), i64 ptrtoint (ptr addrspace(1) @__pasta_sites_

; The first word: "diamond\0", little-endian.
; PTX-NOT: .b8 __pasta_{{(strings|funcs|sites|scopes|accesses|derived|div_rows)}}
; PTX: .global .align 8 .u64 __pasta_strings_{{[0-9a-f]+}}[{{[0-9]+}}] = {28268922526591332, {{.*}}, [[CTR:__pasta_counters_[0-9a-f]+]]};
; PTX: .global .align 8 .u64 __pasta_funcs_{{[0-9a-f]+}}[15] = {{{.*}}, [[CTR]]};
; PTX: .global .align 8 .u64 __pasta_sites_{{[0-9a-f]+}}[{{[0-9]+}}] = {{{.*}}, [[CTR]]};
; PTX: .global .align 8 .u64 __pasta_derived_{{[0-9a-f]+}}[9] = {{{.*}}, [[CTR]]};
; PTX: .global .align 8 .u64 __pasta_div_rows_{{[0-9a-f]+}}[1] = {[[CTR]]};

; AMD: @__pasta_strings_{{[0-9a-f]+}} = internal addrspace(1) constant [{{[0-9]+}} x i8] c"
; AMD: @__pasta_sites_{{[0-9a-f]+}} = internal addrspace(1) constant [{{[0-9]+}} x i32] [

; Texture fetches and surface loads and stores are inline PTX in clang's
; CUDA headers (tex2D: tex.2d.v4.f32.f32; tex2Dgather: tld4; surf2Dwrite:
; sust.b.2d.b32.trap; surf2Dread: suld; atomics on surfaces: sured). PASTA
; does not count them, and they are not the loads and stores the warning of
; nvptx-memory-asm-warning.ll looks for, so a kernel reading only through a
; texture showed no loads without a word (NVIDIA's simpleSurfaceWrite).
; PASTA says so at
; compile time, naming the kernels and the device functions they reach
; that hold them; queries (txq, suq) and a register named %tex are not
; named, nor a kernel the selection leaves out.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-kernels='^queries$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: warning: pasta: texture fetches and surface loads and stores (tex2D, surf2Dwrite and the like) are not counted (their bytes are missing from the profile) in 'fetch', 'write_texel' and 3 more{{$}}
; CHECK-NOT: inline assembly that loads
; QUIET-NOT: texture fetches

; tex2D<float> as clang's header writes it.
define ptx_kernel void @fetch(ptr addrspace(1) %out, i64 %tex, float %u, float %v) {
  %t = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %tex, float %u, float %v)
  %x = extractvalue { float, float, float, float } %t, 0
  store float %x, ptr addrspace(1) %out
  ret void
}

; surf2Dwrite, in a device function a kernel reaches.
define void @write_texel(i64 %surf, i32 %x, i32 %y, float %v) noinline {
  call void asm sideeffect "sust.b.2d.b32.trap [$0, {$1, $2}], {$3};", "l,r,r,r"(i64 %surf, i32 %x, i32 %y, float %v)
  ret void
}

define ptx_kernel void @writer(i64 %surf, i32 %x, i32 %y, float %v) {
  call void @write_texel(i64 %surf, i32 %x, i32 %y, float %v)
  ret void
}

; surf2Dread.
define ptx_kernel void @reader(ptr addrspace(1) %out, i64 %surf, i32 %x, i32 %y) {
  %r = call i32 asm sideeffect "suld.b.2d.b32.trap {$0}, [$1, {$2, $3}];", "=r,l,r,r"(i64 %surf, i32 %x, i32 %y)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

; tex2Dgather, after a brace.
define ptx_kernel void @gather(ptr addrspace(1) %out, i64 %tex, float %u, float %v) {
  %t = call { float, float, float, float } asm "{tld4.r.2d.v4.f32.f32 {$0, $1, $2, $3}, [$4, {$5, $6}];}", "=f,=f,=f,=f,l,f,f"(i64 %tex, float %u, float %v)
  %x = extractvalue { float, float, float, float } %t, 0
  store float %x, ptr addrspace(1) %out
  ret void
}

; An atomic add on a surface.
define ptx_kernel void @reduce(i64 %surf, i32 %x, i32 %v) {
  call void asm sideeffect "sured.b.add.2d.u32.trap [$0, {$1, 0}], $2;", "l,r,r"(i64 %surf, i32 %x, i32 %v)
  ret void
}

; Queries move no texel, and a register named %tex is not a fetch: not
; named.
define ptx_kernel void @queries(ptr addrspace(1) %out, i64 %tex, i64 %surf) {
  %w = call i32 asm "txq.width.b32 $0, [$1];", "=r,l"(i64 %tex)
  %h = call i32 asm "suq.height.b32 $0, [$1];", "=r,l"(i64 %surf)
  %s = call i32 asm "{.reg .b32 %tex; mov.b32 %tex, $1; add.s32 $0, %tex, $2;}", "=r,r,r"(i32 %w, i32 %h)
  store i32 %s, ptr addrspace(1) %out
  ret void
}

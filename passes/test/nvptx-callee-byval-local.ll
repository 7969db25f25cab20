; A device function's by-value parameter that it does not only load from
; (it writes to it, or merges its address with another pointer) has its
; address in local memory: PTX gives the address of a device function's
; .param in the .local space (the back end takes it with `mov` and
; `cvta.local`). Accesses through it are local, with no run-time space test
; and no per-space counters. moderngpu's cta_segreduce_t::segreduce writes
; its by-value flags `p` and selects between its shared storage and its
; by-value `init`: main tested each of those accesses at run time (eight
; counters a block) and its twin staged 66 counters at every return. A
; pointer that merges the copy with shared memory stays generic (one space
; is not proven); a copy only loaded from stays constant (ld.param).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; The premise, in the back end: the written copy and the merged one are
; addressed through cvta.local, the one only read with ld.param.
; RUN: llc -mcpu=sm_90 < %s | FileCheck --check-prefix=PTX %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%flags = type { i8, i8, i8, i8 }
%best = type { float, i32 }

@tile = internal addrspace(3) global [128 x %best] undef, align 4

define ptx_kernel void @segreduce(ptr %out, i32 %i) {
  %f = alloca %flags, align 1, addrspace(5)
  %f.gen = addrspacecast ptr addrspace(5) %f to ptr
  store i8 1, ptr %f.gen
  %init = alloca %best, align 4, addrspace(5)
  %init.gen = addrspacecast ptr addrspace(5) %init to ptr
  store float 0.0, ptr %init.gen
  %tile.gen = addrspacecast ptr addrspace(3) @tile to ptr
  %a = call float @written(ptr byval(%flags) align 1 %f.gen, i32 %i)
  %b = call float @merged(ptr byval(%best) align 4 %init.gen, ptr %tile.gen, i32 %i)
  %c = call float @read(ptr byval(%best) align 4 %init.gen)
  %s = fadd float %a, %b
  %t = fadd float %s, %c
  store float %t, ptr %out
  ret void
}

; written: p[3] = 0, then p[0] and p[3] read back: two local loads, one
; local store, through the copy; nothing tested at run time.
; SITES: site {{.*}} func=written {{.*}}ld.local=2 st.local=1 ldB.local=2 stB.local=1
; SITES-NOT: func=written {{.*}}generic
; CHECK-LABEL: define internal {{.*}} @written__pasta_callee(
; CHECK-NOT: __pasta_is_
; CHECK: ret
; PTX-LABEL: .func {{.*}} written(
; PTX: mov.b64 [[P:%rd[0-9]+]], written_param_0;
; PTX: st.local.b8 [[[P]]+3]
; PTX: ld.local.b8 {{.*}}[[[P]]+3]
define internal float @written(ptr byval(%flags) align 1 %p, i32 %i) noinline {
  %p3 = getelementptr inbounds i8, ptr %p, i64 3
  store volatile i8 0, ptr %p3
  %x = load volatile i8, ptr %p
  %y = load volatile i8, ptr %p3
  %s = add i8 %x, %y
  %v = uitofp i8 %s to float
  ret float %v
}

; merged: a load through select(shared element, &init) is generic (shared
; or local, tested at run time), the direct load of init's second field is
; local (the copy has an address: the back end made it local).
; SITES: site {{.*}} func=merged {{.*}}ld.local=1 ld.generic=1 ldB.local=4 ldB.generic=4
; CHECK-LABEL: define internal {{.*}} @merged__pasta_callee(
; CHECK: __pasta_is_shared(ptr %q)
; CHECK-NOT: __pasta_is_shared
; CHECK: ret
; PTX-LABEL: .func {{.*}} merged(
; PTX: mov.b64 [[I:%rd[0-9]+]], merged_param_0;
; PTX: cvta.local.u64 {{%rd[0-9]+}}, [[I]];
define internal float @merged(ptr byval(%best) align 4 %init, ptr %storage, i32 %i) noinline {
  %e = getelementptr %best, ptr %storage, i32 %i
  %c = icmp eq i32 %i, 0
  %q = select i1 %c, ptr %init, ptr %e
  %x = load float, ptr %q
  %n = getelementptr inbounds i8, ptr %init, i64 4
  %k = load volatile i32, ptr %n
  %kf = sitofp i32 %k to float
  %r = fadd float %x, %kf
  ret float %r
}

; read: only loads: read in place (ld.param), constant.
; SITES: site {{.*}} func=read {{.*}}ld.constant=1 ldB.constant=4
; PTX-LABEL: .func {{.*}} read(
; PTX: ld.param.b32 {{%r[0-9]+}}, [read_param_0];
define internal float @read(ptr byval(%best) align 4 %init) noinline {
  %x = load float, ptr %init
  ret float %x
}

; The "no debug info" warning does not name CUDA's libdevice functions, which
; clang links into device code as bitcode without debug info (no flag of
; the user's gives them lines): its `__nv_*` functions and the `__internal_*`
; ones they call, such as sin's slow-path argument reduction, which stays a
; call in a kernel that takes sin of a double (NVIDIA's multi-GPU Jacobi
; solvers warned of it, compiled with -lineinfo). They are still counted. A
; user's function without debug info beside them is still named, by its own
; name, not its callee twin's (it said 'scale__pasta_callee').
; RUN: split-file %s %t
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-print-sites -S %t/libdevice.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-print-sites -S %t/user.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=USER

; LIBDEVICE-NOT: has no debug info
; LIBDEVICE-DAG: pasta: func __internal_trig_reduction_slowpathd kind=device
; LIBDEVICE-DAG: pasta: func __nv_sin kind=device
; LIBDEVICE-DAG: pasta: func boundaries kind=kernel
; LIBDEVICE-NOT: has no debug info

; USER: warning: pasta: 'scale' has no debug info
; USER: pasta: func scale kind=device

;--- libdevice.ll
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal double @__internal_trig_reduction_slowpathd(double %x) noinline {
  %m = fmul double %x, 0x3FE45F306DC9C883
  ret double %m
}

define internal double @__nv_sin(double %x) noinline {
  %big = fcmp ogt double %x, 1.0e+5
  br i1 %big, label %slow, label %fast
slow:
  %r = call double @__internal_trig_reduction_slowpathd(double %x)
  ret double %r
fast:
  %f = fmul double %x, %x
  ret double %f
}

define ptx_kernel void @boundaries(ptr addrspace(1) %a, double %y) !dbg !10 {
  %s = call double @__nv_sin(double %y), !dbg !12
  store double %s, ptr addrspace(1) %a, align 8, !dbg !12
  ret void, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "jacobi.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "boundaries", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = !DILocation(line: 4, column: 3, scope: !10)

;--- user.ll
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal double @scale(double %x) noinline {
  %m = fmul double %x, 3.0
  ret double %m
}

define ptx_kernel void @boundaries(ptr addrspace(1) %a, double %y) !dbg !10 {
  %s = call double @scale(double %y), !dbg !12
  store double %s, ptr addrspace(1) %a, align 8, !dbg !12
  ret void, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "jacobi.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "boundaries", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = !DILocation(line: 4, column: 3, scope: !10)

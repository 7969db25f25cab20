; A divergence build with a returning twin (passes/CalleeCounts.h) keeps
; the figures of the twin's lines and of the code after its call (dgemm's
; shape: y[i] = scale(x[i], a) with scale __noinline__):
;  - the twin's block counter is derived from its calls counter, itself
;    derived from the kernel's block counter; the divergence rows that
;    read the twin's block counter (its line's thread executions) must come
;    after those rows in the table, or read-back gives them 0;
;  - the store after the call takes its requests from the warps counted
;    right after the call (a segment, DivergencePlan::Segment), planned on
;    the call that the twin's returning form replaces: the count must be
;    right after the new call, or the store's requests and sectors are 0.
; Both held on the tree before; an earlier build lost these figures.
;
;   1  __device__ __noinline__ double scale(double x, double a) {
;   2    return a * x + 1.0;
;   3  }
;   5  __global__ void update(const double *x, double *y, double a) {
;   6    int i = blockIdx.x * blockDim.x + threadIdx.x;  double v = scale(x[i], a);
;   7    y[i] = v;
;   8  }
; The divergence rows first (their counters name the store's figures),
; then every table line, then the IR.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s -o %t.ll 2>%t.sites
; RUN: grep "pasta: div " %t.sites > %t.rows
; RUN: cat %t.rows %t.sites %t.ll | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; The store's row (its first figure: requests).
; CHECK: pasta: div twin-figures.cu:7 func=update counters=[[ROW:[0-9]+]]..
; The original (external: other modules may call it) and the twin: two
; sites on line 2, the twin's second.
; CHECK: pasta: site twin-figures.cu:2 func=scale counter=
; CHECK: pasta: site twin-figures.cu:2 func=scale counter=[[TB:[0-9]+]]
; No row reads the twin's block counter before the row deriving it; the
; line's thread executions read it after. The store's requests are the
; warps counted after the call.
; CHECK-NOT: pasta: derived {{.*}}*c[[TB]]{{( |$)}}
; CHECK: pasta: derived [[TB]] = +1*c{{[0-9]+}}
; CHECK-DAG: pasta: derived {{[0-9]+}} = +{{[0-9]+}}*c[[TB]]{{$}}
; CHECK-DAG: pasta: derived [[ROW]] = +1*c[[SEG:[0-9]+]]{{$}}
; They are counted right after the call of the twin's divergence copy.
; CHECK-LABEL: define ptx_kernel void @update__pasta_div(
; CHECK: call { double } @scale__pasta_callee__pasta_div(
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[SEG]]
; CHECK-NEXT: call void @__pasta_div_block_add(
; CHECK: store double
define double @scale(double %x, double %a) noinline !dbg !5 {
entry:
  %m = fmul double %a, %x, !dbg !10
  %r = fadd double %m, 1.0, !dbg !10
  ret double %r, !dbg !10
}

define ptx_kernel void @update(ptr %x, ptr %y, double %a) !dbg !6 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !11
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !11
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %bn = mul i32 %b, %n, !dbg !11
  %i = add i32 %bn, %t, !dbg !11
  %ii = sext i32 %i to i64, !dbg !11
  %xp = getelementptr inbounds double, ptr %x, i64 %ii, !dbg !11
  %xv = load double, ptr %xp, align 8, !dbg !11
  %v = call double @scale(double %xv, double %a), !dbg !11
  %yp = getelementptr inbounds double, ptr %y, i64 %ii, !dbg !12
  store double %v, ptr %yp, align 8, !dbg !12
  ret void, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "twin-figures.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "update", scope: !1, file: !1, line: 5, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 2, scope: !5)
!11 = !DILocation(line: 6, scope: !6)
!12 = !DILocation(line: 7, scope: !6)
!13 = !DILocation(line: 8, scope: !6)

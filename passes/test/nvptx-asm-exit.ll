; Inline assembly that ends the thread (PTX `exit;`, as CUB's onesweep radix
; sort ends the threads of a finished tile) is a thread's last instruction:
; LLVM lets control flow on past it, PASTA must not (passes/ThreadExits.h).
; The counts are flushed right before it (a thread that ends there never
; reaches the return), and its block leaves for the placement's virtual
; node (CounterPlacement.cpp, buildGraph): what the thread ran up to it is
; in the flow, what LLVM thinks follows it is not. No block is flushed by
; the first thread block alone (which threads end depends on data). A
; predicated `@p exit;`
; ends only some threads and is left alone (a flush there would count the
; others twice).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=SITES

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @tiles ends the threads beyond n: the bounds check's cold edge, counted
; where it is taken (__pasta_count_lanes), so nothing is left to flush
; before the exit. @tiles_loaded ends threads by a loaded value: the
; counts are flushed before the exit.
; CHECK-LABEL: define ptx_kernel void @tiles(
; CHECK: call void @__pasta_count_lanes(
; CHECK: finished:
; CHECK-NOT: call void @__pasta_flush
; CHECK: call void asm sideeffect "exit;", ""()
; CHECK: done:
; CHECK-NOT: __pasta_first_block_scale
; CHECK: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @tiles(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %i = add i32 %t, %b
  %last = icmp uge i32 %i, %n
  br i1 %last, label %finished, label %work
work:
  store i32 1, ptr addrspace(1) %out
  br label %done
finished:
  store i32 2, ptr addrspace(1) %out
  call void asm sideeffect "exit;", ""()
  br label %done
done:
  store i32 3, ptr addrspace(1) %out
  ret void
}

; Only some threads end here: one flush, at the return.
; CHECK-LABEL: define ptx_kernel void @some(
; CHECK: call void asm sideeffect "@p exit;", ""()
; CHECK-NOT: call void @__pasta_flush
; CHECK: done:
define ptx_kernel void @some(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out
  call void asm sideeffect "@p exit;", ""()
  br label %done
done:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @tiles_loaded(
; CHECK: finished:
; CHECK: call void @__pasta_flush
; CHECK: call void asm sideeffect "exit;", ""()
; CHECK: done:
; CHECK: call void @__pasta_flush
; CHECK: ret void
define ptx_kernel void @tiles_loaded(ptr addrspace(1) %out, ptr addrspace(1) %flags) {
entry:
  %v = load i32, ptr addrspace(1) %flags
  %last = icmp eq i32 %v, 0
  br i1 %last, label %finished, label %work
work:
  store i32 1, ptr addrspace(1) %out
  br label %done
finished:
  store i32 2, ptr addrspace(1) %out
  call void asm sideeffect "exit;", ""()
  br label %done
done:
  store i32 3, ptr addrspace(1) %out
  ret void
}

; @tiles: %work (1) is the threads less the bounds check's cold edge (5),
; %finished (2) the cold edge; %done (3), after the exit, is counted: the
; threads that end in %finished never reach it, which no flow of the CFG
; says. @some's block is derived from its threads as usual.
; SITES: pasta: func tiles kind=kernel
; SITES: pasta: derived 1 = +1*c4 -1*c5
; SITES-NEXT: pasta: derived 2 = +1*c5
; SITES-NOT: pasta: derived 3 =
; SITES: pasta: derived 7 = +1*c8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

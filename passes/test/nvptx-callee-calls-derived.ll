; A twin over the return limit flushes its counts at its return, but not
; its calls counter where the block of every call of it counts the calls:
; the host derives the calls from those blocks' counters (a derived row per
; call, as for twins that return their counts). moderngpu's segreduce twin,
; called once per thread, summed a constant 1 a warp at every return so.
; Not where something before a call in its block may not return (a call of
; an external function): the twin counts its calls as before. Such twins
; flush without -pasta-callee-frames (the default, said here explicitly;
; with it they add into their callers' frames: nvptx-callee-frames.ll).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-callee-frames=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; Unplaced counters (PASTA_PLACE_COUNTERS=0) stage every counter at a return,
; the calls counter too: no derived row for them (it would count twice).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-callee-frames=0 -pasta-place-counters=0 -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=UNPLACED %s
; UNPLACED: pasta: func wide kind=device
; UNPLACED-NOT: pasta: derived {{[0-9]+}} = +1*c2 +1*c1
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] undef, align 4

declare void @ext()

; Counters: k's entry block 1, its block `more` 2; wide's calls 5; late's
; calls 42. wide's calls: entry's count plus more's.
; SITES: pasta: func wide kind=device calls=5
; SITES: pasta: func late kind=device calls=42
; SITES: pasta: derived 5 = +1*c2 +1*c1
; SITES-NOT: pasta: derived 42 =
; CHECK-LABEL: define internal float @wide__pasta_callee(
; CHECK: __pasta_flush_is_fast
; CHECK-NOT: ptr addrspace(1) %{{[0-9]+}}, i32 5{{$}}
; CHECK: ret float
; CHECK-LABEL: define internal float @late__pasta_callee(
; CHECK: __pasta_flush_is_fast
; CHECK: ptr addrspace(1) %{{[0-9]+}}, i32 42{{$}}
; CHECK: ret float
define ptx_kernel void @k(ptr %out, i32 %n) {
entry:
  %tile.gen = addrspacecast ptr addrspace(3) @tile to ptr
  %a = call float @wide(ptr %tile.gen, i32 %n)
  store float %a, ptr %out
  %c = icmp sgt i32 %n, 5
  br i1 %c, label %more, label %done
more:
  %b = call float @wide(ptr %out, i32 %n)
  store float %b, ptr %out
  br label %done
done:
  call void @ext()
  %d = call float @late(ptr %out, i32 %n)
  %e = call float @late(ptr %tile.gen, i32 %n)
  %f = fadd float %d, %e
  store float %f, ptr %out
  ret void
}

define internal float @wide(ptr %p, i32 %n) noinline {
entry:
  %x = load float, ptr %p
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %pa = getelementptr float, ptr %p, i32 1
  %y = load float, ptr %pa
  br label %join
b:
  %pb = getelementptr float, ptr %p, i32 2
  %z = load float, ptr %pb
  br label %join
join:
  %v = phi float [ %y, %a ], [ %z, %b ]
  %pj = getelementptr float, ptr %p, i32 3
  %w = load float, ptr %pj
  %s = fadd float %v, %w
  %t = fadd float %s, %x
  ret float %t
}

define internal float @late(ptr %p, i32 %n) noinline {
entry:
  %x = load float, ptr %p
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %pa = getelementptr float, ptr %p, i32 1
  %y = load float, ptr %pa
  br label %join
b:
  %pb = getelementptr float, ptr %p, i32 2
  %z = load float, ptr %pb
  br label %join
join:
  %v = phi float [ %y, %a ], [ %z, %b ]
  %pj = getelementptr float, ptr %p, i32 3
  %w = load float, ptr %pj
  %s = fadd float %v, %w
  %t = fadd float %s, %x
  ret float %t
}


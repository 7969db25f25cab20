; Counter placement (passes/CounterPlacement.h): block counts that follow
; from others by flow conservation are derived at read-back ("pasta:
; derived" rows, checked here), blocks that run at most once per call are
; counted in one bit of a 32-bit register, and blocks in loops in 64 bits.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; Without placement every counted block is counted, in 64 bits.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-print-sites -pasta-link-runtime=0 -S %s 2>&1 >/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @diamond: counters 0 = launches, 1 = %then, 2 = %else, 3 = %join, and 4 =
; the threads launched. %join runs once per thread (= threads); %else runs
; when %then does not (= threads - then): only %then is counted, in a bit.
; SITES: pasta: func diamond kind=kernel calls=0
; SITES: pasta: func loop kind=kernel calls=5
; SITES: pasta: func helper kind=device calls=8
; SITES: pasta: derived 2 = -1*c1 +1*c4
; SITES-NEXT: pasta: derived 3 = +1*c4
; @loop: counters 5 = launches, 6 = %body (in the loop, counted in 64
; bits), 7 = %after (once per thread, but not every thread gets there: a
; bit); no threads counter (no derivation needs one).
; SITES-NOT: pasta: derived 6
; SITES-NOT: pasta: derived 7
; @helper: counters 8 = calls, 9 = its entry block (= calls).
; SITES: pasta: derived 9 = +1*c8
; SITES-NEXT: pasta: module counters=16

; OFF-NOT: pasta: derived

; CHECK-LABEL: define ptx_kernel void @diamond(
; CHECK: call void @__pasta_count_launch_threads(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 4))
; CHECK: then:
; CHECK-NEXT: %[[BIT:[0-9]+]] = or i32 0, 1
; CHECK: join:
; CHECK-NEXT: %[[MASK:.*]] = phi i32 [ %[[BIT]], %then ], [ 0, %else ]
; The one counted block's bit, flushed at the return as a 64-bit count.
; CHECK: %[[B0:[0-9]+]] = lshr i32 %[[MASK]], 0
; CHECK: %[[B1:[0-9]+]] = and i32 %[[B0]], 1
; CHECK: %[[V:[0-9]+]] = zext i32 %[[B1]] to i64
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[V]])
; CHECK-NOT: __pasta_flush_counter_fast
; CHECK: ret void
define ptx_kernel void @diamond(ptr %a, i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  store float 1.0, ptr %a
  br label %join
else:
  store float 2.0, ptr %a
  br label %join
join:
  store float 3.0, ptr %a
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK: call void @__pasta_count_launch(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 5))
; CHECK: body:
; CHECK-NEXT: %[[C:.*]] = phi i64 [ 0, %entry ], [ %[[INC:.*]], %body ]
; CHECK: %[[INC]] = add i64 %[[C]], 1
; CHECK: after:
; CHECK: or i32 0, 1
define ptx_kernel void @loop(ptr %a, i32 %n) {
entry:
  %skip = icmp sle i32 %n, 0
  br i1 %skip, label %done, label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  %i.next = add i32 %i, 1
  %end = icmp eq i32 %i.next, %n
  br i1 %end, label %after, label %body
after:
  store float 2.0, ptr %a
  %g = addrspacecast ptr %a to ptr addrspace(1)
  call void @helper(ptr addrspace(1) %g)
  br label %done
done:
  ret void
}

; A device function counts its calls in counter 8 (1 per call) and its
; entry block is derived from them: nothing but the calls is flushed.
; CHECK-LABEL: define internal void @helper(
; CHECK: store float 0.0
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 1)
; CHECK-NOT: __pasta_flush_counter_fast
; CHECK: ret void
define internal void @helper(ptr addrspace(1) %a) noinline {
  store float 0.0, ptr addrspace(1) %a
  ret void
}

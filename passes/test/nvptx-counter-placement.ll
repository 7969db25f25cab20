; Counter placement (passes/CounterPlacement.h): block counts that follow
; from others by flow conservation are derived at read-back ("pasta:
; derived" rows, checked here), blocks that run at most once per call are
; counted in one bit of a 32-bit register, and blocks in loops in 64 bits.
; The kernels' branches depend on the block index, so every warp flushes
; (nvptx-alike-blocks.ll has kernels whose blocks run alike in every thread
; block).
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-print-sites -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-narrow-counters=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-packed-bit-indices=0 -S %s 2>/dev/null | FileCheck --check-prefix=TABLE %s
; Without placement every counted block is counted, in 64 bits.
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-place-counters=0 -pasta-callee-counts=0 -pasta-print-sites -pasta-link-runtime=0 -S %s 2>&1 >/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @diamond: counters 0 = launches, 1 = %then, 2 = %else, 3 = %join, and 4 =
; the threads launched. %join runs once per thread (= threads); %else runs
; when %then does not (= threads - then): only %then is counted, in a bit.
; SITES: pasta: func diamond kind=kernel calls=0
; SITES: pasta: func loop kind=kernel calls=5
; SITES: pasta: func many_bits kind=kernel calls=8
; SITES: pasta: func helper kind=device calls=43
; SITES: pasta: derived 2 = -1*c1 +1*c4
; SITES-NEXT: pasta: derived 3 = +1*c4
; @loop: counters 5 = launches, 6 = %body (in the loop, counted in 64
; bits), 7 = %after (once per thread, but not every thread gets there: a
; bit); no threads counter (no derivation needs one).
; SITES-NOT: pasta: derived 6
; SITES-NOT: pasta: derived 7
; @many_bits (below) takes counters 8 to 42; @helper: counters 43 = calls,
; 44 = its entry block (= calls).
; SITES: pasta: derived 44 = +1*c43
; SITES-NEXT: pasta: module counters={{[0-9]+}}

; OFF-NOT: pasta: derived

; CHECK-LABEL: define ptx_kernel void @diamond(
; CHECK: call void @__pasta_count_launch_threads(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 4), i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}})
; CHECK: then:
; CHECK-NEXT: %[[BIT:[0-9]+]] = or i32 0, 1
; CHECK: join:
; CHECK-NEXT: %[[MASK:.*]] = phi i32 [ %[[BIT]], %then ], [ 0, %else ]
; The one counted block's bit, flushed at the return. A bit cannot make a
; count large, so the fast path needs only a full warp; there the warp's or
; of the mask says which bits any lane has, and each bit is flushed after a
; test of it there (bit 0 to counter 1); the general path flushes the bit as
; a 64-bit count. Counting builds (-pasta-batched-lane-adds, the default):
; each bit's lanes counted by a ballot first, then lane 0 adds the counts
; in one branch.
; CHECK: call i64 @__pasta_flush_is_full_warp()
; CHECK: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; CHECK-NEXT: %[[N:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %[[MASK]], i32 0)
; CHECK-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[LANE]], 0
; CHECK-NEXT: br i1 %[[L0]], label %[[ADDS:[0-9]+]], label %{{[0-9]+}}, !pasta.instrumentation
; CHECK: [[ADDS]]:
; CHECK-NEXT: %[[N64:[0-9]+]] = zext i32 %[[N]] to i64
; CHECK-NEXT: %[[S:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 1
; CHECK-NEXT: call void @__pasta_add_nonzero(ptr addrspace(1) %[[S]], i64 %[[N64]])
; CHECK-NEXT: br label
; CHECK: %[[B0:[0-9]+]] = lshr i32 %[[MASK]], 0
; CHECK: %[[B1:[0-9]+]] = and i32 %[[B0]], 1
; CHECK: %[[V:[0-9]+]] = zext i32 %[[B1]] to i64
; CHECK: call void @__pasta_flush_counter(ptr addrspace(1) %{{[0-9]+}}, i64 %[[V]])
; CHECK-NOT: __pasta_flush_counter_fast
; CHECK: ret void
define ptx_kernel void @diamond(ptr %a) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c = trunc i32 %b to i1
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
; CHECK: call void @__pasta_count_launch(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 5), i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}})
; CHECK: entry.done_crit_edge:
; CHECK-NEXT: br label %done
; %body runs n times per thread, a count scalar evolution has before the
; loop: added at its exit (nvptx-trip-counts.ll), not 1 per iteration.
; CHECK: body:
; CHECK-NOT: add i64
; CHECK: after:
; CHECK: or i32 0, 1
; CHECK: %[[TRIPS:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[COUNT:[0-9]+]] = add i64 0, %[[TRIPS]]
; The fast-path test looks at the 64-bit count only; the bit after a test.
; The return is entered from %entry by a warp-uniform branch (the block
; index and an argument) and from %after: each way flushes on its own,
; %entry's nothing (no counter is set on it), %after's both counters, at
; its end.
; CHECK: call i64 @__pasta_flush_is_fast(i64 %[[COUNT]])
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[COUNT]])
; CHECK: %[[N2:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %[[BIT:[0-9]+]], i32 0)
; CHECK: call void @__pasta_add_nonzero(ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK: done:
; CHECK-NEXT: ret void
define ptx_kernel void @loop(ptr %a, i32 %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = add i32 %m, %b
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

; A device function counts its calls in counter 43 (1 per call) and its
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

; More than 32 counters live at the return, 34 of them bits: each mask goes
; to __pasta_flush_bits_packed whole, into the bank row read once for the
; return's flushes (from the kernel's first counter, 8), with its bits'
; counters packed a byte each in four constants: bit b of the first mask is
; %then<b>, local counter b + 1 (bytes 1 to 32 in order), the second mask's
; bits 0 and 1 are %then32 and %then33, counters 33 and 34 (0x2221). No
; table is read; nothing is staged in local memory. With
; -pasta-packed-bit-indices=0 (TABLE), a table of its bits' counters.
; CHECK-LABEL: define ptx_kernel void @many_bits(
; CHECK-NOT: alloca [
; CHECK: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: %[[FIRST:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 8
; CHECK-NEXT: call void @__pasta_flush_bits_packed(ptr addrspace(1) %[[FIRST]], i32 %{{.*}}, i32 -1, i64 578437695752307201, i64 1157159078456920585, i64 1735880461161533969, i64 2314601843866147353)
; CHECK-NOT: @__pasta_bit_table
; CHECK: call void @__pasta_flush_bits_packed(ptr addrspace(1) %{{[0-9]+}}, i32 %{{.*}}, i32 3, i64 8737, i64 0, i64 0, i64 0)
; CHECK: ret void
; TABLE-LABEL: define ptx_kernel void @many_bits(
; TABLE-NOT: alloca [
; TABLE: call void @__pasta_flush_bits(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 %{{.*}}, i32 -1, ptr addrspace(1) @__pasta_bit_table{{.*}})
; TABLE: call void @__pasta_flush_bits(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 %{{.*}}, i32 3, ptr addrspace(1) @__pasta_bit_table{{.*}})
; TABLE: ret void
define ptx_kernel void @many_bits(ptr %a) {
entry:
  %k = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  br label %test0
test0:
  %c0 = icmp eq i32 %k, 0
  br i1 %c0, label %then0, label %test1
then0:
  store float 0.0, ptr %a
  br label %test1
test1:
  %c1 = icmp eq i32 %k, 1
  br i1 %c1, label %then1, label %test2
then1:
  store float 1.0, ptr %a
  br label %test2
test2:
  %c2 = icmp eq i32 %k, 2
  br i1 %c2, label %then2, label %test3
then2:
  store float 2.0, ptr %a
  br label %test3
test3:
  %c3 = icmp eq i32 %k, 3
  br i1 %c3, label %then3, label %test4
then3:
  store float 3.0, ptr %a
  br label %test4
test4:
  %c4 = icmp eq i32 %k, 4
  br i1 %c4, label %then4, label %test5
then4:
  store float 4.0, ptr %a
  br label %test5
test5:
  %c5 = icmp eq i32 %k, 5
  br i1 %c5, label %then5, label %test6
then5:
  store float 5.0, ptr %a
  br label %test6
test6:
  %c6 = icmp eq i32 %k, 6
  br i1 %c6, label %then6, label %test7
then6:
  store float 6.0, ptr %a
  br label %test7
test7:
  %c7 = icmp eq i32 %k, 7
  br i1 %c7, label %then7, label %test8
then7:
  store float 7.0, ptr %a
  br label %test8
test8:
  %c8 = icmp eq i32 %k, 8
  br i1 %c8, label %then8, label %test9
then8:
  store float 8.0, ptr %a
  br label %test9
test9:
  %c9 = icmp eq i32 %k, 9
  br i1 %c9, label %then9, label %test10
then9:
  store float 9.0, ptr %a
  br label %test10
test10:
  %c10 = icmp eq i32 %k, 10
  br i1 %c10, label %then10, label %test11
then10:
  store float 10.0, ptr %a
  br label %test11
test11:
  %c11 = icmp eq i32 %k, 11
  br i1 %c11, label %then11, label %test12
then11:
  store float 11.0, ptr %a
  br label %test12
test12:
  %c12 = icmp eq i32 %k, 12
  br i1 %c12, label %then12, label %test13
then12:
  store float 12.0, ptr %a
  br label %test13
test13:
  %c13 = icmp eq i32 %k, 13
  br i1 %c13, label %then13, label %test14
then13:
  store float 13.0, ptr %a
  br label %test14
test14:
  %c14 = icmp eq i32 %k, 14
  br i1 %c14, label %then14, label %test15
then14:
  store float 14.0, ptr %a
  br label %test15
test15:
  %c15 = icmp eq i32 %k, 15
  br i1 %c15, label %then15, label %test16
then15:
  store float 15.0, ptr %a
  br label %test16
test16:
  %c16 = icmp eq i32 %k, 16
  br i1 %c16, label %then16, label %test17
then16:
  store float 16.0, ptr %a
  br label %test17
test17:
  %c17 = icmp eq i32 %k, 17
  br i1 %c17, label %then17, label %test18
then17:
  store float 17.0, ptr %a
  br label %test18
test18:
  %c18 = icmp eq i32 %k, 18
  br i1 %c18, label %then18, label %test19
then18:
  store float 18.0, ptr %a
  br label %test19
test19:
  %c19 = icmp eq i32 %k, 19
  br i1 %c19, label %then19, label %test20
then19:
  store float 19.0, ptr %a
  br label %test20
test20:
  %c20 = icmp eq i32 %k, 20
  br i1 %c20, label %then20, label %test21
then20:
  store float 20.0, ptr %a
  br label %test21
test21:
  %c21 = icmp eq i32 %k, 21
  br i1 %c21, label %then21, label %test22
then21:
  store float 21.0, ptr %a
  br label %test22
test22:
  %c22 = icmp eq i32 %k, 22
  br i1 %c22, label %then22, label %test23
then22:
  store float 22.0, ptr %a
  br label %test23
test23:
  %c23 = icmp eq i32 %k, 23
  br i1 %c23, label %then23, label %test24
then23:
  store float 23.0, ptr %a
  br label %test24
test24:
  %c24 = icmp eq i32 %k, 24
  br i1 %c24, label %then24, label %test25
then24:
  store float 24.0, ptr %a
  br label %test25
test25:
  %c25 = icmp eq i32 %k, 25
  br i1 %c25, label %then25, label %test26
then25:
  store float 25.0, ptr %a
  br label %test26
test26:
  %c26 = icmp eq i32 %k, 26
  br i1 %c26, label %then26, label %test27
then26:
  store float 26.0, ptr %a
  br label %test27
test27:
  %c27 = icmp eq i32 %k, 27
  br i1 %c27, label %then27, label %test28
then27:
  store float 27.0, ptr %a
  br label %test28
test28:
  %c28 = icmp eq i32 %k, 28
  br i1 %c28, label %then28, label %test29
then28:
  store float 28.0, ptr %a
  br label %test29
test29:
  %c29 = icmp eq i32 %k, 29
  br i1 %c29, label %then29, label %test30
then29:
  store float 29.0, ptr %a
  br label %test30
test30:
  %c30 = icmp eq i32 %k, 30
  br i1 %c30, label %then30, label %test31
then30:
  store float 30.0, ptr %a
  br label %test31
test31:
  %c31 = icmp eq i32 %k, 31
  br i1 %c31, label %then31, label %test32
then31:
  store float 31.0, ptr %a
  br label %test32
test32:
  %c32 = icmp eq i32 %k, 32
  br i1 %c32, label %then32, label %test33
then32:
  store float 32.0, ptr %a
  br label %test33
test33:
  %c33 = icmp eq i32 %k, 33
  br i1 %c33, label %then33, label %done
then33:
  store float 33.0, ptr %a
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

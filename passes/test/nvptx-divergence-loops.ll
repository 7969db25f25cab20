; Divergence copies take the figures that repeat in a loop once per loop
; entry (passes/UniformLoops.h): in a loop whose every branch is
; warp-uniform, the active lanes are those at its preheader in every
; iteration, so a block there only counts its executions (pasta.div.n) and
; its lanes, its branch and its accesses whose address moves by a uniform
; step that keeps the figures' alignment (32 bytes for global memory, 4 for
; shared) are measured in the preheader and added, times that count, in the
; loop's exit block. Accesses of one block a constant multiple of that
; alignment apart are measured once (the two shared loads of line 4, and the
; shared store of line 6, one measurement added to both lines). A step not
; known to keep it is tested in the preheader; when the test fails the
; access is measured where it runs. A loop whose trip count depends on the
; thread (divergent) is measured at every execution, as before. Loops get a
; preheader and a dedicated exit block first (neither is in the input).
; Every address here is a warp-uniform base plus 4 or 0 bytes per thread
; index x: __pasta_div_access_lanes (the figures from the mask alone when
; the lanes follow x, tested once at the entry).
; A generic pointer to a kernel parameter counts as global (hint 1).
; Its accesses of one address in every lane are measured here, to test the
; measuring code (-pasta-div-derive-whole=0; by default their figures are
; derived: nvptx-divergence-uniform.ll). With -pasta-div-rare-direct=0 the
; divergent loop's groups measured only outside rows of 32 keep their loop
; registers (by default, in this kernel for one-dimensional blocks, their
; figures go straight to the counters: nvptx-divergence-rare-direct.ll).
; (-pasta-div-cold-general-above=64: the lane-shaped helper as written
; for, not its _cold form: nvptx-divergence-cold-general.ll.)
; -pasta-div-derive-returns=0: the kernels' returns are measured here as any
; block (nvptx-divergence-sole-return.ll tests the derived ones).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-rare-direct=0 -pasta-div-cold-general-above=64 -pasta-div-lanes-trips=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-rare-direct=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-rare-direct=0 -pasta-div-drain-every=1 -pasta-div-cold-general-above=64 -S %s | FileCheck %s --check-prefix=DRAIN1
; RUN: env PASTA_DIV_DRAIN_EVERY=7 %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-versioned-loops=0 -pasta-div-rows-loops=0 -pasta-div-rare-direct=0 -pasta-div-cold-general-above=64 -S %s | FileCheck %s --check-prefix=DRAIN7
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-rows-loops=0 -pasta-div-rare-direct=0 -pasta-div-cold-general-above=64 -pasta-div-narrow-flush-tests=0 -S %s | FileCheck %s --check-prefix=VER
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [64 x float] zeroinitializer

define ptx_kernel void @loops(ptr addrspace(1) %g, ptr %p, i64 %n, i64 %stride) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %t = zext i32 %tid to i64, !dbg !10
  %s0 = getelementptr inbounds float, ptr addrspace(3) @tile, i64 %t, !dbg !10
  %s1 = getelementptr inbounds i8, ptr addrspace(3) %s0, i64 64, !dbg !10
  %go = icmp sgt i64 %n, 0, !dbg !10
  br i1 %go, label %uniform, label %mid, !dbg !10

uniform:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %a = load float, ptr addrspace(3) %s0, align 4, !dbg !11
  %b = load float, ptr addrspace(3) %s1, align 4, !dbg !11
  %row = mul nsw i64 %i, 32, !dbg !12
  %gi = add nsw i64 %row, %t, !dbg !12
  %gp = getelementptr inbounds float, ptr addrspace(1) %g, i64 %gi, !dbg !12
  %c = fadd float %a, %b, !dbg !12
  store float %c, ptr addrspace(1) %gp, align 4, !dbg !12
  %si = mul nsw i64 %i, %stride, !dbg !13
  %sj = add nsw i64 %si, %t, !dbg !13
  %sp = getelementptr inbounds float, ptr %p, i64 %sj, !dbg !13
  %v = load float, ptr %sp, align 4, !dbg !13
  store float %v, ptr addrspace(3) %s0, align 4, !dbg !13
  %odd = and i64 %i, 1, !dbg !18
  %isodd = icmp ne i64 %odd, 0, !dbg !18
  br i1 %isodd, label %extra, label %latch, !dbg !18

extra:
  store float %v, ptr addrspace(1) %g, align 4, !dbg !19
  br label %latch, !dbg !19

latch:
  %i.next = add nsw i64 %i, 1, !dbg !14
  %more = icmp slt i64 %i.next, %n, !dbg !14
  br i1 %more, label %uniform, label %mid, !dbg !14

mid:
  br label %divergent, !dbg !15

divergent:
  %j = phi i64 [ 0, %mid ], [ %j.next, %divergent ]
  %dp = getelementptr inbounds float, ptr addrspace(1) %g, i64 %j, !dbg !15
  store float 0.0, ptr addrspace(1) %dp, align 4, !dbg !15
  %j.next = add nsw i64 %j, 1, !dbg !16
  %again = icmp ult i64 %j.next, %t, !dbg !16
  br i1 %again, label %divergent, label %done, !dbg !16

done:
  ret void, !dbg !17
}

; A uniform loop inside a divergent one, on one line: the inner loop's
; figures go to registers at its preheader (in the outer loop), the outer
; latch's to its block registers; each pair is its block's counters, and
; the line's figures are derived from both at read-back.
define ptx_kernel void @nested(ptr addrspace(1) %g, i64 %n) !dbg !30 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !31
  ; the block index in the trip count keeps the counting flush per warp
  %blk = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !31
  %tb = add i32 %tid, %blk, !dbg !31
  %t = zext i32 %tb to i64, !dbg !31
  br label %outer, !dbg !31

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner, !dbg !32

inner:
  %i = phi i64 [ 0, %outer ], [ %i.next, %inner ]
  store float 0.0, ptr addrspace(1) %g, align 4, !dbg !32
  %i.next = add nsw i64 %i, 1, !dbg !32
  %more = icmp slt i64 %i.next, %n, !dbg !32
  br i1 %more, label %inner, label %outer.latch, !dbg !32

outer.latch:
  %j.next = add nsw i64 %j, 1, !dbg !32
  %again = icmp ult i64 %j.next, %t, !dbg !32
  br i1 %again, label %outer, label %done, !dbg !32

done:
  ret void, !dbg !33
}

; An int index (i32, sign-extended) in a loop scalar evolution leaves
; uncounted (the barrier might not return, so the add's nsw is not the
; recurrence's): for (t = 0; t < n; t += 16) { g[t + tid] = 0;
; __syncthreads(); }. Its iterations come from the latch test and the add's
; nsw (a wrap would be poison reaching the branch), 1 + (max(n - 16, 0) +
; 15) / 16;
; each lane tests that its index does not wrap in them, and the warp takes
; the figures once only when every lane passes.
define ptx_kernel void @intidx(ptr addrspace(1) %g, i32 %n) !dbg !34 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !35
  %go = icmp sgt i32 %n, 0, !dbg !35
  br i1 %go, label %body, label %out, !dbg !35

body:
  %t = phi i32 [ 0, %entry ], [ %t.next, %body ]
  %idx = add i32 %t, %tid, !dbg !36
  %wide = sext i32 %idx to i64, !dbg !36
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %wide, !dbg !36
  store float 0.0, ptr addrspace(1) %p, align 4, !dbg !36
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !36
  %t.next = add nuw nsw i32 %t, 16, !dbg !36
  %more = icmp slt i32 %t.next, %n, !dbg !36
  br i1 %more, label %body, label %out, !dbg !36

out:
  ret void, !dbg !37
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; CHECK-LABEL: define ptx_kernel void @loops__pasta_div(
; The entry's branch tests a kernel argument (warp-uniform): it never
; diverges, so nothing measures it.
; CHECK: %go = icmp sgt i64 %n, 0
; CHECK-NOT: call {{.*}}@__pasta_div_branch
; CHECK: br i1 %go
; CHECK: uniform.preheader:
; The loop's lanes: __pasta_div_block's figures of one execution. The
; header runs %n times per entry: its warp executions (counter 70) get them
; here, times %n; its active lanes are the counting code's count of the
; block (counter 1). The latch runs once after each run of the header, with
; its lanes: it shares the header's counters, nothing is measured for it.
; Their lines' figures are derived from them at read-back.
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.leader, ptr %pasta.div.lanes)
; CHECK-NEXT: %[[LEAD32:.*]] = load i32, ptr %pasta.div.leader
; CHECK-NEXT: %[[LEAD:.*]] = sext i32 %[[LEAD32]] to i64
; CHECK-NEXT: %[[LN:.*]] = mul i64 %[[LEAD]], %n
; CHECK-NEXT: %[[C70:.*]] = getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 70
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C70]], i64 %[[LN]])
; The odd iterations' block (line 12) counts its executions: zeroed here.
; CHECK-NEXT: store i64 0, ptr %pasta.div.n
; CHECK-NOT: load i32, ptr %pasta.div.lanes
; Line 4's loads and line 6's store: one shared measurement (distinct
; bytes, conflicts; requests and bytes are the block's), added twice %n
; times to line 4 (counter 22 + 4), %n times to line 6 (46 + 4).
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[FOLLOW:[0-9]+]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[SDIST:pasta.div.once[0-9]*]],
; CHECK-NEXT: %[[ONCE32:.*]] = load i32, ptr %[[SDIST]], align 4
; CHECK-NEXT: %[[ONCE:.*]] = sext i32 %[[ONCE32]] to i64
; CHECK-NEXT: %[[PROD:.*]] = mul i64 %[[ONCE]], %n
; CHECK-NEXT: %[[TWICE:.*]] = mul i64 %[[PROD]], 2
; CHECK-NEXT: %[[C26:.*]] = getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 26
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C26]], i64 %[[TWICE]])
; CHECK: %[[ONCE6N:.*]] = load i32, ptr %[[SDIST]], align 4
; CHECK-NEXT: %[[ONCE6:.*]] = sext i32 %[[ONCE6N]] to i64
; CHECK-NEXT: %[[PROD6:.*]] = mul i64 %[[ONCE6]], %n
; CHECK-NEXT: %[[C50:.*]] = getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 50
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C50]], i64 %[[PROD6]])
; Line 5's store: 128 bytes per iteration, a multiple of 32.
; CHECK: %[[G:.*]] = getelementptr i8, ptr addrspace(1) %g, i64 %{{[0-9]+}}
; CHECK: %[[GC:.*]] = addrspacecast ptr addrspace(1) %[[G]] to ptr
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %[[GC]], i32 4, i32 4, i32 1, i32 1, i32 %[[FOLLOW]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.once
; Line 6's load: 4 * %stride bytes per iteration, tested here; its figures
; count only when the test passed.
; CHECK: %[[STEP:.*]] = shl i64 %stride, 2
; CHECK-NEXT: %[[LOW:.*]] = and i64 %[[STEP]], 31
; CHECK-NEXT: %pasta.div.step.ok = icmp eq i64 %[[LOW]], 0
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %[[FOLLOW]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.once
; CHECK: select i1 %pasta.div.step.ok, i64 %{{.*}}, i64 0
; Line 12's store runs only in odd iterations: measured here too, its count
; a register (zeroed above).
; CHECK: %[[GP:.*]] = addrspacecast ptr addrspace(1) %g to ptr
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %[[GP]], i32 4, i32 0, i32 1, i32 1, i32 %[[FOLLOW]],
; CHECK: br label %uniform
; The loop body: no measurement but the tested one; the odd block counts.
; CHECK: uniform:
; CHECK-NOT: call {{.*}}@__pasta_div_{{access|block|branch}}
; CHECK: %[[BAD:.*]] = xor i1 %pasta.div.step.ok, true
; CHECK-NEXT: br i1 %[[BAD]], label %[[SLOW:[0-9]+]], label %{{[0-9]+}}, {{.*}}!pasta.instrumentation
; CHECK: [[SLOW]]:
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %sp, i32 4, i32 4, i32 1, i32 1, i32 %[[FOLLOW]],
; CHECK-NOT: call {{.*}}@__pasta_div_{{access|block|branch}}
; CHECK: extra:
; CHECK-NEXT: %[[C:.*]] = load i64, ptr %pasta.div.n
; CHECK-NEXT: %[[C1:.*]] = add i64 %[[C]], 1
; CHECK-NEXT: store i64 %[[C1]], ptr %pasta.div.n
; CHECK-NOT: call {{.*}}@__pasta_div_{{access|block|branch}}
; CHECK: latch:
; CHECK-NOT: call {{.*}}@__pasta_div_{{access|block|branch}}
; The exit block (outside loops): the odd block's figures times its count
; (its warp executions 83, its store's distinct bytes and sectors).
; CHECK: mid.loopexit:
; CHECK: %[[N:.*]] = load i64, ptr %pasta.div.n
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{.*}}, i32 83
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK: br label %mid
; The divergent loop: measured at every execution, into registers: its
; block's warp executions (its active lanes are the counting code's: those
; entering it, at its preheader, then its latch branch's ballot of those
; going round, nvptx-divergence-loop-bodies.ll), its store's distinct
; bytes, sectors and ideal sectors, its branch's divergence (its executions
; are the block's).
; CHECK: mid:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.none)
; CHECK: divergent:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 1, i32 %[[FOLLOW]], ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[DD:pasta.div[0-9]+]], ptr %pasta.div.none, ptr %[[DS:pasta.div[0-9]+]], ptr %[[DI:pasta.div[0-9]+]], ptr %pasta.div.none)
; CHECK: call void @__pasta_div_branch_body(i32 %{{.*}}, ptr %[[DV:pasta.div[0-9]*]], ptr %pasta.div.bw, ptr %pasta.div.none)
; CHECK-NEXT: br i1 %again
; At the return, after the counting flush, the registers': the fast path
; inline (a warp sum and a `red` per register), and the general path, the
; registers staged by runs of counters less than 12 apart for the
; out-of-line __pasta_flush: line 6's sectored load tested in the loop
; (counters 49, 51, 52), line 8's store (99, 101, 102), line 9's branch
; (117) with line 8's block (120). The return block runs once after the
; entry: it shares the entry's counters.
; CHECK: done:
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{.*}}, i64 %{{.*}})
; CHECK-NOT: __pasta_flush_counter_fast(ptr addrspace(1) %{{.*}}, i64 %pasta.div.none
; CHECK-NOT: __pasta_flush_sum_fast
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 224, i32 {{[0-9]+}}, i32 49, ptr %pasta.div.flush, i32 4)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 224, i32 {{[0-9]+}}, i32 99, ptr %pasta.div.flush, i32 4)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 224, i32 {{[0-9]+}}, i32 117, ptr %pasta.div.flush, i32 4)
; CHECK: ret void

; The divergent loop, one block whose store is one element for the whole
; warp, is versioned (passes/DivergenceVersioned.cpp): at its preheader each
; lane's backedges (t - 1) give the warp's clone trips n (0 unless the warp
; is full in one row of 32); the clone's n trips add n to the counter the
; block's warp register (%pasta.div.bw) is flushed to, and the measured loop
; starts at trip n + 1: its index and the counting code's count start at n.
; VER-LABEL: define ptx_kernel void @loops__pasta_div(
; VER: %[[N:[0-9]+]] = call i32 @__pasta_ver_trips(i64
; VER-NEXT: %[[START:[0-9]+]] = zext i32 %[[N]] to i64
; VER: pasta.div.ver.done:
; VER: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[BW:[0-9]+]]
; VER-NEXT: call void @__pasta_ver_trips_add(
; VER: pasta.div.ver.merge:
; VER-NEXT: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.none)
; VER: divergent:
; VER-NEXT: %pasta.count3.0 = phi i64 [ %[[START]], %pasta.div.ver.merge ]
; VER-NEXT: %j = phi i64 [ %[[START]], %pasta.div.ver.merge ]
; VER: done:
; VER: %[[BWV:[0-9]+]] = load i32, ptr %pasta.div.bw
; VER-NEXT: %[[BW64:[0-9]+]] = sext i32 %[[BWV]] to i64
; VER: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[BW]]
; VER-NEXT: call void @__pasta_div_flush_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[BW64]])

; The loop registers are 32 bits. The folds in the outer loop (the inner
; uniform loop's figures per entry times its %smax iterations, at its
; preheader) have no bound of their own: under one test of the count, they
; go to their registers while each is at most 2^20, that is for at most
; 2^20 / 384 = 2730 iterations (384 = 64 lanes x (4 + 2), the most a
; 4-byte store's figure can be per execution), else straight to the
; counters. The outer header counts its visits, and every 2^31 / 2^20 =
; 2047 visits (one pass adds at most 2^20 to a fold's register) each lane
; adds its registers to their counters and zeroes them.
; CHECK-LABEL: define ptx_kernel void @nested__pasta_div(
; The outer header's lanes: those entering the loop, at its preheader (the
; entry), then the outer latch's ballot.
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: outer:
; CHECK: %[[VISITS:.*]] = load i32, ptr %pasta.div.visits
; CHECK-NEXT: %[[VISITS1:.*]] = add i32 %[[VISITS]], 1
; CHECK-NEXT: store i32 %[[VISITS1]], ptr %pasta.div.visits
; CHECK-NEXT: %[[FULL:.*]] = icmp uge i32 %[[VISITS1]], 2047
; CHECK-NEXT: br i1 %[[FULL]], label %[[DRAIN:[0-9]+]], label %[[BODY:[0-9]+]], {{.*}}!pasta.instrumentation
; CHECK: [[DRAIN]]:
; CHECK-NEXT: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK: %[[BW:.*]] = load i32, ptr %pasta.div.bw,
; CHECK-NEXT: %[[BW64:.*]] = sext i32 %[[BW]] to i64
; CHECK: %[[C161:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 161
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C161]], i64 %[[BW64]])
; CHECK-NOT: call void @__pasta_flush
; CHECK: store i32 0, ptr %pasta.div.bw,
; CHECK: store i32 0, ptr %pasta.div.visits,
; CHECK-NEXT: br label %[[BODY]]
; CHECK: [[BODY]]:
; CHECK-NOT: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.leader, ptr %pasta.div.lanes)
; CHECK: %pasta.div.small = icmp ule i64 %smax, 2730
; CHECK-NEXT: br i1 %pasta.div.small, label %[[SMALL:[0-9]+]], label %[[LARGE:[0-9]+]], {{.*}}!pasta.instrumentation
; CHECK: [[SMALL]]:
; CHECK-NEXT: %[[LEAD:.*]] = load i32, ptr %pasta.div.leader
; CHECK-NEXT: %[[LEAD64:.*]] = sext i32 %[[LEAD]] to i64
; CHECK-NEXT: %[[FOLD:.*]] = mul i64 %[[LEAD64]], %smax
; CHECK-NEXT: %[[R:.*]] = load i32, ptr %[[REG:pasta.div[0-9]*]],
; CHECK-NEXT: %[[FOLD32:.*]] = trunc i64 %[[FOLD]] to i32
; CHECK-NEXT: %[[SUM:.*]] = add i32 %[[R]], %[[FOLD32]]
; CHECK-NEXT: store i32 %[[SUM]], ptr %[[REG]],
; CHECK: [[LARGE]]:
; CHECK-NEXT: %[[ROW2:.*]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: %[[LEADL:.*]] = load i32, ptr %pasta.div.leader
; CHECK-NEXT: %[[LEADL64:.*]] = sext i32 %[[LEADL]] to i64
; CHECK-NEXT: %[[FOLDL:.*]] = mul i64 %[[LEADL64]], %smax
; CHECK-NEXT: %[[C163:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW2]], i32 163
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C163]], i64 %[[FOLDL]])
; DRAIN1-LABEL: define ptx_kernel void @nested__pasta_div(
; DRAIN1: outer:
; DRAIN1: icmp uge i32 %{{.*}}, 1, !dbg
; DRAIN7-LABEL: define ptx_kernel void @nested__pasta_div(
; DRAIN7: outer:
; DRAIN7: icmp uge i32 %{{.*}}, 7, !dbg
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_div_{{access|block|branch}}
; The outer latch runs once after each run of the outer loop's header (the
; inner loop between them is entered and left whole): it shares the
; header's counters, nothing is measured for it.
; CHECK: outer.latch:
; CHECK-NOT: call {{.*}}@__pasta_div_block
; CHECK: call void @__pasta_div_branch_body(i32 %{{.*}}, ptr %{{.*}}, ptr %pasta.div.bw, ptr %pasta.div.bt)
; The outer loop's exit is divergent (j < t, t per lane): lanes may leave
; it apart and run the return block once each, so that block is measured.
; CHECK: done:
; CHECK: call void @__pasta_div_block_add(
; The general path stages the registers from counter 152 on: the inner
; block's warp executions (163, the inner loop's fold; its active lanes
; are the counting code's counter 5) and the outer header's two (161,
; 162), and line 21's figures are derived from them at read-back (ROWS).
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call void @__pasta_flush_counter_fast(
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 224, i32 {{[0-9]+}}, i32 152, ptr %pasta.div.flush, i32 12)
; CHECK-NOT: call void @__pasta_flush(
; CHECK: ret void
; ROWS: pasta: derived 159 = +4*c163
; ROWS-NEXT: pasta: derived 160 = +4*c5
; ROWS: pasta: derived 159 = +3*c161
; ROWS-NEXT: pasta: derived 160 = +3*c162
; What the lane shapes give, from the copies: @loops' line 4 shared loads
; and line 6's shared store (4 bytes per active lane: the header's lanes,
; counter 1), line 5's global store and line 6's load (the same, and the
; sectors and ideal sectors of a full warp from a 32-byte boundary, 4 per
; warp execution of the header, 70: the helper adds only the difference),
; the odd block's stride-0 store to %g (4 distinct bytes, a sector and an
; ideal sector per execution of its block, 83).
; ROWS: pasta: derived 26 = +4*c1 +4*c1
; ROWS-NEXT: pasta: derived 50 = +4*c1
; ROWS-NEXT: pasta: derived 37 = +4*c1
; ROWS-NEXT: pasta: derived 39 = +4*c70
; ROWS-NEXT: pasta: derived 40 = +4*c70
; ROWS-NEXT: pasta: derived 49 = +4*c1
; ROWS-NEXT: pasta: derived 51 = +4*c70
; ROWS-NEXT: pasta: derived 52 = +4*c70
; ROWS-NEXT: pasta: derived 74 = +4*c83
; ROWS-NEXT: pasta: derived 76 = +1*c83
; ROWS-NEXT: pasta: derived 77 = +1*c83
; ROWS: pasta: div loops.cu:21 func=nested counters=149..160

; CHECK-LABEL: define ptx_kernel void @intidx__pasta_div(
; CHECK: body.preheader:
; CHECK: %[[LEFT:.*]] = call i64 @llvm.smax.i64(i64 %{{.*}}, i64 0)
; CHECK-NEXT: %[[UP:.*]] = add nuw nsw i64 %[[LEFT]], 15
; CHECK-NEXT: %[[MORE:.*]] = lshr i64 %[[UP]], 4
; CHECK-NEXT: %[[TRIPS:.*]] = add nuw nsw i64 %[[MORE]], 1
; CHECK-NEXT: load i32, ptr %pasta.div.leader
; CHECK-NEXT: sext i32
; CHECK-NEXT: mul i64 %{{.*}}, %[[TRIPS]]
; CHECK: %pasta.div.nowrap = and i1
; CHECK-NEXT: %[[ALL:.*]] = zext i1 %pasta.div.nowrap to i32
; CHECK-NEXT: %[[ANY:.*]] = call i32 @__pasta_div_all_lanes(i32 %[[ALL]])
; CHECK-NEXT: %pasta.div.nowrap.all = icmp ne i32 %[[ANY]], 0
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1,
; CHECK: select i1 %pasta.div.nowrap.all, i64 %{{.*}}, i64 0
; CHECK: body:
; CHECK: %[[BAD:.*]] = xor i1 %pasta.div.nowrap.all, true
; CHECK-NEXT: br i1 %[[BAD]]
; CHECK: ret void

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "loops.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "loops", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!16 = !DILocation(line: 9, scope: !5)
!17 = !DILocation(line: 10, scope: !5)
!18 = !DILocation(line: 11, scope: !5)
!19 = !DILocation(line: 12, scope: !5)
!30 = distinct !DISubprogram(name: "nested", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!31 = !DILocation(line: 20, scope: !30)
!32 = !DILocation(line: 21, scope: !30)
!33 = !DILocation(line: 22, scope: !30)
!34 = distinct !DISubprogram(name: "intidx", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!35 = !DILocation(line: 30, scope: !34)
!36 = !DILocation(line: 31, scope: !34)
!37 = !DILocation(line: 32, scope: !34)

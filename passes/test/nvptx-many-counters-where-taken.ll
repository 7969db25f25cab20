; Counters kept across a long loop (CounterEmission.cpp, narrowUnboundedLoops,
; countManyWhereTaken),
; MCX's photon-loop shape. @walk's loop runs until a flag read with a
; volatile load is zero (scalar evolution does not bound it) and its header
; counts nothing: its 36 guarded stores' counters are 32-bit, behind a
; 32-bit register of the header's runs as the wrap guard (each block runs
; at most once per run of the header), where they were 64-bit without a
; guard. Its values live at the header take few registers, so by default
; every counter stays in a register. Where they reach
; -pasta-crowded-loop-units (MCX's photon loop: 173 units; set to 1 here),
; and the kernel keeps at least 32 counters of loop blocks, every block of
; the loop less frequent than its header is counted where it is taken
; (__pasta_count_lanes), holding no register, and so is every block of
; @start, a device function called in that loop with 34 guarded blocks that
; flushes its counts at its return (its return then flushes only its calls).
; With -pasta-rare-loop-block-ratio=16 only the two blocks branch weights
; make rare are; -pasta-many-counters-where-taken=0 keeps every counter in a
; register.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-guard-wrap-at=3 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=AT3 %s
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=CROWDED %s
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-rare-loop-block-ratio=16 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=RARE %s
; RUN: %opt -passes=pasta-count -pasta-crowded-loop-units=1 -pasta-many-counters-where-taken=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal i32 @start(
; CHECK-NOT: call void @__pasta_count_lanes(
; CHECK: call void @__pasta_flush_bits_packed(
; CHECK: ret i32
; CHECK-LABEL: define ptx_kernel void @walk(
; CHECK: head:
; CHECK: %[[WRAPS:[0-9]+]] = icmp eq i32 %pasta.runs{{.*}}, -1
; CHECK: add i32 %pasta.runs{{.*}}, 1
; CHECK: c0:
; CHECK-NEXT: add i32 %pasta.count
; CHECK: c35:
; CHECK-NEXT: add i32 %pasta.count
; CHECK: rare0:
; CHECK-NEXT: add i32 %pasta.count
; CHECK-NOT: add i64 %pasta.count
; CHECK-NOT: call void @__pasta_count_lanes(
; CHECK: ret void
; AT3-LABEL: define ptx_kernel void @walk(
; AT3: icmp eq i32 %pasta.runs{{.*}}, 3
; CROWDED-LABEL: define internal i32 @start(
; CROWDED: s0:
; CROWDED-NEXT: call void @__pasta_count_lanes(
; CROWDED: s33:
; CROWDED-NEXT: call void @__pasta_count_lanes(
; CROWDED-NOT: call void @__pasta_flush_bits
; CROWDED: ret i32
; CROWDED-LABEL: define ptx_kernel void @walk(
; CROWDED: c0:
; CROWDED-NEXT: call void @__pasta_count_lanes(
; CROWDED: c35:
; CROWDED-NEXT: call void @__pasta_count_lanes(
; CROWDED: rare1:
; CROWDED-NEXT: call void @__pasta_count_lanes(
; CROWDED: ret void
; RARE-LABEL: define ptx_kernel void @walk(
; RARE: c0:
; RARE-NEXT: add i32 %pasta.count
; RARE: rare0:
; RARE-NEXT: call void @__pasta_count_lanes(
; RARE: rare1:
; RARE-NEXT: call void @__pasta_count_lanes(
; RARE: ret void
; OFF-LABEL: define internal i32 @start(
; OFF-NOT: call void @__pasta_count_lanes(
; OFF: ret i32
; OFF-LABEL: define ptx_kernel void @walk(
; OFF: c0:
; OFF-NEXT: add i32 %pasta.count
; OFF: rare0:
; OFF-NEXT: add i32 %pasta.count
; OFF-NOT: call void @__pasta_count_lanes(
; OFF: ret void

define internal i32 @start(i32 %item, ptr addrspace(1) %table) noinline {
entry:
  br label %g0
g0:
  %acc0 = phi i32 [ %item, %entry ]
  %b0 = lshr i32 %item, 0
  %bit0 = and i32 %b0, 1
  %on0 = icmp ne i32 %bit0, 0
  br i1 %on0, label %s0, label %g1
s0:
  %p0 = getelementptr i32, ptr addrspace(1) %table, i32 0
  %x0 = load i32, ptr addrspace(1) %p0
  %n0 = add i32 %acc0, %x0
  br label %g1
g1:
  %acc1 = phi i32 [ %acc0, %g0 ], [ %n0, %s0 ]
  %b1 = lshr i32 %item, 1
  %bit1 = and i32 %b1, 1
  %on1 = icmp ne i32 %bit1, 0
  br i1 %on1, label %s1, label %g2
s1:
  %p1 = getelementptr i32, ptr addrspace(1) %table, i32 97
  %x1 = load i32, ptr addrspace(1) %p1
  %n1 = add i32 %acc1, %x1
  br label %g2
g2:
  %acc2 = phi i32 [ %acc1, %g1 ], [ %n1, %s1 ]
  %b2 = lshr i32 %item, 2
  %bit2 = and i32 %b2, 1
  %on2 = icmp ne i32 %bit2, 0
  br i1 %on2, label %s2, label %g3
s2:
  %p2 = getelementptr i32, ptr addrspace(1) %table, i32 194
  %x2 = load i32, ptr addrspace(1) %p2
  %n2 = add i32 %acc2, %x2
  br label %g3
g3:
  %acc3 = phi i32 [ %acc2, %g2 ], [ %n2, %s2 ]
  %b3 = lshr i32 %item, 3
  %bit3 = and i32 %b3, 1
  %on3 = icmp ne i32 %bit3, 0
  br i1 %on3, label %s3, label %g4
s3:
  %p3 = getelementptr i32, ptr addrspace(1) %table, i32 291
  %x3 = load i32, ptr addrspace(1) %p3
  %n3 = add i32 %acc3, %x3
  br label %g4
g4:
  %acc4 = phi i32 [ %acc3, %g3 ], [ %n3, %s3 ]
  %b4 = lshr i32 %item, 4
  %bit4 = and i32 %b4, 1
  %on4 = icmp ne i32 %bit4, 0
  br i1 %on4, label %s4, label %g5
s4:
  %p4 = getelementptr i32, ptr addrspace(1) %table, i32 388
  %x4 = load i32, ptr addrspace(1) %p4
  %n4 = add i32 %acc4, %x4
  br label %g5
g5:
  %acc5 = phi i32 [ %acc4, %g4 ], [ %n4, %s4 ]
  %b5 = lshr i32 %item, 5
  %bit5 = and i32 %b5, 1
  %on5 = icmp ne i32 %bit5, 0
  br i1 %on5, label %s5, label %g6
s5:
  %p5 = getelementptr i32, ptr addrspace(1) %table, i32 485
  %x5 = load i32, ptr addrspace(1) %p5
  %n5 = add i32 %acc5, %x5
  br label %g6
g6:
  %acc6 = phi i32 [ %acc5, %g5 ], [ %n5, %s5 ]
  %b6 = lshr i32 %item, 6
  %bit6 = and i32 %b6, 1
  %on6 = icmp ne i32 %bit6, 0
  br i1 %on6, label %s6, label %g7
s6:
  %p6 = getelementptr i32, ptr addrspace(1) %table, i32 582
  %x6 = load i32, ptr addrspace(1) %p6
  %n6 = add i32 %acc6, %x6
  br label %g7
g7:
  %acc7 = phi i32 [ %acc6, %g6 ], [ %n6, %s6 ]
  %b7 = lshr i32 %item, 7
  %bit7 = and i32 %b7, 1
  %on7 = icmp ne i32 %bit7, 0
  br i1 %on7, label %s7, label %g8
s7:
  %p7 = getelementptr i32, ptr addrspace(1) %table, i32 679
  %x7 = load i32, ptr addrspace(1) %p7
  %n7 = add i32 %acc7, %x7
  br label %g8
g8:
  %acc8 = phi i32 [ %acc7, %g7 ], [ %n7, %s7 ]
  %b8 = lshr i32 %item, 8
  %bit8 = and i32 %b8, 1
  %on8 = icmp ne i32 %bit8, 0
  br i1 %on8, label %s8, label %g9
s8:
  %p8 = getelementptr i32, ptr addrspace(1) %table, i32 776
  %x8 = load i32, ptr addrspace(1) %p8
  %n8 = add i32 %acc8, %x8
  br label %g9
g9:
  %acc9 = phi i32 [ %acc8, %g8 ], [ %n8, %s8 ]
  %b9 = lshr i32 %item, 9
  %bit9 = and i32 %b9, 1
  %on9 = icmp ne i32 %bit9, 0
  br i1 %on9, label %s9, label %g10
s9:
  %p9 = getelementptr i32, ptr addrspace(1) %table, i32 873
  %x9 = load i32, ptr addrspace(1) %p9
  %n9 = add i32 %acc9, %x9
  br label %g10
g10:
  %acc10 = phi i32 [ %acc9, %g9 ], [ %n9, %s9 ]
  %b10 = lshr i32 %item, 10
  %bit10 = and i32 %b10, 1
  %on10 = icmp ne i32 %bit10, 0
  br i1 %on10, label %s10, label %g11
s10:
  %p10 = getelementptr i32, ptr addrspace(1) %table, i32 970
  %x10 = load i32, ptr addrspace(1) %p10
  %n10 = add i32 %acc10, %x10
  br label %g11
g11:
  %acc11 = phi i32 [ %acc10, %g10 ], [ %n10, %s10 ]
  %b11 = lshr i32 %item, 11
  %bit11 = and i32 %b11, 1
  %on11 = icmp ne i32 %bit11, 0
  br i1 %on11, label %s11, label %g12
s11:
  %p11 = getelementptr i32, ptr addrspace(1) %table, i32 1067
  %x11 = load i32, ptr addrspace(1) %p11
  %n11 = add i32 %acc11, %x11
  br label %g12
g12:
  %acc12 = phi i32 [ %acc11, %g11 ], [ %n11, %s11 ]
  %b12 = lshr i32 %item, 12
  %bit12 = and i32 %b12, 1
  %on12 = icmp ne i32 %bit12, 0
  br i1 %on12, label %s12, label %g13
s12:
  %p12 = getelementptr i32, ptr addrspace(1) %table, i32 1164
  %x12 = load i32, ptr addrspace(1) %p12
  %n12 = add i32 %acc12, %x12
  br label %g13
g13:
  %acc13 = phi i32 [ %acc12, %g12 ], [ %n12, %s12 ]
  %b13 = lshr i32 %item, 13
  %bit13 = and i32 %b13, 1
  %on13 = icmp ne i32 %bit13, 0
  br i1 %on13, label %s13, label %g14
s13:
  %p13 = getelementptr i32, ptr addrspace(1) %table, i32 1261
  %x13 = load i32, ptr addrspace(1) %p13
  %n13 = add i32 %acc13, %x13
  br label %g14
g14:
  %acc14 = phi i32 [ %acc13, %g13 ], [ %n13, %s13 ]
  %b14 = lshr i32 %item, 14
  %bit14 = and i32 %b14, 1
  %on14 = icmp ne i32 %bit14, 0
  br i1 %on14, label %s14, label %g15
s14:
  %p14 = getelementptr i32, ptr addrspace(1) %table, i32 1358
  %x14 = load i32, ptr addrspace(1) %p14
  %n14 = add i32 %acc14, %x14
  br label %g15
g15:
  %acc15 = phi i32 [ %acc14, %g14 ], [ %n14, %s14 ]
  %b15 = lshr i32 %item, 15
  %bit15 = and i32 %b15, 1
  %on15 = icmp ne i32 %bit15, 0
  br i1 %on15, label %s15, label %g16
s15:
  %p15 = getelementptr i32, ptr addrspace(1) %table, i32 1455
  %x15 = load i32, ptr addrspace(1) %p15
  %n15 = add i32 %acc15, %x15
  br label %g16
g16:
  %acc16 = phi i32 [ %acc15, %g15 ], [ %n15, %s15 ]
  %b16 = lshr i32 %item, 16
  %bit16 = and i32 %b16, 1
  %on16 = icmp ne i32 %bit16, 0
  br i1 %on16, label %s16, label %g17
s16:
  %p16 = getelementptr i32, ptr addrspace(1) %table, i32 1552
  %x16 = load i32, ptr addrspace(1) %p16
  %n16 = add i32 %acc16, %x16
  br label %g17
g17:
  %acc17 = phi i32 [ %acc16, %g16 ], [ %n16, %s16 ]
  %b17 = lshr i32 %item, 17
  %bit17 = and i32 %b17, 1
  %on17 = icmp ne i32 %bit17, 0
  br i1 %on17, label %s17, label %g18
s17:
  %p17 = getelementptr i32, ptr addrspace(1) %table, i32 1649
  %x17 = load i32, ptr addrspace(1) %p17
  %n17 = add i32 %acc17, %x17
  br label %g18
g18:
  %acc18 = phi i32 [ %acc17, %g17 ], [ %n17, %s17 ]
  %b18 = lshr i32 %item, 18
  %bit18 = and i32 %b18, 1
  %on18 = icmp ne i32 %bit18, 0
  br i1 %on18, label %s18, label %g19
s18:
  %p18 = getelementptr i32, ptr addrspace(1) %table, i32 1746
  %x18 = load i32, ptr addrspace(1) %p18
  %n18 = add i32 %acc18, %x18
  br label %g19
g19:
  %acc19 = phi i32 [ %acc18, %g18 ], [ %n18, %s18 ]
  %b19 = lshr i32 %item, 19
  %bit19 = and i32 %b19, 1
  %on19 = icmp ne i32 %bit19, 0
  br i1 %on19, label %s19, label %g20
s19:
  %p19 = getelementptr i32, ptr addrspace(1) %table, i32 1843
  %x19 = load i32, ptr addrspace(1) %p19
  %n19 = add i32 %acc19, %x19
  br label %g20
g20:
  %acc20 = phi i32 [ %acc19, %g19 ], [ %n19, %s19 ]
  %b20 = lshr i32 %item, 20
  %bit20 = and i32 %b20, 1
  %on20 = icmp ne i32 %bit20, 0
  br i1 %on20, label %s20, label %g21
s20:
  %p20 = getelementptr i32, ptr addrspace(1) %table, i32 1940
  %x20 = load i32, ptr addrspace(1) %p20
  %n20 = add i32 %acc20, %x20
  br label %g21
g21:
  %acc21 = phi i32 [ %acc20, %g20 ], [ %n20, %s20 ]
  %b21 = lshr i32 %item, 21
  %bit21 = and i32 %b21, 1
  %on21 = icmp ne i32 %bit21, 0
  br i1 %on21, label %s21, label %g22
s21:
  %p21 = getelementptr i32, ptr addrspace(1) %table, i32 2037
  %x21 = load i32, ptr addrspace(1) %p21
  %n21 = add i32 %acc21, %x21
  br label %g22
g22:
  %acc22 = phi i32 [ %acc21, %g21 ], [ %n21, %s21 ]
  %b22 = lshr i32 %item, 22
  %bit22 = and i32 %b22, 1
  %on22 = icmp ne i32 %bit22, 0
  br i1 %on22, label %s22, label %g23
s22:
  %p22 = getelementptr i32, ptr addrspace(1) %table, i32 2134
  %x22 = load i32, ptr addrspace(1) %p22
  %n22 = add i32 %acc22, %x22
  br label %g23
g23:
  %acc23 = phi i32 [ %acc22, %g22 ], [ %n22, %s22 ]
  %b23 = lshr i32 %item, 23
  %bit23 = and i32 %b23, 1
  %on23 = icmp ne i32 %bit23, 0
  br i1 %on23, label %s23, label %g24
s23:
  %p23 = getelementptr i32, ptr addrspace(1) %table, i32 2231
  %x23 = load i32, ptr addrspace(1) %p23
  %n23 = add i32 %acc23, %x23
  br label %g24
g24:
  %acc24 = phi i32 [ %acc23, %g23 ], [ %n23, %s23 ]
  %b24 = lshr i32 %item, 24
  %bit24 = and i32 %b24, 1
  %on24 = icmp ne i32 %bit24, 0
  br i1 %on24, label %s24, label %g25
s24:
  %p24 = getelementptr i32, ptr addrspace(1) %table, i32 2328
  %x24 = load i32, ptr addrspace(1) %p24
  %n24 = add i32 %acc24, %x24
  br label %g25
g25:
  %acc25 = phi i32 [ %acc24, %g24 ], [ %n24, %s24 ]
  %b25 = lshr i32 %item, 25
  %bit25 = and i32 %b25, 1
  %on25 = icmp ne i32 %bit25, 0
  br i1 %on25, label %s25, label %g26
s25:
  %p25 = getelementptr i32, ptr addrspace(1) %table, i32 2425
  %x25 = load i32, ptr addrspace(1) %p25
  %n25 = add i32 %acc25, %x25
  br label %g26
g26:
  %acc26 = phi i32 [ %acc25, %g25 ], [ %n25, %s25 ]
  %b26 = lshr i32 %item, 26
  %bit26 = and i32 %b26, 1
  %on26 = icmp ne i32 %bit26, 0
  br i1 %on26, label %s26, label %g27
s26:
  %p26 = getelementptr i32, ptr addrspace(1) %table, i32 2522
  %x26 = load i32, ptr addrspace(1) %p26
  %n26 = add i32 %acc26, %x26
  br label %g27
g27:
  %acc27 = phi i32 [ %acc26, %g26 ], [ %n26, %s26 ]
  %b27 = lshr i32 %item, 27
  %bit27 = and i32 %b27, 1
  %on27 = icmp ne i32 %bit27, 0
  br i1 %on27, label %s27, label %g28
s27:
  %p27 = getelementptr i32, ptr addrspace(1) %table, i32 2619
  %x27 = load i32, ptr addrspace(1) %p27
  %n27 = add i32 %acc27, %x27
  br label %g28
g28:
  %acc28 = phi i32 [ %acc27, %g27 ], [ %n27, %s27 ]
  %b28 = lshr i32 %item, 28
  %bit28 = and i32 %b28, 1
  %on28 = icmp ne i32 %bit28, 0
  br i1 %on28, label %s28, label %g29
s28:
  %p28 = getelementptr i32, ptr addrspace(1) %table, i32 2716
  %x28 = load i32, ptr addrspace(1) %p28
  %n28 = add i32 %acc28, %x28
  br label %g29
g29:
  %acc29 = phi i32 [ %acc28, %g28 ], [ %n28, %s28 ]
  %b29 = lshr i32 %item, 29
  %bit29 = and i32 %b29, 1
  %on29 = icmp ne i32 %bit29, 0
  br i1 %on29, label %s29, label %g30
s29:
  %p29 = getelementptr i32, ptr addrspace(1) %table, i32 2813
  %x29 = load i32, ptr addrspace(1) %p29
  %n29 = add i32 %acc29, %x29
  br label %g30
g30:
  %acc30 = phi i32 [ %acc29, %g29 ], [ %n29, %s29 ]
  %b30 = lshr i32 %item, 30
  %bit30 = and i32 %b30, 1
  %on30 = icmp ne i32 %bit30, 0
  br i1 %on30, label %s30, label %g31
s30:
  %p30 = getelementptr i32, ptr addrspace(1) %table, i32 2910
  %x30 = load i32, ptr addrspace(1) %p30
  %n30 = add i32 %acc30, %x30
  br label %g31
g31:
  %acc31 = phi i32 [ %acc30, %g30 ], [ %n30, %s30 ]
  %b31 = lshr i32 %item, 31
  %bit31 = and i32 %b31, 1
  %on31 = icmp ne i32 %bit31, 0
  br i1 %on31, label %s31, label %g32
s31:
  %p31 = getelementptr i32, ptr addrspace(1) %table, i32 3007
  %x31 = load i32, ptr addrspace(1) %p31
  %n31 = add i32 %acc31, %x31
  br label %g32
g32:
  %acc32 = phi i32 [ %acc31, %g31 ], [ %n31, %s31 ]
  %b32 = lshr i32 %item, 0
  %bit32 = and i32 %b32, 1
  %on32 = icmp ne i32 %bit32, 0
  br i1 %on32, label %s32, label %g33
s32:
  %p32 = getelementptr i32, ptr addrspace(1) %table, i32 3104
  %x32 = load i32, ptr addrspace(1) %p32
  %n32 = add i32 %acc32, %x32
  br label %g33
g33:
  %acc33 = phi i32 [ %acc32, %g32 ], [ %n32, %s32 ]
  %b33 = lshr i32 %item, 1
  %bit33 = and i32 %b33, 1
  %on33 = icmp ne i32 %bit33, 0
  br i1 %on33, label %s33, label %done
s33:
  %p33 = getelementptr i32, ptr addrspace(1) %table, i32 3201
  %x33 = load i32, ptr addrspace(1) %p33
  %n33 = add i32 %acc33, %x33
  br label %done
done:
  %r = phi i32 [ %acc33, %g33 ], [ %n33, %s33 ]
  ret i32 %r
}

; 36 guarded stores a run of the loop, two rare ones, the loop runs until
; the flag is zero; each run's next state comes from @start.
define ptx_kernel void @walk(ptr addrspace(1) %flags, ptr addrspace(1) %seen, ptr addrspace(1) %table, i32 %n) {
entry:
  %w0 = call i32 @start(i32 %n, ptr addrspace(1) %table)
  br label %head
head:
  %s = phi i32 [ %w0, %entry ], [ %s.next, %latch ]
  br label %t0
t0:
  %m0 = and i32 %s, 1
  %y0 = icmp ne i32 %m0, 0
  br i1 %y0, label %c0, label %t1
c0:
  %q0 = getelementptr i32, ptr addrspace(1) %seen, i32 0
  store volatile i32 %s, ptr addrspace(1) %q0
  br label %t1
t1:
  %m1 = and i32 %s, 2
  %y1 = icmp ne i32 %m1, 0
  br i1 %y1, label %c1, label %t2
c1:
  %q1 = getelementptr i32, ptr addrspace(1) %seen, i32 1
  store volatile i32 %s, ptr addrspace(1) %q1
  br label %t2
t2:
  %m2 = and i32 %s, 4
  %y2 = icmp ne i32 %m2, 0
  br i1 %y2, label %c2, label %t3
c2:
  %q2 = getelementptr i32, ptr addrspace(1) %seen, i32 2
  store volatile i32 %s, ptr addrspace(1) %q2
  br label %t3
t3:
  %m3 = and i32 %s, 8
  %y3 = icmp ne i32 %m3, 0
  br i1 %y3, label %c3, label %t4
c3:
  %q3 = getelementptr i32, ptr addrspace(1) %seen, i32 3
  store volatile i32 %s, ptr addrspace(1) %q3
  br label %t4
t4:
  %m4 = and i32 %s, 16
  %y4 = icmp ne i32 %m4, 0
  br i1 %y4, label %c4, label %t5
c4:
  %q4 = getelementptr i32, ptr addrspace(1) %seen, i32 4
  store volatile i32 %s, ptr addrspace(1) %q4
  br label %t5
t5:
  %m5 = and i32 %s, 32
  %y5 = icmp ne i32 %m5, 0
  br i1 %y5, label %c5, label %t6
c5:
  %q5 = getelementptr i32, ptr addrspace(1) %seen, i32 5
  store volatile i32 %s, ptr addrspace(1) %q5
  br label %t6
t6:
  %m6 = and i32 %s, 64
  %y6 = icmp ne i32 %m6, 0
  br i1 %y6, label %c6, label %t7
c6:
  %q6 = getelementptr i32, ptr addrspace(1) %seen, i32 6
  store volatile i32 %s, ptr addrspace(1) %q6
  br label %t7
t7:
  %m7 = and i32 %s, 128
  %y7 = icmp ne i32 %m7, 0
  br i1 %y7, label %c7, label %t8
c7:
  %q7 = getelementptr i32, ptr addrspace(1) %seen, i32 7
  store volatile i32 %s, ptr addrspace(1) %q7
  br label %t8
t8:
  %m8 = and i32 %s, 256
  %y8 = icmp ne i32 %m8, 0
  br i1 %y8, label %c8, label %t9
c8:
  %q8 = getelementptr i32, ptr addrspace(1) %seen, i32 8
  store volatile i32 %s, ptr addrspace(1) %q8
  br label %t9
t9:
  %m9 = and i32 %s, 512
  %y9 = icmp ne i32 %m9, 0
  br i1 %y9, label %c9, label %t10
c9:
  %q9 = getelementptr i32, ptr addrspace(1) %seen, i32 9
  store volatile i32 %s, ptr addrspace(1) %q9
  br label %t10
t10:
  %m10 = and i32 %s, 1024
  %y10 = icmp ne i32 %m10, 0
  br i1 %y10, label %c10, label %t11
c10:
  %q10 = getelementptr i32, ptr addrspace(1) %seen, i32 10
  store volatile i32 %s, ptr addrspace(1) %q10
  br label %t11
t11:
  %m11 = and i32 %s, 2048
  %y11 = icmp ne i32 %m11, 0
  br i1 %y11, label %c11, label %t12
c11:
  %q11 = getelementptr i32, ptr addrspace(1) %seen, i32 11
  store volatile i32 %s, ptr addrspace(1) %q11
  br label %t12
t12:
  %m12 = and i32 %s, 4096
  %y12 = icmp ne i32 %m12, 0
  br i1 %y12, label %c12, label %t13
c12:
  %q12 = getelementptr i32, ptr addrspace(1) %seen, i32 12
  store volatile i32 %s, ptr addrspace(1) %q12
  br label %t13
t13:
  %m13 = and i32 %s, 8192
  %y13 = icmp ne i32 %m13, 0
  br i1 %y13, label %c13, label %t14
c13:
  %q13 = getelementptr i32, ptr addrspace(1) %seen, i32 13
  store volatile i32 %s, ptr addrspace(1) %q13
  br label %t14
t14:
  %m14 = and i32 %s, 16384
  %y14 = icmp ne i32 %m14, 0
  br i1 %y14, label %c14, label %t15
c14:
  %q14 = getelementptr i32, ptr addrspace(1) %seen, i32 14
  store volatile i32 %s, ptr addrspace(1) %q14
  br label %t15
t15:
  %m15 = and i32 %s, 32768
  %y15 = icmp ne i32 %m15, 0
  br i1 %y15, label %c15, label %t16
c15:
  %q15 = getelementptr i32, ptr addrspace(1) %seen, i32 15
  store volatile i32 %s, ptr addrspace(1) %q15
  br label %t16
t16:
  %m16 = and i32 %s, 65536
  %y16 = icmp ne i32 %m16, 0
  br i1 %y16, label %c16, label %t17
c16:
  %q16 = getelementptr i32, ptr addrspace(1) %seen, i32 16
  store volatile i32 %s, ptr addrspace(1) %q16
  br label %t17
t17:
  %m17 = and i32 %s, 131072
  %y17 = icmp ne i32 %m17, 0
  br i1 %y17, label %c17, label %t18
c17:
  %q17 = getelementptr i32, ptr addrspace(1) %seen, i32 17
  store volatile i32 %s, ptr addrspace(1) %q17
  br label %t18
t18:
  %m18 = and i32 %s, 262144
  %y18 = icmp ne i32 %m18, 0
  br i1 %y18, label %c18, label %t19
c18:
  %q18 = getelementptr i32, ptr addrspace(1) %seen, i32 18
  store volatile i32 %s, ptr addrspace(1) %q18
  br label %t19
t19:
  %m19 = and i32 %s, 524288
  %y19 = icmp ne i32 %m19, 0
  br i1 %y19, label %c19, label %t20
c19:
  %q19 = getelementptr i32, ptr addrspace(1) %seen, i32 19
  store volatile i32 %s, ptr addrspace(1) %q19
  br label %t20
t20:
  %m20 = and i32 %s, 1048576
  %y20 = icmp ne i32 %m20, 0
  br i1 %y20, label %c20, label %t21
c20:
  %q20 = getelementptr i32, ptr addrspace(1) %seen, i32 20
  store volatile i32 %s, ptr addrspace(1) %q20
  br label %t21
t21:
  %m21 = and i32 %s, 2097152
  %y21 = icmp ne i32 %m21, 0
  br i1 %y21, label %c21, label %t22
c21:
  %q21 = getelementptr i32, ptr addrspace(1) %seen, i32 21
  store volatile i32 %s, ptr addrspace(1) %q21
  br label %t22
t22:
  %m22 = and i32 %s, 4194304
  %y22 = icmp ne i32 %m22, 0
  br i1 %y22, label %c22, label %t23
c22:
  %q22 = getelementptr i32, ptr addrspace(1) %seen, i32 22
  store volatile i32 %s, ptr addrspace(1) %q22
  br label %t23
t23:
  %m23 = and i32 %s, 8388608
  %y23 = icmp ne i32 %m23, 0
  br i1 %y23, label %c23, label %t24
c23:
  %q23 = getelementptr i32, ptr addrspace(1) %seen, i32 23
  store volatile i32 %s, ptr addrspace(1) %q23
  br label %t24
t24:
  %m24 = and i32 %s, 16777216
  %y24 = icmp ne i32 %m24, 0
  br i1 %y24, label %c24, label %t25
c24:
  %q24 = getelementptr i32, ptr addrspace(1) %seen, i32 24
  store volatile i32 %s, ptr addrspace(1) %q24
  br label %t25
t25:
  %m25 = and i32 %s, 33554432
  %y25 = icmp ne i32 %m25, 0
  br i1 %y25, label %c25, label %t26
c25:
  %q25 = getelementptr i32, ptr addrspace(1) %seen, i32 25
  store volatile i32 %s, ptr addrspace(1) %q25
  br label %t26
t26:
  %m26 = and i32 %s, 67108864
  %y26 = icmp ne i32 %m26, 0
  br i1 %y26, label %c26, label %t27
c26:
  %q26 = getelementptr i32, ptr addrspace(1) %seen, i32 26
  store volatile i32 %s, ptr addrspace(1) %q26
  br label %t27
t27:
  %m27 = and i32 %s, 134217728
  %y27 = icmp ne i32 %m27, 0
  br i1 %y27, label %c27, label %t28
c27:
  %q27 = getelementptr i32, ptr addrspace(1) %seen, i32 27
  store volatile i32 %s, ptr addrspace(1) %q27
  br label %t28
t28:
  %m28 = and i32 %s, 268435456
  %y28 = icmp ne i32 %m28, 0
  br i1 %y28, label %c28, label %t29
c28:
  %q28 = getelementptr i32, ptr addrspace(1) %seen, i32 28
  store volatile i32 %s, ptr addrspace(1) %q28
  br label %t29
t29:
  %m29 = and i32 %s, 536870912
  %y29 = icmp ne i32 %m29, 0
  br i1 %y29, label %c29, label %t30
c29:
  %q29 = getelementptr i32, ptr addrspace(1) %seen, i32 29
  store volatile i32 %s, ptr addrspace(1) %q29
  br label %t30
t30:
  %m30 = and i32 %s, 1073741824
  %y30 = icmp ne i32 %m30, 0
  br i1 %y30, label %c30, label %t31
c30:
  %q30 = getelementptr i32, ptr addrspace(1) %seen, i32 30
  store volatile i32 %s, ptr addrspace(1) %q30
  br label %t31
t31:
  %m31 = and i32 %s, 1
  %y31 = icmp ne i32 %m31, 0
  br i1 %y31, label %c31, label %t32
c31:
  %q31 = getelementptr i32, ptr addrspace(1) %seen, i32 31
  store volatile i32 %s, ptr addrspace(1) %q31
  br label %t32
t32:
  %m32 = and i32 %s, 2
  %y32 = icmp ne i32 %m32, 0
  br i1 %y32, label %c32, label %t33
c32:
  %q32 = getelementptr i32, ptr addrspace(1) %seen, i32 32
  store volatile i32 %s, ptr addrspace(1) %q32
  br label %t33
t33:
  %m33 = and i32 %s, 4
  %y33 = icmp ne i32 %m33, 0
  br i1 %y33, label %c33, label %t34
c33:
  %q33 = getelementptr i32, ptr addrspace(1) %seen, i32 33
  store volatile i32 %s, ptr addrspace(1) %q33
  br label %t34
t34:
  %m34 = and i32 %s, 8
  %y34 = icmp ne i32 %m34, 0
  br i1 %y34, label %c34, label %t35
c34:
  %q34 = getelementptr i32, ptr addrspace(1) %seen, i32 34
  store volatile i32 %s, ptr addrspace(1) %q34
  br label %t35
t35:
  %m35 = and i32 %s, 16
  %y35 = icmp ne i32 %m35, 0
  br i1 %y35, label %c35, label %r0
c35:
  %q35 = getelementptr i32, ptr addrspace(1) %seen, i32 35
  store volatile i32 %s, ptr addrspace(1) %q35
  br label %r0
r0:
  %e0 = icmp eq i32 %s, 1000
  br i1 %e0, label %rare0, label %r1, !prof !0
rare0:
  %z0 = getelementptr i32, ptr addrspace(1) %seen, i32 100
  store volatile i32 %s, ptr addrspace(1) %z0
  br label %r1
r1:
  %e1 = icmp eq i32 %s, 1001
  br i1 %e1, label %rare1, label %latch, !prof !0
rare1:
  %z1 = getelementptr i32, ptr addrspace(1) %seen, i32 101
  store volatile i32 %s, ptr addrspace(1) %z1
  br label %latch
latch:
  %f = load volatile i32, ptr addrspace(1) %flags
  %more.s = call i32 @start(i32 %f, ptr addrspace(1) %table)
  %s.next = add i32 %more.s, %f
  %more = icmp ne i32 %f, 0
  br i1 %more, label %head, label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}

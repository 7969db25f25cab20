; Blocks whose sites are the same lines with the same counts share one
; counter in a kernel's counting copy (CounterEmission.cpp,
; shareLikeCounters): the profile sums a line's sites and its executions
; over the distinct counters on it, so one register holding their sum,
; flushed into the first one's counter, changes no line and no total.
; SlabHash's bulk search (32 unrolled walks of a slab list) kept 32 64-bit
; counters to the exit. 32-bit counters share while their blocks' bounds
; on runs add up to less than 2^32. The site table is unchanged; a
; divergence build and -pasta-share-like-counters=0 keep a counter each.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-share-like-counters=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck --check-prefix=SITES %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; SITES: pasta: site walks.cu:5 func=walks counter=1 ld.global=1 ldB.global=4{{$}}
; SITES-NEXT: pasta: site walks.cu:5 func=walks counter=2 ld.global=1 ldB.global=4{{$}}
; SITES-NEXT: pasta: site walks.cu:6 func=walks counter=3 ld.global=1 ldB.global=4{{$}}
; SITES-NEXT: pasta: site walks.cu:5 func=walks counter=4 ld.global=1 ldB.global=8{{$}}
; SITES-NEXT: pasta: site walks.cu:5 func=walks counter=5 ld.global=1 ldB.global=4{{$}}

; Five list walks of unknown length. Walks 0, 1 and 4 load 4 bytes on line
; 5: one counter (1) for the three; walk 2 loads on line 6 (counter 3),
; walk 3 loads 8 bytes (counter 4). Three counters flushed, not five.
; CHECK-LABEL: define ptx_kernel void @walks(
; CHECK: walk0:
; CHECK-NEXT: %pasta.count1.0 = phi i64 [ 0, %entry ]
; CHECK: walk1:
; CHECK-NEXT: %pasta.count1.1 = phi i64
; CHECK: walk2:
; CHECK-NEXT: %pasta.count3.0 = phi i64 [ 0,
; CHECK: walk3:
; CHECK-NEXT: %pasta.count4.0 = phi i64 [ 0,
; CHECK: walk4:
; CHECK-NEXT: %pasta.count1.2 = phi i64
; CHECK: done:
; CHECK-NOT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 2,
; CHECK-NOT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 5,
; CHECK: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 1,
; CHECK-NEXT: call void @__pasta_flush_counter_fast(
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 3,
; CHECK-NEXT: call void @__pasta_flush_counter_fast(
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 4,
; CHECK-NEXT: call void @__pasta_flush_counter_fast(
; CHECK-NEXT: br label
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @walks(
; OFF: walk1:
; OFF-NEXT: %pasta.count2.0 = phi i64 [ 0,
; OFF: walk4:
; OFF-NEXT: %pasta.count5.0 = phi i64 [ 0,
define ptx_kernel void @walks(ptr addrspace(1) %next, ptr addrspace(1) %wide, i32 %a, i32 %b, i32 %c, i32 %d) !dbg !15 {
entry:
  br label %walk0
walk0:
  %s0 = phi i32 [ %a, %entry ], [ %n0, %walk0 ]
  %p0 = getelementptr i32, ptr addrspace(1) %next, i32 %s0
  %n0 = load i32, ptr addrspace(1) %p0, !dbg !16
  %more0 = icmp ne i32 %n0, -1
  br i1 %more0, label %walk0, label %walk1.pre
walk1.pre:
  br label %walk1
walk1:
  %s1 = phi i32 [ %b, %walk1.pre ], [ %n1, %walk1 ]
  %p1 = getelementptr i32, ptr addrspace(1) %next, i32 %s1
  %n1 = load i32, ptr addrspace(1) %p1, !dbg !16
  %more1 = icmp ne i32 %n1, -1
  br i1 %more1, label %walk1, label %walk2.pre
walk2.pre:
  br label %walk2
walk2:
  %s2 = phi i32 [ %c, %walk2.pre ], [ %n2, %walk2 ]
  %p2 = getelementptr i32, ptr addrspace(1) %next, i32 %s2
  %n2 = load i32, ptr addrspace(1) %p2, !dbg !17
  %more2 = icmp ne i32 %n2, -1
  br i1 %more2, label %walk2, label %walk3.pre
walk3.pre:
  br label %walk3
walk3:
  %s3 = phi i32 [ %d, %walk3.pre ], [ %n3, %walk3 ]
  %p3 = getelementptr i64, ptr addrspace(1) %wide, i32 %s3
  %w3 = load i64, ptr addrspace(1) %p3, !dbg !16
  %n3 = trunc i64 %w3 to i32
  %more3 = icmp ne i32 %n3, -1
  br i1 %more3, label %walk3, label %walk4.pre
walk4.pre:
  br label %walk4
walk4:
  %s4 = phi i32 [ %a, %walk4.pre ], [ %n4, %walk4 ]
  %p4 = getelementptr i32, ptr addrspace(1) %next, i32 %s4
  %n4 = load i32, ptr addrspace(1) %p4, !dbg !16
  %more4 = icmp ne i32 %n4, -1
  br i1 %more4, label %walk4, label %done
done:
  ret void, !dbg !18
}


; Two walks whose counted blocks are in derived rows (each loop's header
; count is its two arms' sum, derived at read-back): not shared, as a
; derivation from one of them would split the sum wrongly.
; CHECK-LABEL: define ptx_kernel void @sides(
; CHECK: %pasta.count5.0 = phi i64 [ 0,
; CHECK: %pasta.count6.0 = phi i64 [ 0,
define ptx_kernel void @sides(ptr addrspace(1) %next, i32 %a, i32 %b) !dbg !25 {
entry:
  br label %walk0
walk0:
  %s0 = phi i32 [ %a, %entry ], [ %n0, %latch0 ]
  %p0 = getelementptr i32, ptr addrspace(1) %next, i32 %s0
  %n0 = load i32, ptr addrspace(1) %p0, !dbg !26
  %odd0 = trunc i32 %n0 to i1
  br i1 %odd0, label %mark0, label %other0
mark0:
  store i32 0, ptr addrspace(1) %p0, !dbg !27
  br label %latch0
other0:
  store i32 1, ptr addrspace(1) %p0, !dbg !29
  br label %latch0
latch0:
  %more0 = icmp ne i32 %n0, -1
  br i1 %more0, label %walk0, label %walk1.pre
walk1.pre:
  br label %walk1
walk1:
  %s1 = phi i32 [ %b, %walk1.pre ], [ %n1, %latch1 ]
  %p1 = getelementptr i32, ptr addrspace(1) %next, i32 %s1
  %n1 = load i32, ptr addrspace(1) %p1, !dbg !26
  %odd1 = trunc i32 %n1 to i1
  br i1 %odd1, label %mark1, label %other1
mark1:
  store i32 0, ptr addrspace(1) %p1, !dbg !27
  br label %latch1
other1:
  store i32 1, ptr addrspace(1) %p1, !dbg !29
  br label %latch1
latch1:
  %more1 = icmp ne i32 %n1, -1
  br i1 %more1, label %walk1, label %done
done:
  ret void, !dbg !28
}


; Three scans of at most 1,610,612,736 trips (a bound scalar evolution
; sees; the exit on loaded data): 32-bit counters, which share while their
; bounds add up to less than 2^32. Scans 0 and 1 (3,221,225,472 runs at
; most) share counter 1; scan 2 would take the sum past 2^32: counter 3.
; CHECK-LABEL: define ptx_kernel void @scans(
; CHECK: scan0:
; CHECK-NEXT: %pasta.count1.0 = phi i32 [ 0, %entry ]
; CHECK: scan1:
; CHECK-NEXT: %pasta.count1.1 = phi i32
; CHECK: scan2:
; CHECK-NEXT: %pasta.count3.0 = phi i32 [ 0,
; OFF-LABEL: define ptx_kernel void @scans(
; OFF: scan1:
; OFF-NEXT: %pasta.count2.0 = phi i{{32|64}} [ 0,
define ptx_kernel void @scans(ptr addrspace(1) %a) !dbg !35 {
entry:
  br label %scan0
scan0:
  %i0 = phi i32 [ 0, %entry ], [ %j0, %next0 ]
  %p0 = getelementptr i32, ptr addrspace(1) %a, i32 %i0
  %v0 = load i32, ptr addrspace(1) %p0, !dbg !36
  %z0 = icmp eq i32 %v0, 0
  br i1 %z0, label %scan1.pre, label %next0
next0:
  %j0 = add nuw nsw i32 %i0, 1
  %more0 = icmp ult i32 %j0, 1610612736
  br i1 %more0, label %scan0, label %scan1.pre
scan1.pre:
  br label %scan1
scan1:
  %i1 = phi i32 [ 0, %scan1.pre ], [ %j1, %next1 ]
  %p1 = getelementptr i32, ptr addrspace(1) %a, i32 %i1
  %v1 = load i32, ptr addrspace(1) %p1, !dbg !36
  %z1 = icmp eq i32 %v1, 0
  br i1 %z1, label %scan2.pre, label %next1
next1:
  %j1 = add nuw nsw i32 %i1, 1
  %more1 = icmp ult i32 %j1, 1610612736
  br i1 %more1, label %scan1, label %scan2.pre
scan2.pre:
  br label %scan2
scan2:
  %i2 = phi i32 [ 0, %scan2.pre ], [ %j2, %next2 ]
  %p2 = getelementptr i32, ptr addrspace(1) %a, i32 %i2
  %v2 = load i32, ptr addrspace(1) %p2, !dbg !36
  %z2 = icmp eq i32 %v2, 0
  br i1 %z2, label %done, label %next2
next2:
  %j2 = add nuw nsw i32 %i2, 1
  %more2 = icmp ult i32 %j2, 1610612736
  br i1 %more2, label %scan2, label %done
done:
  ret void, !dbg !37
}


!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "walks.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "walks", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 5, scope: !15)
!17 = !DILocation(line: 6, scope: !15)
!18 = !DILocation(line: 9, scope: !15)
!25 = distinct !DISubprogram(name: "sides", scope: !1, file: !1, line: 12, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!26 = !DILocation(line: 15, scope: !25)
!27 = !DILocation(line: 16, scope: !25)
!28 = !DILocation(line: 19, scope: !25)
!29 = !DILocation(line: 17, scope: !25)
!35 = distinct !DISubprogram(name: "scans", scope: !1, file: !1, line: 22, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!36 = !DILocation(line: 25, scope: !35)
!37 = !DILocation(line: 29, scope: !35)

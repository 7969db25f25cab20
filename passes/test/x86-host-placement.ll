; Host functions derive block counts from others, as device functions do
; (CounterPlacement.h), in a CFG that also closes at every `resume` and at
; every block with a call that may leave the frame (an exception, exit(),
; longjmp): the counts a frame flushed before it ended there are then a flow
; of that graph. Invokes and landing pads are no obstacle; derived counters
; are never incremented nor flushed.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
; Without placement every block is counted.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-host-once-in-memory=0 -pasta-place-counters=0 -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck --check-prefix=OFF %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-musl"

declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

; Counters: @diamond 0 (calls), 1 (entry), 2 (%then), 3 (%else), 4 (%join);
; @leaves 5 (calls), 6 (entry), 7 (after the call); @invokes 8 (calls),
; 9 (entry), 10 (%then), 11 (%join), 12 (%ok), 13 (%lpad).
; The entry and %join run once per call, %else when %then does not.
; SITES: pasta: derived 1 = +1*c0
; SITES-NEXT: pasta: derived 3 = +1*c0 -1*c2
; SITES-NEXT: pasta: derived 4 = +1*c0
; The block after a call that may leave runs less often than the entry
; when the call leaves: counted (no row for 7).
; SITES-NEXT: pasta: derived 6 = +1*c5
; SITES-NEXT: pasta: derived 9 = +1*c8
; SITES-NEXT: pasta: derived 11 = +1*c8
; SITES-NEXT: pasta: module counters=14
; OFF-NOT: pasta: derived

; CHECK-LABEL: define void @diamond(
; CHECK: then:
; CHECK-NEXT: %[[THEN:[0-9]+]] = add i64 0, 1
; CHECK: else:
; CHECK-NEXT: store double 3.0
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %[[C2:.*]] = phi i64 [ %[[THEN]], %then ], [ 0, %else ]
; CHECK-NEXT: store double 4.0
; CHECK-NEXT: atomicrmw add ptr @__pasta_counters_[[ID:[0-9a-f]+]], i64 1 monotonic
; CHECK-NEXT: icmp ne i64 %[[C2]], 0
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 2), i64 %[[C2]] monotonic
; CHECK-NOT: atomicrmw
; CHECK: ret void
define void @diamond(ptr %p, i1 %c) {
entry:
  store double 1.0, ptr %p
  br i1 %c, label %then, label %else
then:
  store double 2.0, ptr %p
  br label %join
else:
  store double 3.0, ptr %p
  br label %join
join:
  store double 4.0, ptr %p
  ret void
}

; CHECK-LABEL: define void @leaves(
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 5), i64 1 monotonic
; CHECK-NEXT: call void @may_throw()
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 7)
; CHECK-NEXT: ret void
define void @leaves(ptr %p) {
entry:
  store double 1.0, ptr %p
  call void @may_throw()
  store double 2.0, ptr %p
  ret void
}

; CHECK-LABEL: define void @invokes(
; CHECK: join:
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 8), i64 1 monotonic
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 10)
; CHECK: invoke void @may_throw()
; CHECK: ok:
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 12)
; CHECK-NEXT: ret void
; CHECK: lpad:
; CHECK: atomicrmw add ptr getelementptr inbounds (i64, ptr @__pasta_counters_[[ID]], i32 13)
; CHECK-NEXT: resume
define void @invokes(ptr %p, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  store double 1.0, ptr %p
  br i1 %c, label %then, label %join
then:
  store double 2.0, ptr %p
  br label %join
join:
  store double 3.0, ptr %p
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  store double 4.0, ptr %p
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  store double 5.0, ptr %p
  resume { ptr, i32 } %lp
}

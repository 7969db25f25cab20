; Scope events on awkward control flow (host code, PASTA_HOST=1
; PASTA_TRACE=1):
;  - @sw: a switch that enters a loop and leaves it through two cases each:
;    one entry and one exit per distinct edge, every case through it, and
;    one trip per latch run however many back edges the latch has;
;  - @guard: an `if` that branches straight to a loop's header has the same
;    blocks as the loop: the `if` is the loop's parent;
;  - @into: a goto into an if-body: the inner `if` is not a scope (its body
;    can be entered without passing its branch), the outer one is;
;  - @eh: an exception thrown through a callee and caught in a loop: the
;    function's scope is left on `resume`, and a landing pad tells the
;    runtime where the thread is again.
; RUN: %opt -passes=pasta-count -pasta-host -pasta-trace -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; SITES: pasta: scope 0 func parent=none {{.*}} func=sw
; SITES-NEXT: pasta: scope 1 conditional parent=0 {{.*}} func=sw
; SITES-NEXT: pasta: scope 2 loop parent=1 {{.*}} func=sw
; SITES: pasta: scope 3 func parent=none {{.*}} func=guard
; SITES-NEXT: pasta: scope 4 conditional parent=3 {{.*}} func=guard
; SITES-NEXT: pasta: scope 5 loop parent=4 {{.*}} func=guard
; SITES: pasta: scope 6 func parent=none {{.*}} func=into
; SITES-NEXT: pasta: scope 7 conditional parent=6 {{.*}} func=into
; SITES-NOT: func=into
; SITES: pasta: scope 8 func parent=none {{.*}} func=eh
; SITES-NEXT: pasta: scope 9 loop parent=8 {{.*}} func=eh

; CHECK-LABEL: define i32 @sw(
; CHECK: switch i32 %k, label %[[OUT:[a-z._]+]] [
; CHECK-NEXT: i32 1, label %[[IN:[a-z._]+]]
; CHECK-NEXT: i32 2, label %[[IN]]
; CHECK: [[IN]]:
; CHECK-NEXT: call void @__pasta_scope_enter(ptr @__pasta_host_desc_[[ID:[0-9a-f]+]], i32 2)
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NEXT: %pasta.trips.0 = phi i32 [ 0, %[[IN]] ], [ [[T:%[0-9]+]], %loop ], [ [[T]], %loop ]
; CHECK: [[T]] = add i32 %pasta.trips.0, 1
; CHECK-NOT: add i32 %pasta.trips
; CHECK: switch i32 %c, label %loop [
; CHECK-NEXT: i32 1, label %[[LEAVE:[a-z._]+]]
; CHECK-NEXT: i32 2, label %[[LEAVE]]
; CHECK: [[LEAVE]]:
; CHECK-NEXT: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 2, i32 [[T]])
; CHECK-NEXT: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 1, i32 0)
; CHECK-NEXT: br label %out

define i32 @sw(i32 %k, i32 %n) {
entry:
  switch i32 %k, label %out [ i32 1, label %loop
                              i32 2, label %loop ]
loop:
  %i = phi i32 [ 0, %entry ], [ 0, %entry ], [ %i.next, %loop ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = urem i32 %i.next, 4
  switch i32 %c, label %loop [ i32 1, label %out
                               i32 2, label %out
                               i32 3, label %loop ]
out:
  %r = phi i32 [ -1, %entry ], [ %i, %loop ], [ %i, %loop ]
  ret i32 %r
}

define void @guard(ptr %a, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %m
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  store i32 0, ptr %p
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %m
m:
  ret void
}

declare void @foo()

; if (a) goto inside; if (c) { inside: foo(); }
define void @into(i1 %a, i1 %c) {
entry:
  br i1 %a, label %x, label %b
b:
  br i1 %c, label %x, label %m
x:
  call void @foo()
  br label %m
m:
  ret void
}

; CHECK-LABEL: define void @eh(
; CHECK: lpad:
; CHECK-NEXT: landingpad
; CHECK-NEXT: catch ptr null
; CHECK-NEXT: call void @__pasta_scope_resume(ptr @__pasta_host_desc_[[ID]], i32 9)
; CHECK: call void @__pasta_scope_exit(ptr @__pasta_host_desc_[[ID]], i32 8, i32 0)
; CHECK-NEXT: resume

declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define void @eh(i32 %n) personality ptr @__gxx_personality_v0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  invoke void @may_throw() to label %next unwind label %lpad
lpad:
  %lp = landingpad { ptr, i32 } catch ptr null
  %stop = icmp eq i32 %i, 7
  br i1 %stop, label %rethrow, label %next
next:
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
rethrow:
  resume { ptr, i32 } %lp
done:
  ret void
}

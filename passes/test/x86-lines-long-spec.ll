; A PASTA_LINES spec that selects nothing warns with at most its first 200
; characters and its length, however long it is (a 130 KB spec was once
; echoed whole). Here: nomatch.c:1 to nomatch.c:8000, 118,893 bytes
; (each entry is "nomatch.c:", the digits and ";": 9 * 12 + 90 * 13 +
; 900 * 14 + 7001 * 15), near the 128 KiB a single variable may hold.
; RUN: sh -c 'PASTA_LINES=$(seq -f "nomatch.c:%%g;" 1 8000 | tr -d "\n") %opt -passes=pasta-count -pasta-host -S %s -o /dev/null' 2>&1 | FileCheck %s
; CHECK: warning: pasta: PASTA_LINES 'nomatch.c:1;nomatch.c:2;nomatch.c:3;{{[^']*}}...' (118893 bytes) selects nothing to count in
; CHECK-NOT: nomatch.c:8000

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr %p) {
  store i32 0, ptr %p
  ret void
}

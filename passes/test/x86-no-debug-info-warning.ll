; The "no debug info" warning names a function the user wrote, never one the
; compiler generated (C++ static initialization, clang's terminate handler,
; thread-local wrappers), which no flag of the user's would give lines; and
; it says how to get lines. Those functions are still counted.
; RUN: split-file %s %t
; RUN: %opt -passes=pasta-count -pasta-host -pasta-print-sites -S %t/user.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=USER
; RUN: %opt -passes=pasta-count -pasta-host -pasta-print-sites -S %t/generated.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERATED

; USER: warning: pasta: 'work(int)' has no debug info, so its counts cannot be tied to source lines: compile with -gline-tables-only or -g
; USER-NOT: has no debug info
; USER: pasta: func __cxx_global_var_init kind=host
; USER: pasta: func _Z4worki kind=host

; GENERATED-NOT: has no debug info
; GENERATED: pasta: func __cxx_global_var_init kind=host
; GENERATED: pasta: func __clang_call_terminate kind=host
; GENERATED: pasta: func _GLOBAL__sub_I_app.cpp kind=host
; GENERATED: pasta: func _ZTW3tls kind=host
; GENERATED: pasta: func _Z4worki kind=host
; GENERATED-NOT: has no debug info

;--- user.ll
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

define internal void @__cxx_global_var_init() {
  store i32 1, ptr @g, align 4
  ret void
}

define i32 @_Z4worki(i32 %x) {
  %v = load i32, ptr @g, align 4
  %r = add i32 %v, %x
  ret i32 %r
}

;--- generated.ll
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0
@tls = thread_local global i32 0

define internal void @__cxx_global_var_init() {
  store i32 1, ptr @g, align 4
  ret void
}

define linkonce_odr hidden void @__clang_call_terminate(ptr %e) {
  store i32 2, ptr @g, align 4
  ret void
}

define internal void @_GLOBAL__sub_I_app.cpp() {
  store i32 3, ptr @g, align 4
  ret void
}

define weak_odr hidden ptr @_ZTW3tls() {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  ret ptr %p
}

declare ptr @llvm.threadlocal.address.p0(ptr)

define i32 @_Z4worki(i32 %x) !dbg !10 {
  %v = load i32, ptr @g, align 4, !dbg !12
  %r = add i32 %v, %x, !dbg !12
  ret i32 %r, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "app.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "work", scope: !1, file: !1, line: 3, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = !DILocation(line: 4, column: 3, scope: !10)

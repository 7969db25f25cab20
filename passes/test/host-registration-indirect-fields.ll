; Pointer fields of kernel parameters that clang passes indirectly: a class
; that is not trivially copyable (CUB's kernel_arg, a union with a copy
; constructor) reaches the stub as a bare pointer to the caller's copy,
; stored in the argument array as it is, with no type in the IR. The host
; registration reads its layout from the stub's debug info, so that its
; fields are numbered as the device's copy numbers them (from its byval
; type); without debug info, or where the layout is not fully described (a
; virtual base), the parameter has no fields, as before.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
;
; stub4(int n, U u, S s): U = union { struct { int *p; int pad; } b; int *it; }
; (the largest member: a pointer at 0); S = struct : Empty { int k; const
; W out; int *arr[2]; int flag : 1; static int *st; } with W = { int *p }:
; pointers at 8 (out.p), 16 and 24 (arr); the static member and the
; bit-field hold none.
; CHECK: @__pasta_kernel_fields = private constant [8 x i32] [i32 1, i32 0, i32 2, i32 8, i32 2, i32 16, i32 2, i32 24]
; CHECK-LABEL: define internal void @register(
; CHECK: call void @__pasta_register_kernel(ptr @stub4,
; CHECK-NEXT: call void @__pasta_register_kernel_fields(ptr @stub4, ptr @__pasta_kernel_fields, i32 4)
; CHECK: call void @__pasta_register_kernel(ptr @stub5,
; CHECK-NOT: @__pasta_register_kernel_fields(ptr @stub5
; CHECK: call void @__pasta_register_kernel(ptr @stub6,
; CHECK-NOT: @__pasta_register_kernel_fields(ptr @stub6
source_filename = "fields.cu"
target triple = "x86_64-pc-linux-gnu"

@name4 = private constant [4 x i8] c"k4i\00"
@name5 = private constant [4 x i8] c"k5i\00"
@name6 = private constant [4 x i8] c"k6i\00"

define void @stub4(i32 %n, ptr %u, ptr %s) !dbg !10 {
  %n.slot = alloca i32
  store i32 %n, ptr %n.slot
  %args = alloca ptr, i64 3
  store ptr %n.slot, ptr %args
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store ptr %u, ptr %a1
  %a2 = getelementptr inbounds i8, ptr %args, i64 16
  store ptr %s, ptr %a2
  %r = call i32 @cudaLaunchKernel(ptr @stub4, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

; The same union, no debug info.
define void @stub5(ptr %u) {
  %args = alloca ptr, i64 1
  store ptr %u, ptr %args
  %r = call i32 @cudaLaunchKernel(ptr @stub5, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

; A class with a virtual base: its layout is the compiler's, not described.
define void @stub6(ptr %v) !dbg !60 {
  %args = alloca ptr, i64 1
  store ptr %v, ptr %args
  %r = call i32 @cudaLaunchKernel(ptr @stub6, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)

define internal void @register(ptr %handle) {
  %r4 = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub4, ptr @name4, ptr @name4, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %r5 = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub5, ptr @name5, ptr @name5, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %r6 = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub6, ptr @name6, ptr @name6, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "fields.cu", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)
!10 = distinct !DISubprogram(name: "__device_stub__k4", scope: !1, file: !1, line: 1, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{null, !4, !20, !30})
; union U
!20 = distinct !DICompositeType(tag: DW_TAG_union_type, name: "U", file: !1, size: 128, elements: !{!21, !22})
!21 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !20, baseType: !23, size: 128)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "it", scope: !20, baseType: !5, size: 64)
!23 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "B", file: !1, size: 128, elements: !{!24, !25})
!24 = !DIDerivedType(tag: DW_TAG_member, name: "p", scope: !23, baseType: !5, size: 64)
!25 = !DIDerivedType(tag: DW_TAG_member, name: "pad", scope: !23, baseType: !4, size: 32, offset: 64)
; struct S : Empty
!30 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, size: 320, elements: !{!31, !32, !33, !34, !35, !36})
!31 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !30, baseType: !40)
!32 = !DIDerivedType(tag: DW_TAG_member, name: "k", scope: !30, baseType: !4, size: 32)
!33 = !DIDerivedType(tag: DW_TAG_member, name: "out", scope: !30, baseType: !41, size: 64, offset: 64)
!34 = !DIDerivedType(tag: DW_TAG_member, name: "arr", scope: !30, baseType: !44, size: 128, offset: 128)
!35 = !DIDerivedType(tag: DW_TAG_member, name: "flag", scope: !30, baseType: !4, size: 1, offset: 256, flags: DIFlagBitField, extraData: i64 256)
!36 = !DIDerivedType(tag: DW_TAG_variable, name: "st", scope: !30, baseType: !5, flags: DIFlagStaticMember)
!40 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Empty", file: !1, size: 8, elements: !{})
!41 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !42)
!42 = !DIDerivedType(tag: DW_TAG_typedef, name: "W_t", baseType: !43)
!43 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "W", file: !1, size: 64, elements: !{!45})
!44 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 128, elements: !{!46})
!45 = !DIDerivedType(tag: DW_TAG_member, name: "p", scope: !43, baseType: !5, size: 64)
!46 = !DISubrange(count: 2)
; class V : virtual Base
!60 = distinct !DISubprogram(name: "__device_stub__k6", scope: !1, file: !1, line: 2, type: !61, spFlags: DISPFlagDefinition, unit: !0)
!61 = !DISubroutineType(types: !{null, !62})
!62 = distinct !DICompositeType(tag: DW_TAG_class_type, name: "V", file: !1, size: 128, elements: !{!63, !64})
!63 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !62, baseType: !43, flags: DIFlagVirtual)
!64 = !DIDerivedType(tag: DW_TAG_member, name: "q", scope: !62, baseType: !5, size: 64, offset: 64)

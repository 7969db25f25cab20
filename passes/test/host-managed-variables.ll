; nvcc's __managed__ globals on the host (passes/ManagedVariables.cpp):
; pasta-nvcc's header declares them __device__ with the annotation
; "pasta.managed". Each registered one is registered as managed through a
; slot the CUDA runtime sets, and every use (in instructions, in a constant
; expression, in a phi) reads its address from that slot once the module
; is loaded. A device global without the annotation keeps its uses, and an
; annotated one the module neither registers nor uses is left alone. One it
; uses but does not register (extern, or relocatable device code) is an
; error: host and device code would use two variables.
; RUN: %opt -passes=pasta-managed -S %s | FileCheck %s
; RUN: sed 's/;UNREG //' %s | not %opt -passes=pasta-managed -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
; ERR: error: pasta: __managed__ variable 'Unregistered' is used where it is not registered
; ERR-NOT: variable 'P'

target triple = "x86_64-unknown-linux-gnu"

@P = internal global i32 undef, align 4
@Arr = internal global [4 x i32] undef, align 4
@Plain = internal global i32 undef, align 4
@Unregistered = external global i32, align 4
@.managed = private unnamed_addr constant [14 x i8] c"pasta.managed\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [5 x i8] c"m.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @P, ptr @.managed, ptr @.file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @Arr, ptr @.managed, ptr @.file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @Plain, ptr @.other, ptr @.file, i32 4, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @Unregistered, ptr @.managed, ptr @.file, i32 5, ptr null }], section "llvm.metadata"
@name.P = private constant [2 x i8] c"P\00"
@name.Arr = private constant [4 x i8] c"Arr\00"
@name.Plain = private constant [6 x i8] c"Plain\00"

; CHECK-DAG: @P.pasta.managed = internal global ptr null, section "__nv_managed_data__"
; CHECK-DAG: @Arr.pasta.managed = internal global ptr null, section "__nv_managed_data__"
; CHECK-NOT: @Plain.pasta.managed
; CHECK-NOT: @Unregistered.pasta.managed

declare void @__cudaRegisterVar(ptr, ptr, ptr, ptr, i32, i64, i32, i32)
declare i32 @cudaDeviceSynchronize()

; CHECK-LABEL: define void @register(
; CHECK: store ptr %handle, ptr @__pasta_managed_handle
; CHECK-NEXT: call void @__cudaRegisterManagedVar(ptr %handle, ptr @P.pasta.managed, ptr @name.P, ptr @name.P, i32 0, i64 4, i32 0, i32 0)
; CHECK: call void @__cudaRegisterManagedVar(ptr %handle, ptr @Arr.pasta.managed, ptr @name.Arr, ptr @name.Arr, i32 0, i64 16, i32 0, i32 0)
; CHECK: call void @__cudaRegisterVar(ptr %handle, ptr @Plain,
; CHECK-NOT: __cudaRegisterVar(ptr %handle, ptr @P,
define void @register(ptr %handle) {
  call void @__cudaRegisterVar(ptr %handle, ptr @P, ptr @name.P, ptr @name.P, i32 0, i64 4, i32 0, i32 0)
  call void @__cudaRegisterVar(ptr %handle, ptr @Arr, ptr @name.Arr, ptr @name.Arr, i32 0, i64 16, i32 0, i32 0)
  call void @__cudaRegisterVar(ptr %handle, ptr @Plain, ptr @name.Plain, ptr @name.Plain, i32 0, i64 4, i32 0, i32 0)
  ret void
}

; CHECK-LABEL: define i32 @use(
; CHECK: %[[A:.*]] = call ptr @__pasta_managed_address(ptr @P.pasta.managed)
; CHECK-NEXT: store i32 3, ptr %[[A]]
; CHECK: %[[B:.*]] = call ptr @__pasta_managed_address(ptr @Arr.pasta.managed)
; CHECK-NEXT: %[[G:.*]] = getelementptr inbounds i8, ptr %[[B]], i64 8
; CHECK-NEXT: load i32, ptr %[[G]]
; CHECK: store i32 1, ptr @Plain
; CHECK-NOT: ptr @P{{[,)]}}
define i32 @use() {
  store i32 3, ptr @P, align 4
  %s = call i32 @cudaDeviceSynchronize()
  %e = load i32, ptr getelementptr inbounds (i8, ptr @Arr, i64 8), align 4
  store i32 1, ptr @Plain, align 4
  ret i32 %e
}

; Only in the ERR run: a use of the unregistered one.
define i32 @use_unregistered() {
;UNREG   %u = load i32, ptr @Unregistered, align 4
;UNREG   ret i32 %u
  ret i32 0
}

; A phi's use: the address is read at the end of the incoming block.
; CHECK-LABEL: define i32 @pick(
; CHECK: then:
; CHECK-NEXT: %[[T:.*]] = call ptr @__pasta_managed_address(ptr @P.pasta.managed)
; CHECK-NEXT: br label %join
; CHECK: %p = phi ptr [ %[[T]], %then ], [ @Plain, %else ]
define i32 @pick(i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  %p = phi ptr [ @P, %then ], [ @Plain, %else ]
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

; The module is loaded once, then each address comes from its slot.
; CHECK-LABEL: define internal ptr @__pasta_managed_address(ptr %0)
; CHECK: load i8, ptr @__pasta_managed_inited
; CHECK: %[[H:.*]] = load ptr, ptr @__pasta_managed_handle
; CHECK-NEXT: %[[R:.*]] = call i8 @__cudaInitModule(ptr %[[H]])
; CHECK-NEXT: store i8 %[[R]], ptr @__pasta_managed_inited
; CHECK: %[[S:.*]] = load ptr, ptr %0
; CHECK-NEXT: ret ptr %[[S]]

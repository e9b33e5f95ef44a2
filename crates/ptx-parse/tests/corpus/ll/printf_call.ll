; Calls to the external vprintf with format strings in constant/global memory
; and argument buffers on the local stack (alloca -> .local / %SP / cvta).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%printf_args = type { i32, i32, double }
%printf_args2 = type { i64, i8* }

@.str = private unnamed_addr addrspace(4) constant [29 x i8] c"thread %d block %d value %f\0A\00", align 1
@.str1 = private unnamed_addr addrspace(1) constant [14 x i8] c"big=%ld s=%s\0A\00", align 1
@.msg = private unnamed_addr addrspace(1) constant [6 x i8] c"hello\00", align 1
@.plain = private unnamed_addr addrspace(4) constant [13 x i8] c"no args here\00", align 1

declare i32 @vprintf(i8*, i8*)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @print_kernel(double %val, i64 %big) {
entry:
  %buf = alloca %printf_args, align 8
  %buf2 = alloca %printf_args2, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %f0 = getelementptr inbounds %printf_args, %printf_args* %buf, i32 0, i32 0
  store i32 %tid, i32* %f0, align 8
  %f1 = getelementptr inbounds %printf_args, %printf_args* %buf, i32 0, i32 1
  store i32 %bid, i32* %f1, align 4
  %f2 = getelementptr inbounds %printf_args, %printf_args* %buf, i32 0, i32 2
  store double %val, double* %f2, align 8
  %fmt = getelementptr inbounds [29 x i8], [29 x i8] addrspace(4)* @.str, i64 0, i64 0
  %fmtg = addrspacecast i8 addrspace(4)* %fmt to i8*
  %args = bitcast %printf_args* %buf to i8*
  %r = call i32 @vprintf(i8* %fmtg, i8* %args)

  %g0 = getelementptr inbounds %printf_args2, %printf_args2* %buf2, i32 0, i32 0
  store i64 %big, i64* %g0, align 8
  %g1 = getelementptr inbounds %printf_args2, %printf_args2* %buf2, i32 0, i32 1
  %msg = getelementptr inbounds [6 x i8], [6 x i8] addrspace(1)* @.msg, i64 0, i64 0
  %msgg = addrspacecast i8 addrspace(1)* %msg to i8*
  store i8* %msgg, i8** %g1, align 8
  %fmt1 = getelementptr inbounds [14 x i8], [14 x i8] addrspace(1)* @.str1, i64 0, i64 0
  %fmt1g = addrspacecast i8 addrspace(1)* %fmt1 to i8*
  %args2 = bitcast %printf_args2* %buf2 to i8*
  %r2 = call i32 @vprintf(i8* %fmt1g, i8* %args2)

  %fmt2 = getelementptr inbounds [13 x i8], [13 x i8] addrspace(4)* @.plain, i64 0, i64 0
  %fmt2g = addrspacecast i8 addrspace(4)* %fmt2 to i8*
  %r3 = call i32 @vprintf(i8* %fmt2g, i8* null)
  ret void
}

; a noinline device helper that prints, called from a kernel with a result check
define i32 @log_value(i32 %v) noinline {
entry:
  %buf = alloca i32, align 4
  store i32 %v, i32* %buf, align 4
  %fmt = getelementptr inbounds [29 x i8], [29 x i8] addrspace(4)* @.str, i64 0, i64 0
  %fmtg = addrspacecast i8 addrspace(4)* %fmt to i8*
  %a = bitcast i32* %buf to i8*
  %r = call i32 @vprintf(i8* %fmtg, i8* %a)
  ret i32 %r
}

define void @log_kernel(i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %doprint, label %end
doprint:
  %r = call i32 @log_value(i32 %tid)
  store i32 %r, i32 addrspace(1)* %out, align 4
  br label %end
end:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (double, i64)* @print_kernel, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*)* @log_kernel, !"kernel", i32 1}

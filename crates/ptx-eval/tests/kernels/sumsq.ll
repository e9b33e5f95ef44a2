; out[t] = sum of k*k for k in 0..in[t] (a data-dependent loop per thread)
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @sumsq(i32 addrspace(1)* %in, i64 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %t
  %n = load i32, i32 addrspace(1)* %p
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %kk = zext i32 %k to i64
  %sq = mul i64 %kk, %kk
  %acc1 = add i64 %acc, %sq
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %po = getelementptr i64, i64 addrspace(1)* %out, i32 %t
  store i64 %r, i64 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*)* @sumsq, !"kernel", i32 1}

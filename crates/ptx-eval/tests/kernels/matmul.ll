; C = A * B for 8x8 i32 matrices, one thread per element (2-D block)
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @matmul(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %c) {
entry:
  %j = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = mul i32 %i, 8
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %ia = add i32 %row, %k
  %kb = mul i32 %k, 8
  %ib = add i32 %kb, %j
  %pa = getelementptr i32, i32 addrspace(1)* %a, i32 %ia
  %pb = getelementptr i32, i32 addrspace(1)* %b, i32 %ib
  %va = load i32, i32 addrspace(1)* %pa
  %vb = load i32, i32 addrspace(1)* %pb
  %m = mul i32 %va, %vb
  %acc1 = add i32 %acc, %m
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, 8
  br i1 %more, label %loop, label %done
done:
  %ic = add i32 %row, %j
  %pc = getelementptr i32, i32 addrspace(1)* %c, i32 %ic
  store i32 %acc1, i32 addrspace(1)* %pc
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*)* @matmul, !"kernel", i32 1}

; early exit: threads with in[t] < 0 return at once, the rest loop and store
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @early(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %t
  %x = load i32, i32 addrspace(1)* %p
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %exit, label %loop
loop:
  %v = phi i32 [ %x, %entry ], [ %v1, %loop ]
  %n = phi i32 [ 0, %entry ], [ %n1, %loop ]
  %v1 = lshr i32 %v, 1
  %n1 = add i32 %n, 1
  %more = icmp ne i32 %v1, 0
  br i1 %more, label %loop, label %store
store:
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %t
  store i32 %n1, i32 addrspace(1)* %po
  ret void
exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @early, !"kernel", i32 1}

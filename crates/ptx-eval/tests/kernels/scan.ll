; inclusive prefix sum of one block in shared memory (Hillis-Steele, barriers)
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
@tmp = internal addrspace(3) global [256 x i32] undef, align 4
define void @scan(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %pi = getelementptr i32, i32 addrspace(1)* %in, i32 %t
  %v = load i32, i32 addrspace(1)* %pi
  %ps = getelementptr [256 x i32], [256 x i32] addrspace(3)* @tmp, i32 0, i32 %t
  store i32 %v, i32 addrspace(3)* %ps
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %off = phi i32 [ 1, %entry ], [ %off2, %after ]
  %go = icmp ult i32 %off, %n
  br i1 %go, label %body, label %fin
body:
  %has = icmp uge i32 %t, %off
  %cur = load i32, i32 addrspace(3)* %ps
  br i1 %has, label %get, label %wait
get:
  %src = sub i32 %t, %off
  %pp = getelementptr [256 x i32], [256 x i32] addrspace(3)* @tmp, i32 0, i32 %src
  %o = load i32, i32 addrspace(3)* %pp
  %sum = add i32 %cur, %o
  br label %wait
wait:
  %new = phi i32 [ %cur, %body ], [ %sum, %get ]
  call void @llvm.nvvm.barrier0()
  store i32 %new, i32 addrspace(3)* %ps
  call void @llvm.nvvm.barrier0()
  br label %after
after:
  %off2 = shl i32 %off, 1
  br label %loop
fin:
  %r = load i32, i32 addrspace(3)* %ps
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %t
  store i32 %r, i32 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @scan, !"kernel", i32 1}

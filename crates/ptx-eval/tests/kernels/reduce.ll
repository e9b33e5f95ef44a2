; block sum in shared memory: tree reduction with barriers; out[cta] = sum
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
@buf = internal addrspace(3) global [256 x i32] undef, align 4
define void @reduce(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %c, %nt
  %i = add i32 %base, %t
  %pi = getelementptr i32, i32 addrspace(1)* %in, i32 %i
  %v = load i32, i32 addrspace(1)* %pi
  %ps = getelementptr [256 x i32], [256 x i32] addrspace(3)* @buf, i32 0, i32 %t
  store i32 %v, i32 addrspace(3)* %ps
  call void @llvm.nvvm.barrier0()
  %h0 = lshr i32 %nt, 1
  br label %loop
loop:
  %s = phi i32 [ %h0, %entry ], [ %s1, %next ]
  %go = icmp ugt i32 %s, 0
  br i1 %go, label %step, label %fin
step:
  %lt = icmp ult i32 %t, %s
  br i1 %lt, label %add, label %sync
add:
  %j = add i32 %t, %s
  %pj = getelementptr [256 x i32], [256 x i32] addrspace(3)* @buf, i32 0, i32 %j
  %a = load i32, i32 addrspace(3)* %ps
  %b = load i32, i32 addrspace(3)* %pj
  %ab = add i32 %a, %b
  store i32 %ab, i32 addrspace(3)* %ps
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  br label %next
next:
  %s1 = lshr i32 %s, 1
  br label %loop
fin:
  %first = icmp eq i32 %t, 0
  br i1 %first, label %wr, label %done
wr:
  %r = load i32, i32 addrspace(3)* %ps
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %c
  store i32 %r, i32 addrspace(1)* %po
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @reduce, !"kernel", i32 1}

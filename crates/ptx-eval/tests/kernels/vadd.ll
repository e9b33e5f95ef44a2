; out[i] = a[i] + b[i] for i < n (grid-wide index)
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @vadd(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %c, %nt
  %i = add i32 %base, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %pa = getelementptr i32, i32 addrspace(1)* %a, i32 %i
  %pb = getelementptr i32, i32 addrspace(1)* %b, i32 %i
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %i
  %va = load i32, i32 addrspace(1)* %pa
  %vb = load i32, i32 addrspace(1)* %pb
  %s = add i32 %va, %vb
  store i32 %s, i32 addrspace(1)* %po
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*, i32)* @vadd, !"kernel", i32 1}

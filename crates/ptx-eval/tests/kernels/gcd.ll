; gcd by Euclid's loop (urem), brev and abs of the difference
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.abs.i32(i32, i1)
define void @gcd(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pa = getelementptr i32, i32 addrspace(1)* %a, i32 %t
  %pb = getelementptr i32, i32 addrspace(1)* %b, i32 %t
  %x = load i32, i32 addrspace(1)* %pa
  %y = load i32, i32 addrspace(1)* %pb
  %z = icmp eq i32 %y, 0
  br i1 %z, label %done, label %loop
loop:
  %u = phi i32 [ %x, %entry ], [ %v, %loop ]
  %v = phi i32 [ %y, %entry ], [ %r, %loop ]
  %r = urem i32 %u, %v
  %nz = icmp ne i32 %r, 0
  br i1 %nz, label %loop, label %done
done:
  %g = phi i32 [ %x, %entry ], [ %v, %loop ]
  %d = sub i32 %x, %y
  %ad = call i32 @llvm.abs.i32(i32 %d, i1 false)
  %rv = call i32 @llvm.bitreverse.i32(i32 %x)
  %o = mul i32 %t, 3
  %o1 = add i32 %o, 1
  %o2 = add i32 %o, 2
  %p0 = getelementptr i32, i32 addrspace(1)* %out, i32 %o
  %p1 = getelementptr i32, i32 addrspace(1)* %out, i32 %o1
  %p2 = getelementptr i32, i32 addrspace(1)* %out, i32 %o2
  store i32 %g, i32 addrspace(1)* %p0
  store i32 %ad, i32 addrspace(1)* %p1
  store i32 %rv, i32 addrspace(1)* %p2
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*)* @gcd, !"kernel", i32 1}

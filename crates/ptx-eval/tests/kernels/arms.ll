; a switch: out[t] = f(in[t] mod 5) with several arms
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @arms(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %t
  %x = load i32, i32 addrspace(1)* %p
  %k = urem i32 %x, 5
  switch i32 %k, label %d [ i32 0, label %a0
                            i32 1, label %a1
                            i32 3, label %a3 ]
a0:
  %r0 = mul i32 %x, 7
  br label %j
a1:
  %r1 = xor i32 %x, -1
  br label %j
a3:
  %r3 = lshr i32 %x, 4
  br label %j
d:
  %rd = add i32 %x, 100
  br label %j
j:
  %r = phi i32 [ %r0, %a0 ], [ %r1, %a1 ], [ %r3, %a3 ], [ %rd, %d ]
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %t
  store i32 %r, i32 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @arms, !"kernel", i32 1}

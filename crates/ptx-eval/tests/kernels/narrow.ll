; narrow types: u8 and s16 loads, widened arithmetic, i16 stores
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @narrow(i8 addrspace(1)* %a, i16 addrspace(1)* %b, i16 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pa = getelementptr i8, i8 addrspace(1)* %a, i32 %t
  %pb = getelementptr i16, i16 addrspace(1)* %b, i32 %t
  %va = load i8, i8 addrspace(1)* %pa
  %vb = load i16, i16 addrspace(1)* %pb
  %za = zext i8 %va to i32
  %sb = sext i16 %vb to i32
  %m = mul i32 %za, %sb
  %s = ashr i32 %m, 3
  %r = trunc i32 %s to i16
  %po = getelementptr i16, i16 addrspace(1)* %out, i32 %t
  store i16 %r, i16 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i8 addrspace(1)*, i16 addrspace(1)*, i16 addrspace(1)*)* @narrow, !"kernel", i32 1}

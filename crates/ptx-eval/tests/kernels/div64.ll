; unsigned 64-bit division and remainder, and i16 min/max through selects
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @div64(i64 addrspace(1)* %a, i64 addrspace(1)* %b, i64 addrspace(1)* %q, i64 addrspace(1)* %r) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pa = getelementptr i64, i64 addrspace(1)* %a, i32 %t
  %pb = getelementptr i64, i64 addrspace(1)* %b, i32 %t
  %x = load i64, i64 addrspace(1)* %pa
  %y0 = load i64, i64 addrspace(1)* %pb
  %y = or i64 %y0, 1
  %qq = udiv i64 %x, %y
  %rr = srem i64 %x, %y
  %pq = getelementptr i64, i64 addrspace(1)* %q, i32 %t
  %pr = getelementptr i64, i64 addrspace(1)* %r, i32 %t
  store i64 %qq, i64 addrspace(1)* %pq
  store i64 %rr, i64 addrspace(1)* %pr
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i64 addrspace(1)*, i64 addrspace(1)*, i64 addrspace(1)*, i64 addrspace(1)*)* @div64, !"kernel", i32 1}

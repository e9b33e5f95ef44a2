; bit tricks: popcount, count leading zeros, byte swap, rotate, signed div/rem, min/max
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
define void @bits(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %t
  %x = load i32, i32 addrspace(1)* %p
  %y = xor i32 %x, 1234567
  %pc = call i32 @llvm.ctpop.i32(i32 %x)
  %lz = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %bs = call i32 @llvm.bswap.i32(i32 %x)
  %sh = and i32 %y, 31
  %ro = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 %sh)
  %d = or i32 %y, 1
  %q = sdiv i32 %x, %d
  %r = srem i32 %x, %d
  %mn = call i32 @llvm.smin.i32(i32 %x, i32 %y)
  %mx = call i32 @llvm.umax.i32(i32 %x, i32 %y)
  %o = mul i32 %t, 8
  %o1 = add i32 %o, 1
  %o2 = add i32 %o, 2
  %o3 = add i32 %o, 3
  %o4 = add i32 %o, 4
  %o5 = add i32 %o, 5
  %o6 = add i32 %o, 6
  %o7 = add i32 %o, 7
  %p0 = getelementptr i32, i32 addrspace(1)* %out, i32 %o
  %p1 = getelementptr i32, i32 addrspace(1)* %out, i32 %o1
  %p2 = getelementptr i32, i32 addrspace(1)* %out, i32 %o2
  %p3 = getelementptr i32, i32 addrspace(1)* %out, i32 %o3
  %p4 = getelementptr i32, i32 addrspace(1)* %out, i32 %o4
  %p5 = getelementptr i32, i32 addrspace(1)* %out, i32 %o5
  %p6 = getelementptr i32, i32 addrspace(1)* %out, i32 %o6
  %p7 = getelementptr i32, i32 addrspace(1)* %out, i32 %o7
  store i32 %pc, i32 addrspace(1)* %p0
  store i32 %lz, i32 addrspace(1)* %p1
  store i32 %bs, i32 addrspace(1)* %p2
  store i32 %ro, i32 addrspace(1)* %p3
  store i32 %q, i32 addrspace(1)* %p4
  store i32 %r, i32 addrspace(1)* %p5
  store i32 %mn, i32 addrspace(1)* %p6
  store i32 %mx, i32 addrspace(1)* %p7
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @bits, !"kernel", i32 1}

; SplitMix64 of (seed + index) per thread: 64-bit multiply, shifts, xor
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @mix64(i64 %seed, i64 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %c, %nt
  %i = add i32 %b, %t
  %i64 = zext i32 %i to i64
  %k = mul i64 %i64, -7046029254386353131
  %z0 = add i64 %seed, %k
  %s1 = lshr i64 %z0, 30
  %x1 = xor i64 %z0, %s1
  %m1 = mul i64 %x1, -4658895280553007687
  %s2 = lshr i64 %m1, 27
  %x2 = xor i64 %m1, %s2
  %m2 = mul i64 %x2, -7723592293110705685
  %s3 = lshr i64 %m2, 31
  %z = xor i64 %m2, %s3
  %po = getelementptr i64, i64 addrspace(1)* %out, i32 %i
  store i64 %z, i64 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i64, i64 addrspace(1)*)* @mix64, !"kernel", i32 1}

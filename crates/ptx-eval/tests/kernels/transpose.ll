; 32x32 transpose through a shared tile, 2-D grid of 2-D blocks
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
@tile = internal addrspace(3) global [8 x [9 x i32]] undef, align 4
define void @transpose(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bx8 = mul i32 %bx, 8
  %by8 = mul i32 %by, 8
  %x = add i32 %bx8, %tx
  %y = add i32 %by8, %ty
  %yrow = mul i32 %y, 32
  %ii = add i32 %yrow, %x
  %pi = getelementptr i32, i32 addrspace(1)* %in, i32 %ii
  %v = load i32, i32 addrspace(1)* %pi
  %ps = getelementptr [8 x [9 x i32]], [8 x [9 x i32]] addrspace(3)* @tile, i32 0, i32 %ty, i32 %tx
  store i32 %v, i32 addrspace(3)* %ps
  call void @llvm.nvvm.barrier0()
  %pt = getelementptr [8 x [9 x i32]], [8 x [9 x i32]] addrspace(3)* @tile, i32 0, i32 %tx, i32 %ty
  %w = load i32, i32 addrspace(3)* %pt
  %ox = add i32 %by8, %tx
  %oy = add i32 %bx8, %ty
  %orow = mul i32 %oy, 32
  %oi = add i32 %orow, %ox
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %oi
  store i32 %w, i32 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @transpose, !"kernel", i32 1}

; f32 clamp and select chain: out = |x| < 1 ? x*x : clamp(x, -4, 4) with NaN passed through
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @fclamp(float addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %t
  %x = load float, float addrspace(1)* %p
  %ax = fneg float %x
  %neg = fcmp olt float %x, 0.0
  %abs = select i1 %neg, float %ax, float %x
  %small = fcmp olt float %abs, 1.0
  %sq = fmul float %x, %x
  %hi = fcmp ogt float %x, 4.0
  %lo = fcmp olt float %x, -4.0
  %c1 = select i1 %hi, float 4.0, float %x
  %c2 = select i1 %lo, float -4.0, float %c1
  %r = select i1 %small, float %sq, float %c2
  %po = getelementptr float, float addrspace(1)* %out, i32 %t
  store float %r, float addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*)* @fclamp, !"kernel", i32 1}

; f32 dot-product partial per thread and f64 polynomial
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
define void @poly(double addrspace(1)* %in, double addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr double, double addrspace(1)* %in, i32 %t
  %x = load double, double addrspace(1)* %p
  %x2 = fmul double %x, %x
  %a = fmul double %x2, 3.0
  %b = fsub double %a, %x
  %c = fadd double %b, 0.5
  %po = getelementptr double, double addrspace(1)* %out, i32 %t
  store double %c, double addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (double addrspace(1)*, double addrspace(1)*)* @poly, !"kernel", i32 1}

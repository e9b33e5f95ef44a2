; y[i] = a * x[i] + y[i] for i < n, with a guard and a loop-free body.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @saxpy(float addrspace(1)* %x, float addrspace(1)* %y, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %cta, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %px = getelementptr float, float addrspace(1)* %x, i32 %i
  %py = getelementptr float, float addrspace(1)* %y, i32 %i
  %vx = load float, float addrspace(1)* %px
  %vy = load float, float addrspace(1)* %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, float addrspace(1)* %py
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float, i32)* @saxpy, !"kernel", i32 1}

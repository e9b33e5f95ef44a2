; Dynamic (extern) shared memory array used as a staging buffer, plus a
; stencil that reads neighbours at negative offsets in shared memory.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dynsmem = external addrspace(3) global [0 x float], align 16
@halo = internal addrspace(3) global [2 x float] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

define void @stencil3(float addrspace(1)* %out, float addrspace(1)* %in, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %bid, %bdim
  %gi = add i32 %base, %tid
  %gi64 = sext i32 %gi to i64
  %pin = getelementptr inbounds float, float addrspace(1)* %in, i64 %gi64
  %v = load float, float addrspace(1)* %pin, align 4
  ; store at dynsmem[tid + 1]
  %li = add i32 %tid, 1
  %li64 = zext i32 %li to i64
  %ps = getelementptr inbounds [0 x float], [0 x float] addrspace(3)* @dynsmem, i64 0, i64 %li64
  store float %v, float addrspace(3)* %ps, align 4
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %lefthalo, label %sync
lefthalo:
  %pl = getelementptr inbounds float, float addrspace(1)* %pin, i64 -1
  %hv = load float, float addrspace(1)* %pl, align 4
  store float %hv, float addrspace(3)* getelementptr inbounds ([0 x float], [0 x float] addrspace(3)* @dynsmem, i64 0, i64 0), align 16
  store float %hv, float addrspace(3)* getelementptr inbounds ([2 x float], [2 x float] addrspace(3)* @halo, i64 0, i64 0), align 4
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %pm1 = getelementptr inbounds float, float addrspace(3)* %ps, i32 -1
  %pp1 = getelementptr inbounds float, float addrspace(3)* %ps, i32 1
  %a = load float, float addrspace(3)* %pm1, align 4
  %b = load float, float addrspace(3)* %ps, align 4
  %c = load float, float addrspace(3)* %pp1, align 4
  %ab = fadd float %a, %b
  %abc = fadd float %ab, %c
  %avg = fmul float %abc, 0x3FD5555560000000
  %inr = icmp slt i32 %gi, %n
  br i1 %inr, label %st, label %end
st:
  %pout = getelementptr inbounds float, float addrspace(1)* %out, i64 %gi64
  store float %avg, float addrspace(1)* %pout, align 4
  br label %end
end:
  ret void
}

; dynamic shared viewed as int4 vectors (ld.shared.v4 / st.shared.v4)
define void @dyn_vec(<4 x i32> addrspace(1)* %io) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pg = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %io, i64 %t64
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %pg, align 16
  %sbase = bitcast [0 x float] addrspace(3)* @dynsmem to <4 x i32> addrspace(3)*
  %ps = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(3)* %sbase, i64 %t64
  store <4 x i32> %v, <4 x i32> addrspace(3)* %ps, align 16
  call void @llvm.nvvm.barrier0()
  %rev = xor i64 %t64, 31
  %pr = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(3)* %sbase, i64 %rev
  %w = load <4 x i32>, <4 x i32> addrspace(3)* %pr, align 16
  %w2 = add <4 x i32> %w, <i32 1, i32 2, i32 3, i32 4>
  store <4 x i32> %w2, <4 x i32> addrspace(1)* %pg, align 16
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @stencil3, !"kernel", i32 1}
!1 = !{void (<4 x i32> addrspace(1)*)* @dyn_vec, !"kernel", i32 1}

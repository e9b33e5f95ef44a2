; Static shared-memory tiles with llvm.nvvm.barrier0: block reduction and a
; tiled transpose. Shared arrays are addrspace(3) globals (undef initializer).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sdata = internal addrspace(3) global [256 x float] undef, align 4
@tile = internal addrspace(3) global [32 x [33 x i32]] undef, align 4
@scount = internal addrspace(3) global i32 undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare void @llvm.nvvm.barrier0()

; tree reduction in shared memory
define void @block_reduce(float addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %gbase = mul i32 %bid, %bdim
  %gi = add i32 %gbase, %tid
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, float addrspace(1)* %in, i64 %gi64
  %v = load float, float addrspace(1)* %pin, align 4
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @sdata, i64 0, i64 %t64
  store float %v, float addrspace(3)* %ps, align 4
  call void @llvm.nvvm.barrier0()
  br label %loop

loop:
  %s = phi i32 [ 128, %entry ], [ %s.next, %latch ]
  %active = icmp ult i32 %tid, %s
  br i1 %active, label %add, label %latch
add:
  %o = add i32 %tid, %s
  %o64 = zext i32 %o to i64
  %po = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @sdata, i64 0, i64 %o64
  %a = load float, float addrspace(3)* %ps, align 4
  %b = load float, float addrspace(3)* %po, align 4
  %sum = fadd float %a, %b
  store float %sum, float addrspace(3)* %ps, align 4
  br label %latch
latch:
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ne i32 %s.next, 0
  br i1 %more, label %loop, label %fin

fin:
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %write, label %done
write:
  %r = load float, float addrspace(3)* getelementptr inbounds ([256 x float], [256 x float] addrspace(3)* @sdata, i64 0, i64 0), align 4
  %bid64 = zext i32 %bid to i64
  %pout = getelementptr inbounds float, float addrspace(1)* %out, i64 %bid64
  store float %r, float addrspace(1)* %pout, align 4
  %cnt = load volatile i32, i32 addrspace(3)* @scount, align 4
  %cnt1 = add i32 %cnt, 1
  store volatile i32 %cnt1, i32 addrspace(3)* @scount, align 4
  br label %done
done:
  ret void
}

; 32x32 tiled transpose with padding to avoid bank conflicts
define void @transpose(i32 addrspace(1)* %dst, i32 addrspace(1)* %src, i32 %width) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bx32 = shl i32 %bx, 5
  %by32 = shl i32 %by, 5
  %x = add i32 %bx32, %tx
  %y = add i32 %by32, %ty
  %yw = mul i32 %y, %width
  %in = add i32 %yw, %x
  %in64 = zext i32 %in to i64
  %psrc = getelementptr inbounds i32, i32 addrspace(1)* %src, i64 %in64
  %v = load i32, i32 addrspace(1)* %psrc, align 4
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %pt = getelementptr inbounds [32 x [33 x i32]], [32 x [33 x i32]] addrspace(3)* @tile, i64 0, i64 %ty64, i64 %tx64
  store i32 %v, i32 addrspace(3)* %pt, align 4
  call void @llvm.nvvm.barrier0()
  %pt2 = getelementptr inbounds [32 x [33 x i32]], [32 x [33 x i32]] addrspace(3)* @tile, i64 0, i64 %tx64, i64 %ty64
  %w = load i32, i32 addrspace(3)* %pt2, align 4
  %x2 = add i32 %by32, %tx
  %y2 = add i32 %bx32, %ty
  %y2w = mul i32 %y2, %width
  %out = add i32 %y2w, %x2
  %out64 = zext i32 %out to i64
  %pdst = getelementptr inbounds i32, i32 addrspace(1)* %dst, i64 %out64
  store i32 %w, i32 addrspace(1)* %pdst, align 4
  ret void
}

; generic access to shared memory through addrspacecast (cvta.shared)
define float @read_generic(float* %p) noinline {
  %v = load float, float* %p, align 4
  ret float %v
}

define void @shared_generic(float addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @sdata, i64 0, i64 %t64
  %tf = uitofp i32 %tid to float
  store float %tf, float addrspace(3)* %ps, align 4
  call void @llvm.nvvm.barrier0()
  %gen = addrspacecast float addrspace(3)* %ps to float*
  %v = call float @read_generic(float* %gen)
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %t64
  store float %v, float addrspace(1)* %po, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float addrspace(1)*, float addrspace(1)*)* @block_reduce, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @transpose, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*)* @shared_generic, !"kernel", i32 1}

; Atomics: atomicrmw add on global (i32, i64, f32) and shared memory, other rmw
; ops (xchg, max, min, and, or, xor, umax), cmpxchg loop, and a histogram kernel
; combining shared-memory atomics with barriers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@hist = internal addrspace(3) global [64 x i32] undef, align 4
@gcounter = addrspace(1) global i32 0, align 4
@gtotal = addrspace(1) global i64 0, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

define void @atomic_add_kernel(i32 addrspace(1)* %ctr, i64 addrspace(1)* %ctr64, float addrspace(1)* %fsum, i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw add i32 addrspace(1)* %ctr, i32 1 seq_cst
  %t64 = zext i32 %tid to i64
  %old64 = atomicrmw add i64 addrspace(1)* %ctr64, i64 %t64 monotonic
  %tf = uitofp i32 %tid to float
  %oldf = atomicrmw fadd float addrspace(1)* %fsum, float %tf monotonic
  %g = atomicrmw add i32 addrspace(1)* @gcounter, i32 %tid monotonic
  %gt = atomicrmw add i64 addrspace(1)* @gtotal, i64 -1 monotonic
  %x = atomicrmw xchg i32 addrspace(1)* %ctr, i32 %g monotonic
  %mx = atomicrmw max i32 addrspace(1)* %ctr, i32 %tid monotonic
  %mn = atomicrmw min i32 addrspace(1)* %ctr, i32 -5 monotonic
  %umx = atomicrmw umax i32 addrspace(1)* %ctr, i32 100 monotonic
  %an = atomicrmw and i32 addrspace(1)* %ctr, i32 255 monotonic
  %or = atomicrmw or i32 addrspace(1)* %ctr, i32 4096 monotonic
  %xr = atomicrmw xor i32 addrspace(1)* %ctr, i32 %tid monotonic
  %s0 = add i32 %old, %x
  %s1 = add i32 %s0, %mx
  %s2 = add i32 %s1, %mn
  %s3 = add i32 %s2, %umx
  %s4 = xor i32 %s3, %an
  %s5 = xor i32 %s4, %or
  %s6 = xor i32 %s5, %xr
  %o64 = trunc i64 %old64 to i32
  %gt32 = trunc i64 %gt to i32
  %fo = fptosi float %oldf to i32
  %s7 = add i32 %s6, %o64
  %s8 = add i32 %s7, %gt32
  %s9 = add i32 %s8, %fo
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %s9, i32 addrspace(1)* %po, align 4
  ret void
}

; atomic max on floats emulated with a cmpxchg loop
define float @atomic_fmax(float addrspace(1)* %p, float %v) noinline {
entry:
  %ip = bitcast float addrspace(1)* %p to i32 addrspace(1)*
  %init = load i32, i32 addrspace(1)* %ip, align 4
  br label %loop
loop:
  %cur = phi i32 [ %init, %entry ], [ %seen, %retry ]
  %curf = bitcast i32 %cur to float
  %ge = fcmp oge float %curf, %v
  br i1 %ge, label %done, label %try
try:
  %vi = bitcast float %v to i32
  %pair = cmpxchg i32 addrspace(1)* %ip, i32 %cur, i32 %vi seq_cst seq_cst
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %done, label %retry
retry:
  br label %loop
done:
  %r = phi i32 [ %cur, %loop ], [ %cur, %try ]
  %rf = bitcast i32 %r to float
  ret float %rf
}

define void @fmax_kernel(float addrspace(1)* %m, float addrspace(1)* %vals) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pv = getelementptr inbounds float, float addrspace(1)* %vals, i64 %t64
  %v = load float, float addrspace(1)* %pv, align 4
  %old = call float @atomic_fmax(float addrspace(1)* %m, float %v)
  store float %old, float addrspace(1)* %pv, align 4
  ret void
}

; shared-memory histogram with atom.shared.add and barriers
define void @histogram(i8 addrspace(1)* %data, i32 %n, i32 addrspace(1)* %ghist) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %init = icmp ult i32 %tid, 64
  br i1 %init, label %zero, label %sync0
zero:
  %t64 = zext i32 %tid to i64
  %ph = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @hist, i64 0, i64 %t64
  store i32 0, i32 addrspace(3)* %ph, align 4
  br label %sync0
sync0:
  call void @llvm.nvvm.barrier0()
  %has = icmp slt i32 %tid, %n
  br i1 %has, label %loop, label %sync1
loop:
  %i = phi i32 [ %tid, %sync0 ], [ %i1, %loop ]
  %i64 = sext i32 %i to i64
  %pd = getelementptr inbounds i8, i8 addrspace(1)* %data, i64 %i64
  %d = load i8, i8 addrspace(1)* %pd, align 1
  %bin = lshr i8 %d, 2
  %bin64 = zext i8 %bin to i64
  %pb = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @hist, i64 0, i64 %bin64
  %o = atomicrmw add i32 addrspace(3)* %pb, i32 1 monotonic
  %i1 = add nsw i32 %i, %bdim
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %sync1
sync1:
  call void @llvm.nvvm.barrier0()
  br i1 %init, label %flush, label %end
flush:
  %t64b = zext i32 %tid to i64
  %phb = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @hist, i64 0, i64 %t64b
  %cnt = load i32, i32 addrspace(3)* %phb, align 4
  %pg = getelementptr inbounds i32, i32 addrspace(1)* %ghist, i64 %t64b
  %og = atomicrmw add i32 addrspace(1)* %pg, i32 %cnt monotonic
  br label %end
end:
  ret void
}

; atomics through a generic pointer
define void @generic_atomic(i32* %p, i64* %q) {
entry:
  %a = atomicrmw add i32* %p, i32 2 monotonic
  %b = atomicrmw add i64* %q, i64 3 monotonic
  %a64 = sext i32 %a to i64
  %s = add i64 %a64, %b
  %q1 = getelementptr inbounds i64, i64* %q, i64 1
  store i64 %s, i64* %q1, align 8
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, float addrspace(1)*, i32 addrspace(1)*)* @atomic_add_kernel, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*)* @fmax_kernel, !"kernel", i32 1}
!2 = !{void (i8 addrspace(1)*, i32, i32 addrspace(1)*)* @histogram, !"kernel", i32 1}
!3 = !{void (i32*, i64*)* @generic_atomic, !"kernel", i32 1}

; Calls between noinline device functions: scalar/aggregate/pointer args, multiple
; returns, recursion, void calls, float/double/i64 params (callseq + .param).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.pair = type { i32, float }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @add3(i32 %a, i32 %b, i32 %c) #0 {
  %t = add i32 %a, %b
  %r = add i32 %t, %c
  ret i32 %r
}

define float @lerp(float %a, float %b, float %t) #0 {
  %d = fsub float %b, %a
  %m = fmul float %d, %t
  %r = fadd float %a, %m
  ret float %r
}

define double @poly(double %x) #0 {
  %x2 = fmul double %x, %x
  %a = fmul double %x2, 2.500000e-01
  %b = fmul double %x, -1.500000e+00
  %s = fadd double %a, %b
  %r = fadd double %s, 1.000000e+00
  ret double %r
}

define i64 @mix64(i64 %a, i64 %b) #0 {
  %m = mul i64 %a, 6364136223846793005
  %x = xor i64 %m, %b
  %s = lshr i64 %x, 29
  %r = add i64 %x, %s
  ret i64 %r
}

; returns a struct by value
define %struct.pair @make_pair(i32 %i, float %f) #0 {
  %p0 = insertvalue %struct.pair undef, i32 %i, 0
  %p1 = insertvalue %struct.pair %p0, float %f, 1
  ret %struct.pair %p1
}

; takes a struct by value
define float @pair_sum(%struct.pair %p) #0 {
  %i = extractvalue %struct.pair %p, 0
  %f = extractvalue %struct.pair %p, 1
  %fi = sitofp i32 %i to float
  %r = fadd float %fi, %f
  ret float %r
}

; recursion: fib
define i32 @fib(i32 %n) #0 {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %base, label %rec
base:
  ret i32 %n
rec:
  %n1 = sub i32 %n, 1
  %n2 = sub i32 %n, 2
  %f1 = call i32 @fib(i32 %n1)
  %f2 = call i32 @fib(i32 %n2)
  %r = add i32 %f1, %f2
  ret i32 %r
}

; void function writing through a pointer
define void @store_twice(float addrspace(1)* %p, float %v) #0 {
  store float %v, float addrspace(1)* %p, align 4
  %q = getelementptr inbounds float, float addrspace(1)* %p, i64 1
  %v2 = fmul float %v, 2.000000e+00
  store float %v2, float addrspace(1)* %q, align 4
  ret void
}

; generic-pointer parameter and return
define i32* @advance(i32* %p, i64 %n) #0 {
  %q = getelementptr inbounds i32, i32* %p, i64 %n
  ret i32* %q
}

; small vector argument and return
define <2 x float> @swap2(<2 x float> %v) #0 {
  %r = shufflevector <2 x float> %v, <2 x float> undef, <2 x i32> <i32 1, i32 0>
  ret <2 x float> %r
}

define i16 @narrow(i8 %a, i16 %b) #0 {
  %e = sext i8 %a to i16
  %r = add i16 %e, %b
  ret i16 %r
}

define void @call_kernel(float addrspace(1)* %fout, i32 addrspace(1)* %iout, double addrspace(1)* %dout,
                         i64 addrspace(1)* %lout, i32* %gen) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @add3(i32 %tid, i32 5, i32 -9)
  %tf = uitofp i32 %tid to float
  %l = call float @lerp(float 0.000000e+00, float %tf, float 2.500000e-01)
  %td = uitofp i32 %a to double
  %p = call double @poly(double %td)
  %t64 = zext i32 %tid to i64
  %m = call i64 @mix64(i64 %t64, i64 -1)
  %pr = call %struct.pair @make_pair(i32 %a, float %l)
  %ps = call float @pair_sum(%struct.pair %pr)
  %fb = call i32 @fib(i32 10)
  %fo = getelementptr inbounds float, float addrspace(1)* %fout, i64 %t64
  call void @store_twice(float addrspace(1)* %fo, float %ps)
  %g2 = call i32* @advance(i32* %gen, i64 %t64)
  %gv = load i32, i32* %g2, align 4
  %s1 = add i32 %fb, %gv
  %io = getelementptr inbounds i32, i32 addrspace(1)* %iout, i64 %t64
  store i32 %s1, i32 addrspace(1)* %io, align 4
  %dv = getelementptr inbounds double, double addrspace(1)* %dout, i64 %t64
  store double %p, double addrspace(1)* %dv, align 8
  %lv = getelementptr inbounds i64, i64 addrspace(1)* %lout, i64 %t64
  store i64 %m, i64 addrspace(1)* %lv, align 8
  %v0 = insertelement <2 x float> undef, float %l, i32 0
  %v1 = insertelement <2 x float> %v0, float %ps, i32 1
  %sw = call <2 x float> @swap2(<2 x float> %v1)
  %vp = bitcast float addrspace(1)* %fout to <2 x float> addrspace(1)*
  store <2 x float> %sw, <2 x float> addrspace(1)* %vp, align 8
  %t8 = trunc i32 %tid to i8
  %n16 = call i16 @narrow(i8 %t8, i16 300)
  %n32 = sext i16 %n16 to i32
  store i32 %n32, i32 addrspace(1)* %iout, align 4
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, double addrspace(1)*, i64 addrspace(1)*, i32*)* @call_kernel, !"kernel", i32 1}

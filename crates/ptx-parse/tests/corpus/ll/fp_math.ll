; f32/f64 floating point: arithmetic, fma/fmuladd, sqrt, fabs, min/max,
; floor/ceil/trunc/rint, copysign, conversions between int and float widths,
; fast-math flags, and special-value immediates (inf, nan, -0.0, denormal).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.fma.f32(float, float, float)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.fabs.f32(float)
declare double @llvm.fabs.f64(double)
declare float @llvm.minnum.f32(float, float)
declare double @llvm.maxnum.f64(double, double)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare double @llvm.trunc.f64(double)
declare double @llvm.rint.f64(double)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.nvvm.rcp.rn.f(float)

define float @newton_rsqrt(float %x) noinline {
  %y0 = call float @llvm.nvvm.rsqrt.approx.f(float %x)
  %hx = fmul float %x, 5.000000e-01
  %y2 = fmul float %y0, %y0
  %t = fmul float %hx, %y2
  %s = fsub float 1.500000e+00, %t
  %y1 = fmul float %y0, %s
  ret float %y1
}

define void @fp32_kernel(float addrspace(1)* %a, float addrspace(1)* %b, float addrspace(1)* %out, float %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %t64
  %x = load float, float addrspace(1)* %pa, align 4
  %y = load float, float addrspace(1)* %pb, align 4
  %add = fadd float %x, %y
  %sub = fsub float %x, 3.000000e+00
  %mul = fmul float %add, %sub
  %div = fdiv float %mul, %y
  %rem = frem float %div, 7.000000e+00
  %neg = fneg float %rem
  %f1 = call float @llvm.fma.f32(float %x, float %y, float %neg)
  %f2 = call float @llvm.fmuladd.f32(float %f1, float %k, float 1.000000e+00)
  %ab = call float @llvm.fabs.f32(float %f2)
  %sq = call float @llvm.sqrt.f32(float %ab)
  %mn = call float @llvm.minnum.f32(float %sq, float 6.550400e+04)
  %fl = call float @llvm.floor.f32(float %mn)
  %ce = call float @llvm.ceil.f32(float %x)
  %cs = call float @llvm.copysign.f32(float %fl, float %y)
  %r = call float @newton_rsqrt(float %ab)
  %rc = call float @llvm.nvvm.rcp.rn.f(float %ce)
  %fast = fmul fast float %cs, %r
  %fast2 = fdiv arcp float %fast, %k
  %sum = fadd float %fast2, %rc
  %inf = fadd float %sum, 0x7FF0000000000000
  %nz = fmul float %inf, -0.000000e+00
  %den = fadd float %sum, 0x3800000000000000
  %res = fadd float %nz, %den
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %t64
  store float %res, float addrspace(1)* %po, align 4
  ret void
}

define void @fp64_kernel(double addrspace(1)* %a, double addrspace(1)* %out, i64 addrspace(1)* %iout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds double, double addrspace(1)* %a, i64 %t64
  %x = load double, double addrspace(1)* %pa, align 8
  %pm1 = getelementptr inbounds double, double addrspace(1)* %pa, i64 -1
  %y = load double, double addrspace(1)* %pm1, align 8
  %m = fmul double %x, 0x3FB999999999999A
  %f = call double @llvm.fma.f64(double %m, double %y, double 2.718281828459045)
  %s = call double @llvm.sqrt.f64(double %f)
  %ab = call double @llvm.fabs.f64(double %s)
  %mx = call double @llvm.maxnum.f64(double %ab, double 1.000000e-300)
  %tr = call double @llvm.trunc.f64(double %mx)
  %ri = call double @llvm.rint.f64(double %y)
  %d = fdiv double %tr, %ri
  %n = fneg double %d
  %e = fsub double %n, 0x7FEFFFFFFFFFFFFF
  %po = getelementptr inbounds double, double addrspace(1)* %out, i64 %t64
  store double %e, double addrspace(1)* %po, align 8
  ; conversions
  %fx = fptrunc double %x to float
  %fxx = fpext float %fx to double
  %diff = fsub double %x, %fxx
  %po1 = getelementptr inbounds double, double addrspace(1)* %po, i64 1
  store double %diff, double addrspace(1)* %po1, align 8
  %si = fptosi double %x to i64
  %ui = fptoui double %y to i32
  %u64 = zext i32 %ui to i64
  %sf = fptosi float %fx to i16
  %s64 = sext i16 %sf to i64
  %c0 = add i64 %si, %u64
  %c1 = add i64 %c0, %s64
  %pi = getelementptr inbounds i64, i64 addrspace(1)* %iout, i64 %t64
  store i64 %c1, i64 addrspace(1)* %pi, align 8
  %back = sitofp i64 %c1 to double
  %backf = uitofp i64 %c1 to float
  %backf2 = sitofp i8 -7 to float
  %bfsum = fadd float %backf, %backf2
  %bfd = fpext float %bfsum to double
  %tot = fadd double %back, %bfd
  %po2 = getelementptr inbounds double, double addrspace(1)* %po, i64 2
  store double %tot, double addrspace(1)* %po2, align 8
  ret void
}

; polynomial evaluation with a counted loop in double precision (Horner with fma)
define double @horner(double addrspace(1)* %coef, i32 %deg, double %x) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ %deg, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.000000e+00, %entry ], [ %acc1, %loop ]
  %i64 = sext i32 %i to i64
  %pc = getelementptr inbounds double, double addrspace(1)* %coef, i64 %i64
  %c = load double, double addrspace(1)* %pc, align 8
  %acc1 = call double @llvm.fma.f64(double %acc, double %x, double %c)
  %i1 = add nsw i32 %i, -1
  %done = icmp slt i32 %i1, 0
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc1
}

define void @horner_kernel(double addrspace(1)* %coef, double addrspace(1)* %xs, i32 %deg) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %px = getelementptr inbounds double, double addrspace(1)* %xs, i64 %t64
  %x = load double, double addrspace(1)* %px, align 8
  %r = call double @horner(double addrspace(1)* %coef, i32 %deg, double %x)
  store double %r, double addrspace(1)* %px, align 8
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(1)*, float)* @fp32_kernel, !"kernel", i32 1}
!1 = !{void (double addrspace(1)*, double addrspace(1)*, i64 addrspace(1)*)* @fp64_kernel, !"kernel", i32 1}
!2 = !{void (double addrspace(1)*, double addrspace(1)*, i32)* @horner_kernel, !"kernel", i32 1}

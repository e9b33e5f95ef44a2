; Global variables with initializers in global (addrspace 1) and constant
; (addrspace 4) memory: scalars, arrays, structs, pointer-valued initializers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.params = type { i32, float, double, i64 }

@counter = addrspace(1) global i32 42, align 4
@gscale = addrspace(1) global float 1.500000e+00, align 4
@gtable = addrspace(1) global [8 x i32] [i32 1, i32 -2, i32 3, i32 -4, i32 5, i32 -6, i32 7, i32 -8], align 4
@gbytes = addrspace(1) global [5 x i8] c"\01\02\FF\80\7F", align 1
@gshorts = addrspace(1) global [4 x i16] [i16 -1, i16 32767, i16 0, i16 256], align 2
@gzero = addrspace(1) global [16 x i64] zeroinitializer, align 8
@gdbl = internal addrspace(1) global [3 x double] [double 1.000000e+00, double -2.500000e-01, double 0x7FF0000000000000], align 8
@gptr = addrspace(1) global i32 addrspace(1)* getelementptr inbounds ([8 x i32], [8 x i32] addrspace(1)* @gtable, i64 0, i64 2), align 8
@ccoef = addrspace(4) constant [4 x float] [float 1.000000e+00, float 5.000000e-01, float 2.500000e-01, float 0x3FC99999A0000000], align 4
@cparams = addrspace(4) constant %struct.params { i32 7, float -3.000000e+00, double 6.250000e-02, i64 -81985529216486896 }, align 8
@clut = internal addrspace(4) constant [16 x i8] c"0123456789abcdef", align 1
@cdbl = addrspace(4) constant double 0x400921FB54442D18, align 8
@weak_g = weak addrspace(1) global i32 0, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @use_globals(i32 addrspace(1)* %out, float addrspace(1)* %fout, i8 addrspace(1)* %hex) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 7
  %i64 = zext i32 %i to i64
  %pt = getelementptr inbounds [8 x i32], [8 x i32] addrspace(1)* @gtable, i64 0, i64 %i64
  %tv = load i32, i32 addrspace(1)* %pt, align 4
  %cnt = load i32, i32 addrspace(1)* @counter, align 4
  %s = add i32 %tv, %cnt
  %gp = load i32 addrspace(1)*, i32 addrspace(1)* addrspace(1)* @gptr, align 8
  %gv = load i32, i32 addrspace(1)* %gp, align 4
  %s2 = add i32 %s, %gv
  %pint = getelementptr inbounds %struct.params, %struct.params addrspace(4)* @cparams, i64 0, i32 0
  %pi = load i32, i32 addrspace(4)* %pint, align 8
  %s3 = mul i32 %s2, %pi
  %bi = and i32 %tid, 3
  %bi64 = zext i32 %bi to i64
  %pb = getelementptr inbounds [5 x i8], [5 x i8] addrspace(1)* @gbytes, i64 0, i64 %bi64
  %b = load i8, i8 addrspace(1)* %pb, align 1
  %bz = sext i8 %b to i32
  %psh = getelementptr inbounds [4 x i16], [4 x i16] addrspace(1)* @gshorts, i64 0, i64 %bi64
  %sh = load i16, i16 addrspace(1)* %psh, align 2
  %shz = zext i16 %sh to i32
  %s4 = add i32 %s3, %bz
  %s5 = xor i32 %s4, %shz
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %s5, i32 addrspace(1)* %po, align 4
  %cnt1 = add i32 %cnt, 1
  store i32 %cnt1, i32 addrspace(1)* @counter, align 4

  %ci = and i32 %tid, 3
  %ci64 = zext i32 %ci to i64
  %pc = getelementptr inbounds [4 x float], [4 x float] addrspace(4)* @ccoef, i64 0, i64 %ci64
  %cf = load float, float addrspace(4)* %pc, align 4
  %sc = load float, float addrspace(1)* @gscale, align 4
  %pfp = getelementptr inbounds %struct.params, %struct.params addrspace(4)* @cparams, i64 0, i32 1
  %pf = load float, float addrspace(4)* %pfp, align 4
  %f1 = fmul float %cf, %sc
  %f2 = fadd float %f1, %pf
  %pfo = getelementptr inbounds float, float addrspace(1)* %fout, i64 %t64
  store float %f2, float addrspace(1)* %pfo, align 4

  %hi = and i32 %tid, 15
  %hi64 = zext i32 %hi to i64
  %ph = getelementptr inbounds [16 x i8], [16 x i8] addrspace(4)* @clut, i64 0, i64 %hi64
  %h = load i8, i8 addrspace(4)* %ph, align 1
  %pho = getelementptr inbounds i8, i8 addrspace(1)* %hex, i64 %t64
  store i8 %h, i8 addrspace(1)* %pho, align 1

  %pz = getelementptr inbounds [16 x i64], [16 x i64] addrspace(1)* @gzero, i64 0, i64 %hi64
  store i64 %t64, i64 addrspace(1)* %pz, align 8
  %w = load volatile i32, i32 addrspace(1)* @weak_g, align 4
  %w1 = add i32 %w, 1
  store volatile i32 %w1, i32 addrspace(1)* @weak_g, align 4
  ret void
}

define void @use_doubles(double addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = urem i32 %tid, 3
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds [3 x double], [3 x double] addrspace(1)* @gdbl, i64 0, i64 %i64
  %d = load double, double addrspace(1)* %p, align 8
  %pi = load double, double addrspace(4)* @cdbl, align 8
  %pdp = getelementptr inbounds %struct.params, %struct.params addrspace(4)* @cparams, i64 0, i32 2
  %pd = load double, double addrspace(4)* %pdp, align 8
  %m = fmul double %d, %pi
  %r = fadd double %m, %pd
  %r2 = fdiv double %r, 3.000000e+00
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds double, double addrspace(1)* %out, i64 %t64
  store double %r2, double addrspace(1)* %po, align 8
  ; pass the address of a global through a generic pointer (mov.u64 sym; cvta.global)
  %gen = addrspacecast [3 x double] addrspace(1)* @gdbl to [3 x double]*
  %gp = getelementptr inbounds [3 x double], [3 x double]* %gen, i64 0, i64 1
  store volatile double %r, double* %gp, align 8
  %plp = getelementptr inbounds %struct.params, %struct.params addrspace(4)* @cparams, i64 0, i32 3
  %pl = load i64, i64 addrspace(4)* %plp, align 8
  %pld = sitofp i64 %pl to double
  %po1 = getelementptr inbounds double, double addrspace(1)* %po, i64 1
  store double %pld, double addrspace(1)* %po1, align 8
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, float addrspace(1)*, i8 addrspace(1)*)* @use_globals, !"kernel", i32 1}
!1 = !{void (double addrspace(1)*)* @use_doubles, !"kernel", i32 1}

; Vector loads and stores: <2 x float>, <4 x float>, <4 x i32>, <2 x double>,
; <2 x i64>, <4 x i16>, <2 x i16>, plus element extract/insert and shuffles.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @vec2f(<2 x float> addrspace(1)* %a, <2 x float> addrspace(1)* %b, <2 x float> addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %b, i64 %t64
  %va = load <2 x float>, <2 x float> addrspace(1)* %pa, align 8
  %vb = load <2 x float>, <2 x float> addrspace(1)* %pb, align 8
  %s = fadd <2 x float> %va, %vb
  %m = fmul <2 x float> %s, <float 5.000000e-01, float 2.000000e+00>
  %po = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %out, i64 %t64
  store <2 x float> %m, <2 x float> addrspace(1)* %po, align 8
  ret void
}

define void @vec4i(<4 x i32> addrspace(1)* %in, <4 x i32> addrspace(1)* %out, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pi = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %in, i64 %t64
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %pi, align 16
  %ins = insertelement <4 x i32> undef, i32 %k, i32 0
  %splat = shufflevector <4 x i32> %ins, <4 x i32> undef, <4 x i32> zeroinitializer
  %x = xor <4 x i32> %v, %splat
  %y = mul <4 x i32> %x, <i32 3, i32 5, i32 7, i32 9>
  %r = shufflevector <4 x i32> %y, <4 x i32> %v, <4 x i32> <i32 3, i32 2, i32 5, i32 0>
  %po = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %out, i64 %t64
  store <4 x i32> %r, <4 x i32> addrspace(1)* %po, align 16
  ; horizontal sum of the loaded vector
  %e0 = extractelement <4 x i32> %v, i32 0
  %e1 = extractelement <4 x i32> %v, i32 1
  %e2 = extractelement <4 x i32> %v, i32 2
  %e3 = extractelement <4 x i32> %v, i32 3
  %s01 = add i32 %e0, %e1
  %s23 = add i32 %e2, %e3
  %s = add i32 %s01, %s23
  %po2 = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %out, i64 1024
  %ps = bitcast <4 x i32> addrspace(1)* %po2 to i32 addrspace(1)*
  store i32 %s, i32 addrspace(1)* %ps, align 4
  ret void
}

; float4 from a scalar pointer with known 16-byte alignment
define void @float4_from_scalar(float addrspace(1)* align 16 %p, float addrspace(1)* align 16 %q) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t4 = shl i32 %tid, 2
  %t64 = zext i32 %t4 to i64
  %pp = getelementptr inbounds float, float addrspace(1)* %p, i64 %t64
  %vp = bitcast float addrspace(1)* %pp to <4 x float> addrspace(1)*
  %v = load <4 x float>, <4 x float> addrspace(1)* %vp, align 16
  %w = fsub <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %v
  %qp = getelementptr inbounds float, float addrspace(1)* %q, i64 %t64
  %vq = bitcast float addrspace(1)* %qp to <4 x float> addrspace(1)*
  store <4 x float> %w, <4 x float> addrspace(1)* %vq, align 16
  ret void
}

define void @vec_misc(<2 x double> addrspace(1)* %d, <2 x i64> addrspace(1)* %l, <4 x i16> addrspace(1)* %h,
                      <2 x i16> addrspace(1)* %h2, <4 x i8> addrspace(1)* %b4) {
entry:
  %vd = load <2 x double>, <2 x double> addrspace(1)* %d, align 16
  %vd2 = fmul <2 x double> %vd, %vd
  %pd1 = getelementptr inbounds <2 x double>, <2 x double> addrspace(1)* %d, i64 1
  store <2 x double> %vd2, <2 x double> addrspace(1)* %pd1, align 16
  %vl = load <2 x i64>, <2 x i64> addrspace(1)* %l, align 16
  %vl2 = shl <2 x i64> %vl, <i64 1, i64 33>
  %pl1 = getelementptr inbounds <2 x i64>, <2 x i64> addrspace(1)* %l, i64 -1
  store <2 x i64> %vl2, <2 x i64> addrspace(1)* %pl1, align 16
  %vh = load <4 x i16>, <4 x i16> addrspace(1)* %h, align 8
  %vh2 = add <4 x i16> %vh, <i16 1, i16 -1, i16 256, i16 -32768>
  %ph1 = getelementptr inbounds <4 x i16>, <4 x i16> addrspace(1)* %h, i64 1
  store <4 x i16> %vh2, <4 x i16> addrspace(1)* %ph1, align 8
  %v2h = load <2 x i16>, <2 x i16> addrspace(1)* %h2, align 4
  %v2h2 = sub <2 x i16> zeroinitializer, %v2h
  store <2 x i16> %v2h2, <2 x i16> addrspace(1)* %h2, align 4
  %vb = load <4 x i8>, <4 x i8> addrspace(1)* %b4, align 4
  %vb2 = and <4 x i8> %vb, <i8 15, i8 -16, i8 127, i8 -128>
  %pb1 = getelementptr inbounds <4 x i8>, <4 x i8> addrspace(1)* %b4, i64 1
  store <4 x i8> %vb2, <4 x i8> addrspace(1)* %pb1, align 4
  ret void
}

; vectors through generic pointers
define void @vec_generic(<4 x float>* %p) {
entry:
  %v = load <4 x float>, <4 x float>* %p, align 16
  %e = extractelement <4 x float> %v, i32 2
  %v2 = insertelement <4 x float> %v, float %e, i32 0
  %q = getelementptr inbounds <4 x float>, <4 x float>* %p, i64 1
  store <4 x float> %v2, <4 x float>* %q, align 16
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{void (<2 x float> addrspace(1)*, <2 x float> addrspace(1)*, <2 x float> addrspace(1)*)* @vec2f, !"kernel", i32 1}
!1 = !{void (<4 x i32> addrspace(1)*, <4 x i32> addrspace(1)*, i32)* @vec4i, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, float addrspace(1)*)* @float4_from_scalar, !"kernel", i32 1}
!3 = !{void (<2 x double> addrspace(1)*, <2 x i64> addrspace(1)*, <4 x i16> addrspace(1)*, <2 x i16> addrspace(1)*, <4 x i8> addrspace(1)*)* @vec_misc, !"kernel", i32 1}
!4 = !{void (<4 x float>*)* @vec_generic, !"kernel", i32 1}

; Select/predication-heavy straight-line code: clamps, conditional swaps,
; i1 logic, selects of floats, doubles, pointers and 64-bit ints.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @select_kernel(i32 addrspace(1)* %ia, float addrspace(1)* %fa, double addrspace(1)* %da,
                           i64 addrspace(1)* %la, i32 %lo, i32 %hi) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pi = getelementptr inbounds i32, i32 addrspace(1)* %ia, i64 %t64
  %x = load i32, i32 addrspace(1)* %pi, align 4
  ; clamp(x, lo, hi)
  %c1 = icmp slt i32 %x, %lo
  %s1 = select i1 %c1, i32 %lo, i32 %x
  %c2 = icmp sgt i32 %s1, %hi
  %s2 = select i1 %c2, i32 %hi, i32 %s1
  ; conditional negate and parity-based pick
  %odd = and i32 %tid, 1
  %isodd = icmp ne i32 %odd, 0
  %neg = sub i32 0, %s2
  %s3 = select i1 %isodd, i32 %neg, i32 %s2
  ; i1 logic combining predicates
  %p1 = icmp ugt i32 %x, 255
  %p2 = icmp eq i32 %lo, %hi
  %p3 = xor i1 %p1, %p2
  %p4 = or i1 %p3, %isodd
  %p5 = and i1 %p4, %c1
  %s4 = select i1 %p5, i32 77, i32 %s3
  %s5 = select i1 %p3, i32 -5, i32 %s4
  store i32 %s5, i32 addrspace(1)* %pi, align 4

  ; floats
  %pf = getelementptr inbounds float, float addrspace(1)* %fa, i64 %t64
  %f = load float, float addrspace(1)* %pf, align 4
  %fc1 = fcmp olt float %f, 0.000000e+00
  %fabs = fneg float %f
  %fs1 = select i1 %fc1, float %fabs, float %f
  %fc2 = fcmp ogt float %fs1, 1.000000e+00
  %fs2 = select i1 %fc2, float 1.000000e+00, float %fs1
  %fc3 = fcmp uno float %f, %f
  %fs3 = select i1 %fc3, float 0x7FF8000000000000, float %fs2
  %fs4 = select i1 %p5, float -2.500000e-01, float %fs3
  store float %fs4, float addrspace(1)* %pf, align 4

  ; doubles
  %pd = getelementptr inbounds double, double addrspace(1)* %da, i64 %t64
  %d = load double, double addrspace(1)* %pd, align 8
  %dc = fcmp oge double %d, 3.141592653589793
  %ds = select i1 %dc, double 3.141592653589793, double %d
  %dc2 = fcmp ule double %ds, -1.000000e+03
  %ds2 = select i1 %dc2, double -1.000000e+03, double %ds
  store double %ds2, double addrspace(1)* %pd, align 8

  ; 64-bit and pointer selects
  %pl = getelementptr inbounds i64, i64 addrspace(1)* %la, i64 %t64
  %l = load i64, i64 addrspace(1)* %pl, align 8
  %lc = icmp slt i64 %l, -4294967296
  %ls = select i1 %lc, i64 -4294967296, i64 %l
  %alt = getelementptr inbounds i64, i64 addrspace(1)* %la, i64 1
  %ptr = select i1 %isodd, i64 addrspace(1)* %pl, i64 addrspace(1)* %alt
  store i64 %ls, i64 addrspace(1)* %ptr, align 8
  ret void
}

; conditional swap network (sort 4 values) via selects
define void @sort4(i32 addrspace(1)* %v) {
entry:
  %p0 = getelementptr inbounds i32, i32 addrspace(1)* %v, i64 0
  %p1 = getelementptr inbounds i32, i32 addrspace(1)* %v, i64 1
  %p2 = getelementptr inbounds i32, i32 addrspace(1)* %v, i64 2
  %p3 = getelementptr inbounds i32, i32 addrspace(1)* %v, i64 3
  %a = load i32, i32 addrspace(1)* %p0, align 4
  %b = load i32, i32 addrspace(1)* %p1, align 4
  %c = load i32, i32 addrspace(1)* %p2, align 4
  %d = load i32, i32 addrspace(1)* %p3, align 4
  %c01 = icmp sgt i32 %a, %b
  %a1 = select i1 %c01, i32 %b, i32 %a
  %b1 = select i1 %c01, i32 %a, i32 %b
  %c23 = icmp sgt i32 %c, %d
  %c1 = select i1 %c23, i32 %d, i32 %c
  %d1 = select i1 %c23, i32 %c, i32 %d
  %c02 = icmp sgt i32 %a1, %c1
  %a2 = select i1 %c02, i32 %c1, i32 %a1
  %c2 = select i1 %c02, i32 %a1, i32 %c1
  %c13 = icmp sgt i32 %b1, %d1
  %b2 = select i1 %c13, i32 %d1, i32 %b1
  %d2 = select i1 %c13, i32 %b1, i32 %d1
  %c12 = icmp sgt i32 %b2, %c2
  %b3 = select i1 %c12, i32 %c2, i32 %b2
  %c3 = select i1 %c12, i32 %b2, i32 %c2
  store i32 %a2, i32 addrspace(1)* %p0, align 4
  store i32 %b3, i32 addrspace(1)* %p1, align 4
  store i32 %c3, i32 addrspace(1)* %p2, align 4
  store i32 %d2, i32 addrspace(1)* %p3, align 4
  ret void
}

; predicated (conditionally executed) store and bool stored as i8
define void @pred_store(i8 addrspace(1)* %flags, float addrspace(1)* %out, float %th) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %t64
  %v = load float, float addrspace(1)* %po, align 4
  %gt = fcmp ogt float %v, %th
  %pf = getelementptr inbounds i8, i8 addrspace(1)* %flags, i64 %t64
  %z = zext i1 %gt to i8
  store i8 %z, i8 addrspace(1)* %pf, align 1
  br i1 %gt, label %st, label %end
st:
  store float %th, float addrspace(1)* %po, align 4
  br label %end
end:
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (i32 addrspace(1)*, float addrspace(1)*, double addrspace(1)*, i64 addrspace(1)*, i32, i32)* @select_kernel, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*)* @sort4, !"kernel", i32 1}
!2 = !{void (i8 addrspace(1)*, float addrspace(1)*, float)* @pred_store, !"kernel", i32 1}

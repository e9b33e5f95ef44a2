; Integer min/max/abs via llvm.smin/smax/umin/umax/abs intrinsics and via
; icmp+select idioms, for i16, i32 and i64, plus saturating add/sub intrinsics.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)
declare i64 @llvm.abs.i64(i64, i1)
declare i16 @llvm.smax.i16(i16, i16)
declare i16 @llvm.abs.i16(i16, i1)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)

define void @minmax_kernel(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %t64
  %x = load i32, i32 addrspace(1)* %pa, align 4
  %y = load i32, i32 addrspace(1)* %pb, align 4
  %mn = call i32 @llvm.smin.i32(i32 %x, i32 %y)
  %mx = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  %umn = call i32 @llvm.umin.i32(i32 %x, i32 255)
  %umx = call i32 @llvm.umax.i32(i32 %y, i32 %tid)
  %ab = call i32 @llvm.abs.i32(i32 %x, i1 false)
  %abp = call i32 @llvm.abs.i32(i32 %y, i1 true)
  ; idiomatic forms
  %c1 = icmp slt i32 %x, %y
  %imin = select i1 %c1, i32 %x, i32 %y
  %c2 = icmp ugt i32 %x, %y
  %iumax = select i1 %c2, i32 %x, i32 %y
  %neg = sub nsw i32 0, %y
  %c3 = icmp slt i32 %y, 0
  %iabs = select i1 %c3, i32 %neg, i32 %y
  %s0 = add i32 %mn, %mx
  %s1 = add i32 %s0, %umn
  %s2 = add i32 %s1, %umx
  %s3 = add i32 %s2, %ab
  %s4 = add i32 %s3, %abp
  %s5 = xor i32 %s4, %imin
  %s6 = xor i32 %s5, %iumax
  %s7 = add i32 %s6, %iabs
  %sat1 = call i32 @llvm.sadd.sat.i32(i32 %s7, i32 %x)
  %sat2 = call i32 @llvm.usub.sat.i32(i32 %sat1, i32 %y)
  %clamp0 = call i32 @llvm.smax.i32(i32 %sat2, i32 -128)
  %clamp = call i32 @llvm.smin.i32(i32 %clamp0, i32 127)
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %clamp, i32 addrspace(1)* %po, align 4
  ret void
}

define void @minmax_wide(i64 addrspace(1)* %p, i16 addrspace(1)* %h) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pp = getelementptr inbounds i64, i64 addrspace(1)* %p, i64 %t64
  %x = load i64, i64 addrspace(1)* %pp, align 8
  %pm = getelementptr inbounds i64, i64 addrspace(1)* %pp, i64 -1
  %y = load i64, i64 addrspace(1)* %pm, align 8
  %mn = call i64 @llvm.smin.i64(i64 %x, i64 %y)
  %mx = call i64 @llvm.umax.i64(i64 %x, i64 4294967296)
  %ab = call i64 @llvm.abs.i64(i64 %mn, i1 false)
  %c = icmp sgt i64 %x, %y
  %smax = select i1 %c, i64 %x, i64 %y
  %r0 = add i64 %ab, %mx
  %r = sub i64 %r0, %smax
  store i64 %r, i64 addrspace(1)* %pp, align 8
  %ph = getelementptr inbounds i16, i16 addrspace(1)* %h, i64 %t64
  %hv = load i16, i16 addrspace(1)* %ph, align 2
  %hm = call i16 @llvm.smax.i16(i16 %hv, i16 -300)
  %ha = call i16 @llvm.abs.i16(i16 %hm, i1 false)
  store i16 %ha, i16 addrspace(1)* %ph, align 2
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*)* @minmax_kernel, !"kernel", i32 1}
!1 = !{void (i64 addrspace(1)*, i16 addrspace(1)*)* @minmax_wide, !"kernel", i32 1}

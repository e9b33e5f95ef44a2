; i8 and i16 arithmetic: add/sub/mul/div/rem, shifts, compares, sign/zero
; extension, saturating-style clamps, byte/short memory accesses.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i16 @llvm.bswap.i16(i16)
declare i8 @llvm.ctpop.i8(i8)

define i16 @mix16(i16 %a, i16 %b) noinline {
  %s = add i16 %a, %b
  %m = mul i16 %s, 251
  %d = sdiv i16 %m, 7
  %r = urem i16 %m, 13
  %x = xor i16 %d, %r
  %sh = shl i16 %x, 3
  %as = ashr i16 %sh, 1
  %ls = lshr i16 %as, 2
  %c = icmp slt i16 %ls, -100
  %res = select i1 %c, i16 -100, i16 %ls
  ret i16 %res
}

define i8 @mix8(i8 %a, i8 %b) noinline {
  %s = sub i8 %a, %b
  %m = mul i8 %s, 37
  %d = udiv i8 %m, 3
  %r = srem i8 %a, 5
  %x = or i8 %d, %r
  %n = xor i8 %x, -1
  %c = icmp ugt i8 %n, 200
  %res = select i1 %c, i8 200, i8 %n
  ret i8 %res
}

define void @small_kernel(i8 addrspace(1)* %b, i16 addrspace(1)* %h, i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pb = getelementptr inbounds i8, i8 addrspace(1)* %b, i64 %t64
  %ph = getelementptr inbounds i16, i16 addrspace(1)* %h, i64 %t64
  %vb = load i8, i8 addrspace(1)* %pb, align 1
  %vh = load i16, i16 addrspace(1)* %ph, align 2
  %pb1 = getelementptr inbounds i8, i8 addrspace(1)* %pb, i64 -3
  %vb1 = load i8, i8 addrspace(1)* %pb1, align 1
  %r8 = call i8 @mix8(i8 %vb, i8 %vb1)
  %ext8 = sext i8 %r8 to i16
  %r16 = call i16 @mix16(i16 %vh, i16 %ext8)
  %bs = call i16 @llvm.bswap.i16(i16 %r16)
  %pc = call i8 @llvm.ctpop.i8(i8 %r8)
  store i8 %pc, i8 addrspace(1)* %pb, align 1
  store i16 %bs, i16 addrspace(1)* %ph, align 2
  %z16 = zext i16 %r16 to i32
  %s8 = sext i8 %r8 to i32
  %z8 = zext i8 %vb to i32
  %t0 = add i32 %z16, %s8
  %t1 = mul i32 %t0, %z8
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %t1, i32 addrspace(1)* %po, align 4
  ; truncating stores
  %tr8 = trunc i32 %t1 to i8
  %tr16 = trunc i32 %t1 to i16
  %pb2 = getelementptr inbounds i8, i8 addrspace(1)* %pb, i64 256
  store i8 %tr8, i8 addrspace(1)* %pb2, align 1
  %ph2 = getelementptr inbounds i16, i16 addrspace(1)* %ph, i64 256
  store i16 %tr16, i16 addrspace(1)* %ph2, align 2
  ; compare chain on i8
  %e1 = icmp eq i8 %vb, 0
  %e2 = icmp sge i8 %vb1, -5
  %e3 = icmp ule i16 %vh, 4096
  %e12 = or i1 %e1, %e2
  %e = and i1 %e12, %e3
  %sel = select i1 %e, i16 %vh, i16 -1
  %ph3 = getelementptr inbounds i16, i16 addrspace(1)* %ph, i64 512
  store i16 %sel, i16 addrspace(1)* %ph3, align 2
  ret void
}

; half-word/byte array processing in a loop
define void @byte_loop(i8 addrspace(1)* %dst, i8 addrspace(1)* %src, i16 %n) {
entry:
  %c0 = icmp sgt i16 %n, 0
  br i1 %c0, label %loop, label %exit
loop:
  %i = phi i16 [ 0, %entry ], [ %inext, %loop ]
  %i64 = zext i16 %i to i64
  %ps = getelementptr inbounds i8, i8 addrspace(1)* %src, i64 %i64
  %v = load i8, i8 addrspace(1)* %ps, align 1
  %up = add i8 %v, -32
  %isl = icmp uge i8 %v, 97
  %isl2 = icmp ule i8 %v, 122
  %lower = and i1 %isl, %isl2
  %o = select i1 %lower, i8 %up, i8 %v
  %pd = getelementptr inbounds i8, i8 addrspace(1)* %dst, i64 %i64
  store i8 %o, i8 addrspace(1)* %pd, align 1
  %inext = add nuw nsw i16 %i, 1
  %c = icmp slt i16 %inext, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i8 addrspace(1)*, i16 addrspace(1)*, i32 addrspace(1)*)* @small_kernel, !"kernel", i32 1}
!1 = !{void (i8 addrspace(1)*, i8 addrspace(1)*, i16)* @byte_loop, !"kernel", i32 1}

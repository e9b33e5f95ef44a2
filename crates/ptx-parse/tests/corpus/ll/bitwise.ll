; Bitwise logic: and/or/xor/not chains, shifts (constant and variable), rotates
; via llvm.fshl/fshr (32 and 64 bit), bit-field extract/insert patterns,
; population count / leading zeros, and a CRC-like loop.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)

define i32 @rotl(i32 %x, i32 %n) noinline {
  %r = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 %n)
  ret i32 %r
}

define void @bits_kernel(i32 addrspace(1)* %io, i64 addrspace(1)* %io64, i32 %mask, i32 %amt) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i32, i32 addrspace(1)* %io, i64 %t64
  %x = load i32, i32 addrspace(1)* %p, align 4
  ; and/or/xor/not chain
  %a1 = and i32 %x, %mask
  %n1 = xor i32 %mask, -1
  %a2 = and i32 %x, %n1
  %o1 = or i32 %a1, 16711680
  %x1 = xor i32 %o1, %a2
  %n2 = xor i32 %x1, -1
  %a3 = and i32 %n2, 252645135
  %o2 = or i32 %a3, %lane
  %x2 = xor i32 %o2, -1431655766
  ; shifts
  %s1 = shl i32 %x2, 7
  %s2 = lshr i32 %x2, 25
  %rot7 = or i32 %s1, %s2
  %s3 = shl i32 %x, %amt
  %s4 = lshr i32 %x, %amt
  %s5 = ashr i32 %x, %amt
  %s34 = xor i32 %s3, %s4
  %s345 = add i32 %s34, %s5
  ; funnel-shift rotates
  %r1 = call i32 @llvm.fshl.i32(i32 %rot7, i32 %rot7, i32 13)
  %r2 = call i32 @llvm.fshr.i32(i32 %r1, i32 %s345, i32 %amt)
  %r3 = call i32 @rotl(i32 %r2, i32 %lane)
  ; bitfield extract (x >> 5) & 0x3f and insert
  %bf0 = lshr i32 %r3, 5
  %bfe = and i32 %bf0, 63
  %cl = and i32 %x, -4033
  %ins0 = shl i32 %bfe, 6
  %bfi = or i32 %cl, %ins0
  ; counts
  %pc = call i32 @llvm.ctpop.i32(i32 %bfi)
  %lz = call i32 @llvm.ctlz.i32(i32 %r3, i1 false)
  %tz = call i32 @llvm.cttz.i32(i32 %x2, i1 true)
  %rv = call i32 @llvm.bitreverse.i32(i32 %bfi)
  %c0 = add i32 %pc, %lz
  %c1 = add i32 %c0, %tz
  %res = xor i32 %c1, %rv
  store i32 %res, i32 addrspace(1)* %p, align 4
  ; 64-bit bit ops
  %p64 = getelementptr inbounds i64, i64 addrspace(1)* %io64, i64 %t64
  %y = load i64, i64 addrspace(1)* %p64, align 8
  %ny = xor i64 %y, -1
  %ya = and i64 %ny, 1085102592571150095
  %yo = or i64 %ya, -9223372036854775808
  %amt64 = zext i32 %amt to i64
  %yr = call i64 @llvm.fshl.i64(i64 %yo, i64 %yo, i64 %amt64)
  %yr2 = call i64 @llvm.fshl.i64(i64 %yr, i64 %y, i64 40)
  %ysh = ashr i64 %yr2, 3
  %ylsh = shl i64 %ysh, 61
  %yx = xor i64 %ysh, %ylsh
  store i64 %yx, i64 addrspace(1)* %p64, align 8
  ret void
}

; bitwise CRC32 over a byte buffer (while loop with inner fixed loop)
define i32 @crc32(i8 addrspace(1)* %buf, i32 %len) noinline {
entry:
  %e = icmp eq i32 %len, 0
  br i1 %e, label %done, label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.end ]
  %crc = phi i32 [ -1, %entry ], [ %crc.out, %outer.end ]
  %i64 = zext i32 %i to i64
  %pb = getelementptr inbounds i8, i8 addrspace(1)* %buf, i64 %i64
  %b = load i8, i8 addrspace(1)* %pb, align 1
  %bz = zext i8 %b to i32
  %c0 = xor i32 %crc, %bz
  br label %inner
inner:
  %k = phi i32 [ 0, %outer ], [ %k1, %inner ]
  %c = phi i32 [ %c0, %outer ], [ %cn, %inner ]
  %lsb = and i32 %c, 1
  %m = sub i32 0, %lsb
  %poly = and i32 %m, -306674912
  %sh = lshr i32 %c, 1
  %cn = xor i32 %sh, %poly
  %k1 = add nuw nsw i32 %k, 1
  %kd = icmp eq i32 %k1, 8
  br i1 %kd, label %outer.end, label %inner
outer.end:
  %crc.out = phi i32 [ %cn, %inner ]
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %len
  br i1 %more, label %outer, label %done.loop
done.loop:
  %fin = xor i32 %crc.out, -1
  br label %done
done:
  %r = phi i32 [ 0, %entry ], [ %fin, %done.loop ]
  ret i32 %r
}

define void @crc_kernel(i8 addrspace(1)* %buf, i32 %len, i32 addrspace(1)* %out) {
entry:
  %r = call i32 @crc32(i8 addrspace(1)* %buf, i32 %len)
  store i32 %r, i32 addrspace(1)* %out, align 4
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, i32, i32)* @bits_kernel, !"kernel", i32 1}
!1 = !{void (i8 addrspace(1)*, i32, i32 addrspace(1)*)* @crc_kernel, !"kernel", i32 1}

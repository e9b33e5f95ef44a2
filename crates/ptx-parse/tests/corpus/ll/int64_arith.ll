; 64-bit integer arithmetic: add/sub/mul/div/rem (signed and unsigned), mulhi via
; i128, shifts by variable amounts, 64-bit compares, conversions to and from i32.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @llvm.ctpop.i64(i64)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i64 @llvm.bswap.i64(i64)
declare i64 @llvm.bitreverse.i64(i64)

define i64 @hash64(i64 %x) noinline {
  %a = xor i64 %x, -7046029254386353131
  %b = mul i64 %a, -4658895280553007687
  %c = lshr i64 %b, 31
  %d = xor i64 %b, %c
  %e = mul i64 %d, 1442695040888963407
  %f = ashr i64 %e, 17
  %g = add i64 %e, %f
  ret i64 %g
}

define void @int64_kernel(i64 addrspace(1)* %a, i64 addrspace(1)* %b, i64 addrspace(1)* %out, i32 %sh) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds i64, i64 addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds i64, i64 addrspace(1)* %b, i64 %t64
  %x = load i64, i64 addrspace(1)* %pa, align 8
  %y = load i64, i64 addrspace(1)* %pb, align 8
  %add = add i64 %x, %y
  %sub = sub i64 %x, %y
  %mul = mul i64 %add, %sub
  %ynz = or i64 %y, 1
  %sdiv = sdiv i64 %mul, %ynz
  %udiv = udiv i64 %x, %ynz
  %srem = srem i64 %sdiv, 1000000007
  %urem = urem i64 %udiv, %ynz
  %sh64 = zext i32 %sh to i64
  %shl = shl i64 %srem, %sh64
  %lshr = lshr i64 %urem, %sh64
  %ashr = ashr i64 %x, 63
  %x128 = zext i64 %x to i128
  %y128 = zext i64 %y to i128
  %p128 = mul i128 %x128, %y128
  %hi128 = lshr i128 %p128, 64
  %mulhi = trunc i128 %hi128 to i64
  %sx128 = sext i64 %x to i128
  %sy128 = sext i64 %y to i128
  %sp128 = mul i128 %sx128, %sy128
  %shi128 = ashr i128 %sp128, 64
  %smulhi = trunc i128 %shi128 to i64
  %r0 = add i64 %shl, %lshr
  %r1 = xor i64 %r0, %ashr
  %r2 = add i64 %r1, %mulhi
  %r3 = sub i64 %r2, %smulhi
  %h = call i64 @hash64(i64 %r3)
  %pop = call i64 @llvm.ctpop.i64(i64 %h)
  %clz = call i64 @llvm.ctlz.i64(i64 %h, i1 false)
  %ctz = call i64 @llvm.cttz.i64(i64 %x, i1 false)
  %bs = call i64 @llvm.bswap.i64(i64 %y)
  %br = call i64 @llvm.bitreverse.i64(i64 %bs)
  %q0 = add i64 %pop, %clz
  %q1 = add i64 %q0, %ctz
  %q2 = xor i64 %q1, %br
  %cmp1 = icmp ult i64 %x, 4294967296
  %cmp2 = icmp sge i64 %y, -1
  %cc = and i1 %cmp1, %cmp2
  %big = add i64 %q2, 81985529216486895
  %res = select i1 %cc, i64 %q2, i64 %big
  %po = getelementptr inbounds i64, i64 addrspace(1)* %out, i64 %t64
  store i64 %res, i64 addrspace(1)* %po, align 8
  ; truncation / extension round-trips
  %lo = trunc i64 %res to i32
  %hi0 = lshr i64 %res, 32
  %hi = trunc i64 %hi0 to i32
  %lo2 = mul i32 %lo, %hi
  %lsx = sext i32 %lo2 to i64
  %po2 = getelementptr inbounds i64, i64 addrspace(1)* %po, i64 -1
  store i64 %lsx, i64 addrspace(1)* %po2, align 8
  ; mul.wide style
  %a32 = trunc i64 %x to i32
  %b32 = trunc i64 %y to i32
  %aw = sext i32 %a32 to i64
  %bw = sext i32 %b32 to i64
  %wide = mul nsw i64 %aw, %bw
  %au = zext i32 %a32 to i64
  %bu = zext i32 %b32 to i64
  %wideu = mul nuw i64 %au, %bu
  %w = add i64 %wide, %wideu
  %po3 = getelementptr inbounds i64, i64 addrspace(1)* %po, i64 4096
  store i64 %w, i64 addrspace(1)* %po3, align 8
  ret void
}

; 64-bit induction variable loop with large stride
define void @i64_loop(i64 addrspace(1)* %p, i64 %n) {
entry:
  %c0 = icmp sgt i64 %n, 0
  br i1 %c0, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi i64 [ 1, %entry ], [ %acc2, %loop ]
  %acc1 = mul i64 %acc, %i
  %acc2 = add i64 %acc1, 12345678901
  %inext = add nsw i64 %i, 3
  %c = icmp slt i64 %inext, %n
  br i1 %c, label %loop, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  store i64 %r, i64 addrspace(1)* %p, align 8
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i64 addrspace(1)*, i64 addrspace(1)*, i64 addrspace(1)*, i32)* @int64_kernel, !"kernel", i32 1}
!1 = !{void (i64 addrspace(1)*, i64)* @i64_loop, !"kernel", i32 1}

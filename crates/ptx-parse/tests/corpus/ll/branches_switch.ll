; Branches, diamond/if-else chains, and switch statements (dense jump-like and sparse).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

define i32 @classify(i32 %op, i32 %a, i32 %b) #0 {
entry:
  switch i32 %op, label %default [
    i32 0, label %add
    i32 1, label %sub
    i32 2, label %mul
    i32 3, label %div
    i32 4, label %rem
    i32 5, label %shl
    i32 7, label %band
    i32 100, label %big
    i32 -3, label %negcase
  ]
add:
  %r0 = add i32 %a, %b
  br label %join
sub:
  %r1 = sub i32 %a, %b
  br label %join
mul:
  %r2 = mul i32 %a, %b
  br label %join
div:
  %bz = icmp eq i32 %b, 0
  br i1 %bz, label %join, label %dodiv
dodiv:
  %r3 = sdiv i32 %a, %b
  br label %join
rem:
  %r4 = urem i32 %a, 17
  br label %join
shl:
  %r5 = shl i32 %a, 3
  br label %join
band:
  %r6 = and i32 %a, %b
  br label %join
big:
  %r7 = udiv i32 %a, 10
  br label %join
negcase:
  %r8 = sub i32 0, %a
  br label %join
default:
  br label %join
join:
  %res = phi i32 [ %r0, %add ], [ %r1, %sub ], [ %r2, %mul ], [ 0, %div ], [ %r3, %dodiv ],
                 [ %r4, %rem ], [ %r5, %shl ], [ %r6, %band ], [ %r7, %big ], [ %r8, %negcase ],
                 [ -1, %default ]
  ret i32 %res
}

; Nested if/else with a merge of several values and unsigned/signed compares.
define i32 @bucket(i32 %x, i32 %y) #0 {
entry:
  %c1 = icmp slt i32 %x, 0
  br i1 %c1, label %neg, label %nonneg
neg:
  %c2 = icmp ult i32 %y, 16
  br i1 %c2, label %neg_small, label %neg_big
neg_small:
  br label %merge
neg_big:
  %t = ashr i32 %x, 2
  br label %merge
nonneg:
  %c3 = icmp sgt i32 %x, 1000
  br i1 %c3, label %huge, label %mid
huge:
  %c4 = icmp uge i32 %y, %x
  br i1 %c4, label %merge, label %huge2
huge2:
  %u = sub i32 %x, %y
  br label %merge
mid:
  %c5 = icmp sle i32 %x, %y
  %c6 = icmp ne i32 %y, 42
  %both = and i1 %c5, %c6
  br i1 %both, label %merge, label %mid2
mid2:
  %w = mul i32 %x, 3
  br label %merge
merge:
  %r = phi i32 [ 1, %neg_small ], [ %t, %neg_big ], [ 2, %huge ], [ %u, %huge2 ], [ 3, %mid ], [ %w, %mid2 ]
  ret i32 %r
}

define void @branch_kernel(i32 addrspace(1)* %ops, i32 addrspace(1)* %out, i32 %bias) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %t64 = zext i32 %tx to i64
  %pop = getelementptr inbounds i32, i32 addrspace(1)* %ops, i64 %t64
  %op = load i32, i32 addrspace(1)* %pop, align 4
  %r = call i32 @classify(i32 %op, i32 %tx, i32 %ty)
  %b = call i32 @bucket(i32 %r, i32 %bias)
  %odd = and i32 %tx, 1
  %isodd = icmp eq i32 %odd, 1
  br i1 %isodd, label %skip, label %write
write:
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %b, i32 addrspace(1)* %po, align 4
  br label %skip
skip:
  ret void
}

; switch on a 64-bit value and on an i8
define i64 @switch64(i64 %v, i8 %tag) #0 {
entry:
  switch i8 %tag, label %other [
    i8 1, label %t1
    i8 2, label %t2
    i8 -1, label %t3
  ]
t1:
  switch i64 %v, label %other [
    i64 4294967296, label %hi
    i64 0, label %zero
  ]
hi:
  ret i64 1
zero:
  ret i64 2
t2:
  %x = mul i64 %v, 1099511628211
  ret i64 %x
t3:
  %y = lshr i64 %v, 33
  ret i64 %y
other:
  ret i64 -9223372036854775808
}

define void @switch_kernel(i64 addrspace(1)* %io, i8 %tag) {
entry:
  %v = load i64, i64 addrspace(1)* %io, align 8
  %r = call i64 @switch64(i64 %v, i8 %tag)
  store i64 %r, i64 addrspace(1)* %io, align 8
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @branch_kernel, !"kernel", i32 1}
!1 = !{void (i64 addrspace(1)*, i8)* @switch_kernel, !"kernel", i32 1}

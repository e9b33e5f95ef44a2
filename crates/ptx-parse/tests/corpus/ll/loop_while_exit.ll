; While loops with early exits: linear search, collatz steps, string length, and
; a loop with multiple exit edges. Uses generic pointers (cvta at kernel entry).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; returns index of first element equal to key, or -1
define i32 @find_first(i32* %a, i32 %n, i32 %key) #0 {
entry:
  br label %cond
cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body0, label %notfound
body0:
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds i32, i32* %a, i64 %i64
  %v = load i32, i32* %p, align 4
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %body
body:
  %i.next = add nsw i32 %i, 1
  br label %cond
found:
  ret i32 %i
notfound:
  ret i32 -1
}

; count collatz steps, give up after limit
define i32 @collatz(i64 %x, i32 %limit) #0 {
entry:
  br label %head
head:
  %v = phi i64 [ %x, %entry ], [ %v.next, %latch ]
  %steps = phi i32 [ 0, %entry ], [ %steps.next, %latch ]
  %is1 = icmp ule i64 %v, 1
  br i1 %is1, label %out, label %check
check:
  %over = icmp sge i32 %steps, %limit
  br i1 %over, label %giveup, label %step
step:
  %odd = and i64 %v, 1
  %isodd = icmp ne i64 %odd, 0
  br i1 %isodd, label %oddb, label %evenb
oddb:
  %t3 = mul i64 %v, 3
  %t31 = add i64 %t3, 1
  br label %latch
evenb:
  %h = lshr i64 %v, 1
  br label %latch
latch:
  %v.next = phi i64 [ %t31, %oddb ], [ %h, %evenb ]
  %steps.next = add i32 %steps, 1
  br label %head
out:
  ret i32 %steps
giveup:
  ret i32 -2
}

; strlen over a byte buffer
define i64 @my_strlen(i8* %s) #0 {
entry:
  br label %loop
loop:
  %n = phi i64 [ 0, %entry ], [ %n1, %loop ]
  %p = getelementptr inbounds i8, i8* %s, i64 %n
  %c = load i8, i8* %p, align 1
  %n1 = add i64 %n, 1
  %z = icmp eq i8 %c, 0
  br i1 %z, label %done, label %loop
done:
  ret i64 %n
}

define void @search_kernel(i32* %data, i32 %n, i32* %keys, i32* %out, i8* %str, i64* %lens) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pk = getelementptr inbounds i32, i32* %keys, i64 %t64
  %k = load i32, i32* %pk, align 4
  %r = call i32 @find_first(i32* %data, i32 %n, i32 %k)
  %kx = sext i32 %k to i64
  %steps = call i32 @collatz(i64 %kx, i32 1000)
  %sum = add i32 %r, %steps
  %po = getelementptr inbounds i32, i32* %out, i64 %t64
  store i32 %sum, i32* %po, align 4
  %ps = getelementptr inbounds i8, i8* %str, i64 %t64
  %len = call i64 @my_strlen(i8* %ps)
  %pl = getelementptr inbounds i64, i64* %lens, i64 %t64
  store i64 %len, i64* %pl, align 8
  ret void
}

; Backwards walk that reads a[i-1] and a[i-2] (negative offsets) and stops early
; when the running value drops below zero.
define void @backwalk(float addrspace(1)* %a, i32 %start, float addrspace(1)* %res) {
entry:
  %s64 = sext i32 %start to i64
  %p0 = getelementptr inbounds float, float addrspace(1)* %a, i64 %s64
  br label %loop
loop:
  %p = phi float addrspace(1)* [ %p0, %entry ], [ %pnext, %cont ]
  %acc = phi float [ 1.000000e+02, %entry ], [ %acc2, %cont ]
  %pm1 = getelementptr inbounds float, float addrspace(1)* %p, i64 -1
  %pm2 = getelementptr inbounds float, float addrspace(1)* %p, i64 -2
  %v1 = load float, float addrspace(1)* %pm1, align 4
  %v2 = load float, float addrspace(1)* %pm2, align 4
  %d = fsub float %v1, %v2
  %acc2 = fsub float %acc, %d
  %neg = fcmp olt float %acc2, 0.000000e+00
  br i1 %neg, label %exit, label %cont
cont:
  %pnext = getelementptr inbounds float, float addrspace(1)* %p, i64 -2
  %atstart = icmp eq float addrspace(1)* %pnext, %a
  br i1 %atstart, label %exit, label %loop
exit:
  %fin = phi float [ %acc2, %loop ], [ %acc2, %cont ]
  store float %fin, float addrspace(1)* %res, align 4
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32*, i32, i32*, i32*, i8*, i64*)* @search_kernel, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, i32, float addrspace(1)*)* @backwalk, !"kernel", i32 1}

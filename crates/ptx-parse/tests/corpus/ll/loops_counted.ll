; Counted and nested loops: saxpy-style loop, 2-D nested reduction, matrix multiply.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; y[i] = a * x[i] + y[i] for i in [0, n), grid-stride loop
define void @saxpy_loop(float addrspace(1)* %y, float addrspace(1)* %x, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %start = add i32 %base, %tid
  %cmp0 = icmp slt i32 %start, %n
  br i1 %cmp0, label %loop, label %exit

loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, float addrspace(1)* %x, i64 %idx
  %py = getelementptr inbounds float, float addrspace(1)* %y, i64 %idx
  %vx = load float, float addrspace(1)* %px, align 4
  %vy = load float, float addrspace(1)* %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, float addrspace(1)* %py, align 4
  %i.next = add nsw i32 %i, 4096
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; out[r] = sum_{c<cols} in[r*cols + c] * 0.5, nested counted loops
define void @row_sums(float addrspace(1)* %out, float addrspace(1)* %in, i32 %rows, i32 %cols) {
entry:
  %hasrows = icmp sgt i32 %rows, 0
  br i1 %hasrows, label %outer, label %done

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %outer.latch ]
  %rowbase = mul nsw i32 %r, %cols
  %hascols = icmp sgt i32 %cols, 0
  br i1 %hascols, label %inner, label %outer.latch

inner:
  %c = phi i32 [ 0, %outer ], [ %c.next, %inner ]
  %acc = phi float [ 0.0, %outer ], [ %acc.next, %inner ]
  %lin = add nsw i32 %rowbase, %c
  %lin64 = sext i32 %lin to i64
  %p = getelementptr inbounds float, float addrspace(1)* %in, i64 %lin64
  %v = load float, float addrspace(1)* %p, align 4
  %h = fmul float %v, 5.000000e-01
  %acc.next = fadd float %acc, %h
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %cols
  br i1 %cdone, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ 0.0, %outer ], [ %acc.next, %inner ]
  %r64 = sext i32 %r to i64
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %r64
  store float %sum, float addrspace(1)* %po, align 4
  %r.next = add nuw nsw i32 %r, 1
  %rdone = icmp eq i32 %r.next, %rows
  br i1 %rdone, label %done, label %outer

done:
  ret void
}

; Naive N x N matmul with a triple-nested loop, one thread per output row.
define void @matmul_row(double addrspace(1)* %C, double addrspace(1)* %A, double addrspace(1)* %B, i32 %N) {
entry:
  %row = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %inb = icmp slt i32 %row, %N
  br i1 %inb, label %jloop.pre, label %ret

jloop.pre:
  %rowN = mul i32 %row, %N
  br label %jloop

jloop:
  %j = phi i32 [ 0, %jloop.pre ], [ %j.next, %jlatch ]
  br label %kloop

kloop:
  %k = phi i32 [ 0, %jloop ], [ %k.next, %kloop ]
  %acc = phi double [ 0.0, %jloop ], [ %acc.next, %kloop ]
  %aidx = add i32 %rowN, %k
  %aidx64 = zext i32 %aidx to i64
  %pa = getelementptr inbounds double, double addrspace(1)* %A, i64 %aidx64
  %kN = mul i32 %k, %N
  %bidx = add i32 %kN, %j
  %bidx64 = zext i32 %bidx to i64
  %pb = getelementptr inbounds double, double addrspace(1)* %B, i64 %bidx64
  %va = load double, double addrspace(1)* %pa, align 8
  %vb = load double, double addrspace(1)* %pb, align 8
  %prod = fmul double %va, %vb
  %acc.next = fadd double %acc, %prod
  %k.next = add nuw i32 %k, 1
  %kc = icmp ult i32 %k.next, %N
  br i1 %kc, label %kloop, label %jlatch

jlatch:
  %cidx = add i32 %rowN, %j
  %cidx64 = zext i32 %cidx to i64
  %pc = getelementptr inbounds double, double addrspace(1)* %C, i64 %cidx64
  %scaled = fmul double %acc.next, 1.250000e+00
  store double %scaled, double addrspace(1)* %pc, align 8
  %j.next = add nuw i32 %j, 1
  %jc = icmp ult i32 %j.next, %N
  br i1 %jc, label %jloop, label %ret

ret:
  ret void
}

; Fixed-trip-count loop (unrollable at -O2).
define void @fixed_trip(i32 addrspace(1)* %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 7, %entry ], [ %acc.next, %loop ]
  %t = mul i32 %acc, 31
  %acc.next = xor i32 %t, %i
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, 8
  br i1 %c, label %loop, label %exit
exit:
  store i32 %acc.next, i32 addrspace(1)* %out, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float, i32)* @saxpy_loop, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i32)* @row_sums, !"kernel", i32 1}
!2 = !{void (double addrspace(1)*, double addrspace(1)*, double addrspace(1)*, i32)* @matmul_row, !"kernel", i32 1}
!3 = !{void (i32 addrspace(1)*)* @fixed_trip, !"kernel", i32 1}

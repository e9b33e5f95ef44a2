; fcmp with every predicate (ordered and unordered) for f32 and f64, both
; register-register and register-immediate forms, results stored as i32 and
; used to drive selects and branches.

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @fcmp_all_f32(float addrspace(1)* %a, float addrspace(1)* %b, i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %t64
  %x = load float, float addrspace(1)* %pa
  %y = load float, float addrspace(1)* %pb
  %base = mul i64 %t64, 64
  %c.false.rr = fcmp false float %x, %y
  %z.false.rr = zext i1 %c.false.rr to i32
  %i.false.rr = add i64 %base, 0
  %p.false.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.false.rr
  store volatile i32 %z.false.rr, i32 addrspace(1)* %p.false.rr, align 4
  %c.false.ri = fcmp false float %x, 1.000000e+00
  %z.false.ri = zext i1 %c.false.ri to i32
  %i.false.ri = add i64 %base, 1
  %p.false.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.false.ri
  store volatile i32 %z.false.ri, i32 addrspace(1)* %p.false.ri, align 4
  %c.oeq.rr = fcmp oeq float %x, %y
  %z.oeq.rr = zext i1 %c.oeq.rr to i32
  %i.oeq.rr = add i64 %base, 2
  %p.oeq.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oeq.rr
  store volatile i32 %z.oeq.rr, i32 addrspace(1)* %p.oeq.rr, align 4
  %c.oeq.ri = fcmp oeq float %x, 1.000000e+00
  %z.oeq.ri = zext i1 %c.oeq.ri to i32
  %i.oeq.ri = add i64 %base, 3
  %p.oeq.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oeq.ri
  store volatile i32 %z.oeq.ri, i32 addrspace(1)* %p.oeq.ri, align 4
  %c.ogt.rr = fcmp ogt float %x, %y
  %z.ogt.rr = zext i1 %c.ogt.rr to i32
  %i.ogt.rr = add i64 %base, 4
  %p.ogt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ogt.rr
  store volatile i32 %z.ogt.rr, i32 addrspace(1)* %p.ogt.rr, align 4
  %c.ogt.ri = fcmp ogt float %x, 1.000000e+00
  %z.ogt.ri = zext i1 %c.ogt.ri to i32
  %i.ogt.ri = add i64 %base, 5
  %p.ogt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ogt.ri
  store volatile i32 %z.ogt.ri, i32 addrspace(1)* %p.ogt.ri, align 4
  %c.oge.rr = fcmp oge float %x, %y
  %z.oge.rr = zext i1 %c.oge.rr to i32
  %i.oge.rr = add i64 %base, 6
  %p.oge.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oge.rr
  store volatile i32 %z.oge.rr, i32 addrspace(1)* %p.oge.rr, align 4
  %c.oge.ri = fcmp oge float %x, 1.000000e+00
  %z.oge.ri = zext i1 %c.oge.ri to i32
  %i.oge.ri = add i64 %base, 7
  %p.oge.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oge.ri
  store volatile i32 %z.oge.ri, i32 addrspace(1)* %p.oge.ri, align 4
  %c.olt.rr = fcmp olt float %x, %y
  %z.olt.rr = zext i1 %c.olt.rr to i32
  %i.olt.rr = add i64 %base, 8
  %p.olt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.olt.rr
  store volatile i32 %z.olt.rr, i32 addrspace(1)* %p.olt.rr, align 4
  %c.olt.ri = fcmp olt float %x, 1.000000e+00
  %z.olt.ri = zext i1 %c.olt.ri to i32
  %i.olt.ri = add i64 %base, 9
  %p.olt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.olt.ri
  store volatile i32 %z.olt.ri, i32 addrspace(1)* %p.olt.ri, align 4
  %c.ole.rr = fcmp ole float %x, %y
  %z.ole.rr = zext i1 %c.ole.rr to i32
  %i.ole.rr = add i64 %base, 10
  %p.ole.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ole.rr
  store volatile i32 %z.ole.rr, i32 addrspace(1)* %p.ole.rr, align 4
  %c.ole.ri = fcmp ole float %x, 1.000000e+00
  %z.ole.ri = zext i1 %c.ole.ri to i32
  %i.ole.ri = add i64 %base, 11
  %p.ole.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ole.ri
  store volatile i32 %z.ole.ri, i32 addrspace(1)* %p.ole.ri, align 4
  %c.one.rr = fcmp one float %x, %y
  %z.one.rr = zext i1 %c.one.rr to i32
  %i.one.rr = add i64 %base, 12
  %p.one.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.one.rr
  store volatile i32 %z.one.rr, i32 addrspace(1)* %p.one.rr, align 4
  %c.one.ri = fcmp one float %x, 1.000000e+00
  %z.one.ri = zext i1 %c.one.ri to i32
  %i.one.ri = add i64 %base, 13
  %p.one.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.one.ri
  store volatile i32 %z.one.ri, i32 addrspace(1)* %p.one.ri, align 4
  %c.ord.rr = fcmp ord float %x, %y
  %z.ord.rr = zext i1 %c.ord.rr to i32
  %i.ord.rr = add i64 %base, 14
  %p.ord.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ord.rr
  store volatile i32 %z.ord.rr, i32 addrspace(1)* %p.ord.rr, align 4
  %c.ord.ri = fcmp ord float %x, 1.000000e+00
  %z.ord.ri = zext i1 %c.ord.ri to i32
  %i.ord.ri = add i64 %base, 15
  %p.ord.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ord.ri
  store volatile i32 %z.ord.ri, i32 addrspace(1)* %p.ord.ri, align 4
  %c.ueq.rr = fcmp ueq float %x, %y
  %z.ueq.rr = zext i1 %c.ueq.rr to i32
  %i.ueq.rr = add i64 %base, 16
  %p.ueq.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ueq.rr
  store volatile i32 %z.ueq.rr, i32 addrspace(1)* %p.ueq.rr, align 4
  %c.ueq.ri = fcmp ueq float %x, 1.000000e+00
  %z.ueq.ri = zext i1 %c.ueq.ri to i32
  %i.ueq.ri = add i64 %base, 17
  %p.ueq.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ueq.ri
  store volatile i32 %z.ueq.ri, i32 addrspace(1)* %p.ueq.ri, align 4
  %c.ugt.rr = fcmp ugt float %x, %y
  %z.ugt.rr = zext i1 %c.ugt.rr to i32
  %i.ugt.rr = add i64 %base, 18
  %p.ugt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ugt.rr
  store volatile i32 %z.ugt.rr, i32 addrspace(1)* %p.ugt.rr, align 4
  %c.ugt.ri = fcmp ugt float %x, 1.000000e+00
  %z.ugt.ri = zext i1 %c.ugt.ri to i32
  %i.ugt.ri = add i64 %base, 19
  %p.ugt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ugt.ri
  store volatile i32 %z.ugt.ri, i32 addrspace(1)* %p.ugt.ri, align 4
  %c.uge.rr = fcmp uge float %x, %y
  %z.uge.rr = zext i1 %c.uge.rr to i32
  %i.uge.rr = add i64 %base, 20
  %p.uge.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uge.rr
  store volatile i32 %z.uge.rr, i32 addrspace(1)* %p.uge.rr, align 4
  %c.uge.ri = fcmp uge float %x, 1.000000e+00
  %z.uge.ri = zext i1 %c.uge.ri to i32
  %i.uge.ri = add i64 %base, 21
  %p.uge.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uge.ri
  store volatile i32 %z.uge.ri, i32 addrspace(1)* %p.uge.ri, align 4
  %c.ult.rr = fcmp ult float %x, %y
  %z.ult.rr = zext i1 %c.ult.rr to i32
  %i.ult.rr = add i64 %base, 22
  %p.ult.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ult.rr
  store volatile i32 %z.ult.rr, i32 addrspace(1)* %p.ult.rr, align 4
  %c.ult.ri = fcmp ult float %x, 1.000000e+00
  %z.ult.ri = zext i1 %c.ult.ri to i32
  %i.ult.ri = add i64 %base, 23
  %p.ult.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ult.ri
  store volatile i32 %z.ult.ri, i32 addrspace(1)* %p.ult.ri, align 4
  %c.ule.rr = fcmp ule float %x, %y
  %z.ule.rr = zext i1 %c.ule.rr to i32
  %i.ule.rr = add i64 %base, 24
  %p.ule.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ule.rr
  store volatile i32 %z.ule.rr, i32 addrspace(1)* %p.ule.rr, align 4
  %c.ule.ri = fcmp ule float %x, 1.000000e+00
  %z.ule.ri = zext i1 %c.ule.ri to i32
  %i.ule.ri = add i64 %base, 25
  %p.ule.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ule.ri
  store volatile i32 %z.ule.ri, i32 addrspace(1)* %p.ule.ri, align 4
  %c.une.rr = fcmp une float %x, %y
  %z.une.rr = zext i1 %c.une.rr to i32
  %i.une.rr = add i64 %base, 26
  %p.une.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.une.rr
  store volatile i32 %z.une.rr, i32 addrspace(1)* %p.une.rr, align 4
  %c.une.ri = fcmp une float %x, 1.000000e+00
  %z.une.ri = zext i1 %c.une.ri to i32
  %i.une.ri = add i64 %base, 27
  %p.une.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.une.ri
  store volatile i32 %z.une.ri, i32 addrspace(1)* %p.une.ri, align 4
  %c.uno.rr = fcmp uno float %x, %y
  %z.uno.rr = zext i1 %c.uno.rr to i32
  %i.uno.rr = add i64 %base, 28
  %p.uno.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uno.rr
  store volatile i32 %z.uno.rr, i32 addrspace(1)* %p.uno.rr, align 4
  %c.uno.ri = fcmp uno float %x, 1.000000e+00
  %z.uno.ri = zext i1 %c.uno.ri to i32
  %i.uno.ri = add i64 %base, 29
  %p.uno.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uno.ri
  store volatile i32 %z.uno.ri, i32 addrspace(1)* %p.uno.ri, align 4
  %c.true.rr = fcmp true float %x, %y
  %z.true.rr = zext i1 %c.true.rr to i32
  %i.true.rr = add i64 %base, 30
  %p.true.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.true.rr
  store volatile i32 %z.true.rr, i32 addrspace(1)* %p.true.rr, align 4
  %c.true.ri = fcmp true float %x, 1.000000e+00
  %z.true.ri = zext i1 %c.true.ri to i32
  %i.true.ri = add i64 %base, 31
  %p.true.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.true.ri
  store volatile i32 %z.true.ri, i32 addrspace(1)* %p.true.ri, align 4
  ret void
}

define void @fcmp_all_f64(double addrspace(1)* %a, double addrspace(1)* %b, i32 addrspace(1)* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds double, double addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds double, double addrspace(1)* %b, i64 %t64
  %x = load double, double addrspace(1)* %pa
  %y = load double, double addrspace(1)* %pb
  %base = mul i64 %t64, 64
  %c.false.rr = fcmp false double %x, %y
  %z.false.rr = zext i1 %c.false.rr to i32
  %i.false.rr = add i64 %base, 0
  %p.false.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.false.rr
  store volatile i32 %z.false.rr, i32 addrspace(1)* %p.false.rr, align 4
  %c.false.ri = fcmp false double %x, -2.500000e-01
  %z.false.ri = zext i1 %c.false.ri to i32
  %i.false.ri = add i64 %base, 1
  %p.false.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.false.ri
  store volatile i32 %z.false.ri, i32 addrspace(1)* %p.false.ri, align 4
  %c.oeq.rr = fcmp oeq double %x, %y
  %z.oeq.rr = zext i1 %c.oeq.rr to i32
  %i.oeq.rr = add i64 %base, 2
  %p.oeq.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oeq.rr
  store volatile i32 %z.oeq.rr, i32 addrspace(1)* %p.oeq.rr, align 4
  %c.oeq.ri = fcmp oeq double %x, -2.500000e-01
  %z.oeq.ri = zext i1 %c.oeq.ri to i32
  %i.oeq.ri = add i64 %base, 3
  %p.oeq.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oeq.ri
  store volatile i32 %z.oeq.ri, i32 addrspace(1)* %p.oeq.ri, align 4
  %c.ogt.rr = fcmp ogt double %x, %y
  %z.ogt.rr = zext i1 %c.ogt.rr to i32
  %i.ogt.rr = add i64 %base, 4
  %p.ogt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ogt.rr
  store volatile i32 %z.ogt.rr, i32 addrspace(1)* %p.ogt.rr, align 4
  %c.ogt.ri = fcmp ogt double %x, -2.500000e-01
  %z.ogt.ri = zext i1 %c.ogt.ri to i32
  %i.ogt.ri = add i64 %base, 5
  %p.ogt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ogt.ri
  store volatile i32 %z.ogt.ri, i32 addrspace(1)* %p.ogt.ri, align 4
  %c.oge.rr = fcmp oge double %x, %y
  %z.oge.rr = zext i1 %c.oge.rr to i32
  %i.oge.rr = add i64 %base, 6
  %p.oge.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oge.rr
  store volatile i32 %z.oge.rr, i32 addrspace(1)* %p.oge.rr, align 4
  %c.oge.ri = fcmp oge double %x, -2.500000e-01
  %z.oge.ri = zext i1 %c.oge.ri to i32
  %i.oge.ri = add i64 %base, 7
  %p.oge.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.oge.ri
  store volatile i32 %z.oge.ri, i32 addrspace(1)* %p.oge.ri, align 4
  %c.olt.rr = fcmp olt double %x, %y
  %z.olt.rr = zext i1 %c.olt.rr to i32
  %i.olt.rr = add i64 %base, 8
  %p.olt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.olt.rr
  store volatile i32 %z.olt.rr, i32 addrspace(1)* %p.olt.rr, align 4
  %c.olt.ri = fcmp olt double %x, -2.500000e-01
  %z.olt.ri = zext i1 %c.olt.ri to i32
  %i.olt.ri = add i64 %base, 9
  %p.olt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.olt.ri
  store volatile i32 %z.olt.ri, i32 addrspace(1)* %p.olt.ri, align 4
  %c.ole.rr = fcmp ole double %x, %y
  %z.ole.rr = zext i1 %c.ole.rr to i32
  %i.ole.rr = add i64 %base, 10
  %p.ole.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ole.rr
  store volatile i32 %z.ole.rr, i32 addrspace(1)* %p.ole.rr, align 4
  %c.ole.ri = fcmp ole double %x, -2.500000e-01
  %z.ole.ri = zext i1 %c.ole.ri to i32
  %i.ole.ri = add i64 %base, 11
  %p.ole.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ole.ri
  store volatile i32 %z.ole.ri, i32 addrspace(1)* %p.ole.ri, align 4
  %c.one.rr = fcmp one double %x, %y
  %z.one.rr = zext i1 %c.one.rr to i32
  %i.one.rr = add i64 %base, 12
  %p.one.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.one.rr
  store volatile i32 %z.one.rr, i32 addrspace(1)* %p.one.rr, align 4
  %c.one.ri = fcmp one double %x, -2.500000e-01
  %z.one.ri = zext i1 %c.one.ri to i32
  %i.one.ri = add i64 %base, 13
  %p.one.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.one.ri
  store volatile i32 %z.one.ri, i32 addrspace(1)* %p.one.ri, align 4
  %c.ord.rr = fcmp ord double %x, %y
  %z.ord.rr = zext i1 %c.ord.rr to i32
  %i.ord.rr = add i64 %base, 14
  %p.ord.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ord.rr
  store volatile i32 %z.ord.rr, i32 addrspace(1)* %p.ord.rr, align 4
  %c.ord.ri = fcmp ord double %x, -2.500000e-01
  %z.ord.ri = zext i1 %c.ord.ri to i32
  %i.ord.ri = add i64 %base, 15
  %p.ord.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ord.ri
  store volatile i32 %z.ord.ri, i32 addrspace(1)* %p.ord.ri, align 4
  %c.ueq.rr = fcmp ueq double %x, %y
  %z.ueq.rr = zext i1 %c.ueq.rr to i32
  %i.ueq.rr = add i64 %base, 16
  %p.ueq.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ueq.rr
  store volatile i32 %z.ueq.rr, i32 addrspace(1)* %p.ueq.rr, align 4
  %c.ueq.ri = fcmp ueq double %x, -2.500000e-01
  %z.ueq.ri = zext i1 %c.ueq.ri to i32
  %i.ueq.ri = add i64 %base, 17
  %p.ueq.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ueq.ri
  store volatile i32 %z.ueq.ri, i32 addrspace(1)* %p.ueq.ri, align 4
  %c.ugt.rr = fcmp ugt double %x, %y
  %z.ugt.rr = zext i1 %c.ugt.rr to i32
  %i.ugt.rr = add i64 %base, 18
  %p.ugt.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ugt.rr
  store volatile i32 %z.ugt.rr, i32 addrspace(1)* %p.ugt.rr, align 4
  %c.ugt.ri = fcmp ugt double %x, -2.500000e-01
  %z.ugt.ri = zext i1 %c.ugt.ri to i32
  %i.ugt.ri = add i64 %base, 19
  %p.ugt.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ugt.ri
  store volatile i32 %z.ugt.ri, i32 addrspace(1)* %p.ugt.ri, align 4
  %c.uge.rr = fcmp uge double %x, %y
  %z.uge.rr = zext i1 %c.uge.rr to i32
  %i.uge.rr = add i64 %base, 20
  %p.uge.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uge.rr
  store volatile i32 %z.uge.rr, i32 addrspace(1)* %p.uge.rr, align 4
  %c.uge.ri = fcmp uge double %x, -2.500000e-01
  %z.uge.ri = zext i1 %c.uge.ri to i32
  %i.uge.ri = add i64 %base, 21
  %p.uge.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uge.ri
  store volatile i32 %z.uge.ri, i32 addrspace(1)* %p.uge.ri, align 4
  %c.ult.rr = fcmp ult double %x, %y
  %z.ult.rr = zext i1 %c.ult.rr to i32
  %i.ult.rr = add i64 %base, 22
  %p.ult.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ult.rr
  store volatile i32 %z.ult.rr, i32 addrspace(1)* %p.ult.rr, align 4
  %c.ult.ri = fcmp ult double %x, -2.500000e-01
  %z.ult.ri = zext i1 %c.ult.ri to i32
  %i.ult.ri = add i64 %base, 23
  %p.ult.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ult.ri
  store volatile i32 %z.ult.ri, i32 addrspace(1)* %p.ult.ri, align 4
  %c.ule.rr = fcmp ule double %x, %y
  %z.ule.rr = zext i1 %c.ule.rr to i32
  %i.ule.rr = add i64 %base, 24
  %p.ule.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ule.rr
  store volatile i32 %z.ule.rr, i32 addrspace(1)* %p.ule.rr, align 4
  %c.ule.ri = fcmp ule double %x, -2.500000e-01
  %z.ule.ri = zext i1 %c.ule.ri to i32
  %i.ule.ri = add i64 %base, 25
  %p.ule.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.ule.ri
  store volatile i32 %z.ule.ri, i32 addrspace(1)* %p.ule.ri, align 4
  %c.une.rr = fcmp une double %x, %y
  %z.une.rr = zext i1 %c.une.rr to i32
  %i.une.rr = add i64 %base, 26
  %p.une.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.une.rr
  store volatile i32 %z.une.rr, i32 addrspace(1)* %p.une.rr, align 4
  %c.une.ri = fcmp une double %x, -2.500000e-01
  %z.une.ri = zext i1 %c.une.ri to i32
  %i.une.ri = add i64 %base, 27
  %p.une.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.une.ri
  store volatile i32 %z.une.ri, i32 addrspace(1)* %p.une.ri, align 4
  %c.uno.rr = fcmp uno double %x, %y
  %z.uno.rr = zext i1 %c.uno.rr to i32
  %i.uno.rr = add i64 %base, 28
  %p.uno.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uno.rr
  store volatile i32 %z.uno.rr, i32 addrspace(1)* %p.uno.rr, align 4
  %c.uno.ri = fcmp uno double %x, -2.500000e-01
  %z.uno.ri = zext i1 %c.uno.ri to i32
  %i.uno.ri = add i64 %base, 29
  %p.uno.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.uno.ri
  store volatile i32 %z.uno.ri, i32 addrspace(1)* %p.uno.ri, align 4
  %c.true.rr = fcmp true double %x, %y
  %z.true.rr = zext i1 %c.true.rr to i32
  %i.true.rr = add i64 %base, 30
  %p.true.rr = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.true.rr
  store volatile i32 %z.true.rr, i32 addrspace(1)* %p.true.rr, align 4
  %c.true.ri = fcmp true double %x, -2.500000e-01
  %z.true.ri = zext i1 %c.true.ri to i32
  %i.true.ri = add i64 %base, 31
  %p.true.ri = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i.true.ri
  store volatile i32 %z.true.ri, i32 addrspace(1)* %p.true.ri, align 4
  ret void
}

define void @fcmp_select(float addrspace(1)* %io, double addrspace(1)* %dio, float %t, double %dt) {
entry:
  %x = load float, float addrspace(1)* %io
  %d = load double, double addrspace(1)* %dio
  %fc0 = fcmp oeq float %x, %t
  %fs0 = select i1 %fc0, float %x, float %t
  %fa0 = fadd float %fs0, 1.250000e-01
  %dc0 = fcmp oeq double %d, %dt
  %ds0 = select i1 %dc0, double %dt, double %d
  %da0 = fmul double %ds0, 1.000000e-01
  %fc1 = fcmp ogt float %fa0, %t
  %fs1 = select i1 %fc1, float %fa0, float %t
  %fa1 = fadd float %fs1, 1.250000e-01
  %dc1 = fcmp ogt double %da0, %dt
  %ds1 = select i1 %dc1, double %dt, double %da0
  %da1 = fmul double %ds1, 1.000000e-01
  %fc2 = fcmp oge float %fa1, %t
  %fs2 = select i1 %fc2, float %fa1, float %t
  %fa2 = fadd float %fs2, 1.250000e-01
  %dc2 = fcmp oge double %da1, %dt
  %ds2 = select i1 %dc2, double %dt, double %da1
  %da2 = fmul double %ds2, 1.000000e-01
  %fc3 = fcmp olt float %fa2, %t
  %fs3 = select i1 %fc3, float %fa2, float %t
  %fa3 = fadd float %fs3, 1.250000e-01
  %dc3 = fcmp olt double %da2, %dt
  %ds3 = select i1 %dc3, double %dt, double %da2
  %da3 = fmul double %ds3, 1.000000e-01
  %fc4 = fcmp ole float %fa3, %t
  %fs4 = select i1 %fc4, float %fa3, float %t
  %fa4 = fadd float %fs4, 1.250000e-01
  %dc4 = fcmp ole double %da3, %dt
  %ds4 = select i1 %dc4, double %dt, double %da3
  %da4 = fmul double %ds4, 1.000000e-01
  %fc5 = fcmp one float %fa4, %t
  %fs5 = select i1 %fc5, float %fa4, float %t
  %fa5 = fadd float %fs5, 1.250000e-01
  %dc5 = fcmp one double %da4, %dt
  %ds5 = select i1 %dc5, double %dt, double %da4
  %da5 = fmul double %ds5, 1.000000e-01
  %fc6 = fcmp ord float %fa5, %t
  %fs6 = select i1 %fc6, float %fa5, float %t
  %fa6 = fadd float %fs6, 1.250000e-01
  %dc6 = fcmp ord double %da5, %dt
  %ds6 = select i1 %dc6, double %dt, double %da5
  %da6 = fmul double %ds6, 1.000000e-01
  %fc7 = fcmp ueq float %fa6, %t
  %fs7 = select i1 %fc7, float %fa6, float %t
  %fa7 = fadd float %fs7, 1.250000e-01
  %dc7 = fcmp ueq double %da6, %dt
  %ds7 = select i1 %dc7, double %dt, double %da6
  %da7 = fmul double %ds7, 1.000000e-01
  %fc8 = fcmp ugt float %fa7, %t
  %fs8 = select i1 %fc8, float %fa7, float %t
  %fa8 = fadd float %fs8, 1.250000e-01
  %dc8 = fcmp ugt double %da7, %dt
  %ds8 = select i1 %dc8, double %dt, double %da7
  %da8 = fmul double %ds8, 1.000000e-01
  %fc9 = fcmp uge float %fa8, %t
  %fs9 = select i1 %fc9, float %fa8, float %t
  %fa9 = fadd float %fs9, 1.250000e-01
  %dc9 = fcmp uge double %da8, %dt
  %ds9 = select i1 %dc9, double %dt, double %da8
  %da9 = fmul double %ds9, 1.000000e-01
  %fc10 = fcmp ult float %fa9, %t
  %fs10 = select i1 %fc10, float %fa9, float %t
  %fa10 = fadd float %fs10, 1.250000e-01
  %dc10 = fcmp ult double %da9, %dt
  %ds10 = select i1 %dc10, double %dt, double %da9
  %da10 = fmul double %ds10, 1.000000e-01
  %fc11 = fcmp ule float %fa10, %t
  %fs11 = select i1 %fc11, float %fa10, float %t
  %fa11 = fadd float %fs11, 1.250000e-01
  %dc11 = fcmp ule double %da10, %dt
  %ds11 = select i1 %dc11, double %dt, double %da10
  %da11 = fmul double %ds11, 1.000000e-01
  %fc12 = fcmp une float %fa11, %t
  %fs12 = select i1 %fc12, float %fa11, float %t
  %fa12 = fadd float %fs12, 1.250000e-01
  %dc12 = fcmp une double %da11, %dt
  %ds12 = select i1 %dc12, double %dt, double %da11
  %da12 = fmul double %ds12, 1.000000e-01
  %fc13 = fcmp uno float %fa12, %t
  %fs13 = select i1 %fc13, float %fa12, float %t
  %fa13 = fadd float %fs13, 1.250000e-01
  %dc13 = fcmp uno double %da12, %dt
  %ds13 = select i1 %dc13, double %dt, double %da12
  %da13 = fmul double %ds13, 1.000000e-01
  store float %fa13, float addrspace(1)* %io
  store double %da13, double addrspace(1)* %dio
  %bc = fcmp uno float %fa13, %t
  br i1 %bc, label %nan, label %num
nan:
  store float 0x7FF8000000000000, float addrspace(1)* %io
  br label %num2
num:
  %bc2 = fcmp one double %da13, 0.000000e+00
  br i1 %bc2, label %nz, label %num2
nz:
  store double 0x7FF0000000000000, double addrspace(1)* %dio
  br label %num2
num2:
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(1)*)* @fcmp_all_f32, !"kernel", i32 1}
!1 = !{void (double addrspace(1)*, double addrspace(1)*, i32 addrspace(1)*)* @fcmp_all_f64, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, double addrspace(1)*, float, double)* @fcmp_select, !"kernel", i32 1}

; Medium-size combined kernel: tiled all-pairs n-body step. Shared-memory tile
; of float4 bodies, barriers, nested loops, vector loads, rsqrt via sqrt+div,
; fma, and a noinline device function for the pairwise interaction.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tileBodies = internal addrspace(3) global [128 x <4 x float>] undef, align 16
@softening = addrspace(4) constant float 0x3F1A36E2E0000000, align 4
@dtconst = addrspace(1) global float 0x3F847AE140000000, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.sqrt.f32(float)
declare float @llvm.fma.f32(float, float, float)

define <4 x float> @interact(<4 x float> %bi, <4 x float> %bj, <4 x float> %acc, float %eps2) noinline {
  %xi = extractelement <4 x float> %bi, i32 0
  %yi = extractelement <4 x float> %bi, i32 1
  %zi = extractelement <4 x float> %bi, i32 2
  %xj = extractelement <4 x float> %bj, i32 0
  %yj = extractelement <4 x float> %bj, i32 1
  %zj = extractelement <4 x float> %bj, i32 2
  %mj = extractelement <4 x float> %bj, i32 3
  %rx = fsub float %xj, %xi
  %ry = fsub float %yj, %yi
  %rz = fsub float %zj, %zi
  %d0 = call float @llvm.fma.f32(float %rx, float %rx, float %eps2)
  %d1 = call float @llvm.fma.f32(float %ry, float %ry, float %d0)
  %d2 = call float @llvm.fma.f32(float %rz, float %rz, float %d1)
  %d3 = fmul float %d2, %d2
  %d6 = fmul float %d3, %d2
  %sq = call float @llvm.sqrt.f32(float %d6)
  %inv = fdiv float 1.000000e+00, %sq
  %s = fmul float %mj, %inv
  %ax = extractelement <4 x float> %acc, i32 0
  %ay = extractelement <4 x float> %acc, i32 1
  %az = extractelement <4 x float> %acc, i32 2
  %nax = call float @llvm.fma.f32(float %rx, float %s, float %ax)
  %nay = call float @llvm.fma.f32(float %ry, float %s, float %ay)
  %naz = call float @llvm.fma.f32(float %rz, float %s, float %az)
  %r0 = insertelement <4 x float> %acc, float %nax, i32 0
  %r1 = insertelement <4 x float> %r0, float %nay, i32 1
  %r2 = insertelement <4 x float> %r1, float %naz, i32 2
  ret <4 x float> %r2
}

define void @nbody_step(<4 x float> addrspace(1)* %pos, <4 x float> addrspace(1)* %vel, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b0 = mul i32 %bid, %bdim
  %gi = add i32 %b0, %tid
  %gi64 = zext i32 %gi to i64
  %ppos = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %pos, i64 %gi64
  %me = load <4 x float>, <4 x float> addrspace(1)* %ppos, align 16
  %eps = load float, float addrspace(4)* @softening, align 4
  %eps2 = fmul float %eps, %eps
  %tid64 = zext i32 %tid to i64
  %pts = getelementptr inbounds [128 x <4 x float>], [128 x <4 x float>] addrspace(3)* @tileBodies, i64 0, i64 %tid64
  %hasTiles = icmp sgt i32 %n, 0
  br i1 %hasTiles, label %tile, label %integrate

tile:
  %t = phi i32 [ 0, %entry ], [ %tnext, %tile.end ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.t, %tile.end ]
  %src = add i32 %t, %tid
  %src64 = zext i32 %src to i64
  %psrc = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %pos, i64 %src64
  %b = load <4 x float>, <4 x float> addrspace(1)* %psrc, align 16
  store <4 x float> %b, <4 x float> addrspace(3)* %pts, align 16
  call void @llvm.nvvm.barrier0()
  br label %inner

inner:
  %j = phi i32 [ 0, %tile ], [ %j1, %inner ]
  %a = phi <4 x float> [ %acc, %tile ], [ %a1, %inner ]
  %j64 = zext i32 %j to i64
  %pj = getelementptr inbounds [128 x <4 x float>], [128 x <4 x float>] addrspace(3)* @tileBodies, i64 0, i64 %j64
  %bj = load <4 x float>, <4 x float> addrspace(3)* %pj, align 16
  %a1 = call <4 x float> @interact(<4 x float> %me, <4 x float> %bj, <4 x float> %a, float %eps2)
  %j1 = add nuw nsw i32 %j, 1
  %jd = icmp eq i32 %j1, 128
  br i1 %jd, label %tile.end, label %inner

tile.end:
  %acc.t = phi <4 x float> [ %a1, %inner ]
  call void @llvm.nvvm.barrier0()
  %tnext = add i32 %t, 128
  %more = icmp slt i32 %tnext, %n
  br i1 %more, label %tile, label %integrate

integrate:
  %accf = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.t, %tile.end ]
  %dt = load float, float addrspace(1)* @dtconst, align 4
  %pvel = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %vel, i64 %gi64
  %v = load <4 x float>, <4 x float> addrspace(1)* %pvel, align 16
  %dtv0 = insertelement <4 x float> undef, float %dt, i32 0
  %dtv = shufflevector <4 x float> %dtv0, <4 x float> undef, <4 x i32> zeroinitializer
  %dv = fmul <4 x float> %accf, %dtv
  %nv = fadd <4 x float> %v, %dv
  %dp = fmul <4 x float> %nv, %dtv
  %np0 = fadd <4 x float> %me, %dp
  %mass = extractelement <4 x float> %me, i32 3
  %np = insertelement <4 x float> %np0, float %mass, i32 3
  store <4 x float> %nv, <4 x float> addrspace(1)* %pvel, align 16
  store <4 x float> %np, <4 x float> addrspace(1)* %ppos, align 16
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, i32)* @nbody_step, !"kernel", i32 1}
!1 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, i32)* @nbody_step, !"maxntidx", i32 128}

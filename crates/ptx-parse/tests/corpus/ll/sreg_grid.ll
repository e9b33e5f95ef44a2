; NVVM special-register intrinsics: tid/ntid/ctaid/nctaid in x/y/z, warpsize,
; laneid, clock/clock64, used for 3-D global indexing with bounds checks.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.clock()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()

define i32 @global_linear_id() noinline {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %bzy = mul i32 %bz, %gy
  %b1 = add i32 %bzy, %by
  %b2 = mul i32 %b1, %gx
  %block = add i32 %b2, %bx
  %nxy = mul i32 %nx, %ny
  %bsize = mul i32 %nxy, %nz
  %tzy = mul i32 %tz, %ny
  %t1 = add i32 %tzy, %ty
  %t2 = mul i32 %t1, %nx
  %thread = add i32 %t2, %tx
  %bb = mul i32 %block, %bsize
  %id = add i32 %bb, %thread
  ret i32 %id
}

define void @grid3d(float addrspace(1)* %vol, i32 %dx, i32 %dy, i32 %dz, i64 addrspace(1)* %timing) {
entry:
  %t0 = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %x0 = mul i32 %bx, %nx
  %x = add i32 %x0, %tx
  %y0 = mul i32 %by, %ny
  %y = add i32 %y0, %ty
  %z0 = mul i32 %bz, %nz
  %zs = add i32 %z0, %tz
  %zstride = mul i32 %gz, %nz
  %inx = icmp slt i32 %x, %dx
  %iny = icmp slt i32 %y, %dy
  %inxy = and i1 %inx, %iny
  br i1 %inxy, label %zloop.pre, label %exit
zloop.pre:
  %cz = icmp slt i32 %zs, %dz
  br i1 %cz, label %zloop, label %exit
zloop:
  %z = phi i32 [ %zs, %zloop.pre ], [ %znext, %zloop ]
  %zdy = mul i32 %z, %dy
  %zy = add i32 %zdy, %y
  %zydx = mul i32 %zy, %dx
  %lin = add i32 %zydx, %x
  %lin64 = sext i32 %lin to i64
  %p = getelementptr inbounds float, float addrspace(1)* %vol, i64 %lin64
  %v = load float, float addrspace(1)* %p, align 4
  %zf = sitofp i32 %z to float
  %nv = fadd float %v, %zf
  store float %nv, float addrspace(1)* %p, align 4
  %znext = add nsw i32 %z, %zstride
  %more = icmp slt i32 %znext, %dz
  br i1 %more, label %zloop, label %exit
exit:
  %id = call i32 @global_linear_id()
  %ws = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %warp = udiv i32 %id, %ws
  %leader = icmp eq i32 %lane, 0
  br i1 %leader, label %record, label %ret
record:
  %t1 = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %c32 = call i32 @llvm.nvvm.read.ptx.sreg.clock()
  %dt = sub i64 %t1, %t0
  %c64 = zext i32 %c32 to i64
  %val = add i64 %dt, %c64
  %w64 = zext i32 %warp to i64
  %pt = getelementptr inbounds i64, i64 addrspace(1)* %timing, i64 %w64
  store i64 %val, i64 addrspace(1)* %pt, align 8
  br label %ret
ret:
  ret void
}

; tiny kernel with a required block size
define void @lane_ids(i32 addrspace(1)* %out) {
entry:
  %id = call i32 @global_linear_id()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %id64 = zext i32 %id to i64
  %p = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %id64
  store i32 %lane, i32 addrspace(1)* %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{void (float addrspace(1)*, i32, i32, i32, i64 addrspace(1)*)* @grid3d, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, i32, i32, i32, i64 addrspace(1)*)* @grid3d, !"maxntidx", i32 256}
!2 = !{void (float addrspace(1)*, i32, i32, i32, i64 addrspace(1)*)* @grid3d, !"maxntidy", i32 4}
!3 = !{void (float addrspace(1)*, i32, i32, i32, i64 addrspace(1)*)* @grid3d, !"minctasm", i32 2}
!4 = !{void (i32 addrspace(1)*)* @lane_ids, !"kernel", i32 1}
!5 = !{void (i32 addrspace(1)*)* @lane_ids, !"reqntidx", i32 64}
!6 = !{void (i32 addrspace(1)*)* @lane_ids, !"reqntidy", i32 2}

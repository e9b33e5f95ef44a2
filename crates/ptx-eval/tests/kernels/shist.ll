; per-block byte histogram in shared memory with shared atomics, then merged with global atomics
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
@h = internal addrspace(3) global [16 x i32] undef, align 4
define void @shist(i8 addrspace(1)* %in, i32 addrspace(1)* %bins) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %first = icmp ult i32 %t, 16
  br i1 %first, label %zero, label %go
zero:
  %pz = getelementptr [16 x i32], [16 x i32] addrspace(3)* @h, i32 0, i32 %t
  store i32 0, i32 addrspace(3)* %pz
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  %b = mul i32 %c, %nt
  %i = add i32 %b, %t
  %pi = getelementptr i8, i8 addrspace(1)* %in, i32 %i
  %v = load i8, i8 addrspace(1)* %pi
  %v32 = zext i8 %v to i32
  %bin = lshr i32 %v32, 4
  %pb = getelementptr [16 x i32], [16 x i32] addrspace(3)* @h, i32 0, i32 %bin
  %old = atomicrmw add i32 addrspace(3)* %pb, i32 1 monotonic
  call void @llvm.nvvm.barrier0()
  br i1 %first, label %merge, label %done
merge:
  %pm = getelementptr [16 x i32], [16 x i32] addrspace(3)* @h, i32 0, i32 %t
  %cnt = load i32, i32 addrspace(3)* %pm
  %pg = getelementptr i32, i32 addrspace(1)* %bins, i32 %t
  %o2 = atomicrmw add i32 addrspace(1)* %pg, i32 %cnt monotonic
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i8 addrspace(1)*, i32 addrspace(1)*)* @shist, !"kernel", i32 1}

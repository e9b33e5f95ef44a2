target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sha256_bsig1(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = call i32 @llvm.fshr.i32(i32 %t2, i32 %t2, i32 6)
  %t4 = call i32 @llvm.fshr.i32(i32 %t2, i32 %t2, i32 11)
  %t5 = call i32 @llvm.fshr.i32(i32 %t2, i32 %t2, i32 25)
  %t6 = xor i32 %t3, %t4
  %t7 = xor i32 %t6, %t5
  %t8 = getelementptr i32, i32* %out, i32 0
  store i32 %t7, i32* %t8
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sha256_bsig1, !"kernel", i32 1}

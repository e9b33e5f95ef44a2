target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sha256_maj(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = and i32 %t2, %t4
  %t8 = and i32 %t2, %t6
  %t9 = xor i32 %t7, %t8
  %t10 = and i32 %t4, %t6
  %t11 = xor i32 %t9, %t10
  %t12 = getelementptr i32, i32* %out, i32 0
  store i32 %t11, i32* %t12
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sha256_maj, !"kernel", i32 1}

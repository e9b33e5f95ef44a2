target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @ripemd_f3(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = xor i32 %t4, -1
  %t8 = or i32 %t2, %t7
  %t9 = xor i32 %t8, %t6
  %t10 = getelementptr i32, i32* %out, i32 0
  store i32 %t9, i32* %t10
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @ripemd_f3, !"kernel", i32 1}

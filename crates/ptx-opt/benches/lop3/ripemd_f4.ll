target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @ripemd_f4(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = and i32 %t2, %t6
  %t8 = xor i32 %t6, -1
  %t9 = and i32 %t4, %t8
  %t10 = or i32 %t7, %t9
  %t11 = getelementptr i32, i32* %out, i32 0
  store i32 %t10, i32* %t11
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @ripemd_f4, !"kernel", i32 1}

target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @keccak_chi(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = getelementptr i32, i32* %in, i32 3
  %t8 = load i32, i32* %t7
  %t9 = getelementptr i32, i32* %in, i32 4
  %t10 = load i32, i32* %t9
  %t11 = xor i32 %t4, -1
  %t12 = and i32 %t11, %t6
  %t13 = xor i32 %t2, %t12
  %t14 = xor i32 %t6, -1
  %t15 = and i32 %t14, %t8
  %t16 = xor i32 %t4, %t15
  %t17 = xor i32 %t8, -1
  %t18 = and i32 %t17, %t10
  %t19 = xor i32 %t6, %t18
  %t20 = xor i32 %t10, -1
  %t21 = and i32 %t20, %t2
  %t22 = xor i32 %t8, %t21
  %t23 = xor i32 %t2, -1
  %t24 = and i32 %t23, %t4
  %t25 = xor i32 %t10, %t24
  %t26 = getelementptr i32, i32* %out, i32 0
  store i32 %t13, i32* %t26
  %t27 = getelementptr i32, i32* %out, i32 1
  store i32 %t16, i32* %t27
  %t28 = getelementptr i32, i32* %out, i32 2
  store i32 %t19, i32* %t28
  %t29 = getelementptr i32, i32* %out, i32 3
  store i32 %t22, i32* %t29
  %t30 = getelementptr i32, i32* %out, i32 4
  store i32 %t25, i32* %t30
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @keccak_chi, !"kernel", i32 1}

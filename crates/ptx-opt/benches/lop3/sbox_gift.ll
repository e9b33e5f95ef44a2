target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sbox_gift(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = getelementptr i32, i32* %in, i32 3
  %t8 = load i32, i32* %t7
  %t9 = xor i32 %t2, %t4
  %t10 = and i32 %t2, %t4
  %t11 = xor i32 %t9, %t10
  %t12 = xor i32 %t11, %t6
  %t13 = xor i32 %t12, %t8
  %t14 = xor i32 %t13, -1
  %t15 = xor i32 %t2, %t10
  %t16 = xor i32 %t15, %t6
  %t17 = and i32 %t2, %t6
  %t18 = xor i32 %t16, %t17
  %t19 = xor i32 %t18, %t8
  %t20 = xor i32 %t4, %t6
  %t21 = and i32 %t2, %t8
  %t22 = xor i32 %t20, %t21
  %t23 = and i32 %t4, %t8
  %t24 = xor i32 %t22, %t23
  %t25 = and i32 %t4, %t6
  %t26 = and i32 %t25, %t8
  %t27 = xor i32 %t24, %t26
  %t28 = xor i32 %t2, %t23
  %t29 = and i32 %t2, %t6
  %t30 = and i32 %t29, %t8
  %t31 = xor i32 %t28, %t30
  %t32 = getelementptr i32, i32* %out, i32 0
  store i32 %t14, i32* %t32
  %t33 = getelementptr i32, i32* %out, i32 1
  store i32 %t19, i32* %t33
  %t34 = getelementptr i32, i32* %out, i32 2
  store i32 %t27, i32* %t34
  %t35 = getelementptr i32, i32* %out, i32 3
  store i32 %t31, i32* %t35
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sbox_gift, !"kernel", i32 1}

target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sbox_skinny64(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = getelementptr i32, i32* %in, i32 3
  %t8 = load i32, i32* %t7
  %t9 = and i32 %t2, %t4
  %t10 = xor i32 %t4, %t9
  %t11 = xor i32 %t10, %t6
  %t12 = and i32 %t2, %t6
  %t13 = xor i32 %t11, %t12
  %t14 = and i32 %t2, %t4
  %t15 = and i32 %t14, %t6
  %t16 = xor i32 %t13, %t15
  %t17 = xor i32 %t16, %t8
  %t18 = and i32 %t2, %t8
  %t19 = xor i32 %t17, %t18
  %t20 = and i32 %t4, %t8
  %t21 = xor i32 %t19, %t20
  %t22 = and i32 %t4, %t6
  %t23 = and i32 %t22, %t8
  %t24 = xor i32 %t21, %t23
  %t25 = xor i32 %t2, %t9
  %t26 = and i32 %t4, %t6
  %t27 = xor i32 %t25, %t26
  %t28 = xor i32 %t27, %t8
  %t29 = xor i32 %t28, %t20
  %t30 = and i32 %t6, %t8
  %t31 = xor i32 %t29, %t30
  %t32 = xor i32 %t31, %t23
  %t33 = xor i32 %t4, %t6
  %t34 = xor i32 %t33, %t26
  %t35 = xor i32 %t34, %t8
  %t36 = xor i32 %t35, -1
  %t37 = xor i32 %t2, %t6
  %t38 = xor i32 %t37, %t8
  %t39 = xor i32 %t38, %t30
  %t40 = xor i32 %t39, -1
  %t41 = getelementptr i32, i32* %out, i32 0
  store i32 %t24, i32* %t41
  %t42 = getelementptr i32, i32* %out, i32 1
  store i32 %t32, i32* %t42
  %t43 = getelementptr i32, i32* %out, i32 2
  store i32 %t36, i32* %t43
  %t44 = getelementptr i32, i32* %out, i32 3
  store i32 %t40, i32* %t44
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sbox_skinny64, !"kernel", i32 1}

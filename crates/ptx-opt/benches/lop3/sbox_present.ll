target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sbox_present(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = getelementptr i32, i32* %in, i32 3
  %t8 = load i32, i32* %t7
  %t9 = xor i32 %t2, %t6
  %t10 = and i32 %t4, %t6
  %t11 = xor i32 %t9, %t10
  %t12 = xor i32 %t11, %t8
  %t13 = and i32 %t2, %t4
  %t14 = and i32 %t13, %t6
  %t15 = xor i32 %t4, %t14
  %t16 = xor i32 %t15, %t8
  %t17 = and i32 %t4, %t8
  %t18 = xor i32 %t16, %t17
  %t19 = and i32 %t2, %t4
  %t20 = and i32 %t19, %t8
  %t21 = xor i32 %t18, %t20
  %t22 = and i32 %t6, %t8
  %t23 = xor i32 %t21, %t22
  %t24 = and i32 %t2, %t6
  %t25 = and i32 %t24, %t8
  %t26 = xor i32 %t23, %t25
  %t27 = and i32 %t2, %t4
  %t28 = xor i32 %t27, %t6
  %t29 = xor i32 %t28, %t8
  %t30 = and i32 %t2, %t8
  %t31 = xor i32 %t29, %t30
  %t32 = xor i32 %t31, %t17
  %t33 = xor i32 %t32, %t20
  %t34 = xor i32 %t33, %t25
  %t35 = xor i32 %t34, -1
  %t36 = xor i32 %t2, %t4
  %t37 = xor i32 %t36, %t10
  %t38 = xor i32 %t37, %t14
  %t39 = xor i32 %t38, %t8
  %t40 = xor i32 %t39, %t20
  %t41 = xor i32 %t40, %t25
  %t42 = xor i32 %t41, -1
  %t43 = getelementptr i32, i32* %out, i32 0
  store i32 %t12, i32* %t43
  %t44 = getelementptr i32, i32* %out, i32 1
  store i32 %t26, i32* %t44
  %t45 = getelementptr i32, i32* %out, i32 2
  store i32 %t35, i32* %t45
  %t46 = getelementptr i32, i32* %out, i32 3
  store i32 %t42, i32* %t46
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sbox_present, !"kernel", i32 1}

target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @sbox_prince(i32* %in, i32* %out) {
  %t1 = getelementptr i32, i32* %in, i32 0
  %t2 = load i32, i32* %t1
  %t3 = getelementptr i32, i32* %in, i32 1
  %t4 = load i32, i32* %t3
  %t5 = getelementptr i32, i32* %in, i32 2
  %t6 = load i32, i32* %t5
  %t7 = getelementptr i32, i32* %in, i32 3
  %t8 = load i32, i32* %t7
  %t9 = and i32 %t2, %t4
  %t10 = xor i32 %t9, %t6
  %t11 = and i32 %t4, %t6
  %t12 = xor i32 %t10, %t11
  %t13 = and i32 %t2, %t4
  %t14 = and i32 %t13, %t6
  %t15 = xor i32 %t12, %t14
  %t16 = xor i32 %t15, %t8
  %t17 = and i32 %t2, %t8
  %t18 = xor i32 %t16, %t17
  %t19 = and i32 %t6, %t8
  %t20 = xor i32 %t18, %t19
  %t21 = xor i32 %t20, -1
  %t22 = and i32 %t2, %t6
  %t23 = xor i32 %t22, %t11
  %t24 = xor i32 %t23, %t14
  %t25 = and i32 %t4, %t8
  %t26 = xor i32 %t24, %t25
  %t27 = and i32 %t4, %t6
  %t28 = and i32 %t27, %t8
  %t29 = xor i32 %t26, %t28
  %t30 = xor i32 %t29, -1
  %t31 = xor i32 %t2, %t9
  %t32 = xor i32 %t31, %t8
  %t33 = xor i32 %t32, %t17
  %t34 = xor i32 %t33, %t25
  %t35 = and i32 %t2, %t4
  %t36 = and i32 %t35, %t8
  %t37 = xor i32 %t34, %t36
  %t38 = xor i32 %t37, %t28
  %t39 = xor i32 %t4, %t11
  %t40 = xor i32 %t39, %t14
  %t41 = xor i32 %t40, %t8
  %t42 = xor i32 %t41, %t36
  %t43 = xor i32 %t42, %t19
  %t44 = and i32 %t2, %t6
  %t45 = and i32 %t44, %t8
  %t46 = xor i32 %t43, %t45
  %t47 = xor i32 %t46, -1
  %t48 = getelementptr i32, i32* %out, i32 0
  store i32 %t21, i32* %t48
  %t49 = getelementptr i32, i32* %out, i32 1
  store i32 %t30, i32* %t49
  %t50 = getelementptr i32, i32* %out, i32 2
  store i32 %t38, i32* %t50
  %t51 = getelementptr i32, i32* %out, i32 3
  store i32 %t47, i32* %t51
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @sbox_prince, !"kernel", i32 1}

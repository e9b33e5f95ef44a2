target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @random2(i32* %in, i32* %out) {
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
  %t11 = getelementptr i32, i32* %in, i32 5
  %t12 = load i32, i32* %t11
  %t13 = and i32 %t2, %t2
  %t14 = xor i32 %t13, %t4
  %t15 = xor i32 %t10, -1
  %t16 = xor i32 %t8, %t2
  %t17 = or i32 %t6, %t13
  %t18 = xor i32 %t13, -1
  %t19 = xor i32 %t15, -1
  %t20 = xor i32 %t16, %t14
  %t21 = or i32 %t13, %t2
  %t22 = and i32 %t15, %t14
  %t23 = xor i32 %t17, %t20
  %t24 = or i32 %t14, %t12
  %t25 = or i32 %t16, %t2
  %t26 = or i32 %t19, %t12
  %t27 = or i32 %t23, %t23
  %t28 = xor i32 %t24, %t24
  %t29 = or i32 %t24, %t20
  %t30 = xor i32 %t26, -1
  %t31 = xor i32 %t28, %t18
  %t32 = xor i32 %t27, %t12
  %t33 = and i32 %t32, %t30
  %t34 = and i32 %t32, %t23
  %t35 = or i32 %t30, %t15
  %t36 = and i32 %t32, %t23
  %t37 = xor i32 %t35, %t35
  %t38 = and i32 %t33, %t18
  %t39 = or i32 %t38, %t36
  %t40 = and i32 %t38, %t21
  %t41 = xor i32 %t40, %t17
  %t42 = or i32 %t34, %t37
  %t43 = xor i32 %t35, %t39
  %t44 = or i32 %t40, %t39
  %t45 = xor i32 %t42, -1
  %t46 = or i32 %t40, %t26
  %t47 = xor i32 %t38, -1
  %t48 = and i32 %t44, %t30
  %t49 = xor i32 %t46, -1
  %t50 = and i32 %t43, %t2
  %t51 = or i32 %t50, %t13
  %t52 = and i32 %t49, %t48
  %t53 = getelementptr i32, i32* %out, i32 0
  store i32 %t22, i32* %t53
  %t54 = getelementptr i32, i32* %out, i32 1
  store i32 %t25, i32* %t54
  %t55 = getelementptr i32, i32* %out, i32 2
  store i32 %t29, i32* %t55
  %t56 = getelementptr i32, i32* %out, i32 3
  store i32 %t31, i32* %t56
  %t57 = getelementptr i32, i32* %out, i32 4
  store i32 %t41, i32* %t57
  %t58 = getelementptr i32, i32* %out, i32 5
  store i32 %t45, i32* %t58
  %t59 = getelementptr i32, i32* %out, i32 6
  store i32 %t47, i32* %t59
  %t60 = getelementptr i32, i32* %out, i32 7
  store i32 %t51, i32* %t60
  %t61 = getelementptr i32, i32* %out, i32 8
  store i32 %t52, i32* %t61
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @random2, !"kernel", i32 1}

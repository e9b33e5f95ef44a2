target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @random4(i32* %in, i32* %out) {
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
  %t13 = or i32 %t6, %t2
  %t14 = xor i32 %t8, -1
  %t15 = and i32 %t6, %t4
  %t16 = and i32 %t2, %t13
  %t17 = or i32 %t10, %t2
  %t18 = or i32 %t15, %t15
  %t19 = xor i32 %t10, %t6
  %t20 = and i32 %t12, %t8
  %t21 = and i32 %t19, %t19
  %t22 = xor i32 %t14, %t8
  %t23 = or i32 %t15, %t16
  %t24 = xor i32 %t23, -1
  %t25 = xor i32 %t14, %t17
  %t26 = xor i32 %t20, -1
  %t27 = or i32 %t18, %t12
  %t28 = or i32 %t23, %t15
  %t29 = and i32 %t25, %t16
  %t30 = and i32 %t22, %t25
  %t31 = xor i32 %t23, -1
  %t32 = or i32 %t23, %t20
  %t33 = and i32 %t30, %t16
  %t34 = and i32 %t29, %t12
  %t35 = or i32 %t27, %t15
  %t36 = and i32 %t25, %t4
  %t37 = and i32 %t35, %t15
  %t38 = or i32 %t34, %t27
  %t39 = and i32 %t38, %t28
  %t40 = or i32 %t38, %t19
  %t41 = and i32 %t35, %t19
  %t42 = xor i32 %t40, -1
  %t43 = and i32 %t35, %t18
  %t44 = xor i32 %t38, %t27
  %t45 = xor i32 %t41, -1
  %t46 = or i32 %t39, %t13
  %t47 = and i32 %t46, %t21
  %t48 = xor i32 %t45, %t46
  %t49 = or i32 %t38, %t28
  %t50 = or i32 %t42, %t36
  %t51 = and i32 %t39, %t29
  %t52 = xor i32 %t41, -1
  %t53 = getelementptr i32, i32* %out, i32 0
  store i32 %t24, i32* %t53
  %t54 = getelementptr i32, i32* %out, i32 1
  store i32 %t26, i32* %t54
  %t55 = getelementptr i32, i32* %out, i32 2
  store i32 %t31, i32* %t55
  %t56 = getelementptr i32, i32* %out, i32 3
  store i32 %t32, i32* %t56
  %t57 = getelementptr i32, i32* %out, i32 4
  store i32 %t33, i32* %t57
  %t58 = getelementptr i32, i32* %out, i32 5
  store i32 %t37, i32* %t58
  %t59 = getelementptr i32, i32* %out, i32 6
  store i32 %t43, i32* %t59
  %t60 = getelementptr i32, i32* %out, i32 7
  store i32 %t44, i32* %t60
  %t61 = getelementptr i32, i32* %out, i32 8
  store i32 %t47, i32* %t61
  %t62 = getelementptr i32, i32* %out, i32 9
  store i32 %t48, i32* %t62
  %t63 = getelementptr i32, i32* %out, i32 10
  store i32 %t49, i32* %t63
  %t64 = getelementptr i32, i32* %out, i32 11
  store i32 %t50, i32* %t64
  %t65 = getelementptr i32, i32* %out, i32 12
  store i32 %t51, i32* %t65
  %t66 = getelementptr i32, i32* %out, i32 13
  store i32 %t52, i32* %t66
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @random4, !"kernel", i32 1}

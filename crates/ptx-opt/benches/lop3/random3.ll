target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @random3(i32* %in, i32* %out) {
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
  %t13 = or i32 %t10, %t10
  %t14 = or i32 %t6, %t10
  %t15 = and i32 %t4, %t2
  %t16 = and i32 %t10, %t15
  %t17 = or i32 %t8, %t14
  %t18 = or i32 %t15, %t14
  %t19 = and i32 %t17, %t6
  %t20 = or i32 %t18, %t6
  %t21 = or i32 %t15, %t18
  %t22 = and i32 %t20, %t19
  %t23 = and i32 %t13, %t4
  %t24 = xor i32 %t12, %t15
  %t25 = and i32 %t22, %t19
  %t26 = xor i32 %t20, -1
  %t27 = and i32 %t26, %t25
  %t28 = and i32 %t18, %t18
  %t29 = and i32 %t17, %t10
  %t30 = and i32 %t21, %t15
  %t31 = xor i32 %t25, -1
  %t32 = xor i32 %t24, -1
  %t33 = and i32 %t29, %t19
  %t34 = or i32 %t27, %t24
  %t35 = or i32 %t29, %t25
  %t36 = or i32 %t29, %t28
  %t37 = and i32 %t29, %t26
  %t38 = xor i32 %t37, -1
  %t39 = or i32 %t38, %t27
  %t40 = or i32 %t37, %t13
  %t41 = xor i32 %t39, -1
  %t42 = or i32 %t40, %t24
  %t43 = xor i32 %t32, %t10
  %t44 = and i32 %t42, %t37
  %t45 = and i32 %t38, %t10
  %t46 = and i32 %t36, %t4
  %t47 = xor i32 %t41, %t33
  %t48 = and i32 %t36, %t45
  %t49 = or i32 %t37, %t31
  %t50 = xor i32 %t47, -1
  %t51 = xor i32 %t47, %t24
  %t52 = or i32 %t43, %t6
  %t53 = getelementptr i32, i32* %out, i32 0
  store i32 %t16, i32* %t53
  %t54 = getelementptr i32, i32* %out, i32 1
  store i32 %t23, i32* %t54
  %t55 = getelementptr i32, i32* %out, i32 2
  store i32 %t30, i32* %t55
  %t56 = getelementptr i32, i32* %out, i32 3
  store i32 %t34, i32* %t56
  %t57 = getelementptr i32, i32* %out, i32 4
  store i32 %t35, i32* %t57
  %t58 = getelementptr i32, i32* %out, i32 5
  store i32 %t44, i32* %t58
  %t59 = getelementptr i32, i32* %out, i32 6
  store i32 %t46, i32* %t59
  %t60 = getelementptr i32, i32* %out, i32 7
  store i32 %t48, i32* %t60
  %t61 = getelementptr i32, i32* %out, i32 8
  store i32 %t49, i32* %t61
  %t62 = getelementptr i32, i32* %out, i32 9
  store i32 %t50, i32* %t62
  %t63 = getelementptr i32, i32* %out, i32 10
  store i32 %t51, i32* %t63
  %t64 = getelementptr i32, i32* %out, i32 11
  store i32 %t52, i32* %t64
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @random3, !"kernel", i32 1}

target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @random1(i32* %in, i32* %out) {
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
  %t13 = or i32 %t10, %t2
  %t14 = xor i32 %t2, %t8
  %t15 = and i32 %t14, %t13
  %t16 = or i32 %t4, %t14
  %t17 = and i32 %t13, %t13
  %t18 = or i32 %t2, %t14
  %t19 = xor i32 %t18, %t8
  %t20 = or i32 %t6, %t12
  %t21 = and i32 %t6, %t2
  %t22 = xor i32 %t18, -1
  %t23 = and i32 %t17, %t13
  %t24 = and i32 %t23, %t2
  %t25 = or i32 %t16, %t21
  %t26 = and i32 %t22, %t14
  %t27 = xor i32 %t18, %t14
  %t28 = and i32 %t20, %t2
  %t29 = and i32 %t25, %t27
  %t30 = and i32 %t20, %t27
  %t31 = xor i32 %t23, -1
  %t32 = and i32 %t31, %t17
  %t33 = xor i32 %t32, -1
  %t34 = or i32 %t28, %t23
  %t35 = xor i32 %t26, -1
  %t36 = xor i32 %t28, %t25
  %t37 = and i32 %t33, %t19
  %t38 = or i32 %t26, %t22
  %t39 = or i32 %t38, %t32
  %t40 = and i32 %t38, %t18
  %t41 = xor i32 %t37, %t30
  %t42 = and i32 %t37, %t39
  %t43 = and i32 %t33, %t40
  %t44 = and i32 %t37, %t38
  %t45 = xor i32 %t33, -1
  %t46 = and i32 %t34, %t26
  %t47 = xor i32 %t44, -1
  %t48 = or i32 %t45, %t32
  %t49 = xor i32 %t39, -1
  %t50 = or i32 %t46, %t21
  %t51 = and i32 %t42, %t41
  %t52 = or i32 %t43, %t32
  %t53 = getelementptr i32, i32* %out, i32 0
  store i32 %t15, i32* %t53
  %t54 = getelementptr i32, i32* %out, i32 1
  store i32 %t24, i32* %t54
  %t55 = getelementptr i32, i32* %out, i32 2
  store i32 %t29, i32* %t55
  %t56 = getelementptr i32, i32* %out, i32 3
  store i32 %t35, i32* %t56
  %t57 = getelementptr i32, i32* %out, i32 4
  store i32 %t36, i32* %t57
  %t58 = getelementptr i32, i32* %out, i32 5
  store i32 %t47, i32* %t58
  %t59 = getelementptr i32, i32* %out, i32 6
  store i32 %t48, i32* %t59
  %t60 = getelementptr i32, i32* %out, i32 7
  store i32 %t49, i32* %t60
  %t61 = getelementptr i32, i32* %out, i32 8
  store i32 %t50, i32* %t61
  %t62 = getelementptr i32, i32* %out, i32 9
  store i32 %t51, i32* %t62
  %t63 = getelementptr i32, i32* %out, i32 10
  store i32 %t52, i32* %t63
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @random1, !"kernel", i32 1}

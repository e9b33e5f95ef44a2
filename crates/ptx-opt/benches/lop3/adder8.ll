target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.fshr.i32(i32, i32, i32)
define void @adder8(i32* %in, i32* %out) {
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
  %t13 = getelementptr i32, i32* %in, i32 6
  %t14 = load i32, i32* %t13
  %t15 = getelementptr i32, i32* %in, i32 7
  %t16 = load i32, i32* %t15
  %t17 = getelementptr i32, i32* %in, i32 8
  %t18 = load i32, i32* %t17
  %t19 = getelementptr i32, i32* %in, i32 9
  %t20 = load i32, i32* %t19
  %t21 = getelementptr i32, i32* %in, i32 10
  %t22 = load i32, i32* %t21
  %t23 = getelementptr i32, i32* %in, i32 11
  %t24 = load i32, i32* %t23
  %t25 = getelementptr i32, i32* %in, i32 12
  %t26 = load i32, i32* %t25
  %t27 = getelementptr i32, i32* %in, i32 13
  %t28 = load i32, i32* %t27
  %t29 = getelementptr i32, i32* %in, i32 14
  %t30 = load i32, i32* %t29
  %t31 = getelementptr i32, i32* %in, i32 15
  %t32 = load i32, i32* %t31
  %t33 = xor i32 %t2, %t18
  %t34 = and i32 %t2, %t18
  %t35 = xor i32 %t4, %t20
  %t36 = xor i32 %t35, %t34
  %t37 = and i32 %t4, %t20
  %t38 = and i32 %t34, %t35
  %t39 = or i32 %t37, %t38
  %t40 = xor i32 %t6, %t22
  %t41 = xor i32 %t40, %t39
  %t42 = and i32 %t6, %t22
  %t43 = and i32 %t39, %t40
  %t44 = or i32 %t42, %t43
  %t45 = xor i32 %t8, %t24
  %t46 = xor i32 %t45, %t44
  %t47 = and i32 %t8, %t24
  %t48 = and i32 %t44, %t45
  %t49 = or i32 %t47, %t48
  %t50 = xor i32 %t10, %t26
  %t51 = xor i32 %t50, %t49
  %t52 = and i32 %t10, %t26
  %t53 = and i32 %t49, %t50
  %t54 = or i32 %t52, %t53
  %t55 = xor i32 %t12, %t28
  %t56 = xor i32 %t55, %t54
  %t57 = and i32 %t12, %t28
  %t58 = and i32 %t54, %t55
  %t59 = or i32 %t57, %t58
  %t60 = xor i32 %t14, %t30
  %t61 = xor i32 %t60, %t59
  %t62 = and i32 %t14, %t30
  %t63 = and i32 %t59, %t60
  %t64 = or i32 %t62, %t63
  %t65 = xor i32 %t16, %t32
  %t66 = xor i32 %t65, %t64
  %t67 = and i32 %t16, %t32
  %t68 = and i32 %t64, %t65
  %t69 = or i32 %t67, %t68
  %t70 = getelementptr i32, i32* %out, i32 0
  store i32 %t33, i32* %t70
  %t71 = getelementptr i32, i32* %out, i32 1
  store i32 %t36, i32* %t71
  %t72 = getelementptr i32, i32* %out, i32 2
  store i32 %t41, i32* %t72
  %t73 = getelementptr i32, i32* %out, i32 3
  store i32 %t46, i32* %t73
  %t74 = getelementptr i32, i32* %out, i32 4
  store i32 %t51, i32* %t74
  %t75 = getelementptr i32, i32* %out, i32 5
  store i32 %t56, i32* %t75
  %t76 = getelementptr i32, i32* %out, i32 6
  store i32 %t61, i32* %t76
  %t77 = getelementptr i32, i32* %out, i32 7
  store i32 %t66, i32* %t77
  %t78 = getelementptr i32, i32* %out, i32 8
  store i32 %t69, i32* %t78
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @adder8, !"kernel", i32 1}

target triple = "nvptx64-nvidia-cuda"
define void @masks(i32* %in, i32* %out, float* %fin) {
  %a = load i32, i32* %in
  %p1 = getelementptr i32, i32* %in, i32 1
  %b = load i32, i32* %p1
  %fa = load float, float* %fin
  %pf = getelementptr float, float* %fin, i32 1
  %fb = load float, float* %pf
  %c1 = icmp slt i32 %a, %b
  %m1 = sext i1 %c1 to i32
  store i32 %m1, i32* %out
  %c2 = fcmp ult float %fa, %fb
  %m2 = sext i1 %c2 to i32
  %o2 = getelementptr i32, i32* %out, i32 1
  store i32 %m2, i32* %o2
  %c3 = fcmp olt float %fa, %fb
  %f3 = uitofp i1 %c3 to float
  %of = bitcast i32* %out to float*
  %o3 = getelementptr float, float* %of, i32 2
  store float %f3, float* %o3
  %c4 = icmp ugt i32 %a, 7
  %m4 = sext i1 %c4 to i32
  %x4 = xor i32 %m4, %b
  %o4 = getelementptr i32, i32* %out, i32 3
  store i32 %x4, i32* %o4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*, float*)* @masks, !"kernel", i32 1}

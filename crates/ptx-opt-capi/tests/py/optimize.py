"""Optimizes a kernel through the C ABI with ctypes; exits 0 on success.

    python3 optimize.py PATH/TO/libptx_opt_capi.so
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.ptx_opt_context_new.restype = ctypes.c_void_p
lib.ptx_opt_context_free.argtypes = [ctypes.c_void_p]
lib.ptx_opt_run.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
lib.ptx_opt_run.restype = ctypes.c_int
lib.ptx_opt_output.argtypes = [ctypes.c_void_p]
lib.ptx_opt_output.restype = ctypes.c_char_p
lib.ptx_opt_error.argtypes = [ctypes.c_void_p]
lib.ptx_opt_error.restype = ctypes.c_char_p

KERNEL = b""".version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, 6;
mul.lo.s32 %r2, %r1, 7;
st.global.u32 [%rd1], %r2;
ret;
}
"""

ctx = lib.ptx_opt_context_new()
assert lib.ptx_opt_run(ctx, KERNEL, b"default<O2>", None) == 0, lib.ptx_opt_error(ctx)
out = lib.ptx_opt_output(ctx).decode()
assert "42" in out and "mul.lo" not in out, out
assert lib.ptx_opt_run(ctx, b".version 7.0\n.target sm_80\nfrob;\n", b"dce", b"sm_90") == 1
err = lib.ptx_opt_error(ctx).decode()
assert err.startswith("<input>:3:1: error:"), err
lib.ptx_opt_context_free(ctx)
print("ptx-opt via Python ctypes: ok")

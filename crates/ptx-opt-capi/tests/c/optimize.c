/* Optimizes a kernel through the C ABI and checks the result; exits 0 on
 * success. Built and run by tests/abi.rs. */
#include <stdio.h>
#include <string.h>
#include "ptx_opt.h"

static const char *kernel =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [p];\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
    "not.b32 %r5, %r1;\nand.b32 %r6, %r1, %r2;\nand.b32 %r7, %r5, %r3;\n"
    "or.b32 %r4, %r6, %r7;\nst.global.u32 [%rd1], %r4;\nret;\n}\n";

int main(void) {
    PtxOptContext *ctx = ptx_opt_context_new();
    if (!ctx) return 10;
    /* -O3 leaves this mux alone: ptxas fuses it into one LOP3 by itself. */
    if (ptx_opt_run(ctx, kernel, "default<O3>", "sm_80") != PTX_OPT_OK) {
        fprintf(stderr, "run failed: %s\n", ptx_opt_error(ctx));
        return 18;
    }
    if (ptx_opt_run(ctx, kernel, "dce,lop3-fuse", "sm_80") != PTX_OPT_OK) {
        fprintf(stderr, "run failed: %s\n", ptx_opt_error(ctx));
        return 11;
    }
    const char *out = ptx_opt_output(ctx);
    if (!strstr(out, "lop3.b32") || strstr(out, "not.b32")) {
        fprintf(stderr, "unexpected output:\n%s", out);
        return 12;
    }
    /* A located error for bad input. */
    if (ptx_opt_run(ctx, ".version 7.0\n.target sm_80\nfrob;\n", "dce", NULL) != PTX_OPT_ERROR)
        return 13;
    if (!strstr(ptx_opt_error(ctx), "<input>:3:1: error:")) {
        fprintf(stderr, "unexpected error: %s\n", ptx_opt_error(ctx));
        return 14;
    }
    /* An unknown pass lists the valid names. */
    if (ptx_opt_run(ctx, kernel, "frob", NULL) != PTX_OPT_ERROR ||
        !strstr(ptx_opt_error(ctx), "valid names are"))
        return 15;
    if (ptx_opt_run(NULL, kernel, "dce", NULL) != PTX_OPT_BAD_ARGUMENT) return 16;
    if (ptx_opt_run(ctx, NULL, "dce", NULL) != PTX_OPT_BAD_ARGUMENT) return 17;
    printf("ptx-opt %s via C: ok\n", ptx_opt_version());
    ptx_opt_context_free(ctx);
    ptx_opt_context_free(NULL);
    return 0;
}

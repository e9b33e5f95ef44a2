/* ptx-opt C ABI. Kept in sync with crates/ptx-opt-capi/src/lib.rs by
 * crates/ptx-opt-capi/tests/header.rs. Link with -lptx_opt_capi.
 *
 * A context is opaque. One thread at a time may use a context; separate
 * contexts may be used from separate threads at once. Strings passed in are
 * NUL-terminated UTF-8, read only during the call. Strings returned belong
 * to the context and stay valid until the next ptx_opt_run on it or
 * ptx_opt_context_free. No panic crosses the boundary. */
#ifndef PTX_OPT_H
#define PTX_OPT_H

#ifdef __cplusplus
extern "C" {
#endif

/* ptx_opt_run status codes. */
#define PTX_OPT_OK 0           /* success: ptx_opt_output holds the PTX */
#define PTX_OPT_ERROR 1        /* bad input, pipeline or target: see ptx_opt_error */
#define PTX_OPT_INTERNAL 2     /* internal error (caught): see ptx_opt_error */
#define PTX_OPT_BAD_ARGUMENT 3 /* null pointer or non-UTF-8 string */

typedef struct PtxOptContext PtxOptContext;

/* A new context; free it with ptx_opt_context_free. */
PtxOptContext *ptx_opt_context_new(void);

/* Frees a context (NULL is ignored). */
void ptx_opt_context_free(PtxOptContext *ctx);

/* Runs `pipeline` (LLVM pipeline text: "default<O2>", "dce,lop3-fuse") on
 * the PTX module `ptx` for `target` ("sm_90", or NULL for the module's own
 * .target). Returns a PTX_OPT_* status. */
int ptx_opt_run(PtxOptContext *ctx, const char *ptx, const char *pipeline,
                const char *target);

/* The PTX of the last successful run ("" otherwise). */
const char *ptx_opt_output(const PtxOptContext *ctx);

/* The error of the last failed run ("" otherwise), located as
 * "<input>:LINE:COL: error: ..." when it comes from the input. */
const char *ptx_opt_error(const PtxOptContext *ctx);

/* The library version, e.g. "0.1.0". */
const char *ptx_opt_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PTX_OPT_H */

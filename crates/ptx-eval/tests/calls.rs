//! `call`: device functions with parameters and return values, called by
//! whole warps, by divergent lanes, recursively, and leaving with `exit`.
//! Expected outputs are computed here in Rust.

use serde_json::json;

const HEADER: &str = ".version 7.0\n.target sm_80\n.address_size 64\n";

/// Runs kernel `k(out)` of `src` with `threads` threads; returns `out`.
fn run(src: &str, threads: u32, n: usize) -> Result<Vec<u64>, String> {
    let ptx = format!("{HEADER}{src}");
    let module = ptx_parse::parse_module(&ptx).map_err(|d| d.render("t.ptx", ptx.as_bytes()))?;
    let case = json!({"block": [threads], "buffers": {"out": {"type": "u32", "zeros": n}},
                      "params": [{"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 24)?;
    Ok(r["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect())
}

/// `mad(a, b, c) = a * b + c` as a device function, called by every
/// lane with its own arguments.
const MAD: &str = "
.func (.param .b32 mad_r) mad(.param .b32 mad_a, .param .b32 mad_b, .param .b32 mad_c)
{
	.reg .b32 %r<5>;
	ld.param.b32 %r1, [mad_a];
	ld.param.b32 %r2, [mad_b];
	ld.param.b32 %r3, [mad_c];
	mad.lo.s32 %r4, %r1, %r2, %r3;
	st.param.b32 [mad_r], %r4;
	ret;
}
";

#[test]
fn a_call_passes_arguments_and_returns_a_value() {
    let src = format!(
        "{MAD}
.visible .entry k(.param .u64 k_out)
{{
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	{{
	.param .b32 a0;
	.param .b32 a1;
	.param .b32 a2;
	.param .b32 rv;
	st.param.b32 [a0], %r1;
	st.param.b32 [a1], 7;
	st.param.b32 [a2], 100;
	call.uni (rv), mad, (a0, a1, a2);
	ld.param.b32 %r2, [rv];
	}}
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}}
"
    );
    let out = run(&src, 48, 48).unwrap();
    let want: Vec<u64> = (0..48).map(|t| t * 7 + 100).collect();
    assert_eq!(out, want);
}

#[test]
fn divergent_lanes_call_and_the_rest_keep_their_values() {
    // Odd lanes call mad(t, t, 1); even lanes keep 5.
    let src = format!(
        "{MAD}
.visible .entry k(.param .u64 k_out)
{{
	.reg .b32 %r<6>;
	.reg .pred %p<2>;
	.reg .b64 %rd<4>;
	.param .b32 a0;
	.param .b32 a1;
	.param .b32 a2;
	.param .b32 rv;
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 5;
	and.b32 %r3, %r1, 1;
	setp.eq.u32 %p1, %r3, 0;
	@%p1 bra SKIP;
	st.param.b32 [a0], %r1;
	st.param.b32 [a1], %r1;
	st.param.b32 [a2], 1;
	call (rv), mad, (a0, a1, a2);
	ld.param.b32 %r2, [rv];
SKIP:
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}}
"
    );
    let out = run(&src, 40, 40).unwrap();
    let want: Vec<u64> = (0..40)
        .map(|t| if t % 2 == 1 { t * t + 1 } else { 5 })
        .collect();
    assert_eq!(out, want);
}

/// `fact(n)`: recursive, with a data-dependent depth per lane.
const FACT: &str = "
.func (.param .b32 fact_r) fact(.param .b32 fact_n)
{
	.reg .b32 %r<5>;
	.reg .pred %p<2>;
	.param .b32 fa;
	.param .b32 fr;
	ld.param.b32 %r1, [fact_n];
	setp.le.u32 %p1, %r1, 1;
	mov.u32 %r4, 1;
	@%p1 bra DONE;
	sub.s32 %r2, %r1, 1;
	st.param.b32 [fa], %r2;
	call (fr), fact, (fa);
	ld.param.b32 %r3, [fr];
	mul.lo.s32 %r4, %r3, %r1;
DONE:
	st.param.b32 [fact_r], %r4;
	ret;
}
";

#[test]
fn recursion_with_a_different_depth_per_lane() {
    let src = format!(
        "{FACT}
.visible .entry k(.param .u64 k_out)
{{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.param .b32 n;
	.param .b32 r;
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 13;
	st.param.b32 [n], %r2;
	call (r), fact, (n);
	ld.param.b32 %r3, [r];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}}
"
    );
    let out = run(&src, 64, 64).unwrap();
    let fact = |n: u64| (1..=n.max(1)).product::<u64>() & 0xffff_ffff;
    let want: Vec<u64> = (0..64).map(|t| fact(t % 13)).collect();
    assert_eq!(out, want);
}

#[test]
fn exit_in_a_callee_ends_the_thread() {
    // Lanes with tid >= 8 exit inside `stop`; only the others store.
    let src = "
.func stop(.param .b32 stop_t)
{
	.reg .b32 %r<2>;
	.reg .pred %p<2>;
	ld.param.b32 %r1, [stop_t];
	setp.ge.u32 %p1, %r1, 8;
	@%p1 exit;
	ret;
}
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	.param .b32 t;
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	st.param.b32 [t], %r1;
	call stop, (t);
	add.s32 %r2, %r1, 1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
";
    let out = run(src, 16, 16).unwrap();
    let want: Vec<u64> = (0..16).map(|t| if t < 8 { t + 1 } else { 0 }).collect();
    assert_eq!(out, want);
}

#[test]
fn runaway_recursion_and_missing_functions_are_errors() {
    let src = "
.func (.param .b32 f_r) f(.param .b32 f_a)
{
	.reg .b32 %r<2>;
	.param .b32 x;
	.param .b32 y;
	ld.param.b32 %r1, [f_a];
	st.param.b32 [x], %r1;
	call (y), f, (x);
	st.param.b32 [f_r], %r1;
	ret;
}
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<2>;
	.param .b32 a;
	.param .b32 b;
	st.param.b32 [a], 1;
	call (b), f, (a);
	ret;
}
";
    let e = run(src, 1, 1).unwrap_err();
    assert!(e.contains("calls nested deeper than 64"), "{e}");
    let extern_only = "
.extern .func g(.param .b32 g_a);
.visible .entry k(.param .u64 k_out)
{
	.param .b32 a;
	st.param.b32 [a], 1;
	call g, (a);
	ret;
}
";
    let e = run(extern_only, 1, 1).unwrap_err();
    assert!(
        e.contains("no definition of the called function 'g'"),
        "{e}"
    );
}

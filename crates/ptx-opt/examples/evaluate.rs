//! Optimizes a kernel and runs it before and after in the evaluator on the
//! same launch: `cargo run -p ptx-opt --example evaluate`.

use ptx_opt::api::{Module, Optimizer};

const SRC: &str = ".version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %p1, %r2, %r1;
	@%p1 bra DONE;
	mov.u32 %r3, 2;
	mul.lo.s32 %r4, %r3, 5;
	and.b32 %r5, %r2, %r4;
	not.b32 %r6, %r2;
	and.b32 %r7, %r6, 12;
	or.b32 %r8, %r5, %r7;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r8;
DONE:
	ret;
}
";

fn main() {
    let before = Module::parse(SRC).expect("valid PTX");
    let mut after = before.clone();
    Optimizer::new()
        .run(&mut after, "default<O2>")
        .expect("pipeline runs");
    let case = r#"{"grid": [1,1,1], "block": [64,1,1],
        "buffers": {"out": {"type": "u32", "zeros": 64}},
        "params": [{"buffer": "out"}, {"u32": 50}]}"#;
    let run = |m: &Module| ptx_eval::case::run_case(m.ir(), case, 1 << 20).expect("runs");
    let (a, b) = (run(&before), run(&after));
    println!("{}", after.to_ptx());
    println!("before: {}", a["buffers"]["out"]);
    println!("after:  {}", b["buffers"]["out"]);
    assert_eq!(
        a["buffers"], b["buffers"],
        "the optimized kernel computes something else"
    );
    println!("same results on {} threads", 64);
}

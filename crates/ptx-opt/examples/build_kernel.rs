//! Builds a kernel with the IR builder and prints it:
//! `cargo run -p ptx-opt --example build_kernel`.
//!
//! ```text
//! out[tid] = tid * 3   for tid < n
//! ```

use ptx_ir::builder::FunctionBuilder;
use ptx_ir::{FuncKind, Imm, Operand, Type};
use ptx_opt::api::Module;

fn main() {
    let mut b = FunctionBuilder::new("times3", FuncKind::Entry);
    let out = b.param(Type::U64, "out");
    let n = b.param(Type::U32, "n");
    let out = b.load_param(Type::U64, out);
    let n = b.load_param(Type::U32, n);
    let tid = b.special(Type::U32, "%tid.x");
    let done = b.inst(
        "setp.ge.u32",
        Type::Pred,
        &[Operand::Value(tid), Operand::Value(n)],
    );
    let body = b.create_block();
    let exit = b.create_block();
    b.branch(done, false, (exit, &[]), (body, &[]));

    b.switch_to(body);
    let x = b.inst(
        "mul.lo.s32",
        Type::U32,
        &[Operand::Value(tid), Operand::Imm(Imm::int(3))],
    );
    let off = b.inst(
        "mul.wide.u32",
        Type::U64,
        &[Operand::Value(tid), Operand::Imm(Imm::int(4))],
    );
    let addr = b.inst(
        "add.s64",
        Type::U64,
        &[Operand::Value(out), Operand::Value(off)],
    );
    b.store("st.global.u32", addr, 0, Operand::Value(x));
    b.jump(exit, &[]);

    b.switch_to(exit);
    b.ret();

    let f = match b.finish() {
        Ok(f) => f,
        Err(e) => {
            for m in e.messages() {
                eprintln!("error: {m}");
            }
            std::process::exit(1);
        }
    };
    let mut m = Module::new((7, 0), "sm_80");
    m.add_function(f);
    let text = m.to_ptx();
    // What we print parses back and verifies.
    Module::parse(&text).expect("printed PTX parses");
    print!("{text}");
}

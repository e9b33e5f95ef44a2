//! A pass defined outside the pass crate, registered under a name and used
//! in pipeline text: `cargo run -p ptx-opt --example custom_pass`.
//!
//! `mul-to-shl` rewrites `mul.lo.{s,u}32 d, x, 2^k` into `shl.b32 d, x, k`.

use ptx_ir::{CmpOp, Function, Imm, Mod, Opcode, Operand, Type};
use ptx_opt::api::{Module, Optimizer};
use ptx_passes::{AnalysisManager, Pass, Preserved};

struct MulToShl;

impl Pass for MulToShl {
    fn name(&self) -> &'static str {
        "mul-to-shl"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        let shl = f.ops.intern(Opcode::Shl, &[Mod::Type(Type::B32)]);
        let insts = f.layout_insts();
        let mut changed = false;
        for i in insts {
            let info = f.op(i);
            let lo = info.mods.contains(&Mod::Cmp(CmpOp::Lo));
            let is32 = matches!(info.last_type(), Some(Type::S32 | Type::U32));
            if info.opcode != Opcode::Mul || !lo || !is32 {
                continue;
            }
            let Some(Operand::Imm(k)) = f.inst(i).operands.get(2).cloned() else {
                continue;
            };
            let v = k.bits as u32;
            if !k.is_int() || !v.is_power_of_two() {
                continue;
            }
            let d = &mut f.dfg.insts[i];
            d.op = shl;
            d.operands[2] = Operand::Imm(Imm::int(v.trailing_zeros() as i64));
            changed = true;
        }
        Preserved::cfg_if(changed)
    }
}

const SRC: &str = ".version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	mul.lo.s32 %r2, %r1, 8;
	st.global.u32 [%rd1], %r2;
	ret;
}
";

fn main() {
    let mut opt = Optimizer::new();
    opt.register("mul-to-shl", "multiplications by 2^k become shifts", |_| {
        Ok(Box::new(MulToShl))
    })
    .expect("a new name");
    let mut m = Module::parse(SRC).expect("valid PTX");
    opt.run(&mut m, "mul-to-shl,dce").expect("pipeline runs");
    let text = m.to_ptx();
    assert!(
        text.contains("shl.b32") && !text.contains("mul.lo"),
        "{text}"
    );
    print!("{text}");
}

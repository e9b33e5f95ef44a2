//! Building functions in code, for frontends that emit PTX through the IR.
//!
//! A [`FunctionBuilder`] appends instructions to a current block; every
//! instruction with a destination gets a fresh SSA value. Control flow is
//! explicit: [`FunctionBuilder::jump`], [`FunctionBuilder::branch`] (a
//! guarded `bra` with its fall-through block) and [`FunctionBuilder::ret`].
//! Values that merge at a join are block parameters, passed by the
//! branches. [`FunctionBuilder::finish`] runs the verifier; its errors name
//! the offending instruction (see [`BuildError::messages`]).
//!
//! ```
//! use ptx_ir::builder::FunctionBuilder;
//! use ptx_ir::{FuncKind, Operand, Type};
//!
//! let mut b = FunctionBuilder::new("inc", FuncKind::Entry);
//! let out = b.param(Type::U64, "out");
//! let p = b.load_param(Type::U64, out);
//! let tid = b.special(Type::U32, "%tid.x");
//! let one = b.inst("add.s32", Type::U32, &[Operand::Value(tid), Operand::Imm(ptx_ir::Imm::int(1))]);
//! b.store("st.global.u32", p, 0, Operand::Value(one));
//! b.ret();
//! let f = b.finish().unwrap();
//! let mut text = String::new();
//! ptx_ir::write::write_function(&mut text, &f).unwrap();
//! assert!(text.contains("add.s32") && text.contains("st.global.u32"));
//! ```

use crate::dfg::{BlockCall, Guard, InstData};
use crate::function::{FuncKind, Function, ParamDecl};
use crate::op::{Opcode, Sym};
use crate::operand::{Address, Operand};
use crate::types::Type;
use crate::verify::{verify_function, VerifierError};
use crate::{Block, Inst, Value};
use smallvec::{smallvec, SmallVec};

/// Builds one function; see the module documentation.
pub struct FunctionBuilder {
    f: Function,
    current: Block,
    guard: Option<(Guard, Option<Value>)>,
}

impl FunctionBuilder {
    /// A function with an empty entry block, which is current.
    pub fn new(name: &str, kind: FuncKind) -> Self {
        let mut f = Function::new(name, kind);
        f.has_body = true;
        if kind == FuncKind::Entry {
            f.linkage.push("visible".into());
        }
        let entry = f.dfg.make_block();
        f.layout.append_block(entry);
        FunctionBuilder {
            f,
            current: entry,
            guard: None,
        }
    }

    /// Declares parameter `.param .TY name` and returns its symbol.
    pub fn param(&mut self, ty: Type, name: &str) -> Sym {
        let params = self.f.params.get_or_insert_with(Vec::new);
        params.push(ParamDecl {
            text: format!(".param .{} {name}", ty.name()).into(),
            name: name.into(),
            decl: Some(crate::module::VarDecl {
                linkage: None,
                space: crate::op::Space::Param,
                attributes: Vec::new(),
                align: None,
                vector: 1,
                ty: crate::module::VarType::Scalar(ty),
                dims: Vec::new(),
                init: None,
            }),
        });
        self.f.ops.sym(name)
    }

    /// The entry block.
    pub fn entry(&self) -> Block {
        self.f.layout.entry_block().expect("created in new")
    }

    /// A new block, placed after the others; not current.
    pub fn create_block(&mut self) -> Block {
        let b = self.f.dfg.make_block();
        self.f.layout.append_block(b);
        b
    }

    /// Adds a parameter of type `ty` to block `b`.
    pub fn block_param(&mut self, b: Block, ty: Type) -> Value {
        self.f.dfg.append_block_param(b, ty, None)
    }

    /// Makes `b` the block instructions go to.
    pub fn switch_to(&mut self, b: Block) {
        self.current = b;
    }

    /// Guards the next instruction with `@pred` (`@!pred` if `negated`).
    /// A guarded instruction that writes a register keeps `old` when the
    /// guard is false, so it needs that value.
    pub fn guard(&mut self, pred: Value, negated: bool, old: Option<Value>) -> &mut Self {
        self.guard = Some((Guard { pred, negated }, old));
        self
    }

    fn push(&mut self, mut d: InstData) -> Inst {
        if let Some((g, old)) = self.guard.take() {
            d.guard = Some(g);
            if let Some(old) = old {
                d.ties.push(old);
            }
        }
        let i = self.f.dfg.insts.push(d);
        self.f.layout.append_inst(i, self.current);
        i
    }

    /// Appends `text` (the spelling with its modifiers, `"add.s32"`,
    /// `"setp.lt.and.f32"`) writing a new value of type `ty`, reading
    /// `srcs`; returns the value.
    pub fn inst(&mut self, text: &str, ty: Type, srcs: &[Operand]) -> Value {
        let op = self.f.ops.intern_text(text);
        let v = self.f.dfg.make_value(ty, crate::ValueDef::Undef, None);
        let mut d = InstData::new(op, SmallVec::new());
        d.results = smallvec![v];
        d.operands.push(Operand::Value(v));
        d.operands.extend(srcs.iter().cloned());
        let i = self.push(d);
        self.f.dfg.values[v].def = crate::ValueDef::Result(i, 0);
        v
    }

    /// Appends an instruction without a destination (`st`, `bar.sync`, …).
    pub fn effect(&mut self, text: &str, operands: &[Operand]) -> Inst {
        let op = self.f.ops.intern_text(text);
        self.push(InstData::new(op, operands.iter().cloned().collect()))
    }

    /// `ld.param.TY d, [param]`.
    pub fn load_param(&mut self, ty: Type, param: Sym) -> Value {
        let addr = Operand::Addr(Box::new(Address {
            base: Operand::Symbol(param, 0),
            offset: 0,
            zero_offset_written: false,
            rest: Vec::new(),
        }));
        self.inst(&format!("ld.param.{}", ty.name()), ty, &[addr])
    }

    /// `mov.TY d, %special` (`%tid.x`, `%laneid`, …).
    pub fn special(&mut self, ty: Type, name: &str) -> Value {
        let s = self.f.ops.sym(name);
        self.inst(&format!("mov.{}", ty.name()), ty, &[Operand::Special(s)])
    }

    /// A store `text [base+offset], value` (`text` = `"st.global.u32"`).
    pub fn store(&mut self, text: &str, base: Value, offset: i64, value: Operand) -> Inst {
        let addr = Operand::Addr(Box::new(Address {
            base: Operand::Value(base),
            offset,
            zero_offset_written: false,
            rest: Vec::new(),
        }));
        self.effect(text, &[addr, value])
    }

    /// Ends the current block with a jump to `target`, passing `args` to
    /// its parameters.
    pub fn jump(&mut self, target: Block, args: &[Value]) -> Inst {
        let op = self.f.ops.intern(Opcode::Jump, &[]);
        let mut d = InstData::new(op, SmallVec::new());
        d.targets.push(BlockCall {
            block: target,
            args: args.iter().copied().collect(),
        });
        self.push(d)
    }

    /// Ends the current block with `@pred bra taken` (`@!pred` if
    /// `negated`), falling through to `fall`.
    pub fn branch(
        &mut self,
        pred: Value,
        negated: bool,
        taken: (Block, &[Value]),
        fall: (Block, &[Value]),
    ) -> Inst {
        let op = self.f.ops.intern_text("bra");
        let mut d = InstData::new(op, SmallVec::new());
        d.guard = Some(Guard { pred, negated });
        for (block, args) in [taken, fall] {
            d.targets.push(BlockCall {
                block,
                args: args.iter().copied().collect(),
            });
        }
        self.guard = None;
        let i = self.f.dfg.insts.push(d);
        self.f.layout.append_inst(i, self.current);
        i
    }

    /// Ends the current block with `ret`.
    pub fn ret(&mut self) -> Inst {
        let op = self.f.ops.intern(Opcode::Ret, &[]);
        self.push(InstData::new(op, SmallVec::new()))
    }

    /// The function so far (for inspection).
    pub fn function(&self) -> &Function {
        &self.f
    }

    /// Verifies and returns the function, or every verifier finding.
    pub fn finish(self) -> Result<Function, BuildError> {
        let errors = verify_function(&self.f);
        if errors.is_empty() {
            Ok(self.f)
        } else {
            Err(BuildError {
                function: Box::new(self.f),
                errors,
            })
        }
    }
}

/// What [`FunctionBuilder::finish`] found wrong.
#[derive(Debug)]
pub struct BuildError {
    /// The function as built.
    pub function: Box<Function>,
    /// The verifier's findings (each names its instruction, if any).
    pub errors: Vec<VerifierError>,
}

impl BuildError {
    /// One line per finding: the message and the instruction it is about,
    /// as spelled (`'add.s32' takes 3 operands, found 2 (at 'add.s32')`).
    pub fn messages(&self) -> Vec<String> {
        self.errors
            .iter()
            .map(|e| match e.inst {
                Some(i) => format!("{} (at '{}')", e.message, self.function.op(i).text),
                None => e.message.clone(),
            })
            .collect()
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.messages().join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Imm;

    #[test]
    fn verifier_errors_name_the_instruction() {
        let mut b = FunctionBuilder::new("bad", FuncKind::Entry);
        let x = b.special(Type::U32, "%tid.x");
        // add takes two sources.
        b.inst("add.s32", Type::U32, &[Operand::Value(x)]);
        b.ret();
        let err = b.finish().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("(at 'add.s32')"), "{text}");
        assert!(err.errors[0].inst.is_some());
    }

    #[test]
    fn blocks_branches_and_guards() {
        let mut b = FunctionBuilder::new("k", FuncKind::Entry);
        let p = b.param(Type::U64, "p");
        let p = b.load_param(Type::U64, p);
        let t = b.special(Type::U32, "%tid.x");
        let c = b.inst(
            "setp.lt.u32",
            Type::Pred,
            &[Operand::Value(t), Operand::Imm(Imm::int(4))],
        );
        let join = b.create_block();
        let x = b.block_param(join, Type::U32);
        let then = b.create_block();
        b.branch(c, true, (join, &[t]), (then, &[]));
        b.switch_to(then);
        let y = b.inst(
            "add.s32",
            Type::U32,
            &[Operand::Value(t), Operand::Imm(Imm::int(1))],
        );
        let z = b.guard(c, false, Some(y)).inst(
            "mul.lo.s32",
            Type::U32,
            &[Operand::Value(y), Operand::Value(y)],
        );
        b.jump(join, &[z]);
        b.switch_to(join);
        b.store("st.global.u32", p, 0, Operand::Value(x));
        b.ret();
        let f = b.finish().map_err(|e| e.to_string()).unwrap();
        let mut text = String::new();
        crate::write::write_function(&mut text, &f).unwrap();
        assert!(
            text.contains("@!%p1 bra") && text.contains("@%p1 mul.lo.s32"),
            "{text}"
        );
    }
}

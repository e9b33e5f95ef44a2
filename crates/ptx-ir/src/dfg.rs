//! The data-flow graph: what each value and instruction is, independent of
//! where instructions sit (that is [`crate::layout`]).

use crate::entity::{PrimaryMap, SecondaryMap};
use crate::op::{OpId, Sym};
use crate::operand::Operand;
use crate::types::Type;
use crate::{Block, Inst, Value};
use smallvec::SmallVec;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result number `n` of an instruction.
    Result(Inst, u16),
    /// Parameter number `n` of a block.
    Param(Block, u16),
    /// The unspecified contents of a register read before any write.
    Undef,
}

/// Type and definition of a value.
#[derive(Clone, Copy, Debug)]
pub struct ValueData {
    /// Declared type of the register the value came from; the register
    /// class it lives in is `ty.reg_class()`.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
    /// The source register this value came from, if any. Out-of-SSA prefers
    /// to give values with the same hint the same register.
    pub hint: Option<u32>,
}

/// A guard `@p` or `@!p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// The predicate value.
    pub pred: Value,
    /// Whether the guard is `@!p`.
    pub negated: bool,
}

/// A branch target with the arguments passed to its block parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockCall {
    /// Target block.
    pub block: Block,
    /// One argument per parameter of `block`.
    pub args: SmallVec<[Value; 2]>,
}

impl BlockCall {
    /// A call without arguments.
    pub fn new(block: Block) -> Self {
        BlockCall {
            block,
            args: SmallVec::new(),
        }
    }
}

/// One instruction.
///
/// `results` are the values the instruction defines; register operands it
/// writes refer to them. When `ties` is non-empty it has one entry per
/// result: result `i` must live in the same register as `ties[i]`, which
/// the instruction implicitly reads. That is how a guarded definition keeps
/// the old value when its guard is false, and how an unknown instruction
/// that may or may not write a register is kept exact.
#[derive(Clone, Debug)]
pub struct InstData {
    /// Interned form (mnemonic and modifiers).
    pub op: OpId,
    /// Optional guard predicate.
    pub guard: Option<Guard>,
    /// Operands in print order.
    pub operands: SmallVec<[Operand; 3]>,
    /// Values defined.
    pub results: SmallVec<[Value; 1]>,
    /// Old values the results are tied to (empty, or one per result).
    pub ties: SmallVec<[Value; 1]>,
    /// Successors of a terminator, in order: taken target first, then the
    /// fall-through target of a guarded branch, `ret` or `exit`.
    pub targets: Vec<BlockCall>,
    /// Debug location (`.loc` text index into the function's table; 0 =
    /// none).
    pub loc: u32,
    /// Byte offset of the instruction in its source (`u32::MAX` if built).
    pub pos: u32,
}

impl InstData {
    /// A new instruction with no results or targets.
    #[inline]
    pub fn new(op: OpId, operands: SmallVec<[Operand; 3]>) -> Self {
        InstData {
            op,
            guard: None,
            operands,
            results: SmallVec::new(),
            ties: SmallVec::new(),
            targets: Vec::new(),
            loc: 0,
            pos: u32::MAX,
        }
    }

    /// Calls `f` on every value the instruction reads: operands that are
    /// not results, address registers, the guard, tied values and branch
    /// arguments.
    #[inline]
    pub fn for_each_use(&self, mut f: impl FnMut(Value)) {
        if let Some(g) = self.guard {
            f(g.pred);
        }
        match self.results.as_slice() {
            [] => {
                for o in &self.operands {
                    o.for_each_value(&mut f);
                }
            }
            &[r] => {
                for o in &self.operands {
                    o.for_each_value(&mut |v| {
                        if v != r {
                            f(v)
                        }
                    });
                }
            }
            results => {
                for o in &self.operands {
                    o.for_each_value(&mut |v| {
                        if !results.contains(&v) {
                            f(v)
                        }
                    });
                }
            }
        }
        for &t in &self.ties {
            f(t);
        }
        for t in &self.targets {
            for &a in &t.args {
                f(a);
            }
        }
    }
}

/// Parameters and label of a block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Block parameters (the SSA form of PTX registers merged at joins).
    pub params: SmallVec<[Value; 2]>,
    /// The source label, if the block had one.
    pub label: Option<Sym>,
}

/// Arenas of values, instructions and blocks.
#[derive(Clone, Debug, Default)]
pub struct DataFlowGraph {
    /// All values.
    pub values: PrimaryMap<Value, ValueData>,
    /// All instructions (including removed ones; see the layout).
    pub insts: PrimaryMap<Inst, InstData>,
    /// All blocks.
    pub blocks: PrimaryMap<Block, BlockData>,
}

impl DataFlowGraph {
    /// Reserves room for about `insts` instructions (and proportionate
    /// values and blocks).
    pub fn reserve(&mut self, insts: usize) {
        self.insts.reserve(insts);
        self.values.reserve(insts + insts / 2);
        self.blocks.reserve(insts / 8 + 1);
    }

    /// A new value.
    pub fn make_value(&mut self, ty: Type, def: ValueDef, hint: Option<u32>) -> Value {
        self.values.push(ValueData { ty, def, hint })
    }

    /// A new block without parameters.
    pub fn make_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type, hint: Option<u32>) -> Value {
        let n = self.blocks[block].params.len() as u16;
        let v = self.make_value(ty, ValueDef::Param(block, n), hint);
        self.blocks[block].params.push(v);
        v
    }

    /// Adds a result of type `ty` to `inst`.
    pub fn append_result(&mut self, inst: Inst, ty: Type, hint: Option<u32>) -> Value {
        let n = self.insts[inst].results.len() as u16;
        let v = self.make_value(ty, ValueDef::Result(inst, n), hint);
        self.insts[inst].results.push(v);
        v
    }

    /// Type of a value.
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// Replaces every use of `from` by `to` in `inst` (operands, guard, ties
    /// and branch arguments; results are left alone).
    pub fn replace_uses_in(&mut self, inst: Inst, from: Value, to: Value) {
        let d = &mut self.insts[inst];
        let results = d.results.clone();
        if let Some(g) = &mut d.guard {
            if g.pred == from {
                g.pred = to;
            }
        }
        for o in &mut d.operands {
            o.for_each_value_mut(&mut |v| {
                if *v == from && !results.contains(v) {
                    *v = to
                }
            });
        }
        for t in &mut d.ties {
            if *t == from {
                *t = to;
            }
        }
        for t in &mut d.targets {
            for a in &mut t.args {
                if *a == from {
                    *a = to;
                }
            }
        }
    }
}

/// Use lists computed on demand: for each value, the instructions reading it.
pub fn compute_uses(
    dfg: &DataFlowGraph,
    insts: impl Iterator<Item = Inst>,
) -> SecondaryMap<Value, SmallVec<[Inst; 2]>> {
    // Every value may be used: one allocation instead of regrowth.
    let mut uses: SecondaryMap<Value, SmallVec<[Inst; 2]>> =
        SecondaryMap::with_capacity_default(dfg.values.len());
    for i in insts {
        dfg.insts[i].for_each_use(|v| {
            let l = &mut uses[v];
            if l.last() != Some(&i) {
                l.push(i)
            }
        });
    }
    uses
}

//! `ptx-ir`: the SSA intermediate representation of PTX used by ptx-opt.
//!
//! * [`entity`](mod@entity): `u32` handles ([`Value`], [`Inst`], [`Block`]) and arenas.
//! * [`dfg`]: what values and instructions are; [`layout`]: where they sit.
//! * [`op`]: instruction forms (mnemonic + modifiers) interned per function.
//! * [`function`], [`module`]: the containers.
//! * [`cfg`](mod@cfg), [`liveness`], [`loops`]: analyses; [`verify`]: the verifier.
//! * [`regalloc`] and [`write`](mod@write): leaving SSA and printing PTX.
//! * [`builder`]: building functions in code; [`lut`]: three-input truth
//!   tables (`lop3`).
//!
//! See `docs/ir.md` for the design.
#![deny(missing_docs)]

pub mod bitset;
pub mod builder;
pub mod cfg;
pub mod dfg;
pub mod dominators;
pub mod entity;
pub mod function;
pub mod layout;
pub mod liveness;
pub mod loops;
pub mod lut;
mod lut_table;
pub mod module;
pub mod op;
pub mod operand;
pub mod postdom;
pub mod regalloc;
pub mod types;
pub mod verify;
pub mod write;

entity!(
    /// An SSA value: a register's contents between two writes.
    Value,
    "v"
);
entity!(
    /// An instruction.
    Inst,
    "inst"
);
entity!(
    /// A basic block.
    Block,
    "block"
);

pub use cfg::{ControlFlowGraph, DominatorTree};
pub use dfg::{BlockCall, DataFlowGraph, Guard, InstData, ValueData, ValueDef};
pub use function::{BodyDecl, FuncKind, Function, ParamDecl};
pub use module::{GlobalVar, InitElem, Item, Module, VarDecl, VarType};
pub use op::{BoolOp, CmpOp, Interner, Mod, OpId, OpInfo, OpTable, Opcode, Shape, Space, Sym};
pub use operand::{Address, Imm, ImmKind, Operand};
pub use types::Type;

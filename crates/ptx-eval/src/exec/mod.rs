//! The interpreter proper: the machine and its memory
//! ([`schedule`], [`layout`]), operand access ([`operands`], [`numbers`]),
//! and instruction semantics by family ([`step`] dispatches to
//! [`arith`], [`logic`], [`convert`], [`warp`], [`access`], [`video`],
//! [`matrix`]).
//!
//! Invariant: every family sees the same [`step::Ctx`] and either claims
//! an instruction or passes it on; no two families claim the same one.

mod access;
mod approx;
mod arith;
mod convert;
mod cvt;
mod half;
mod ieee;
mod layout;
mod logic;
mod matrix;
pub(crate) mod minifloat;
mod numbers;
mod operands;
mod schedule;
mod step;
mod video;
mod warp;

use layout::*;
use numbers::*;
use operands::*;
use schedule::*;
use step::*;

pub use approx::{form_of, ApproxForm, Bound, MemoryTags, Tag, DERIVED, EXACT, FORMS};
pub use layout::{dynamic_shared_bytes, param_layout};
pub use schedule::run;

use crate::memory::{read_flat, write_flat, Fault, Global, LOCAL_BASE, PARAM_BASE, SHARED_BASE};

use ptx_ir::entity::SecondaryMap;

use ptx_ir::{
    Block, BodyDecl, BoolOp, CmpOp, ControlFlowGraph, FuncKind, Function, GlobalVar, Imm, ImmKind,
    InitElem, Inst, InstData, Item, Mod, Module, OpInfo, Opcode, Operand, ParamDecl, Space, Type,
    VarDecl, VarType,
};

use ptx_ir::postdom::PostDominatorTree;

use rustc_hash::FxHashMap;

use smallvec::SmallVec;

/// An evaluation error, at a source position when it concerns an
/// instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// Byte offset of the instruction in its source (`u32::MAX`: none).
    pub pos: u32,
    /// What went wrong.
    pub message: String,
}

impl EvalError {
    fn new(pos: u32, message: impl Into<String>) -> Self {
        EvalError {
            pos,
            message: message.into(),
        }
    }
}

/// Grid and CTA shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// CTAs per dimension.
    pub grid: [u32; 3],
    /// Threads per CTA per dimension.
    pub block: [u32; 3],
}

/// The resource limits of a run. Each one, when reached, stops the run with
/// an error that names it and the `ptx-eval` flag that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Thread-instructions (`--max-steps`, also spelt `--fuel`).
    pub steps: u64,
    /// Bytes of memory the run may take (`--max-memory`): global memory
    /// as written (4 KiB pages), plus the shared memory, local memory,
    /// parameter frames and registers of the CTA in flight and its calls.
    pub memory: u64,
    /// CTAs in a grid (`--max-ctas`).
    pub ctas: u64,
}

impl Limits {
    /// The defaults: 10^10 steps, 2 GiB, 2^20 CTAs.
    pub const DEFAULT: Limits = Limits {
        steps: 10_000_000_000,
        memory: 2 << 30,
        ctas: 1 << 20,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Global memory and the step budget, kept across launches.
pub struct Machine {
    /// Global memory.
    pub global: Global,
    /// Addresses of module variables (`.global`, `.const`) by name.
    pub symbols: FxHashMap<String, u64>,
    /// Thread-instructions left before the run is stopped.
    pub fuel: u64,
    /// The budget the machine started with (`%clock` counts from it).
    pub fuel_start: u64,
    /// Instructions whose effect depended on the order in which lanes
    /// were served: a store in which lanes wrote different values to the
    /// same address, or an `atom` whose lanes shared an address and read
    /// back old values. The evaluator serves lanes in order; a GPU may
    /// not, so such a run's result is one of several valid ones.
    pub unordered: u64,
    /// The limits the machine was made with (for the error messages).
    pub limits: Limits,
    /// Which stored bytes hold `.approx` results or values computed from
    /// them (kept only while a module has such instructions).
    pub approx: MemoryTags,
}

impl Machine {
    /// A machine with `fuel` thread-instructions of budget and the default
    /// memory and grid limits.
    pub fn new(fuel: u64) -> Self {
        Machine::with_limits(Limits {
            steps: fuel,
            ..Limits::DEFAULT
        })
    }

    /// A machine with the given limits.
    pub fn with_limits(limits: Limits) -> Self {
        Machine {
            global: Global::with_limit(limits.memory),
            symbols: FxHashMap::default(),
            fuel: limits.steps,
            fuel_start: limits.steps,
            unordered: 0,
            limits,
            approx: MemoryTags::default(),
        }
    }

    /// The error for reaching the memory limit at `pos`.
    fn memory_limit(&self, pos: u32, what: &str) -> EvalError {
        EvalError::new(
            pos,
            format!(
                "memory limit reached: {what} would take the run past {} bytes \
                 (raise it with ptx-eval --max-memory=BYTES)",
                self.limits.memory
            ),
        )
    }

    /// Takes `bytes` out of the memory budget for `what`, or fails.
    fn reserve(&mut self, bytes: u64, pos: u32, what: &str) -> Result<(), EvalError> {
        self.global
            .reserve(bytes)
            .map_err(|_| self.memory_limit(pos, what))
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Thread-instructions executed.
    pub steps: u64,
}

/// Where a launched device function's return values appear in the store
/// trace: thread `t`'s return value at byte `o` of its frame is a store to
/// `RETURN_TRACE + t * 0x1_0000 + o`, so `--check-each` compares return
/// values with the stores.
pub const RETURN_TRACE: u64 = 0xfe00_0000_0000_0000;

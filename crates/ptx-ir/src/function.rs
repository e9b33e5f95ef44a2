//! Functions (`.entry` kernels and `.func` device functions).

use crate::dfg::{DataFlowGraph, InstData};
use crate::entity::SecondaryMap;
use crate::layout::Layout;
use crate::op::{OpId, OpInfo, OpTable};
use crate::operand::Operand;
use crate::regalloc::Reg;
use crate::types::Type;
use crate::{Inst, Value};
use smallvec::SmallVec;

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A kernel.
    Entry,
    /// A device function.
    Func,
}

/// One parameter declaration, kept as written (normalised spacing), e.g.
/// `.param .u64 .ptr .global .align 8 k_param_0`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    /// Declaration text without trailing comma.
    pub text: Box<str>,
    /// Declared name.
    pub name: Box<str>,
    /// The declaration's structure (`None` for a form not modelled).
    pub decl: Option<crate::module::VarDecl>,
}

/// A declaration in a function body other than a register range: `.shared`,
/// `.local`, `.param` (call sites), `.global`/`.const` ones, pinned
/// `.reg`s and `.branchtargets`.
///
/// Invariant: `text` prints; `var` is the meaning of a variable's
/// declaration, built from the same tokens (`None` for the others).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDecl {
    /// The declaration, normalised, without the `;`.
    pub text: Box<str>,
    /// A variable's name (as printed) and structure.
    pub var: Option<(Box<str>, crate::module::VarDecl)>,
}

impl std::ops::Deref for BodyDecl {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl From<String> for BodyDecl {
    fn from(text: String) -> Self {
        BodyDecl {
            text: text.into(),
            var: None,
        }
    }
}

/// What joins consecutive `.loc` texts in one [`Function::locs`] entry
/// (printed as is, it starts the next `.loc` line).
pub const LOC_SEPARATOR: &str = "\n\t.loc\t";

/// A function: its signature, and for definitions its body in SSA form.
#[derive(Clone, Debug)]
pub struct Function {
    /// Name.
    pub name: Box<str>,
    /// Kernel or device function.
    pub kind: FuncKind,
    /// Linkage directives as written, without dots (`visible`, `extern`, `weak`).
    pub linkage: Vec<Box<str>>,
    /// Return parameters, if the signature has a return list.
    pub rets: Option<Vec<ParamDecl>>,
    /// Parameters, if the signature has a parameter list.
    pub params: Option<Vec<ParamDecl>>,
    /// Directives between the signature and the body (`.maxntid 256, 1, 1`,
    /// `.noreturn`, …), each as written.
    pub attrs: Vec<Box<str>>,
    /// Whether the function has a body (otherwise it is a declaration).
    pub has_body: bool,
    /// Instruction forms and strings used by the body.
    pub ops: OpTable,
    /// Values, instructions and blocks.
    pub dfg: DataFlowGraph,
    /// Block and instruction order.
    pub layout: Layout,
    /// Declarations in the body other than SSA registers (`.param`,
    /// `.local`, `.shared`, `.callprototype`, vector `.reg`s), with names
    /// made unique within the function, as printed.
    pub decls: Vec<BodyDecl>,
    /// `.loc` directive texts referenced by [`InstData::loc`] (index 0 is
    /// unused). Consecutive `.loc`s with no instruction between them are one
    /// entry, joined by [`LOC_SEPARATOR`].
    pub locs: Vec<Box<str>>,
    /// Per source register (value hint), the register the source named it
    /// with, when that name is its class's prefix and a number (`%r15`,
    /// `%rd3`): printing keeps it (see `regalloc`). Empty when built in
    /// code.
    pub source_regs: Vec<Option<Reg>>,
}

impl Function {
    /// An empty function (a declaration until blocks are added).
    pub fn new(name: &str, kind: FuncKind) -> Self {
        Function {
            name: name.into(),
            kind,
            linkage: Vec::new(),
            rets: None,
            params: Some(Vec::new()),
            attrs: Vec::new(),
            has_body: false,
            ops: OpTable::new(),
            dfg: DataFlowGraph::default(),
            layout: Layout::default(),
            decls: Vec::new(),
            locs: vec!["".into()],
            source_regs: Vec::new(),
        }
    }

    /// The instruction data of `i`.
    #[inline]
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.dfg.insts[i]
    }

    /// The decoded form of `i`.
    #[inline]
    pub fn op(&self, i: Inst) -> &OpInfo {
        self.ops.info(self.dfg.insts[i].op)
    }

    /// The instructions in the layout, block by block (a snapshot, so the
    /// caller may edit while walking it).
    pub fn layout_insts(&self) -> Vec<Inst> {
        self.layout
            .blocks()
            .flat_map(|b| self.layout.block_insts(b))
            .collect()
    }

    /// For each value, the instructions in the layout that read it.
    pub fn uses(&self) -> SecondaryMap<Value, SmallVec<[Inst; 2]>> {
        let layout = &self.layout;
        crate::dfg::compute_uses(
            &self.dfg,
            layout.blocks().flat_map(|b| layout.block_insts(b)),
        )
    }

    /// Inserts `op d, srcs…` right before `at`, with a new unguarded result
    /// `d` of type `ty` and `at`'s source position and debug location;
    /// returns `d`.
    pub fn insert_def_before(
        &mut self,
        at: Inst,
        op: OpId,
        ty: Type,
        srcs: impl IntoIterator<Item = Operand>,
    ) -> Value {
        let i = self.dfg.insts.push(InstData::new(op, SmallVec::new()));
        let v = self.dfg.append_result(i, ty, None);
        let (pos, loc) = (self.inst(at).pos, self.inst(at).loc);
        let d = &mut self.dfg.insts[i];
        d.operands.push(Operand::Value(v));
        d.operands.extend(srcs);
        d.pos = pos;
        d.loc = loc;
        self.layout.insert_inst_before(i, at);
        v
    }

    /// Number of instructions in the layout.
    pub fn inst_count(&self) -> usize {
        self.layout
            .blocks()
            .map(|b| self.layout.block_insts(b).count())
            .sum()
    }
}

//! Cached analyses of the function being transformed.
//!
//! A pass asks for an analysis; it is computed once and kept until a pass
//! reports that it did not preserve it ([`crate::Preserved`]).

use crate::Preserved;
use ptx_ir::liveness::Liveness;
use ptx_ir::loops::LoopInfo;
use ptx_ir::postdom::PostDominatorTree;
use ptx_ir::{ControlFlowGraph, DominatorTree, Function};

/// Analysis cache for one function.
#[derive(Default)]
pub struct AnalysisManager {
    cfg: Option<ControlFlowGraph>,
    domtree: Option<DominatorTree>,
    liveness: Option<Liveness>,
    postdom: Option<PostDominatorTree>,
    loops: Option<LoopInfo>,
    /// The target the code is for, when the driver knows it. Passes that
    /// emit target-specific forms (`lop3-fuse`) read it; it survives
    /// invalidation.
    pub target: Option<TargetInfo>,
    /// The oldest PTX ISA version the function now needs, raised by passes
    /// that write newer forms (`lower-vote`); the driver raises the
    /// module's `.version` to it. Survives invalidation.
    pub min_ptx: Option<(u32, u32)>,
}

/// What a pass needs to know about the target: the `sm_XX` number and the
/// module's PTX ISA version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetInfo {
    /// `80` for `sm_80` (suffixes `a`/`f` dropped).
    pub sm: u32,
    /// `.version` as (major, minor).
    pub ptx: (u32, u32),
    /// The module's `.target` has `debug` (`nvcc -G`): ptxas then
    /// compiles without optimising, so it fuses no logic of its own.
    pub debug: bool,
}

impl TargetInfo {
    /// Whether `feature` may be written for this target and version.
    pub fn allows(&self, feature: ptx_target::Feature) -> bool {
        let sm = ptx_target::Sm {
            number: self.sm,
            suffix: None,
        };
        feature.allowed(sm, ptx_target::PtxVersion(self.ptx.0, self.ptx.1))
    }

    /// Whether a `.target` directive's words ask for a debug build
    /// (`nvcc -G` writes `debug`).
    pub fn is_debug(words: &[Box<str>]) -> bool {
        words.iter().any(|w| &**w == "debug")
    }

    /// Reads `sm_XX` (with an optional `a`/`f` suffix) and a version.
    pub fn parse(sm: &str, ptx: (u32, u32)) -> Option<TargetInfo> {
        let digits = sm.strip_prefix("sm_")?.trim_end_matches(['a', 'f']);
        Some(TargetInfo {
            sm: digits.parse().ok()?,
            ptx,
            debug: false,
        })
    }
}

impl AnalysisManager {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache seeded with a dominator tree known to be current (SSA
    /// construction hands one out).
    pub fn with_domtree(f: &Function, dt: DominatorTree) -> Self {
        AnalysisManager {
            cfg: Some(ControlFlowGraph::compute(f)),
            domtree: Some(dt),
            ..Default::default()
        }
    }

    /// The control-flow graph.
    pub fn cfg(&mut self, f: &Function) -> &ControlFlowGraph {
        self.cfg.get_or_insert_with(|| ControlFlowGraph::compute(f))
    }

    /// The dominator tree.
    pub fn domtree(&mut self, f: &Function) -> &DominatorTree {
        if self.domtree.is_none() {
            let cfg = self.cfg.get_or_insert_with(|| ControlFlowGraph::compute(f));
            self.domtree = Some(DominatorTree::compute(f, cfg));
        }
        self.domtree.as_ref().expect("just computed")
    }

    /// Value liveness.
    pub fn liveness(&mut self, f: &Function) -> &Liveness {
        if self.liveness.is_none() {
            let cfg = self.cfg.get_or_insert_with(|| ControlFlowGraph::compute(f));
            self.liveness = Some(Liveness::compute(f, cfg));
        }
        self.liveness.as_ref().expect("just computed")
    }

    /// The post-dominator tree.
    pub fn postdomtree(&mut self, f: &Function) -> &PostDominatorTree {
        if self.postdom.is_none() {
            let cfg = self.cfg.get_or_insert_with(|| ControlFlowGraph::compute(f));
            self.postdom = Some(PostDominatorTree::compute(f, cfg));
        }
        self.postdom.as_ref().expect("just computed")
    }

    /// Natural loops.
    pub fn loops(&mut self, f: &Function) -> &LoopInfo {
        if self.loops.is_none() {
            self.domtree(f);
            let (cfg, dt) = (
                self.cfg.as_ref().expect("computed"),
                self.domtree.as_ref().expect("computed"),
            );
            self.loops = Some(LoopInfo::compute(f, cfg, dt));
        }
        self.loops.as_ref().expect("just computed")
    }

    /// The control-flow graph and the dominator tree together, for a pass
    /// that reads both while it rewrites the function (the cache is
    /// separate from the function, so the borrows do not clash).
    pub fn cfg_domtree(&mut self, f: &Function) -> (&ControlFlowGraph, &DominatorTree) {
        self.domtree(f);
        (
            self.cfg.as_ref().expect("computed"),
            self.domtree.as_ref().expect("computed"),
        )
    }

    /// Records that the function needs PTX ISA `v` or newer.
    pub fn require_ptx(&mut self, v: (u32, u32)) {
        self.min_ptx = Some(self.min_ptx.map_or(v, |m| m.max(v)));
    }

    /// Drops what `p` did not preserve.
    pub fn invalidate(&mut self, p: Preserved) {
        match p {
            Preserved::All => {}
            Preserved::Cfg => self.liveness = None,
            Preserved::None => {
                *self = AnalysisManager {
                    target: self.target,
                    min_ptx: self.min_ptx,
                    ..Self::default()
                }
            }
        }
    }
}

//! SAT queries over a logic network: its CNF (Tseitin clauses per node,
//! built lazily for the cones a query touches) in one incremental solver
//! (batsat, a MiniSat descendant), and the two questions the functional
//! reduction asks: may two signals differ, may a signal take a value.
//!
//! Each bit position of a `.b32` network is the same Boolean network, so
//! one variable per signal suffices. Leaves, immediates and guarded nodes
//! are free variables (an immediate is a fixed word, so proving a fact
//! for every value of it is stronger than needed). A node already proved
//! equal to an earlier one (`merged`) is encoded as that node's literal,
//! as ABC's `fraig` does, so later proofs over merged logic are short.
//!
//! Every query runs under a conflict limit and answers `Unknown` beyond
//! it; callers treat `Unknown` as "not proved".

use super::*;
use batsat::{lbool, Callbacks, ClauseKind, Lit, Solver, SolverInterface, SolverOpts};
use smallvec::SmallVec;

/// Stops the solver after a number of conflicts (one learnt clause each).
#[derive(Default)]
pub(super) struct Budget {
    pub(super) learnt: u64,
    pub(super) limit: u64,
}

impl Callbacks for Budget {
    fn on_new_clause(&mut self, _: &[Lit], kind: ClauseKind) {
        self.learnt += u64::from(kind == ClauseKind::Learnt);
    }
    fn stop(&self) -> bool {
        self.learnt >= self.limit
    }
}

/// What the solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// The query is unsatisfiable: the fact holds for every input.
    Proved,
    /// A counterexample; read it with [`Cnf::leaf_value`].
    Refuted,
    /// Out of conflicts.
    Unknown,
}

/// The network's clauses in one solver.
pub(super) struct Cnf<'n> {
    net: &'n Network,
    solver: Solver<Budget>,
    /// Literal of each signal, once encoded.
    lit: Vec<Option<Lit>>,
    /// A literal fixed to true.
    one: Lit,
    stack: Vec<u32>,
    /// Conflicts spent so far, over all queries.
    pub(super) conflicts: u64,
    /// Queries so far.
    pub(super) queries: u64,
    /// Propagations spent so far, over all queries: what a query costs
    /// when its cone is large (a model assigns every variable), however
    /// few its conflicts.
    pub(super) propagations: u64,
}

impl<'n> Cnf<'n> {
    pub(super) fn new(net: &'n Network) -> Self {
        let mut solver = Solver::new(SolverOpts::default(), Budget::default());
        let one = Lit::new(solver.new_var_default(), true);
        solver.add_clause_reuse(&mut vec![one]);
        Cnf {
            net,
            solver,
            lit: vec![None; net.sigs.len()],
            one,
            stack: Vec::new(),
            conflicts: 0,
            queries: 0,
            propagations: 0,
        }
    }

    /// A fresh solver over the same network (no clauses encoded yet) that
    /// keeps the counters of what was spent.
    pub(super) fn restart(&mut self) {
        *self = Cnf {
            conflicts: self.conflicts,
            queries: self.queries,
            propagations: self.propagations,
            ..Cnf::new(self.net)
        };
    }

    /// Variables in the solver (a caller may start a fresh one when this
    /// grows, since a model assigns every variable).
    pub(super) fn vars(&self) -> u32 {
        self.solver.num_vars()
    }

    fn fanin_lit(&self, x: &Fanin) -> Lit {
        match *x {
            Fanin::Const(0) => !self.one,
            Fanin::Const(_) => self.one,
            Fanin::Sig(s) => self.lit[s as usize].expect("fanin encoded first"),
        }
    }

    fn clause(&mut self, c: &[Lit]) {
        let mut c = c.to_vec();
        self.solver.add_clause_reuse(&mut c);
    }

    /// The literal of signal `s`, encoding its cone first. `merged[n]`
    /// names the earlier node (and polarity) node `n` was proved equal to,
    /// `consts[n]` the constant it was proved to be.
    pub(super) fn lit(
        &mut self,
        s: u32,
        merged: &[Option<(u32, bool)>],
        consts: &[Option<bool>],
    ) -> Lit {
        self.stack.clear();
        self.stack.push(s);
        while let Some(&t) = self.stack.last() {
            if self.lit[t as usize].is_some() {
                self.stack.pop();
                continue;
            }
            let node = match self.net.sigs[t as usize] {
                Sig::Node(n) if self.net.nodes[n as usize].guard.is_none() => n as usize,
                _ => {
                    let v = self.solver.new_var_default();
                    self.lit[t as usize] = Some(Lit::new(v, true));
                    self.stack.pop();
                    continue;
                }
            };
            if let Some(v) = consts[node] {
                self.lit[t as usize] = Some(self.one ^ !v);
                self.stack.pop();
                continue;
            }
            // Operands first: the merged-to node, or the fanins.
            let before = self.stack.len();
            if let Some((m, _)) = merged[node] {
                let ms = self.net.node_sig[m as usize];
                if self.lit[ms as usize].is_none() {
                    self.stack.push(ms);
                }
            } else {
                for x in &self.net.nodes[node].fanins {
                    if let Fanin::Sig(f) = *x {
                        if self.lit[f as usize].is_none() {
                            self.stack.push(f);
                        }
                    }
                }
            }
            if self.stack.len() > before {
                continue;
            }
            self.stack.pop();
            let l = self.encode(node, merged);
            self.lit[t as usize] = Some(l);
        }
        self.lit[s as usize].expect("encoded")
    }

    /// Clauses of node `n` once its operands are encoded; its literal.
    fn encode(&mut self, n: usize, merged: &[Option<(u32, bool)>]) -> Lit {
        if let Some((m, complement)) = merged[n] {
            let ms = self.net.node_sig[m as usize] as usize;
            return self.lit[ms].expect("encoded") ^ complement;
        }
        let node = &self.net.nodes[n];
        let x: SmallVec<[Lit; 3]> = node.fanins.iter().map(|f| self.fanin_lit(f)).collect();
        if let Func::Not = node.func {
            return !x[0];
        }
        let d = Lit::new(self.solver.new_var_default(), true);
        match node.func {
            Func::And => {
                self.clause(&[!d, x[0]]);
                self.clause(&[!d, x[1]]);
                self.clause(&[d, !x[0], !x[1]]);
            }
            Func::Or => {
                self.clause(&[d, !x[0]]);
                self.clause(&[d, !x[1]]);
                self.clause(&[!d, x[0], x[1]]);
            }
            Func::Xor => {
                self.clause(&[!d, x[0], x[1]]);
                self.clause(&[!d, !x[0], !x[1]]);
                self.clause(&[d, !x[0], x[1]]);
                self.clause(&[d, x[0], !x[1]]);
            }
            Func::Lut(l) => {
                // One clause per row: the inputs of row k imply d = l[k].
                // Row k has a = bit 2, b = bit 1, c = bit 0 (a = 0xF0).
                for k in 0..8 {
                    let row: [Lit; 3] = std::array::from_fn(|j| {
                        let bit = (k >> (2 - j)) & 1 == 1;
                        // The clause is violated only when x[j] == bit.
                        x[j] ^ bit
                    });
                    let out = if (l >> k) & 1 == 1 { d } else { !d };
                    self.clause(&[row[0], row[1], row[2], out]);
                }
            }
            Func::Not => unreachable!("returned above"),
        }
        d
    }

    fn solve(&mut self, assumptions: &[Lit], conflicts: u64) -> Answer {
        let cb = self.solver.cb_mut();
        cb.learnt = 0;
        cb.limit = conflicts;
        self.queries += 1;
        let before = self.solver.num_propagations();
        let r = self.solver.solve_limited(assumptions);
        self.conflicts += self.solver.cb().learnt;
        self.propagations += self.solver.num_propagations() - before;
        if r == lbool::FALSE {
            Answer::Proved
        } else if r == lbool::TRUE {
            Answer::Refuted
        } else {
            Answer::Unknown
        }
    }

    /// Whether `a` and `b` are equal for every input (`Proved`), or an
    /// input where they differ.
    pub(super) fn equal(&mut self, a: Lit, b: Lit, conflicts: u64) -> Answer {
        if a == b {
            return Answer::Proved;
        }
        if a == !b {
            return Answer::Unknown;
        }
        // x -> (a != b), asserted for this query only.
        let x = Lit::new(self.solver.new_var_default(), true);
        self.clause(&[!x, a, b]);
        self.clause(&[!x, !a, !b]);
        let r = self.solve(&[x], conflicts);
        self.clause(&[!x]);
        r
    }

    /// Whether `a` is `value` for every input (`Proved`), or an input
    /// where it is not.
    pub(super) fn constant(&mut self, a: Lit, value: bool, conflicts: u64) -> Answer {
        self.solve(&[a ^ value], conflicts)
    }

    /// After `Refuted`: the counterexample's value of leaf signal `s`, if
    /// the query constrained it.
    pub(super) fn leaf_value(&self, s: u32) -> Option<bool> {
        let l = self.lit[s as usize]?;
        let v = self.solver.value_lit(l);
        (v != lbool::UNDEF).then_some(v == lbool::TRUE)
    }
}

//! Combinational logic netlists for the `lop3-fuse` benchmarks.
//!
//! A [`Netlist`] is an and-inverter graph (AIG): named primary inputs, two-
//! input AND nodes over complementable literals, and named outputs. It is
//! read from AIGER ([`aiger`], ABC's and the EPFL suite's format) or BLIF
//! ([`blif`], what ABC and yosys write; any `.names` cover is expanded into
//! ANDs), written back in either format, turned into a bit-sliced PTX
//! kernel ([`ptx::to_ptx`]: one 32-bit word per input, and/or/xor/not per
//! node), and read back from the logic of such a kernel after passes have
//! run ([`ptx::from_ptx`], every `lop3` becomes its sum of products).
//! [`sim`] simulates netlists on 64 vectors per word.
//!
//! Invariants: literals refer only to inputs and earlier ANDs (the node
//! list is in topological order); literal 0 is constant false and 1 true.

pub mod aiger;
pub mod blif;
pub mod ptx;
pub mod sim;

use rustc_hash::FxHashMap;

/// A literal: `2 * var + complemented`. Var 0 is the constant false, vars
/// `1..=inputs` the primary inputs, then the AND nodes in order.
pub type Lit = u32;

/// Constant false.
pub const FALSE: Lit = 0;
/// Constant true.
pub const TRUE: Lit = 1;

/// A combinational and-inverter graph.
#[derive(Clone, Debug, Default)]
pub struct Netlist {
    /// Name of the model.
    pub name: String,
    /// Primary input names (var `k + 1` is input `k`).
    pub inputs: Vec<String>,
    /// AND nodes (var `inputs.len() + 1 + k` is node `k`).
    pub ands: Vec<(Lit, Lit)>,
    /// Output names and literals.
    pub outputs: Vec<(String, Lit)>,
    /// Structural hashing of the ANDs built through [`Netlist::and`].
    strash: FxHashMap<(Lit, Lit), Lit>,
}

/// A located error in a netlist file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// 1-based line (0 when the error is not tied to a line).
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for Error {}

pub(crate) fn error(line: usize, message: impl Into<String>) -> Error {
    Error {
        line,
        message: message.into(),
    }
}

impl Netlist {
    /// An empty netlist with `inputs` named primary inputs.
    pub fn new(name: &str, inputs: Vec<String>) -> Netlist {
        Netlist {
            name: name.to_string(),
            inputs,
            ..Netlist::default()
        }
    }

    /// Literal of input `k`.
    pub fn input(&self, k: usize) -> Lit {
        2 * (k as u32 + 1)
    }

    /// Number of variables (constant, inputs and ANDs).
    pub fn vars(&self) -> usize {
        1 + self.inputs.len() + self.ands.len()
    }

    /// The AND of two literals, with constant propagation, trivial
    /// simplification and structural hashing.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == FALSE || a == b ^ 1 {
            return FALSE;
        }
        if a == TRUE || a == b {
            return b;
        }
        if let Some(&l) = self.strash.get(&(a, b)) {
            return l;
        }
        let l = 2 * self.vars() as u32;
        self.ands.push((a, b));
        self.strash.insert((a, b), l);
        l
    }

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        self.and(a ^ 1, b ^ 1) ^ 1
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let x = self.and(a, b ^ 1);
        let y = self.and(a ^ 1, b);
        self.or(x, y)
    }

    /// Drops ANDs no output reaches and renumbers the rest (in order).
    pub fn sweep(&mut self) {
        let base = 1 + self.inputs.len();
        let mut live = vec![false; self.vars()];
        for &(_, l) in &self.outputs {
            live[(l >> 1) as usize] = true;
        }
        for k in (0..self.ands.len()).rev() {
            if live[base + k] {
                let (a, b) = self.ands[k];
                live[(a >> 1) as usize] = true;
                live[(b >> 1) as usize] = true;
            }
        }
        let mut map: Vec<Lit> = (0..self.vars() as u32).map(|v| 2 * v).collect();
        let old = std::mem::take(&mut self.ands);
        self.strash.clear();
        for (k, (a, b)) in old.into_iter().enumerate() {
            if live[base + k] {
                let m = |l: Lit| map[(l >> 1) as usize] ^ (l & 1);
                map[base + k] = self.and(m(a), m(b));
            }
        }
        for o in &mut self.outputs {
            o.1 = map[(o.1 >> 1) as usize] ^ (o.1 & 1);
        }
    }
}

/// Reads a netlist file by its extension: `.aig`/`.aag` (AIGER) or `.blif`.
pub fn read_file(path: &std::path::Path) -> Result<Netlist, Error> {
    let bytes = std::fs::read(path).map_err(|e| error(0, format!("cannot read: {e}")))?;
    let mut net = match path.extension().and_then(|e| e.to_str()) {
        Some("aig" | "aag") => aiger::read(&bytes)?,
        Some("blif") => {
            let text = std::str::from_utf8(&bytes).map_err(|_| error(0, "BLIF is not UTF-8"))?;
            blif::read(text)?
        }
        _ => {
            return Err(error(
                0,
                "unknown netlist format (expected .aig, .aag or .blif)",
            ))
        }
    };
    if net.name.is_empty() || net.name == "aiger" || net.name == "blif" {
        if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
            net.name = stem.to_string();
        }
    }
    Ok(net)
}

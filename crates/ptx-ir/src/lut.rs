//! Three-input truth tables, the currency of `lop3`.
//!
//! A function of `a`, `b`, `c` is the byte it produces when evaluated
//! bitwise on `a = 0xF0`, `b = 0xCC`, `c = 0xAA` (the `immLut` of
//! `lop3.b32`). [`apply`] composes tables; [`expr`] names each of the 256
//! functions by a minimal and/or/xor/not formula, taken from a committed
//! table ([`minimal_formulas`] regenerates it; a test keeps the two equal).

/// The pattern of input `a`.
pub const A: u8 = 0xF0;
/// The pattern of input `b`.
pub const B: u8 = 0xCC;
/// The pattern of input `c`.
pub const C: u8 = 0xAA;
/// The patterns of the inputs, in operand order.
pub const INPUTS: [u8; 3] = [A, B, C];

/// `lop3` on truth tables: bit `i` of the result is `lut[4·a_i + 2·b_i +
/// c_i]`. With patterns as arguments this substitutes functions into `lut`.
pub fn apply(a: u8, b: u8, c: u8, lut: u8) -> u8 {
    let mut r = 0u8;
    for i in 0..8 {
        let idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        r |= ((lut >> idx) & 1) << i;
    }
    r
}

/// `lop3.b32` on 32-bit words, bit by bit.
pub fn apply32(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    apply64(a.into(), b.into(), c.into(), lut) as u32
}

/// `lop3` on 64-bit words (64 bit-parallel simulation vectors), bit by bit.
pub fn apply64(a: u64, b: u64, c: u64, lut: u8) -> u64 {
    let mut r = 0;
    for k in 0..8u32 {
        if (lut >> k) & 1 == 1 {
            let pick = |x: u64, bit: u32| if (k >> bit) & 1 == 1 { x } else { !x };
            r |= pick(a, 2) & pick(b, 1) & pick(c, 0);
        }
    }
    r
}

/// Word `word` of input `var` when every assignment of the inputs is
/// enumerated 64 to a word: input `k < 6` alternates in runs of `2^k`
/// within each word, input `k >= 6` is constant over a word and takes bit
/// `k - 6` of the word's index. Words `0 .. 2^(n-6)` then hold all `2^n`
/// assignments of `n` inputs (one word, repeating, for fewer than 7).
pub fn exhaustive_word(var: usize, word: usize) -> u64 {
    const RUNS: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    match RUNS.get(var) {
        Some(&p) => p,
        None if (word >> (var - 6)) & 1 == 1 => u64::MAX,
        None => 0,
    }
}

/// Whether the function depends on input `k` (0 = a, 1 = b, 2 = c).
pub fn depends_on(lut: u8, k: usize) -> bool {
    let shift = [4, 2, 1][k];
    let p = INPUTS[k];
    ((lut & p) >> shift) != (lut & !p)
}

/// A minimal and/or/xor/not formula for `lut` over `a`, `b`, `c`, e.g.
/// `c ^ (a & (b ^ c))` for `0xCA`; `0` and `~0` for the constants.
pub fn expr(lut: u8) -> &'static str {
    crate::lut_table::EXPR[lut as usize]
}

/// A two-input operator of a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
}

impl BinOp {
    fn eval(self, x: u8, y: u8) -> u8 {
        match self {
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
        }
    }
    fn symbol(self) -> char {
        match self {
            BinOp::And => '&',
            BinOp::Or => '|',
            BinOp::Xor => '^',
        }
    }
}

/// A formula over the three inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Input 0 (`a`), 1 (`b`) or 2 (`c`).
    Input(u8),
    /// All zeros (`false`) or all ones (`true`).
    Const(bool),
    /// `~x`
    Not(Box<Expr>),
    /// `x op y`
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The truth table the formula computes.
    pub fn eval(&self) -> u8 {
        match self {
            Expr::Input(k) => INPUTS[*k as usize],
            Expr::Const(c) => {
                if *c {
                    0xFF
                } else {
                    0
                }
            }
            Expr::Not(x) => !x.eval(),
            Expr::Bin(op, x, y) => op.eval(x.eval(), y.eval()),
        }
    }

    /// Operators in the formula: the instructions it expands to.
    pub fn ops(&self) -> u32 {
        match self {
            Expr::Input(_) | Expr::Const(_) => 0,
            Expr::Not(x) => 1 + x.ops(),
            Expr::Bin(_, x, y) => 1 + x.ops() + y.ops(),
        }
    }

    /// Parses the notation [`expr`] uses.
    pub fn parse(s: &str) -> Option<Expr> {
        let mut p = ExprParser {
            s: s.as_bytes(),
            at: 0,
        };
        let e = p.binary()?;
        p.skip();
        (p.at == p.s.len()).then_some(e)
    }
}

struct ExprParser<'a> {
    s: &'a [u8],
    at: usize,
}

impl ExprParser<'_> {
    fn skip(&mut self) {
        while self.s.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
    }
    fn binary(&mut self) -> Option<Expr> {
        let mut lhs = self.unary()?;
        let mut op_seen: Option<BinOp> = None;
        loop {
            self.skip();
            let op = match self.s.get(self.at) {
                Some(b'&') => BinOp::And,
                Some(b'|') => BinOp::Or,
                Some(b'^') => BinOp::Xor,
                _ => return Some(lhs),
            };
            // Mixed operators need parentheses.
            if op_seen.is_some_and(|o| o != op) {
                return None;
            }
            op_seen = Some(op);
            self.at += 1;
            let rhs = self.unary()?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
    }
    fn unary(&mut self) -> Option<Expr> {
        self.skip();
        let c = *self.s.get(self.at)?;
        self.at += 1;
        match c {
            b'~' => match self.unary()? {
                Expr::Const(false) => Some(Expr::Const(true)),
                x => Some(Expr::Not(Box::new(x))),
            },
            b'(' => {
                let e = self.binary()?;
                self.skip();
                (self.s.get(self.at) == Some(&b')')).then(|| self.at += 1)?;
                Some(e)
            }
            b'a' | b'b' | b'c' => Some(Expr::Input(c - b'a')),
            b'0' => Some(Expr::Const(false)),
            _ => None,
        }
    }
}

fn show(e: &Expr, parent: Option<BinOp>, out: &mut String) {
    match e {
        Expr::Input(k) => out.push((b'a' + k) as char),
        Expr::Const(false) => out.push('0'),
        Expr::Const(true) => out.push_str("~0"),
        Expr::Not(x) if matches!(**x, Expr::Bin(..)) => {
            out.push_str("~(");
            show(x, None, out);
            out.push(')');
        }
        Expr::Not(x) => {
            out.push('~');
            show(x, None, out);
        }
        Expr::Bin(op, _, _) => {
            let wrap = parent.is_some_and(|p| p != *op);
            if wrap {
                out.push('(');
            }
            // A chain of one operator, simpler operands first, inputs in
            // order: `c ^ (a & b)`, `a ^ b ^ c`.
            let mut parts: Vec<&Expr> = Vec::new();
            flatten(e, *op, &mut parts);
            let mut texts: Vec<(u32, String)> = parts
                .iter()
                .map(|p| {
                    let mut t = String::new();
                    show(p, Some(*op), &mut t);
                    (p.ops(), t)
                })
                .collect();
            texts.sort();
            for (k, (_, t)) in texts.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                    out.push(op.symbol());
                    out.push(' ');
                }
                out.push_str(t);
            }
            if wrap {
                out.push(')');
            }
        }
    }
}

fn flatten<'e>(e: &'e Expr, op: BinOp, parts: &mut Vec<&'e Expr>) {
    match e {
        Expr::Bin(o, x, y) if *o == op => {
            flatten(x, op, parts);
            flatten(y, op, parts);
        }
        _ => parts.push(e),
    }
}

/// Formats a formula: binary operands that use a different operator are
/// parenthesised, chains of one operator are not, `~` binds tightest.
pub fn format_expr(e: &Expr) -> String {
    let mut s = String::new();
    show(e, None, &mut s);
    s
}

/// Minimal formulas for all 256 functions, by operator count, found by a
/// fixed-point search over formula sizes (a formula's cost is the sum of its
/// parts plus one). Ties keep the first formula found, so the result is
/// deterministic. The constants are `0` and `~0`.
pub fn minimal_formulas() -> Vec<Expr> {
    const INF: u32 = u32::MAX;
    let mut cost = [INF; 256];
    let mut how: Vec<Option<Expr>> = vec![None; 256];
    for (k, &p) in INPUTS.iter().enumerate() {
        cost[p as usize] = 0;
        how[p as usize] = Some(Expr::Input(k as u8));
    }
    loop {
        let mut changed = false;
        for g in 0..256usize {
            if cost[g] == INF {
                continue;
            }
            let t = !(g as u8) as usize;
            if cost[g] + 1 < cost[t] {
                cost[t] = cost[g] + 1;
                how[t] = Some(Expr::Not(Box::new(how[g].clone().expect("set"))));
                changed = true;
            }
            for h in g..256usize {
                if cost[h] == INF {
                    continue;
                }
                for op in [BinOp::And, BinOp::Or, BinOp::Xor] {
                    let t = op.eval(g as u8, h as u8) as usize;
                    let c = cost[g] + cost[h] + 1;
                    if c < cost[t] {
                        cost[t] = c;
                        how[t] = Some(Expr::Bin(
                            op,
                            Box::new(how[g].clone().expect("set")),
                            Box::new(how[h].clone().expect("set")),
                        ));
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    how[0] = Some(Expr::Const(false));
    how[255] = Some(Expr::Const(true));
    how.into_iter().map(|e| e.expect("all reachable")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regenerate with `PTX_REGEN_LUT_TABLE=1 cargo test -p ptx-ir lut`.
    #[test]
    fn committed_table_is_minimal_and_current() {
        let fresh = minimal_formulas();
        let texts: Vec<String> = fresh.iter().map(format_expr).collect();
        if std::env::var_os("PTX_REGEN_LUT_TABLE").is_some() {
            let mut s = String::from(
                "//! Generated by `minimal_formulas` in lut.rs (`PTX_REGEN_LUT_TABLE=1 cargo test -p ptx-ir lut`); do not edit.\n\n/// A minimal formula per truth table.\npub(crate) static EXPR: [&str; 256] = [\n",
            );
            for (k, t) in texts.iter().enumerate() {
                s.push_str(&format!("    \"{t}\", // 0x{k:02X}\n"));
            }
            s.push_str("];\n");
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lut_table.rs"), s).unwrap();
        }
        for (k, e) in fresh.iter().enumerate() {
            assert_eq!(expr(k as u8), texts[k], "table entry 0x{k:02X} is stale");
            let parsed = Expr::parse(expr(k as u8)).expect("parses");
            assert_eq!(parsed.eval(), k as u8, "0x{k:02X}");
            assert_eq!(parsed.ops(), e.ops(), "0x{k:02X}");
        }
    }

    #[test]
    fn known_functions() {
        assert_eq!(apply(A, B, C, 0x80), A & B & C);
        assert_eq!(apply(A, B, C, 0x96), A ^ B ^ C);
        assert_eq!(apply(B, A, C, 0xF0), B, "substitution");
        assert_eq!(
            apply32(0x1234_5678, 0x0ff0_f00f, 0xdead_beef, 0xD2),
            0xc239_5898
        );
        assert_eq!(expr(0x96), "a ^ b ^ c");
        assert_eq!(expr(0x80), "a & b & c");
        assert_eq!(expr(0xF0), "a");
        assert!(depends_on(0xCA, 0) && !depends_on(0xF0, 1));
        // Majority needs four operators as a formula.
        assert_eq!(Expr::parse(expr(0xE8)).unwrap().ops(), 4);
    }

    #[test]
    fn parser_rejects_ambiguous_text() {
        assert!(Expr::parse("a & b | c").is_none());
        assert!(Expr::parse("(a & b").is_none());
        assert_eq!(Expr::parse("~(a | b)").unwrap().eval(), !(A | B));
    }
}

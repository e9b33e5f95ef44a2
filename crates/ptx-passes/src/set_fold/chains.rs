//! Mask-value chains: from each `set` or constant `selp`, the closure of
//! users whose result is still `P ? t : f` (constants folded), the `setp`s
//! that read it as `P` or `!P`, and the rewrite when the chain then has
//! fewer instructions.

use super::*;

/// The constant result of unary/immediate arithmetic `i` on `x`, if `i` is
/// of that shape with `v` as its one register source: (result, width).
pub(super) fn fold_op(f: &Function, i: Inst, v: Value, x: u64) -> Option<(u64, Type)> {
    let info = f.op(i);
    let d = f.inst(i);
    if !plain(f, i)
        || d.results.len() != 1
        || d.operands.first() != Some(&Operand::Value(d.results[0]))
    {
        return None;
    }
    let words: Vec<Mod> = info
        .mods
        .iter()
        .filter(|m| !matches!(m, Mod::Type(_)))
        .copied()
        .collect();
    let lo = |m: &Mod| matches!(m, Mod::Cmp(CmpOp::Lo)) || f.ops.is_word(*m, "lo");
    if info.opcode == Opcode::Set {
        // `set.CMP d, v, K` (or `K, v`) of a mask value: another one.
        let (dty, sty, t) = set_form(f, i)?;
        if !sty.is_integer()
            || info.bool_op().is_some()
            || d.operands.len() != 3
            || info.mods.iter().any(|m| matches!(m, Mod::Word(_)))
        {
            return None;
        }
        let c = info.cmp()?;
        let r = match (&d.operands[1], &d.operands[2]) {
            (Operand::Value(w), k) if *w == v => compare(c, x, imm(k)?, sty)?,
            (k, Operand::Value(w)) if *w == v => compare(c, imm(k)?, x, sty)?,
            _ => return None,
        };
        return Some((if r { t } else { 0 }, dty));
    }
    let ty = info.last_type()?;
    if !ty.is_integer() || ty.bits() > 64 {
        return None;
    }
    let bits = ty.bits();
    let m = mask(bits);
    let srcs = &d.operands[1..];
    match info.opcode {
        Opcode::Neg | Opcode::Not | Opcode::Abs | Opcode::Cnot => {
            if !words.is_empty() || srcs != [Operand::Value(v)] {
                return None;
            }
            let a = x & m;
            let r = match info.opcode {
                Opcode::Neg => a.wrapping_neg(),
                Opcode::Not => !a,
                Opcode::Cnot => (a == 0) as u64,
                _ if ty.is_signed() => sext(a, bits).unsigned_abs(),
                _ => return None,
            };
            Some((r & m, ty))
        }
        Opcode::Cvt => {
            let mut types = info.types();
            let (dt, st) = (types.next()?, types.next()?);
            if !words.is_empty()
                || !dt.is_integer()
                || !st.is_integer()
                || srcs != [Operand::Value(v)]
            {
                return None;
            }
            let a = x & mask(st.bits());
            let wide = if st.is_signed() {
                sext(a, st.bits()) as u64
            } else {
                a
            };
            Some((wide & mask(dt.bits()), dt))
        }
        Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Min
        | Opcode::Max => {
            let ok_words = match info.opcode {
                Opcode::Mul => words.len() == 1 && lo(&words[0]),
                _ => words.is_empty(),
            };
            if !ok_words || srcs.len() != 2 {
                return None;
            }
            let (a, b) = match (&srcs[0], &srcs[1]) {
                (Operand::Value(w), k) if *w == v => (x, imm(k)?),
                (k, Operand::Value(w)) if *w == v => (imm(k)?, x),
                _ => return None,
            };
            let (a, b) = (a & m, b & m);
            let signed = ty.is_signed();
            let r = match info.opcode {
                Opcode::And => a & b,
                Opcode::Or => a | b,
                Opcode::Xor => a ^ b,
                Opcode::Add => a.wrapping_add(b),
                Opcode::Sub => a.wrapping_sub(b),
                Opcode::Mul => a.wrapping_mul(b),
                Opcode::Shl => {
                    if b >= bits as u64 {
                        0
                    } else {
                        a << b
                    }
                }
                Opcode::Shr if signed => (sext(a, bits) >> b.min(bits as u64 - 1)) as u64,
                Opcode::Shr => {
                    if b >= bits as u64 {
                        0
                    } else {
                        a >> b
                    }
                }
                Opcode::Min if signed => sext(a, bits).min(sext(b, bits)) as u64,
                Opcode::Max if signed => sext(a, bits).max(sext(b, bits)) as u64,
                Opcode::Min => a.min(b),
                _ => a.max(b),
            };
            Some((r & m, ty))
        }
        _ => None,
    }
}

/// `setp.CMP.T q, v, K` (or `K, v`) without `.BoolOp`: the predicate for
/// `v = t` and for `v = f`.
pub(super) fn fold_setp(f: &Function, i: Inst, v: Value, t: u64, fv: u64) -> Option<(bool, bool)> {
    let info = f.op(i);
    let d = f.inst(i);
    if info.opcode != Opcode::Setp
        || !plain(f, i)
        || info.bool_op().is_some()
        || d.operands.len() != 3
    {
        return None;
    }
    if d.results.len() != 1 || d.operands[0] != Operand::Value(d.results[0]) {
        return None;
    }
    if info.mods.iter().any(|m| matches!(m, Mod::Word(_))) {
        return None;
    }
    let ty = info.last_type()?;
    if !ty.is_integer() {
        return None;
    }
    let c = info.cmp()?;
    let (rt, rf) = match (&d.operands[1], &d.operands[2]) {
        (Operand::Value(w), k) if *w == v => {
            (compare(c, t, imm(k)?, ty)?, compare(c, fv, imm(k)?, ty)?)
        }
        (k, Operand::Value(w)) if *w == v => {
            (compare(c, imm(k)?, t, ty)?, compare(c, imm(k)?, fv, ty)?)
        }
        _ => return None,
    };
    Some((rt, rf))
}

/// Whether every use of predicate `q` takes a negation for free.
pub(super) fn negatable(f: &Function, q: Value, uses: &Uses) -> bool {
    uses[q].iter().all(|&u| {
        let d = f.inst(u);
        let info = f.op(u);
        let mut ok = true;
        let mut count = 0;
        if d.guard.is_some_and(|g| g.pred == q) {
            count += 1;
        }
        for (k, o) in d.operands.iter().enumerate() {
            let mut here = false;
            o.for_each_value(&mut |v| here |= v == q);
            if !here || d.results.contains(&q) {
                continue;
            }
            count += 1;
            let selp_cond = info.opcode == Opcode::Selp && k == 3 && *o == Operand::Value(q);
            let bool_c = matches!(info.opcode, Opcode::Setp | Opcode::Set)
                && info.bool_op().is_some()
                && k == 3
                && matches!(o, Operand::Value(_) | Operand::Not(_));
            ok &= selp_cond || bool_c;
        }
        ok && count > 0
            && d.ties.iter().all(|&t| t != q)
            && d.targets.iter().all(|t| !t.args.contains(&q))
    })
}

/// Rewrites every use of `q` to read `!p`.
pub(super) fn use_negated(f: &mut Function, q: Value, p: Value, uses: &Uses) {
    for &u in &uses[q] {
        let opcode = f.op(u).opcode;
        let d = &mut f.dfg.insts[u];
        if let Some(g) = &mut d.guard {
            if g.pred == q {
                g.pred = p;
                g.negated = !g.negated;
            }
        }
        if opcode == Opcode::Selp && d.operands.get(3) == Some(&Operand::Value(q)) {
            d.operands.swap(1, 2);
            d.operands[3] = Operand::Value(p);
        } else if let Some(o) = d.operands.get_mut(3) {
            match o {
                Operand::Value(v) if *v == q => *o = Operand::Not(p),
                Operand::Not(v) if *v == q => *o = Operand::Value(p),
                _ => {}
            }
        }
    }
}

/// One mask value in a source's closure.
pub(super) struct Node {
    pub(super) value: Value,
    /// Defining instruction (the source for the root).
    pub(super) def: Inst,
    pub(super) t: u64,
    pub(super) f: u64,
    pub(super) ty: Type,
    /// Read by something that needs the number.
    pub(super) sink: bool,
}

/// The chain from one source, and what folding it would do.
pub(super) struct Closure {
    pub(super) nodes: Vec<Node>,
    /// `setp`s that become `P` (false) or `!P` (true).
    pub(super) preds: Vec<(Inst, bool)>,
}

pub(super) fn closure(
    f: &Function,
    root: Value,
    def: Inst,
    t: u64,
    fv: u64,
    ty: Type,
    uses: &Uses,
) -> Closure {
    let mut c = Closure {
        nodes: vec![Node {
            value: root,
            def,
            t,
            f: fv,
            ty,
            sink: false,
        }],
        preds: Vec::new(),
    };
    let mut k = 0;
    while k < c.nodes.len() {
        let (v, t, fv) = (c.nodes[k].value, c.nodes[k].t, c.nodes[k].f);
        for &u in &uses[v] {
            if let (Some((rt, uty)), Some((rf, _))) = (fold_op(f, u, v, t), fold_op(f, u, v, fv)) {
                if !matches!(uty.bits(), 16 | 32 | 64) {
                    c.nodes[k].sink = true;
                    continue;
                }
                c.nodes.push(Node {
                    value: f.inst(u).results[0],
                    def: u,
                    t: rt,
                    f: rf,
                    ty: uty,
                    sink: false,
                });
                continue;
            }
            if let Some((pt, pf)) = fold_setp(f, u, v, t, fv) {
                let q = f.inst(u).results[0];
                if pt && !pf {
                    c.preds.push((u, false));
                    continue;
                }
                if !pt && pf && negatable(f, q, uses) {
                    c.preds.push((u, true));
                    continue;
                }
            }
            c.nodes[k].sink = true;
        }
        k += 1;
    }
    c
}

/// Folds the chains of every mask source; returns whether anything changed.
pub(super) fn fold_chains(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    let mut dead: Vec<Inst> = Vec::new();
    let mut touched: rustc_hash::FxHashSet<Inst> = Default::default();
    for &i in &insts {
        if touched.contains(&i) || f.layout.inst_block(i).is_none() {
            continue;
        }
        // The source: a set, or a selp of two immediates.
        let (root, t, fv, ty, pred) = if let Some((d, _, t)) = set_form(f, i) {
            (f.inst(i).results[0], t, 0, d, None)
        } else {
            let info = f.op(i);
            let d = f.inst(i);
            if info.opcode != Opcode::Selp || !plain(f, i) || d.results.len() != 1 {
                continue;
            }
            let (Some(a), Some(b), Some(Operand::Value(p))) = (
                d.operands.get(1).and_then(imm),
                d.operands.get(2).and_then(imm),
                d.operands.get(3),
            ) else {
                continue;
            };
            let Some(ty) = info.last_type().filter(|t| t.bits() <= 64) else {
                continue;
            };
            (
                d.results[0],
                a & mask(ty.bits()),
                b & mask(ty.bits()),
                ty,
                Some(*p),
            )
        };
        let c = closure(f, root, i, t, fv, ty, uses);
        if c.nodes.iter().any(|n| touched.contains(&n.def))
            || c.preds.iter().any(|p| touched.contains(&p.0))
        {
            continue;
        }
        // Instructions now and after the fold. A derived value that is
        // the same either way (`set.eq` of a set result against 1, say)
        // becomes a constant and needs no predicate.
        let before = c.nodes.len() + c.preds.len();
        let derived_sinks = c.nodes[1..].iter().filter(|n| n.sink).count();
        let needs_pred = !c.preds.is_empty() || c.nodes[1..].iter().any(|n| n.sink && n.t != n.f);
        let after = derived_sinks
            + usize::from(c.nodes[0].sink)
            + usize::from(pred.is_none() && needs_pred);
        if after >= before {
            continue;
        }
        // The predicate: the selp's, or the set's comparison as a setp.
        let p = match pred {
            _ if !needs_pred => None,
            Some(p) => Some(p),
            None => Some(if c.nodes[0].sink {
                // The set stays; its setp goes right before it.
                let op = f.ops.intern(Opcode::Setp, &setp_mods(f, i));
                let srcs: SmallVec<[Operand; 3]> =
                    f.inst(i).operands[1..].iter().cloned().collect();
                f.insert_def_before(i, op, Type::Pred, srcs)
            } else {
                set_to_setp(f, i)
            }),
        };
        // The source goes unless something still reads it, or its
        // comparison became the setp.
        if !c.nodes[0].sink && (pred.is_some() || p.is_none()) {
            dead.push(i);
        }
        for n in &c.nodes[1..] {
            touched.insert(n.def);
            if !n.sink {
                dead.push(n.def);
                continue;
            }
            let m = mask(n.ty.bits());
            let (op, operands): (_, SmallVec<[Operand; 4]>) = match p {
                Some(p) if n.t != n.f => (
                    bits_op(f, Opcode::Selp, n.ty),
                    smallvec![
                        Operand::Value(n.value),
                        hex(n.t & m),
                        hex(n.f & m),
                        Operand::Value(p)
                    ],
                ),
                _ => (
                    bits_op(f, Opcode::Mov, n.ty),
                    smallvec![Operand::Value(n.value), hex(n.t & m)],
                ),
            };
            let d = &mut f.dfg.insts[n.def];
            d.op = op;
            d.operands = operands.into_iter().collect();
        }
        for &(s, negated) in &c.preds {
            touched.insert(s);
            let q = f.inst(s).results[0];
            let p = p.expect("a folded setp needs the predicate");
            if negated {
                use_negated(f, q, p, uses);
            } else {
                renames.insert(q, p);
            }
            dead.push(s);
        }
        touched.insert(i);
        changed = true;
    }
    for i in dead {
        if f.layout.inst_block(i).is_some() {
            f.layout.remove_inst(i);
        }
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
}

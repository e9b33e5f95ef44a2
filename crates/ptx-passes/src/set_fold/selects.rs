//! Select simplifications: `selp` with equal arms, `selp` of a `selp` on
//! the same predicate, and `slct` with an immediate selector.

use super::*;

/// `selp` with equal arms or nested on the same predicate; `slct` with an
/// immediate selector.
pub(super) fn fold_selects(f: &mut Function) -> bool {
    let insts = f.layout_insts();
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    let mut changed = false;
    for i in insts {
        if !plain(f, i) || f.inst(i).results.len() != 1 {
            continue;
        }
        let info = f.op(i);
        let d = f.inst(i);
        let r = d.results[0];
        if d.operands.first() != Some(&Operand::Value(r)) || d.operands.len() != 4 {
            continue;
        }
        let Some(ty) = info.types().next() else {
            continue;
        };
        // The operand the instruction reduces to.
        let pick: Option<Operand> = match info.opcode {
            Opcode::Selp => {
                let (a, b, c) = (&d.operands[1], &d.operands[2], &d.operands[3]);
                let inner = |o: &Operand| -> Option<(Operand, Operand)> {
                    let Operand::Value(v) = o else { return None };
                    let ValueDef::Result(j, 0) = f.dfg.values[*v].def else {
                        return None;
                    };
                    let dj = f.inst(j);
                    (f.op(j).opcode == Opcode::Selp
                        && plain(f, j)
                        && dj.operands.get(3) == Some(c)
                        && f.op(j).text == info.text)
                        .then(|| (dj.operands[1].clone(), dj.operands[2].clone()))
                };
                if a == b {
                    Some(a.clone())
                } else if let Some((x, _)) = inner(a) {
                    let dd = &mut f.dfg.insts[i];
                    dd.operands[1] = x;
                    changed = true;
                    None
                } else if let Some((_, y)) = inner(b) {
                    let dd = &mut f.dfg.insts[i];
                    dd.operands[2] = y;
                    changed = true;
                    None
                } else {
                    None
                }
            }
            Opcode::Slct => {
                let Some(Operand::Imm(k)) = d.operands.get(3) else {
                    continue;
                };
                let cty = info.last_type();
                let take_a = match cty {
                    Some(Type::S32) if k.is_int() => (k.bits as u32 as i32) >= 0,
                    Some(Type::F32) => {
                        let x = f32::from_bits(k.bits as u32);
                        let ftz = info.mods.iter().any(|m| f.ops.is_word(*m, "ftz"));
                        if !k.is_int() && !matches!(k.kind, ptx_ir::ImmKind::F32) {
                            continue;
                        }
                        (ftz && x.is_subnormal()) || x >= 0.0
                    }
                    _ => continue,
                };
                Some(d.operands[if take_a { 1 } else { 2 }].clone())
            }
            _ => continue,
        };
        match pick {
            Some(Operand::Value(v))
                if f.dfg.value_type(v).reg_class() == f.dfg.value_type(r).reg_class() =>
            {
                renames.insert(r, v);
                f.layout.remove_inst(i);
                changed = true;
            }
            Some(o @ Operand::Imm(_)) if ty.bits() <= 64 => {
                let mov = f.ops.intern(
                    Opcode::Mov,
                    &[Mod::Type(match ty.bits() {
                        16 => Type::B16,
                        64 => Type::B64,
                        _ => Type::B32,
                    })],
                );
                let dd = &mut f.dfg.insts[i];
                dd.op = mov;
                dd.operands = smallvec![Operand::Value(r), o];
                changed = true;
            }
            _ => {}
        }
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
}

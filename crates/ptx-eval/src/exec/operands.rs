//! Operands: reading registers, immediates, special registers and
//! addresses per lane, writing results, and checked memory accesses.

use super::*;

/// Per-lane operand values.
pub(super) struct Lanes {
    pub(super) v: [u64; 32],
}

pub(super) fn special(cta: &Cta, w: &Warp, name: &str, lane: usize) -> Option<u64> {
    let dim = |s: &str| match s.rsplit('.').next() {
        Some("x") => 0,
        Some("y") => 1,
        Some("z") => 2,
        _ => 0,
    };
    let base = name.split('.').next().unwrap_or(name);
    Some(match base {
        "%tid" => w.tid[lane][dim(name)] as u64,
        "%ntid" => cta.launch.block[dim(name)] as u64,
        "%ctaid" => cta.ctaid[dim(name)] as u64,
        "%nctaid" => cta.launch.grid[dim(name)] as u64,
        "%laneid" => lane as u64,
        "%warpid" => w.id as u64,
        "%nwarpid" => 32,
        "WARP_SZ" => 32,
        "%lanemask_eq" => 1u64 << lane,
        "%lanemask_lt" => (1u64 << lane) - 1,
        "%lanemask_le" => (1u64 << (lane + 1)) - 1,
        "%lanemask_gt" => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
        "%lanemask_ge" => (!((1u64 << lane) - 1)) & 0xffff_ffff,
        _ => return None,
    })
}

pub(super) fn imm_bits(imm: &Imm, ty: Type, syms: &ptx_ir::Interner) -> u64 {
    let as_f64 = match imm.kind {
        ImmKind::F64 => Some(f64::from_bits(imm.bits)),
        ImmKind::Float(s) => syms.get(s).parse::<f64>().ok(),
        ImmKind::F32 => Some(f32::from_bits(imm.bits as u32) as f64),
        _ => None,
    };
    match (as_f64, ty) {
        (Some(x), Type::F32) => (x as f32).to_bits() as u64,
        (Some(x), Type::F64) => x.to_bits(),
        (Some(_), _) if imm.kind == ImmKind::F32 => imm.bits,
        (Some(x), _) => x.to_bits(),
        (None, _) => imm.bits,
    }
}

pub(super) fn src(
    k: &Kernel,
    cta: &Cta,
    w: &Warp,
    m: &Machine,
    o: &Operand,
    ty: Type,
    pos: u32,
) -> Result<Lanes, EvalError> {
    let f = k.f;
    let mut out = Lanes { v: [0; 32] };
    match o {
        Operand::Value(v) => out.v = w.regs[v.as_u32() as usize],
        Operand::Not(v) => {
            for (l, x) in w.regs[v.as_u32() as usize].iter().enumerate() {
                out.v[l] = (*x == 0) as u64;
            }
        }
        Operand::Imm(imm) => out.v = [imm_bits(imm, ty, &f.ops.syms); 32],
        Operand::Special(s) if f.ops.word(*s).starts_with("%clock") => {
            // A deterministic clock: thread-instructions run so far (the
            // fuel spent), the same on every run of the same launch.
            let spent = m.fuel_start - m.fuel;
            let v = if f.ops.word(*s) == "%clock" {
                spent & 0xffff_ffff
            } else {
                spent
            };
            out.v = [v; 32];
        }
        Operand::Special(s) => {
            let name = f.ops.word(*s);
            for lane in 0..32 {
                out.v[lane] = special(cta, w, name, lane).ok_or_else(|| {
                    EvalError::new(pos, format!("special register {name} is not supported"))
                })?;
            }
        }
        Operand::Symbol(s, off) => {
            let name = f.ops.word(*s);
            let base = if let Some(&a) = m.symbols.get(name) {
                a
            } else if let Some(&o) = k
                .shared
                .get(name)
                .or_else(|| k.local.get(name))
                .or_else(|| k.params.get(name))
            {
                // The address of a .shared/.local/.param variable is in its
                // own state space; `cvta` makes it generic.
                o
            } else {
                return Err(EvalError::new(pos, format!("unknown symbol '{name}'")));
            };
            out.v = [base.wrapping_add(*off as u64); 32];
        }
        _ => {
            return Err(EvalError::new(
                pos,
                "operand form not supported by the evaluator",
            ))
        }
    }
    Ok(out)
}

/// Writes `vals` to the lanes of `mask`, truncated to the destination's
/// register class (so `.wide` results keep all their bits).
pub(super) fn set_result(w: &mut Warp, f: &Function, o: &Operand, vals: &[u64; 32], mask: u32) {
    let Operand::Value(v) = o else { return };
    let ty = f.dfg.value_type(*v).reg_class();
    let mb = mask_bits(ty);
    let reg = &mut w.regs[v.as_u32() as usize];
    for lane in 0..32 {
        if mask & (1 << lane) != 0 {
            reg[lane] = vals[lane] & mb;
        }
    }
}

/// The state space an access reaches and its offset there: generic
/// addresses select their window.
pub(super) fn resolve(space: Option<Space>, addr: u64) -> (Space, u64) {
    match space {
        Some(Space::Shared) => (Space::Shared, addr.wrapping_sub(SHARED_BASE).min(addr)),
        Some(Space::Local) => (Space::Local, addr.wrapping_sub(LOCAL_BASE).min(addr)),
        Some(Space::Param) => (Space::Param, addr.wrapping_sub(PARAM_BASE).min(addr)),
        Some(s) if s != Space::Generic => (s, addr),
        _ if addr >= SHARED_BASE => (Space::Shared, addr - SHARED_BASE),
        _ if addr >= LOCAL_BASE => (Space::Local, addr - LOCAL_BASE),
        _ if addr >= PARAM_BASE => (Space::Param, addr - PARAM_BASE),
        _ => (Space::Global, addr),
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn mem_access(
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    space: Option<Space>,
    addr: u64,
    len: u64,
    lane: usize,
    store: Option<u128>,
    pos: u32,
) -> Result<u128, EvalError> {
    let oob = || {
        EvalError::new(
            pos,
            format!("out-of-range access of {len} bytes at 0x{addr:x}"),
        )
    };
    let (space, off) = resolve(space, addr);
    match (space, store) {
        (Space::Global | Space::Const, None) => m.global.read(off, len).ok_or_else(oob),
        (Space::Global, Some(v)) => match m.global.write(off, len, v) {
            Ok(()) => Ok(0),
            Err(Fault::OutOfRange) => Err(oob()),
            Err(Fault::MemoryLimit) => Err(m.memory_limit(pos, "a store to global memory")),
        },
        (Space::Shared, None) => read_flat(&cta.shared, off, len).ok_or_else(oob),
        (Space::Shared, Some(v)) => write_flat(&mut cta.shared, off, len, v)
            .map(|_| 0)
            .ok_or_else(oob),
        (Space::Local, None) => read_flat(&w.local[lane], off, len).ok_or_else(oob),
        (Space::Local, Some(v)) => write_flat(&mut w.local[lane], off, len, v)
            .map(|_| 0)
            .ok_or_else(oob),
        (Space::Param, None) if off >= FRAME => {
            read_flat(&w.frame[lane], off - FRAME, len).ok_or_else(oob)
        }
        (Space::Param, Some(v)) if off >= FRAME => {
            write_flat(&mut w.frame[lane], off - FRAME, len, v)
                .map(|_| 0)
                .ok_or_else(oob)
        }
        (Space::Param, None) => read_flat(cta.param, off, len).ok_or_else(oob),
        _ => Err(EvalError::new(pos, "store to a read-only state space")),
    }
}

pub(super) fn mask_bits(ty: Type) -> u64 {
    match ty.bits() {
        1 => 1,
        b if b >= 64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}

/// The exact product of two `ty` values (sign-extended when signed), for
/// `.hi` and `.wide`.
pub(super) fn full_product(x: u64, y: u64, ty: Type) -> u128 {
    if ty.is_signed() {
        (sext(x, ty.bits()) as i128 * sext(y, ty.bits()) as i128) as u128
    } else {
        x as u128 * y as u128
    }
}

pub(super) fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// The lanes of `mask` whose guard (if `d` has one) holds.
pub(super) fn guarded_lanes(w: &Warp, d: &InstData, mask: u32) -> u32 {
    let Some(g) = d.guard else {
        return mask;
    };
    let p = &w.regs[g.pred.as_u32() as usize];
    (0..32).fold(mask, |run, lane| {
        if (p[lane] != 0) == g.negated {
            run & !(1 << lane)
        } else {
            run
        }
    })
}

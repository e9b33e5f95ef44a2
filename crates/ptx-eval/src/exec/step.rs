//! One instruction: the guard and tied results, then the instruction's
//! family ([`approx`], [`half`], [`arith`], [`logic`], [`convert`], [`warp`], [`access`],
//! [`video`], [`matrix`]) computes it; what no family knows is reported as unsupported
//! at its source position.

use super::*;

/// What a family did with an instruction.
pub(super) enum Flow {
    /// Not one of its instructions.
    NotMine,
    /// Computed the lanes' results, to write to the destination.
    Write,
    /// Done, results written (or none).
    Done,
}

/// The instruction being executed and what every family reads of it.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub(super) k: &'a Kernel<'a>,
    pub(super) f: &'a Function,
    pub(super) d: &'a InstData,
    pub(super) info: &'a OpInfo,
    pub(super) i: Inst,
    pub(super) pos: u32,
    /// The instruction's (last) type, `.b32` when it has none.
    pub(super) ty: Type,
    pub(super) bits: u32,
    /// The value mask of `ty`.
    pub(super) mb: u64,
    /// Lanes that execute (the mask less the guard's false lanes).
    pub(super) run: u32,
    /// Active lanes.
    pub(super) mask: u32,
    pub(super) dest: Option<&'a Operand>,
}

impl Ctx<'_> {
    /// Operand `n` read as `t` in every lane.
    pub(super) fn operand(
        &self,
        n: usize,
        t: Type,
        w: &Warp,
        cta: &Cta,
        m: &Machine,
    ) -> Result<Lanes, EvalError> {
        let o = self
            .d
            .operands
            .get(n)
            .ok_or_else(|| EvalError::new(self.pos, "missing operand"))?;
        src(self.k, cta, w, m, o, t, self.pos)
    }

    /// Whether the instruction carries modifier word `x` (`.cc`, `.sat`…).
    pub(super) fn word(&self, x: &str) -> bool {
        self.info.mods.iter().any(|mm| self.f.ops.is_word(*mm, x))
    }

    /// The float rounding mode the instruction names: `.rn` (also when it
    /// names none), `.rz`, `.rm` or `.rp`.
    pub(super) fn rounding(&self) -> minifloat::Round {
        use minifloat::Round;
        if !self.info.mods.iter().any(|m| matches!(m, Mod::Word(_))) {
            return Round::Nearest;
        }
        [("rz", Round::Zero), ("rm", Round::Down), ("rp", Round::Up)]
            .into_iter()
            .find(|(w, _)| self.word(w))
            .map_or(Round::Nearest, |(_, r)| r)
    }

    /// Whether the instruction carries comparison `c`.
    pub(super) fn has_cmp(&self, c: CmpOp) -> bool {
        self.info.mods.contains(&Mod::Cmp(c))
    }

    /// The error for an instruction without semantics.
    pub(super) fn unsupported(&self) -> EvalError {
        EvalError::new(
            self.pos,
            format!("'{}' is not supported by the evaluator", self.info.text),
        )
    }
}

/// Executes instruction `i` for the lanes of `mask`.
#[allow(clippy::needless_range_loop)]
pub(super) fn exec(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    i: Inst,
    mask: u32,
) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let pos = d.pos;
    // Lanes that execute: the guard; tied results keep their old value
    // in the others.
    let run = guarded_lanes(w, d, mask);
    for (&r, &t) in d.results.iter().zip(&d.ties) {
        let old = w.regs[t.as_u32() as usize];
        let reg = &mut w.regs[r.as_u32() as usize];
        for lane in 0..32 {
            if mask & (1 << lane) != 0 {
                reg[lane] = old[lane];
            }
        }
        if !w.approx.is_empty() {
            let old = w.approx[t.as_u32() as usize];
            let tags = &mut w.approx[r.as_u32() as usize];
            for lane in 0..32 {
                if mask & (1 << lane) != 0 {
                    tags[lane] = old[lane];
                }
            }
        }
    }
    if run == 0 {
        return Ok(());
    }
    let ty = info.last_type().unwrap_or(Type::B32);
    let c = Ctx {
        k,
        f,
        d,
        info,
        i,
        pos,
        ty,
        bits: ty.bits(),
        mb: mask_bits(ty),
        run,
        mask,
        dest: d.operands.first(),
    };
    // `.pragma` interns with an empty mnemonic (its text is the
    // directive); it changes nothing at run time.
    if info.opcode == Opcode::Other && &*info.text == ".pragma" {
        return Ok(());
    }
    // nanosleep only delays the thread; time is not modelled.
    if info.opcode == Opcode::Other && &*info.mnemonic == "nanosleep" {
        return Ok(());
    }
    let mut out = [0u64; 32];
    type Family =
        fn(&Ctx, &mut Cta, &mut Warp, &mut Machine, &mut [u64; 32]) -> Result<Flow, EvalError>;
    // The approximate family (first) tags its own results; the others'
    // are tagged from their sources by `approx::propagate`.
    const APPROX: usize = 0;
    const FAMILIES: [Family; 9] = [
        approx::step,
        half::step,
        arith::step,
        logic::step,
        convert::step,
        warp::step,
        access::step,
        video::step,
        matrix::step,
    ];
    for (n, family) in FAMILIES.into_iter().enumerate() {
        let flow = family(&c, cta, w, m, &mut out)?;
        if let Flow::Write = flow {
            if let Some(o) = c.dest {
                set_result(w, f, o, &out, run);
            }
        }
        if matches!(flow, Flow::NotMine) {
            continue;
        }
        if n != APPROX && !w.approx.is_empty() {
            approx::propagate(&c, w);
        }
        return Ok(());
    }
    Err(c.unsupported())
}

//! Netlists as bit-sliced PTX kernels, and the logic of such kernels back
//! as netlists.
//!
//! [`to_ptx`] writes one kernel `(.param .u64 in, .param .u64 out)`: input
//! `k` is the word at `in + 4k`, output `k` is stored at `out + 4k`, and
//! every AND becomes `and.b32` (or `or.b32` of the complements, whichever
//! needs no `not`), with `not.b32` only where a complemented fanin is not
//! at hand; so each 32-bit lane evaluates the circuit on its own bits.
//! [`from_ptx`] reads a kernel of that shape after passes ran: loads at
//! `in + 4k`, `and`/`or`/`xor`/`not`/`mov`/`lop3` (immediate LUT) on `.b32`
//! and stores at `out + 4k`; every other instruction is an error.

use crate::{error, Error, Lit, Netlist, FALSE, TRUE};
use ptx_ir::{Mod, Opcode, Operand, Space, Value};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;

/// The netlist as a bit-sliced kernel named `kernel` (PTX 7.0, sm_80).
pub fn to_ptx(net: &Netlist, kernel: &str) -> String {
    let vars = net.vars();
    // Register holding each var, and one holding its complement.
    let mut pos: Vec<Option<u32>> = vec![None; vars];
    let mut neg: Vec<Option<u32>> = vec![None; vars];
    let mut body = String::new();
    let mut next = 1u32;
    let mut fresh = || {
        next += 1;
        next - 1
    };
    for k in 0..net.inputs.len() {
        let r = fresh();
        let _ = writeln!(body, "\tld.global.u32 \t%r{r}, [%rd1+{}];", 4 * k);
        pos[k + 1] = Some(r);
    }
    // The operand for literal `l`, emitting a `not` when needed.
    fn operand(
        l: Lit,
        pos: &mut [Option<u32>],
        neg: &mut [Option<u32>],
        body: &mut String,
        fresh: &mut dyn FnMut() -> u32,
    ) -> String {
        let v = (l >> 1) as usize;
        if v == 0 {
            return if l == FALSE { "0".into() } else { "-1".into() };
        }
        let (want, other) = if l & 1 == 0 {
            (&mut pos[v], neg[v])
        } else {
            (&mut neg[v], pos[v])
        };
        if let Some(r) = *want {
            return format!("%r{r}");
        }
        let src = other.expect("every var has a register in one polarity");
        let r = fresh();
        let _ = writeln!(body, "\tnot.b32 \t%r{r}, %r{src};");
        *want = Some(r);
        format!("%r{r}")
    }
    let base = 1 + net.inputs.len();
    for (k, &(a, b)) in net.ands.iter().enumerate() {
        let v = base + k;
        let have = |l: Lit, pos: &[Option<u32>], neg: &[Option<u32>]| {
            let w = (l >> 1) as usize;
            if l & 1 == 0 {
                pos[w].is_some()
            } else {
                neg[w].is_some()
            }
        };
        let r = fresh();
        if !(have(a, &pos, &neg) && have(b, &pos, &neg))
            && have(a ^ 1, &pos, &neg)
            && have(b ^ 1, &pos, &neg)
        {
            let x = operand(a ^ 1, &mut pos, &mut neg, &mut body, &mut fresh);
            let y = operand(b ^ 1, &mut pos, &mut neg, &mut body, &mut fresh);
            let _ = writeln!(body, "\tor.b32 \t%r{r}, {x}, {y};");
            neg[v] = Some(r);
        } else {
            let x = operand(a, &mut pos, &mut neg, &mut body, &mut fresh);
            let y = operand(b, &mut pos, &mut neg, &mut body, &mut fresh);
            let _ = writeln!(body, "\tand.b32 \t%r{r}, {x}, {y};");
            pos[v] = Some(r);
        }
    }
    for (k, &(_, l)) in net.outputs.iter().enumerate() {
        let x = operand(l, &mut pos, &mut neg, &mut body, &mut fresh);
        let _ = writeln!(body, "\tst.global.u32 \t[%rd2+{}], {x};", 4 * k);
    }
    format!(
        "//\n// {} inputs, {} outputs, {} ANDs (netlist '{}')\n//\n\n.version 7.0\n.target sm_80\n.address_size 64\n\n\
         .visible .entry {kernel}(\n\t.param .u64 {kernel}_param_0,\n\t.param .u64 {kernel}_param_1\n)\n{{\n\
         \t.reg .b32 \t%r<{next}>;\n\t.reg .b64 \t%rd<3>;\n\n\
         \tld.param.u64 \t%rd1, [{kernel}_param_0];\n\tld.param.u64 \t%rd2, [{kernel}_param_1];\n\
         {body}\tret;\n}}\n",
        net.inputs.len(),
        net.outputs.len(),
        net.ands.len(),
        net.name
    )
}

/// The logic of a kernel written by [`to_ptx`] (possibly after passes),
/// with the given input and output names.
pub fn from_ptx(ptx: &str, inputs: &[String], outputs: &[String]) -> Result<Netlist, Error> {
    let m = ptx_parse::parse_module(ptx).map_err(|e| error(0, format!("{e:?}")))?;
    let f = m
        .functions()
        .next()
        .ok_or_else(|| error(0, "no function"))?;
    let mut net = Netlist::new("ptx", inputs.to_vec());
    let mut lit: FxHashMap<Value, Lit> = FxHashMap::default();
    let mut outs: Vec<Option<Lit>> = vec![None; outputs.len()];
    let src = |o: &Operand, lit: &FxHashMap<Value, Lit>| -> Result<Lit, Error> {
        match o {
            Operand::Value(v) => lit
                .get(v)
                .copied()
                .ok_or_else(|| error(0, format!("{v:?} read before it is written"))),
            Operand::Imm(x) if x.bits as u32 == 0 => Ok(FALSE),
            Operand::Imm(x) if x.bits as u32 == u32::MAX => Ok(TRUE),
            other => Err(error(
                0,
                format!("operand {other:?} is not a bit-sliced word"),
            )),
        }
    };
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let d = f.inst(i);
            let op = f.op(i);
            if d.guard.is_some() {
                return Err(error(0, "guarded instruction in a bit-sliced kernel"));
            }
            let word = |k: usize| -> Result<usize, Error> {
                match d.operands.get(k) {
                    Some(Operand::Addr(a)) if a.offset >= 0 && a.offset % 4 == 0 => {
                        Ok(a.offset as usize / 4)
                    }
                    _ => Err(error(0, "address is not a word offset")),
                }
            };
            match op.opcode {
                Opcode::Ld if op.mods.contains(&Mod::Space(Space::Param)) => {}
                Opcode::Ld => {
                    let k = word(1)?;
                    if k >= inputs.len() {
                        return Err(error(
                            0,
                            format!("load of word {k}, beyond the {} inputs", inputs.len()),
                        ));
                    }
                    lit.insert(d.results[0], net.input(k));
                }
                Opcode::St => {
                    let k = word(0)?;
                    let x = src(&d.operands[1], &lit)?;
                    *outs.get_mut(k).ok_or_else(|| {
                        error(0, format!("store of word {k}, beyond the outputs"))
                    })? = Some(x);
                }
                Opcode::Ret => {}
                Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::Not
                | Opcode::Mov
                | Opcode::Lop3 => {
                    let s: Vec<Lit> = d.operands[1..]
                        .iter()
                        .take(if op.opcode == Opcode::Lop3 { 3 } else { 2 })
                        .map(|o| src(o, &lit))
                        .collect::<Result<_, _>>()?;
                    let x = match op.opcode {
                        Opcode::And => net.and(s[0], s[1]),
                        Opcode::Or => net.or(s[0], s[1]),
                        Opcode::Xor => net.xor(s[0], s[1]),
                        Opcode::Not => s[0] ^ 1,
                        Opcode::Mov => s[0],
                        _ => {
                            let lut = match d.operands.get(4) {
                                Some(Operand::Imm(x)) => x.bits as u8,
                                _ => return Err(error(0, "lop3 without an immediate LUT")),
                            };
                            let mut sum = FALSE;
                            for row in 0..8u8 {
                                if lut >> row & 1 == 1 {
                                    let pick =
                                        |k: u8, l: Lit| if row >> k & 1 == 1 { l } else { l ^ 1 };
                                    let ab = net.and(pick(2, s[0]), pick(1, s[1]));
                                    let t = net.and(ab, pick(0, s[2]));
                                    sum = net.or(sum, t);
                                }
                            }
                            sum
                        }
                    };
                    lit.insert(d.results[0], x);
                }
                other => return Err(error(0, format!("{other:?} in a bit-sliced kernel"))),
            }
        }
    }
    for (k, (name, l)) in outputs.iter().zip(outs).enumerate() {
        let l = l.ok_or_else(|| error(0, format!("output {k} ('{name}') is never stored")))?;
        net.outputs.push((name.clone(), l));
    }
    Ok(net)
}

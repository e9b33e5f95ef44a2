//! A random PTX kernel generator in the spirit of Csmith and YARPGen, for
//! differential testing of passes.
//!
//! Every program is one kernel over a pool of sixteen `.b32` registers and
//! four predicates, seeded from the parameters, `%tid.x` and constants. The
//! body mixes straight-line integer, bitwise, compare, select, `set`,
//! `lop3`, `vop2`, `vote`/`activemask` and predicated instructions with
//! if/else diamonds and small counted loops (nested up to depth 3); at the
//! end each thread stores the whole pool to `out[tid * 16 ..]`. Programs
//! are well defined for every input (no division, bounded loops), so any
//! difference between runs before and after a pass is a bug.

use std::fmt::Write;

const REGS: u32 = 16;
const PREDS: u32 = 4;

struct Gen<'d> {
    state: u64,
    /// Decisions to take first, one byte each (a fuzzer's input); the
    /// generator's own numbers follow once they run out.
    script: &'d [u8],
    out: String,
    labels: u32,
    loops: u32,
}

impl Gen<'_> {
    fn next(&mut self) -> u64 {
        crate::rng::splitmix(&mut self.state)
    }

    fn below(&mut self, n: u64) -> u64 {
        if let Some((&b, rest)) = self.script.split_first() {
            self.script = rest;
            return u64::from(b) % n;
        }
        self.next() % n
    }

    fn reg(&mut self) -> String {
        format!("%r{}", self.below(REGS as u64))
    }

    fn pred(&mut self) -> String {
        format!("%p{}", self.below(PREDS as u64))
    }

    /// A source: a register, or now and then an immediate.
    fn src(&mut self) -> String {
        if self.below(5) == 0 {
            const IMMS: [&str; 8] = ["0", "1", "31", "32", "-1", "0x80000000", "0xffff", "7"];
            IMMS[self.below(IMMS.len() as u64) as usize].to_string()
        } else {
            self.reg()
        }
    }

    fn line(&mut self, s: &str) {
        let _ = writeln!(self.out, "\t{s};");
    }

    fn guard(&mut self) -> String {
        match self.below(6) {
            0 => format!("@{} ", self.pred()),
            1 => format!("@!{} ", self.pred()),
            _ => String::new(),
        }
    }

    fn simple(&mut self) {
        let g = self.guard();
        let (d, a, b, c) = (self.reg(), self.src(), self.src(), self.reg());
        let text = match self.below(16) {
            0 => format!("add.s32 {d}, {a}, {b}"),
            1 => format!("sub.s32 {d}, {a}, {b}"),
            2 => format!("mul.lo.s32 {d}, {a}, {b}"),
            3 => format!("mad.lo.s32 {d}, {a}, {b}, {c}"),
            4 => {
                const OPS: [&str; 3] = ["and", "or", "xor"];
                format!("{}.b32 {d}, {a}, {b}", OPS[self.below(3) as usize])
            }
            5 => format!("not.b32 {d}, {c}"),
            6 => {
                const OPS: [&str; 3] = ["shl.b32", "shr.u32", "shr.s32"];
                format!("{} {d}, {a}, {b}", OPS[self.below(3) as usize])
            }
            7 => {
                const OPS: [&str; 4] = ["min.s32", "min.u32", "max.s32", "max.u32"];
                format!("{} {d}, {a}, {b}", OPS[self.below(4) as usize])
            }
            8 => format!(
                "lop3.b32 {d}, {c}, {}, {}, {}",
                self.reg(),
                self.reg(),
                self.below(256)
            ),
            9 => {
                let p = self.pred();
                // The two destinations must differ.
                let q = format!(
                    "%p{}",
                    (p[2..].parse::<u64>().unwrap_or(0) + 1 + self.below(PREDS as u64 - 1))
                        % PREDS as u64
                );
                let (cmp, ty) = (self.cmp(), self.int_ty());
                if self.below(2) == 0 {
                    format!("setp.{cmp}.{ty} {p}|{q}, {c}, {a}")
                } else {
                    format!("setp.{cmp}.{ty} {p}, {c}, {a}")
                }
            }
            10 => format!("selp.b32 {d}, {a}, {b}, {}", self.pred()),
            11 => format!("set.{}.u32.{} {d}, {c}, {a}", self.cmp(), self.int_ty()),
            12 => {
                const OPS: [&str; 6] = ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"];
                const TY: [&str; 2] = ["u32", "s32"];
                let op = OPS[self.below(6) as usize];
                let (t1, t2, t3) = (
                    TY[self.below(2) as usize],
                    TY[self.below(2) as usize],
                    TY[self.below(2) as usize],
                );
                let sat = if self.below(3) == 0 { ".sat" } else { "" };
                let (x, y) = (self.reg(), self.reg());
                format!("{op}.{t1}.{t2}.{t3}{sat} {d}, {c}, {x}, {y}")
            }
            13 => {
                let m = self.reg();
                self.line(&format!("activemask.b32 {m}"));
                const MODES: [&str; 3] = ["any", "all", "uni"];
                if self.below(2) == 0 {
                    format!("vote.sync.ballot.b32 {d}, {}, {m}", self.pred())
                } else {
                    format!(
                        "vote.sync.{}.pred {}, {}, {m}",
                        MODES[self.below(3) as usize],
                        self.pred(),
                        self.pred()
                    )
                }
            }
            14 => format!("setp.ne.s32 {}, {c}, 0", self.pred()),
            15 if self.below(4) == 0 => {
                // A select that xors on one bit (instcombine's):
                // the branchy bit-serial CRC step, its temporaries in
                // registers nothing else reads.
                let (t, z, p) = ("%t0", "%t1", "%s0");
                let (cmp, one) = if self.below(2) == 0 {
                    ("eq", "1")
                } else {
                    ("ne", "0")
                };
                self.line(&format!("and.b32 {t}, {c}, 1"));
                self.line(&format!("setp.{cmp}.b32 {p}, {t}, {one}"));
                self.line(&format!("shr.u32 {d}, {c}, 1"));
                self.line(&format!("xor.b32 {z}, {d}, {a}"));
                if self.below(2) == 0 {
                    format!("selp.b32 {d}, {z}, {d}, {p}")
                } else {
                    format!("selp.b32 {d}, {d}, {z}, {p}")
                }
            }
            15 if self.below(3) == 0 => {
                // A mask from one bit, -((c >> k) & 1) (instcombine's).
                const SHIFTS: [&str; 5] = ["0", "1", "5", "31", "32"];
                let k = SHIFTS[self.below(SHIFTS.len() as u64) as usize];
                self.line(&format!("shr.u32 {d}, {c}, {k}"));
                self.line(&format!("and.b32 {d}, {d}, 1"));
                if self.below(2) == 0 {
                    format!("neg.s32 {d}, {d}")
                } else {
                    format!("sub.s32 {d}, 0, {d}")
                }
            }
            _ => format!("mov.b32 {d}, {a}"),
        };
        // A vote under a guard would read the wrong member mask.
        let g = if text.starts_with("vote") || text.starts_with("setp.") && text.contains('|') {
            String::new()
        } else {
            g
        };
        self.line(&format!("{g}{text}"));
    }

    fn cmp(&mut self) -> &'static str {
        const C: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];
        C[self.below(6) as usize]
    }

    fn int_ty(&mut self) -> &'static str {
        if self.below(2) == 0 {
            "s32"
        } else {
            "u32"
        }
    }

    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L{}", self.labels)
    }

    fn block(&mut self, depth: u32, len: u64) {
        for _ in 0..len {
            match self.below(12) {
                0 if depth < 3 => self.diamond(depth),
                1 if depth < 3 && self.loops < 4 => self.counted_loop(depth),
                _ => self.simple(),
            }
        }
    }

    fn diamond(&mut self, depth: u32) {
        let (els, end) = (self.label(), self.label());
        let p = self.pred();
        let neg = if self.below(2) == 0 { "!" } else { "" };
        self.line(&format!("@{neg}{p} bra {els}"));
        let n = 1 + self.below(4);
        self.block(depth + 1, n);
        let has_else = self.below(2) == 0;
        if has_else {
            self.line(&format!("bra.uni {end}"));
        }
        let _ = writeln!(self.out, "{els}:");
        if has_else {
            let n = 1 + self.below(4);
            self.block(depth + 1, n);
            let _ = writeln!(self.out, "{end}:");
        }
    }

    fn counted_loop(&mut self, depth: u32) {
        // A dedicated counter register keeps the trip count bounded.
        self.loops += 1;
        let ctr = format!("%c{}", self.loops);
        let head = self.label();
        let trips = 1 + self.below(4);
        self.line(&format!("mov.u32 {ctr}, 0"));
        let _ = writeln!(self.out, "{head}:");
        let n = 1 + self.below(5);
        self.block(depth + 1, n);
        self.line(&format!("add.s32 {ctr}, {ctr}, 1"));
        // Data-dependent exit as well, so lanes leave at different times.
        let p = format!("%q{}", self.loops);
        self.line(&format!("setp.lt.u32 {p}, {ctr}, {trips}"));
        self.line(&format!("@{p} bra {head}"));
    }
}

/// Generates the kernel `gen` for `seed`.
pub fn program(seed: u64) -> String {
    generate(
        seed ^ 0x00c0_ffee,
        &[],
        &format!("ptx_eval::gen::program({seed})"),
    )
}

/// Generates a kernel whose choices are read from `script`, one byte per
/// choice, then from a generator seeded by the script: the same program
/// family as [`program`], steered by a fuzzer's bytes so that a mutation
/// changes one choice, not everything after it.
pub fn program_from_bytes(script: &[u8]) -> String {
    let seed = script.iter().fold(script.len() as u64, |h, &b| {
        crate::rng::mix(h ^ u64::from(b))
    });
    generate(seed, script, "ptx_eval::gen::program_from_bytes")
}

fn generate(state: u64, script: &[u8], origin: &str) -> String {
    let mut g = Gen {
        state,
        script,
        out: String::new(),
        labels: 0,
        loops: 0,
    };
    let len = 8 + g.below(40);
    g.block(0, len);
    let body = std::mem::take(&mut g.out);
    let mut s = String::new();
    let _ = writeln!(s, "// generated by {origin}");
    s.push_str(".version 7.0\n.target sm_75\n.address_size 64\n\n");
    s.push_str(".visible .entry gen(.param .u64 gen_out, .param .u32 gen_a, .param .u32 gen_b, .param .u32 gen_c)\n{\n");
    let _ = writeln!(s, "\t.reg .b32 %r<{REGS}>;\n\t.reg .pred %p<{PREDS}>;\n\t.reg .b32 %c<5>;\n\t.reg .pred %q<5>;\n\t.reg .b32 %t<2>;\n\t.reg .pred %s<1>;\n\t.reg .b64 %rd<4>;");
    s.push_str("\tld.param.u64 %rd0, [gen_out];\n\tld.param.u32 %r0, [gen_a];\n\tld.param.u32 %r1, [gen_b];\n\tld.param.u32 %r2, [gen_c];\n\tmov.u32 %r3, %tid.x;\n");
    for r in 4..REGS {
        let _ = writeln!(
            s,
            "\tmad.lo.s32 %r{r}, %r{}, {}, %r3;",
            r % 4,
            r.wrapping_mul(2654435761) % 1000
        );
    }
    // The store address is fixed before the body can overwrite %r3.
    s.push_str("\tmul.wide.u32 %rd1, %r3, 64;\n\tadd.s64 %rd2, %rd0, %rd1;\n");
    for p in 0..PREDS {
        let _ = writeln!(s, "\tsetp.lt.u32 %p{p}, %r{}, %r{};", 4 + p, 8 + p);
    }
    s.push_str(&body);
    for r in 0..REGS {
        let _ = writeln!(s, "\tst.global.u32 [%rd2+{}], %r{r};", 4 * r);
    }
    s.push_str("\tret;\n}\n");
    s
}

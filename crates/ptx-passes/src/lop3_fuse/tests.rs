//! Unit tests: four-input decomposition, truth-table helpers, exhaustive
//! checks of the benchmark pieces.

use super::*;
use ptx_ir::lut::apply32;

fn words() -> [u32; 4] {
    PAT.map(u32::from)
}

#[test]
fn every_four_input_function_decomposes_exactly() {
    let (mut two, mut three) = (0, 0);
    for tt in 0..=u16::MAX {
        if !(0..4).all(|k| depends(tt, k)) {
            continue;
        }
        let d = decompose(tt);
        assert_eq!(
            eval_decomp(d, words().map(u64::from)) as u16,
            tt,
            "{tt:#06x} {d:?}"
        );
        match d {
            Decomp::Two { .. } => two += 1,
            Decomp::Three { .. } => three += 1,
        }
    }
    assert!(two > 0 && three > 0, "{two} {three}");
    // Parity of four is two lop3s.
    let x = words();
    let parity = (x[0] ^ x[1] ^ x[2] ^ x[3]) as u16;
    assert!(matches!(decompose(parity), Decomp::Two { .. }));
}

/// [`compose`] and [`lut3`] against their definitions, entry by entry.
#[test]
fn composition_matches_the_truth_table_definition() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let r = next();
        let p = [
            r as u16,
            (r >> 16) as u16,
            (r >> 32) as u16,
            (r >> 48) as u16,
        ];
        let tt = next() as u16;
        let mut want = 0u16;
        for i in 0..16 {
            let idx = (0..4).fold(0, |a, k| a << 1 | (p[k] >> i) & 1);
            want |= ((tt >> idx) & 1) << i;
        }
        assert_eq!(compose(p, tt), want, "{p:?} {tt:#06x}");
        let l = (tt >> 8) as u8;
        let mut want = 0u16;
        for i in 0..16 {
            let idx = ((p[0] >> i) & 1) << 2 | ((p[1] >> i) & 1) << 1 | ((p[2] >> i) & 1);
            want |= u16::from((l >> idx) & 1) << i;
        }
        assert_eq!(lut3(p[0], p[1], p[2], l), want, "{p:?} {l:#04x}");
    }
}

#[test]
fn truth_table_helpers_agree() {
    for l in 0..=255u8 {
        let tt = lut3(PAT[0], PAT[1], PAT[2], l);
        assert_eq!(lut_of(tt, [0, 1, 2]), l);
        // Swapping a and b in the operands swaps them in the LUT.
        let swapped = lut_of(tt, [1, 0, 2]);
        let w = words();
        assert_eq!(
            apply32(w[1], w[0], w[2], swapped),
            apply32(w[0], w[1], w[2], l)
        );
    }
    assert_eq!(cofactor(PAT[0] & PAT[1], 0, true), PAT[1]);
    assert_eq!(cofactor(PAT[0] & PAT[1], 0, false), 0);
}

fn run(body: &str) -> String {
    run_with(body, Lop3Fuse::default())
}

/// A kernel for sm_80 at PTX `version` whose `body` runs after four words
/// are loaded into `%r1`..`%r4` from `[%rd1]`.
fn kernel(version: &str, body: &str) -> String {
    format!(
        ".version {version}\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b32 %r<200>;\n.reg .b64 %rd<2>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\n\
         ld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n{body}\nret;\n}}\n"
    )
}

/// Runs `pass` on the kernel of `body` with `target` known, as the driver
/// sets it from `.version` and `.target`: whether it changed anything,
/// and the module.
fn run_on_target(body: &str, target: crate::TargetInfo, pass: Lop3Fuse) -> (bool, ptx_ir::Module) {
    let version = format!("{}.{}", target.ptx.0, target.ptx.1);
    let mut m = ptx_parse::parse_module(&kernel(&version, body)).unwrap();
    let f = m.functions_mut().next().unwrap();
    let mut am = AnalysisManager::new();
    am.target = Some(target);
    let mut pass = pass;
    let changed = pass.run(f, &mut am).changed();
    (changed, m)
}

/// `steps` steps of `%r6 ^= (%r5 += k)`, stored: a chain of logic, each
/// step reading a fresh `add`.
fn add_xor_chain(steps: usize) -> String {
    let mut body = String::from("mov.b32 %r6, 0;\n");
    for i in 0..steps {
        body.push_str(&format!(
            "add.s32 %r5, %r5, {};\nxor.b32 %r6, %r6, %r5;\n",
            i % 7 + 1
        ));
    }
    body.push_str("st.global.u32 [%rd1], %r6;");
    body
}

fn run_with(body: &str, pass: Lop3Fuse) -> String {
    let mut m = ptx_parse::parse_module(&kernel("7.0", body)).unwrap();
    for f in m.functions_mut() {
        let before = f.clone();
        let mut pass = pass;
        pass.run(f, &mut AnalysisManager::new());
        assert!(ptx_ir::verify::verify_function(f).is_empty());
        assert!(f.inst_count() <= before.inst_count());
    }
    ptx_ir::write::module_to_string(&m)
}

/// Every piece of every benchmark kernel is checked on all leaf values,
/// and a wrong truth table is caught.
#[test]
fn benchmark_pieces_are_checked_exhaustively() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../ptx-opt/benches/lop3");
    let mut pieces = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "ptx") {
            continue;
        }
        let m = ptx_parse::parse_module(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for f in m.functions() {
            let uses = f.uses();
            for b in f.layout.blocks() {
                let insts: Vec<Inst> = f.layout.block_insts(b).collect();
                let net = build(f, &insts, &uses);
                if net.nodes.is_empty() {
                    continue;
                }
                let (mut best, covered) = map(&net);
                let all_nodes: Vec<usize> = (0..net.nodes.len()).collect();
                let mut scratch: Scratch = (Vec::new(), Vec::new(), Vec::new());
                assert_eq!(
                    check_piece(&net, &best, &covered, &all_nodes, &mut scratch),
                    Checked::Exhaustive,
                    "{}",
                    path.display()
                );
                pieces += 1;
                // Complement a covered output's table.
                let n = (0..net.nodes.len())
                    .rev()
                    .find(|&n| covered[n] > 0 && net.nodes[n].output)
                    .unwrap();
                best[n].tt = !best[n].tt;
                assert_eq!(
                    check_piece(&net, &best, &covered, &all_nodes, &mut scratch),
                    Checked::Differs
                );
            }
        }
    }
    assert!(pieces >= 28, "{pieces}");
}

#[test]
fn four_input_cone_takes_two_lop3s() {
    // (a & b) ^ (c | d) ^ a: five instructions, four inputs.
    let out = run("and.b32 %r5, %r1, %r2;\nor.b32 %r6, %r3, %r4;\nxor.b32 %r7, %r5, %r6;\nxor.b32 %r8, %r7, %r1;\nst.global.u32 [%rd1], %r8;");
    let logic = ["lop3.b32", "and.b32", "or.b32", "xor.b32"]
        .iter()
        .map(|w| out.matches(w).count())
        .sum::<usize>();
    assert_eq!(logic, 2, "{out}");
    assert!(out.contains("lop3.b32"), "{out}");
}

#[test]
fn nothing_to_gain_means_no_change() {
    let src = "lop3.b32 %r5, %r1, %r2, %r3, 0x96;\nst.global.u32 [%rd1], %r5;";
    let out = run(src);
    assert!(
        out.contains("lop3.b32 \t%r5, %r1, %r2, %r3, 0x96;"),
        "{out}"
    );
    // A copy through `and` with all ones is renamed away.
    let out = run("and.b32 %r5, %r1, -1;\nst.global.u32 [%rd1], %r5;");
    assert!(out.contains("st.global.u32 \t[%rd1], %r1;"), "{out}");
}

#[test]
fn equivalent_logic_is_computed_once() {
    // (a & b) | (a & c) and ~(~a | ~(b | c)) are one function, written
    // two ways; its complement ~a | ~(b | c) is a third output.
    let out = run(
        "and.b32 %r5, %r1, %r2;\nand.b32 %r6, %r1, %r3;\nor.b32 %r7, %r5, %r6;\n\
                   st.global.u32 [%rd1], %r7;\n\
                   not.b32 %r8, %r1;\nor.b32 %r9, %r2, %r3;\nnot.b32 %r10, %r9;\n\
                   or.b32 %r11, %r8, %r10;\nnot.b32 %r12, %r11;\n\
                   st.global.u32 [%rd1+4], %r12;\nst.global.u32 [%rd1+8], %r11;",
    );
    let logic = ["lop3.b32", "and.b32", "or.b32", "xor.b32", "not.b32"]
        .iter()
        .map(|w| out.matches(w).count())
        .sum::<usize>();
    // One lop3 for the function, one not for its complement; the second
    // spelling reuses the first.
    assert_eq!(logic, 2, "{out}");
}

/// The network (functional reduction done) of `body`, a kernel's logic
/// after four words are loaded into `%r1`..`%r4` from `[%rd1]`.
fn network(body: &str) -> Network {
    let m = ptx_parse::parse_module(&kernel("7.0", body)).unwrap();
    let f = m.functions().next().unwrap();
    let insts: Vec<Inst> = f
        .layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b).collect::<Vec<_>>())
        .collect();
    build(f, &insts, &f.uses())
}

#[test]
fn equivalences_are_proved_with_their_polarity() {
    let net = network(
        "xor.b32 %r5, %r1, %r2;\nnot.b32 %r6, %r1;\nxor.b32 %r7, %r6, %r2;\nand.b32 %r8, %r1, %r3;\n\
         st.global.u32 [%rd1], %r5;\nst.global.u32 [%rd1+4], %r7;\nst.global.u32 [%rd1+8], %r8;",
    );
    // Nodes: 0 = a ^ b, 1 = ~a, 2 = ~a ^ b (the complement of node 0), 3.
    assert_eq!(net.equiv[2], Some((0, true)), "{:?}", net.equiv);
    assert_eq!(net.equiv.iter().filter(|e| e.is_some()).count(), 1);
}

/// A `not` whose fanin is merged into a class as its complement
/// (`~a | ~b` is `~(a & b)`) must not make a later `not` of the class head
/// itself look equal to the head: the structural-hashing entry the first
/// one leaves is the head's complement, whatever its own polarity.
/// (On a 15,519-node random network this sent the mapping of its one
/// piece to the simulation check, which refused it.)
#[test]
fn a_not_of_a_complemented_class_keeps_the_head_polarity() {
    let net = network(
        "and.b32 %r5, %r1, %r2;\nnot.b32 %r6, %r1;\nnot.b32 %r7, %r2;\nor.b32 %r8, %r6, %r7;\n\
         not.b32 %r9, %r8;\nnot.b32 %r10, %r5;\n\
         st.global.u32 [%rd1], %r5;\nst.global.u32 [%rd1+4], %r9;\nst.global.u32 [%rd1+8], %r10;",
    );
    // Nodes: 0 = a & b, 1 = ~a, 2 = ~b, 3 = ~a | ~b (node 0's
    // complement), 4 = ~node 3 (node 0), 5 = ~node 0.
    assert_eq!(net.equiv[3], Some((0, true)), "{:?}", net.equiv);
    assert_eq!(net.equiv[4], Some((0, false)), "{:?}", net.equiv);
    assert_eq!(net.equiv[5], Some((0, true)), "{:?}", net.equiv);
}

fn logic_count(out: &str) -> usize {
    out.lines()
        .filter(|l| {
            let t = l.trim_start();
            ["lop3.b32", "and.b32", "or.b32", "xor.b32", "not.b32"]
                .iter()
                .any(|w| t.starts_with(w))
        })
        .count()
}

#[test]
fn xor_logic_is_shared_across_outputs() {
    // a^b^c^d, a^b^c^e and a^b^c^f, each chained in its own order: no
    // node is shared as written (three xor4s: six lop3s); the linear
    // stage finds a^b^c once and adds one input per output (four).
    let body = "ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd1+16];\n\
        xor.b32 %r10, %r1, %r4;\nxor.b32 %r11, %r10, %r2;\nxor.b32 %r12, %r11, %r3;\n\
        xor.b32 %r13, %r5, %r3;\nxor.b32 %r14, %r13, %r1;\nxor.b32 %r15, %r14, %r2;\n\
        xor.b32 %r16, %r6, %r2;\nxor.b32 %r17, %r1, %r3;\nxor.b32 %r18, %r16, %r17;\n\
        st.global.v4.u32 [%rd1], {%r12, %r15, %r18, %r8};";
    let plain = run_with(
        body,
        Lop3Fuse {
            no_choices: true,
            ..Lop3Fuse::default()
        },
    );
    assert_eq!(logic_count(&plain), 6, "{plain}");
    let out = run(body);
    assert_eq!(logic_count(&out), 4, "{out}");
}

#[test]
fn balancing_shares_a_priority_chain() {
    // A 12-input priority encoder written as the mux chain a frontend
    // gives (idx = lowest set request): the balanced and-supergates share
    // their prefixes across the four index bits.
    let mut body = String::from("ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd1+16];\nld.global.v4.u32 {%r9, %r10, %r11, %r12}, [%rd1+32];\n");
    let mut reg = 13;
    let mut bits = Vec::new();
    for bit in 0..4 {
        // m = req[11] ? (11 >> bit & 1) : 0, then down to req[0].
        let mut m: Option<String> = None;
        for i in (0..12).rev() {
            let one = (i >> bit) & 1 == 1;
            let r = format!("%r{}", i + 1);
            let next = format!("%r{reg}");
            reg += 1;
            match (&m, one) {
                (None, true) => body.push_str(&format!("mov.b32 {next}, {r};\n")),
                (None, false) => body.push_str(&format!("mov.b32 {next}, 0;\n")),
                (Some(p), true) => body.push_str(&format!("or.b32 {next}, {r}, {p};\n")),
                (Some(p), false) => {
                    let t = format!("%r{reg}");
                    reg += 1;
                    body.push_str(&format!("not.b32 {t}, {r};\nand.b32 {next}, {t}, {p};\n"));
                }
            }
            m = Some(next);
        }
        bits.push(m.unwrap());
    }
    body.push_str(&format!(
        "st.global.v4.u32 [%rd1], {{{}, {}, {}, {}}};",
        bits[0], bits[1], bits[2], bits[3]
    ));
    let body = body.replace("%r<20>", "%r<200>");
    let plain = run_with(
        &body,
        Lop3Fuse {
            no_choices: true,
            ..Lop3Fuse::default()
        },
    );
    let out = run(&body);
    assert!(
        logic_count(&out) < logic_count(&plain),
        "{}\n{out}\n{}\n{plain}",
        logic_count(&out),
        logic_count(&plain)
    );
}

#[test]
fn register_pressure_counts_live_units() {
    // After the load four 32-bit values and the 64-bit pointer are live
    // (six units); the adds only narrow that.
    let src = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\nsetp.ne.s32 %p1, %r1, 0;\nadd.s32 %r5, %r1, %r2;\nadd.s32 %r6, %r3, %r4;\nadd.s32 %r7, %r5, %r6;\n@%p1 st.global.u32 [%rd1], %r7;\nret;\n}\n";
    let m = ptx_parse::parse_module(src).unwrap();
    let f = m.functions().next().unwrap();
    // The predicate counts for nothing: still six.
    assert_eq!(pressure(f), 6);
}

/// What the pass wrote moves to right before its first reader in the
/// block; what it did not write keeps its order.
#[test]
fn written_logic_sits_right_before_its_reader() {
    let out = run("and.b32 %r5, %r1, %r2;\nor.b32 %r6, %r5, %r3;\nadd.s32 %r7, %r4, 1;\nadd.s32 %r8, %r7, %r4;\nst.global.u32 [%rd1], %r6;\nst.global.u32 [%rd1+4], %r8;");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let store = lines
        .iter()
        .position(|l| l.starts_with("st.global.u32") && l.ends_with("%r6;"))
        .expect("the store of the piece");
    assert!(lines[store - 1].starts_with("lop3.b32"), "{out}");
    let first_add = lines.iter().position(|l| l.starts_with("add.s32")).unwrap();
    assert!(first_add < store - 1, "{out}");
    assert_eq!(logic_count(&out), 1, "{out}");
}

/// `skip-small` (the pipelines' form) leaves a debug target alone: ptxas
/// does not optimise it, so any change moves its registers. Plain
/// `lop3-fuse` still maps it.
#[test]
fn skip_small_leaves_a_debug_target_alone() {
    // Four instructions that one lop3 computes.
    let body = "and.b32 %r5, %r1, %r2;\nxor.b32 %r6, %r5, %r3;\nnot.b32 %r7, %r6;\nor.b32 %r8, %r7, %r1;\nst.global.u32 [%rd1], %r8;";
    let debug = crate::TargetInfo {
        sm: 80,
        ptx: (7, 0),
        debug: true,
    };
    for skip_small in [false, true] {
        let pass = Lop3Fuse {
            skip_small,
            ..Lop3Fuse::default()
        };
        let (changed, _) = run_on_target(body, debug, pass);
        assert_eq!(changed, !skip_small, "skip_small = {skip_small}");
    }
}

/// An xor chain wider than a supergate may grow (MAX_LEAVES leaves) is
/// balanced in parts: the gate where the walk stops roots its own
/// supergate (it used to be left without a balanced form).
#[test]
fn a_supergate_past_the_leaf_limit_is_split() {
    let out = run(&add_xor_chain(1_100));
    assert!(logic_count(&out) < 1_100, "{}", logic_count(&out));
}

/// A long chain of logic, each step reading a fresh `add`, is not gathered
/// at its end by the placement (that would keep every `add` live until
/// then): a move passes at most `schedule::MAX_DISTANCE` instructions.
#[test]
fn a_long_chain_is_not_gathered_at_its_end() {
    let out = run(&add_xor_chain(600));
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let last_add = lines
        .iter()
        .rposition(|l| l.starts_with("add.s32"))
        .unwrap();
    let first_logic = lines
        .iter()
        .position(|l| l.starts_with("lop3.b32") || l.starts_with("xor.b32"))
        .unwrap();
    assert!(2 * first_logic < last_add, "{first_logic} {last_add}");
}

/// A lop3 with a predicate output (`d|p`) is not moved past an
/// instruction its predicate guards: the guard is a read.
#[test]
fn placement_sees_a_guard_as_a_read() {
    let body = "and.b32 %r5, %r1, %r2;\nor.b32 %r6, %r5, %r3;\nsetp.ne.b32 %p1, %r6, 0;\n\
                @%p1 st.global.u32 [%rd1], %r4;\nst.global.u32 [%rd1+4], %r6;";
    let target = crate::TargetInfo {
        sm: 80,
        ptx: (8, 2),
        debug: false,
    };
    let (changed, m) = run_on_target(body, target, Lop3Fuse::default());
    assert!(changed);
    let f = m.functions().next().unwrap();
    let errors = ptx_ir::verify::verify_function(f);
    assert!(errors.is_empty(), "{errors:?}");
    let out = ptx_ir::write::module_to_string(&m);
    assert!(out.contains("|%p1"), "{out}");
}

/// Over a small support the functional reduction answers by simulating
/// every assignment: an xor written with and/or (no structural match)
/// equals the plain one, and a near miss is refuted on a row where the
/// two really differ.
#[test]
fn small_supports_are_decided_exhaustively() {
    use super::exhaust::{Exhaust, Verdict};
    // Node 0: a ^ b. Nodes 1-4: (a | b) & ~(a & b), the same function.
    // Node 5: a | b, which differs from a ^ b only where a = b = 1.
    let net = network(
        "xor.b32 %r5, %r1, %r2;\nor.b32 %r6, %r1, %r2;\nand.b32 %r7, %r1, %r2;\nnot.b32 %r8, %r7;\n\
         and.b32 %r9, %r6, %r8;\nor.b32 %r10, %r1, %r2;\n\
         st.global.u32 [%rd1], %r5;\nst.global.u32 [%rd1+4], %r9;\nst.global.u32 [%rd1+8], %r10;",
    );
    assert_eq!(net.equiv[4], Some((0, false)), "{:?}", net.equiv);
    let input = |s: usize| matches!(net.sigs[s], Sig::Leaf(_));
    let mut ex = Exhaust::new(&net, input);
    let (x, y) = (net.node_sig[0], net.node_sig[4]);
    assert!(matches!(
        ex.decide(&net, x, Some((y, false)), false),
        Some(Verdict::Proved)
    ));
    assert!(matches!(
        ex.decide(&net, x, Some((y, true)), false),
        Some(Verdict::Refuted(_))
    ));
    let or = net.node_sig[1];
    let Some(Verdict::Refuted(row)) = ex.decide(&net, x, Some((or, false)), false) else {
        panic!("a ^ b is not a | b");
    };
    // The counterexample sets both inputs to 1.
    assert_eq!(row.len(), 2);
    assert!(row.iter().all(|&(_, v)| v), "{row:?}");
    // Not constant either way.
    assert!(matches!(
        ex.decide(&net, x, None, false),
        Some(Verdict::Refuted(_))
    ));
}

/// The functional reduction is cached by the network's structure: the same
/// logic over other registers is one key, other logic another, and a
/// cached answer is the one the reduction gives.
#[test]
fn reductions_are_cached_by_structure() {
    use super::equiv;
    let logic = |x: &str, y: &str, op: &str| {
        let mut body = String::new();
        // 70 nodes: a chain of pairs, so the cache (64 nodes and up) is used.
        body.push_str(&format!("{op}.b32 %r5, {x}, {y};\n"));
        for k in 0..69 {
            let (d, s) = (6 + k, 5 + k);
            let other = if k % 2 == 0 { x } else { y };
            let op = if k % 3 == 0 { "and" } else { "xor" };
            body.push_str(&format!("{op}.b32 %r{d}, %r{s}, {other};\n"));
        }
        body.push_str("st.global.u32 [%rd1], %r74;");
        network(&body)
    };
    let a = logic("%r1", "%r2", "xor");
    let b = logic("%r3", "%r4", "xor");
    let c = logic("%r1", "%r2", "or");
    assert!(a.nodes.len() >= 64);
    assert_eq!(equiv::structure(&a, false), equiv::structure(&b, false));
    assert_ne!(equiv::structure(&a, false), equiv::structure(&c, false));
    assert_ne!(equiv::structure(&a, false), equiv::structure(&a, true));
    let fresh = equiv::reduce(&a, false);
    for _ in 0..2 {
        let cached = equiv::equivalences(&b, false);
        assert_eq!(cached.equiv, fresh.equiv);
        assert_eq!(cached.constant, fresh.constant);
    }
}

/// Exhaustive answers over more than six inputs (several words a signal):
/// four registers and four immediates (leaves, free to the proof) make
/// eight inputs.
#[test]
fn exhaustive_answers_span_several_words() {
    use super::exhaust::{Exhaust, Verdict};
    // x = (r1 ^ 0x12) & (r2 ^ 0x34) ^ (r3 ^ 0x56) & (r4 ^ 0x78), and the
    // same with the xor of the two products written as or/and/not.
    let net = network(
        "xor.b32 %r5, %r1, 0x12;\nxor.b32 %r6, %r2, 0x34;\nxor.b32 %r7, %r3, 0x56;\nxor.b32 %r8, %r4, 0x78;\n\
         and.b32 %r9, %r5, %r6;\nand.b32 %r10, %r7, %r8;\nxor.b32 %r11, %r9, %r10;\n\
         or.b32 %r12, %r9, %r10;\nand.b32 %r13, %r9, %r10;\nnot.b32 %r14, %r13;\nand.b32 %r15, %r12, %r14;\n\
         or.b32 %r16, %r9, %r7;\n\
         st.global.u32 [%rd1], %r11;\nst.global.u32 [%rd1+4], %r15;\nst.global.u32 [%rd1+8], %r16;",
    );
    let leaves = net
        .sigs
        .iter()
        .filter(|s| matches!(s, Sig::Leaf(_)))
        .count();
    assert!(leaves >= 8, "{leaves} leaves");
    let input = |s: usize| matches!(net.sigs[s], Sig::Leaf(_));
    let mut ex = Exhaust::new(&net, input);
    let sig = |k: usize| net.node_sig[k];
    // Nodes: 0-3 the key xors, 4-5 the products, 6 their xor, 7-10 the
    // or/and/not form of it, 11 an or over different inputs.
    assert!(matches!(
        ex.decide(&net, sig(6), Some((sig(10), false)), false),
        Some(Verdict::Proved)
    ));
    let Some(Verdict::Refuted(row)) = ex.decide(&net, sig(6), Some((sig(11), false)), false) else {
        panic!("the xor of the products is not the or");
    };
    assert!(row.len() > 6, "{row:?}");
    // Asking again gives the same answer: the scratch is left clean.
    assert!(matches!(
        ex.decide(&net, sig(6), Some((sig(10), false)), false),
        Some(Verdict::Proved)
    ));
}

#[test]
fn regrouping_reuses_the_products_a_multiplier_has() {
    // The corner of an array multiplier: the carry of bit 1 is
    // (a1 & b0) & (a0 & b1), both shared with the sum; regrouped as
    // (a1 & b1) & (a0 & b0) it reads two products computed anyway, and
    // bit 2's sum and carry need it no more.
    let body = "ld.global.v2.u32 {%r5, %r6}, [%rd1+16];\n\
        and.b32 %r10, %r1, %r3;\n\
        and.b32 %r11, %r2, %r3;\nand.b32 %r12, %r1, %r4;\n\
        xor.b32 %r13, %r11, %r12;\nand.b32 %r14, %r11, %r12;\n\
        and.b32 %r15, %r2, %r4;\nand.b32 %r16, %r5, %r3;\n\
        xor.b32 %r17, %r15, %r16;\nxor.b32 %r18, %r17, %r14;\n\
        and.b32 %r19, %r15, %r16;\nand.b32 %r20, %r17, %r14;\nor.b32 %r21, %r19, %r20;\n\
        st.global.v4.u32 [%rd1], {%r10, %r13, %r18, %r21};";
    let plain = run_with(
        body,
        Lop3Fuse {
            no_choices: true,
            ..Lop3Fuse::default()
        },
    );
    let out = run(body);
    assert!(
        logic_count(&out) < logic_count(&plain),
        "{}\n{out}\n{}\n{plain}",
        logic_count(&out),
        logic_count(&plain)
    );
}

/// Random logic over the four loaded words: `nodes` and/or/xor/not steps,
/// each over two earlier values, the last eight stored.
fn random_logic(seed: u64, nodes: usize) -> String {
    let mut next = super::xorshift(seed | 1);
    let mut body = String::new();
    for n in 0..nodes {
        let r = 5 + n;
        let pick = |x: u64| 1 + (x % (r as u64 - 1)) as usize;
        let (a, b) = (pick(next()), pick(next()));
        let line = match next() % 7 {
            0 | 1 => format!("and.b32 %r{r}, %r{a}, %r{b};"),
            2 | 3 => format!("or.b32 %r{r}, %r{a}, %r{b};"),
            4 | 5 => format!("xor.b32 %r{r}, %r{a}, %r{b};"),
            _ => format!("not.b32 %r{r}, %r{a};"),
        };
        body.push_str(&line);
        body.push('\n');
    }
    for k in 0..8 {
        body.push_str(&format!(
            "st.global.u32 [%rd1+{}], %r{};\n",
            16 + 4 * k,
            nodes + 4 - k
        ));
    }
    body
}

/// Remapping maps a first cover again: on random logic it finds smaller
/// covers for some seeds, never adds an instruction, leaves no store's
/// operand deeper than in the input, and needs no more registers (as
/// estimated) than the input or the first cover.
#[test]
fn remapping_gains_and_never_deepens_a_reader() {
    let store_depths = |f: &Function| -> Vec<u32> {
        let d = super::remap::reader_depths(f);
        f.layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .filter(|&i| f.op(i).opcode == ptx_ir::Opcode::St)
            .map(|i| d.get(&i).copied().unwrap_or(0))
            .collect()
    };
    let mut gained = 0;
    for seed in 1..=60u64 {
        let mut m = ptx_parse::parse_module(&kernel("7.0", &random_logic(seed, 190))).unwrap();
        let f = m.functions_mut().next().unwrap();
        let input = super::remap::reader_depths(f);
        let (logic, p0) = (super::remap::logic_count(f), super::pressure(f));
        let d0 = store_depths(f);
        let pass = Lop3Fuse::default();
        let (_, written) = pass.fuse(f, None);
        written.place(f);
        let (mapped, p1) = (f.inst_count(), super::pressure(f));
        let refactoring = match seed % 4 {
            0 => Some(Snapshot::Replace),
            2 => Some(Snapshot::Beside),
            _ => None,
        };
        super::remap::remap(&pass, f, None, &input, logic, p0, refactoring);
        assert!(ptx_ir::verify::verify_function(f).is_empty());
        assert!(f.inst_count() <= mapped, "seed {seed}");
        assert!(super::pressure(f) <= p0.max(p1), "seed {seed}");
        gained += usize::from(f.inst_count() < mapped);
        let d1 = store_depths(f);
        assert!(
            d0.iter().zip(&d1).all(|(a, b)| b <= a),
            "seed {seed}: {d0:?} -> {d1:?}"
        );
    }
    assert!(gained > 0, "remapping never found a smaller cover");
}

/// The words `f` stores, every result of an instruction other than
/// `.b32` logic taken as a word drawn from `seed` and the value's number.
fn stored_words(f: &Function, seed: u64) -> Vec<u32> {
    use ptx_ir::{Operand, Value};
    let mut val: FxHashMap<Value, u32> = FxHashMap::default();
    let mut stored = Vec::new();
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let word = |val: &FxHashMap<Value, u32>, o: &Operand| match o {
                Operand::Value(v) => val[v],
                Operand::Imm(imm) => imm.bits as u32,
                _ => 0,
            };
            if let Some((func, srcs)) = super::network::logic_form(f, i) {
                let x: Vec<u32> = srcs.iter().map(|o| word(&val, o)).collect();
                let r = match func {
                    Func::And => x[0] & x[1],
                    Func::Or => x[0] | x[1],
                    Func::Xor => x[0] ^ x[1],
                    Func::Not => !x[0],
                    Func::Lut(l) => apply32(x[0], x[1], x[2], l),
                };
                val.insert(f.inst(i).results[0], r);
            } else if let (ptx_ir::Opcode::Mov, [_, Operand::Imm(imm)]) =
                (f.op(i).opcode, &f.inst(i).operands[..])
            {
                // A constant the cover proved.
                val.insert(f.inst(i).results[0], imm.bits as u32);
            } else if f.op(i).opcode == ptx_ir::Opcode::St {
                let ops = &f.inst(i).operands;
                stored.push(word(&val, ops.last().expect("a stored value")));
            } else {
                for &r in &f.inst(i).results {
                    let mut next = super::xorshift(
                        seed ^ (u64::from(r.as_u32()) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    val.insert(r, next() as u32);
                }
            }
        }
    }
    stored
}

/// The refactored copies compute what the function stores: the one that
/// replaces the logic as it is, the one beside it once mapped (the
/// mapper then picks, per node, between two structures the functional
/// reduction proved equal). Each copy is only ever kept when its cover
/// is smaller, so this checks the rewriting itself.
#[test]
fn the_refactored_copy_stores_the_same_words() {
    let mut rewritten = 0;
    let mut beside_mapped = 0;
    for seed in 1..=40u64 {
        // Every 15th result is redefined by an `add` (a leaf defined in the
        // middle of the block) on odd seeds.
        let mut body = String::new();
        for (k, line) in random_logic(seed, 120).lines().enumerate() {
            body.push_str(line);
            body.push('\n');
            if seed % 2 == 1 && k % 15 == 7 && !line.starts_with("st.") {
                let dst = line
                    .split_whitespace()
                    .nth(1)
                    .unwrap()
                    .trim_end_matches(',');
                body.push_str(&format!("add.s32 {dst}, {dst}, 3;\n"));
            }
        }
        let mut m = ptx_parse::parse_module(&kernel("7.0", &body)).unwrap();
        let f = m.functions_mut().next().unwrap();
        let mut g = f.clone();
        if !super::restructure::refactor_function(&mut g, 16, Snapshot::Replace) {
            continue;
        }
        rewritten += 1;
        assert!(
            ptx_ir::verify::verify_function(&g).is_empty(),
            "seed {seed}"
        );
        for s in 0..4 {
            assert_eq!(stored_words(f, s), stored_words(&g, s), "seed {seed}");
        }
        let mut b = f.clone();
        assert!(super::restructure::refactor_function(
            &mut b,
            16,
            Snapshot::Beside
        ));
        assert!(
            b.inst_count() > f.inst_count(),
            "seed {seed}: nothing beside"
        );
        let (preserved, written) = Lop3Fuse::default().fuse(&mut b, None);
        written.place(&mut b);
        assert!(
            ptx_ir::verify::verify_function(&b).is_empty(),
            "seed {seed}"
        );
        beside_mapped += usize::from(preserved.changed());
        for s in 0..4 {
            assert_eq!(stored_words(f, s), stored_words(&b, s), "seed {seed}");
        }
    }
    assert!(rewritten > 10, "{rewritten} random functions refactored");
    assert!(beside_mapped > 10, "{beside_mapped} copies beside mapped");
}

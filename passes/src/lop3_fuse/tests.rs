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
        assert_eq!(eval_decomp(d, words()) as u16, tt, "{tt:#06x} {d:?}");
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
    let full = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<20>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n{body}\nret;\n}}\n"
    );
    let mut m = ptx_parse::parse_module(&full).unwrap();
    for f in m.functions_mut() {
        let before = f.clone();
        Lop3Fuse::default().run(f, &mut AnalysisManager::new());
        assert!(ptx_ir::verify::verify_function(f).is_empty());
        assert!(f.inst_count() <= before.inst_count());
    }
    ptx_ir::write::module_to_string(&m)
}

/// Every piece of every benchmark kernel is checked on all leaf values,
/// and a wrong truth table is caught.
#[test]
fn benchmark_pieces_are_checked_exhaustively() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/ptx-opt/benches/lop3");
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

#[test]
fn equivalences_are_proved_with_their_polarity() {
    let full = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<20>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n\
        xor.b32 %r5, %r1, %r2;\nnot.b32 %r6, %r1;\nxor.b32 %r7, %r6, %r2;\nand.b32 %r8, %r1, %r3;\n\
        st.global.u32 [%rd1], %r5;\nst.global.u32 [%rd1+4], %r7;\nst.global.u32 [%rd1+8], %r8;\nret;\n}\n";
    let m = ptx_parse::parse_module(full).unwrap();
    let f = m.functions().next().unwrap();
    let insts: Vec<Inst> = f
        .layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b).collect::<Vec<_>>())
        .collect();
    let uses = f.uses();
    let net = build(f, &insts, &uses);
    // Nodes: 0 = a ^ b, 1 = ~a, 2 = ~a ^ b (the complement of node 0), 3.
    assert_eq!(net.equiv[2], Some((0, true)), "{:?}", net.equiv);
    assert_eq!(net.equiv.iter().filter(|e| e.is_some()).count(), 1);
}

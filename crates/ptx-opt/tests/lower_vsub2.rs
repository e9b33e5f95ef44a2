//! `lower-vsub2` is bit-exact: for every vop2 form, the kernel runs in the
//! evaluator before and after on every combination of edge half-words in
//! `a` and `b` (12⁴ = 20,736 pairs) and on random triples; the stored
//! words must be identical, and the vop2 must be gone (except the all-u32
//! plain vadd2/vsub2 over both halves, which stays native because ptxas
//! does it in fewer instructions).

use ptx_opt::process_with;

mod vop2_harness;

use vop2_harness::{
    forms, inputs_from, kernel, kernel_for, lower_config, padded, run, Form, HALVES,
};

/// The test's input seed.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

fn inputs() -> Vec<u32> {
    inputs_with(100_000)
}

/// Every pair of edge half-word pairs, then `random` random triples.
fn inputs_with(random: usize) -> Vec<u32> {
    inputs_from(&HALVES, random, SEED)
}

#[test]
fn every_lowered_form_is_bit_exact() {
    let data = padded(inputs());
    let cfg = lower_config();
    let mut forms = 0;
    for op in ["vadd2", "vsub2"] {
        for d in ["u32", "s32"] {
            for a in ["u32", "s32"] {
                for b in ["u32", "s32"] {
                    for mask in ["", ".h0", ".h1", ".h10"] {
                        let src = kernel(&format!("{op}.{d}.{a}.{b} %r3{mask}, %r1, %r2, %r3;"));
                        let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                        // The all-u32 full-mask form stays native (cheaper).
                        let native = [d, a, b] == ["u32"; 3] && (mask.is_empty() || mask == ".h10");
                        assert_eq!(out.contains(op), native, "{op}.{d}.{a}.{b}{mask}:\n{out}");
                        assert_eq!(run(&src, &data), run(&out, &data), "{op}.{d}.{a}.{b}{mask}");
                        forms += 1;
                    }
                }
            }
        }
    }
    assert_eq!(forms, 64);
}

/// Every other vop2 form — the six operations × eight type triples ×
/// plain/`.sat`/`.add` × four masks, with the default selectors and with a
/// non-default pair — goes through the general lowering, bit-exact on all
/// pairs of edge half-word pairs (12⁴; 6⁴ with other selectors, whose
/// extraction the exhaustive selector test covers) and 1,000 random triples.
#[test]
fn every_vop2_form_is_bit_exact() {
    // Kept short for the default test run; `cargo run --release -p ptx-opt
    // --example vop2-sweep` runs every form on 100,000 random triples.
    let full = padded(inputs_with(1_000));
    let short = padded(inputs_from(&HALVES[..6], 1_000, SEED));
    let cfg = lower_config();
    let sels = [
        ("", ""),
        (".h01", ".h23"),
        (".h32", ".h10"),
        (".h21", ".h03"),
    ];
    let mut forms = 0;
    for (k, op) in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"]
        .iter()
        .enumerate()
    {
        for d in ["u32", "s32"] {
            for a in ["u32", "s32"] {
                for b in ["u32", "s32"] {
                    for mode in ["", ".sat", ".add"] {
                        for mask in ["", ".h0", ".h1", ".h10"] {
                            for (si, (asel, bsel)) in
                                [sels[0], sels[1 + (k + forms) % 3]].into_iter().enumerate()
                            {
                                let inst = format!(
                                    "{op}.{d}.{a}.{b}{mode} %r3{mask}, %r1{asel}, %r2{bsel}, %r3;"
                                );
                                let src = kernel(&inst);
                                let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                                // Native where ptxas is as short (see the pass).
                                let u32_default = si == 0 && [d, a, b] == ["u32"; 3];
                                let both = mask.is_empty() || mask == ".h10";
                                let minmax = *op == "vmin2" || *op == "vmax2";
                                let native = u32_default
                                    && (mode.is_empty() && both && *op != "vabsdiff2"
                                        || minmax && mode == ".add" && mask == ".h0");
                                assert_eq!(out.contains(op), native, "{inst}\n{out}");
                                let data = if si == 0 { &full } else { &short };
                                assert_eq!(run(&src, data), run(&out, data), "{inst}");
                                forms += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(forms, 6 * 8 * 3 * 4 * 2);
}

/// Operand selectors: all 16 × 16 pairs, on a saturating signed form and
/// an unsigned accumulating one, on every pair of edge half-words.
#[test]
fn every_selector_pair_is_bit_exact() {
    let data = padded(inputs_with(0));
    let cfg = lower_config();
    for x in 0..16 {
        for y in 0..16 {
            for form in ["vsub2.s32.s32.u32.sat", "vmax2.u32.u32.s32.add"] {
                let inst = format!(
                    "{form} %r3, %r1.h{}{}, %r2.h{}{}, %r3;",
                    x / 4,
                    x % 4,
                    y / 4,
                    y % 4
                );
                let src = kernel(&inst);
                let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                assert!(!out.contains(form.split('.').next().unwrap()), "{out}");
                assert_eq!(run(&src, &data), run(&out, &data), "{inst}");
            }
        }
    }
}

/// On sm_90 with PTX 8.0 the forms the `.u16x2`/`.s16x2` instructions
/// express use them (one to four instructions), bit-exact on every pair
/// of edge half-word pairs and 10,000 random triples; with PTX 7.8 (no
/// such instructions) none appear.
#[test]
fn simd16x2_forms_on_sm90_are_bit_exact() {
    let data = padded(inputs_with(10_000));
    let cfg = lower_config();
    let mut used = 0;
    for form in forms() {
        let Form { op, a, b, mode, .. } = form;
        for mask in ["", ".h0", ".h1"] {
            let inst = format!("{} %r3{mask}, %r1, %r2, %r3;", form.spelling());
            let minmax = op == "vmin2" || op == "vmax2";
            // .add over both halves: vmin2/vmax2/vabsdiff2 with agreeing
            // sources, summed by dp2a.
            let add16 =
                mode == ".add" && mask.is_empty() && a == b && (minmax || op == "vabsdiff2");
            let expect = add16
                || mode != ".add"
                    && (minmax && a == b || mode.is_empty() && (op == "vadd2" || op == "vsub2"));
            let src = kernel_for(&inst, "8.0", "sm_90");
            let out = process_with(src.as_bytes(), &cfg).unwrap().text;
            assert_eq!(out.contains("16x2"), expect, "{inst}\n{out}");
            if expect {
                assert!(!out.contains(&format!("{op}.")), "{inst}\n{out}");
            }
            assert_eq!(run(&src, &data), run(&out, &data), "{inst}");
            used += expect as u32;
            let old = kernel_for(&inst, "7.8", "sm_90");
            let out = process_with(old.as_bytes(), &cfg).unwrap().text;
            assert!(!out.contains("16x2"), "{inst} with PTX 7.8\n{out}");
        }
    }
    // vadd2, vsub2: 8 type triples × 3 masks; vmin2, vmax2: 4 triples with
    // agreeing sources × plain/.sat × 3 masks; .add over both halves: 3
    // operations × 4 triples.
    assert_eq!(used, 2 * 8 * 3 + 2 * 4 * 2 * 3 + 3 * 4);
}

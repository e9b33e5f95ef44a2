//! Pathological PTX shapes for the reliability tests and the scaling
//! benchmark (`tests/pathological.rs`, `benches/pathological.rs`): each
//! builds a kernel of about `n` instructions that stresses one dimension
//! (nesting, line length, block size, block count, branch fan-in, register
//! count), or a file of about `n` bytes.

#![allow(dead_code)]

use std::fmt::Write;

const HEAD: &str = ".version 7.0\n.target sm_80\n.address_size 64\n\n";

/// A shape: name, what `n` counts, generator.
pub type Shape = (&'static str, &'static str, fn(usize) -> String);

/// Every kernel shape, for the benchmark.
pub const SHAPES: &[Shape] = &[
    ("one block", "instructions", straight),
    ("a label per instruction", "blocks", labels),
    ("branch chain", "cases (4 instructions each)", branch_chain),
    ("nested scopes", "scopes (one instruction each)", nested),
    ("%r<N>", "registers (one instruction each)", registers),
    ("one line", "instructions", one_line),
    ("call sequences", "calls (5 lines each)", calls),
];

fn kernel(decls: &str, body: &str) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 k_out, .param .u32 k_a)\n{{\n{decls}\
         \t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [k_out];\n\tcvta.to.global.u64 %rd2, %rd1;\n{body}\tret;\n}}\n"
    )
}

/// `n` instructions in one block: an add/xor chain ending in a store.
pub fn straight(n: usize) -> String {
    let mut b = String::with_capacity(n * 28);
    b.push_str("\tld.param.u32 %r1, [k_a];\n\tmov.u32 %r2, 0;\n");
    for i in 0..n / 2 {
        let _ = write!(
            b,
            "\tadd.s32 %r1, %r1, {};\n\txor.b32 %r2, %r2, %r1;\n",
            i % 97
        );
    }
    b.push_str("\tst.global.u32 [%rd2], %r2;\n");
    kernel("\t.reg .b32 %r<3>;\n", &b)
}

/// `n` labels, each starting a block of one instruction (fall-through).
pub fn labels(n: usize) -> String {
    let mut b = String::with_capacity(n * 32);
    b.push_str("\tld.param.u32 %r1, [k_a];\n");
    for i in 0..n {
        let _ = write!(b, "$L{i}:\n\tadd.s32 %r1, %r1, {};\n", i % 97);
    }
    b.push_str("\tst.global.u32 [%rd2], %r1;\n");
    kernel("\t.reg .b32 %r<2>;\n", &b)
}

/// A switch lowered to a chain of `n` compare-and-branch cases, every case
/// meeting at one join block (`n` predecessors).
pub fn branch_chain(n: usize) -> String {
    let mut b = String::with_capacity(n * 90);
    b.push_str("\tld.param.u32 %r1, [k_a];\n\tmov.u32 %r2, 0;\n");
    for i in 0..n {
        let _ = write!(b, "\tsetp.eq.s32 %p1, %r1, {i};\n\t@%p1 bra $C{i};\n");
    }
    b.push_str("\tbra.uni $END;\n");
    for i in 0..n {
        let _ = write!(b, "$C{i}:\n\tmov.u32 %r2, {};\n\tbra.uni $END;\n", i * 3);
    }
    b.push_str("$END:\n\tst.global.u32 [%rd2], %r2;\n");
    kernel("\t.reg .b32 %r<3>;\n\t.reg .pred %p<2>;\n", &b)
}

/// `n` nested `{ }` scopes, an instruction in each.
pub fn nested(n: usize) -> String {
    let mut b = String::with_capacity(n * 30);
    b.push_str("\tld.param.u32 %r1, [k_a];\n");
    for _ in 0..n {
        b.push_str("{\n\tadd.s32 %r1, %r1, 1;\n");
    }
    b.push_str(&"}\n".repeat(n));
    b.push_str("\tst.global.u32 [%rd2], %r1;\n");
    kernel("\t.reg .b32 %r<2>;\n", &b)
}

/// `.reg .b32 %r<n>` and an instruction defining each register from the
/// previous one.
pub fn registers(n: usize) -> String {
    let n = n.max(3);
    let mut b = String::with_capacity(n * 28);
    b.push_str("\tld.param.u32 %r1, [k_a];\n");
    for i in 2..n {
        let _ = writeln!(b, "\tadd.s32 %r{i}, %r{}, {};", i - 1, i % 97);
    }
    let _ = writeln!(b, "\tst.global.u32 [%rd2], %r{};", n - 1);
    kernel(&format!("\t.reg .b32 %r<{n}>;\n"), &b)
}

/// `n` instructions on a single line.
pub fn one_line(n: usize) -> String {
    let mut b = String::with_capacity(n * 24);
    b.push_str("\tld.param.u32 %r1, [k_a];\n\t");
    for i in 0..n {
        let _ = write!(b, "add.s32 %r1, %r1, {}; ", i % 97);
    }
    b.push_str("\n\tst.global.u32 [%rd2], %r1;\n");
    kernel("\t.reg .b32 %r<2>;\n", &b)
}

/// `n` calls as compilers write them: each in its own `{ }` scope that
/// declares the same `.param` names again (printed made unique).
pub fn calls(n: usize) -> String {
    let mut b = String::with_capacity(n * 150);
    b.push_str("\tld.param.u32 %r1, [k_a];\n");
    for _ in 0..n {
        b.push_str(
            "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], %r1;\n\t.param .b32 retval0;\n\
             \tcall.uni (retval0), g, (param0);\n\tld.param.b32 %r1, [retval0];\n\t}\n",
        );
    }
    b.push_str("\tst.global.u32 [%rd2], %r1;\n");
    kernel("\t.reg .b32 %r<2>;\n", &b).replacen(
        ".visible .entry",
        ".func (.param .b32 r) g(.param .b32 a)\n{\n\tret;\n}\n\n.visible .entry",
        1,
    )
}

/// A module of at least `bytes` bytes: many small kernels with loops,
/// branches and memory traffic (uniquely named).
pub fn big_file(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str(HEAD);
    let mut k = 0;
    while s.len() < bytes {
        let _ = write!(
            s,
            ".visible .entry k{k}(.param .u64 p, .param .u32 n)\n{{\n\
             \t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<6>;\n\
             \tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\
             \tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, 0;\n\
             $LOOP{k}:\n\tsetp.ge.u32 %p1, %r3, %r1;\n\t@%p1 bra $DONE{k};\n\
             \tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\
             \tld.global.u32 %r4, [%rd4];\n\txor.b32 %r5, %r4, %r2;\n\
             \tand.b32 %r6, %r5, {k};\n\tor.b32 %r7, %r6, %r4;\n\
             \tst.global.u32 [%rd4], %r7;\n\tadd.s32 %r3, %r3, 1;\n\
             \tbra.uni $LOOP{k};\n$DONE{k}:\n\tret;\n}}\n\n"
        );
        k += 1;
    }
    s
}

/// A module of at least `bytes` bytes of real compiler output: the sm_80,
/// 64-bit files of the parser's corpus (llc and llvm-stress) repeated,
/// every copy with its global names renamed.
pub fn corpus_module(bytes: usize) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/ptx-parse/tests/corpus");
    let sources: Vec<String> = ["llc", "stress"]
        .iter()
        .flat_map(|sub| sorted_files(&dir.join(sub)))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|src| src.contains(".target sm_80") && src.contains(".address_size 64"))
        .collect();
    repeated_module(
        &sources,
        ".version 7.0\n.target sm_80\n.address_size 64\n",
        bytes,
    )
}

/// A module of at least `bytes` bytes of nvcc 13.5 output: the sm_80 files
/// of `corpus/real/ptx/nvcc/O3` repeated, every copy with its global names
/// renamed (the peak-memory measure of the round trip on real code).
pub fn nvcc_module(bytes: usize) -> String {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/real/ptx/nvcc/O3");
    let sources: Vec<String> = sorted_files(&dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".sm_80.ptx"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    repeated_module(
        &sources,
        ".version 9.5\n.target sm_80\n.address_size 64\n",
        bytes,
    )
}

/// The files of `dir`, sorted by name.
fn sorted_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// `header`, then the bodies of `sources` (after their `.address_size`)
/// over and over until the module has `bytes` bytes, the global names of
/// copy `c` of source `k` suffixed `_c{c}_{k}`.
fn repeated_module(sources: &[String], header: &str, bytes: usize) -> String {
    let parts: Vec<(&str, Vec<String>)> = sources
        .iter()
        .map(|src| {
            let body = src.split_once(".address_size 64").unwrap().1;
            (body, global_names(src))
        })
        .collect();
    let mut out = String::from(header);
    let mut copy = 0;
    while out.len() < bytes {
        for (k, (body, names)) in parts.iter().enumerate() {
            rename(body, names, &format!("_c{copy}_{k}"), &mut out);
        }
        copy += 1;
    }
    out
}

/// Global names a module declares (functions and variables).
fn global_names(src: &str) -> Vec<String> {
    let m = ptx_parse::parse_module(src).expect("corpus file must parse");
    m.items
        .iter()
        .filter_map(|i| match i {
            ptx_ir::Item::Func(f) => Some(f.name.to_string()),
            ptx_ir::Item::Var(v) => Some(v.name.to_string()),
            _ => None,
        })
        .collect()
}

/// Appends `suffix` to every identifier of `body` that is in `names`.
fn rename(body: &str, names: &[String], suffix: &str, out: &mut String) {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            i = i.max(s + 1);
            let word = &body[s..i];
            out.push_str(word);
            // A word followed by '.' is a mnemonic (nvcc names a shared
            // array `sub`, and `sub.f32` must stay).
            let mnemonic = b.get(i) == Some(&b'.');
            if !mnemonic && names.iter().any(|n| n == word) {
                out.push_str(suffix);
            }
        } else {
            let ch = body[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
}

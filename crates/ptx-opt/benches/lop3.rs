//! The `lop3-fuse` report: `cargo bench -p ptx-opt --bench lop3`.
//!
//! For every kernel in `benches/lop3/*.ptx` (bit-sliced logic written as
//! LLVM IR and compiled by `llc`; `gen.py` regenerates them) it prints:
//! logic instructions before and after the pass, lop3 count and logic
//! depth after; ABC's 3-LUT count and depth for the same netlist (written
//! as BLIF, mapped with `strash; dch -f; if -K 3 -a; mfs2`); and the SASS
//! `LOP3.LUT` count `ptxas -arch=sm_80` produces from the unfused input and
//! from our output. Every rewrite is checked with `--check-each=32`.
//!
//! Tools are found through `ABC` (default `berkeley-abc`), `PTXAS` and
//! `NVDISASM` (default: the copies `scripts/install-bench-tools.sh`
//! installs in `.tools/`); a missing tool prints `-` in its columns.
//! `LOP3_BENCH_DIR=dir` keeps the intermediate files there.
//! `--markdown` prints the table as Markdown for `docs/passes/lop3-fuse.md`.

use ptx_ir::{Function, Inst, Opcode, Operand, Type, Value};
use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn is_logic(f: &Function, i: Inst) -> bool {
    let info = f.op(i);
    matches!(
        info.opcode,
        Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Lop3
    ) && info.last_type() == Some(Type::B32)
}

/// (logic instructions, lop3s, longest logic path).
fn logic_stats(ptx: &str) -> (u32, u32, u32) {
    let m = ptx_parse::parse_module(ptx).expect("bench kernels parse");
    let (mut n, mut l, mut depth) = (0, 0, 0);
    for f in m.functions() {
        let mut d: HashMap<Value, u32> = HashMap::new();
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                if !is_logic(f, i) {
                    continue;
                }
                n += 1;
                l += u32::from(f.op(i).opcode == Opcode::Lop3);
                let data = f.inst(i);
                let mut here = 0;
                for o in &data.operands[1..] {
                    if let Operand::Value(v) = o {
                        here = here.max(d.get(v).copied().unwrap_or(0));
                    }
                }
                for &r in &data.results {
                    d.insert(r, here + 1);
                }
                depth = depth.max(here + 1);
            }
        }
    }
    (n, l, depth)
}

/// The logic of every function as one BLIF model: logic results read by
/// anything else are outputs, other registers and immediates are inputs.
fn blif(ptx: &str) -> String {
    let m = ptx_parse::parse_module(ptx).expect("bench kernels parse");
    let (mut gates, mut inputs, mut outputs) = (String::new(), Vec::new(), Vec::new());
    for (fi, f) in m.functions().enumerate() {
        let name = |v: Value| format!("f{fi}v{}", v.as_u32());
        let mut logic: HashMap<Value, Inst> = HashMap::new();
        let mut read_elsewhere: Vec<Value> = Vec::new();
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                let d = f.inst(i);
                if is_logic(f, i) {
                    logic.insert(d.results[0], i);
                } else {
                    d.for_each_use(|v| read_elsewhere.push(v));
                }
            }
        }
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                if !is_logic(f, i) {
                    continue;
                }
                let d = f.inst(i);
                let mut ins = Vec::new();
                for o in &d.operands[1..] {
                    match o {
                        Operand::Value(v) => {
                            if !logic.contains_key(v) && !inputs.contains(&name(*v)) {
                                inputs.push(name(*v));
                            }
                            ins.push(name(*v));
                        }
                        Operand::Imm(x) if x.bits as u32 == 0 => ins.push("zero".into()),
                        Operand::Imm(x) if x.bits as u32 == u32::MAX => ins.push("one".into()),
                        Operand::Imm(x) => {
                            let k = format!("k{:x}", x.bits as u32);
                            if !inputs.contains(&k) {
                                inputs.push(k.clone());
                            }
                            ins.push(k);
                        }
                        _ => {}
                    }
                }
                let out = name(d.results[0]);
                let rows: Vec<String> = match f.op(i).opcode {
                    Opcode::And => vec!["11 1".into()],
                    Opcode::Or => vec!["1- 1".into(), "-1 1".into()],
                    Opcode::Xor => vec!["10 1".into(), "01 1".into()],
                    Opcode::Not => vec!["0 1".into()],
                    _ => {
                        // lop3: the immediate LUT, minterm by minterm.
                        ins.truncate(3);
                        let lut = match d.operands.get(4) {
                            Some(Operand::Imm(x)) => x.bits as u8,
                            _ => 0,
                        };
                        (0..8)
                            .filter(|k| lut >> k & 1 == 1)
                            .map(|k| format!("{}{}{} 1", k >> 2 & 1, k >> 1 & 1, k & 1))
                            .collect()
                    }
                };
                let _ = writeln!(gates, ".names {} {out}", ins.join(" "));
                for r in rows {
                    let _ = writeln!(gates, "{r}");
                }
                if read_elsewhere.contains(&d.results[0]) {
                    outputs.push(out);
                }
            }
        }
    }
    format!(
        ".model logic\n.inputs {}\n.outputs {}\n.names zero\n.names one\n1\n{gates}.end\n",
        inputs.join(" "),
        outputs.join(" ")
    )
}

fn tool(env: &str, default: &str, probe: &[&str]) -> Option<PathBuf> {
    let p = std::env::var_os(env)
        .map(PathBuf::from)
        .unwrap_or_else(|| default.into());
    let ok = Command::new(&p)
        .args(probe)
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success() || !o.stdout.is_empty() || !o.stderr.is_empty());
    ok.then_some(p)
}

/// ABC's (LUT count, depth) for the netlist.
fn abc(abc: &Path, blif_text: &str, dir: &Path, name: &str) -> Option<(u32, u32)> {
    let file = dir.join(format!("{name}.blif"));
    std::fs::write(&file, blif_text).ok()?;
    let script = format!(
        "read_blif {}; strash; dch -f; if -K 3 -a; mfs2; print_stats",
        file.display()
    );
    let out = Command::new(abc).args(["-c", &script]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |key: &str| -> Option<u32> {
        let at = text.find(key)? + key.len();
        let rest = text[at..].trim_start_matches([' ', '=']);
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    Some((field(" nd =")?, field(" lev =")?))
}

/// SASS `LOP3.LUT` instructions ptxas writes for sm_80.
fn sass_lop3(ptxas: &Path, nvdisasm: &Path, ptx: &str, dir: &Path, name: &str) -> Option<u32> {
    let (src, cubin) = (
        dir.join(format!("{name}.ptx")),
        dir.join(format!("{name}.cubin")),
    );
    std::fs::write(&src, ptx).ok()?;
    let st = Command::new(ptxas)
        .args(["-arch=sm_80", "-o"])
        .arg(&cubin)
        .arg(&src)
        .status()
        .ok()?;
    if !st.success() {
        return None;
    }
    let out = Command::new(nvdisasm).arg("-c").arg(&cubin).output().ok()?;
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.contains("LOP3.LUT"))
            .count() as u32,
    )
}

fn main() {
    let markdown = std::env::args().any(|a| a == "--markdown");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kernels = root.join("benches/lop3");
    let repo = root.join("../..");
    let abc_bin = tool("ABC", "berkeley-abc", &["-c", "quit"]);
    let ptxas = tool(
        "PTXAS",
        &repo
            .join(".tools/cuda/nvidia/cu13/bin/ptxas")
            .to_string_lossy(),
        &["--version"],
    );
    let nvdisasm = tool(
        "NVDISASM",
        &repo
            .join(".tools/cuda/nvidia/cu13/bin/nvdisasm")
            .to_string_lossy(),
        &["--version"],
    );
    // LOP3_BENCH_DIR keeps the BLIF, PTX and cubin files for inspection.
    let keep = std::env::var_os("LOP3_BENCH_DIR").map(PathBuf::from);
    let tmp = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("ptx-opt-lop3-bench-{}", std::process::id()))
    });
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&kernels)
        .expect("benches/lop3")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lop3-fuse").expect("registered"), Vec::new()));
    cfg.instrumentation.check_each = Some(ptx_opt::check_each(32));
    let show = |x: Option<u32>| x.map_or("-".to_string(), |v| v.to_string());
    let header = [
        "kernel", "logic", "after", "lop3", "depth", "abc", "abc-lev", "sass-in", "sass-out",
    ];
    if markdown {
        println!("| {} |", header.join(" | "));
        println!("|{}", "---|".repeat(header.len()));
    } else {
        println!(
            "{:<16} {:>6} {:>6} {:>5} {:>6} {:>5} {:>8} {:>8} {:>9}",
            header[0],
            header[1],
            header[2],
            header[3],
            header[4],
            header[5],
            header[6],
            header[7],
            header[8]
        );
    }
    let mut tot = [0u32; 4];
    let (mut abc_tot, mut sass_in_tot, mut sass_out_tot) = (Some(0u32), Some(0u32), Some(0u32));
    let (mut rounds_ok, mut rounds) = (0, 0);
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(file).expect("readable");
        let out = match process_with(src.as_bytes(), &cfg) {
            Ok(o) => o.text,
            Err((e, log)) => panic!("{name}: {e:?}\n{log}"),
        };
        let (before, _, _) = logic_stats(&src);
        let (after, lop3, depth) = logic_stats(&out);
        let a = abc_bin
            .as_deref()
            .and_then(|p| abc(p, &blif(&src), &tmp, &name));
        let (si, so) = match (&ptxas, &nvdisasm) {
            (Some(p), Some(n)) => (
                sass_lop3(p, n, &src, &tmp, &format!("{name}-in")),
                sass_lop3(p, n, &out, &tmp, &format!("{name}-out")),
            ),
            _ => (None, None),
        };
        if !(name.starts_with("sbox")
            || name.starts_with("random")
            || name.starts_with("adder")
            || name.starts_with("less")
            || name == "keccak_chi")
        {
            rounds += 1;
            rounds_ok += u32::from(after == 1 && lop3 == 1);
        }
        for (t, v) in tot.iter_mut().zip([before, after, lop3, depth]) {
            *t += v;
        }
        abc_tot = abc_tot.zip(a).map(|(t, x)| t + x.0);
        sass_in_tot = sass_in_tot.zip(si).map(|(t, x)| t + x);
        sass_out_tot = sass_out_tot.zip(so).map(|(t, x)| t + x);
        let row = [
            name.clone(),
            before.to_string(),
            after.to_string(),
            lop3.to_string(),
            depth.to_string(),
            show(a.map(|x| x.0)),
            show(a.map(|x| x.1)),
            show(si),
            show(so),
        ];
        if markdown {
            println!("| {} |", row.join(" | "));
        } else {
            println!(
                "{:<16} {:>6} {:>6} {:>5} {:>6} {:>5} {:>8} {:>8} {:>9}",
                row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]
            );
        }
    }
    let total = [
        "total".to_string(),
        tot[0].to_string(),
        tot[1].to_string(),
        tot[2].to_string(),
        tot[3].to_string(),
        show(abc_tot),
        "".into(),
        show(sass_in_tot),
        show(sass_out_tot),
    ];
    if markdown {
        let cells: Vec<String> = total
            .iter()
            .map(|c| {
                if c.is_empty() {
                    String::new()
                } else {
                    format!("**{c}**")
                }
            })
            .collect();
        println!("| {} |", cells.join(" | "));
    } else {
        println!(
            "{:<16} {:>6} {:>6} {:>5} {:>6} {:>5} {:>8} {:>8} {:>9}",
            total[0],
            total[1],
            total[2],
            total[3],
            total[4],
            total[5],
            total[6],
            total[7],
            total[8]
        );
    }
    println!();
    println!("round functions mapped to exactly one lop3: {rounds_ok} of {rounds}");
    if let Some(a) = abc_tot {
        println!(
            "suite total: ours {} vs ABC {a} ({})",
            tot[1],
            if tot[1] <= a {
                "at or below ABC"
            } else {
                "ABOVE ABC"
            }
        );
    }
    if let (Some(i), Some(o)) = (sass_in_tot, sass_out_tot) {
        println!(
            "SASS LOP3.LUT: {o} from our output vs {i} from the unfused input = {:.3}x",
            o as f64 / i.max(1) as f64
        );
    }
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
}

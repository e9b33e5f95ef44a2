//! What ptxas makes of PTX: the SASS instruction count (`nvdisasm -c`,
//! without `NOP`s and the self-branch that ends each kernel) and the
//! registers (`ptxas -v`) of every function, for the SASS report
//! (`cargo bench -p ptx-opt --bench sass`) and the no-regression test.
//!
//! Both counts are deterministic for one ptxas version, so results are
//! cached by the text compiled (`target/sass-cache/`): a pass that changed
//! nothing prints the same text as the round trip, and costs no second
//! ptxas run.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// ptxas and nvdisasm.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The `ptxas` binary.
    pub ptxas: PathBuf,
    /// The `nvdisasm` binary.
    pub nvdisasm: PathBuf,
    /// Where measurements are cached (`None`: not cached).
    pub cache: Option<PathBuf>,
}

impl Tools {
    /// The tools the install scripts put under `root/.tools` (or `$PTXAS`
    /// and `$NVDISASM`), if both run; measurements cached under
    /// `root/target/sass-cache`.
    pub fn find(root: &Path) -> Option<Tools> {
        let pick = |var: &str, rel: &str| -> Option<PathBuf> {
            let p = std::env::var_os(var)
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join(rel));
            Command::new(&p)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| p)
        };
        Some(Tools {
            ptxas: pick("PTXAS", ".tools/cuda/nvidia/cu13/bin/ptxas")?,
            nvdisasm: pick("NVDISASM", ".tools/cuda/nvidia/cu13/bin/nvdisasm")?,
            cache: Some(root.join("target/sass-cache")),
        })
    }
}

/// One function's SASS.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionSass {
    /// Instructions, without `NOP`s and the closing self-branch.
    pub insts: u64,
    /// Registers ptxas reports it uses.
    pub regs: u64,
}

/// A module's SASS, by function name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sass {
    /// Per function (kernels and device functions ptxas kept).
    pub functions: BTreeMap<String, FunctionSass>,
    /// Whether ptxas had to compile relocatable code (`-c`: the module
    /// calls functions it does not define).
    pub relocatable: bool,
}

impl Sass {
    /// Instructions over all functions.
    pub fn insts(&self) -> u64 {
        self.functions.values().map(|f| f.insts).sum()
    }

    /// Registers over all functions (each function's count, summed).
    pub fn regs(&self) -> u64 {
        self.functions.values().map(|f| f.regs).sum()
    }

    /// The functions of `self` with more instructions or registers than
    /// in `base` (by name), or missing from `base`, described.
    pub fn worse_than(&self, base: &Sass) -> Vec<String> {
        let mut out = Vec::new();
        for (name, f) in &self.functions {
            match base.functions.get(name) {
                Some(b) if f.insts > b.insts || f.regs > b.regs => out.push(format!(
                    "{name}: {} -> {} instructions, {} -> {} registers",
                    b.insts, f.insts, b.regs, f.regs
                )),
                Some(_) => {}
                None => out.push(format!("{name}: not in the base")),
            }
        }
        out
    }
}

/// The `.target` a module names first (`sm_90a`), for ptxas's `-arch`.
pub fn target_of(ptx: &str) -> Option<String> {
    ptx.lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|rest| {
            rest.split(|c: char| c == ',' || c.is_whitespace())
                .find(|w| w.starts_with("sm_"))
        })
        .map(str::to_string)
}

/// Compiles `ptx` for `arch` and counts its SASS. `relocatable` asks for
/// `ptxas -c`; `None` tries a whole program first and falls back to `-c`
/// when ptxas reports an unresolved call.
pub fn measure(
    tools: &Tools,
    ptx: &str,
    arch: &str,
    relocatable: Option<bool>,
) -> Result<Sass, String> {
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (ptx, arch, relocatable, "v1").hash(&mut h);
        let mut g = rustc_hash::FxHasher::default();
        (ptx, arch, relocatable).hash(&mut g);
        format!("{:016x}{:016x}", h.finish(), g.finish())
    };
    let cached = tools.cache.as_ref().map(|c| c.join(&key));
    if let Some(text) = cached
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
    {
        if let Some(s) = decode(&text) {
            return Ok(s);
        }
    }
    let s = match relocatable {
        Some(r) => compile(tools, ptx, arch, r)?,
        None => match compile(tools, ptx, arch, false) {
            Ok(s) => s,
            Err(e) if e.contains("nresolved") || e.contains("undefined") => {
                compile(tools, ptx, arch, true)?
            }
            Err(e) => return Err(e),
        },
    };
    if let Some(p) = cached {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // Written whole, then renamed: a concurrent reader never sees half.
        let tmp = p.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, encode(&s)).is_ok() {
            let _ = std::fs::rename(&tmp, &p);
        }
    }
    Ok(s)
}

fn encode(s: &Sass) -> String {
    let mut t = format!("relocatable {}\n", s.relocatable);
    for (n, f) in &s.functions {
        t.push_str(&format!("{} {} {}\n", f.insts, f.regs, n));
    }
    t
}

fn decode(t: &str) -> Option<Sass> {
    let mut lines = t.lines();
    let relocatable = lines.next()?.strip_prefix("relocatable ")?.parse().ok()?;
    let mut functions = BTreeMap::new();
    for l in lines {
        let mut w = l.splitn(3, ' ');
        let insts = w.next()?.parse().ok()?;
        let regs = w.next()?.parse().ok()?;
        functions.insert(w.next()?.to_string(), FunctionSass { insts, regs });
    }
    Some(Sass {
        functions,
        relocatable,
    })
}

fn compile(tools: &Tools, ptx: &str, arch: &str, relocatable: bool) -> Result<Sass, String> {
    let dir = std::env::temp_dir().join(format!(
        "ptx-opt-sass-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let input = dir.join("in.ptx");
    let cubin = dir.join("out.cubin");
    std::fs::write(&input, ptx).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(&tools.ptxas);
    cmd.arg("-v").arg(format!("-arch={arch}"));
    if relocatable {
        cmd.arg("-c");
    }
    let out = cmd
        .arg(&input)
        .arg("-o")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cannot run ptxas: {e}"))?;
    let log =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(format!("ptxas failed: {}", log.trim()));
    }
    let dis = Command::new(&tools.nvdisasm)
        .arg("-c")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cannot run nvdisasm: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if !dis.status.success() {
        return Err(format!(
            "nvdisasm failed: {}",
            String::from_utf8_lossy(&dis.stderr).trim()
        ));
    }
    let mut functions = count_sass(&String::from_utf8_lossy(&dis.stdout));
    for (name, regs) in registers(&log) {
        functions.entry(name).or_default().regs = regs;
    }
    Ok(Sass {
        functions,
        relocatable,
    })
}

/// `Used N registers` per function from `ptxas -v`'s log.
pub fn registers(log: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in log.lines() {
        if let Some(at) = line.find("Compiling ") {
            let rest = &line[at..];
            if let (Some(a), Some(b)) = (rest.find('\''), rest.rfind("' for")) {
                if a < b {
                    current = Some(rest[a + 1..b].to_string());
                }
            }
        } else if let Some(at) = line.find("Used ") {
            let n = line[at + 5..]
                .split_whitespace()
                .next()
                .and_then(|w| w.parse().ok());
            if let (Some(n), Some(name)) = (n, current.take()) {
                if line[at..].contains("registers") {
                    out.push((name, n));
                }
            }
        }
    }
    out
}

/// SASS instructions per function in `nvdisasm -c` output: the lines that
/// hold an instruction (`/*0040*/ ...;`), without `NOP`s and without a
/// branch to the label just before it (the loop that ends a kernel).
pub fn count_sass(listing: &str) -> BTreeMap<String, FunctionSass> {
    let mut out: BTreeMap<String, FunctionSass> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut label: Option<String> = None;
    for line in listing.lines() {
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix(".section")
            .filter(|r| r.starts_with([' ', '\t']))
        {
            // `.section .text.NAME,"ax",@progbits`
            current = rest
                .trim()
                .strip_prefix(".text.")
                .map(|n| n.split(',').next().unwrap_or(n).to_string());
            label = None;
            continue;
        }
        if t.ends_with(':') && !t.starts_with("/*") {
            label = Some(t.trim_end_matches(':').to_string());
            continue;
        }
        let Some(body) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) else {
            continue;
        };
        if !body.0.bytes().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let inst = body.1.trim().trim_end_matches(';').trim();
        let after_label = label.take();
        if inst.is_empty() || inst == "NOP" {
            continue;
        }
        let self_branch = after_label.is_some_and(|l| {
            inst.strip_prefix("BRA")
                .map(|r| r.trim().trim_matches(|c| c == '`' || c == '(' || c == ')'))
                .is_some_and(|target| target == l)
        });
        if self_branch {
            continue;
        }
        if let Some(f) = &current {
            out.entry(f.clone()).or_default().insts += 1;
        }
    }
    out
}

/// The `.ptx` files under `dir`, recursively, in path order.
pub fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs `passes` (pipeline text) over `ptx` as `ptx-opt` does, with the
/// size guard as given; the printed PTX and what leaving SSA added.
pub fn optimize(
    ptx: &str,
    passes: &str,
    size_guard: bool,
) -> Result<(String, crate::OutOfSsaReport), String> {
    let elems = ptx_passes::pipeline::parse(passes)?;
    let cfg = crate::Config {
        passes: ptx_passes::pipeline::resolve(&elems)?,
        size_guard,
        threads: Some(1),
        ..Default::default()
    };
    match crate::process_with(ptx.as_bytes(), &cfg) {
        Ok(o) => Ok((o.text, o.out_of_ssa)),
        Err((crate::Error::Source(d), _)) => Err(d.render("input", ptx.as_bytes())),
        Err((crate::Error::Plain(m), _)) => Err(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_instructions_without_nops_and_the_closing_loop() {
        let listing = "\t.section\t.text.k,\"ax\",@progbits\n\
            \t.sectioninfo\t@\"SHI_REGISTERS=9\"\n\
            k:\n.text.k:\n\
            \x20       /*0000*/                   MOV R1, c[0x0][0x28] ;\n\
            \x20       /*0010*/              @!P0 BRA `(.L_x_0) ;\n\
            .L_x_0:\n\
            \x20       /*0020*/                   EXIT ;\n\
            .L_x_1:\n\
            \x20       /*0030*/                   BRA `(.L_x_1);\n\
            \x20       /*0040*/                   NOP;\n";
        let c = count_sass(listing);
        assert_eq!(c["k"].insts, 3);
    }

    #[test]
    fn reads_registers_per_function() {
        let log = "ptxas info    : Compiling entry function 'k' for 'sm_80'\n\
            ptxas info    : Function properties for k\n\
            \x20   0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
            ptxas info    : Used 9 registers, used 0 barriers, 372 bytes cmem[0]\n";
        assert_eq!(registers(log), vec![("k".to_string(), 9)]);
    }

    #[test]
    fn finds_the_target() {
        assert_eq!(
            target_of(".version 8.8\n.target sm_90a\n").as_deref(),
            Some("sm_90a")
        );
        assert_eq!(
            target_of(".target sm_80, debug\n").as_deref(),
            Some("sm_80")
        );
    }
}

//! `ptx-eval FILE.ptx --case CASE.json [--expect RESULT.json] [limits]`:
//! runs a kernel on the case's buffers and prints the result JSON (see
//! `ptx_eval::case`); `--expect` compares it with another machine's
//! result (`ptx_eval::compare`) and fails when they differ.

use ptx_eval::Limits;
use std::process::ExitCode;

const USAGE: &str =
    "usage: ptx-eval FILE.ptx --case CASE.json [--expect RESULT.json] [--max-steps=N] [--max-memory=BYTES] [--max-ctas=N]

  --expect RESULT.json  compare with another run's result (a GPU's): exact elements bit for
                      bit, .approx results within the bound the result's \"approx\" entries
                      state; exit 1 when an element differs

  --max-steps=N       stop after N thread-instructions (default 10000000000; also --fuel)
  --max-memory=BYTES  global memory written plus what the CTA in flight holds
                      (default 2G; suffixes K, M, G)
  --max-ctas=N        CTAs in the grid (default 1048576)";

/// `N`, `NK`, `NM` or `NG` (powers of 1024).
fn bytes(v: &str) -> Option<u64> {
    let (num, shift) = match v.as_bytes().last()? {
        b'K' | b'k' => (&v[..v.len() - 1], 10),
        b'M' | b'm' => (&v[..v.len() - 1], 20),
        b'G' | b'g' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    num.parse::<u64>().ok()?.checked_mul(1 << shift)
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.contains(": error: ") {
                eprintln!("{e}");
            } else {
                eprintln!("ptx-eval: error: {e}");
            }
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<(), String> {
    let mut file = None;
    let mut case = None;
    let mut expect = None;
    let mut limits = Limits::DEFAULT;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--case" | "-case" => case = Some(value("--case")?),
            "--expect" | "-expect" => expect = Some(value("--expect")?),
            "--max-steps" | "-max-steps" | "--fuel" | "-fuel" => {
                limits.steps = value(&flag)?
                    .parse()
                    .map_err(|_| format!("{flag} takes a step count"))?
            }
            "--max-memory" | "-max-memory" => {
                limits.memory = bytes(&value(&flag)?)
                    .ok_or_else(|| format!("{flag} takes a byte count (K, M, G suffixes)"))?
            }
            "--max-ctas" | "-max-ctas" => {
                limits.ctas = value(&flag)?
                    .parse()
                    .map_err(|_| format!("{flag} takes a CTA count"))?
            }
            "-h" | "--help" | "-help" => {
                println!("{USAGE}");
                return Ok(());
            }
            f if f.starts_with('-') && f != "-" => {
                return Err(format!("unknown option '{f}'\n{USAGE}"))
            }
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("more than one input file\n{USAGE}")),
        }
    }
    let (Some(file), Some(case)) = (file, case) else {
        return Err(USAGE.to_string());
    };
    let src = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
    let module =
        ptx_parse::parse_bytes(&src).map_err(|d| d.render(&file, &src).trim_end().to_string())?;
    let case_text = std::fs::read_to_string(&case).map_err(|e| format!("{case}: {e}"))?;
    let out = ptx_eval::case::run_case_with(&module, &case_text, &limits, 0)
        .map_err(|e| locate(&e, &file, &src))?;
    println!("{out}");
    if let Some(path) = expect {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let theirs: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        let cmp = ptx_eval::compare::compare(&case_text, &out, &theirs)
            .map_err(|e| format!("{path}: {e}"))?;
        for d in cmp.differences.iter().take(20) {
            eprintln!("ptx-eval: {d}");
        }
        eprintln!(
            "ptx-eval: against {path}: {} exact, {} within their .approx bound, {} not compared, {} differ",
            cmp.exact,
            cmp.within_bound,
            cmp.not_compared,
            cmp.differences.len()
        );
        if !cmp.differences.is_empty() {
            return Err(format!("the result differs from {path}"));
        }
    }
    Ok(())
}

/// Turns an `@OFFSET: message` error into `file:line:col: message`.
fn locate(e: &str, file: &str, src: &[u8]) -> String {
    if let Some((pos, msg)) = e.strip_prefix('@').and_then(|r| r.split_once(": ")) {
        if let Ok(pos) = pos.parse::<usize>() {
            let d = ptx_parse::Diagnostic::new(pos, msg);
            return d.render(file, src).trim_end().to_string();
        }
    }
    e.to_string()
}

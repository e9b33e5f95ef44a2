//! `filecheck`: LLVM's FileCheck command line over the `filecheck` library.
//!
//! ```text
//! filecheck [options] CHECK-FILE [--input-file INPUT]
//! ```
//!
//! Options are accepted with one dash or two, with `=VALUE` or a separate
//! value, and are also read from `FILECHECK_OPTS`.

use filecheck::{run, DumpInput, Options};
use std::io::Read;
use std::process::ExitCode;

/// Command-line parsing errors exit with 1, as LLVM's option parser does.
fn usage_error(msg: &str) -> ExitCode {
    eprintln!("FileCheck: {msg}");
    ExitCode::from(1)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = Vec::new();
    if let Ok(env) = std::env::var("FILECHECK_OPTS") {
        args.extend(env.split_whitespace().map(String::from));
    }
    args.extend(std::env::args().skip(1));
    let mut o = Options::default();
    let mut check_file: Option<String> = None;
    let mut input_file = "-".to_string();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        if !a.starts_with('-') || a == "-" {
            if check_file.is_some() {
                return usage_error("Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: FileCheck --help");
            }
            check_file = Some(a);
            continue;
        }
        let flag = a.trim_start_matches('-');
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (flag.to_string(), None),
        };
        // `-DNAME=VALUE` (LLVM takes no separate value after `-D`).
        if let Some(def) = flag.strip_prefix('D') {
            if def.is_empty() {
                return usage_error("for the -D option: requires a value!");
            }
            let Some((name, _)) = def.split_once('=') else {
                eprintln!("Missing equal sign in command-line definition '-D{def}'");
                return ExitCode::from(2);
            };
            if name.is_empty() || name == "#" {
                eprintln!("Empty name in command-line definition '-D{def}'");
                return ExitCode::from(2);
            }
            o.defines.push(def.to_string());
            continue;
        }
        let value = |i: &mut usize| -> Option<String> {
            if let Some(v) = &inline {
                return Some(v.clone());
            }
            let v = args.get(*i).cloned();
            *i += 1;
            v
        };
        let flag_on = |v: &Option<String>| {
            v.as_deref()
                .is_none_or(|v| matches!(v, "true" | "1" | "TRUE" | "True"))
        };
        match name.as_str() {
            "check-prefix" => match value(&mut i) {
                Some(v) => o.check_prefixes.push(v),
                None => return usage_error("option 'check-prefix' requires a value"),
            },
            "check-prefixes" => match value(&mut i) {
                Some(v) => o.check_prefixes.extend(v.split(',').map(String::from)),
                None => return usage_error("option 'check-prefixes' requires a value"),
            },
            "comment-prefixes" => match value(&mut i) {
                Some(v) => o.comment_prefixes.extend(v.split(',').map(String::from)),
                None => return usage_error("option 'comment-prefixes' requires a value"),
            },
            "implicit-check-not" => match value(&mut i) {
                Some(v) => o.implicit_check_not.push(v),
                None => return usage_error("option 'implicit-check-not' requires a value"),
            },
            "input-file" => match value(&mut i) {
                Some(v) => input_file = v,
                None => return usage_error("option 'input-file' requires a value"),
            },
            "dump-input" => match value(&mut i).as_deref() {
                Some("fail") => o.dump_input = DumpInput::Fail,
                Some("always") => o.dump_input = DumpInput::Always,
                Some("never") => o.dump_input = DumpInput::Never,
                Some("help") => {
                    eprintln!("The following description was requested by -dump-input=help to\nexplain the input dump printed by FileCheck.");
                    return ExitCode::SUCCESS;
                }
                _ => return usage_error("invalid value for option 'dump-input'"),
            },
            "dump-input-filter" | "dump-input-context" | "color" => {
                let _ = inline;
            }
            "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = flag_on(&inline),
            "allow-unused-prefixes" => o.allow_unused_prefixes = flag_on(&inline),
            "match-full-lines" => o.match_full_lines = flag_on(&inline),
            "strict-whitespace" => o.strict_whitespace = flag_on(&inline),
            "ignore-case" => o.ignore_case = flag_on(&inline),
            "allow-empty" => o.allow_empty = flag_on(&inline),
            "enable-var-scope" => o.enable_var_scope = flag_on(&inline),
            "v" => o.verbose = o.verbose.max(1),
            "vv" => o.verbose = 2,
            "help" | "h" => {
                println!("USAGE: filecheck [options] <check-file>\n\nOptions: --check-prefix(es), --comment-prefixes, --allow-unused-prefixes, --implicit-check-not, --match-full-lines, --strict-whitespace, --ignore-case, --input-file, -D, --allow-empty, --enable-var-scope, --dump-input, -v");
                return ExitCode::SUCCESS;
            }
            _ => {
                return usage_error(&format!(
                    "Unknown command line argument '{a}'.  Try: 'FileCheck --help'"
                ))
            }
        }
    }
    let Some(check_file) = check_file else {
        return usage_error("Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: FileCheck --help");
    };
    let check_src = match std::fs::read(&check_file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            eprintln!("Could not open check file '{check_file}': {e}");
            return ExitCode::from(2);
        }
    };
    let (input_name, input_src) = if input_file == "-" {
        let mut v = Vec::new();
        if std::io::stdin().read_to_end(&mut v).is_err() {
            eprintln!("Could not open input file '-'");
            return ExitCode::from(2);
        }
        (
            "<stdin>".to_string(),
            String::from_utf8_lossy(&v).into_owned(),
        )
    } else {
        match std::fs::read(&input_file) {
            Ok(b) => (input_file.clone(), String::from_utf8_lossy(&b).into_owned()),
            Err(e) => {
                eprintln!("Could not open input file '{input_file}': {e}");
                return ExitCode::from(2);
            }
        }
    };
    let out = run(&check_file, &check_src, &input_name, &input_src, &o);
    eprint!("{}", out.stderr);
    ExitCode::from(out.code as u8)
}

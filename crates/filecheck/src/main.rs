//! `filecheck`: LLVM's FileCheck command line over the `filecheck` library.
//!
//! ```text
//! filecheck [options] CHECK-FILE [--input-file INPUT]
//! ```
//!
//! Options are accepted with one dash or two, with `=VALUE` or a separate
//! value, and are also read from `FILECHECK_OPTS` (before the command
//! line's own, as LLVM reads them).

use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut argv = std::env::args();
    let argv0 = argv.next().unwrap_or_else(|| "FileCheck".into());
    let mut args: Vec<String> = Vec::new();
    if let Ok(env) = std::env::var("FILECHECK_OPTS") {
        args.extend(env.split_whitespace().map(String::from));
    }
    args.extend(argv);
    // Standard input is read only when a file is `-`.
    let wants_stdin = matches!(filecheck::parse_args(&args),
        Ok(ref inv) if inv.input_file == "-" || inv.check_file == "-");
    let mut stdin = Vec::new();
    if wants_stdin && std::io::stdin().read_to_end(&mut stdin).is_err() {
        eprintln!("Could not open input file '-'");
        return ExitCode::from(2);
    }
    let out = filecheck::run_command_as(&argv0, &args, &stdin);
    print!("{}", out.stdout);
    let _ = std::io::stdout().flush();
    eprint!("{}", out.stderr);
    ExitCode::from(out.code as u8)
}

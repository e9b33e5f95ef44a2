//! `netlist2ptx IN.{aig,aag,blif} [-o OUT.ptx] [--kernel NAME]`: writes a
//! combinational netlist as a bit-sliced PTX kernel (see `ptx_netlist::ptx`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut input, mut output, mut kernel) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" => output = it.next().cloned(),
            "--kernel" => kernel = it.next().cloned(),
            "-h" | "--help" => {
                println!("usage: netlist2ptx IN.{{aig,aag,blif}} [-o OUT.ptx] [--kernel NAME]");
                return ExitCode::SUCCESS;
            }
            _ if input.is_none() => input = Some(a.clone()),
            _ => {
                eprintln!("netlist2ptx: unexpected argument '{a}'");
                return ExitCode::from(2);
            }
        }
    }
    let Some(input) = input else {
        eprintln!("netlist2ptx: no input file (try --help)");
        return ExitCode::from(2);
    };
    let net = match ptx_netlist::read_file(std::path::Path::new(&input)) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("{input}: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let name = kernel.unwrap_or_else(|| "circuit".into());
    let text = ptx_netlist::ptx::to_ptx(&net, &name);
    match output {
        Some(o) => {
            let tmp = format!("{o}.tmp{}", std::process::id());
            if let Err(e) = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &o)) {
                let _ = std::fs::remove_file(&tmp);
                eprintln!("netlist2ptx: cannot write {o}: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}

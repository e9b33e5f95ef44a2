//! Combinational BLIF: `.model`, `.inputs`, `.outputs`, `.names` covers
//! and `.end`, with `\` continuations and `#` comments.
//!
//! Each `.names` cover (ON-set rows with output `1`, or OFF-set rows with
//! output `0`) becomes a sum of products of ANDs; signals may be used
//! before their definition. Latches, subcircuits and library gates are an
//! error. Writing emits one two-input `.names` per AND, in order, with
//! complemented fanins as `0` columns, as ABC's `write_blif` does after
//! `strash`.

use crate::{error, Error, Lit, Netlist, FALSE, TRUE};
use rustc_hash::FxHashMap;

struct Cover {
    line: usize,
    ins: Vec<String>,
    /// Rows: one char per input (`0`, `1`, `-`).
    rows: Vec<Vec<u8>>,
    /// The rows list the OFF-set.
    off: bool,
}

/// Reads the first model of a BLIF file.
pub fn read(text: &str) -> Result<Netlist, Error> {
    let mut name = String::from("blif");
    let (mut inputs, mut outputs): (Vec<String>, Vec<(String, usize)>) = (Vec::new(), Vec::new());
    let mut covers: FxHashMap<String, Cover> = FxHashMap::default();
    let mut current: Option<String> = None;
    // Logical lines (continuations joined), with their first line number.
    let mut logical: Vec<(usize, String)> = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let (body, cont) = match line.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (line, false),
        };
        let entry = pending.get_or_insert_with(|| (k + 1, String::new()));
        entry.1.push(' ');
        entry.1.push_str(body);
        if !cont {
            logical.push(pending.take().expect("set above"));
        }
    }
    logical.extend(pending);
    for (ln, line) in logical {
        let w: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some(&first) = w.first() else { continue };
        if !first.starts_with('.') {
            let Some(out) = &current else {
                return Err(error(ln, "cover row outside a .names"));
            };
            let cover = covers.get_mut(out).expect("current cover exists");
            let (pattern, value) = match (w.len(), cover.ins.len()) {
                (1, 0) => ("", w[0]),
                (2, _) => (w[0], w[1]),
                _ => {
                    return Err(error(
                        ln,
                        "a cover row is an input pattern and an output value",
                    ))
                }
            };
            if pattern.len() != cover.ins.len() || !pattern.bytes().all(|c| b"01-".contains(&c)) {
                return Err(error(
                    ln,
                    format!(
                        "pattern '{pattern}' does not match {} inputs",
                        cover.ins.len()
                    ),
                ));
            }
            let off = match value {
                "1" => false,
                "0" => true,
                _ => return Err(error(ln, format!("output value '{value}' is not 0 or 1"))),
            };
            if !cover.rows.is_empty() && cover.off != off {
                return Err(error(ln, "a cover mixes ON-set and OFF-set rows"));
            }
            cover.off = off;
            cover.rows.push(pattern.as_bytes().to_vec());
            continue;
        }
        current = None;
        match first {
            ".model" => {
                if let Some(n) = w.get(1) {
                    name = n.to_string();
                }
            }
            ".inputs" => inputs.extend(w[1..].iter().map(|s| s.to_string())),
            ".outputs" => outputs.extend(w[1..].iter().map(|s| (s.to_string(), ln))),
            ".names" => {
                let Some((out, ins)) = w[1..].split_last() else {
                    return Err(error(ln, ".names needs an output"));
                };
                let cover = Cover {
                    line: ln,
                    ins: ins.iter().map(|s| s.to_string()).collect(),
                    rows: Vec::new(),
                    off: false,
                };
                if covers.insert(out.to_string(), cover).is_some() {
                    return Err(error(ln, format!("'{out}' is defined twice")));
                }
                current = Some(out.to_string());
            }
            ".end" => break,
            ".latch" | ".subckt" | ".gate" | ".mlatch" => {
                return Err(error(
                    ln,
                    format!("{first} is not supported (combinational .names only)"),
                ))
            }
            ".default_input_arrival"
            | ".default_output_required"
            | ".input_arrival"
            | ".output_required"
            | ".wire_load_slope"
            | ".exdc" => {}
            _ => return Err(error(ln, format!("unknown directive {first}"))),
        }
    }
    let mut net = Netlist::new(&name, inputs.clone());
    let mut lit: FxHashMap<String, Lit> = FxHashMap::default();
    for (k, n) in inputs.iter().enumerate() {
        if lit.insert(n.clone(), net.input(k)).is_some() {
            return Err(error(0, format!("input '{n}' is listed twice")));
        }
        if covers.contains_key(n) {
            return Err(error(
                covers[n].line,
                format!("'{n}' is an input and is defined"),
            ));
        }
    }
    // Define signals depth-first with an explicit stack (deep chains).
    let mut visiting: FxHashMap<String, ()> = FxHashMap::default();
    for (out, ln) in &outputs {
        let mut stack: Vec<String> = vec![out.clone()];
        while let Some(s) = stack.last().cloned() {
            if lit.contains_key(&s) {
                stack.pop();
                continue;
            }
            let Some(cover) = covers.get(&s) else {
                return Err(error(*ln, format!("'{s}' is used but never defined")));
            };
            let missing: Vec<String> = cover
                .ins
                .iter()
                .filter(|i| !lit.contains_key(*i))
                .cloned()
                .collect();
            if missing.is_empty() {
                let ins: Vec<Lit> = cover.ins.iter().map(|i| lit[i]).collect();
                let mut sum = FALSE;
                for row in &cover.rows {
                    let mut prod = TRUE;
                    for (c, &x) in row.iter().zip(&ins) {
                        match c {
                            b'1' => prod = net.and(prod, x),
                            b'0' => prod = net.and(prod, x ^ 1),
                            _ => {}
                        }
                    }
                    sum = net.or(sum, prod);
                }
                lit.insert(s.clone(), sum ^ u32::from(cover.off));
                visiting.remove(&s);
                stack.pop();
            } else {
                if visiting.insert(s.clone(), ()).is_some() {
                    return Err(error(cover.line, format!("'{s}' depends on itself")));
                }
                stack.extend(missing);
            }
        }
    }
    for (out, _) in outputs {
        let l = lit[&out];
        net.outputs.push((out, l));
    }
    Ok(net)
}

/// Writes the netlist as BLIF, one `.names` per AND.
pub fn write(net: &Netlist) -> String {
    use std::fmt::Write as _;
    let base = 1 + net.inputs.len();
    let name = |v: usize| -> String {
        if v == 0 {
            "const0".to_string()
        } else if v < base {
            net.inputs[v - 1].clone()
        } else {
            format!("n{v}")
        }
    };
    let mut s = format!(".model {}\n.inputs", net.name);
    for i in &net.inputs {
        let _ = write!(s, " {i}");
    }
    s.push_str("\n.outputs");
    for (o, _) in &net.outputs {
        let _ = write!(s, " {o}");
    }
    s.push_str("\n.names const0\n");
    for (k, &(a, b)) in net.ands.iter().enumerate() {
        let bit = |l: Lit| if l & 1 == 1 { '0' } else { '1' };
        let _ = writeln!(
            s,
            ".names {} {} {}\n{}{} 1",
            name((a >> 1) as usize),
            name((b >> 1) as usize),
            name(base + k),
            bit(a),
            bit(b)
        );
    }
    for (o, l) in &net.outputs {
        let src = name((l >> 1) as usize);
        if *o == src {
            continue;
        }
        let row = if l & 1 == 1 { "0 1" } else { "1 1" };
        let _ = writeln!(s, ".names {src} {o}\n{row}");
    }
    s.push_str(".end\n");
    s
}

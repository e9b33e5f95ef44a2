//! Cross-check against the project's independent Python model of PTX
//! (`../shared/tools/ptxref.py`): `vectors/ptxref.jsonl` holds its random
//! vectors (regenerate with `vectors/gen.sh`); each one is run through the
//! evaluator and the results must agree bit for bit.

use serde_json::{json, Value as Json};

/// Width of each operand letter of the vector's instruction.
fn widths(v: &Json) -> Vec<(char, u32)> {
    let bits = |key: &str| -> u32 {
        let t = v[key].as_str().unwrap_or("b32");
        if t.ends_with("x2") {
            return 32;
        }
        t.trim_start_matches(char::is_alphabetic).parse().unwrap()
    };
    match v["op"].as_str().unwrap() {
        "bfe" => vec![
            ('a', bits("type")),
            ('b', 32),
            ('c', 32),
            ('d', bits("type")),
        ],
        "bfi" => vec![
            ('a', bits("type")),
            ('b', bits("type")),
            ('c', 32),
            ('d', 32),
            ('f', bits("type")),
        ],
        "setp" => vec![
            ('a', bits("type")),
            ('b', bits("type")),
            ('c', 1),
            ('p', 1),
            ('q', 1),
        ],
        "set" => vec![
            ('a', bits("stype")),
            ('b', bits("stype")),
            ('c', 1),
            ('d', bits("dtype")),
        ],
        "selp" => vec![
            ('a', bits("type")),
            ('b', bits("type")),
            ('c', 1),
            ('d', bits("type")),
        ],
        "slct" => vec![
            ('a', bits("dtype")),
            ('b', bits("dtype")),
            ('c', 32),
            ('d', bits("dtype")),
        ],
        "lop3" if !v["bool"].is_null() => vec![
            ('a', 32),
            ('b', 32),
            ('c', 32),
            ('d', 32),
            ('p', 1),
            ('q', 1),
        ],
        _ => vec![('a', 32), ('b', 32), ('c', 32), ('d', 32)],
    }
}

/// The operand letters written by the instruction.
fn outputs(v: &Json) -> Vec<char> {
    let all: &[char] = match v["op"].as_str().unwrap() {
        "bfi" => &['f'],
        "setp" => &['p', 'q'],
        "lop3" if !v["bool"].is_null() => &['d', 'p'],
        _ => &['d'],
    };
    // A form without a second predicate (scalar f16/bf16 setp) has q null.
    all.iter()
        .copied()
        .filter(|l| !v[l.to_string().as_str()].is_null())
        .collect()
}

fn reg(letter: char, bits: u32) -> String {
    if bits == 1 {
        format!("%p{letter}")
    } else {
        format!("%r{letter}{bits}")
    }
}

/// Replaces the standalone operand letters of `ptx` with registers.
fn rename(ptx: &str, w: &[(char, u32)]) -> String {
    let (head, ops) = ptx.split_once(' ').unwrap();
    let chars: Vec<char> = ops.chars().collect();
    let mut out = String::from(head);
    out.push(' ');
    for (k, &c) in chars.iter().enumerate() {
        let before = k.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(k + 1);
        let alone = !before
            .is_some_and(|b| b.is_alphanumeric() || b == '.' || b == '%' || b == '_')
            && !after.is_some_and(|a| a.is_alphanumeric());
        match w.iter().find(|x| x.0 == c) {
            Some(&(l, bits)) if alone => out.push_str(&reg(l, bits)),
            _ => out.push(c),
        }
    }
    out
}

/// The value of an input letter; `None` when the form does not use it
/// (`setp` without a boolean operation has no `c`).
fn input_value(v: &Json, letter: char) -> Option<u64> {
    let key = if v["op"] == "bfi" && letter == 'd' {
        "d_len".to_string()
    } else {
        letter.to_string()
    };
    match &v[key.as_str()] {
        Json::Bool(b) => Some(*b as u64),
        n => n.as_u64(),
    }
}

fn run_vector(v: &Json) -> Vec<u64> {
    let w = widths(v);
    let outs = outputs(v);
    let mut body = String::new();
    for &(l, bits) in &w {
        body += &if bits == 1 {
            format!("\t.reg .pred {};\n", reg(l, 1))
        } else {
            format!("\t.reg .b{bits} {};\n", reg(l, bits))
        };
    }
    body += "\t.reg .b64 %out, %x;\n\t.reg .b32 %t;\n\tld.param.u64 %out, [out];\n";
    for &(l, bits) in w.iter().filter(|x| !outs.contains(&x.0)) {
        let Some(val) = input_value(v, l) else {
            continue;
        };
        body += &if bits == 1 {
            format!(
                "\tmov.u32 %t, {val};\n\tsetp.ne.u32 {}, %t, 0;\n",
                reg(l, 1)
            )
        } else {
            format!("\tmov.b{bits} {}, {val};\n", reg(l, bits))
        };
    }
    body += &format!("\t{};\n", rename(v["ptx"].as_str().unwrap(), &w));
    for (k, &l) in outs.iter().enumerate() {
        let bits = w.iter().find(|x| x.0 == l).unwrap().1;
        body += &match bits {
            1 => format!("\tselp.u64 %x, 1, 0, {};\n", reg(l, 1)),
            64 => format!("\tmov.b64 %x, {};\n", reg(l, 64)),
            b => format!("\tcvt.u64.u{b} %x, {};\n", reg(l, b)),
        };
        body += &format!("\tst.global.u64 [%out+{}], %x;\n", 8 * k);
    }
    let src = format!(".version 8.2\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n{body}\tret;\n}}\n");
    let module = ptx_parse::parse_module(&src)
        .unwrap_or_else(|d| panic!("{}", d.render("vector", src.as_bytes())));
    let case = json!({"block": [1], "buffers": {"out": {"type": "u64", "zeros": 2}}, "params": [{"buffer": "out"}]});
    let out = ptx_eval::case::run_case(&module, &case.to_string(), 1000)
        .unwrap_or_else(|e| panic!("{}: {e}\n{src}", v["ptx"]));
    out["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .take(outs.len())
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn evaluator_agrees_with_ptxref() {
    let text = include_str!("vectors/ptxref.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        let v: Json = serde_json::from_str(line).unwrap();
        let got = run_vector(&v);
        let want: Vec<u64> = outputs(&v)
            .iter()
            .map(|&l| match &v[l.to_string().as_str()] {
                Json::Bool(b) => *b as u64,
                n => n.as_u64().unwrap(),
            })
            .collect();
        count += 1;
        if got != want {
            failures.push(format!(
                "{}: {line}\n  evaluator {got:x?}, ptxref {want:x?}",
                v["ptx"]
            ));
        }
    }
    assert!(count > 2000, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

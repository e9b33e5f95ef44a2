//! AIGER 1.9 combinational netlists, binary (`aig`) and ASCII (`aag`).
//!
//! Reading accepts the header, inputs, outputs, ANDs and the symbol table
//! (`iK name`, `oK name`); latches, bad-state and constraint sections are
//! an error (the benchmarks are combinational). ASCII files may list ANDs
//! in any order (they are ordered topologically); binary files are
//! ordered by construction. Writing emits binary AIGER with a symbol table.

use crate::{error, Error, Lit, Netlist};

fn header(text: &str) -> Result<(bool, [usize; 5]), Error> {
    let mut w = text.split_ascii_whitespace();
    let binary = match w.next() {
        Some("aig") => true,
        Some("aag") => false,
        _ => return Err(error(1, "not an AIGER file (expected 'aig' or 'aag')")),
    };
    let mut n = [0usize; 5];
    for (k, slot) in n.iter_mut().enumerate() {
        *slot = w
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| error(1, format!("header field {} is not a number", k + 1)))?;
    }
    if w.next().is_some_and(|x| x != "0") {
        return Err(error(
            1,
            "bad-state, constraint and fairness sections are not supported",
        ));
    }
    if n[2] != 0 {
        return Err(error(
            1,
            "latches are not supported (combinational netlists only)",
        ));
    }
    Ok((binary, n))
}

/// Reads an AIGER file (binary or ASCII).
pub fn read(bytes: &[u8]) -> Result<Netlist, Error> {
    let nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let head = std::str::from_utf8(&bytes[..nl]).map_err(|_| error(1, "header is not text"))?;
    let (binary, [m, i, _, o, a]) = header(head)?;
    if m < i + a {
        return Err(error(1, "maximum variable index is below inputs + ANDs"));
    }
    let mut pos = (nl + 1).min(bytes.len());
    let mut line_no = 1;
    let mut next_line = |pos: &mut usize| -> Result<(usize, &str), Error> {
        if *pos >= bytes.len() {
            return Err(error(line_no + 1, "unexpected end of file"));
        }
        let end = bytes[*pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |k| *pos + k);
        let s =
            std::str::from_utf8(&bytes[*pos..end]).map_err(|_| error(line_no + 1, "not text"))?;
        *pos = (end + 1).min(bytes.len());
        line_no += 1;
        Ok((line_no, s.trim()))
    };
    let num = |line: usize, s: &str| -> Result<u32, Error> {
        s.parse::<u32>()
            .map_err(|_| error(line, format!("'{s}' is not a literal")))
    };
    // Raw literal numbering, translated to ours below.
    let mut input_lits = Vec::with_capacity(i);
    if binary {
        input_lits.extend((1..=i as u32).map(|v| 2 * v));
    } else {
        for _ in 0..i {
            let (ln, s) = next_line(&mut pos)?;
            input_lits.push(num(ln, s)?);
        }
    }
    let mut outputs = Vec::with_capacity(o);
    for _ in 0..o {
        let (ln, s) = next_line(&mut pos)?;
        outputs.push((ln, num(ln, s)?));
    }
    let mut ands: Vec<(u32, u32, u32, usize)> = Vec::with_capacity(a);
    if binary {
        let varint = |pos: &mut usize| -> Result<u32, Error> {
            let (mut x, mut shift) = (0u64, 0);
            loop {
                let b = *bytes
                    .get(*pos)
                    .ok_or_else(|| error(0, "unexpected end of the binary AND section"))?;
                *pos += 1;
                x |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 35 {
                    return Err(error(0, "over-long delta in the binary AND section"));
                }
            }
            u32::try_from(x).map_err(|_| error(0, "delta out of range"))
        };
        for k in 0..a {
            let lhs = 2 * (i + 1 + k) as u32;
            let d0 = varint(&mut pos)?;
            let d1 = varint(&mut pos)?;
            let r0 = lhs
                .checked_sub(d0)
                .ok_or_else(|| error(0, format!("AND {k}: delta exceeds its literal")))?;
            let r1 = r0
                .checked_sub(d1)
                .ok_or_else(|| error(0, format!("AND {k}: delta exceeds its literal")))?;
            ands.push((lhs, r0, r1, 0));
        }
    } else {
        for _ in 0..a {
            let (ln, s) = next_line(&mut pos)?;
            let f: Vec<&str> = s.split_ascii_whitespace().collect();
            if f.len() != 3 {
                return Err(error(ln, "an AND line has three literals"));
            }
            ands.push((num(ln, f[0])?, num(ln, f[1])?, num(ln, f[2])?, ln));
        }
    }
    // Symbol table.
    let mut in_names: Vec<Option<String>> = vec![None; i];
    let mut out_names: Vec<Option<String>> = vec![None; o];
    while pos < bytes.len() {
        let Ok((ln, s)) = next_line(&mut pos) else {
            break;
        };
        if s.starts_with('c') && s.len() == 1 {
            break;
        }
        let Some((kind, rest)) = s.split_at_checked(1) else {
            continue;
        };
        let Some((idx, name)) = rest.split_once(' ') else {
            continue;
        };
        let Ok(idx) = idx.parse::<usize>() else {
            continue;
        };
        let slot = match kind {
            "i" => in_names.get_mut(idx),
            "o" => out_names.get_mut(idx),
            _ => None,
        };
        match slot {
            Some(slot) => *slot = Some(name.to_string()),
            None if kind == "i" || kind == "o" => {
                return Err(error(ln, format!("symbol index {idx} out of range")))
            }
            None => {}
        }
    }
    let names: Vec<String> = in_names
        .into_iter()
        .enumerate()
        .map(|(k, n)| n.unwrap_or_else(|| format!("i{k}")))
        .collect();
    let mut net = Netlist::new("aiger", names);
    // Map raw variables to ours.
    let mut map: Vec<Option<Lit>> = vec![None; m + 1];
    map[0] = Some(0);
    for (k, &l) in input_lits.iter().enumerate() {
        let v = (l >> 1) as usize;
        if l & 1 == 1 || v == 0 || v > m || map[v].is_some() {
            return Err(error(2 + k, format!("bad input literal {l}")));
        }
        map[v] = Some(net.input(k));
    }
    let lit = |map: &[Option<Lit>], l: u32| -> Option<Lit> {
        map.get((l >> 1) as usize)
            .copied()
            .flatten()
            .map(|x| x ^ (l & 1))
    };
    // ASCII ANDs may come in any order: repeat until all are placed.
    let mut pending = ands;
    loop {
        let before = pending.len();
        let mut rest = Vec::new();
        for (lhs, r0, r1, ln) in pending {
            let v = (lhs >> 1) as usize;
            if lhs & 1 == 1 || v == 0 || v > m || map[v].is_some() {
                return Err(error(ln, format!("bad AND literal {lhs}")));
            }
            match (lit(&map, r0), lit(&map, r1)) {
                (Some(x), Some(y)) => map[v] = Some(net.and(x, y)),
                _ => rest.push((lhs, r0, r1, ln)),
            }
        }
        if rest.is_empty() {
            break;
        }
        if rest.len() == before {
            return Err(error(
                rest[0].3,
                "AND reads an undefined literal or a cycle",
            ));
        }
        pending = rest;
    }
    for (k, (ln, l)) in outputs.into_iter().enumerate() {
        let x =
            lit(&map, l).ok_or_else(|| error(ln, format!("output literal {l} is undefined")))?;
        let name = out_names[k].take().unwrap_or_else(|| format!("o{k}"));
        net.outputs.push((name, x));
    }
    Ok(net)
}

/// Writes binary AIGER with a symbol table.
pub fn write(net: &Netlist) -> Vec<u8> {
    let (i, a) = (net.inputs.len(), net.ands.len());
    let mut out = format!("aig {} {i} 0 {} {a}\n", i + a, net.outputs.len()).into_bytes();
    for &(_, l) in &net.outputs {
        out.extend_from_slice(format!("{l}\n").as_bytes());
    }
    let varint = |out: &mut Vec<u8>, mut x: u32| {
        while x >= 0x80 {
            out.push((x & 0x7f) as u8 | 0x80);
            x >>= 7;
        }
        out.push(x as u8);
    };
    for (k, &(x, y)) in net.ands.iter().enumerate() {
        let lhs = 2 * (i + 1 + k) as u32;
        let (r0, r1) = if x >= y { (x, y) } else { (y, x) };
        varint(&mut out, lhs - r0);
        varint(&mut out, r0 - r1);
    }
    for (k, n) in net.inputs.iter().enumerate() {
        out.extend_from_slice(format!("i{k} {n}\n").as_bytes());
    }
    for (k, (n, _)) in net.outputs.iter().enumerate() {
        out.extend_from_slice(format!("o{k} {n}\n").as_bytes());
    }
    out.extend_from_slice(format!("c\n{}\n", net.name).as_bytes());
    out
}

//! PTX numeric literals: decimal, hex (`0x`), octal (`0…`), binary (`0b`)
//! integers with an optional `U` suffix; `0f`/`0d` hex floats; decimal
//! floats (`1.5`, `.5`, `1e-3`).

use ptx_ir::{Imm, ImmKind, Interner};

/// Parses an integer literal to its 64-bit value.
pub fn parse_int_literal(text: &str) -> Result<u64, String> {
    match parse_literal(text, false, &mut Interner::default())? {
        Imm {
            kind: ImmKind::Float(_) | ImmKind::F32 | ImmKind::F64,
            ..
        } => Err(format!("invalid immediate '{text}': expected an integer")),
        imm => Ok(imm.bits),
    }
}

fn digits(s: &str, radix: u32, text: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!("invalid immediate '{text}': no digits"));
    }
    let mut v: u64 = 0;
    for c in s.chars() {
        let d = c
            .to_digit(radix)
            .ok_or_else(|| format!("invalid immediate '{text}': bad digit '{c}'"))?;
        v = v
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d as u64))
            .ok_or_else(|| format!("integer immediate '{text}' is too large for 64 bits"))?;
    }
    Ok(v)
}

fn is_float_text(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        mant += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            mant += 1;
        }
    }
    if mant == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

/// Parses a literal token (`neg`: a minus sign was written before it).
pub fn parse_literal(text: &str, neg: bool, syms: &mut Interner) -> Result<Imm, String> {
    // The usual literal: plain decimal digits, no leading zero (octal), too
    // short to overflow. What the general path below gives it, directly.
    let b = text.as_bytes();
    if (1..=18).contains(&b.len())
        && (b[0] != b'0' || b.len() == 1)
        && b.iter().all(u8::is_ascii_digit)
    {
        let mag = b.iter().fold(0u64, |v, &d| v * 10 + (d - b'0') as u64);
        return Ok(Imm {
            bits: if neg { mag.wrapping_neg() } else { mag },
            kind: ImmKind::Dec,
            neg: neg && mag != 0,
            unsigned: false,
        });
    }
    let lower = |p: &str| text.len() >= 2 && text[..2].eq_ignore_ascii_case(p);
    if lower("0f") {
        let h = &text[2..];
        if h.len() != 8 {
            return Err(format!("invalid immediate '{text}': 0f needs 8 hex digits"));
        }
        let bits = digits(h, 16, text)? as u32;
        let bits = if neg { bits ^ 0x8000_0000 } else { bits };
        return Ok(Imm {
            bits: bits as u64,
            kind: ImmKind::F32,
            neg: false,
            unsigned: false,
        });
    }
    if lower("0d") {
        let h = &text[2..];
        if h.len() != 16 {
            return Err(format!(
                "invalid immediate '{text}': 0d needs 16 hex digits"
            ));
        }
        let bits = digits(h, 16, text)?;
        let bits = if neg { bits ^ (1 << 63) } else { bits };
        return Ok(Imm {
            bits,
            kind: ImmKind::F64,
            neg: false,
            unsigned: false,
        });
    }
    if text.contains(['.', 'e', 'E']) && !lower("0x") {
        if !is_float_text(text) {
            return Err(format!("invalid immediate '{text}'"));
        }
        let v: f64 = text
            .parse()
            .map_err(|_| format!("invalid immediate '{text}'"))?;
        let v = if neg { -v } else { v };
        let shown = if neg {
            format!("-{text}")
        } else {
            text.to_string()
        };
        return Ok(Imm {
            bits: v.to_bits(),
            kind: ImmKind::Float(syms.intern(&shown)),
            neg: false,
            unsigned: false,
        });
    }
    let (body, unsigned) = match text.strip_suffix('U') {
        Some(b) => (b, true),
        None => (text, false),
    };
    let (kind, mag) = if lower("0x") {
        (ImmKind::Hex, digits(&body[2..], 16, text)?)
    } else if lower("0b") {
        (ImmKind::Bin, digits(&body[2..], 2, text)?)
    } else if body.len() > 1 && body.starts_with('0') {
        (ImmKind::Oct, digits(&body[1..], 8, text)?)
    } else {
        (ImmKind::Dec, digits(body, 10, text)?)
    };
    if neg && kind == ImmKind::Dec && mag > (1u64 << 63) {
        return Err(format!(
            "integer immediate '-{text}' is too large for 64 bits"
        ));
    }
    let bits = if neg { mag.wrapping_neg() } else { mag };
    Ok(Imm {
        bits,
        kind,
        neg: neg && mag != 0,
        unsigned,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Result<Imm, String> {
        parse_literal(s, false, &mut Interner::default())
    }

    #[test]
    fn notations() {
        assert_eq!(lit("42").unwrap().bits, 42);
        assert_eq!(lit("0x2A").unwrap().bits, 42);
        assert_eq!(lit("052").unwrap().bits, 42);
        assert_eq!(lit("0b101010").unwrap().bits, 42);
        assert!(lit("42U").unwrap().unsigned);
        assert_eq!(lit("0f3F800000").unwrap().bits, 0x3F80_0000);
        assert_eq!(lit("0d3FF0000000000000").unwrap().bits, 1f64.to_bits());
        assert_eq!(lit("1.5").unwrap().bits, 1.5f64.to_bits());
        assert_eq!(lit(".5").unwrap().bits, 0.5f64.to_bits());
        assert_eq!(
            parse_literal("5", true, &mut Interner::default())
                .unwrap()
                .bits,
            (-5i64) as u64
        );
        assert_eq!(lit("18446744073709551615").unwrap().bits, u64::MAX);
    }

    /// Plain decimals take a shortcut: it must agree with the general
    /// path (forced here by a `U` suffix, which only sets `unsigned`).
    #[test]
    fn plain_decimals_agree_with_the_general_path() {
        for text in [
            "0",
            "7",
            "10",
            "42",
            "65535",
            "4294967296",
            "999999999999999999",
        ] {
            for neg in [false, true] {
                let mut syms = Interner::default();
                let fast = parse_literal(text, neg, &mut syms).unwrap();
                let slow = parse_literal(&format!("{text}U"), neg, &mut syms).unwrap();
                assert_eq!(
                    (fast.bits, fast.kind, fast.neg, fast.unsigned),
                    (slow.bits, slow.kind, slow.neg, false),
                    "{text} {neg}"
                );
            }
        }
    }

    #[test]
    fn rejects() {
        for bad in [
            "0x",
            "0xZZ",
            "0b102",
            "09",
            "0f123",
            "1e",
            "18446744073709551616",
        ] {
            assert!(lit(bad).is_err(), "{bad}");
        }
    }
}

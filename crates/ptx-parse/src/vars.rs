//! The structure of a variable declaration (module scope, function body,
//! or parameter), read from its tokens: linkage, space, attributes,
//! alignment, vector width, type, array dimensions and initializer
//! (numbers, addresses `v+8`, `generic(v)` and nested braces). A pointer
//! parameter's `.ptr .global .align 8` describes what it points to and is
//! left out. `None` for a form this does not model; the text is kept
//! either way, and is what prints.

use crate::lexer::{Tok, Token};
use crate::number::parse_literal;
use ptx_ir::{ImmKind, InitElem, Interner, Space, Type, VarDecl, VarType};

/// The declaration `toks` spell (linkage first, no `;`).
pub(crate) fn var_decl(toks: &[Token]) -> Option<VarDecl> {
    let mut d = VarDecl {
        linkage: None,
        space: Space::Global,
        attributes: Vec::new(),
        align: None,
        vector: 1,
        ty: VarType::Opaque("".into()),
        dims: Vec::new(),
        init: None,
    };
    let mut space = None;
    let mut ty = None;
    let mut pointee = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match (t.kind, t.text) {
            (Tok::Dot, ".visible" | ".extern" | ".weak" | ".common") => {
                d.linkage = Some(t.text.into())
            }
            // `.ptr .SPACE .align N`: the pointee's, not the parameter's.
            (Tok::Dot, ".ptr") => pointee = true,
            (Tok::Dot, ".global" | ".const" | ".shared" | ".local") if pointee => {}
            (Tok::Dot, ".align") if pointee => i += 1,
            (Tok::Dot, ".param") => space = Some(Space::Param),
            (Tok::Dot, ".reg") => return None,
            (Tok::Dot, ".global") => space = Some(Space::Global),
            (Tok::Dot, ".const") => space = Some(Space::Const),
            (Tok::Dot, ".shared") => space = Some(Space::Shared),
            (Tok::Dot, ".local") => space = Some(Space::Local),
            (Tok::Dot, ".align") => {
                i += 1;
                d.align = Some(toks.get(i)?.text.parse().ok()?);
            }
            (Tok::Dot, ".attribute") => {
                // `.attribute(.managed)` or `.attribute (.managed, .unified)`.
                i += 1;
                if !toks.get(i)?.is(b'(') {
                    return None;
                }
                i += 1;
                while !toks.get(i)?.is(b')') {
                    if !toks[i].is(b',') {
                        d.attributes.push(toks[i].text.into());
                    }
                    i += 1;
                }
            }
            (Tok::Dot, ".texref" | ".surfref" | ".samplerref") => {
                ty = Some(VarType::Opaque(t.text.into()))
            }
            (Tok::Dot, v) if v.starts_with(".v") && v[2..].parse::<u32>().is_ok() => {
                d.vector = v[2..].parse().ok()?
            }
            (Tok::Dot, w) => ty = Some(VarType::Scalar(Type::from_name(&w[1..])?)),
            (Tok::Ident, _) => break,
            _ => return None,
        }
        i += 1;
    }
    d.space = space?;
    d.ty = ty?;
    // The name, then dimensions.
    i += 1;
    while toks.get(i).is_some_and(|t| t.is(b'[')) {
        let n = toks.get(i + 1)?;
        if n.is(b']') {
            d.dims.push(None);
            i += 2;
            continue;
        }
        d.dims
            .push(Some(crate::number::parse_int_literal(n.text).ok()?));
        if !toks.get(i + 2)?.is(b']') {
            return None;
        }
        i += 3;
    }
    if i == toks.len() {
        return Some(d);
    }
    if !toks[i].is(b'=') {
        return None;
    }
    let rest = &toks[i + 1..];
    let mut k = 0;
    let elems = if rest.first()?.is(b'{') {
        match list(rest, &mut k)? {
            InitElem::List(v) => v,
            e => vec![e],
        }
    } else {
        vec![element(rest, &mut k)?]
    };
    if k != rest.len() {
        return None;
    }
    d.init = Some(elems);
    Some(d)
}

/// `{ e, e, … }` from `toks[*k]`.
fn list(toks: &[Token], k: &mut usize) -> Option<InitElem> {
    *k += 1;
    let mut out = Vec::new();
    loop {
        let t = toks.get(*k)?;
        if t.is(b'}') {
            *k += 1;
            return Some(InitElem::List(out));
        }
        if t.is(b',') {
            *k += 1;
            continue;
        }
        out.push(if t.is(b'{') {
            list(toks, k)?
        } else {
            element(toks, k)?
        });
    }
}

/// One element: a number (with an optional sign), `v`, `v+N`,
/// `generic(v)`, `generic(v)+N`; anything else up to the next `,`/`}` as
/// text.
fn element(toks: &[Token], k: &mut usize) -> Option<InitElem> {
    let start = *k;
    let t = toks.get(*k)?;
    let neg = t.is(b'-');
    if neg || t.is(b'+') {
        *k += 1;
    }
    let t = toks.get(*k)?;
    if t.kind == Tok::Number {
        *k += 1;
        let imm = parse_literal(t.text, neg, &mut Interner::default()).ok()?;
        return Some(match imm.kind {
            ImmKind::F32 => InitElem::F32(imm.bits as u32),
            ImmKind::F64 | ImmKind::Float(_) => InitElem::F64(f64::from_bits(imm.bits)),
            _ => InitElem::Int(imm.bits),
        });
    }
    let (symbol, generic) = if t.kind == Tok::Ident
        && t.text == "generic"
        && toks.get(*k + 1).is_some_and(|p| p.is(b'('))
    {
        let s = toks.get(*k + 2)?;
        if !toks.get(*k + 3)?.is(b')') {
            return None;
        }
        *k += 4;
        (s.text, true)
    } else if t.kind == Tok::Ident && !neg {
        *k += 1;
        (t.text, false)
    } else {
        // Not modelled: keep the text up to the element's end.
        while toks.get(*k).is_some_and(|t| !t.is(b',') && !t.is(b'}')) {
            *k += 1;
        }
        let text = toks[start..*k]
            .iter()
            .map(|t| t.text)
            .collect::<Vec<_>>()
            .join(" ");
        return Some(InitElem::Other(text.into()));
    };
    let mut offset = 0i64;
    if toks.get(*k).is_some_and(|t| t.is(b'+') || t.is(b'-')) {
        let minus = toks[*k].is(b'-');
        let n = toks.get(*k + 1)?;
        let v = crate::number::parse_int_literal(n.text).ok()? as i64;
        offset = if minus { -v } else { v };
        *k += 2;
    }
    Some(InitElem::Address {
        symbol: symbol.into(),
        offset,
        generic,
    })
}

//! Memory layout: parameter blocks, `.shared`/`.local` declarations,
//! module variables with their initialisers, and per-thread frames.

use super::*;

/// Type, size and alignment of a declaration text (`.param .align 8 .b8
/// x[16]`, `.shared .u32 s[4]`).
pub(super) fn decl_layout(text: &str) -> (u64, u64) {
    let mut elem = 4u64;
    let mut align = 0u64;
    let mut count = 1u64;
    let mut toks = text.split_whitespace().peekable();
    while let Some(t) = toks.next() {
        if t == ".align" {
            align = toks.next().and_then(|a| a.parse().ok()).unwrap_or(0);
        } else if let Some(ty) = t.strip_prefix('.').and_then(Type::from_name) {
            elem = (ty.bits() as u64).div_ceil(8).max(1);
        } else if let Some(n) = t.strip_prefix(".v") {
            // Vector variables: `.v2 .f32 x`.
            count = count.saturating_mul(n.parse::<u64>().unwrap_or(1));
        }
        for dim in t.split('[').skip(1) {
            let n = dim.trim_end_matches([']', ';', '=']).trim();
            count =
                count.saturating_mul(n.parse::<u64>().unwrap_or(if n.is_empty() { 0 } else { 1 }));
        }
    }
    // Sizes saturate: a declaration too big for memory is refused by the
    // memory limit when something is placed in it, not by an overflow.
    (
        elem.saturating_mul(count),
        if align == 0 { elem } else { align },
    )
}

/// The name declared by a declaration text: the identifier after the types.
pub(super) fn decl_name(text: &str) -> Option<&str> {
    let head = text.split('=').next()?;
    head.split_whitespace()
        .filter(|t| !t.starts_with('.') && t.parse::<u64>().is_err())
        .map(|t| t.split('[').next().unwrap_or(t))
        .next_back()
}

/// Offset and size of each kernel parameter in the param block, in
/// declaration order with each parameter at its natural (or `.align`)
/// alignment, as the CUDA driver lays them out; and the block's size.
pub fn param_layout(f: &Function) -> (Vec<(u64, u64)>, u64) {
    let (placed, size) = place(f.params.iter().flatten().map(|p| &*p.text));
    (
        placed.into_iter().map(|(_, off, len)| (off, len)).collect(),
        size,
    )
}

/// Places declarations one after another at their alignment: each
/// declaration with its offset and size, and the total size.
pub(super) fn place<'a>(decls: impl Iterator<Item = &'a str>) -> (Vec<(&'a str, u64, u64)>, u64) {
    let mut off = 0u64;
    let mut out = Vec::new();
    for d in decls {
        let (size, align) = decl_layout(d);
        let align = align.clamp(1, 1 << 32);
        off = off.div_ceil(align).saturating_mul(align);
        out.push((d, off, size));
        off = off.saturating_add(size.max(1));
    }
    (out, off)
}

/// Lays out declarations: name → offset; returns the total size.
pub(super) fn layout<'a>(
    decls: impl Iterator<Item = &'a str>,
    out: &mut FxHashMap<String, u64>,
) -> u64 {
    let (placed, size) = place(decls);
    for (d, off, _) in placed {
        if let Some(n) = decl_name(d) {
            out.insert(n.to_string(), off);
        }
    }
    size
}

/// The `.shared` declarations a kernel sees: the module's and its own.
pub(super) fn shared_decls<'a>(
    module: &'a Module,
    f: &'a Function,
) -> impl Iterator<Item = &'a str> {
    module
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Var(v) if v.text.split_whitespace().any(|w| w == ".shared") => Some(&*v.text),
            _ => None,
        })
        .chain(
            f.decls
                .iter()
                .map(|d| &**d)
                .filter(|d| d.starts_with(".shared")),
        )
}

/// The dynamic shared memory a launch of kernel `f` gets: when the module
/// declares an `extern .shared` array, 32 KiB or what brings the kernel's
/// shared memory to 48 KiB (the most any GPU gives without opting in),
/// whichever is less; else none.
/// The GPU runner launches with the same amount.
pub fn dynamic_shared_bytes(module: &Module, f: &Function) -> u32 {
    let dynamic = module.items.iter().any(|i| {
        matches!(i, Item::Var(v) if {
            let mut w = v.text.split_whitespace();
            w.clone().any(|w| w == ".extern") && w.any(|w| w == ".shared")
        })
    });
    if !dynamic {
        return 0;
    }
    let static_size = layout(shared_decls(module, f), &mut FxHashMap::default());
    // At most 32 KiB: ptxas may lay the static variables out larger than
    // this count, and a launch over 48 KiB in all is refused.
    (48 * 1024u64).saturating_sub(static_size).min(32 * 1024) as u32
}

/// One initializer element: an integer, a float (`0f…`, `0d…`, `1.5`)
/// converted to the variable's type, or a variable's address plus an
/// offset (`gtable+8`).
pub(super) fn init_value(
    text: &str,
    ty: Option<Type>,
    symbols: &FxHashMap<String, u64>,
) -> Option<u64> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, text),
    };
    if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '%') {
        let (name, off) = match t.split_once('+') {
            Some((n, o)) => (
                n.trim(),
                ptx_parse::number::parse_int_literal(o.trim()).ok()?,
            ),
            None => (t, 0),
        };
        return Some(symbols.get(name)?.wrapping_add(off));
    }
    let imm = ptx_parse::number::parse_literal(t, neg, &mut Default::default()).ok()?;
    let as_f64 = match imm.kind {
        ImmKind::F32 => Some(f32::from_bits(imm.bits as u32) as f64),
        ImmKind::F64 | ImmKind::Float(_) => Some(f64::from_bits(imm.bits)),
        _ => None,
    };
    Some(match (as_f64, ty) {
        (Some(x), Some(Type::F32)) => (x as f32).to_bits() as u64,
        (Some(x), Some(Type::F64)) => x.to_bits(),
        (Some(_), _) if imm.kind == ImmKind::F32 => imm.bits,
        _ => imm.bits,
    })
}

/// Whether two of one instruction's `(address, value)` writes hit the same
/// address with different values (sorts `seen`).
pub(super) fn conflicting(seen: &mut [(u64, u128)]) -> bool {
    // Lanes usually write increasing addresses: nothing to sort then.
    if seen.windows(2).all(|p| p[0].0 < p[1].0) {
        return false;
    }
    seen.sort_unstable();
    seen.windows(2)
        .any(|p| p[0].0 == p[1].0 && p[0].1 != p[1].1)
}

/// Allocates module variables in global memory, with their initializers.
pub(super) fn place_module_vars(module: &Module, m: &mut Machine) -> Result<(), EvalError> {
    for item in &module.items {
        let Item::Var(v) = item else { continue };
        let t = &*v.text;
        let space = t
            .split_whitespace()
            .find(|w| matches!(*w, ".global" | ".const"));
        if space.is_none() || m.symbols.contains_key(&*v.name) {
            continue;
        }
        let (size, _) = decl_layout(t);
        let addr = m.global.alloc(size);
        m.symbols.insert(v.name.to_string(), addr);
        if let Some((head, init)) = t.split_once('=') {
            let ty = head
                .split_whitespace()
                .find_map(|w| w.strip_prefix('.').and_then(Type::from_name));
            let ty_bytes = ty.map_or(1, |ty| (ty.bits() as u64).div_ceil(8));
            // Every element keeps its place: one that cannot be read is 0.
            let vals: Vec<u64> = init
                .split([',', '{', '}'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| init_value(s, ty, &m.symbols).unwrap_or(0))
                .collect();
            for (k, val) in vals.iter().enumerate() {
                let at = addr.saturating_add(k as u64 * ty_bytes);
                if m.global.write(at, ty_bytes, *val as u128) == Err(Fault::MemoryLimit) {
                    let what = format!("the initializer of '{}'", v.name);
                    return Err(m.memory_limit(u32::MAX, &what));
                }
            }
        }
    }
    Ok(())
}

/// Offset of a frame's own parameters in the param state space: a kernel's
/// parameters (one block for the launch) lie below it; call-site `.param`
/// variables, and a device function's parameters and return values, are
/// per thread, at `FRAME` and up.
pub(super) const FRAME: u64 = 1 << 24;

/// Lays out per-thread parameters: names → offsets from [`FRAME`] up;
/// returns the frame's size.
pub(super) fn frame_layout<'a>(
    decls: impl Iterator<Item = &'a str>,
    out: &mut FxHashMap<String, u64>,
) -> u64 {
    let mut at = FxHashMap::default();
    let size = layout(decls, &mut at);
    out.extend(at.into_iter().map(|(k, v)| (k, FRAME + v)));
    size
}

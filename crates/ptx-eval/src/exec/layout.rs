//! Memory layout: parameter blocks, `.shared`/`.local` declarations,
//! module variables with their initialisers, and per-thread frames.

use super::*;

/// Something to lay out: its name, size and alignment.
#[derive(Clone, Copy)]
pub(super) struct Decl<'a> {
    pub(super) name: Option<&'a str>,
    pub(super) size: u64,
    pub(super) align: u64,
}

impl<'a> Decl<'a> {
    /// A declaration's structure, under `name`.
    fn of(name: &'a str, d: &VarDecl) -> Decl<'a> {
        Decl {
            name: Some(name),
            size: d.size(),
            align: d.alignment(),
        }
    }

    /// A module variable.
    pub(super) fn var(v: &'a GlobalVar) -> Option<Decl<'a>> {
        Some(Decl::of(&v.name, v.decl.as_ref()?))
    }

    /// A declaration in a function body (`None` for registers and
    /// branch tables).
    pub(super) fn body(d: &'a BodyDecl) -> Option<Decl<'a>> {
        let (name, v) = d.var.as_ref()?;
        Some(Decl::of(name, v))
    }

    /// A parameter or return value. A `.reg` parameter has no declared
    /// memory; it takes its type's size in the frame (a register is at
    /// most 8 bytes).
    pub(super) fn param(p: &'a ParamDecl) -> Decl<'a> {
        match &p.decl {
            Some(d) => Decl::of(&p.name, d),
            None => {
                let bytes = p
                    .text
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix('.').and_then(Type::from_name))
                    .map_or(8, |t| (t.bits() as u64).div_ceil(8).max(1));
                Decl {
                    name: Some(&p.name),
                    size: bytes,
                    align: bytes,
                }
            }
        }
    }
}

/// Offset and size of each kernel parameter in the param block, in
/// declaration order with each parameter at its natural (or `.align`)
/// alignment, as the CUDA driver lays them out; and the block's size.
pub fn param_layout(f: &Function) -> (Vec<(u64, u64)>, u64) {
    let (placed, size) = place(f.params.iter().flatten().map(Decl::param));
    (
        placed.into_iter().map(|(d, off)| (off, d.size)).collect(),
        size,
    )
}

/// Places declarations one after another at their alignment: each
/// declaration with its offset, and the total size.
pub(super) fn place<'a>(decls: impl Iterator<Item = Decl<'a>>) -> (Vec<(Decl<'a>, u64)>, u64) {
    let mut off = 0u64;
    let mut out = Vec::new();
    for d in decls {
        let align = d.align.clamp(1, 1 << 32);
        off = off.div_ceil(align).saturating_mul(align);
        out.push((d, off));
        off = off.saturating_add(d.size.max(1));
    }
    (out, off)
}

/// Lays out declarations: name → offset; returns the total size.
pub(super) fn layout<'a>(
    decls: impl Iterator<Item = Decl<'a>>,
    out: &mut FxHashMap<String, u64>,
) -> u64 {
    let (placed, size) = place(decls);
    for (d, off) in placed {
        if let Some(n) = d.name {
            out.insert(n.to_string(), off);
        }
    }
    size
}

/// The `.shared` variables a kernel sees: the module's and its own.
pub(super) fn shared_decls<'a>(
    module: &'a Module,
    f: &'a Function,
) -> impl Iterator<Item = Decl<'a>> {
    module
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Var(v) if v.decl.as_ref().is_some_and(|d| d.space == Space::Shared) => {
                Decl::var(v)
            }
            _ => None,
        })
        .chain(f.decls.iter().filter_map(|d| match &d.var {
            Some((_, v)) if v.space == Space::Shared => Decl::body(d),
            _ => None,
        }))
}

/// The dynamic shared memory a launch of kernel `f` gets: when the module
/// declares an `extern .shared` array, 32 KiB or what brings the kernel's
/// shared memory to 48 KiB (the most any GPU gives without opting in),
/// whichever is less; else none.
/// The GPU runner launches with the same amount.
pub fn dynamic_shared_bytes(module: &Module, f: &Function) -> u32 {
    let dynamic = module.items.iter().any(|i| {
        matches!(i, Item::Var(GlobalVar { decl: Some(d), .. })
            if d.space == Space::Shared && d.linkage.as_deref() == Some(".extern"))
    });
    if !dynamic {
        return 0;
    }
    let static_size = layout(shared_decls(module, f), &mut FxHashMap::default());
    // At most 32 KiB: ptxas may lay the static variables out larger than
    // this count, and a launch over 48 KiB in all is refused.
    (48 * 1024u64).saturating_sub(static_size).min(32 * 1024) as u32
}

/// One initializer element's bits for an element of type `ty`: integers
/// as written, floats converted to the element's float type, a variable's
/// address plus its offset (`generic(v)` is the same address: global
/// addresses are generic ones here).
pub(super) fn init_value(
    e: &InitElem,
    ty: Option<Type>,
    symbols: &FxHashMap<String, u64>,
) -> Option<u64> {
    Some(match (e, ty) {
        (InitElem::Int(v), _) => *v,
        (InitElem::F32(b), Some(Type::F64)) => (f32::from_bits(*b) as f64).to_bits(),
        (InitElem::F32(b), _) => *b as u64,
        (InitElem::F64(x), Some(Type::F32)) => (*x as f32).to_bits() as u64,
        (InitElem::F64(x), _) => x.to_bits(),
        (InitElem::Address { symbol, offset, .. }, _) => {
            symbols.get(&**symbol)?.wrapping_add(*offset as u64)
        }
        (InitElem::List(_) | InitElem::Other(_), _) => return None,
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
        let Some(d) = &v.decl else { continue };
        if !matches!(d.space, Space::Global | Space::Const) || m.symbols.contains_key(&*v.name) {
            continue;
        }
        let addr = m.global.alloc(d.size());
        m.symbols.insert(v.name.to_string(), addr);
        let ty = match &d.ty {
            VarType::Scalar(t) => Some(*t),
            VarType::Opaque(_) => None,
        };
        let ty_bytes = ty.map_or(1, |ty| (ty.bits() as u64).div_ceil(8));
        // Every element keeps its place: one that cannot be read is 0.
        for (k, e) in d.init_elements().into_iter().enumerate() {
            let val = init_value(e, ty, &m.symbols).unwrap_or(0);
            let at = addr.saturating_add(k as u64 * ty_bytes);
            if m.global.write(at, ty_bytes, val as u128) == Err(Fault::MemoryLimit) {
                let what = format!("the initializer of '{}'", v.name);
                return Err(m.memory_limit(u32::MAX, &what));
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
    decls: impl Iterator<Item = Decl<'a>>,
    out: &mut FxHashMap<String, u64>,
) -> u64 {
    let mut at = FxHashMap::default();
    let size = layout(decls, &mut at);
    out.extend(at.into_iter().map(|(k, v)| (k, FRAME + v)));
    size
}

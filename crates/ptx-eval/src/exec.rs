//! The interpreter proper.

use crate::memory::{read_flat, write_flat, Fault, Global, LOCAL_BASE, PARAM_BASE, SHARED_BASE};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{
    Block, BoolOp, CmpOp, ControlFlowGraph, FuncKind, Function, Imm, ImmKind, Inst, Item, Mod,
    Module, Opcode, Operand, Space, Type,
};
use ptx_passes::loops::PostDominatorTree;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// An evaluation error, at a source position when it concerns an
/// instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// Byte offset of the instruction in its source (`u32::MAX`: none).
    pub pos: u32,
    /// What went wrong.
    pub message: String,
}

impl EvalError {
    fn new(pos: u32, message: impl Into<String>) -> Self {
        EvalError {
            pos,
            message: message.into(),
        }
    }
}

/// Grid and CTA shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// CTAs per dimension.
    pub grid: [u32; 3],
    /// Threads per CTA per dimension.
    pub block: [u32; 3],
}

/// The resource limits of a run. Each one, when reached, stops the run with
/// an error that names it and the `ptx-eval` flag that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Thread-instructions (`--max-steps`, also spelt `--fuel`).
    pub steps: u64,
    /// Bytes of memory the run may take (`--max-memory`): global memory
    /// as written (4 KiB pages), plus the shared memory, local memory,
    /// parameter frames and registers of the CTA in flight and its calls.
    pub memory: u64,
    /// CTAs in a grid (`--max-ctas`).
    pub ctas: u64,
}

impl Limits {
    /// The defaults: 10^10 steps, 2 GiB, 2^20 CTAs.
    pub const DEFAULT: Limits = Limits {
        steps: 10_000_000_000,
        memory: 2 << 30,
        ctas: 1 << 20,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Global memory and the step budget, kept across launches.
pub struct Machine {
    /// Global memory.
    pub global: Global,
    /// Addresses of module variables (`.global`, `.const`) by name.
    pub symbols: FxHashMap<String, u64>,
    /// Thread-instructions left before the run is stopped.
    pub fuel: u64,
    /// The budget the machine started with (`%clock` counts from it).
    pub fuel_start: u64,
    /// Instructions whose effect depended on the order in which lanes
    /// were served: a store in which lanes wrote different values to the
    /// same address, or an `atom` whose lanes shared an address and read
    /// back old values. The evaluator serves lanes in order; a GPU may
    /// not, so such a run's result is one of several valid ones.
    pub unordered: u64,
    /// The limits the machine was made with (for the error messages).
    pub limits: Limits,
}

impl Machine {
    /// A machine with `fuel` thread-instructions of budget and the default
    /// memory and grid limits.
    pub fn new(fuel: u64) -> Self {
        Machine::with_limits(Limits {
            steps: fuel,
            ..Limits::DEFAULT
        })
    }

    /// A machine with the given limits.
    pub fn with_limits(limits: Limits) -> Self {
        Machine {
            global: Global::with_limit(limits.memory),
            symbols: FxHashMap::default(),
            fuel: limits.steps,
            fuel_start: limits.steps,
            unordered: 0,
            limits,
        }
    }

    /// The error for reaching the memory limit at `pos`.
    fn memory_limit(&self, pos: u32, what: &str) -> EvalError {
        EvalError::new(
            pos,
            format!(
                "memory limit reached: {what} would take the run past {} bytes \
                 (raise it with ptx-eval --max-memory=BYTES)",
                self.limits.memory
            ),
        )
    }

    /// Takes `bytes` out of the memory budget for `what`, or fails.
    fn reserve(&mut self, bytes: u64, pos: u32, what: &str) -> Result<(), EvalError> {
        self.global
            .reserve(bytes)
            .map_err(|_| self.memory_limit(pos, what))
    }
}

/// What a CTA holds besides global memory: its shared memory, and per
/// warp 32 lanes of local memory and parameter frame plus the registers.
fn frame_bytes(k: &Kernel, warps: u64) -> u64 {
    let regs = k.f.dfg.values.len() as u64 * std::mem::size_of::<[u64; 32]>() as u64;
    let lane = k.local_size.saturating_add(k.frame_size);
    warps.saturating_mul(regs.saturating_add(lane.saturating_mul(32)))
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Thread-instructions executed.
    pub steps: u64,
}

/// Type, size and alignment of a declaration text (`.param .align 8 .b8
/// x[16]`, `.shared .u32 s[4]`).
fn decl_layout(text: &str) -> (u64, u64) {
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
fn decl_name(text: &str) -> Option<&str> {
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
fn place<'a>(decls: impl Iterator<Item = &'a str>) -> (Vec<(&'a str, u64, u64)>, u64) {
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
fn layout<'a>(decls: impl Iterator<Item = &'a str>, out: &mut FxHashMap<String, u64>) -> u64 {
    let (placed, size) = place(decls);
    for (d, off, _) in placed {
        if let Some(n) = decl_name(d) {
            out.insert(n.to_string(), off);
        }
    }
    size
}

/// The `.shared` declarations a kernel sees: the module's and its own.
fn shared_decls<'a>(module: &'a Module, f: &'a Function) -> impl Iterator<Item = &'a str> {
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
fn init_value(text: &str, ty: Option<Type>, symbols: &FxHashMap<String, u64>) -> Option<u64> {
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
fn conflicting(seen: &mut [(u64, u128)]) -> bool {
    // Lanes usually write increasing addresses: nothing to sort then.
    if seen.windows(2).all(|p| p[0].0 < p[1].0) {
        return false;
    }
    seen.sort_unstable();
    seen.windows(2)
        .any(|p| p[0].0 == p[1].0 && p[0].1 != p[1].1)
}

/// Allocates module variables in global memory, with their initializers.
fn place_module_vars(module: &Module, m: &mut Machine) -> Result<(), EvalError> {
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

struct Kernel<'m> {
    f: &'m Function,
    ipdom: SecondaryMap<Block, Option<Block>>,
    /// Parameter addresses in the param space (see [`FRAME`]).
    params: FxHashMap<String, u64>,
    /// Size of the per-thread parameter frame.
    frame_size: u64,
    shared: FxHashMap<String, u64>,
    shared_size: u64,
    local: FxHashMap<String, u64>,
    local_size: u64,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    block: Block,
    mask: u32,
    /// Reconvergence block: the entry ends on reaching it.
    rpc: Option<Block>,
    /// Instructions of `block` already executed (resumption after a barrier).
    start: u32,
}

struct Warp {
    id: u32,
    exited: u32,
    regs: Vec<[u64; 32]>,
    stack: Vec<Entry>,
    tid: [[u32; 3]; 32],
    local: Vec<Vec<u8>>,
    /// Per-thread parameter frames (call-site `.param` variables; a
    /// device function's parameters and return values).
    frame: Vec<Vec<u8>>,
    at_barrier: bool,
    /// Lanes that ran `exit` (inside a called function: they leave the
    /// caller too).
    killed: u32,
    /// Calls in progress below this frame.
    depth: u32,
    /// `CC.CF` per lane (bit l): the carry `add.cc`/`sub.cc`/`mad.cc` set
    /// and `addc`/`subc`/`madc` read; not kept across calls (ISA).
    carry: u32,
}

/// The module's device functions, each prepared (post-dominators,
/// layouts) the first time a call reaches it.
struct Funcs<'a> {
    module: &'a Module,
    built: std::cell::RefCell<FxHashMap<&'a str, std::rc::Rc<Kernel<'a>>>>,
}

impl<'a> Funcs<'a> {
    fn get(&self, name: &str) -> Option<std::rc::Rc<Kernel<'a>>> {
        if let Some(k) = self.built.borrow().get(name) {
            return Some(k.clone());
        }
        let f = self
            .module
            .functions()
            .find(|g| g.kind == FuncKind::Func && g.has_body && &*g.name == name)?;
        let k = std::rc::Rc::new(kernel(self.module, f));
        self.built.borrow_mut().insert(&f.name, k.clone());
        Some(k)
    }
}

struct Cta<'a> {
    ctaid: [u32; 3],
    launch: Launch,
    shared: Vec<u8>,
    param: &'a [u8],
    /// The module's device functions, for `call`.
    funcs: &'a Funcs<'a>,
}

/// Offset of a frame's own parameters in the param state space: a kernel's
/// parameters (one block for the launch) lie below it; call-site `.param`
/// variables, and a device function's parameters and return values, are
/// per thread, at `FRAME` and up.
const FRAME: u64 = 1 << 24;

/// The execution context of one function: reconvergence points and the
/// layout of its parameters and variables.
fn kernel<'m>(module: &'m Module, f: &'m Function) -> Kernel<'m> {
    let cfg = ControlFlowGraph::compute(f);
    let pdt = PostDominatorTree::compute(f, &cfg);
    let mut ipdom = SecondaryMap::with_default(None);
    for b in f.layout.blocks() {
        ipdom[b] = pdt.ipdom(b);
    }
    let mut pmap = FxHashMap::default();
    let call_site = f
        .decls
        .iter()
        .map(|d| &**d)
        .filter(|d| d.starts_with(".param"));
    let frame_size = if f.kind == FuncKind::Entry {
        layout(f.params.iter().flatten().map(|p| &*p.text), &mut pmap);
        frame_layout(call_site, &mut pmap)
    } else {
        // Parameters first, laid out as a param block is (so a launch of
        // the function itself can start from one), then return values.
        let formal = f.params.iter().flatten().chain(f.rets.iter().flatten());
        frame_layout(formal.map(|p| &*p.text).chain(call_site), &mut pmap)
    };
    let mut shared = FxHashMap::default();
    let mut shared_size = layout(shared_decls(module, f), &mut shared);
    // `extern .shared` arrays get the dynamic shared memory of the launch;
    // without one, an access past the static variables is out of range.
    shared_size += dynamic_shared_bytes(module, f) as u64;
    let mut local = FxHashMap::default();
    let local_size = layout(
        f.decls
            .iter()
            .map(|d| &**d)
            .filter(|d| d.starts_with(".local")),
        &mut local,
    );
    Kernel {
        f,
        ipdom,
        params: pmap,
        frame_size,
        shared,
        shared_size,
        local,
        local_size,
    }
}

/// Lays out per-thread parameters: names → offsets from [`FRAME`] up;
/// returns the frame's size.
fn frame_layout<'a>(decls: impl Iterator<Item = &'a str>, out: &mut FxHashMap<String, u64>) -> u64 {
    let mut at = FxHashMap::default();
    let size = layout(decls, &mut at);
    out.extend(at.into_iter().map(|(k, v)| (k, FRAME + v)));
    size
}

/// Runs `entry` of `module` over the launch, reading parameters from the
/// param block `params` (laid out in declaration order with natural
/// alignment, as the CUDA driver does).
pub fn run(
    module: &Module,
    entry: &str,
    launch: &Launch,
    params: &[u8],
    m: &mut Machine,
) -> Result<Stats, EvalError> {
    let f = module
        .functions()
        .find(|f| &*f.name == entry && f.has_body)
        .ok_or_else(|| EvalError::new(u32::MAX, format!("no kernel named '{entry}'")))?;
    place_module_vars(module, m)?;
    let k = kernel(module, f);
    let funcs = Funcs {
        module,
        built: Default::default(),
    };
    let threads = launch.block.iter().map(|&x| x as u64).product::<u64>();
    if threads == 0 || threads > 1024 || launch.grid.contains(&0) {
        return Err(EvalError::new(
            u32::MAX,
            "invalid launch: 1 to 1024 threads per CTA and a non-empty grid",
        ));
    }
    let ctas = launch.grid.iter().map(|&x| x as u64).product::<u64>();
    if ctas > m.limits.ctas {
        return Err(EvalError::new(
            u32::MAX,
            format!(
                "grid limit reached: the launch has {ctas} CTAs, more than {} \
                 (raise it with ptx-eval --max-ctas=N)",
                m.limits.ctas
            ),
        ));
    }
    // Everything a CTA holds is paid for before it is allocated.
    let held = frame_bytes(&k, threads.div_ceil(32)).saturating_add(k.shared_size);
    m.reserve(
        held,
        u32::MAX,
        "the shared memory, local memory and registers of a CTA",
    )?;
    let mut stats = Stats::default();
    let mut ran = Ok(());
    'grid: for z in 0..launch.grid[2] {
        for y in 0..launch.grid[1] {
            for x in 0..launch.grid[0] {
                let mut cta = Cta {
                    ctaid: [x, y, z],
                    launch: *launch,
                    shared: vec![0; k.shared_size as usize],
                    param: params,
                    funcs: &funcs,
                };
                ran = run_cta(&k, &mut cta, m, &mut stats);
                if ran.is_err() {
                    break 'grid;
                }
            }
        }
    }
    m.global.release(held);
    ran.map(|_| stats)
}

fn run_cta(k: &Kernel, cta: &mut Cta, m: &mut Machine, stats: &mut Stats) -> Result<(), EvalError> {
    let b = cta.launch.block;
    let n = b[0] * b[1] * b[2];
    let nwarps = n.div_ceil(32);
    let entry =
        k.f.layout
            .entry_block()
            .ok_or_else(|| EvalError::new(u32::MAX, "kernel has no body"))?;
    let nvals = k.f.dfg.values.len();
    let mut warps: Vec<Warp> = (0..nwarps)
        .map(|w| {
            let mut tid = [[0u32; 3]; 32];
            let mut mask = 0u32;
            for lane in 0..32 {
                let t = w * 32 + lane;
                if t < n {
                    mask |= 1 << lane;
                    tid[lane as usize] = [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])];
                }
            }
            Warp {
                id: w,
                exited: !mask,
                regs: vec![[0u64; 32]; nvals],
                stack: vec![Entry {
                    block: entry,
                    mask,
                    rpc: None,
                    start: 0,
                }],
                tid,
                local: vec![vec![0u8; k.local_size as usize]; 32],
                frame: (0..32)
                    .map(|_| {
                        let mut fr = vec![0u8; k.frame_size as usize];
                        if k.f.kind == FuncKind::Func {
                            // A device function launched on its own (by
                            // `--check-each`): its parameters from the block.
                            let n = cta.param.len().min(fr.len());
                            fr[..n].copy_from_slice(&cta.param[..n]);
                        }
                        fr
                    })
                    .collect(),
                at_barrier: false,
                killed: 0,
                depth: 0,
                carry: 0,
            }
        })
        .collect();
    let started: Vec<u32> = warps.iter().map(|w| !w.exited).collect();
    loop {
        let mut progressed = false;
        for w in warps.iter_mut() {
            if w.stack.is_empty() || w.at_barrier {
                continue;
            }
            progressed = true;
            run_warp(k, cta, w, m, stats)?;
        }
        let live: Vec<&mut Warp> = warps.iter_mut().filter(|w| !w.stack.is_empty()).collect();
        if live.is_empty() {
            if k.f.kind == FuncKind::Func {
                record_returns(k, cta, &warps, &started, m);
            }
            return Ok(());
        }
        if live.iter().all(|w| w.at_barrier) {
            for w in live {
                w.at_barrier = false;
            }
            continue;
        }
        if !progressed {
            return Err(EvalError::new(
                u32::MAX,
                "deadlock: warps wait at different barriers",
            ));
        }
    }
}

/// Where a launched device function's return values appear in the store
/// trace: thread `t`'s return value at byte `o` of its frame is a store to
/// `RETURN_TRACE + t * 0x1_0000 + o`, so `--check-each` compares return
/// values with the stores.
pub const RETURN_TRACE: u64 = 0xfe00_0000_0000_0000;

fn record_returns(k: &Kernel, cta: &Cta, warps: &[Warp], started: &[u32], m: &mut Machine) {
    let Some(trace) = m.global.trace.as_mut() else {
        return;
    };
    let b = cta.launch.block;
    let base_t = (cta.ctaid[0]
        + cta.launch.grid[0] * (cta.ctaid[1] + cta.launch.grid[1] * cta.ctaid[2]))
        as u64
        * (b[0] * b[1] * b[2]) as u64;
    for (wi, w) in warps.iter().enumerate() {
        for lane in 0..32 {
            if started[wi] & !w.killed & (1 << lane) == 0 {
                continue;
            }
            let t = base_t + (wi * 32 + lane) as u64;
            for r in k.f.rets.iter().flatten() {
                let (Some(&off), (size, _)) = (k.params.get(&*r.name), decl_layout(&r.text)) else {
                    continue;
                };
                let o = off - FRAME;
                for c in (0..size).step_by(8) {
                    let n = (size - c).min(8);
                    let v = read_flat(&w.frame[lane], o + c, n).unwrap_or(0);
                    trace.push((RETURN_TRACE + t * 0x1_0000 + o + c, n, v));
                }
            }
        }
    }
}

fn mask_bits(ty: Type) -> u64 {
    match ty.bits() {
        1 => 1,
        b if b >= 64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}

/// The exact product of two `ty` values (sign-extended when signed), for
/// `.hi` and `.wide`.
fn full_product(x: u64, y: u64, ty: Type) -> u128 {
    if ty.is_signed() {
        (sext(x, ty.bits()) as i128 * sext(y, ty.bits()) as i128) as u128
    } else {
        x as u128 * y as u128
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// Runs one warp until it finishes or reaches a barrier.
fn run_warp(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    stats: &mut Stats,
) -> Result<(), EvalError> {
    let f = k.f;
    while let Some(top) = w.stack.last().copied() {
        let mask = top.mask & !w.exited;
        if mask == 0 || (Some(top.block) == top.rpc && top.start == 0) {
            w.stack.pop();
            continue;
        }
        let mut idx = 0u32;
        for i in f.layout.block_insts(top.block) {
            idx += 1;
            if idx <= top.start {
                continue;
            }
            let info = f.op(i);
            // Every instruction, branches included, costs one step per lane.
            let steps = mask.count_ones() as u64;
            stats.steps += steps;
            if m.fuel < steps {
                return Err(EvalError::new(
                    f.inst(i).pos,
                    format!(
                        "step limit reached: {} thread-instructions \
                         (raise it with ptx-eval --max-steps=N)",
                        m.fuel_start
                    ),
                ));
            }
            m.fuel -= steps;
            if info.opcode.is_terminator() {
                terminator(k, w, i, mask)?;
                break;
            }
            if info.opcode == Opcode::Call {
                let before = w.exited;
                call(k, cta, w, m, stats, i, mask)?;
                if w.exited != before {
                    // Lanes left in the callee (`exit`): go on without them.
                    w.stack.last_mut().expect("running entry").start = idx;
                    break;
                }
                continue;
            }
            if info.opcode == Opcode::Other && &*info.mnemonic == "bar" {
                if w.depth > 0 {
                    return Err(EvalError::new(
                        f.inst(i).pos,
                        "a barrier inside a called function is not supported by the evaluator",
                    ));
                }
                // Wait here; the CTA loop resumes the warp after the barrier
                // once every live warp has arrived.
                w.stack.last_mut().expect("running entry").start = idx;
                w.at_barrier = true;
                return Ok(());
            }
            exec(k, cta, w, m, i, mask)?;
        }
    }
    Ok(())
}

/// Deepest nesting of calls (recursion included) before a run is stopped.
const MAX_CALL_DEPTH: u32 = 64;

/// `call (r…), f, (a…)` by the lanes of `mask` whose guard holds: a frame
/// for `f` with the arguments copied in (call-site `.param` variables byte
/// for byte, registers and immediates as values), `f` run to `ret` with
/// those lanes, the return values copied back. Lanes that `exit` in `f`
/// end in the caller too.
#[allow(clippy::too_many_arguments)]
fn call(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    stats: &mut Stats,
    i: Inst,
    mask: u32,
) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let pos = d.pos;
    let mut lanes = mask;
    if let Some(g) = d.guard {
        for lane in 0..32 {
            if (w.regs[g.pred.as_u32() as usize][lane] != 0) == g.negated {
                lanes &= !(1 << lane);
            }
        }
    }
    if lanes == 0 {
        return Ok(());
    }
    let name = d
        .operands
        .iter()
        .find_map(|o| match o {
            Operand::Symbol(s, 0) => Some(f.ops.word(*s)),
            _ => None,
        })
        .ok_or_else(|| EvalError::new(pos, "indirect calls are not supported by the evaluator"))?;
    let callee = cta.funcs.get(name);
    let callee = callee.as_deref().ok_or_else(|| {
        EvalError::new(
            pos,
            format!("no definition of the called function '{name}'"),
        )
    })?;
    if w.depth + 1 > MAX_CALL_DEPTH {
        return Err(EvalError::new(
            pos,
            format!("calls nested deeper than {MAX_CALL_DEPTH}"),
        ));
    }
    // `(rets)` before the callee's name, `(args)` after it.
    let at = d
        .operands
        .iter()
        .position(|o| matches!(o, Operand::Symbol(..)))
        .expect("found above");
    fn list(o: Option<&Operand>) -> &[Operand] {
        match o {
            Some(Operand::List(l)) => l,
            _ => &[],
        }
    }
    let rets = if at > 0 {
        list(d.operands.get(at - 1))
    } else {
        &[]
    };
    let args = list(d.operands.get(at + 1));
    let formal_rets: Vec<&ptx_ir::ParamDecl> = callee.f.rets.iter().flatten().collect();
    let formal_args: Vec<&ptx_ir::ParamDecl> = callee.f.params.iter().flatten().collect();
    if rets.len() > formal_rets.len() || args.len() != formal_args.len() {
        return Err(EvalError::new(
            pos,
            format!("the call does not match the signature of '{name}'"),
        ));
    }
    let entry = callee
        .f
        .layout
        .entry_block()
        .ok_or_else(|| EvalError::new(pos, format!("'{name}' has no body")))?;
    let held = frame_bytes(callee, 1);
    m.reserve(held, pos, &format!("the frame of a call to '{name}'"))?;
    let mut cw = Warp {
        id: w.id,
        exited: !lanes,
        regs: vec![[0u64; 32]; callee.f.dfg.values.len()],
        stack: vec![Entry {
            block: entry,
            mask: lanes,
            rpc: None,
            start: 0,
        }],
        tid: w.tid,
        local: vec![vec![0u8; callee.local_size as usize]; 32],
        frame: vec![vec![0u8; callee.frame_size as usize]; 32],
        at_barrier: false,
        killed: 0,
        depth: w.depth + 1,
        carry: 0,
    };
    let slot = |kk: &Kernel, p: &str| -> Result<(usize, usize), EvalError> {
        let off = kk
            .params
            .get(p)
            .copied()
            .filter(|&o| o >= FRAME)
            .ok_or_else(|| EvalError::new(pos, format!("'{p}' is not a parameter of this call")))?;
        Ok(((off - FRAME) as usize, decl_layout_of(kk.f, p)))
    };
    for (a, formal) in args.iter().zip(&formal_args) {
        let (to, size) = slot(callee, &formal.name)?;
        match a {
            Operand::Symbol(s, 0) => {
                let (from, _) = slot(k, f.ops.word(*s))?;
                for lane in (0..32).filter(|l| lanes & (1 << l) != 0) {
                    let n = size.min(w.frame[lane].len().saturating_sub(from));
                    let bytes = w.frame[lane][from..from + n].to_vec();
                    cw.frame[lane][to..to + n].copy_from_slice(&bytes);
                }
            }
            o => {
                let v = src(k, cta, w, m, o, Type::B64, pos)?;
                for lane in (0..32).filter(|l| lanes & (1 << l) != 0) {
                    let n = size.min(8);
                    cw.frame[lane][to..to + n].copy_from_slice(&v.v[lane].to_le_bytes()[..n]);
                }
            }
        }
    }
    let ran = run_warp(callee, cta, &mut cw, m, stats);
    m.global.release(held);
    ran?;
    let back = lanes & !cw.killed;
    for (r, formal) in rets.iter().zip(&formal_rets) {
        let (from, size) = slot(callee, &formal.name)?;
        let Operand::Symbol(s, 0) = r else {
            return Err(EvalError::new(
                pos,
                "a return value must be a .param variable",
            ));
        };
        let (to, _) = slot(k, f.ops.word(*s))?;
        for lane in (0..32).filter(|l| back & (1 << l) != 0) {
            let n = size.min(w.frame[lane].len().saturating_sub(to));
            let bytes = cw.frame[lane][from..from + n].to_vec();
            w.frame[lane][to..to + n].copy_from_slice(&bytes);
        }
    }
    w.exited |= cw.killed;
    w.killed |= cw.killed;
    Ok(())
}

/// Size in bytes of the parameter `name` of `f` (formal or call-site).
fn decl_layout_of(f: &Function, name: &str) -> usize {
    f.rets
        .iter()
        .flatten()
        .chain(f.params.iter().flatten())
        .map(|p| &*p.text)
        .chain(f.decls.iter().map(|d| &**d))
        .find(|t| decl_name(t) == Some(name))
        .map_or(0, |t| decl_layout(t).0 as usize)
}

fn terminator(k: &Kernel, w: &mut Warp, i: Inst, mask: u32) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let op = f.op(i).opcode;
    let taken = match d.guard {
        Some(g) => {
            let mut t = 0u32;
            for lane in 0..32 {
                if mask & (1 << lane) != 0
                    && ((w.regs[g.pred.as_u32() as usize][lane] != 0) ^ g.negated)
                {
                    t |= 1 << lane;
                }
            }
            t
        }
        None => mask,
    };
    let not_taken = mask & !taken;
    let top = w.stack.pop().expect("running entry");
    let mut moves: Vec<(Block, u32)> = Vec::new();
    match op {
        Opcode::Ret | Opcode::Exit => {
            w.exited |= taken;
            if op == Opcode::Exit {
                w.killed |= taken;
            }
            if let Some(fall) = d.targets.first() {
                if not_taken != 0 {
                    pass_args(k, w, fall, not_taken);
                    moves.push((fall.block, not_taken));
                }
            }
        }
        Opcode::Jump | Opcode::Bra => {
            if taken != 0 {
                pass_args(k, w, &d.targets[0], taken);
                moves.push((d.targets[0].block, taken));
            }
            if let Some(fall) = d.targets.get(1) {
                if not_taken != 0 {
                    pass_args(k, w, fall, not_taken);
                    moves.push((fall.block, not_taken));
                }
            }
        }
        _ => {
            return Err(EvalError::new(
                d.pos,
                format!("'{}' is not supported by the evaluator", f.op(i).text),
            ))
        }
    }
    match moves.as_slice() {
        [] => {}
        [(b, mk)] => w.stack.push(Entry {
            block: *b,
            mask: *mk,
            rpc: top.rpc,
            start: 0,
        }),
        many => {
            // Divergence: reconverge at the immediate post-dominator.
            let r = k.ipdom[f.layout.inst_block(i).expect("in layout")];
            if let Some(r) = r {
                w.stack.push(Entry {
                    block: r,
                    mask: top.mask,
                    rpc: top.rpc,
                    start: 0,
                });
            }
            for &(b, mk) in many.iter().rev() {
                w.stack.push(Entry {
                    block: b,
                    mask: mk,
                    rpc: r.or(top.rpc),
                    start: 0,
                });
            }
        }
    }
    Ok(())
}

fn pass_args(k: &Kernel, w: &mut Warp, call: &ptx_ir::BlockCall, lanes: u32) {
    let params = &k.f.dfg.blocks[call.block].params;
    let vals: Vec<[u64; 32]> = call
        .args
        .iter()
        .map(|a| w.regs[a.as_u32() as usize])
        .collect();
    for (p, v) in params.iter().zip(vals) {
        let reg = &mut w.regs[p.as_u32() as usize];
        for lane in 0..32 {
            if lanes & (1 << lane) != 0 {
                reg[lane] = v[lane];
            }
        }
    }
}

/// Per-lane operand values.
struct Lanes {
    v: [u64; 32],
}

fn special(cta: &Cta, w: &Warp, name: &str, lane: usize) -> Option<u64> {
    let dim = |s: &str| match s.rsplit('.').next() {
        Some("x") => 0,
        Some("y") => 1,
        Some("z") => 2,
        _ => 0,
    };
    let base = name.split('.').next().unwrap_or(name);
    Some(match base {
        "%tid" => w.tid[lane][dim(name)] as u64,
        "%ntid" => cta.launch.block[dim(name)] as u64,
        "%ctaid" => cta.ctaid[dim(name)] as u64,
        "%nctaid" => cta.launch.grid[dim(name)] as u64,
        "%laneid" => lane as u64,
        "%warpid" => w.id as u64,
        "%nwarpid" => 32,
        "WARP_SZ" => 32,
        "%lanemask_eq" => 1u64 << lane,
        "%lanemask_lt" => (1u64 << lane) - 1,
        "%lanemask_le" => (1u64 << (lane + 1)) - 1,
        "%lanemask_gt" => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
        "%lanemask_ge" => (!((1u64 << lane) - 1)) & 0xffff_ffff,
        _ => return None,
    })
}

fn imm_bits(imm: &Imm, ty: Type, syms: &ptx_ir::Interner) -> u64 {
    let as_f64 = match imm.kind {
        ImmKind::F64 => Some(f64::from_bits(imm.bits)),
        ImmKind::Float(s) => syms.get(s).parse::<f64>().ok(),
        ImmKind::F32 => Some(f32::from_bits(imm.bits as u32) as f64),
        _ => None,
    };
    match (as_f64, ty) {
        (Some(x), Type::F32) => (x as f32).to_bits() as u64,
        (Some(x), Type::F64) => x.to_bits(),
        (Some(_), _) if imm.kind == ImmKind::F32 => imm.bits,
        (Some(x), _) => x.to_bits(),
        (None, _) => imm.bits,
    }
}

fn src(
    k: &Kernel,
    cta: &Cta,
    w: &Warp,
    m: &Machine,
    o: &Operand,
    ty: Type,
    pos: u32,
) -> Result<Lanes, EvalError> {
    let f = k.f;
    let mut out = Lanes { v: [0; 32] };
    match o {
        Operand::Value(v) => out.v = w.regs[v.as_u32() as usize],
        Operand::Not(v) => {
            for (l, x) in w.regs[v.as_u32() as usize].iter().enumerate() {
                out.v[l] = (*x == 0) as u64;
            }
        }
        Operand::Imm(imm) => out.v = [imm_bits(imm, ty, &f.ops.syms); 32],
        Operand::Special(s) if f.ops.word(*s).starts_with("%clock") => {
            // A deterministic clock: thread-instructions run so far (the
            // fuel spent), the same on every run of the same launch.
            let spent = m.fuel_start - m.fuel;
            let v = if f.ops.word(*s) == "%clock" {
                spent & 0xffff_ffff
            } else {
                spent
            };
            out.v = [v; 32];
        }
        Operand::Special(s) => {
            let name = f.ops.word(*s);
            for lane in 0..32 {
                out.v[lane] = special(cta, w, name, lane).ok_or_else(|| {
                    EvalError::new(pos, format!("special register {name} is not supported"))
                })?;
            }
        }
        Operand::Symbol(s, off) => {
            let name = f.ops.word(*s);
            let base = if let Some(&a) = m.symbols.get(name) {
                a
            } else if let Some(&o) = k
                .shared
                .get(name)
                .or_else(|| k.local.get(name))
                .or_else(|| k.params.get(name))
            {
                // The address of a .shared/.local/.param variable is in its
                // own state space; `cvta` makes it generic.
                o
            } else {
                return Err(EvalError::new(pos, format!("unknown symbol '{name}'")));
            };
            out.v = [base.wrapping_add(*off as u64); 32];
        }
        _ => {
            return Err(EvalError::new(
                pos,
                "operand form not supported by the evaluator",
            ))
        }
    }
    Ok(out)
}

/// Writes `vals` to the lanes of `mask`, truncated to the destination's
/// register class (so `.wide` results keep all their bits).
fn set_result(w: &mut Warp, f: &Function, o: &Operand, vals: &[u64; 32], mask: u32) {
    let Operand::Value(v) = o else { return };
    let ty = f.dfg.value_type(*v).reg_class();
    let mb = mask_bits(ty);
    let reg = &mut w.regs[v.as_u32() as usize];
    for lane in 0..32 {
        if mask & (1 << lane) != 0 {
            reg[lane] = vals[lane] & mb;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn mem_access(
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    space: Option<Space>,
    addr: u64,
    len: u64,
    lane: usize,
    store: Option<u128>,
    pos: u32,
) -> Result<u128, EvalError> {
    let oob = || {
        EvalError::new(
            pos,
            format!("out-of-range access of {len} bytes at 0x{addr:x}"),
        )
    };
    // Generic addresses select their window.
    let (space, off) = match space {
        Some(Space::Shared) => (Space::Shared, addr.wrapping_sub(SHARED_BASE).min(addr)),
        Some(Space::Local) => (Space::Local, addr.wrapping_sub(LOCAL_BASE).min(addr)),
        Some(Space::Param) => (Space::Param, addr.wrapping_sub(PARAM_BASE).min(addr)),
        Some(s) if s != Space::Generic => (s, addr),
        _ if addr >= SHARED_BASE => (Space::Shared, addr - SHARED_BASE),
        _ if addr >= LOCAL_BASE => (Space::Local, addr - LOCAL_BASE),
        _ if addr >= PARAM_BASE => (Space::Param, addr - PARAM_BASE),
        _ => (Space::Global, addr),
    };
    match (space, store) {
        (Space::Global | Space::Const, None) => m.global.read(off, len).ok_or_else(oob),
        (Space::Global, Some(v)) => match m.global.write(off, len, v) {
            Ok(()) => Ok(0),
            Err(Fault::OutOfRange) => Err(oob()),
            Err(Fault::MemoryLimit) => Err(m.memory_limit(pos, "a store to global memory")),
        },
        (Space::Shared, None) => read_flat(&cta.shared, off, len).ok_or_else(oob),
        (Space::Shared, Some(v)) => write_flat(&mut cta.shared, off, len, v)
            .map(|_| 0)
            .ok_or_else(oob),
        (Space::Local, None) => read_flat(&w.local[lane], off, len).ok_or_else(oob),
        (Space::Local, Some(v)) => write_flat(&mut w.local[lane], off, len, v)
            .map(|_| 0)
            .ok_or_else(oob),
        (Space::Param, None) if off >= FRAME => {
            read_flat(&w.frame[lane], off - FRAME, len).ok_or_else(oob)
        }
        (Space::Param, Some(v)) if off >= FRAME => {
            write_flat(&mut w.frame[lane], off - FRAME, len, v)
                .map(|_| 0)
                .ok_or_else(oob)
        }
        (Space::Param, None) => read_flat(cta.param, off, len).ok_or_else(oob),
        _ => Err(EvalError::new(pos, "store to a read-only state space")),
    }
}

fn cmp_int(c: CmpOp, a: u64, b: u64, ty: Type) -> bool {
    let bits = ty.bits();
    if ty.is_signed() {
        let (x, y) = (sext(a, bits), sext(b, bits));
        match c {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt | CmpOp::Lo => x < y,
            CmpOp::Le | CmpOp::Ls => x <= y,
            CmpOp::Gt | CmpOp::Hi => x > y,
            _ => x >= y,
        }
    } else {
        match c {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt | CmpOp::Lo => a < b,
            CmpOp::Le | CmpOp::Ls => a <= b,
            CmpOp::Gt | CmpOp::Hi => a > b,
            _ => a >= b,
        }
    }
}

fn cmp_float(c: CmpOp, x: f64, y: f64) -> bool {
    let nan = x.is_nan() || y.is_nan();
    match c {
        CmpOp::Eq => !nan && x == y,
        CmpOp::Ne => !nan && x != y,
        CmpOp::Lt => !nan && x < y,
        CmpOp::Le => !nan && x <= y,
        CmpOp::Gt => !nan && x > y,
        CmpOp::Ge => !nan && x >= y,
        CmpOp::Equ => nan || x == y,
        CmpOp::Neu => nan || x != y,
        CmpOp::Ltu => nan || x < y,
        CmpOp::Leu => nan || x <= y,
        CmpOp::Gtu => nan || x > y,
        CmpOp::Geu => nan || x >= y,
        CmpOp::Num => !nan,
        CmpOp::Nan => nan,
        _ => false,
    }
}

/// A comparison operand as f64: f16, bf16, f32 or f64 bits, with `.ftz`
/// flushing a subnormal f32/f16 input to zero.
fn float_in(v: u64, ty: Type, ftz: bool) -> f64 {
    match ty {
        Type::F16 => {
            let h = v as u16;
            let (e, m) = ((h >> 10) & 0x1f, f64::from(h & 0x3ff));
            let mag = match e {
                0 if ftz => 0.0,
                0 => m * 2f64.powi(-24),
                31 if m == 0.0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024.0 + m) * 2f64.powi(i32::from(e) - 25),
            };
            if h >> 15 == 1 {
                -mag
            } else {
                mag
            }
        }
        Type::BF16 => f32::from_bits((v as u32 & 0xffff) << 16) as f64,
        Type::F32 => {
            let x = f32::from_bits(v as u32);
            if ftz && x.is_subnormal() {
                0.0
            } else {
                x as f64
            }
        }
        _ => f64::from_bits(v),
    }
}

fn to_f64(v: u64, ty: Type) -> f64 {
    if ty == Type::F32 {
        f32::from_bits(v as u32) as f64
    } else {
        f64::from_bits(v)
    }
}

fn from_f64(x: f64, ty: Type) -> u64 {
    if ty == Type::F32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

/// The canonical NaN NVIDIA GPUs produce for f32 arithmetic (measured on
/// an H200 by `scripts/gpu-campaign.sh`: add/sub/mul/fma/abs/neg/min/max
/// and division give `0x7fffffff` whatever the input NaN's payload).
const CANON_NAN_F32: u64 = 0x7fff_ffff;
/// The NaN f64 arithmetic makes from non-NaN inputs (0/0, sqrt(-1), ...),
/// measured likewise; a NaN input is passed on instead (see `nan_result`).
const DEFAULT_NAN_F64: u64 = 0xfff8_0000_0000_0000;
const QUIET_F64: u64 = 1 << 51;

/// The NaN a float operation on `inputs` gives when its result `bits` is
/// a NaN (else `bits`): f32 always gives the canonical NaN; f64 passes on
/// a NaN input, made quiet, or gives the default NaN. Of several NaN
/// inputs the second operand's wins, then the first's, then the third's
/// (measured for add/sub/mul/fma; the third only by elimination).
fn nan_result(bits: u64, ty: Type, inputs: &[u64]) -> u64 {
    match ty {
        Type::F32 if f32::from_bits(bits as u32).is_nan() => CANON_NAN_F32,
        Type::F64 if f64::from_bits(bits).is_nan() => [1, 0, 2]
            .iter()
            .filter_map(|&k| inputs.get(k))
            .find(|&&x| f64::from_bits(x).is_nan())
            .map_or(DEFAULT_NAN_F64, |&x| x | QUIET_F64),
        _ => bits,
    }
}

/// `.ftz`: an f32 subnormal becomes a zero of the same sign.
fn flush_f32(bits: u64) -> u64 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// PTX `min`/`max` on floats: a NaN operand is ignored (`.NaN` makes it
/// win), and -0 is below +0.
fn float_min_max(x: u64, y: u64, ty: Type, max: bool, nan_wins: bool) -> u64 {
    let (fx, fy) = (to_f64(x, ty), to_f64(y, ty));
    // Two NaNs: f32 gives the canonical NaN, f64 the second operand
    // (quieted), as measured on the GPU.
    let canon = if ty == Type::F32 {
        CANON_NAN_F32
    } else {
        y | QUIET_F64
    };
    match (fx.is_nan(), fy.is_nan()) {
        (true, true) => return canon,
        (true, false) | (false, true) if nan_wins && ty == Type::F32 => return canon,
        (true, false) | (false, true) if nan_wins => {
            return nan_result(f64::NAN.to_bits(), ty, &[x, y])
        }
        (true, false) => return y,
        (false, true) => return x,
        _ => {}
    }
    let key = |v: f64| (v, v.is_sign_positive());
    let (kx, ky) = (key(fx), key(fy));
    let x_first = match kx.0.partial_cmp(&ky.0) {
        Some(std::cmp::Ordering::Less) => true,
        Some(std::cmp::Ordering::Greater) => false,
        // Equal values: only ±0 differ; -0 is the smaller.
        _ => !kx.1 || ky.1,
    };
    if x_first != max {
        x
    } else {
        y
    }
}

/// Float to integer `cvt`: rounds by `.rni`/`.rzi`/`.rmi`/`.rpi`, clamps
/// to the destination's range, and gives 0 for NaN (the PTX ISA's rule,
/// confirmed on the GPU).
fn float_to_int(v: f64, mode: &str, dty: Type) -> u64 {
    if v.is_nan() {
        return 0;
    }
    let r = match mode {
        "rni" => v.round_ties_even(),
        "rmi" => v.floor(),
        "rpi" => v.ceil(),
        _ => v.trunc(),
    };
    let bits = dty.bits();
    if dty.is_signed() {
        let (lo, hi) = (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        );
        (r.clamp(lo, hi) as i64) as u64 & mask_bits(dty)
    } else {
        let hi = 2f64.powi(bits as i32) - 1.0;
        r.clamp(0.0, hi) as u64
    }
}

#[allow(clippy::needless_range_loop)]
fn exec(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    i: Inst,
    mask: u32,
) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let pos = d.pos;
    let unsupported = || {
        EvalError::new(
            pos,
            format!("'{}' is not supported by the evaluator", info.text),
        )
    };
    // Lanes that execute: the guard; tied results keep their old value
    // in the others.
    let mut run = mask;
    if let Some(g) = d.guard {
        let p = w.regs[g.pred.as_u32() as usize];
        for lane in 0..32 {
            if (p[lane] != 0) == g.negated {
                run &= !(1 << lane);
            }
        }
    }
    for (&r, &t) in d.results.iter().zip(&d.ties) {
        let old = w.regs[t.as_u32() as usize];
        let reg = &mut w.regs[r.as_u32() as usize];
        for lane in 0..32 {
            if mask & (1 << lane) != 0 {
                reg[lane] = old[lane];
            }
        }
    }
    if run == 0 {
        return Ok(());
    }
    let ty = info.last_type().unwrap_or(Type::B32);
    let bits = ty.bits();
    let mb = mask_bits(ty);
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| -> Result<Lanes, EvalError> {
        let o = d
            .operands
            .get(n)
            .ok_or_else(|| EvalError::new(pos, "missing operand"))?;
        src(k, cta, w, m, o, t, pos)
    };
    let word = |x: &str| info.mods.iter().any(|mm| f.ops.is_word(*mm, x));
    let has_cmp = |c: CmpOp| info.mods.contains(&Mod::Cmp(c));
    let dest = d.operands.first();
    let mut out = [0u64; 32];
    match info.opcode {
        // Extended-precision arithmetic (ISA 9.7.2): `add.cc`, `addc{.cc}`,
        // `sub.cc`, `subc{.cc}` (CC.CF is the borrow: d = a - (b + CF)),
        // `mad{.lo,.hi}.cc` and `madc{.lo,.hi}{.cc}` (the carry of adding c);
        // `.cc` writes CC.CF, the `…c` forms read it.
        Opcode::Add | Opcode::Sub | Opcode::Mad if word("cc") => {
            return carry_op(k, cta, w, m, i, run, info.opcode, false);
        }
        Opcode::Other if matches!(&*info.mnemonic, "addc" | "subc" | "madc") => {
            let opcode = match &*info.mnemonic {
                "addc" => Opcode::Add,
                "subc" => Opcode::Sub,
                _ => Opcode::Mad,
            };
            return carry_op(k, cta, w, m, i, run, opcode, true);
        }
        // `mov.bN d, {a, b, …}` packs equal-width parts (the first lowest);
        // `mov.bN {a, b, …}, s` unpacks them.
        Opcode::Mov if matches!(d.operands.get(1), Some(Operand::Vector(_))) => {
            let Some(Operand::Vector(parts)) = d.operands.get(1) else {
                unreachable!("matched above")
            };
            let width = bits / parts.len().max(1) as u32;
            let part_ty = match width {
                8 => Type::B8,
                16 => Type::B16,
                32 => Type::B32,
                _ => return Err(unsupported()),
            };
            for (idx, p) in parts.iter().enumerate() {
                let x = src(k, cta, w, m, p, part_ty, pos)?;
                for lane in 0..32 {
                    out[lane] |= (x.v[lane] & mask_bits(part_ty)) << (width * idx as u32);
                }
            }
        }
        Opcode::Mov if matches!(dest, Some(Operand::Vector(_))) => {
            let Some(Operand::Vector(parts)) = dest else {
                unreachable!("matched above")
            };
            let a = s(1, ty, w, cta, m)?;
            let width = bits / parts.len().max(1) as u32;
            let part_mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            for (idx, p) in parts.iter().enumerate() {
                let mut vals = [0u64; 32];
                for lane in 0..32 {
                    vals[lane] = (a.v[lane] >> (width * idx as u32)) & part_mask;
                }
                set_result(w, f, p, &vals, run);
            }
            return Ok(());
        }
        Opcode::Mov => {
            let a = s(1, ty, w, cta, m)?;
            out = a.v;
        }
        // Three-input min/max (PTX 8.8, sm_100+): the two-input rule applied
        // twice, min(min(a, b), c); NaN inputs are ignored (or win under
        // `.NaN`) either way.
        Opcode::Min | Opcode::Max
            if d.operands.len() == 4
                && info.checks.first_of_two.is_none()
                && (ty == Type::F32 || matches!(ty, Type::S32 | Type::U32))
                && !info.mods.iter().any(|mm| {
                    matches!(mm, Mod::Word(_))
                        && !f.ops.is_word(*mm, "ftz")
                        && !f.ops.is_word(*mm, "NaN")
                }) =>
        {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let max = info.opcode == Opcode::Max;
            let (ftz, nan_wins) = (word("ftz"), word("NaN"));
            let pair = |x: u64, y: u64| -> u64 {
                if ty == Type::F32 {
                    let (x, y) = if ftz {
                        (flush_f32(x), flush_f32(y))
                    } else {
                        (x, y)
                    };
                    let r = float_min_max(x & mb, y & mb, ty, max, nan_wins);
                    if ftz {
                        flush_f32(r)
                    } else {
                        r
                    }
                } else if ty == Type::S32 {
                    let (sx, sy) = (sext(x & mb, 32), sext(y & mb, 32));
                    (if max { sx.max(sy) } else { sx.min(sy) }) as u64 & mb
                } else if max {
                    (x & mb).max(y & mb)
                } else {
                    (x & mb).min(y & mb)
                }
            };
            for lane in 0..32 {
                out[lane] = pair(pair(a.v[lane], b.v[lane]), c.v[lane]);
            }
        }
        Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Min
        | Opcode::Max
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::Shr => {
            // Three-input min/max and mixed-precision add/sub have no
            // semantics here yet.
            if d.operands.len() > 3 || info.checks.first_of_two.is_some() {
                return Err(unsupported());
            }
            let (a, b) = (
                s(1, ty, w, cta, m)?,
                s(
                    2,
                    if matches!(info.opcode, Opcode::Shl | Opcode::Shr) {
                        Type::U32
                    } else {
                        ty
                    },
                    w,
                    cta,
                    m,
                )?,
            );
            // Most executions carry no modifier words: skip the lookups.
            let words = info.mods.iter().any(|m| matches!(m, Mod::Word(_)));
            let word = |x: &str| words && word(x);
            let simd = if word("u16x2") {
                Some(false)
            } else if word("s16x2") {
                Some(true)
            } else {
                None
            };
            if let Some(signed) = simd {
                // add/sub/min/max{.relu}.{u16x2,s16x2}: each half-word on
                // its own (PTX 8.0, sm_90).
                if !matches!(
                    info.opcode,
                    Opcode::Add | Opcode::Sub | Opcode::Min | Opcode::Max
                ) {
                    return Err(unsupported());
                }
                let relu = word("relu");
                for lane in 0..32 {
                    let mut r = 0u64;
                    for h in 0..2 {
                        let (x, y) = (
                            (a.v[lane] >> (16 * h)) & 0xffff,
                            (b.v[lane] >> (16 * h)) & 0xffff,
                        );
                        let (sx, sy) = (x as u16 as i16 as i64, y as u16 as i16 as i64);
                        let v = match info.opcode {
                            Opcode::Add => x.wrapping_add(y),
                            Opcode::Sub => x.wrapping_sub(y),
                            Opcode::Min if signed => sx.min(sy) as u64,
                            Opcode::Max if signed => sx.max(sy) as u64,
                            Opcode::Min => x.min(y),
                            _ => x.max(y),
                        } & 0xffff;
                        let v = if relu && v & 0x8000 != 0 { 0 } else { v };
                        r |= v << (16 * h);
                    }
                    out[lane] = r;
                }
                if let Some(o) = dest {
                    set_result(w, f, o, &out, run);
                }
                return Ok(());
            }
            let wide = word("wide");
            let hi = has_cmp(CmpOp::Hi);
            let (ftz, sat, nan_wins) = (word("ftz"), word("sat"), word("NaN"));
            for lane in 0..32 {
                let (mut x, mut y) = (a.v[lane] & mb, b.v[lane]);
                if ftz && ty == Type::F32 {
                    (x, y) = (flush_f32(x), flush_f32(y));
                }
                if ty.is_float() && matches!(info.opcode, Opcode::Min | Opcode::Max) {
                    out[lane] = float_min_max(x, y & mb, ty, info.opcode == Opcode::Max, nan_wins);
                    if ftz && ty == Type::F32 {
                        out[lane] = flush_f32(out[lane]);
                    }
                    continue;
                }
                if sat && ty == Type::S32 && matches!(info.opcode, Opcode::Add | Opcode::Sub) {
                    let (sx, sy) = (sext(x, 32), sext(y & mb, 32));
                    let r = if info.opcode == Opcode::Add {
                        sx + sy
                    } else {
                        sx - sy
                    };
                    out[lane] = r.clamp(i32::MIN as i64, i32::MAX as i64) as u64 & mb;
                    continue;
                }
                out[lane] = if ty.is_float() {
                    let (fx, fy) = (to_f64(x, ty), to_f64(y, ty));
                    let r = match info.opcode {
                        Opcode::Add => fx + fy,
                        Opcode::Sub => fx - fy,
                        Opcode::Mul => fx * fy,
                        Opcode::Min => fx.min(fy),
                        Opcode::Max => fx.max(fy),
                        _ => return Err(unsupported()),
                    };
                    if ty == Type::F32 {
                        // Single-precision arithmetic rounds in f32.
                        let (a32, b32) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
                        let r32 = match info.opcode {
                            Opcode::Add => a32 + b32,
                            Opcode::Sub => a32 - b32,
                            _ => a32 * b32,
                        };
                        let r = nan_result(r32.to_bits() as u64, ty, &[]);
                        if ftz {
                            flush_f32(r)
                        } else {
                            r
                        }
                    } else {
                        nan_result(from_f64(r, ty), ty, &[x, y])
                    }
                } else {
                    let y = y & mb;
                    match info.opcode {
                        Opcode::Add => x.wrapping_add(y),
                        Opcode::Sub => x.wrapping_sub(y),
                        Opcode::Mul if wide || hi => {
                            let p = full_product(x, y, ty);
                            if wide {
                                p as u64
                            } else {
                                (p >> bits) as u64
                            }
                        }
                        Opcode::Mul => x.wrapping_mul(y),
                        Opcode::And => x & y,
                        Opcode::Or => x | y,
                        Opcode::Xor => x ^ y,
                        Opcode::Shl => {
                            if b.v[lane] >= bits as u64 {
                                0
                            } else {
                                x << b.v[lane]
                            }
                        }
                        Opcode::Shr if ty.is_signed() => {
                            (sext(x, bits) >> b.v[lane].min(bits as u64 - 1)) as u64
                        }
                        Opcode::Shr => {
                            if b.v[lane] >= bits as u64 {
                                0
                            } else {
                                x >> b.v[lane]
                            }
                        }
                        Opcode::Min if ty.is_signed() => {
                            if sext(x, bits) <= sext(y, bits) {
                                x
                            } else {
                                y
                            }
                        }
                        Opcode::Max if ty.is_signed() => {
                            if sext(x, bits) >= sext(y, bits) {
                                x
                            } else {
                                y
                            }
                        }
                        Opcode::Min => x.min(y),
                        _ => x.max(y),
                    }
                };
            }
        }
        Opcode::Mad => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let wide = word("wide");
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                out[lane] = if ty.is_float() {
                    nan_result(
                        if ty == Type::F32 {
                            f32::from_bits(x as u32)
                                .mul_add(f32::from_bits(y as u32), f32::from_bits(c.v[lane] as u32))
                                .to_bits() as u64
                        } else {
                            f64::from_bits(x)
                                .mul_add(f64::from_bits(y), f64::from_bits(c.v[lane]))
                                .to_bits()
                        },
                        ty,
                        &[x, y, c.v[lane]],
                    )
                } else if wide {
                    (full_product(x, y, ty) as u64).wrapping_add(c.v[lane])
                } else if has_cmp(CmpOp::Hi) {
                    ((full_product(x, y, ty) >> bits) as u64).wrapping_add(c.v[lane])
                } else {
                    x.wrapping_mul(y).wrapping_add(c.v[lane])
                };
            }
        }
        Opcode::Neg | Opcode::Not | Opcode::Cnot | Opcode::Abs => {
            let a = s(1, ty, w, cta, m)?;
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                out[lane] = match info.opcode {
                    // Sign-bit operations, but an f32 NaN comes out canonical
                    // and an f64 NaN quieted, its sign kept (both measured).
                    Opcode::Neg | Opcode::Abs if ty.is_float() && to_f64(x, ty).is_nan() => {
                        if ty == Type::F32 {
                            CANON_NAN_F32
                        } else {
                            x | QUIET_F64
                        }
                    }
                    Opcode::Neg if ty.is_float() => x ^ (1 << (bits - 1)),
                    Opcode::Abs if ty.is_float() => x & !(1 << (bits - 1)),
                    Opcode::Neg => x.wrapping_neg(),
                    Opcode::Not => !x,
                    Opcode::Cnot => (x == 0) as u64,
                    _ => sext(x, bits).unsigned_abs(),
                };
            }
        }
        Opcode::Setp | Opcode::Set => {
            let stype = if info.opcode == Opcode::Set {
                info.types().nth(1).unwrap_or(ty)
            } else {
                ty
            };
            let (a, b) = (s(1, stype, w, cta, m)?, s(2, stype, w, cta, m)?);
            let c = info.cmp().ok_or_else(unsupported)?;
            let boolop = info.bool_op();
            let q = if boolop.is_some() {
                Some(s(3, Type::Pred, w, cta, m)?)
            } else {
                None
            };
            // x2 sources compare each half on its own.
            let x2 = matches!(stype, Type::F16x2 | Type::BF16x2);
            let elem = match stype {
                Type::F16x2 => Type::F16,
                Type::BF16x2 => Type::BF16,
                t => t,
            };
            let ftz = word("ftz");
            let mut second = [0u64; 32];
            for lane in 0..32 {
                let apply = |x: bool| match (boolop, &q) {
                    (Some(op), Some(q)) => {
                        let qq = q.v[lane] != 0;
                        match op {
                            BoolOp::And => x && qq,
                            BoolOp::Or => x || qq,
                            BoolOp::Xor => x ^ qq,
                        }
                    }
                    _ => x,
                };
                let mut r = [false; 2];
                let mut u = [false; 2];
                for h in 0..1 + usize::from(x2) {
                    let (x, y) = if x2 {
                        (
                            (a.v[lane] >> (16 * h)) & 0xffff,
                            (b.v[lane] >> (16 * h)) & 0xffff,
                        )
                    } else {
                        (a.v[lane], b.v[lane])
                    };
                    let t = if elem.is_float() {
                        cmp_float(c, float_in(x, elem, ftz), float_in(y, elem, ftz))
                    } else {
                        cmp_int(c, x & mask_bits(elem), y & mask_bits(elem), elem)
                    };
                    r[h] = apply(t);
                    u[h] = apply(!t);
                }
                if info.opcode == Opcode::Set {
                    let dty = info.types().next().unwrap_or(Type::U32);
                    out[lane] = if x2 {
                        let one = match dty {
                            Type::F16x2 => 0x3c00,
                            Type::BF16x2 => 0x3f80,
                            _ => 0xffff,
                        };
                        (u64::from(r[0]) * one) | ((u64::from(r[1]) * one) << 16)
                    } else if r[0] {
                        match dty {
                            Type::F32 => 1.0f32.to_bits() as u64,
                            Type::F16 => 0x3c00,
                            Type::BF16 => 0x3f80,
                            _ => mask_bits(dty),
                        }
                    } else {
                        0
                    };
                } else {
                    // setp: p|q is (t, BoolOp(!t)) for scalars, the two
                    // halves for x2.
                    out[lane] = r[0] as u64;
                    second[lane] = if x2 { r[1] } else { u[0] } as u64;
                }
            }
            if info.opcode == Opcode::Setp {
                if let Some(Operand::Pair(p, q)) = dest {
                    for (v, vals) in [(p, &out), (q, &second)] {
                        if let Some(v) = v {
                            set_result(w, f, &Operand::Value(*v), vals, run);
                        }
                    }
                    return Ok(());
                }
            }
        }
        Opcode::Selp => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, Type::Pred, w, cta, m)?,
            );
            for lane in 0..32 {
                out[lane] = if c.v[lane] != 0 { a.v[lane] } else { b.v[lane] };
            }
        }
        Opcode::Slct => {
            // slct.dtype.ctype d, a, b, c: d = c >= 0 ? a : b. With an f32
            // c, NaN selects b, and .ftz flushes a subnormal c to zero first.
            let dty = info.types().next().unwrap_or(ty);
            let (a, b, c) = (
                s(1, dty, w, cta, m)?,
                s(2, dty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let ftz = word("ftz");
            for lane in 0..32 {
                let pick_a = if ty == Type::F32 {
                    let x = f32::from_bits(c.v[lane] as u32);
                    (ftz && x.is_subnormal()) || x >= 0.0
                } else {
                    c.v[lane] as u32 as i32 >= 0
                };
                out[lane] = if pick_a { a.v[lane] } else { b.v[lane] };
            }
        }
        Opcode::Lop3 => {
            let (a, b, c, lut) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            for lane in 0..32 {
                let (x, y, z, l) = (a.v[lane], b.v[lane], c.v[lane], lut.v[lane] & 0xff);
                let mut r = 0u64;
                for bit in 0..32 {
                    let idx = (((x >> bit) & 1) << 2) | (((y >> bit) & 1) << 1) | ((z >> bit) & 1);
                    r |= ((l >> idx) & 1) << bit;
                }
                out[lane] = r;
            }
            // lop3.BoolOp d|p, a, b, c, lut, q: p = (d != 0) BoolOp q.
            if let Some(op) = info.bool_op() {
                let q = s(5, Type::Pred, w, cta, m)?;
                let mut p = [0u64; 32];
                for lane in 0..32 {
                    let (t, qq) = (out[lane] as u32 != 0, q.v[lane] != 0);
                    p[lane] = match op {
                        BoolOp::And => t && qq,
                        BoolOp::Or => t || qq,
                        BoolOp::Xor => return Err(unsupported()),
                    } as u64;
                }
                let Some(Operand::Pair(dv, pv)) = dest else {
                    return Err(unsupported());
                };
                for (v, vals) in [(dv, &out), (pv, &p)] {
                    if let Some(v) = v {
                        set_result(w, f, &Operand::Value(*v), vals, run);
                    }
                }
                return Ok(());
            }
        }
        Opcode::Prmt => {
            let (a, b, c) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::B32, w, cta, m)?,
                s(3, Type::B32, w, cta, m)?,
            );
            // Named modes pick d's bytes (b0..b3) by c[1:0] from this table.
            const MODES: [(&str, [[u8; 4]; 4]); 6] = [
                (
                    "f4e",
                    [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
                ),
                (
                    "b4e",
                    [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
                ),
                (
                    "rc8",
                    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
                ),
                (
                    "ecl",
                    [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
                ),
                (
                    "ecr",
                    [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
                ),
                (
                    "rc16",
                    [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
                ),
            ];
            let mut mode = None;
            for mm in info.mods.iter().filter(|mm| matches!(mm, Mod::Word(_))) {
                if f.ops.is_word(*mm, "b32") {
                    continue;
                }
                let t = MODES.iter().find(|(n, _)| f.ops.is_word(*mm, n));
                mode = Some(t.ok_or_else(unsupported)?.1);
            }
            for lane in 0..32 {
                let bytes = (a.v[lane] & 0xffff_ffff) | ((b.v[lane] & 0xffff_ffff) << 32);
                if let Some(table) = mode {
                    let picks = table[(c.v[lane] & 3) as usize];
                    out[lane] =
                        (0..4).fold(0, |r, k| r | ((bytes >> (8 * picks[k])) & 0xff) << (8 * k));
                    continue;
                }
                let mut r = 0u64;
                for k in 0..4 {
                    let sel = (c.v[lane] >> (4 * k)) & 0xf;
                    let byte = (bytes >> (8 * (sel & 7))) & 0xff;
                    let byte = if sel & 8 != 0 {
                        if byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    } else {
                        byte
                    };
                    r |= byte << (8 * k);
                }
                out[lane] = r;
            }
        }
        Opcode::Bfe => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            // The ISA's definition: result bit i is a[pos + i] for
            // i < len and pos + i <= msb, else the sign bit
            // a[min(pos + len - 1, msb)] (0 for unsigned or len 0).
            let low = |n: u64| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                let (pos, len) = (b.v[lane] & 0xff, c.v[lane] & 0xff);
                let msb = bits as u64 - 1;
                let sbit = ty.is_signed() && len > 0 && (x >> (pos + len - 1).min(msb)) & 1 == 1;
                let n = if pos > msb {
                    0
                } else {
                    len.min(bits as u64 - pos)
                };
                let field = if n == 0 { 0 } else { (x >> pos) & low(n) };
                out[lane] = if sbit { field | (mb & !low(n)) } else { field };
            }
        }
        Opcode::Bfi => {
            let (a, b, c, e) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            for lane in 0..32 {
                let pos = (c.v[lane] & 0xff).min(bits as u64);
                let len = (e.v[lane] & 0xff).min(bits as u64 - pos);
                let fm = if len == 0 {
                    0
                } else if len >= 64 {
                    u64::MAX
                } else {
                    ((1u64 << len) - 1) << pos
                };
                out[lane] =
                    (b.v[lane] & !fm) | (a.v[lane].checked_shl(pos as u32).unwrap_or(0) & fm);
            }
        }
        Opcode::Cvta => {
            let a = s(1, Type::U64, w, cta, m)?;
            let space = info.space().ok_or_else(unsupported)?;
            let to = word("to");
            let base = match space {
                Space::Shared => SHARED_BASE,
                Space::Local => LOCAL_BASE,
                Space::Param => PARAM_BASE,
                _ => 0,
            };
            for lane in 0..32 {
                out[lane] = if to {
                    a.v[lane].wrapping_sub(base)
                } else {
                    a.v[lane].wrapping_add(base)
                };
            }
        }
        Opcode::Cvt if word("pack") => {
            // cvt.pack.sat.T.s32 d, a, b{, c}: a and b clamped to T, b in
            // the low bits and a above it; for the sub-16-bit types the
            // bits above come from c's low bits.
            let tys: Vec<Type> = info.types().collect();
            let (Some(&cty), true) = (tys.first(), word("sat")) else {
                return Err(unsupported());
            };
            let size = cty.bits();
            if !matches!(size, 8 | 16) || d.operands.len() != 3 + usize::from(size == 8) {
                return Err(unsupported());
            }
            let (lo, hi) = if cty.is_signed() {
                (-(1i64 << (size - 1)), (1i64 << (size - 1)) - 1)
            } else {
                (0, (1i64 << size) - 1)
            };
            let (a, b) = (s(1, Type::S32, w, cta, m)?, s(2, Type::S32, w, cta, m)?);
            let c = if size == 8 {
                Some(s(3, Type::B32, w, cta, m)?)
            } else {
                None
            };
            let field = (1u64 << size) - 1;
            for lane in 0..32 {
                let clamp = |x: u64| (sext(x, 32).clamp(lo, hi) as u64) & field;
                let packed = clamp(a.v[lane]) << size | clamp(b.v[lane]);
                let above = c.as_ref().map_or(0, |c| c.v[lane] << (2 * size));
                out[lane] = (packed | above) & 0xffff_ffff;
            }
        }
        Opcode::Cvt => {
            let mut tys = info.types();
            let (dty, sty) = (
                tys.next().ok_or_else(unsupported)?,
                tys.next().ok_or_else(unsupported)?,
            );
            let a = s(1, sty, w, cta, m)?;
            for lane in 0..32 {
                let x = a.v[lane] & mask_bits(sty);
                out[lane] = match (dty.is_float(), sty.is_float()) {
                    (false, false) => {
                        if sty.is_signed() {
                            sext(x, sty.bits()) as u64
                        } else {
                            x
                        }
                    }
                    (true, false) => {
                        let v = if sty.is_signed() {
                            sext(x, sty.bits()) as f64
                        } else {
                            x as f64
                        };
                        from_f64(v, dty)
                    }
                    (false, true) => {
                        let mode = ["rni", "rmi", "rpi"]
                            .into_iter()
                            .find(|r| word(r))
                            .unwrap_or("rzi");
                        let x = if word("ftz") && sty == Type::F32 {
                            flush_f32(x)
                        } else {
                            x
                        };
                        float_to_int(to_f64(x, sty), mode, dty)
                    }
                    (true, true) => from_f64(to_f64(x, sty), dty),
                };
            }
        }
        Opcode::Other if &*info.mnemonic == "shfl" && word("sync") => {
            // shfl.sync.MODE.b32 d[|p], a, b, c, membermask (PTX ISA
            // 9.7.9.6): lane j's a, j from b (lane or offset, 5 bits) per
            // mode, within the segment c[12:8] masks and clamped by
            // c[4:0]; out of range, a thread reads its own a and p is
            // false. Every lane the membermask names must execute this
            // shfl and every executing lane must be named: otherwise the
            // ISA leaves it undefined, and the evaluator says so.
            let (a, b, c, mm) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            let first = run.trailing_zeros() as usize;
            let members = mm.v[first] as u32;
            if (0..32).any(|l| run & (1 << l) != 0 && mm.v[l] as u32 != members) {
                return Err(EvalError::new(
                    pos,
                    "shfl.sync: lanes disagree on the membermask",
                ));
            }
            if run & !members != 0 {
                return Err(EvalError::new(
                    pos,
                    format!(
                        "shfl.sync: lanes 0x{:08x} execute it but the membermask 0x{members:08x} leaves them out (undefined)",
                        run & !members
                    ),
                ));
            }
            if members & !run != 0 {
                return Err(EvalError::new(
                    pos,
                    format!(
                        "shfl.sync: the membermask 0x{members:08x} names lanes 0x{:08x} that are exited or do not execute it (undefined)",
                        members & !run
                    ),
                ));
            }
            let mode = ["up", "down", "bfly", "idx"]
                .into_iter()
                .find(|x| word(x))
                .ok_or_else(unsupported)?;
            let mut pred = [0u64; 32];
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let (bval, cval) = (b.v[lane] as i64 & 0x1f, c.v[lane] as i64 & 0x1f);
                let segmask = (c.v[lane] as i64 >> 8) & 0x1f;
                let l = lane as i64;
                let max_lane = (l & segmask) | (cval & !segmask);
                let min_lane = l & segmask;
                let (j, ok) = match mode {
                    "up" => (l - bval, l - bval >= max_lane),
                    "down" => (l + bval, l + bval <= max_lane),
                    "bfly" => (l ^ bval, (l ^ bval) <= max_lane),
                    _ => {
                        let j = min_lane | (bval & !segmask);
                        (j, j <= max_lane)
                    }
                };
                let src = if ok { j as usize } else { lane };
                out[lane] = a.v[src] & 0xffff_ffff;
                pred[lane] = u64::from(ok);
            }
            if let Some(Operand::Pair(d, p)) = dest {
                for (v, vals) in [(d, &out), (p, &pred)] {
                    if let Some(v) = v {
                        set_result(w, f, &Operand::Value(*v), vals, run);
                    }
                }
                return Ok(());
            }
        }
        Opcode::Activemask => out = [mask as u64; 32],
        Opcode::Vote => {
            let sync = word("sync");
            let p = s(1, Type::Pred, w, cta, m)?;
            let mut members = run;
            if sync {
                let mm = s(2, Type::U32, w, cta, m)?;
                members &= mm.v[run.trailing_zeros() as usize] as u32;
            }
            let mut ballot = 0u32;
            for lane in 0..32 {
                if members & (1 << lane) != 0 && p.v[lane] != 0 {
                    ballot |= 1 << lane;
                }
            }
            let r = if word("ballot") {
                ballot as u64
            } else if word("any") {
                (ballot != 0) as u64
            } else if word("all") {
                (ballot == members) as u64
            } else if word("uni") {
                (ballot == 0 || ballot == members) as u64
            } else {
                return Err(unsupported());
            };
            out = [r; 32];
        }
        Opcode::Ld | Opcode::St => {
            let vec_n = if word("v4") {
                4
            } else if word("v2") {
                2
            } else {
                1
            };
            let len = (bits as u64).div_ceil(8);
            let space = info.space();
            let (addr_op, val_op) = if info.opcode == Opcode::Ld {
                (1, 0)
            } else {
                (0, 1)
            };
            let Some(Operand::Addr(a)) = d.operands.get(addr_op) else {
                return Err(unsupported());
            };
            let base = src(k, cta, w, m, &a.base, Type::U64, pos)?;
            let slots: &[Operand] = match &d.operands[val_op] {
                Operand::Vector(v) => v,
                o => std::slice::from_ref(o),
            };
            if slots.len() != vec_n {
                return Err(unsupported());
            }
            for (e, slot) in slots.iter().enumerate() {
                let mut vals = [0u64; 32];
                let mut seen: SmallVec<[(u64, u128); 32]> = SmallVec::new();
                let data = if info.opcode == Opcode::St {
                    Some(src(k, cta, w, m, slot, ty, pos)?)
                } else {
                    None
                };
                for lane in 0..32 {
                    if run & (1 << lane) == 0 {
                        continue;
                    }
                    let addr = base.v[lane]
                        .wrapping_add(a.offset as u64)
                        .wrapping_add(e as u64 * len);
                    let store = data.as_ref().map(|d| d.v[lane] as u128);
                    if let Some(v) = store {
                        seen.push((addr, v));
                    }
                    let r = mem_access(cta, w, m, space, addr, len, lane, store, pos)? as u64;
                    vals[lane] = if ty.is_signed() {
                        sext(r, bits) as u64
                    } else {
                        r
                    };
                }
                if info.opcode == Opcode::Ld {
                    set_result(w, f, slot, &vals, run);
                }
                if conflicting(&mut seen) {
                    m.unordered += 1;
                }
            }
            return Ok(());
        }
        Opcode::Other if matches!(&*info.mnemonic, "atom" | "red") => {
            // atom d, [a], b{, c} returns the old value; red [a], b does not.
            // Lanes update memory one after another, in lane order.
            let red = &*info.mnemonic == "red";
            let at = if red { 0 } else { 1 };
            let Some(Operand::Addr(a)) = d.operands.get(at) else {
                return Err(unsupported());
            };
            let base = src(k, cta, w, m, &a.base, Type::U64, pos)?;
            let b = s(at + 1, ty, w, cta, m)?;
            let c = if word("cas") {
                Some(s(at + 2, ty, w, cta, m)?)
            } else {
                None
            };
            let len = (bits as u64).div_ceil(8);
            let mut addrs: SmallVec<[(u64, u128); 32]> = SmallVec::new();
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let addr = base.v[lane].wrapping_add(a.offset as u64);
                // Old values read back depend on the lanes' order.
                addrs.push((addr, lane as u128));
                let old = mem_access(cta, w, m, info.space(), addr, len, lane, None, pos)? as u64;
                let y = b.v[lane] & mb;
                let float = |op: fn(f64, f64) -> f64| {
                    if ty == Type::F32 {
                        let (p, q) = (f32::from_bits(old as u32), f32::from_bits(y as u32));
                        (op(p as f64, q as f64) as f32).to_bits() as u64
                    } else {
                        op(f64::from_bits(old), f64::from_bits(y)).to_bits()
                    }
                };
                let new = if word("add") && ty.is_float() {
                    // Each add rounds in the instruction's own precision.
                    if ty == Type::F32 {
                        (f32::from_bits(old as u32) + f32::from_bits(y as u32)).to_bits() as u64
                    } else {
                        (f64::from_bits(old) + f64::from_bits(y)).to_bits()
                    }
                } else if word("add") {
                    old.wrapping_add(y) & mb
                } else if word("exch") {
                    y
                } else if word("and") || info.bool_op() == Some(BoolOp::And) {
                    old & y
                } else if word("or") || info.bool_op() == Some(BoolOp::Or) {
                    old | y
                } else if word("xor") || info.bool_op() == Some(BoolOp::Xor) {
                    old ^ y
                } else if word("inc") {
                    if old >= y {
                        0
                    } else {
                        old + 1
                    }
                } else if word("dec") {
                    if old == 0 || old > y {
                        y
                    } else {
                        old - 1
                    }
                } else if let Some(c) = &c {
                    if old == y {
                        c.v[lane] & mb
                    } else {
                        old
                    }
                } else if word("min") || word("max") {
                    let min = word("min");
                    if ty.is_float() {
                        float(if min { f64::min } else { f64::max })
                    } else {
                        let less = if ty.is_signed() {
                            sext(old, bits) < sext(y, bits)
                        } else {
                            old < y
                        };
                        if less == min {
                            old
                        } else {
                            y
                        }
                    }
                } else {
                    return Err(unsupported());
                };
                mem_access(
                    cta,
                    w,
                    m,
                    info.space(),
                    addr,
                    len,
                    lane,
                    Some(new as u128),
                    pos,
                )?;
                out[lane] = old;
            }
            if red {
                return Ok(());
            }
            if conflicting(&mut addrs) {
                m.unordered += 1;
            }
        }
        Opcode::Other
            if ty.is_float()
                && (word("approx") || word("full"))
                && matches!(
                    &*info.mnemonic,
                    "div" | "rcp" | "sqrt" | "rsqrt" | "lg2" | "ex2" | "sin" | "cos"
                ) =>
        {
            // The approximate forms, modelled as the correctly rounded
            // value of the function (the hardware is within the ISA's
            // bound of it: docs/evaluator.md); `.ftz` flushes subnormal
            // inputs and results to zero, keeping the sign; NaN results
            // are the canonical NaN.
            let ftz = word("ftz") && ty == Type::F32;
            let flush = |x: u64| if ftz { flush_f32(x) } else { x };
            let a = s(1, ty, w, cta, m)?;
            let b = if &*info.mnemonic == "div" {
                Some(s(2, ty, w, cta, m)?)
            } else {
                None
            };
            for lane in 0..32 {
                let x = to_f64(flush(a.v[lane]), ty);
                let r = match &*info.mnemonic {
                    "div" => x / to_f64(flush(b.as_ref().map_or(0, |b| b.v[lane])), ty),
                    "rcp" => 1.0 / x,
                    "sqrt" => x.sqrt(),
                    "rsqrt" => 1.0 / x.sqrt(),
                    "lg2" => x.log2(),
                    "ex2" => x.exp2(),
                    "sin" => x.sin(),
                    _ => x.cos(),
                };
                out[lane] = nan_result(flush(from_f64(r, ty)), ty, &[]);
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "div" | "sqrt") && ty.is_float() => {
            // Only the IEEE round-to-nearest forms are exact; the .approx
            // and .full forms are implementation-defined and reported.
            if !word("rn") || word("ftz") {
                return Err(unsupported());
            }
            let div = &*info.mnemonic == "div";
            let a = s(1, ty, w, cta, m)?;
            let b = if div {
                Some(s(2, ty, w, cta, m)?)
            } else {
                None
            };
            for lane in 0..32 {
                out[lane] = if ty == Type::F32 {
                    let x = f32::from_bits(a.v[lane] as u32);
                    let r = match &b {
                        Some(b) => x / f32::from_bits(b.v[lane] as u32),
                        None => x.sqrt(),
                    };
                    nan_result(r.to_bits() as u64, ty, &[])
                } else {
                    let x = f64::from_bits(a.v[lane]);
                    let (r, y) = match &b {
                        Some(b) => (x / f64::from_bits(b.v[lane]), b.v[lane]),
                        None => (x.sqrt(), 0),
                    };
                    // div.rn.f64 (a software sequence on the GPU) passes on
                    // the dividend's NaN first: the reverse of add/mul.
                    nan_result(r.to_bits(), ty, &[y, a.v[lane]])
                };
            }
        }
        Opcode::Vadd2
        | Opcode::Vsub2
        | Opcode::Vavrg2
        | Opcode::Vabsdiff2
        | Opcode::Vmin2
        | Opcode::Vmax2 => {
            return vop2(k, w, i, run);
        }
        Opcode::Other if &*info.mnemonic == "fma" && ty.is_float() => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            for lane in 0..32 {
                out[lane] = nan_result(
                    if ty == Type::F32 {
                        let f = |v: u64| f32::from_bits(v as u32);
                        f(a.v[lane]).mul_add(f(b.v[lane]), f(c.v[lane])).to_bits() as u64
                    } else {
                        f64::from_bits(a.v[lane])
                            .mul_add(f64::from_bits(b.v[lane]), f64::from_bits(c.v[lane]))
                            .to_bits()
                    },
                    ty,
                    &[a.v[lane], b.v[lane], c.v[lane]],
                );
            }
        }
        Opcode::Other if &*info.mnemonic == "bfind" => {
            // Position of the most significant bit that differs from the
            // sign (unsigned: the most significant 1); all ones if none.
            let a = s(1, ty, w, cta, m)?;
            let shiftamt = info.mods.iter().any(|mm| f.ops.is_word(*mm, "shiftamt"));
            for lane in 0..32 {
                let mut x = a.v[lane] & mb;
                if ty.is_signed() && x >> (bits - 1) & 1 == 1 {
                    x = !x & mb;
                }
                out[lane] = if x == 0 {
                    0xffff_ffff
                } else {
                    let msb = 63 - x.leading_zeros() as u64;
                    if shiftamt {
                        bits as u64 - 1 - msb
                    } else {
                        msb
                    }
                };
            }
        }
        Opcode::Other if &*info.mnemonic == "sad" && !ty.is_float() => {
            // d = c + |a - b|, the difference exact at the type's width.
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                let diff = if ty.is_signed() {
                    sext(x, bits).abs_diff(sext(y, bits))
                } else {
                    x.abs_diff(y)
                };
                out[lane] = c.v[lane].wrapping_add(diff) & mb;
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "dp2a" | "dp4a") => {
            // d = c + the products of a's parts (half-words for dp2a,
            // bytes for dp4a) and b's bytes (dp2a: bytes 0, 1, or 2, 3
            // under `.hi`), each extended by its operand's type, in 32
            // bits.
            let tys: Vec<Type> = info.types().collect();
            let [aty, bty] = tys[..] else {
                return Err(unsupported());
            };
            let (a, b, c) = (
                s(1, Type::U32, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            let two = &*info.mnemonic == "dp2a";
            // `.hi` parses as the compare operator `hi`.
            let first_byte = if two && info.mods.contains(&Mod::Cmp(CmpOp::Hi)) {
                2
            } else {
                0
            };
            let part = |x: u64, width: u32, k: u32, ty: Type| -> i64 {
                let v = (x >> (width * k)) & ((1 << width) - 1);
                if ty.is_signed() {
                    sext(v, width)
                } else {
                    v as i64
                }
            };
            for lane in 0..32 {
                let (x, y) = (a.v[lane], b.v[lane]);
                let mut acc = c.v[lane] as i64;
                for k in 0..if two { 2 } else { 4 } {
                    let xa = if two {
                        part(x, 16, k, aty)
                    } else {
                        part(x, 8, k, aty)
                    };
                    acc = acc.wrapping_add(xa * part(y, 8, first_byte + k, bty));
                }
                out[lane] = acc as u64 & 0xffff_ffff;
            }
        }
        Opcode::Other if &*info.mnemonic == "mul24" => {
            // The 48-bit product of the low 24 bits; .lo keeps bits 0..31,
            // .hi bits 16..47.
            let (a, b) = (s(1, ty, w, cta, m)?, s(2, ty, w, cta, m)?);
            // `.hi` parses as the compare operator `hi`.
            let hi = info.mods.contains(&Mod::Cmp(CmpOp::Hi));
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & 0xff_ffff, b.v[lane] & 0xff_ffff);
                let p = if ty.is_signed() {
                    (sext(x, 24).wrapping_mul(sext(y, 24))) as u64
                } else {
                    x * y
                };
                out[lane] = if hi { p >> 16 } else { p } & 0xffff_ffff;
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "popc" | "clz" | "brev") => {
            let a = s(1, ty, w, cta, m)?;
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                out[lane] = match &*info.mnemonic {
                    "popc" => x.count_ones() as u64,
                    "clz" => (x.leading_zeros() - (64 - bits)) as u64,
                    _ => x.reverse_bits() >> (64 - bits),
                };
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "div" | "rem") && !ty.is_float() => {
            // Division by zero is undefined in PTX; the evaluator reports it.
            let (a, b) = (s(1, ty, w, cta, m)?, s(2, ty, w, cta, m)?);
            let rem = &*info.mnemonic == "rem";
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                if y == 0 {
                    return Err(EvalError::new(pos, "integer division by zero"));
                }
                out[lane] = if ty.is_signed() {
                    let (x, y) = (sext(x, bits), sext(y, bits));
                    (if rem {
                        x.wrapping_rem(y)
                    } else {
                        x.wrapping_div(y)
                    }) as u64
                } else if rem {
                    x % y
                } else {
                    x / y
                };
            }
        }
        Opcode::Shf => {
            // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a.
            let (a, b, c) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::B32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            let left = word("l");
            for lane in 0..32 {
                let n = if word("wrap") {
                    c.v[lane] & 31
                } else {
                    c.v[lane].min(32)
                };
                let pair = (b.v[lane] & 0xffff_ffff) << 32 | (a.v[lane] & 0xffff_ffff);
                out[lane] = if left { (pair << n) >> 32 } else { pair >> n } & 0xffff_ffff;
            }
        }
        // `.pragma` interns with an empty mnemonic (its text is the
        // directive); it changes nothing at run time.
        Opcode::Other if &*info.text == ".pragma" => return Ok(()),
        _ => return Err(unsupported()),
    }
    if let Some(o) = dest {
        set_result(w, f, o, &out, run);
    }
    Ok(())
}

/// [`exec`] for the carry forms: `opcode` is the base operation, `with_in`
/// whether CC.CF is an input (`addc`, `subc`, `madc`).
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn carry_op(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    i: Inst,
    run: u32,
    opcode: Opcode,
    with_in: bool,
) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let ty = info.last_type().unwrap_or(Type::U32);
    let bits = ty.bits();
    if !matches!(bits, 32 | 64) || !ty.is_integer() {
        return Err(EvalError::new(
            d.pos,
            format!("'{}' is not supported by the evaluator", info.text),
        ));
    }
    let writes = info.mods.iter().any(|mm| f.ops.is_word(*mm, "cc"));
    let hi = info.mods.contains(&Mod::Cmp(CmpOp::Hi));
    let n = if opcode == Opcode::Mad { 3 } else { 2 };
    let mut x = Vec::new();
    for k2 in 1..=n {
        let o = d
            .operands
            .get(k2)
            .ok_or_else(|| EvalError::new(d.pos, "missing operand"))?;
        x.push(src(k, cta, w, m, o, ty, d.pos)?);
    }
    let mb: u128 = if bits == 64 {
        u64::MAX as u128
    } else {
        (1u128 << bits) - 1
    };
    let mut out = [0u64; 32];
    let mut carry = w.carry;
    for lane in 0..32 {
        if run & (1 << lane) == 0 {
            continue;
        }
        let cf = u128::from(with_in && w.carry & (1 << lane) != 0);
        let a = x[0].v[lane] as u128 & mb;
        let b = x[1].v[lane] as u128 & mb;
        let (r, c_out) = match opcode {
            Opcode::Add => {
                let s = a + b + cf;
                (s & mb, s > mb)
            }
            Opcode::Sub => {
                let sub = b + cf;
                (a.wrapping_sub(sub) & mb, a < sub)
            }
            _ => {
                let p = if ty.is_signed() {
                    let sx = |v: u128| ((v as u64 as i64) << (64 - bits) >> (64 - bits)) as i128;
                    (sx(a) * sx(b)) as u128
                } else {
                    a * b
                };
                let part = if hi { (p >> bits) & mb } else { p & mb };
                let s = part + (x[2].v[lane] as u128 & mb) + cf;
                (s & mb, s > mb)
            }
        };
        out[lane] = r as u64;
        if writes {
            carry = (carry & !(1 << lane)) | (u32::from(c_out) << lane);
        }
    }
    w.carry = carry;
    if let Some(o) = d.operands.first() {
        set_result(w, f, o, &out, run);
    }
    Ok(())
}

#[allow(clippy::needless_range_loop)]
/// The dual half-word video instructions#[allow(clippy::needless_range_loop)]
/// The dual half-word video instructions (`vadd2` … `vmax2`), merge and
/// accumulate forms, as `../shared/docs/ptx-semantics.md` §6 defines them.
fn vop2(k: &Kernel, w: &mut Warp, i: Inst, run: u32) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let unsupported = || {
        EvalError::new(
            d.pos,
            format!("'{}' is not supported by the evaluator", info.text),
        )
    };
    let tys: Vec<Type> = info.types().collect();
    let [dty, aty, bty] = tys[..] else {
        return Err(unsupported());
    };
    let word = |x: &str| info.mods.iter().any(|mm| f.ops.is_word(*mm, x));
    let (sat, add) = (word("sat"), word("add"));
    // Register and selector digits of an operand (`.hXY`: lane 1 takes X).
    let split =
        |o: Option<&Operand>, default: [u32; 2]| -> Result<(ptx_ir::Value, [u32; 2]), EvalError> {
            match o {
                Some(Operand::Value(v)) => Ok((*v, default)),
                Some(Operand::Sel(v, s)) => {
                    let sel = f.ops.syms.get(*s).trim_start_matches('.');
                    let digits: Vec<u32> = sel
                        .strip_prefix('h')
                        .ok_or_else(unsupported)?
                        .chars()
                        .filter_map(|c| c.to_digit(10))
                        .collect();
                    match digits[..] {
                        [x, y] if x < 4 && y < 4 => Ok((*v, [y, x])),
                        [x] if x < 2 => Ok((*v, [x, x])),
                        _ => Err(unsupported()),
                    }
                }
                _ => Err(unsupported()),
            }
        };
    let (dv, dsel) = split(d.operands.first(), [0, 1])?;
    let lane_mask = match d.operands.first() {
        Some(Operand::Sel(..)) => {
            // `.h0`, `.h1` or `.h10` on the destination.
            let (a, b) = (dsel[0], dsel[1]);
            (1u32 << a) | (1u32 << b)
        }
        _ => 3,
    };
    let (av, asel) = split(d.operands.get(1), [0, 1])?;
    let (bv, bsel) = split(d.operands.get(2), [2, 3])?;
    let Some(Operand::Value(cv)) = d.operands.get(3) else {
        return Err(unsupported());
    };
    let ext = |h: u64, ty: Type| -> i64 {
        if ty.is_signed() {
            h as u16 as i16 as i64
        } else {
            h as i64
        }
    };
    let mut out = w.regs[dv.as_u32() as usize];
    for lane in 0..32 {
        if run & (1 << lane) == 0 {
            continue;
        }
        let (a, b, c) = (
            w.regs[av.as_u32() as usize][lane],
            w.regs[bv.as_u32() as usize][lane],
            w.regs[cv.as_u32() as usize][lane],
        );
        let pool = [
            a & 0xffff,
            (a >> 16) & 0xffff,
            b & 0xffff,
            (b >> 16) & 0xffff,
        ];
        let mut t = [0i64; 2];
        for h in 0..2 {
            let x = ext(pool[asel[h] as usize], aty);
            let y = ext(pool[bsel[h] as usize], bty);
            let mut r = match info.opcode {
                Opcode::Vadd2 => x + y,
                Opcode::Vsub2 => x - y,
                Opcode::Vavrg2 => {
                    let s = x + y;
                    if s >= 0 {
                        (s + 1) >> 1
                    } else {
                        s >> 1
                    }
                }
                Opcode::Vabsdiff2 => (x - y).abs(),
                Opcode::Vmin2 => x.min(y),
                _ => x.max(y),
            };
            if sat {
                r = if dty.is_signed() {
                    r.clamp(-32768, 32767)
                } else {
                    r.clamp(0, 65535)
                };
            }
            t[h] = r;
        }
        out[lane] = if add {
            let sum = (0..2)
                .filter(|h| lane_mask & (1 << h) != 0)
                .fold(c as i64, |acc, h| acc.wrapping_add(t[h]));
            sum as u64 & 0xffff_ffff
        } else {
            (0..2).fold(0u64, |acc, h| {
                let half = if lane_mask & (1 << h) != 0 {
                    t[h] as u64
                } else {
                    c >> (16 * h)
                };
                acc | (half & 0xffff) << (16 * h)
            })
        };
    }
    w.regs[dv.as_u32() as usize] = out;
    Ok(())
}

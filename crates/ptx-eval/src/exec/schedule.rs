//! The machine: kernels prepared for running, CTAs of warps scheduled to
//! barriers, reconvergence at immediate post-dominators, calls with their
//! frames, and the control-flow terminators.

use super::*;

/// What a CTA holds besides global memory: its shared memory, and per
/// warp 32 lanes of local memory and parameter frame plus the registers.
pub(super) fn frame_bytes(k: &Kernel, warps: u64) -> u64 {
    let regs = k.f.dfg.values.len() as u64 * std::mem::size_of::<[u64; 32]>() as u64;
    let lane = k.local_size.saturating_add(k.frame_size);
    warps.saturating_mul(regs.saturating_add(lane.saturating_mul(32)))
}

pub(super) struct Kernel<'m> {
    pub(super) f: &'m Function,
    pub(super) ipdom: SecondaryMap<Block, Option<Block>>,
    /// Parameter addresses in the param space (see [`FRAME`]).
    pub(super) params: FxHashMap<String, u64>,
    /// Size of the per-thread parameter frame.
    pub(super) frame_size: u64,
    pub(super) shared: FxHashMap<String, u64>,
    pub(super) shared_size: u64,
    pub(super) local: FxHashMap<String, u64>,
    pub(super) local_size: u64,
    /// Whether the function has `.approx`/`.full` instructions (its warps
    /// then keep tags: see `approx`).
    pub(super) approx: bool,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) block: Block,
    pub(super) mask: u32,
    /// Reconvergence block: the entry ends on reaching it.
    pub(super) rpc: Option<Block>,
    /// Instructions of `block` already executed (resumption after a barrier).
    pub(super) start: u32,
}

pub(super) struct Warp {
    pub(super) id: u32,
    pub(super) exited: u32,
    pub(super) regs: Vec<[u64; 32]>,
    /// Per register, each lane's [`approx::Tag`]; empty when not tracked.
    pub(super) approx: Vec<[approx::Tag; 32]>,
    pub(super) stack: Vec<Entry>,
    pub(super) tid: [[u32; 3]; 32],
    pub(super) local: Vec<Vec<u8>>,
    /// Per-thread parameter frames (call-site `.param` variables; a
    /// device function's parameters and return values).
    pub(super) frame: Vec<Vec<u8>>,
    pub(super) at_barrier: bool,
    /// Lanes that ran `exit` (inside a called function: they leave the
    /// caller too).
    pub(super) killed: u32,
    /// Calls in progress below this frame.
    pub(super) depth: u32,
    /// `CC.CF` per lane (bit l): the carry `add.cc`/`sub.cc`/`mad.cc` set
    /// and `addc`/`subc`/`madc` read; not kept across calls (ISA).
    pub(super) carry: u32,
    /// The `bar.red` this warp waits at: the instruction, its lanes, and
    /// the lanes whose predicate is true.
    pub(super) reduction: Option<(Inst, u32, u32)>,
    /// `cp.async` copies not yet committed: (lane, shared address, bytes,
    /// data read at issue).
    pub(super) async_open: Vec<(usize, u64, u64, u128)>,
    /// Committed `cp.async` groups, oldest first.
    pub(super) async_groups: std::collections::VecDeque<Vec<(usize, u64, u64, u128)>>,
}

/// The module's device functions, each prepared (post-dominators,
/// layouts) the first time a call reaches it.
pub(super) struct Funcs<'a> {
    pub(super) module: &'a Module,
    pub(super) built: std::cell::RefCell<FxHashMap<&'a str, std::rc::Rc<Kernel<'a>>>>,
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

pub(super) struct Cta<'a> {
    pub(super) ctaid: [u32; 3],
    pub(super) launch: Launch,
    pub(super) shared: Vec<u8>,
    pub(super) param: &'a [u8],
    /// The module's device functions, for `call`.
    pub(super) funcs: &'a Funcs<'a>,
}

/// The execution context of one function: reconvergence points and the
/// layout of its parameters and variables.
pub(super) fn kernel<'m>(module: &'m Module, f: &'m Function) -> Kernel<'m> {
    let cfg = ControlFlowGraph::compute(f);
    let pdt = PostDominatorTree::compute(f, &cfg);
    let mut ipdom = SecondaryMap::with_default(None);
    for b in f.layout.blocks() {
        ipdom[b] = pdt.ipdom(b);
    }
    let mut pmap = FxHashMap::default();
    let call_site = f.decls.iter().filter_map(|d| match &d.var {
        Some((_, v)) if v.space == Space::Param => Decl::body(d),
        _ => None,
    });
    let frame_size = if f.kind == FuncKind::Entry {
        layout(f.params.iter().flatten().map(Decl::param), &mut pmap);
        frame_layout(call_site, &mut pmap)
    } else {
        // Parameters first, laid out as a param block is (so a launch of
        // the function itself can start from one), then return values.
        let formal = f.params.iter().flatten().chain(f.rets.iter().flatten());
        frame_layout(formal.map(Decl::param).chain(call_site), &mut pmap)
    };
    let mut shared = FxHashMap::default();
    let mut shared_size = layout(shared_decls(module, f), &mut shared);
    // `extern .shared` arrays get the dynamic shared memory of the launch;
    // without one, an access past the static variables is out of range.
    shared_size += dynamic_shared_bytes(module, f) as u64;
    let mut local = FxHashMap::default();
    let local_size = layout(
        f.decls.iter().filter_map(|d| match &d.var {
            Some((_, v)) if v.space == Space::Local => Decl::body(d),
            _ => None,
        }),
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
        approx: approx::uses_approx(f),
    }
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

pub(super) fn run_cta(
    k: &Kernel,
    cta: &mut Cta,
    m: &mut Machine,
    stats: &mut Stats,
) -> Result<(), EvalError> {
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
                approx: if k.approx {
                    vec![[approx::EXACT; 32]; nvals]
                } else {
                    Vec::new()
                },
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
                reduction: None,
                async_open: Vec::new(),
                async_groups: Default::default(),
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
            // bar.red.{popc,and,or}: every waiting thread's predicate.
            let (mut votes, mut lanes) = (0u32, 0u32);
            for w in live.iter().filter_map(|w| w.reduction) {
                votes += w.2.count_ones();
                lanes += w.1.count_ones();
            }
            for w in live {
                w.at_barrier = false;
                if let Some((i, run, _)) = w.reduction.take() {
                    let word = |x: &str| k.f.op(i).mods.iter().any(|mm| k.f.ops.is_word(*mm, x));
                    let and = k.f.op(i).mods.contains(&Mod::Bool(BoolOp::And));
                    let r = if word("popc") {
                        votes as u64
                    } else if and {
                        u64::from(votes == lanes)
                    } else {
                        u64::from(votes > 0)
                    };
                    if let Some(o) = k.f.inst(i).operands.first() {
                        set_result(w, k.f, o, &[r; 32], run);
                    }
                }
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

pub(super) fn record_returns(
    k: &Kernel,
    cta: &Cta,
    warps: &[Warp],
    started: &[u32],
    m: &mut Machine,
) {
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
                let (Some(&off), size) = (k.params.get(&*r.name), Decl::param(r).size) else {
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

/// Runs one warp until it finishes or reaches a barrier.
pub(super) fn run_warp(
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
                let word = |x: &str| info.mods.iter().any(|mm| f.ops.is_word(*mm, x));
                if word("red") {
                    w.reduction = Some(bar_red_votes(k, cta, w, m, i, mask)?);
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

/// `bar.red.OP d, a{, b}, {!}c` at the barrier: the lanes that execute it
/// (its guard) and those whose `c` is true. The reduction over the whole
/// CTA is written when every warp has arrived.
#[allow(clippy::needless_range_loop)]
fn bar_red_votes(
    k: &Kernel,
    cta: &Cta,
    w: &Warp,
    m: &Machine,
    i: Inst,
    mask: u32,
) -> Result<(Inst, u32, u32), EvalError> {
    let d = k.f.inst(i);
    let run = guarded_lanes(w, d, mask);
    let c = d
        .operands
        .last()
        .ok_or_else(|| EvalError::new(d.pos, "bar.red: missing predicate"))?;
    let c = src(k, cta, w, m, c, Type::Pred, d.pos)?;
    let votes = (0..32)
        .filter(|&l| run & (1 << l) != 0 && c.v[l] != 0)
        .fold(0u32, |acc, l| acc | 1 << l);
    Ok((i, run, votes))
}

/// Deepest nesting of calls (recursion included) before a run is stopped.
pub(super) const MAX_CALL_DEPTH: u32 = 64;

/// `call (r…), f, (a…)` by the lanes of `mask` whose guard holds: a frame
/// for `f` with the arguments copied in (call-site `.param` variables byte
/// for byte, registers and immediates as values), `f` run to `ret` with
/// those lanes, the return values copied back. Lanes that `exit` in `f`
/// end in the caller too.
#[allow(clippy::too_many_arguments)]
pub(super) fn call(
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
    let lanes = guarded_lanes(w, d, mask);
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
        approx: if callee.approx || !w.approx.is_empty() {
            vec![[approx::EXACT; 32]; callee.f.dfg.values.len()]
        } else {
            Vec::new()
        },
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
        reduction: None,
        async_open: Vec::new(),
        async_groups: Default::default(),
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
pub(super) fn decl_layout_of(f: &Function, name: &str) -> usize {
    f.rets
        .iter()
        .flatten()
        .chain(f.params.iter().flatten())
        .map(Decl::param)
        .chain(f.decls.iter().filter_map(Decl::body))
        .find(|d| d.name == Some(name))
        .map_or(0, |d| d.size as usize)
}

pub(super) fn terminator(k: &Kernel, w: &mut Warp, i: Inst, mask: u32) -> Result<(), EvalError> {
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

pub(super) fn pass_args(k: &Kernel, w: &mut Warp, call: &ptx_ir::BlockCall, lanes: u32) {
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

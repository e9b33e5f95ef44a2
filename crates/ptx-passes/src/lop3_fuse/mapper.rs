//! Cut selection: priority cuts, depth-optimal labels, area-flow and
//! exact-area recovery under required times.

use super::*;

/// The mapper's state for one network.
pub(super) struct Mapper<'n> {
    pub(super) net: &'n Network,
    pub(super) cuts: CutSets,
    pub(super) best: Vec<Cut>,
    pub(super) arrival: Vec<u32>,
    pub(super) flow: Vec<f32>,
    pub(super) refs: Vec<u32>,
    pub(super) required: Vec<u32>,
    /// Estimated uses of each signal in the final cover, for area flow.
    est: Vec<f32>,
    /// Scratch of [`Self::walk`]: signals whose count it changed, and
    /// nodes still to visit.
    touched: Vec<u32>,
    stack: Vec<usize>,
    /// Nodes a group move holds in the cover with their version's cut.
    pinned: Vec<bool>,
}

impl Mapper<'_> {
    /// Instructions the cut costs at node `n`: a copy of a register costs
    /// nothing when the node is unguarded (its uses are renamed).
    pub(super) fn cost(&self, n: usize, c: &Cut) -> u32 {
        cut_cost(self.net, n, c)
    }

    pub(super) fn arrival_of(&self, n: usize, c: &Cut) -> u32 {
        let m = c.leaves().iter().map(|&l| self.arrival[l as usize]).max();
        cut_delay(self.net, n, c) + m.unwrap_or(0)
    }

    pub(super) fn flow_of(&self, n: usize, c: &Cut) -> f32 {
        let mut a = self.cost(n, c) as f32;
        for &l in c.leaves() {
            if self.net.node_of(l).is_some() {
                a += self.flow[l as usize] / self.est[l as usize];
            }
        }
        a
    }

    pub(super) fn set_best(&mut self, n: usize, c: Cut) {
        let s = self.net.node_sig[n] as usize;
        self.arrival[s] = self.arrival_of(n, &c);
        self.flow[s] = self.flow_of(n, &c);
        self.best[n] = c;
    }

    /// Candidate cuts of `n` (the trivial one excluded).
    pub(super) fn candidates(&self, n: usize) -> &[Cut] {
        &self.cuts.of(self.net.node_sig[n] as usize)[1..]
    }

    pub(super) fn depth_pass(&mut self) {
        for n in 0..self.net.nodes.len() {
            let c = *self
                .candidates(n)
                .iter()
                .min_by(|x, y| {
                    let kx = (self.arrival_of(n, x), self.flow_of(n, x));
                    let ky = (self.arrival_of(n, y), self.flow_of(n, y));
                    kx.partial_cmp(&ky).expect("finite")
                })
                .expect("every node has its fanin cut");
            self.set_best(n, c);
        }
    }

    pub(super) fn flow_pass(&mut self) {
        for n in 0..self.net.nodes.len() {
            let req = self.required[self.net.node_sig[n] as usize];
            let pick = self
                .candidates(n)
                .iter()
                .filter(|c| self.arrival_of(n, c) <= req)
                .min_by(|x, y| {
                    let kx = (self.flow_of(n, x), self.arrival_of(n, x));
                    let ky = (self.flow_of(n, y), self.arrival_of(n, y));
                    kx.partial_cmp(&ky).expect("finite")
                })
                .copied();
            if let Some(c) = pick {
                self.set_best(n, c);
            }
        }
    }

    /// References (`up`) or dereferences the cut of node `n` and,
    /// recursively, the cuts of leaves whose count becomes 1 (or 0): the
    /// instructions the cover gains (or loses). Gives up after `limit`
    /// leaf visits, undoing every change, so a long chain of single-use
    /// nodes costs at most `limit` per node instead of its whole length.
    fn walk(&mut self, n: usize, up: bool, limit: usize) -> Option<u32> {
        self.touched.clear();
        self.stack.clear();
        self.stack.push(n);
        let mut area = 0;
        while let Some(n) = self.stack.pop() {
            let c = self.best[n];
            area += self.cost(n, &c);
            for &l in c.leaves() {
                let Some(m) = self.net.node_of(l) else {
                    continue;
                };
                if self.touched.len() == limit {
                    self.undo(up);
                    return None;
                }
                self.touched.push(l);
                let r = &mut self.refs[l as usize];
                if up {
                    *r += 1;
                    if *r == 1 {
                        self.stack.push(m);
                    }
                } else {
                    *r -= 1;
                    if *r == 0 {
                        self.stack.push(m);
                    }
                }
            }
        }
        Some(area)
    }

    /// Reverts the counts the last [`Self::walk`] changed.
    fn undo(&mut self, up: bool) {
        for &l in &self.touched {
            let r = &mut self.refs[l as usize];
            if up {
                *r -= 1;
            } else {
                *r += 1;
            }
        }
        self.touched.clear();
    }

    /// Counts references of the current cover from the outputs.
    pub(super) fn count_refs(&mut self) {
        self.refs.iter_mut().for_each(|r| *r = 0);
        for n in 0..self.net.nodes.len() {
            if self.net.nodes[n].output || self.pinned[n] {
                let s = self.net.node_sig[n] as usize;
                self.refs[s] += 1;
                if self.refs[s] == 1 {
                    self.walk(n, true, usize::MAX);
                }
            }
        }
    }

    /// Instructions in the current cover (after [`Self::count_refs`]).
    fn area(&self) -> u32 {
        (0..self.net.nodes.len())
            .filter(|&n| self.refs[self.net.node_sig[n] as usize] > 0)
            .map(|n| self.cost(n, &self.best[n]))
            .sum()
    }

    /// Blends the cover's reference counts into the fanout estimates that
    /// area flow divides by (ABC's `EstRefs`): a signal the cover reads
    /// once is not shared, however many network nodes read it.
    fn update_estimates(&mut self) {
        self.count_refs();
        for (e, &r) in self.est.iter_mut().zip(&self.refs) {
            *e = ((2.0 * *e + r as f32) / 3.0).max(1.0);
        }
    }

    /// Exact-area recovery (ABC's `if -a` exact pass): each node in the
    /// cover, in topological order, takes the cut whose own and newly
    /// needed instructions are fewest, within its required time.
    fn exact_pass(&mut self) {
        let all: Vec<usize> = (0..self.net.nodes.len()).collect();
        self.exact_pass_on(&all);
    }

    /// [`Self::exact_pass`] over `nodes` (ascending) only.
    fn exact_pass_on(&mut self, nodes: &[usize]) {
        self.count_refs();
        for &n in nodes {
            let s = self.net.node_sig[n] as usize;
            if self.refs[s] == 0 || self.pinned[n] {
                continue;
            }
            let req = self.required[s];
            if self.walk(n, false, EXACT_WALK_LIMIT).is_none() {
                continue;
            }
            let old = self.best[n];
            let mut pick = (u32::MAX, u32::MAX, old);
            for k in 1..self.cuts.of(s).len() {
                let c = self.cuts.of(s)[k];
                let arr = self.arrival_of(n, &c);
                if arr > req && c != old {
                    continue;
                }
                self.best[n] = c;
                if let Some(area) = self.walk(n, true, EXACT_WALK_LIMIT) {
                    self.undo(true);
                    if (area, arr) < (pick.0, pick.1) {
                        pick = (area, arr, c);
                    }
                }
            }
            self.set_best(n, pick.2);
            self.walk(n, true, usize::MAX);
        }
    }

    /// Group moves: the versions of a group ([`Network::groups`]) pay off
    /// together (their gates are shared), which one node's exact-area step
    /// cannot see, nor when the group's nodes are absorbed into their
    /// readers' cuts. For each group, its nodes are pinned into the cover
    /// with their versions' cuts and the nodes reading them (up to
    /// [`GROUP_READERS`] of them, transitively) take an exact-area step;
    /// the result stays when the cover is smaller and meets the required
    /// times, else the cover is restored.
    fn group_pass(&mut self) {
        let nodes = self.net.nodes.len();
        let mut readers: Vec<Vec<u32>> = vec![Vec::new(); nodes];
        for (r, node) in self.net.nodes.iter().enumerate() {
            for x in &node.fanins {
                if let Fanin::Sig(s) = *x {
                    if let Some(m) = self.net.node_of(s) {
                        readers[m].push(r as u32);
                    }
                }
            }
        }
        self.count_refs();
        let mut area = self.area();
        for g in 0..self.net.groups.len() {
            let group = &self.net.groups[g];
            let saved = self.best.clone();
            let mut region: Vec<usize> = Vec::new();
            let mut seen = vec![false; 0];
            seen.resize(nodes, false);
            for &(n, b, c) in group {
                let (n, b) = (n as usize, b as usize);
                let mut cut = self.best[b];
                if c {
                    cut.tt = !cut.tt;
                    if cut.n == 4 {
                        cut.extra = extra_of(cut.tt);
                    }
                }
                self.set_best(n, cut);
                self.pinned[n] = true;
                let mut stack = vec![n];
                while let Some(m) = stack.pop() {
                    for &r in &readers[m] {
                        let r = r as usize;
                        if !seen[r] && region.len() < GROUP_READERS {
                            seen[r] = true;
                            region.push(r);
                            stack.push(r);
                        }
                    }
                }
            }
            region.sort_unstable();
            // Arrival times of the region follow the new cuts.
            for &r in &region {
                let c = self.best[r];
                self.set_best(r, c);
            }
            self.exact_pass_on(&region);
            for &(n, _, _) in group {
                self.pinned[n as usize] = false;
            }
            self.count_refs();
            let after = self.area();
            let timely = self.meets_required();
            tracing::debug!(target: "lop3-fuse", members = group.len(), before = area, after, timely, "group move");
            if after < area && timely {
                area = after;
                self.compute_required();
            } else {
                for (n, c) in saved.into_iter().enumerate() {
                    if self.best[n] != c {
                        self.set_best(n, c);
                    }
                }
                self.count_refs();
            }
        }
    }

    /// Required times from the outputs (their depth before the pass) down
    /// through the cover.
    pub(super) fn compute_required(&mut self) {
        self.count_refs();
        self.required.iter_mut().for_each(|r| *r = u32::MAX);
        for n in 0..self.net.nodes.len() {
            if self.net.nodes[n].output {
                self.required[self.net.node_sig[n] as usize] = self.net.nodes[n].depth;
            }
        }
        for n in (0..self.net.nodes.len()).rev() {
            let s = self.net.node_sig[n] as usize;
            if self.refs[s] == 0 {
                continue;
            }
            let c = self.best[n];
            let r = self.required[s].saturating_sub(cut_delay(self.net, n, &c));
            for &l in c.leaves() {
                let slot = &mut self.required[l as usize];
                *slot = (*slot).min(r);
            }
        }
    }

    pub(super) fn meets_required(&self) -> bool {
        self.net
            .nodes
            .iter()
            .enumerate()
            .all(|(n, x)| !x.output || self.arrival[self.net.node_sig[n] as usize] <= x.depth)
    }
}

/// Maps the network; returns the chosen cut of every node.
pub(super) fn map(net: &Network) -> (Vec<Cut>, Vec<u32>) {
    let mut cuts = CutSets::with_capacity(net.sigs.len());
    let mut scratch = EnumScratch::default();
    let mut list: Vec<Cut> = Vec::new();
    let mut scored: Vec<(u32, f32, u8, Cut)> = Vec::new();
    let mut arrival = vec![0u32; net.sigs.len()];
    let mut flow = vec![0f32; net.sigs.len()];
    for s in 0..net.sigs.len() {
        match net.sigs[s] {
            Sig::Leaf(_) => cuts.push(&[Cut::trivial(s as u32)]),
            Sig::Node(n) => {
                enumerate(net, &cuts, n as usize, &mut scratch, &mut list);
                if let Some(v) = net.constant[n as usize] {
                    // Proved constant: readers fold it into their tables.
                    list.truncate(1);
                    list.push(Cut {
                        leaves: [0; 4],
                        n: 0,
                        tt: if v { 0xFFFF } else { 0 },
                        extra: 0,
                    });
                }
                let others = net.equiv[n as usize]
                    .into_iter()
                    .chain(net.choice[n as usize].iter().copied());
                for (m, complement) in others {
                    // Computed from the equivalent node's logic instead.
                    let t = net.node_sig[m as usize];
                    let flip = if complement { 0xFFFF } else { 0 };
                    for c in std::iter::once(Cut::trivial(t))
                        .chain(cuts.of(t as usize)[1..].iter().copied())
                    {
                        if list[1..].iter().any(|o| o.leaves() == c.leaves()) {
                            continue;
                        }
                        let mut c = Cut {
                            tt: c.tt ^ flip,
                            ..c
                        };
                        if c.n == 4 {
                            c.extra = extra_of(c.tt);
                        }
                        list.push(c);
                    }
                }
                let arr = |c: &Cut| {
                    let m = c.leaves().iter().map(|&l| arrival[l as usize]).max();
                    1 + u32::from(c.extra > 0) + m.unwrap_or(0)
                };
                let af = |c: &Cut| {
                    let mut a = 1.0 + f32::from(c.extra);
                    for &l in c.leaves() {
                        if let Some(m) = net.node_of(l) {
                            a += flow[l as usize] / net.nodes[m].fanout.max(1) as f32;
                        }
                    }
                    a
                };
                // Priority: half the cuts by depth, half by area flow, so
                // that area recovery has cheap cuts to choose from.
                scored.clear();
                scored.extend(list[1..].iter().map(|c| (arr(c), af(c), c.n, *c)));
                let by_depth = |x: &(u32, f32, u8, Cut), y: &(u32, f32, u8, Cut)| {
                    (x.0, x.1, x.2)
                        .partial_cmp(&(y.0, y.1, y.2))
                        .expect("finite")
                };
                let by_flow = |x: &(u32, f32, u8, Cut), y: &(u32, f32, u8, Cut)| {
                    (x.1, x.0, x.2)
                        .partial_cmp(&(y.1, y.0, y.2))
                        .expect("finite")
                };
                scored.sort_by(by_depth);
                arrival[s] = scored.first().map_or(1, |x| x.0);
                if scored.len() > MAX_CUTS {
                    scored[MAX_CUTS / 2..].sort_by(by_flow);
                    // A few cuts on network inputs only are kept whatever
                    // their rank: they stay usable all the way up a cone.
                    let inputs_only =
                        |c: &Cut| c.leaves().iter().all(|&l| net.node_of(l).is_none());
                    let mut k = 0;
                    let mut extra = 0;
                    scored.retain(|x| {
                        k += 1;
                        k <= MAX_CUTS || {
                            extra += u32::from(inputs_only(&x.3));
                            inputs_only(&x.3) && extra <= MAX_INPUT_CUTS
                        }
                    });
                }
                flow[s] = scored.iter().map(|x| x.1).fold(f32::INFINITY, f32::min);
                list.truncate(1);
                list.extend(scored.iter().map(|x| x.3));
                cuts.push(&list);
            }
        }
    }
    let nodes = net.nodes.len();
    let mut m = Mapper {
        net,
        cuts,
        best: vec![Cut::trivial(0); nodes],
        arrival: vec![0; net.sigs.len()],
        flow: vec![0.0; net.sigs.len()],
        refs: vec![0; net.sigs.len()],
        required: vec![u32::MAX; net.sigs.len()],
        est: net
            .sigs
            .iter()
            .map(|s| match s {
                Sig::Node(n) => net.nodes[*n as usize].fanout.max(1) as f32,
                Sig::Leaf(_) => 1.0,
            })
            .collect(),
        touched: Vec::new(),
        stack: Vec::new(),
        pinned: vec![false; nodes],
    };
    m.depth_pass();
    m.compute_required();
    // The best cover seen that meets the required times: area recovery is
    // heuristic and a pass may lose what an earlier one found.
    m.count_refs();
    tracing::debug!(target: "lop3-fuse", area = m.area(), depth = (0..nodes).filter(|&n| net.nodes[n].output).map(|n| m.arrival[net.node_sig[n] as usize]).max(), "depth pass");
    let mut kept = (m.area(), m.best.clone());
    let mut keep = |m: &mut Mapper| -> u32 {
        m.count_refs();
        let a = m.area();
        tracing::debug!(target: "lop3-fuse", area = a, meets = m.meets_required(), "mapper pass");
        if a < kept.0 && m.meets_required() {
            kept = (a, m.best.clone());
        }
        a
    };
    for _ in 0..FLOW_PASSES {
        m.update_estimates();
        m.flow_pass();
        m.compute_required();
        keep(&mut m);
    }
    if !net.groups.is_empty() {
        m.group_pass();
        m.compute_required();
        keep(&mut m);
    }
    let mut last = u32::MAX;
    for _ in 0..EXACT_PASSES {
        m.exact_pass();
        m.compute_required();
        let a = keep(&mut m);
        if a >= last {
            break;
        }
        last = a;
    }
    for (n, c) in kept.1.into_iter().enumerate() {
        m.set_best(n, c);
    }
    m.count_refs();
    let covered = (0..nodes)
        .map(|n| m.refs[net.node_sig[n] as usize])
        .collect();
    (m.best, covered)
}

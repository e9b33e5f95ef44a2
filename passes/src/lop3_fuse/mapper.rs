//! Cut selection: priority cuts, depth-optimal labels, area-flow and
//! exact-area recovery under required times.

use super::*;

/// The mapper's state for one network.
pub(super) struct Mapper<'n> {
    pub(super) net: &'n Network,
    pub(super) cuts: Vec<Vec<Cut>>,
    pub(super) best: Vec<Cut>,
    pub(super) arrival: Vec<u32>,
    pub(super) flow: Vec<f32>,
    pub(super) refs: Vec<u32>,
    pub(super) required: Vec<u32>,
    pub(super) steps: usize,
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
            if let Some(m) = self.net.node_of(l) {
                a += self.flow[l as usize] / self.net.nodes[m].fanout.max(1) as f32;
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
        &self.cuts[self.net.node_sig[n] as usize][1..]
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

    /// References the cut of node `n` and, recursively, the cuts of leaves
    /// that become used; returns the instructions added.
    pub(super) fn reference(&mut self, n: usize) -> u32 {
        let mut area = 0;
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            let c = self.best[n];
            area += self.cost(n, &c);
            for &l in c.leaves() {
                self.steps += 1;
                if let Some(m) = self.net.node_of(l) {
                    self.refs[l as usize] += 1;
                    if self.refs[l as usize] == 1 {
                        stack.push(m);
                    }
                }
            }
        }
        area
    }

    /// The inverse of [`Self::reference`].
    pub(super) fn dereference(&mut self, n: usize) -> u32 {
        let mut area = 0;
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            let c = self.best[n];
            area += self.cost(n, &c);
            for &l in c.leaves() {
                self.steps += 1;
                if let Some(m) = self.net.node_of(l) {
                    self.refs[l as usize] -= 1;
                    if self.refs[l as usize] == 0 {
                        stack.push(m);
                    }
                }
            }
        }
        area
    }

    /// Counts references of the current cover from the outputs.
    pub(super) fn count_refs(&mut self) {
        self.refs.iter_mut().for_each(|r| *r = 0);
        for n in 0..self.net.nodes.len() {
            if self.net.nodes[n].output {
                let s = self.net.node_sig[n] as usize;
                self.refs[s] += 1;
                if self.refs[s] == 1 {
                    self.reference(n);
                }
            }
        }
    }

    /// Exact-area recovery; false when it ran out of steps.
    pub(super) fn exact_pass(&mut self) -> bool {
        let budget = self.steps + EXACT_STEPS_PER_NODE * self.net.nodes.len() + 4096;
        self.count_refs();
        for n in 0..self.net.nodes.len() {
            let s = self.net.node_sig[n] as usize;
            if self.refs[s] == 0 {
                continue;
            }
            let req = self.required[s];
            self.dereference(n);
            let old = self.best[n];
            let mut pick = (u32::MAX, u32::MAX, old);
            for k in 1..self.cuts[s].len() {
                let c = self.cuts[s][k];
                let arr = self.arrival_of(n, &c);
                if arr > req && c != old {
                    continue;
                }
                self.best[n] = c;
                let area = self.reference(n);
                self.dereference(n);
                if (area, arr) < (pick.0, pick.1) {
                    pick = (area, arr, c);
                }
            }
            self.set_best(n, pick.2);
            self.reference(n);
            if self.steps > budget {
                return false;
            }
        }
        true
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
    let mut cuts: Vec<Vec<Cut>> = Vec::with_capacity(net.sigs.len());
    let mut arrival = vec![0u32; net.sigs.len()];
    let mut flow = vec![0f32; net.sigs.len()];
    for s in 0..net.sigs.len() {
        match net.sigs[s] {
            Sig::Leaf(_) => cuts.push(vec![Cut::trivial(s as u32)]),
            Sig::Node(n) => {
                let mut list = enumerate(net, &cuts, n as usize);
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
                let mut scored: Vec<(u32, f32, u8, Cut)> =
                    list[1..].iter().map(|c| (arr(c), af(c), c.n, *c)).collect();
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
                    // Cuts on network inputs only are kept whatever their
                    // rank: they stay usable all the way up a cone.
                    let inputs_only =
                        |c: &Cut| c.leaves().iter().all(|&l| net.node_of(l).is_none());
                    let mut k = 0;
                    scored.retain(|x| {
                        k += 1;
                        k <= MAX_CUTS || inputs_only(&x.3)
                    });
                }
                flow[s] = scored.iter().map(|x| x.1).fold(f32::INFINITY, f32::min);
                list.truncate(1);
                list.extend(scored.into_iter().map(|x| x.3));
                cuts.push(list);
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
        steps: 0,
    };
    m.depth_pass();
    let depth_best = m.best.clone();
    m.compute_required();
    m.flow_pass();
    m.compute_required();
    for _ in 0..2 {
        let before = m.best.clone();
        if !m.exact_pass() {
            for (n, c) in before.into_iter().enumerate() {
                m.set_best(n, c);
            }
            break;
        }
        m.compute_required();
    }
    if !m.meets_required() {
        for (n, c) in depth_best.into_iter().enumerate() {
            m.set_best(n, c);
        }
    }
    m.count_refs();
    let covered = (0..nodes)
        .map(|n| m.refs[net.node_sig[n] as usize])
        .collect();
    (m.best, covered)
}

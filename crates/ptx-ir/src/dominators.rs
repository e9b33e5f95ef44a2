//! Immediate dominators by Lengauer–Tarjan, for any graph given as
//! successor and predecessor lists over dense node numbers.
//!
//! Why not petgraph's `simple_fast` (Cooper–Harvey–Kennedy)? Its
//! intersection walks follow idom chains, so a chain of `n` conditional
//! branches whose side exits meet in one block costs O(n²): a 100,000-case
//! chain took 69 s to parse with it. Lengauer–Tarjan with path compression
//! is O(m log n) whatever the shape. petgraph stays the oracle: the tests
//! compare both on random graphs.
//!
//! Invariants: everything is iterative (no recursion, so no stack overflow
//! on deep graphs); nodes unreachable from the root get no dominator.

const NONE: u32 = u32::MAX;

/// Immediate dominator of every node of a graph with `n` nodes, reachable
/// from `root`: `idom[root]` and unreachable nodes are `None`.
///
/// `succs(v)` and `preds(v)` list the edges of node `v`; both must describe
/// the same edge set.
pub fn immediate_dominators<S, SI, P, PI>(
    n: usize,
    root: usize,
    succs: S,
    preds: P,
) -> Vec<Option<u32>>
where
    S: Fn(u32) -> SI,
    SI: IntoIterator<Item = u32>,
    P: Fn(u32) -> PI,
    PI: IntoIterator<Item = u32>,
{
    // Depth-first numbering: pre[v] is v's number (NONE when unreachable),
    // vertex[i] the node numbered i, parent[i] the tree parent's number.
    let mut pre = vec![NONE; n];
    let mut vertex: Vec<u32> = Vec::with_capacity(n);
    let mut parent: Vec<u32> = Vec::with_capacity(n);
    let mut stack = vec![(root as u32, succs(root as u32).into_iter())];
    pre[root] = 0;
    vertex.push(root as u32);
    parent.push(NONE);
    while let Some((v, next)) = stack.last_mut() {
        match next.next() {
            Some(w) if pre[w as usize] == NONE => {
                pre[w as usize] = vertex.len() as u32;
                parent.push(pre[*v as usize]);
                vertex.push(w);
                stack.push((w, succs(w).into_iter()));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    let m = vertex.len();
    // Everything below works on DFS numbers.
    let mut semi: Vec<u32> = (0..m as u32).collect();
    let mut label: Vec<u32> = (0..m as u32).collect();
    let mut ancestor = vec![NONE; m];
    let mut idom = vec![NONE; m];
    // bucket[x]: nodes whose semidominator is x, as a linked list.
    let mut bucket_head = vec![NONE; m];
    let mut bucket_next = vec![NONE; m];
    let mut path = Vec::new();

    // eval(v): the node of least semidominator on the compressed path from
    // v up to (not including) the root of its forest tree.
    let eval =
        |v: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>| {
            if ancestor[v as usize] == NONE {
                return v;
            }
            let mut x = v;
            while ancestor[ancestor[x as usize] as usize] != NONE {
                path.push(x);
                x = ancestor[x as usize];
            }
            while let Some(x) = path.pop() {
                let a = ancestor[x as usize] as usize;
                if semi[label[a] as usize] < semi[label[x as usize] as usize] {
                    label[x as usize] = label[a];
                }
                ancestor[x as usize] = ancestor[a];
            }
            label[v as usize]
        };

    for w in (1..m).rev() {
        for p in preds(vertex[w]) {
            let v = pre[p as usize];
            if v == NONE {
                continue;
            }
            let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
            if semi[u as usize] < semi[w] {
                semi[w] = semi[u as usize];
            }
        }
        let s = semi[w] as usize;
        bucket_next[w] = bucket_head[s];
        bucket_head[s] = w as u32;
        let p = parent[w];
        ancestor[w] = p;
        let mut v = std::mem::replace(&mut bucket_head[p as usize], NONE);
        while v != NONE {
            let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
            idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                u
            } else {
                p
            };
            v = bucket_next[v as usize];
        }
    }
    for w in 1..m {
        if idom[w] != semi[w] {
            idom[w] = idom[idom[w] as usize];
        }
    }
    let mut out = vec![None; n];
    for w in 1..m {
        out[vertex[w] as usize] = Some(vertex[idom[w] as usize]);
    }
    out
}

/// Largest number of reachable nodes handed to
/// [`immediate_dominators_small`].
pub const SMALL_GRAPH: usize = 32;

/// Immediate dominators of a small graph by Cooper–Harvey–Kennedy over a
/// reverse post-order `rpo` (`rpo[0]` the root; `rpo_num(v)` is v's index
/// in it, `u32::MAX` when unreachable). The result holds, for each index
/// `k > 0` of `rpo`, the index of its immediate dominator (`result[0]` is
/// 0). No allocation beyond the result and no graph search: cheaper than
/// [`immediate_dominators`] on the few blocks most functions have, but
/// quadratic at worst, so meant for at most [`SMALL_GRAPH`] nodes.
pub fn immediate_dominators_small<R, P, PI>(rpo: &[u32], rpo_num: R, preds: P) -> Vec<u32>
where
    R: Fn(u32) -> u32,
    P: Fn(u32) -> PI,
    PI: IntoIterator<Item = u32>,
{
    let n = rpo.len();
    let mut doms = vec![NONE; n];
    if n == 0 {
        return doms;
    }
    doms[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for k in 1..n {
            let mut new = NONE;
            for p in preds(rpo[k]) {
                let pk = rpo_num(p);
                if pk == NONE || doms[pk as usize] == NONE {
                    continue;
                }
                new = if new == NONE {
                    pk
                } else {
                    // Walk both up to their common dominator.
                    let (mut a, mut b) = (new, pk);
                    while a != b {
                        while a > b {
                            a = doms[a as usize];
                        }
                        while b > a {
                            b = doms[b as usize];
                        }
                    }
                    a
                };
            }
            if doms[k] != new {
                doms[k] = new;
                changed = true;
            }
        }
    }
    doms
}

#[cfg(test)]
mod tests {
    use super::*;
    use petgraph::algo::dominators::simple_fast;
    use petgraph::graph::{DiGraph, NodeIndex};

    fn check(n: usize, edges: &[(u32, u32)]) {
        let mut succ = vec![Vec::new(); n];
        let mut pred = vec![Vec::new(); n];
        let mut g: DiGraph<(), ()> = DiGraph::new();
        for _ in 0..n {
            g.add_node(());
        }
        for &(a, b) in edges {
            succ[a as usize].push(b);
            pred[b as usize].push(a);
            g.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), ());
        }
        let ours = immediate_dominators(
            n,
            0,
            |v| succ[v as usize].iter().copied(),
            |v| pred[v as usize].iter().copied(),
        );
        let theirs = simple_fast(&g, NodeIndex::new(0));
        for (v, &ours) in ours.iter().enumerate() {
            let t = theirs
                .immediate_dominator(NodeIndex::new(v))
                .map(|d| d.index() as u32);
            assert_eq!(ours, t, "node {v} of {edges:?}");
        }
        // The small-graph version, over a reverse post-order.
        let mut post = Vec::new();
        let mut seen = vec![false; n];
        let mut stack = vec![(0u32, 0usize)];
        seen[0] = true;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&w) = succ[v as usize].get(*i) {
                *i += 1;
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push((w, 0));
                }
            } else {
                post.push(v);
                stack.pop();
            }
        }
        post.reverse();
        let mut num = vec![NONE; n];
        for (k, &v) in post.iter().enumerate() {
            num[v as usize] = k as u32;
        }
        let small = immediate_dominators_small(
            &post,
            |v| num[v as usize],
            |v| pred[v as usize].iter().copied(),
        );
        for (k, &v) in post.iter().enumerate().skip(1) {
            assert_eq!(
                Some(post[small[k] as usize]),
                ours[v as usize],
                "small: node {v} of {edges:?}"
            );
        }
    }

    #[test]
    fn agrees_with_petgraph_on_random_graphs() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |k: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % k) as u32
        };
        for _ in 0..2000 {
            let n = 1 + next(40) as usize;
            let m = next(3 * n as u64 + 1) as usize;
            let edges: Vec<(u32, u32)> = (0..m).map(|_| (next(n as u64), next(n as u64))).collect();
            check(n, &edges);
        }
    }

    #[test]
    fn branch_chain_is_fast_and_right() {
        // Node 2i tests, 2i+1 is its side exit, all side exits meet at `end`.
        let k = 200_000u32;
        let end = 2 * k;
        let mut edges = Vec::new();
        for i in 0..k {
            edges.push((2 * i, 2 * i + 1));
            edges.push((2 * i + 1, end));
            edges.push((2 * i, if i + 1 < k { 2 * i + 2 } else { end }));
        }
        let n = end as usize + 1;
        let mut succ = vec![Vec::new(); n];
        let mut pred = vec![Vec::new(); n];
        for &(a, b) in &edges {
            succ[a as usize].push(b);
            pred[b as usize].push(a);
        }
        let idom = immediate_dominators(
            n,
            0,
            |v| succ[v as usize].iter().copied(),
            |v| pred[v as usize].iter().copied(),
        );
        assert_eq!(idom[end as usize], Some(0));
        assert_eq!(idom[2 * 7 + 1], Some(14));
        assert_eq!(idom[2 * 8], Some(14));
        check(
            301,
            &edges
                .iter()
                .copied()
                .filter(|&(a, b)| a < 300 && b < 300)
                .collect::<Vec<_>>(),
        );
    }
}

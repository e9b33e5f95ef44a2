//! The registry: every pass name, in one table. The pipeline parser,
//! `--print-passes` and `docs/passes.md` (checked by a test) read it.

use crate::Pass;

/// One registered pass.
pub struct PassInfo {
    /// Kebab-case name used in pipeline text.
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Parameters accepted in `name<param;param>`.
    pub params: &'static [&'static str],
    /// Whether running it twice changes nothing the second time.
    pub idempotent: bool,
    /// Builds an instance with the given parameters (already validated).
    pub create: fn(&[String]) -> Box<dyn Pass>,
}

/// All passes, sorted by name.
pub const PASSES: &[PassInfo] = &[
    PassInfo {
        name: "const-fold",
        summary: "fold and propagate integer constants, simplify algebraic identities",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::const_fold::ConstFold),
    },
    PassInfo {
        name: "copy-prop",
        summary: "replace registers copied by a same-class mov with their source",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::copy_prop::CopyProp),
    },
    PassInfo {
        name: "cse",
        summary: "merge an effect-free instruction into an identical one that dominates it",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::cse::Cse),
    },
    PassInfo {
        name: "dce",
        summary: "delete effect-free instructions and block parameters nobody reads",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::dce::Dce),
    },
    PassInfo {
        name: "instcombine",
        summary: "rewrite idioms ptxas compiles longer than an equivalent (one-bit masks as bfe, selects that xor on one bit)",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::instcombine::InstCombine),
    },
    PassInfo {
        name: "legalize",
        summary: "rewrite what the target refuses: non-sync vote on sm_70+, vote.sync below sm_30/PTX 6.0, ballot below sm_20",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::lower_vote::LowerVote { only_when_needed: true }),
    },
    PassInfo {
        name: "lop3-expand",
        summary: "expand lop3 into minimal and/or/xor/not formulas (targets below sm_50)",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::lop3_expand::Lop3Expand),
    },
    PassInfo {
        name: "lop3-fuse",
        summary: "map and/or/xor/not/lop3 logic onto the fewest lop3.b32 (3-input LUT mapping)",
        params: &["skip-small", "no-choices", "no-refactor"],
        // A second run can find a little more on large random networks.
        idempotent: false,
        create: |p| {
            Box::new(crate::lop3_fuse::Lop3Fuse {
                skip_small: p.iter().any(|x| x == "skip-small"),
                no_choices: p.iter().any(|x| x == "no-choices"),
                no_refactor: p.iter().any(|x| x == "no-refactor"),
                ..Default::default()
            })
        },
    },
    PassInfo {
        name: "lower-vote",
        summary: "non-sync vote becomes activemask + vote.sync (and back, through ballot, for targets without .sync)",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::lower_vote::LowerVote { only_when_needed: false }),
    },
    PassInfo {
        name: "lower-vsub2",
        summary: "lower the vop2 family (vadd2, vsub2, vavrg2, vabsdiff2, vmin2, vmax2) to 32-bit or 16x2 arithmetic",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::lower_vsub2::LowerVsub2),
    },
    PassInfo {
        name: "set-fold",
        summary: "fold set and constant selp results into their users; simplify selects and predicate logic around them",
        params: &[],
        idempotent: true,
        create: |_| Box::new(crate::set_fold::SetFold),
    },
    PassInfo {
        name: "simplify-cfg",
        summary: "delete unreachable blocks, bypass empty ones, merge straight-line chains",
        params: &["keep-loops"],
        idempotent: true,
        create: |p| {
            Box::new(crate::simplify_cfg::SimplifyCfg {
                keep_loops: p.iter().any(|x| x == "keep-loops"),
            })
        },
    },
];

/// The entry for `name`.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.name == name)
}

/// Every valid name in pipeline text: passes, adaptors and pipelines.
pub fn all_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = PASSES.iter().map(|p| p.name).collect();
    v.extend([
        "default<O0>",
        "default<O1>",
        "default<O2>",
        "default<O3>",
        "function(...)",
        "module(...)",
    ]);
    v
}

impl std::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_sorted_unique_kebab_case() {
        let names: Vec<_> = super::PASSES.iter().map(|p| p.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        for n in names {
            assert!(
                n.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-'),
                "{n}"
            );
        }
    }
}

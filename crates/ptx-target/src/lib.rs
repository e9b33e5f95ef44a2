//! The target model: `sm_XX` targets, PTX ISA versions, and what each
//! allows.
//!
//! Facts come from two places, and each entry says which:
//! * **ptxas**: measured with ptxas 13.5 (CUDA 13, sm_75 and newer) on this
//!   project's machines: the oldest `.version` each target assembles with
//!   (a module with one empty kernel, every version 6.0–9.5 tried), and the
//!   legality facts in `../shared/docs/ptxas-facts.md` and
//!   `ptx-semantics.md`;
//! * **doc**: the PTX ISA's tables, for targets CUDA 13 cannot assemble.
//!
//! ```
//! use ptx_target::{Sm, PtxVersion, min_ptx_for, Feature};
//! let sm: Sm = "sm_90a".parse().unwrap();
//! assert_eq!((sm.number, sm.suffix), (90, Some('a')));
//! assert_eq!(min_ptx_for(sm), Some(PtxVersion(8, 0)));
//! assert!(!Feature::NonSyncVote.allowed(sm, PtxVersion(7, 8)));
//! assert!(Feature::VoteSync.allowed(sm, PtxVersion(7, 8)));
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

/// A target `sm_XX`, with its `a`/`f` suffix if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sm {
    /// `90` for `sm_90a`.
    pub number: u32,
    /// `Some('a')` for arch-specific, `Some('f')` for family-specific.
    pub suffix: Option<char>,
}

impl FromStr for Sm {
    type Err = String;
    fn from_str(s: &str) -> Result<Sm, String> {
        let bad = || {
            format!("invalid target '{s}': expected sm_XX (sm_10 to sm_121, optional a/f suffix)")
        };
        let rest = s.strip_prefix("sm_").ok_or_else(bad)?;
        let (digits, suffix) = match rest.chars().last() {
            Some(c @ ('a' | 'f')) => (&rest[..rest.len() - 1], Some(c)),
            _ => (rest, None),
        };
        let number: u32 = digits.parse().map_err(|_| bad())?;
        if !(10..=121).contains(&number) || digits.starts_with('0') {
            return Err(bad());
        }
        Ok(Sm { number, suffix })
    }
}

impl fmt::Display for Sm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.number)?;
        if let Some(c) = self.suffix {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A PTX ISA version, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion(pub u32, pub u32);

impl FromStr for PtxVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<PtxVersion, String> {
        let bad = || format!("invalid PTX ISA version '{s}': expected MAJOR.MINOR (1.0 to 9.x)");
        let (a, b) = s.split_once('.').ok_or_else(bad)?;
        let v = PtxVersion(a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if !(1..=9).contains(&v.0) || v.1 > 9 {
            return Err(bad());
        }
        Ok(v)
    }
}

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// The oldest `.version` a target can be written with; `None` for numbers
/// that name no target.
pub fn min_ptx_for(sm: Sm) -> Option<PtxVersion> {
    let v = |a, b| Some(PtxVersion(a, b));
    // ptxas 13.5, measured (see the crate docs).
    let measured = match (sm.number, sm.suffix) {
        (75, _) => v(6, 3),
        (80, _) => v(7, 0),
        (86, _) => v(7, 1),
        (87, _) => v(7, 4),
        (88, _) => v(9, 0),
        (89, _) => v(7, 8),
        (90, Some('a')) => v(8, 0),
        (90, _) => v(7, 8),
        (100, Some('f')) => v(8, 8),
        (100, _) => v(8, 6),
        (103, _) => v(8, 8),
        (110, _) => v(9, 0),
        (120, _) => v(8, 7),
        (121, _) => v(8, 8),
        _ => None,
    };
    if measured.is_some() {
        return measured;
    }
    // The PTX ISA's target table (doc).
    match sm.number {
        10..=13 => v(1, 0),
        20 | 21 => v(2, 0),
        30 => v(3, 0),
        32 => v(4, 0),
        35 => v(3, 1),
        37 => v(4, 1),
        50 => v(4, 0),
        52 => v(4, 1),
        53 => v(4, 2),
        60..=62 => v(5, 0),
        70 => v(6, 0),
        72 => v(6, 1),
        101 => v(8, 6),
        _ => None,
    }
}

/// Instruction forms whose legality depends on the target or version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// `vote.{all,any,uni}.pred` / `vote.ballot.b32` without `.sync`.
    NonSyncVote,
    /// `vote.ballot.b32` without `.sync` (sm_20+).
    NonSyncBallot,
    /// `vote.sync.*` (PTX 6.0, sm_30).
    VoteSync,
    /// `activemask.b32` (PTX 6.2, sm_30).
    Activemask,
    /// `lop3.b32` (PTX 4.3, sm_50).
    Lop3,
    /// `lop3.{and,or}.b32 d|p` (PTX 8.2, sm_70; ptxas rejects 8.1).
    Lop3BoolOp,
    /// `set`/`setp` on `.f16` (PTX 4.2, sm_53).
    CompareF16,
    /// `set`/`setp` on `.bf16` / `.bf16x2` (PTX 7.8, sm_90; ptxas).
    CompareBf16,
    /// `add.{u16x2,s16x2}` and `min`/`max{.relu}.{u16x2,s16x2}` (PTX 8.0,
    /// sm_90; ptxas 13.5 accepts them on every target from sm_90, refuses
    /// them with PTX 7.8, and has no `sub`, `abs` or `neg` forms;
    /// `add.sat` on 16x2 exists only for sm_120a from PTX 9.2 and is not
    /// part of this feature).
    Simd16x2,
    /// `dp2a.{lo,hi}.{u32,s32}.{u32,s32}` (PTX 5.0, sm_61): one `IDP.2A`.
    Dp2a,
    /// `cvt.pack.sat.{u16,s16}.s32 d, a, b` (PTX 6.5, sm_72): both values
    /// clamped and packed, `a` high, in one `I2IP`.
    CvtPack16,
}

impl Feature {
    /// (minimum PTX version, minimum `sm` number).
    pub fn minimum(self) -> (PtxVersion, u32) {
        match self {
            Feature::NonSyncVote => (PtxVersion(1, 2), 12),
            Feature::NonSyncBallot => (PtxVersion(2, 0), 20),
            Feature::VoteSync => (PtxVersion(6, 0), 30),
            Feature::Activemask => (PtxVersion(6, 2), 30),
            Feature::Lop3 => (PtxVersion(4, 3), 50),
            Feature::Lop3BoolOp => (PtxVersion(8, 2), 70),
            Feature::CompareF16 => (PtxVersion(4, 2), 53),
            Feature::CompareBf16 => (PtxVersion(7, 8), 90),
            Feature::Simd16x2 => (PtxVersion(8, 0), 90),
            Feature::Dp2a => (PtxVersion(5, 0), 61),
            Feature::CvtPack16 => (PtxVersion(6, 5), 72),
        }
    }

    /// Whether the form may be written for `sm` with `ptx`.
    pub fn allowed(self, sm: Sm, ptx: PtxVersion) -> bool {
        let (v, n) = self.minimum();
        if ptx < v || sm.number < n {
            return false;
        }
        // ptxas refuses non-sync vote on sm_70+ from PTX 6.4 on.
        !(matches!(self, Feature::NonSyncVote | Feature::NonSyncBallot)
            && sm.number >= 70
            && ptx >= PtxVersion(6, 4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_targets_and_versions() {
        for t in ["sm_10", "sm_52", "sm_90a", "sm_100f", "sm_121"] {
            assert_eq!(t.parse::<Sm>().unwrap().to_string(), t);
        }
        for bad in ["sm_9", "sm_", "sm_80x", "compute_80", "sm_0080", "sm_200"] {
            assert!(bad.parse::<Sm>().is_err(), "{bad}");
        }
        assert_eq!("8.2".parse::<PtxVersion>().unwrap(), PtxVersion(8, 2));
        assert!("10.0".parse::<PtxVersion>().is_err());
        assert!(PtxVersion(7, 8) < PtxVersion(8, 0));
    }

    #[test]
    fn every_target_has_a_minimum_version() {
        for n in [
            10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87,
            89, 90, 100, 103, 120, 121,
        ] {
            assert!(
                min_ptx_for(Sm {
                    number: n,
                    suffix: None
                })
                .is_some(),
                "sm_{n}"
            );
        }
        assert_eq!(
            min_ptx_for(Sm {
                number: 42,
                suffix: None
            }),
            None
        );
    }

    #[test]
    fn vote_legality_matches_ptxas() {
        let sm80 = Sm {
            number: 80,
            suffix: None,
        };
        assert!(Feature::NonSyncVote.allowed(sm80, PtxVersion(6, 3)));
        assert!(!Feature::NonSyncVote.allowed(sm80, PtxVersion(6, 4)));
        let sm60 = Sm {
            number: 60,
            suffix: None,
        };
        assert!(Feature::NonSyncVote.allowed(sm60, PtxVersion(7, 0)));
        assert!(!Feature::Activemask.allowed(sm60, PtxVersion(6, 1)));
        let sm90: Sm = "sm_90".parse().unwrap();
        assert!(Feature::Simd16x2.allowed(sm90, PtxVersion(8, 0)));
        assert!(!Feature::Simd16x2.allowed(sm90, PtxVersion(7, 8)));
        assert!(!Feature::Simd16x2.allowed(sm80, PtxVersion(8, 8)));
        assert!(Feature::CvtPack16.allowed(sm80, PtxVersion(6, 5)));
        assert!(!Feature::CvtPack16.allowed(sm80, PtxVersion(6, 4)));
        assert!(!Feature::Dp2a.allowed(sm60, PtxVersion(7, 0)));
    }
}

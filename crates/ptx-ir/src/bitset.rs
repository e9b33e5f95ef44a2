//! A dense bit set over entity indices.

/// Fixed-size bit set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// A set able to hold `0..n`, empty.
    pub fn new(n: usize) -> Self {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    /// Inserts `i`; returns whether it was absent.
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.words[w] & b != 0;
        self.words[w] |= b;
        !was
    }
    /// Removes `i`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.words[w] & b != 0;
        self.words[w] &= !b;
        was
    }
    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
    /// Adds every element of `other`; returns whether anything changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    /// Removes every element.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    /// Copies `other` into `self`.
    pub fn copy_from(&mut self, other: &BitSet) {
        self.words.copy_from_slice(&other.words);
    }
    /// Replaces the contents with raw words (missing words read as zero).
    pub fn copy_from_words(&mut self, words: &[u64]) {
        for (k, w) in self.words.iter_mut().enumerate() {
            *w = words.get(k).copied().unwrap_or(0);
        }
    }

    /// Elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + t)
            })
        })
    }
}

/// A dense bit matrix: one row of bits per block (or other entity), in one
/// allocation.
#[derive(Clone, Debug)]
pub struct BitMatrix {
    words: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    /// `rows` empty rows able to hold `0..cols`.
    pub fn new(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64).max(1);
        BitMatrix {
            words,
            bits: vec![0; rows * words],
        }
    }
    /// Words per row.
    pub fn row_words(&self) -> usize {
        self.words
    }
    /// Row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }
    /// Row `r`, mutably.
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.bits[r * self.words..(r + 1) * self.words]
    }
}

/// Sets bit `i` of a row.
#[inline]
pub fn set_bit(row: &mut [u64], i: usize) {
    row[i / 64] |= 1 << (i % 64);
}

/// Whether bit `i` of a row is set.
#[inline]
pub fn test_bit(row: &[u64], i: usize) -> bool {
    row[i / 64] & (1 << (i % 64)) != 0
}

/// The set bits of a row, in increasing order.
pub fn iter_bits(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter().enumerate().flat_map(|(wi, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(wi * 64 + t)
        })
    })
}

//! Entity references and the arenas that hold their data.
//!
//! IR objects (values, instructions, blocks, …) are `u32` newtypes that index
//! dense arenas. They are `Copy`, compare by number and carry no lifetimes, so
//! passes can hold them freely while mutating the function that owns the data.

use std::marker::PhantomData;

/// A `u32` index newtype usable as an arena key.
pub trait EntityRef: Copy + Eq {
    /// Wraps an arena index.
    fn new(index: usize) -> Self;
    /// The arena index.
    fn index(self) -> usize;
}

/// Declares an entity newtype with a display prefix (`v12`, `block3`, …).
#[macro_export]
macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:expr) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl $crate::entity::EntityRef for $name {
            #[inline]
            fn new(index: usize) -> Self {
                debug_assert!(index < u32::MAX as usize);
                $name(index as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The raw number of this entity.
            #[inline]
            pub fn as_u32(self) -> u32 {
                self.0
            }
            /// Builds the entity with raw number `n`.
            #[inline]
            pub fn from_u32(n: u32) -> Self {
                $name(n)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

/// An arena that allocates keys: the only way to create a `K`.
#[derive(Clone, Debug)]
pub struct PrimaryMap<K: EntityRef, V> {
    elems: Vec<V>,
    marker: PhantomData<K>,
}

impl<K: EntityRef, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> PrimaryMap<K, V> {
    /// An empty arena.
    pub fn new() -> Self {
        PrimaryMap {
            elems: Vec::new(),
            marker: PhantomData,
        }
    }
    /// An empty arena with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        PrimaryMap {
            elems: Vec::with_capacity(n),
            marker: PhantomData,
        }
    }
    /// Stores `v` and returns its new key.
    #[inline]
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.elems.len());
        self.elems.push(v);
        k
    }
    /// Reserves room for `n` more entries.
    pub fn reserve(&mut self, n: usize) {
        self.elems.reserve(n);
    }

    /// The key the next `push` will return.
    pub fn next_key(&self) -> K {
        K::new(self.elems.len())
    }
    /// Number of entries ever allocated.
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    /// Whether nothing was allocated.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
    /// Whether `k` was allocated by this arena.
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.elems.len()
    }
    /// The entry for `k`, if allocated.
    pub fn get(&self, k: K) -> Option<&V> {
        self.elems.get(k.index())
    }
    /// All keys in allocation order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        (0..self.elems.len()).map(K::new)
    }
    /// All entries with their keys.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// All entries, mutably, with their keys.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.elems
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }
    /// All entries.
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.elems.iter()
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for PrimaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        &self.elems[k.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for PrimaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.elems[k.index()]
    }
}

/// A side table keyed by entities of another arena; missing entries read as
/// the default value and writing grows the table.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    elems: Vec<V>,
    default: V,
    /// Makes a default entry more cheaply than cloning `default` (set for
    /// tables built from `V::default()`: an empty `SmallVec` clones slowly).
    make: Option<fn() -> V>,
    marker: PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    /// An empty table whose entries read as `V::default()`.
    pub fn new() -> Self {
        SecondaryMap {
            make: Some(V::default),
            ..Self::with_default(V::default())
        }
    }

    /// A table of `V::default()` entries pre-sized for `n` keys.
    pub fn with_capacity_default(n: usize) -> Self {
        let mut m = Self::new();
        m.elems.resize_with(n, V::default);
        m
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty table whose entries read as `default`.
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            elems: Vec::new(),
            default,
            make: None,
            marker: PhantomData,
        }
    }
    /// A table pre-sized for `n` keys.
    pub fn with_capacity(n: usize, default: V) -> Self {
        SecondaryMap {
            elems: vec![default.clone(); n],
            default,
            make: None,
            marker: PhantomData,
        }
    }
    /// Reserves room for keys below `n` to be written without regrowth.
    pub fn reserve(&mut self, n: usize) {
        self.elems.reserve(n.saturating_sub(self.elems.len()));
    }

    /// Drops every entry.
    pub fn clear(&mut self) {
        self.elems.clear();
    }
    /// Entry for `k`, or the default.
    #[inline]
    pub fn get(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }

    /// Makes key `i` writable: fills every slot the allocation already has
    /// room for (at least up to `i`), so that a table written key by key
    /// resizes once per growth of its buffer, not once per key.
    #[cold]
    fn grow(&mut self, i: usize) {
        let n = (i + 1).max(self.elems.capacity());
        match self.make {
            Some(make) => self.elems.resize_with(n, make),
            None => self.elems.resize(n, self.default.clone()),
        }
    }
}

impl<K: EntityRef, V: Clone> std::ops::Index<K> for SecondaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        self.get(k)
    }
}

impl<K: EntityRef, V: Clone> std::ops::IndexMut<K> for SecondaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        if i >= self.elems.len() {
            self.grow(i);
        }
        &mut self.elems[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Inst, Value};
    use smallvec::SmallVec;

    #[test]
    fn growing_fills_with_the_default_and_keeps_entries() {
        let mut m: SecondaryMap<Value, u32> = SecondaryMap::with_default(7);
        m.reserve(100);
        m[Value::new(3)] = 1;
        m[Value::new(40)] = 2;
        // Slots the buffer had room for read as the default, as do slots
        // far beyond it.
        assert_eq!(
            (m[Value::new(0)], m[Value::new(3)], m[Value::new(39)]),
            (7, 1, 7)
        );
        assert_eq!(
            (m[Value::new(40)], m[Value::new(99)], m[Value::new(5000)]),
            (2, 7, 7)
        );
        m[Value::new(300)] = 3;
        assert_eq!(
            (m[Value::new(3)], m[Value::new(40)], m[Value::new(300)]),
            (1, 2, 3)
        );
        assert_eq!(m[Value::new(299)], 7);
    }

    #[test]
    fn tables_of_smallvecs_start_empty_everywhere() {
        let mut a: SecondaryMap<Inst, SmallVec<[u32; 2]>> = SecondaryMap::with_capacity_default(4);
        let mut b: SecondaryMap<Inst, SmallVec<[u32; 2]>> = SecondaryMap::new();
        for m in [&mut a, &mut b] {
            m[Inst::new(2)].push(5);
            m[Inst::new(9)].extend([1, 2, 3]);
            assert!(m[Inst::new(0)].is_empty() && m[Inst::new(8)].is_empty());
            assert_eq!(m[Inst::new(2)].as_slice(), &[5]);
            assert_eq!(m[Inst::new(9)].as_slice(), &[1, 2, 3]);
            assert!(m[Inst::new(10)].is_empty() && m[Inst::new(1000)].is_empty());
        }
    }
}

//! Process-wide memo tables: results of the stages that a module repeats
//! (the same S-box window, the same NPN class, the same kernel's logic)
//! kept across blocks, functions and threads.
//!
//! **Invariants.** A value is a pure function of its key, so what a table
//! holds never changes output, whichever thread asked first; a table
//! that reaches its entry or weight bound is emptied before the next
//! insertion (a simple bound that keeps a long-lived process small).

use rustc_hash::FxHashMap;
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};

/// A bounded table from `K` to `V`, shared by every thread.
pub(super) struct Memo<K, V> {
    table: OnceLock<Mutex<Table<K, V>>>,
    max_entries: usize,
    max_weight: usize,
}

struct Table<K, V> {
    map: FxHashMap<K, V>,
    weight: usize,
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// An empty table of at most `max_entries` entries and `max_weight`
    /// total weight (as the inserter counts it).
    pub(super) const fn new(max_entries: usize, max_weight: usize) -> Self {
        Memo {
            table: OnceLock::new(),
            max_entries,
            max_weight,
        }
    }

    fn table(&self) -> &Mutex<Table<K, V>> {
        self.table.get_or_init(|| {
            Mutex::new(Table {
                map: FxHashMap::default(),
                weight: 0,
            })
        })
    }

    /// The value kept for `key`.
    pub(super) fn get(&self, key: &K) -> Option<V> {
        self.table().lock().ok()?.map.get(key).cloned()
    }

    /// Keeps `value` for `key`, counting `weight` against the bound.
    pub(super) fn insert(&self, key: K, value: V, weight: usize) {
        if let Ok(mut t) = self.table().lock() {
            if t.map.len() >= self.max_entries || t.weight + weight > self.max_weight {
                t.map.clear();
                t.weight = 0;
            }
            t.weight += weight;
            t.map.insert(key, value);
        }
    }

    /// Empties the table (benchmarks time a cold run).
    pub(super) fn clear(&self) {
        if let Ok(mut t) = self.table().lock() {
            t.map.clear();
            t.weight = 0;
        }
    }
}

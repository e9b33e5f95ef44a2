//! Memory spaces.
//!
//! * **global**: sparse 4 KiB pages, byte-addressed, little-endian. Only
//!   allocated ranges (buffers, module variables) may be touched; anything
//!   else is an out-of-range error.
//! * **shared**: one byte array per CTA; **local**: one per thread;
//!   **param**: the kernel's parameter block. Each has a window in the
//!   generic address space so `cvta` and generic loads work.

use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// Base of the shared window in the generic address space.
pub const SHARED_BASE: u64 = 0x7e00_0000_0000_0000;
/// Base of the local window in the generic address space.
pub const LOCAL_BASE: u64 = 0x7d00_0000_0000_0000;
/// Base of the param window in the generic address space.
pub const PARAM_BASE: u64 = 0x7c00_0000_0000_0000;

const PAGE: u64 = 4096;

/// Sparse global memory with allocation bounds.
#[derive(Default)]
pub struct Global {
    pages: FxHashMap<u64, Box<[u8; PAGE as usize]>>,
    /// Allocated `[start, end)` ranges.
    ranges: Vec<(u64, u64)>,
    next: u64,
    /// With a seed, every address is valid and a byte never written reads
    /// as a hash of the seed and its address (for differential checks).
    pub hash_seed: Option<u64>,
    /// When present, every store is appended as `(address, size, value)`.
    pub trace: Option<Vec<(u64, u64, u128)>>,
    /// Bytes that pages may still take: the memory limit less what the
    /// CTA in flight holds (see [`Global::reserve`]).
    budget: u64,
}

/// Why a global access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Outside every allocation.
    OutOfRange,
    /// A new page would pass the memory limit.
    MemoryLimit,
}

/// The byte an unwritten address holds under `seed` (SplitMix64 finaliser).
pub fn hashed_byte(seed: u64, addr: u64) -> u8 {
    crate::rng::mix(seed ^ addr.wrapping_mul(0x9e37_79b9_7f4a_7c15)) as u8
}

impl Global {
    /// Empty memory; allocations start at 0x1000_0000.
    pub fn new() -> Self {
        Global::with_limit(u64::MAX)
    }

    /// Empty memory whose pages and reservations together may take at
    /// most `limit` bytes.
    pub fn with_limit(limit: u64) -> Self {
        Global {
            next: 0x1000_0000,
            budget: limit,
            ..Default::default()
        }
    }

    /// Bytes held by written pages.
    pub fn resident(&self) -> u64 {
        self.pages.len() as u64 * PAGE
    }

    /// Takes `bytes` out of the budget (a CTA's shared memory, a warp's
    /// registers), or fails, taking nothing, when it has not that much.
    pub fn reserve(&mut self, bytes: u64) -> Result<(), Fault> {
        self.budget = self.budget.checked_sub(bytes).ok_or(Fault::MemoryLimit)?;
        Ok(())
    }

    /// Gives back what [`Global::reserve`] took.
    pub fn release(&mut self, bytes: u64) {
        self.budget = self.budget.saturating_add(bytes);
    }

    /// Reserves `size` bytes aligned to 256 and returns the address. At
    /// least 256 unallocated bytes follow each allocation, so reading just
    /// past one buffer (or just before the next) is an error rather than a
    /// read of its neighbour (the GPU cross-check found a kernel reading
    /// `p[-1]` that the evaluator took for the previous buffer's last word).
    ///
    /// Allocation reserves addresses only: memory is taken page by page on
    /// first write. A size that does not fit the 64-bit address space
    /// gets what is left of it.
    pub fn alloc(&mut self, size: u64) -> u64 {
        let at = self.next;
        let end = at.saturating_add(size.max(1));
        self.ranges.push((at, end));
        self.next = end.saturating_add(256 + 255) & !255;
        at
    }

    fn check(&self, addr: u64, len: u64) -> bool {
        if self.hash_seed.is_some() {
            return addr.checked_add(len).is_some();
        }
        self.ranges
            .iter()
            .any(|&(s, e)| addr >= s && addr.checked_add(len).is_some_and(|end| end <= e))
    }

    /// Reads `len` bytes (≤ 16) as a little-endian integer.
    pub fn read(&self, addr: u64, len: u64) -> Option<u128> {
        if !self.check(addr, len) {
            return None;
        }
        let mut v: u128 = 0;
        for k in 0..len {
            let a = addr + k;
            let byte = match self.pages.get(&(a / PAGE)) {
                Some(p) => p[(a % PAGE) as usize],
                None => self.hash_seed.map_or(0, |s| hashed_byte(s, a)),
            };
            v |= (byte as u128) << (8 * k);
        }
        Some(v)
    }

    /// Writes the low `len` bytes of `v`.
    pub fn write(&mut self, addr: u64, len: u64, v: u128) -> Result<(), Fault> {
        if !self.check(addr, len) {
            return Err(Fault::OutOfRange);
        }
        let seed = self.hash_seed;
        for k in 0..len {
            let a = addr + k;
            let page = match self.pages.entry(a / PAGE) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    // A page is paid for before it appears; its other
                    // bytes keep the values unwritten memory reads as.
                    self.budget = self.budget.checked_sub(PAGE).ok_or(Fault::MemoryLimit)?;
                    let mut p = Box::new([0; PAGE as usize]);
                    if let Some(s) = seed {
                        let base = a / PAGE * PAGE;
                        for (j, b) in p.iter_mut().enumerate() {
                            *b = hashed_byte(s, base + j as u64);
                        }
                    }
                    e.insert(p)
                }
            };
            page[(a % PAGE) as usize] = (v >> (8 * k)) as u8;
        }
        if let Some(t) = &mut self.trace {
            let v = if len >= 16 {
                v
            } else {
                v & ((1u128 << (8 * len)) - 1)
            };
            t.push((addr, len, v));
        }
        Ok(())
    }
}

/// Reads from a flat byte space.
pub fn read_flat(bytes: &[u8], off: u64, len: u64) -> Option<u128> {
    let end = off.checked_add(len)?;
    if end > bytes.len() as u64 {
        return None;
    }
    let mut v: u128 = 0;
    for k in 0..len as usize {
        v |= (bytes[off as usize + k] as u128) << (8 * k);
    }
    Some(v)
}

/// Writes to a flat byte space.
pub fn write_flat(bytes: &mut [u8], off: u64, len: u64, v: u128) -> Option<()> {
    let end = off.checked_add(len)?;
    if end > bytes.len() as u64 {
        return None;
    }
    for k in 0..len as usize {
        bytes[off as usize + k] = (v >> (8 * k)) as u8;
    }
    Some(())
}

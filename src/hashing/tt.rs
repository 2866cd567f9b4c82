//! A fixed-size, lock-free transposition table, generic over the game's entry.
//!
//! Layout: 64-byte buckets (one cache line) of four 16-byte slots. A slot is two atomic
//! words, `data` (the entry's payload plus a 6-bit generation) and `lock = verify ^ data`.
//! A reader accepts a slot only when `lock ^ data` gives back its own verification key, so a
//! slot torn by two racing writers (lock of one, data of the other) reads as a miss, not as
//! a wrong hit. This is Hyatt's lockless hashing; relaxed atomics make it free of data races.
//!
//! The bucket index is the high half of `index * bucket_count` (multiply-high), which uses
//! the key's top bits and works for any table size, not only powers of two. The full key is
//! compared, so the low bits the index did not consume are what tell positions apart.

use std::collections::TryReserveError;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::Key;

/// Bits of a slot's data word that belong to the entry; the rest hold the generation.
pub const PAYLOAD_BITS: u32 = 58;
const PAYLOAD_MASK: u64 = (1 << PAYLOAD_BITS) - 1;
/// Generations run 1..=63; a data word of 0 marks an empty slot.
const GENERATION_CYCLE: u8 = 63;
/// Slots per bucket: 4 x 16 bytes fill one cache line.
pub const SLOTS_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
/// Buckets sampled by [`Table::hashfull`].
const HASHFULL_SAMPLE: usize = 1000;

/// What a game stores in the table. Packs into [`PAYLOAD_BITS`] bits.
pub trait TableEntry: Copy {
    /// The entry as a payload below `1 << PAYLOAD_BITS`.
    fn pack(self) -> u64;
    /// The inverse of [`TableEntry::pack`].
    fn unpack(payload: u64) -> Self;
    /// The work the entry stands for; shallow entries are evicted first.
    fn depth(self) -> u8;
    /// Whether this entry should overwrite `stored`, an entry for the same position from the
    /// current search. By default: unless it is much shallower.
    fn overwrites(self, stored: Self) -> bool {
        u16::from(self.depth()) + 4 > u16::from(stored.depth())
    }
    /// This entry as it is written over `stored`, an entry for the same position. By default
    /// unchanged; a game can carry over what the new entry lacks and the old one knew.
    fn merged_over(self, _stored: Self) -> Self {
        self
    }
}

/// Where a position goes in the table and how its entries are recognised.
///
/// `index` picks the bucket; `verify` is compared in full. A game with a single key uses it
/// for both; a game with a second, independent check key verifies with that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// Chooses the bucket (its high bits matter most).
    pub index: u64,
    /// Compared in full against the stored lock.
    pub verify: u64,
}

impl TableKey {
    /// A key verified with an independent second key (64 extra bits of verification).
    pub fn with_check(key: Key, check: Key) -> TableKey {
        TableKey {
            index: key.0,
            verify: check.0,
        }
    }
}

impl From<Key> for TableKey {
    fn from(key: Key) -> TableKey {
        TableKey {
            index: key.0,
            verify: key.0,
        }
    }
}

#[derive(Default)]
struct Slot {
    lock: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn read(&self) -> (u64, u64) {
        (self.lock.load(Relaxed), self.data.load(Relaxed))
    }

    #[inline]
    fn write(&self, verify: u64, data: u64) {
        self.lock.store(verify ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }

    fn clear(&self) {
        self.lock.store(0, Relaxed);
        self.data.store(0, Relaxed);
    }
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; SLOTS_PER_BUCKET],
}

/// A counter on its own cache line, so threads bumping different counters do not collide.
#[cfg(feature = "table-stats")]
#[derive(Default)]
#[repr(align(64))]
struct Counter(AtomicU64);

#[cfg(feature = "table-stats")]
impl Counter {
    #[inline]
    fn bump(&self) {
        self.0.fetch_add(1, Relaxed);
    }
    fn get(&self) -> u64 {
        self.0.load(Relaxed)
    }
    fn reset(&self) {
        self.0.store(0, Relaxed);
    }
}

/// Probe, hit and store counts since creation or the last [`Table::reset_stats`]. Kept only
/// with the `table-stats` feature (tests turn it on): counting every probe and store from
/// every thread costs the search time.
#[cfg(feature = "table-stats")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Calls to [`Table::probe`].
    pub probes: u64,
    /// Probes that found their position.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
}

#[cfg(feature = "table-stats")]
impl TableStats {
    /// Hits per probe, 0 when nothing was probed.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

#[cfg(feature = "table-stats")]
const PROBES: usize = 0;
#[cfg(feature = "table-stats")]
const HITS: usize = 1;
#[cfg(feature = "table-stats")]
const STORES: usize = 2;

/// The table could not get its memory; the previous table (if any) is untouched.
#[derive(Debug)]
pub struct AllocError {
    /// The size asked for.
    pub mib: usize,
    source: Option<TryReserveError>,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(e) => write!(
                f,
                "cannot allocate {} MiB for the hash table: {e}",
                self.mib
            ),
            None => write!(f, "hash table size {} MiB is out of range", self.mib),
        }
    }
}

impl std::error::Error for AllocError {}

/// `count` empty buckets, or the allocator's refusal.
fn buckets(count: usize) -> Result<Vec<Bucket>, TryReserveError> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(count)?;
    buckets.resize_with(count, Bucket::default);
    Ok(buckets)
}

/// A fixed-size transposition table holding entries of type `E`, safe to share between
/// threads (`&Table` is all a searcher needs).
pub struct Table<E> {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
    #[cfg(feature = "table-stats")]
    stats: [Counter; 3],
    entry: PhantomData<fn() -> E>,
}

impl<E: TableEntry> Table<E> {
    /// A table of `mib` MiB (at least one bucket). Allocation happens here and in
    /// [`Table::resize`] only.
    pub fn new(mib: usize) -> Result<Table<E>, AllocError> {
        let mut table = Table {
            buckets: Vec::new(),
            generation: AtomicU8::new(1),
            #[cfg(feature = "table-stats")]
            stats: Default::default(),
            entry: PhantomData,
        };
        table.resize(mib)?;
        Ok(table)
    }

    /// Replaces the table by an empty one of `mib` MiB. The old table is freed before the
    /// new one is allocated, so the two are never held at once; on failure the table keeps
    /// its old size (empty), or, should even that memory be gone, a single bucket.
    pub fn resize(&mut self, mib: usize) -> Result<(), AllocError> {
        let count = mib
            .checked_mul(1 << 20)
            .map(|bytes| (bytes / BUCKET_BYTES).max(1))
            .ok_or(AllocError { mib, source: None })?;
        let old = self.buckets.len();
        self.buckets = Vec::new();
        let result = match buckets(count) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(e) => {
                // A single bucket is a few dozen bytes: failing that is failing everything.
                self.buckets = buckets(old)
                    .or_else(|_| buckets(1))
                    .unwrap_or_else(|_| std::iter::once(Bucket::default()).collect());
                Err(AllocError {
                    mib,
                    source: Some(e),
                })
            }
        };
        self.generation.store(1, Relaxed);
        #[cfg(feature = "table-stats")]
        self.reset_stats();
        result
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for slot in &bucket.slots {
                slot.clear();
            }
        }
        self.generation.store(1, Relaxed);
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS_PER_BUCKET
    }

    /// Starts a new search: entries from earlier searches become the first to be replaced.
    pub fn new_generation(&self) {
        let next = self.generation.load(Relaxed) % GENERATION_CYCLE + 1;
        self.generation.store(next, Relaxed);
    }

    #[inline]
    fn bucket(&self, index: u64) -> &Bucket {
        let i = ((u128::from(index) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    #[inline]
    fn age(&self, data: u64) -> u8 {
        let stored = (data >> PAYLOAD_BITS) as u8;
        (self.generation.load(Relaxed) + GENERATION_CYCLE - stored) % GENERATION_CYCLE
    }

    /// Asks the CPU to start loading the bucket of `key`, so a probe soon after does not wait
    /// for memory. A hint only; does nothing on other architectures.
    #[inline]
    pub fn prefetch(&self, key: TableKey) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let address = std::ptr::from_ref(self.bucket(key.index)).cast::<i8>();
            // SAFETY: a prefetch never faults and never changes memory, whatever the address;
            // the intrinsic is `unsafe` only because it needs SSE, which all x86_64 CPUs have.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: TableKey) -> Option<E> {
        #[cfg(feature = "table-stats")]
        self.stats[PROBES].bump();
        for slot in &self.bucket(key.index).slots {
            let (lock, data) = slot.read();
            if data != 0 && lock ^ data == key.verify {
                #[cfg(feature = "table-stats")]
                self.stats[HITS].bump();
                return Some(E::unpack(data & PAYLOAD_MASK));
            }
        }
        None
    }

    /// Stores `entry` for `key`. An entry for the same position is overwritten when it is
    /// stale or [`TableEntry::overwrites`] says so; otherwise the slot that is empty, or else
    /// shallowest after an age penalty, makes room. Returns whether anything was written.
    pub fn store(&self, key: TableKey, entry: E) -> bool {
        let payload = entry.pack();
        debug_assert!(
            payload <= PAYLOAD_MASK,
            "entry does not fit the payload bits"
        );
        let generation = u64::from(self.generation.load(Relaxed)) << PAYLOAD_BITS;
        let data = payload | generation;
        let bucket = self.bucket(key.index);

        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let (lock, old) = slot.read();
            if old == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let age = self.age(old);
            if lock ^ old == key.verify {
                let stored = E::unpack(old & PAYLOAD_MASK);
                if age == 0 && !entry.overwrites(stored) {
                    return false;
                }
                slot.write(key.verify, entry.merged_over(stored).pack() | generation);
                #[cfg(feature = "table-stats")]
                self.stats[STORES].bump();
                return true;
            }
            let worth = i32::from(E::unpack(old & PAYLOAD_MASK).depth()) - 8 * i32::from(age);
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        bucket.slots[victim].write(key.verify, data);
        #[cfg(feature = "table-stats")]
        self.stats[STORES].bump();
        true
    }

    /// Permille of sampled slots holding an entry of the current generation (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = &self.buckets[..self.buckets.len().min(HASHFULL_SAMPLE)];
        let current = self.generation.load(Relaxed);
        let used = sample
            .iter()
            .flat_map(|b| &b.slots)
            .filter(|s| {
                let data = s.data.load(Relaxed);
                data != 0 && (data >> PAYLOAD_BITS) as u8 == current
            })
            .count();
        (used * 1000 / (sample.len() * SLOTS_PER_BUCKET)) as u32
    }

    /// Counters since creation or the last reset.
    #[cfg(feature = "table-stats")]
    pub fn stats(&self) -> TableStats {
        TableStats {
            probes: self.stats[PROBES].get(),
            hits: self.stats[HITS].get(),
            stores: self.stats[STORES].get(),
        }
    }

    /// Zeroes the counters.
    #[cfg(feature = "table-stats")]
    pub fn reset_stats(&self) {
        for counter in &self.stats {
            counter.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Probe {
        depth: u8,
        value: u32,
    }

    impl TableEntry for Probe {
        fn pack(self) -> u64 {
            u64::from(self.depth) | u64::from(self.value) << 8
        }
        fn unpack(p: u64) -> Self {
            Probe {
                depth: p as u8,
                value: (p >> 8) as u32,
            }
        }
        fn depth(self) -> u8 {
            self.depth
        }
    }

    #[test]
    fn torn_write_reads_as_a_miss() {
        let table = Table::<Probe>::new(1).unwrap();
        let a = TableKey::from(Key(0x1111_2222_3333_4444));
        let b = TableKey::from(Key(0x1111_2222_3333_4445)); // same bucket
        let (ea, eb) = (Probe { depth: 3, value: 7 }, Probe { depth: 9, value: 8 });
        assert!(table.store(a, ea));
        assert_eq!(table.probe(a), Some(ea));
        // Simulate writer B racing writer A on one slot: B's lock landed, A's data stayed.
        let slot = &table.bucket(a.index).slots[0];
        let data_a = slot.data.load(Relaxed);
        let data_b = eb.pack() | 1 << PAYLOAD_BITS;
        slot.lock.store(b.verify ^ data_b, Relaxed);
        assert_eq!(slot.data.load(Relaxed), data_a);
        assert_eq!(table.probe(a), None);
        assert_eq!(table.probe(b), None);
        // And the other half: A's lock with B's data.
        slot.lock.store(a.verify ^ data_a, Relaxed);
        slot.data.store(data_b, Relaxed);
        assert_eq!(table.probe(a), None);
        assert_eq!(table.probe(b), None);
    }

    #[test]
    fn index_spreads_over_all_buckets() {
        let table = Table::<Probe>::new(1).unwrap();
        let n = table.buckets.len() as u64;
        let first = table.bucket(0) as *const Bucket;
        let last = table.bucket(u64::MAX) as *const Bucket;
        assert_eq!(buckets_between(first, last), (n - 1) as usize);
    }

    fn buckets_between(a: *const Bucket, b: *const Bucket) -> usize {
        (b as usize - a as usize) / BUCKET_BYTES
    }
}

//! Measuring how good a set of keys is, for any game: colliding pairs among distinct
//! positions at truncated widths against the birthday expectation, false hits of a
//! transposition table, and sanity checks on the key table itself.
//!
//! Truncating a key to `b` bits keeps its top `b` bits, the ones the table's bucket index
//! uses. Sorting the full keys once then groups every width's equal prefixes together, so
//! one sort and one pass count all widths.

use super::tt::{Table, TableEntry, TableKey};

/// One visited position: its exact encoding `C` and its keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample<C> {
    /// The position, encoded exactly (equal codes if and only if equal positions).
    pub code: C,
    /// The main key.
    pub key: u64,
    /// The second, independent check key (0 for games without one).
    pub check: u64,
}

/// Visited positions, kept as distinct ones by sorting and deduplicating whenever the
/// buffer doubles: memory stays within about twice the distinct positions however many
/// times the walk revisits them.
#[derive(Debug)]
pub struct SampleSet<C> {
    samples: Vec<Sample<C>>,
    distinct: usize,
    visited: u64,
    mismatch: Option<(Sample<C>, Sample<C>)>,
}

/// Two visits of one position carried different keys: the key is not a function of the
/// position, a defect in the incremental update.
#[derive(Debug)]
pub struct KeyMismatch<C>(pub Sample<C>, pub Sample<C>);

impl<C: Ord + Copy> Default for SampleSet<C> {
    fn default() -> SampleSet<C> {
        SampleSet::new()
    }
}

impl<C: Ord + Copy> SampleSet<C> {
    /// Positions deduplicated at a time, at least.
    const MIN_BATCH: usize = 1 << 20;

    /// An empty set.
    pub fn new() -> SampleSet<C> {
        SampleSet {
            samples: Vec::new(),
            distinct: 0,
            visited: 0,
            mismatch: None,
        }
    }

    /// Records a visit of the position `code` with its keys.
    pub fn push(&mut self, code: C, key: u64, check: u64) {
        self.visited += 1;
        self.samples.push(Sample { code, key, check });
        if self.samples.len() >= (2 * self.distinct).max(Self::MIN_BATCH) {
            self.compact();
        }
    }

    /// Visits recorded, repeats included.
    pub fn visited(&self) -> u64 {
        self.visited
    }

    fn compact(&mut self) {
        self.samples.sort_unstable_by_key(|s| s.code);
        let mismatch = &mut self.mismatch;
        self.samples.dedup_by(|later, kept| {
            let same = later.code == kept.code;
            if same && (later.key != kept.key || later.check != kept.check) && mismatch.is_none() {
                *mismatch = Some((*kept, *later));
            }
            same
        });
        self.distinct = self.samples.len();
    }

    /// The distinct positions, sorted by code, or the first position seen with two keys.
    pub fn finish(mut self) -> Result<Vec<Sample<C>>, KeyMismatch<C>> {
        self.compact();
        match self.mismatch {
            Some((a, b)) => Err(KeyMismatch(a, b)),
            None => Ok(self.samples),
        }
    }
}

/// The widths `hashstats` reports.
pub const WIDTHS: [u32; 6] = [16, 24, 32, 40, 48, 64];

/// Colliding pairs at one width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionRow {
    /// Bits kept.
    pub bits: u32,
    /// Pairs of distinct positions whose truncated keys are equal.
    pub pairs: u64,
    /// The birthday expectation `n(n-1)/2^(b+1)` for `n` random keys.
    pub expected: f64,
}

impl CollisionRow {
    /// Whether `pairs` is a plausible draw for random keys: neither tail of the Poisson law
    /// with mean `expected` (the pair count's law for random keys) is below one in 10,000.
    pub fn plausible(&self) -> bool {
        let (below, above) = poisson_tails(self.expected, self.pairs);
        below >= 1e-4 && above >= 1e-4
    }

    /// Standard deviations from the expectation (0 when nothing is expected).
    pub fn deviation(&self) -> f64 {
        if self.expected > 0.0 {
            (self.pairs as f64 - self.expected) / self.expected.sqrt()
        } else {
            0.0
        }
    }
}

/// Counts colliding pairs among `keys` (one per distinct position) at each of `widths`.
/// Sorts `keys` in place.
///
/// ```
/// use rookery::hashing::quality::colliding_pairs;
/// // Three keys share their top 16 bits (3 pairs); two of them are equal in full (1 pair).
/// let mut keys = vec![0xABCD_0000_0000_0001, 0xABCD_0000_0000_0001, 0xABCD_FFFF_0000_0000, 7];
/// let rows = colliding_pairs(&mut keys, &[16, 64]);
/// assert_eq!((rows[0].pairs, rows[1].pairs), (3, 1));
/// ```
pub fn colliding_pairs(keys: &mut [u64], widths: &[u32]) -> Vec<CollisionRow> {
    keys.sort_unstable();
    let n = keys.len() as f64;
    let mut pairs = vec![0u64; widths.len()];
    let mut runs = vec![1u64; widths.len()];
    for pair in keys.windows(2) {
        let same = (pair[0] ^ pair[1]).leading_zeros();
        for (i, &bits) in widths.iter().enumerate() {
            if same >= bits {
                // The new key matches every earlier key of the run.
                pairs[i] += runs[i];
                runs[i] += 1;
            } else {
                runs[i] = 1;
            }
        }
    }
    widths
        .iter()
        .zip(pairs)
        .map(|(&bits, pairs)| CollisionRow {
            bits,
            pairs,
            expected: n * (n - 1.0) / 2f64.powi(bits as i32 + 1),
        })
        .collect()
}

/// For each width, how many keys of `keys` (taken in the given order) came before the
/// first one whose truncated key repeats an earlier one's: the "collisions appear after
/// about n positions" figure, measured. `None` where no collision occurred.
///
/// ```
/// use rookery::hashing::quality::first_collisions;
/// let keys = [0x0001_0000_0000_0000, 0x0002_0000_0000_0000, 0x0001_FFFF_0000_0000];
/// assert_eq!(first_collisions(&keys, &[16, 64]), vec![Some(2), None]);
/// ```
pub fn first_collisions(keys: &[u64], widths: &[u32]) -> Vec<Option<usize>> {
    widths
        .iter()
        .map(|&bits| {
            let mut seen = std::collections::HashSet::new();
            keys.iter()
                .position(|&k| !seen.insert(k.checked_shr(64 - bits).unwrap_or(0)))
        })
        .collect()
}

/// `P(X <= k)` and `P(X >= k)` for `X` Poisson with mean `mean`.
fn poisson_tails(mean: f64, k: u64) -> (f64, f64) {
    if mean > 1000.0 {
        // The normal approximation is tight here, and the exact sum would underflow.
        let z = (k as f64 - mean) / mean.sqrt();
        return (
            normal_upper(-z - 0.5 / mean.sqrt()),
            normal_upper(z - 0.5 / mean.sqrt()),
        );
    }
    let mut term = (-mean).exp();
    let mut below = 0.0;
    for i in 0..k {
        below += term;
        term *= mean / (i + 1) as f64;
    }
    // `below` is P(X < k); `term` is P(X = k).
    ((below + term).min(1.0), (1.0 - below).max(0.0))
}

/// `P(Z >= z)` for a standard normal `Z` (Abramowitz and Stegun 7.1.26, error below 1e-7).
fn normal_upper(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// What the sanity checks found in one key table.
#[derive(Clone, Debug, PartialEq)]
pub struct Sanity {
    /// Keys checked.
    pub keys: usize,
    /// Keys equal to zero (a feature that would not change the key).
    pub zero: usize,
    /// Pairs of equal keys.
    pub equal_pairs: usize,
    /// The largest per-bit deviation from balance, in standard deviations.
    pub worst_bit: f64,
    /// Chi-square of the 64 per-bit counts (64 degrees of freedom: about 64 +- 11).
    pub bit_chi_square: f64,
    /// Subset sizes searched for a zero XOR: every subset of at most this many keys.
    pub dependence_checked: usize,
    /// The smallest subset size whose keys XOR to zero, if one was found.
    pub dependence_found: Option<usize>,
}

impl Sanity {
    /// All checks passed: no zero or equal keys, every bit balanced within 4.5 standard
    /// deviations, the chi-square below 120 (p < 1e-4 for 64 degrees of freedom), and no
    /// dependence among the subset sizes searched.
    pub fn passed(&self) -> bool {
        self.zero == 0
            && self.equal_pairs == 0
            && self.worst_bit <= 4.5
            && self.bit_chi_square < 120.0
            && self.dependence_found.is_none()
    }
}

/// Largest number of subset XORs the dependence search forms.
const DEPENDENCE_BUDGET: usize = 120_000_000;

/// The memory one pass of the dependence search plans for its triple XORs, about what it
/// holds when the keys' top bits are balanced (the pairs are held whole: 2.4 MiB for the 781
/// chess keys).
const DEPENDENCE_PASS_BYTES: usize = 32 << 20;

/// Checks a key table: no zero key, no two keys equal, each bit set in about half the keys,
/// and no set of at most six keys (fewer when the table is too large for the budget)
/// whose XOR is zero.
///
/// Why these suffice for a Zobrist key: two positions that differ in a set `S` of
/// features collide exactly when the keys of `S` XOR to zero. Positions near each other in
/// a search tree differ in few features, so a dependence among few keys would make such
/// near positions collide every time; the search rules that out up to the size it checks.
/// Larger sets no 64-bit keys can avoid: 781 chess keys have more subsets of eight than there
/// are 64-bit values. Collisions through them are the birthday collisions the pair counts
/// measure.
pub fn sanity(keys: &[u64]) -> Sanity {
    let n = keys.len();
    let zero = keys.iter().filter(|&&k| k == 0).count();
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    let equal_pairs = sorted.windows(2).filter(|w| w[0] == w[1]).count();

    let sigma = (n as f64).sqrt() / 2.0;
    let mut worst_bit = 0.0f64;
    let mut bit_chi_square = 0.0;
    for bit in 0..64 {
        let ones = keys.iter().filter(|&&k| k >> bit & 1 == 1).count();
        let z = (ones as f64 - n as f64 / 2.0) / sigma;
        worst_bit = worst_bit.max(z.abs());
        bit_chi_square += z * z;
    }

    let (dependence_checked, dependence_found) = if zero > 0 {
        (1, Some(1))
    } else if equal_pairs > 0 {
        (2, Some(2))
    } else {
        smallest_dependence(&sorted, DEPENDENCE_PASS_BYTES)
    };
    Sanity {
        keys: n,
        zero,
        equal_pairs,
        worst_bit,
        bit_chi_square,
        dependence_checked,
        dependence_found,
    }
}

/// Searches subsets of 3 to 6 distinct, non-zero, sorted keys for a zero XOR, as far as
/// the budget allows. Returns the largest size fully searched and the smallest size found.
///
/// With no dependence of size 2, equal XORs of two different pairs mean a dependence of
/// size 4 (the pairs cannot share a key); with none up to 4, a triple XOR equal to a key
/// pair's XOR means size 5, and two equal triple XORs mean size 6. Equal XORs share their
/// top bits, so the triples are searched one top-bit class at a time, so many classes that
/// a class of balanced keys' XORs fits in about `pass_bytes`.
fn smallest_dependence(sorted: &[u64], pass_bytes: usize) -> (usize, Option<usize>) {
    let n = sorted.len();
    let pair_count = n * n.saturating_sub(1) / 2;
    if pair_count > DEPENDENCE_BUDGET {
        return (2, None);
    }
    let mut pairs = Vec::with_capacity(pair_count);
    for i in 0..n {
        for j in i + 1..n {
            pairs.push(sorted[i] ^ sorted[j]);
        }
    }
    // Size 3: a pair's XOR is a third key.
    if pairs.iter().any(|x| sorted.binary_search(x).is_ok()) {
        return (3, Some(3));
    }
    pairs.sort_unstable();
    if pairs.windows(2).any(|w| w[0] == w[1]) {
        return (4, Some(4));
    }
    let triple_count = pair_count.saturating_mul(n.saturating_sub(2)) / 3;
    if triple_count > DEPENDENCE_BUDGET {
        return (4, None);
    }
    let classes = (triple_count * 8)
        .div_ceil(pass_bytes.max(8))
        .next_power_of_two();
    let class_bits = classes.trailing_zeros();
    let class_of = |x: u64| x.checked_shr(64 - class_bits).unwrap_or(0) as usize;
    // The sorted keys and pairs of one class are contiguous: where each class starts.
    let starts = |values: &[u64]| -> Vec<usize> {
        (0..=classes)
            .map(|c| values.partition_point(|&x| class_of(x) < c))
            .collect()
    };
    let (key_starts, pair_starts) = (starts(sorted), starts(&pairs));
    let mut found = None;
    // A class of random keys' triples holds about its share of them; more is grown into.
    let mut triples = Vec::with_capacity(triple_count / classes + triple_count / classes / 8 + 64);
    for class in 0..classes {
        triples.clear();
        for i in 0..n {
            for j in i + 1..n {
                let ij = sorted[i] ^ sorted[j];
                // The third key's class makes the triple's: `class_of` is linear.
                let k_class = class_of(ij) ^ class;
                let first = key_starts[k_class].max(j + 1);
                for &k in sorted.get(first..key_starts[k_class + 1]).unwrap_or(&[]) {
                    triples.push(ij ^ k);
                }
            }
        }
        let class_pairs = &pairs[pair_starts[class]..pair_starts[class + 1]];
        if triples.iter().any(|x| class_pairs.binary_search(x).is_ok()) {
            return (5, Some(5));
        }
        triples.sort_unstable();
        if triples.windows(2).any(|w| w[0] == w[1]) {
            found = Some(6);
        }
    }
    (6, found)
}

/// False hits of a table filled with distinct positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FalseHits {
    /// Verification bits compared.
    pub verify_bits: u32,
    /// Probes made (one per distinct position, before storing it).
    pub probes: u64,
    /// Probes that returned an entry stored for another position.
    pub false_hits: u64,
    /// The expectation for random keys: each occupied slot of the probed bucket matches
    /// with probability `2^-verify_bits`.
    pub expected: f64,
}

impl FalseHits {
    /// False hits per probe.
    pub fn rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.false_hits as f64 / self.probes as f64
        }
    }
}

/// An entry that remembers which position stored it.
#[derive(Clone, Copy)]
struct Owner(u64);

impl TableEntry for Owner {
    fn pack(self) -> u64 {
        self.0
    }
    fn unpack(payload: u64) -> Owner {
        Owner(payload)
    }
    fn depth(self) -> u8 {
        0
    }
    fn overwrites(self, _: Owner) -> bool {
        true
    }
}

/// Probes, then stores, every key of `keys` (one per distinct position, so any hit is
/// false) in a table of `mib` MiB that compares the low `verify_bits` bits of each key's
/// verification word. `verify_bits` 64 is the table as the games use it.
pub fn false_hits(
    keys: impl IntoIterator<Item = TableKey>,
    mib: usize,
    verify_bits: u32,
) -> Result<FalseHits, super::tt::AllocError> {
    let table: Table<Owner> = Table::new(mib)?;
    let buckets = (table.capacity() / super::tt::SLOTS_PER_BUCKET) as f64;
    let slots = table.capacity() as f64;
    let mask = if verify_bits >= 64 {
        u64::MAX
    } else {
        (1 << verify_bits) - 1
    };
    let chance = 2f64.powi(-(verify_bits as i32));
    let mut report = FalseHits {
        verify_bits,
        probes: 0,
        false_hits: 0,
        expected: 0.0,
    };
    for (id, key) in keys.into_iter().enumerate() {
        let key = TableKey {
            index: key.index,
            verify: key.verify & mask,
        };
        // Slots in use grow with the stores until the table is full.
        report.expected += (id as f64).min(slots) / buckets * chance;
        report.probes += 1;
        if table.probe(key).is_some() {
            report.false_hits += 1;
        }
        table.store(key, Owner(id as u64 + 1));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_follow_the_runs_of_equal_prefixes() {
        // Four keys equal in their top 24 bits: 6 pairs; two of them also in full: 1 pair.
        let mut keys = vec![
            0x1234_5600_0000_0000,
            0x1234_56FF_0000_0000,
            0x1234_5600_0000_0000,
            0x1234_5601_0000_0000,
            0x9999_0000_0000_0000,
        ];
        let rows = colliding_pairs(&mut keys, &[16, 24, 32, 64]);
        let pairs: Vec<u64> = rows.iter().map(|r| r.pairs).collect();
        assert_eq!(pairs, vec![6, 6, 1, 1]);
        assert_eq!(rows[0].expected, 5.0 * 4.0 / 2f64.powi(17));
    }

    #[test]
    fn poisson_tails_match_known_values() {
        let (below, above) = poisson_tails(2.0, 0);
        assert!((below - (-2f64).exp()).abs() < 1e-12);
        assert_eq!(above, 1.0);
        // P(X >= 5) for mean 1 is 0.00366.
        assert!((poisson_tails(1.0, 5).1 - 0.003_659_846).abs() < 1e-6);
        // Normal regime: 4 standard deviations above is implausible, 1 is not.
        let row = |pairs| CollisionRow {
            bits: 16,
            pairs,
            expected: 1e6,
        };
        assert!(row(1_001_000).plausible());
        assert!(!row(1_004_000).plausible());
        assert!(!row(996_000).plausible());
    }

    #[test]
    fn sanity_finds_planted_defects() {
        let random: Vec<u64> = (1..=200).map(|i| crate::hashing::Key::mixed(i).0).collect();
        let clean = sanity(&random);
        assert!(clean.passed(), "{clean:?}");
        assert_eq!(clean.dependence_checked, 6);

        let mut zero = random.clone();
        zero[7] = 0;
        assert_eq!(sanity(&zero).dependence_found, Some(1));
        let mut equal = random.clone();
        equal[9] = equal[3];
        assert_eq!(sanity(&equal).equal_pairs, 1);
        for size in 3..=6 {
            let mut planted = random.clone();
            planted[size * 10] = random[..size - 1].iter().fold(0, |x, k| x ^ k);
            let found = sanity(&planted);
            assert_eq!(found.dependence_found, Some(size), "{found:?}");
            assert!(!found.passed());
        }
        // The same plants found with the triples searched in many classes.
        for size in 5..=6 {
            let mut planted = random.clone();
            planted[size * 10] = random[..size - 1].iter().fold(0, |x, k| x ^ k);
            planted.sort_unstable();
            assert_eq!(smallest_dependence(&planted, 4096), (size, Some(size)));
        }
        let mut sorted = random.clone();
        sorted.sort_unstable();
        assert_eq!(smallest_dependence(&sorted, 4096), (6, None));
        let mut biased = random.clone();
        for k in &mut biased {
            *k |= 1;
        }
        assert!(sanity(&biased).worst_bit > 10.0);
    }

    #[test]
    fn false_hits_appear_only_with_short_verification() {
        let keys: Vec<TableKey> = (0..200_000u64)
            .map(|i| TableKey::from(crate::hashing::Key::mixed(i)))
            .collect();
        let full = false_hits(keys.iter().copied(), 1, 64).unwrap();
        assert_eq!((full.probes, full.false_hits), (200_000, 0));
        let short = false_hits(keys.iter().copied(), 1, 8).unwrap();
        // 1 MiB = 16,384 buckets of 4 slots: a full bucket matches 8 bits with p = 4/256.
        assert!(short.expected > 2000.0, "{short:?}");
        let ratio = short.false_hits as f64 / short.expected;
        assert!((0.8..1.2).contains(&ratio), "{short:?}");
    }
}

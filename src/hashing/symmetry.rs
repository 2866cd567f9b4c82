//! Symmetry-canonical keys: one key per element of a symmetry group, all updated by each
//! toggle, so that the canonical key (the least of them) is known at every node.
//!
//! A group is given as permutations of the game's features (a transform moves a stone or a
//! piece to another cell, keeping what it is). Key `g` is the key the position would have
//! after transform `g`; toggling a feature XORs, for each `g`, the key of its image under
//! `g`: K XORs for a group of K elements, read from one contiguous row.

use arrayvec::ArrayVec;

use super::{Key, KeyTable};

/// The largest group supported: the 12 symmetries of the hexagonal grid.
pub const MAX_SYMMETRIES: usize = 12;

/// A symmetry group as permutations of feature indices; element 0 must be the identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryGroup {
    /// `images[g][f]`: where transform `g` sends feature `f`.
    images: Vec<Vec<usize>>,
}

/// A group whose permutations are not permutations of the same feature set, or that is too
/// large or lacks the identity first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupError(pub String);

impl SymmetryGroup {
    /// Checks and wraps the permutations.
    pub fn new(images: Vec<Vec<usize>>) -> Result<SymmetryGroup, GroupError> {
        let n = images.first().map_or(0, Vec::len);
        if images.is_empty() || images.len() > MAX_SYMMETRIES {
            return Err(GroupError(format!(
                "a group needs 1 to {MAX_SYMMETRIES} elements, got {}",
                images.len()
            )));
        }
        if images[0].iter().enumerate().any(|(i, &f)| i != f) {
            return Err(GroupError("element 0 must be the identity".into()));
        }
        for (g, perm) in images.iter().enumerate() {
            let mut seen = vec![false; n];
            if perm.len() != n
                || !perm
                    .iter()
                    .all(|&f| f < n && !std::mem::replace(&mut seen[f], true))
            {
                return Err(GroupError(format!(
                    "element {g} is not a permutation of {n} features"
                )));
            }
        }
        Ok(SymmetryGroup { images })
    }

    /// Number of transforms.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// True for a group without elements (never: `new` refuses it).
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Where transform `g` sends feature `f`.
    pub fn image(&self, g: usize, f: usize) -> usize {
        self.images[g][f]
    }

    /// The feature that transform `g` sends to `f` (the inverse transform).
    pub fn preimage(&self, g: usize, f: usize) -> usize {
        self.images[g]
            .iter()
            .position(|&x| x == f)
            .expect("a permutation reaches every feature")
    }
}

/// One key per group element, as maintained by a [`SymmetricKeyTable`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetricKey {
    keys: ArrayVec<Key, MAX_SYMMETRIES>,
}

impl SymmetricKey {
    /// The key of the untransformed position.
    pub fn identity(&self) -> Key {
        self.keys[0]
    }

    /// The key of the position under transform `g`.
    pub fn under(&self, g: usize) -> Key {
        self.keys[g]
    }

    /// The canonical key, the least over the group, and the transform that gives it
    /// (the first such transform on ties, which happen for symmetric positions).
    pub fn canonical(&self) -> (Key, usize) {
        let mut best = (self.keys[0], 0);
        for (g, &k) in self.keys.iter().enumerate().skip(1) {
            if k < best.0 {
                best = (k, g);
            }
        }
        best
    }
}

/// Keys of every feature's image under every transform, row by feature.
#[derive(Clone, Debug)]
pub struct SymmetricKeyTable {
    group: SymmetryGroup,
    /// `rows[f * K + g]` = key of the image of `f` under `g`.
    rows: Box<[Key]>,
}

impl SymmetricKeyTable {
    /// Combines a key table with a group over the same features.
    pub fn new(table: &KeyTable, group: SymmetryGroup) -> SymmetricKeyTable {
        let k = group.len();
        let features = group.images[0].len();
        assert_eq!(
            features,
            table.len(),
            "the group must act on the table's features"
        );
        let rows = (0..features * k)
            .map(|i| table.key(group.image(i % k, i / k)))
            .collect();
        SymmetricKeyTable { group, rows }
    }

    /// The group.
    pub fn group(&self) -> &SymmetryGroup {
        &self.group
    }

    /// The keys of the empty position (all zero).
    pub fn empty(&self) -> SymmetricKey {
        SymmetricKey {
            keys: (0..self.group.len()).map(|_| Key::EMPTY).collect(),
        }
    }

    /// Adds or removes feature `f` in every transformed key: K XORs.
    #[inline]
    pub fn toggle(&self, key: &mut SymmetricKey, f: usize) {
        let k = key.keys.len();
        let row = &self.rows[f * k..f * k + k];
        for (key, &image) in key.keys.iter_mut().zip(row) {
            *key ^= image;
        }
    }
}

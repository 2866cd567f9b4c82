//! The playing field: the open plane of a UHP game, or the 91-cell hexagon of the Software
//! Challenge 2020 game with its obstructed cells.
//!
//! Keys need a bounded set of cells. The hexagon has one. The plane is folded onto a
//! [`WINDOW`] x [`WINDOW`] torus: cell `(q, r)` is keyed as `(q mod 32, r mod 32)`. Any
//! fixed window could be left, since a hive can crawl arbitrarily far from the origin over a
//! long game; the fold cannot. It never confuses two positions that matter: a connected hive
//! of at most 28 pieces spans at most 27 steps in `q` and in `r`, so two connected hives fold
//! to the same cells only when one is the other moved by a multiple of 32 in `q` and `r`,
//! which is the same Hive position (Hive has no fixed board).

use super::hex::{Frame, Hex, Transform};

/// Side of the torus onto which the open plane is folded for keys.
pub const WINDOW: i32 = 32;
/// Cells of the folded plane.
pub const WINDOW_CELLS: usize = (WINDOW * WINDOW) as usize;
/// Radius of the Software Challenge 2020 board (cells at most this far from the centre).
pub const SC2020_RADIUS: i32 = 5;
/// Cells of the Software Challenge 2020 board.
pub const SC2020_CELLS: usize = 91;

/// Cells in rows `-5..r` of the hexagon.
const fn row_start(r: i32) -> i32 {
    let mut n = 0;
    let mut s = -SC2020_RADIUS;
    while s < r {
        n += 2 * SC2020_RADIUS + 1 - s.abs();
        s += 1;
    }
    n
}

/// The first `q` of row `r` of the hexagon.
const fn row_first_q(r: i32) -> i32 {
    if r < 0 {
        -SC2020_RADIUS - r
    } else {
        -SC2020_RADIUS
    }
}

const SC2020_TABLE: [Hex; SC2020_CELLS] = {
    let mut table = [Hex::ORIGIN; SC2020_CELLS];
    let mut r = -SC2020_RADIUS;
    while r <= SC2020_RADIUS {
        let first = row_first_q(r);
        let len = 2 * SC2020_RADIUS + 1 - r.abs();
        let mut i = 0;
        while i < len {
            table[(row_start(r) + i) as usize] = Hex::new(first + i, r);
            i += 1;
        }
        r += 1;
    }
    table
};

/// The index (0 to 90, in reading order) of a cell of the Software Challenge board.
///
/// ```
/// use rookery::hive::{Hex, sc2020_cell, sc2020_index};
/// assert_eq!(sc2020_index(Hex::new(0, -5)), Some(0));
/// assert_eq!(sc2020_index(Hex::ORIGIN), Some(45));
/// assert_eq!(sc2020_index(Hex::new(6, 0)), None);
/// assert_eq!(sc2020_cell(90), Hex::new(0, 5));
/// ```
pub fn sc2020_index(h: Hex) -> Option<usize> {
    (h.distance(Hex::ORIGIN) <= SC2020_RADIUS)
        .then(|| (row_start(h.r) + h.q - row_first_q(h.r)) as usize)
}

/// The cell with index `i` (below 91) of the Software Challenge board.
pub fn sc2020_cell(i: usize) -> Hex {
    SC2020_TABLE[i]
}

/// The kind of a field without its obstructed cells: what reading a compact key needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The open plane.
    Open,
    /// The Software Challenge hexagon.
    Sc2020,
}

/// Where the pieces stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The unbounded plane of a UHP game.
    Open,
    /// The 91-cell hexagon of radius 5; bit `i` of `obstructed` marks cell `i` as blocked.
    Sc2020 {
        /// Obstructed cells as a bit set over the cell indices.
        obstructed: u128,
    },
}

impl Field {
    /// The Software Challenge board with the given cells obstructed (three in the real
    /// game, chosen at random; any set is accepted). `None` if one is off the board.
    pub fn sc2020(obstructed: &[Hex]) -> Option<Field> {
        let mut bits = 0u128;
        for &h in obstructed {
            bits |= 1 << sc2020_index(h)?;
        }
        Some(Field::Sc2020 { obstructed: bits })
    }

    /// The field's shape.
    pub fn shape(self) -> Shape {
        match self {
            Field::Open => Shape::Open,
            Field::Sc2020 { .. } => Shape::Sc2020,
        }
    }

    /// Number of cells the keys distinguish.
    pub fn key_cells(self) -> usize {
        match self {
            Field::Open => WINDOW_CELLS,
            Field::Sc2020 { .. } => SC2020_CELLS,
        }
    }

    /// The cell's index for keys, `None` off a bounded board.
    #[inline]
    pub fn key_cell(self, h: Hex) -> Option<usize> {
        match self {
            Field::Open => {
                Some((h.r.rem_euclid(WINDOW) * WINDOW + h.q.rem_euclid(WINDOW)) as usize)
            }
            Field::Sc2020 { .. } => sc2020_index(h),
        }
    }

    /// Whether a cell is on the field (every cell of the open plane is).
    pub fn contains(self, h: Hex) -> bool {
        self.key_cell(h).is_some()
    }

    /// Whether a cell is obstructed.
    pub fn is_obstructed(self, h: Hex) -> bool {
        match self {
            Field::Open => false,
            Field::Sc2020 { obstructed } => {
                sc2020_index(h).is_some_and(|i| obstructed >> i & 1 == 1)
            }
        }
    }

    /// The obstructed cells in reading order.
    pub fn obstructed(self) -> Vec<Hex> {
        match self {
            Field::Open => Vec::new(),
            Field::Sc2020 { obstructed } => (0..SC2020_CELLS)
                .filter(|i| obstructed >> i & 1 == 1)
                .map(sc2020_cell)
                .collect(),
        }
    }

    /// Whether the field is bounded (positions are not translated for canonical keys).
    pub fn is_bounded(self) -> bool {
        matches!(self, Field::Sc2020 { .. })
    }

    /// The transforms that map the field onto itself: all twelve on the plane (with any
    /// translation), those that keep the obstructed cells in place on the hexagon.
    pub fn symmetries(self) -> Vec<Transform> {
        let obstructed = self.obstructed();
        Transform::all()
            .filter(|&t| obstructed.iter().all(|&h| self.is_obstructed(t.apply(h))))
            .collect()
    }

    /// The field seen through a frame: `None` when a bounded board would not land on
    /// itself (a translated hexagon).
    pub fn mapped(self, frame: Frame) -> Option<Field> {
        match self {
            Field::Open => Some(Field::Open),
            Field::Sc2020 { .. } if frame.offset != Hex::ORIGIN => None,
            Field::Sc2020 { .. } => Field::sc2020(
                &self
                    .obstructed()
                    .iter()
                    .map(|&h| frame.map(h))
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexagon_indices_run_in_reading_order() {
        for i in 0..SC2020_CELLS {
            assert_eq!(sc2020_index(sc2020_cell(i)), Some(i));
        }
        for i in 1..SC2020_CELLS {
            assert!(sc2020_cell(i - 1) < sc2020_cell(i));
        }
        let on_board = (-8..=8)
            .flat_map(|q| (-8..=8).map(move |r| Hex::new(q, r)))
            .filter(|&h| sc2020_index(h).is_some())
            .count();
        assert_eq!(on_board, SC2020_CELLS);
    }

    #[test]
    fn every_transform_keeps_the_hexagon() {
        for t in Transform::all() {
            for i in 0..SC2020_CELLS {
                assert!(sc2020_index(t.apply(sc2020_cell(i))).is_some());
            }
        }
        assert_eq!(Field::sc2020(&[]).unwrap().symmetries().len(), 12);
        // Cube coordinates (2, 1, -3): no two of equal size, so only the identity fixes it.
        let one = Field::sc2020(&[Hex::new(2, -3)]).unwrap();
        assert_eq!(one.symmetries(), vec![Transform::IDENTITY]);
        // Cube coordinates (2, -1, -1) lie on a mirror axis.
        assert_eq!(
            Field::sc2020(&[Hex::new(2, -1)])
                .unwrap()
                .symmetries()
                .len(),
            2
        );
    }
}

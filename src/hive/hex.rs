//! Cells of the hexagonal grid in axial coordinates, the six directions, and the twelve
//! symmetries of the grid (six rotations, each with or without a mirror).
//!
//! Cells are pointy-topped: `q` grows to the east, `r` to the south-east, so the six
//! neighbours of `(q, r)` are east `(q+1, r)`, south-east `(q, r+1)`, south-west
//! `(q-1, r+1)`, west `(q-1, r)`, north-west `(q, r-1)` and north-east `(q+1, r-1)`.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Sub};

/// A cell of the hexagonal grid in axial coordinates.
///
/// Cells are ordered in reading order: by `r` (north to south), then by `q` (west to east).
///
/// ```
/// use rookery::hive::{Direction, Hex};
/// let a = Hex::new(0, 0);
/// assert_eq!(a.neighbour(Direction::East), Hex::new(1, 0));
/// assert_eq!(a.neighbour(Direction::NorthWest).distance(Hex::new(1, 0)), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hex {
    /// Column: grows to the east.
    pub q: i32,
    /// Row: grows to the south-east (and south-west, with `q` falling).
    pub r: i32,
}

impl Hex {
    /// The origin, where the first piece of a UHP game goes.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// The cell `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The neighbour in direction `d`.
    pub fn neighbour(self, d: Direction) -> Hex {
        self + d.offset()
    }

    /// The six neighbours, clockwise from the east.
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbour(d))
    }

    /// Steps between two cells.
    pub fn distance(self, other: Hex) -> i32 {
        let d = other - self;
        (d.q.abs() + d.r.abs() + (d.q + d.r).abs()) / 2
    }
}

impl Ord for Hex {
    fn cmp(&self, other: &Hex) -> Ordering {
        (self.r, self.q).cmp(&(other.r, other.q))
    }
}

impl PartialOrd for Hex {
    fn partial_cmp(&self, other: &Hex) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// One of the six directions from a cell to its neighbours, clockwise from the east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `(+1, 0)`.
    East,
    /// `(0, +1)`.
    SouthEast,
    /// `(-1, +1)`.
    SouthWest,
    /// `(-1, 0)`.
    West,
    /// `(0, -1)`.
    NorthWest,
    /// `(+1, -1)`.
    NorthEast,
}

impl Direction {
    /// All six, clockwise from the east.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
        Direction::NorthEast,
    ];

    /// The step to the neighbour.
    pub const fn offset(self) -> Hex {
        match self {
            Direction::East => Hex::new(1, 0),
            Direction::SouthEast => Hex::new(0, 1),
            Direction::SouthWest => Hex::new(-1, 1),
            Direction::West => Hex::new(-1, 0),
            Direction::NorthWest => Hex::new(0, -1),
            Direction::NorthEast => Hex::new(1, -1),
        }
    }
}

/// One of the twelve symmetries of the grid that keep the origin in place: index `k` in
/// `0..6` turns by `k` sixths clockwise; index `6 + k` first mirrors north and south
/// (`(q, r)` to `(q + r, -r)`), then turns by `k` sixths. Index 0 is the identity.
///
/// ```
/// use rookery::hive::{Hex, Transform};
/// let turn = Transform::new(1);
/// assert_eq!(turn.apply(Hex::new(1, 0)), Hex::new(0, 1)); // east to south-east
/// for t in Transform::all() {
///     assert_eq!(t.inverse().apply(t.apply(Hex::new(3, -1))), Hex::new(3, -1));
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transform(u8);

impl Transform {
    /// Number of symmetries of the hexagonal grid about a cell.
    pub const COUNT: usize = 12;
    /// The identity.
    pub const IDENTITY: Transform = Transform(0);

    /// Transform number `index` (below 12).
    pub fn new(index: usize) -> Transform {
        assert!(index < Self::COUNT, "transform index {index} out of 0..12");
        Transform(index as u8)
    }

    /// All twelve, the identity first.
    pub fn all() -> impl Iterator<Item = Transform> {
        (0..Self::COUNT).map(Transform::new)
    }

    /// The index in `0..12`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Whether the transform reverses orientation (mirrors).
    pub fn mirrors(self) -> bool {
        self.0 >= 6
    }

    /// Sixths of a clockwise turn applied after the optional mirror.
    pub fn turns(self) -> u8 {
        self.0 % 6
    }

    /// The image of a cell.
    pub fn apply(self, h: Hex) -> Hex {
        let mut h = if self.mirrors() {
            Hex::new(h.q + h.r, -h.r)
        } else {
            h
        };
        for _ in 0..self.turns() {
            h = Hex::new(-h.r, h.q + h.r);
        }
        h
    }

    /// The transform that undoes this one. Mirrors undo themselves; a turn is undone by the
    /// opposite turn.
    pub fn inverse(self) -> Transform {
        if self.mirrors() {
            self
        } else {
            Transform((6 - self.0) % 6)
        }
    }
}

/// A transform followed by a translation: where a position is looked at from when its
/// canonical key is taken. `map` takes a cell of the position into the frame, `unmap` back.
///
/// ```
/// use rookery::hive::{Frame, Hex, Transform};
/// let frame = Frame { transform: Transform::new(7), offset: Hex::new(2, -3) };
/// let h = Hex::new(-4, 1);
/// assert_eq!(frame.unmap(frame.map(h)), h);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// Applied first.
    pub transform: Transform,
    /// Subtracted after the transform.
    pub offset: Hex,
}

impl Frame {
    /// The frame that changes nothing.
    pub const IDENTITY: Frame = Frame {
        transform: Transform::IDENTITY,
        offset: Hex::ORIGIN,
    };

    /// A cell of the position, seen in the frame.
    pub fn map(self, h: Hex) -> Hex {
        self.transform.apply(h) - self.offset
    }

    /// A cell of the frame, back in the position.
    pub fn unmap(self, h: Hex) -> Hex {
        self.transform.inverse().apply(h + self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_distinct_isometries() {
        let probe = [Hex::new(1, 0), Hex::new(2, -1)];
        let mut images: Vec<_> = Transform::all()
            .map(|t| probe.map(|h| t.apply(h)))
            .collect();
        images.sort_by_key(|[a, b]| (*a, *b));
        images.dedup();
        assert_eq!(images.len(), 12);
        for t in Transform::all() {
            for d in Direction::ALL {
                let h = Hex::new(3, -5);
                assert_eq!(t.apply(h).distance(t.apply(h.neighbour(d))), 1);
            }
        }
    }
}

//! Colours, bugs, pieces, and the piece sets of the games played.

use std::fmt;

/// A player's colour. White moves first (red, in the Software Challenge game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Colour {
    /// Both colours, white first.
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `w` or `b`, as in UHP piece names.
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "White",
            Colour::Black => "Black",
        })
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bug {
    /// The queen bee (the Software Challenge's bee).
    Queen = 0,
    /// Spider.
    Spider = 1,
    /// Beetle: may climb onto other pieces.
    Beetle = 2,
    /// Grasshopper.
    Grasshopper = 3,
    /// Soldier ant.
    Ant = 4,
    /// Mosquito (expansion): may climb when it copies a beetle.
    Mosquito = 5,
    /// Ladybug (expansion).
    Ladybug = 6,
    /// Pillbug (expansion).
    Pillbug = 7,
}

impl Bug {
    /// Every bug, in the order of their discriminants.
    pub const ALL: [Bug; 8] = [
        Bug::Queen,
        Bug::Spider,
        Bug::Beetle,
        Bug::Grasshopper,
        Bug::Ant,
        Bug::Mosquito,
        Bug::Ladybug,
        Bug::Pillbug,
    ];

    /// The UHP letter.
    pub fn letter(self) -> char {
        b"QSBGAMLP"[self as usize] as char
    }

    /// The bug of a UHP letter.
    pub fn from_letter(c: char) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.letter() == c)
    }

    /// Whether the bug can end a move on top of other pieces (beetle, and the mosquito when
    /// it copies one). Only these ever stand above the ground.
    pub fn climbs(self) -> bool {
        matches!(self, Bug::Beetle | Bug::Mosquito)
    }

    /// Whether UHP names carry an instance number (`wS1`); the queen and the expansion bugs,
    /// one of each per side, do not (`wQ`, `wM`).
    pub fn numbered(self) -> bool {
        matches!(
            self,
            Bug::Spider | Bug::Beetle | Bug::Grasshopper | Bug::Ant
        )
    }
}

/// One physical piece: colour, bug and instance number (1-based). Keys and the compact key
/// never see the number: identical pieces are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Owner.
    pub colour: Colour,
    /// Kind.
    pub bug: Bug,
    /// Instance number, from 1.
    pub number: u8,
}

impl Piece {
    /// Piece `number` (from 1) of a colour and bug.
    pub const fn new(colour: Colour, bug: Bug, number: u8) -> Piece {
        Piece {
            colour,
            bug,
            number,
        }
    }
}

impl fmt::Display for Piece {
    /// The UHP name: `wQ`, `bS2`, `wM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.bug.letter())?;
        if self.bug.numbered() {
            write!(f, "{}", self.number)?;
        }
        Ok(())
    }
}

/// The expansion pieces of a UHP game (one of each per side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansions {
    /// `M`.
    pub mosquito: bool,
    /// `L`.
    pub ladybug: bool,
    /// `P`.
    pub pillbug: bool,
}

impl Expansions {
    /// All three expansions (`Base+MLP`).
    pub const ALL: Expansions = Expansions {
        mosquito: true,
        ladybug: true,
        pillbug: true,
    };
}

/// The pieces each side starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceSet {
    /// A UHP game: the base set (queen, 2 spiders, 2 beetles, 3 grasshoppers, 3 ants)
    /// plus the expansions chosen.
    Uhp(Expansions),
    /// The Software Challenge 2020 game: bee, 3 spiders, 2 beetles, 2 grasshoppers, 3 ants.
    Sc2020,
}

impl PieceSet {
    /// How many of `bug` each side has.
    pub fn count(self, bug: Bug) -> u8 {
        match (self, bug) {
            (_, Bug::Queen) => 1,
            (PieceSet::Uhp(_), Bug::Spider | Bug::Beetle) => 2,
            (PieceSet::Uhp(_), Bug::Grasshopper | Bug::Ant) => 3,
            (PieceSet::Uhp(e), Bug::Mosquito) => e.mosquito.into(),
            (PieceSet::Uhp(e), Bug::Ladybug) => e.ladybug.into(),
            (PieceSet::Uhp(e), Bug::Pillbug) => e.pillbug.into(),
            (PieceSet::Sc2020, Bug::Spider | Bug::Ant) => 3,
            (PieceSet::Sc2020, Bug::Beetle | Bug::Grasshopper) => 2,
            (PieceSet::Sc2020, _) => 0,
        }
    }

    /// Whether `piece` belongs to the set.
    pub fn contains(self, piece: Piece) -> bool {
        (1..=self.count(piece.bug)).contains(&piece.number)
    }

    /// Every piece of the set: white's first, by bug, then by number.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        Colour::ALL.into_iter().flat_map(move |colour| {
            Bug::ALL
                .into_iter()
                .flat_map(move |bug| (1..=self.count(bug)).map(move |n| Piece::new(colour, bug, n)))
        })
    }

    /// Pieces per side.
    pub fn per_side(self) -> usize {
        Bug::ALL.iter().map(|&b| usize::from(self.count(b))).sum()
    }
}

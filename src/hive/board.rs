//! The Hive position: stacks of pieces on a field, with a main and a check key kept up to
//! date move by move (and, on the bounded board, one pair per symmetry of the field).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use arrayvec::ArrayVec;

use crate::hashing::{DualKey, DualKeyTable, SymmetricKey, SymmetricKeyTable, SymmetryGroup};

use super::field::{Field, SC2020_CELLS, sc2020_cell, sc2020_index};
use super::hex::{Frame, Hex, Transform};
use super::piece::{Bug, Colour, Expansions, Piece, PieceSet};

/// The highest a stack gets: one piece on the ground and, above it, the six pieces that
/// climb when every expansion is in (two beetles and a mosquito per side).
pub const MAX_HEIGHT: usize = 7;

/// Seed of the open-plane key tables ("hive" in ASCII).
const SEED_OPEN: u64 = 0x6869_7665;
/// Seed of the Software Challenge board's key tables ("sc2020" in ASCII).
const SEED_SC2020: u64 = 0x7363_3230_3230;

/// Key kinds of pieces on the ground: colour x bug.
const GROUND_KINDS: usize = 2 * 8;
/// All key kinds: the ground ones, then colour x climber (beetle, mosquito) x height 1..=6.
const KINDS: usize = GROUND_KINDS + 2 * 2 * (MAX_HEIGHT - 1);

/// The key kind of a piece: what the keys know of it besides its cell. Instance numbers are
/// not part of it, so identical pieces are interchangeable.
#[inline]
fn kind(colour: Colour, bug: Bug, height: usize) -> usize {
    if height == 0 {
        colour as usize * 8 + bug as usize
    } else {
        debug_assert!(bug.climbs() && height < MAX_HEIGHT);
        let climber = usize::from(bug == Bug::Mosquito);
        GROUND_KINDS + ((colour as usize * 2 + climber) * (MAX_HEIGHT - 1) + height - 1)
    }
}

/// Fields whose tables [`HiveKeys::for_field`] keeps at most before forgetting the bounded ones.
const MAX_CACHED_FIELDS: usize = 16;

/// Key tables for one field, shared by every position on it.
///
/// Features: `kind * cells + cell` for a piece, then one for "black to move", then (bounded
/// board) one per obstructed cell.
#[derive(Debug)]
pub struct HiveKeys {
    field: Field,
    dual: DualKeyTable,
    symmetric: Option<SymmetricKeys>,
}

/// The bounded board's keys under each symmetry of the field.
#[derive(Debug)]
struct SymmetricKeys {
    transforms: Vec<Transform>,
    main: SymmetricKeyTable,
    check: SymmetricKeyTable,
}

impl HiveKeys {
    /// The tables of `field`, built once per field and shared.
    pub fn for_field(field: Field) -> Arc<HiveKeys> {
        static CACHE: OnceLock<Mutex<HashMap<Field, Arc<HiveKeys>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        // Each set of obstructed cells is a field of its own: a long run of Software
        // Challenge games would otherwise keep every set's tables. Games hold their tables
        // through their own `Arc`, so forgetting them here only costs a rebuild.
        if !cache.contains_key(&field) && cache.len() >= MAX_CACHED_FIELDS {
            cache.retain(|cached, _| !cached.is_bounded());
        }
        Arc::clone(
            cache
                .entry(field)
                .or_insert_with(|| Arc::new(HiveKeys::build(field))),
        )
    }

    fn build(field: Field) -> HiveKeys {
        let cells = field.key_cells();
        let features = KINDS * cells + 1 + if field.is_bounded() { cells } else { 0 };
        let seed = if field.is_bounded() {
            SEED_SC2020
        } else {
            SEED_OPEN
        };
        let dual = DualKeyTable::seeded(features, seed);
        let symmetric = field.is_bounded().then(|| {
            let transforms = field.symmetries();
            let image = |t: Transform, c: usize| {
                sc2020_index(t.apply(sc2020_cell(c))).expect("symmetries keep the hexagon")
            };
            let images = transforms
                .iter()
                .map(|&t| {
                    let mut perm: Vec<usize> = (0..KINDS * cells)
                        .map(|f| f / cells * cells + image(t, f % cells))
                        .collect();
                    perm.push(KINDS * cells);
                    perm.extend((0..cells).map(|c| KINDS * cells + 1 + image(t, c)));
                    perm
                })
                .collect();
            let group = SymmetryGroup::new(images)
                .expect("field symmetries are permutations with the identity first");
            SymmetricKeys {
                transforms,
                main: SymmetricKeyTable::new(dual.main(), group.clone()),
                check: SymmetricKeyTable::new(dual.check(), group),
            }
        });
        HiveKeys {
            field,
            dual,
            symmetric,
        }
    }

    /// The field the tables are for.
    pub fn field(&self) -> Field {
        self.field
    }

    /// The main and check key tables.
    pub fn dual(&self) -> &DualKeyTable {
        &self.dual
    }

    /// Number of features (the length of each key table).
    pub fn features(&self) -> usize {
        self.dual.main().len()
    }

    #[inline]
    fn piece_feature(&self, piece: Piece, height: usize, cell: usize) -> usize {
        kind(piece.colour, piece.bug, height) * self.field.key_cells() + cell
    }

    fn side_feature(&self) -> usize {
        KINDS * self.field.key_cells()
    }

    fn obstruction_feature(&self, cell: usize) -> usize {
        KINDS * self.field.key_cells() + 1 + cell
    }
}

/// A move: a piece placed or moved onto a cell (on top of whatever is there), or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The side to move passes.
    Pass,
    /// `piece` goes to the top of cell `to`: a placement if it is in reserve, else a move.
    Play {
        /// The piece placed or moved.
        piece: Piece,
        /// Its destination.
        to: Hex,
    },
}

impl Move {
    /// The move as seen through a frame (as played in the canonical position).
    pub fn into_frame(self, frame: Frame) -> Move {
        match self {
            Move::Pass => Move::Pass,
            Move::Play { piece, to } => Move::Play {
                piece,
                to: frame.map(to),
            },
        }
    }

    /// The inverse of [`Move::into_frame`]: a move of the framed position, back in this one.
    pub fn out_of_frame(self, frame: Frame) -> Move {
        match self {
            Move::Pass => Move::Pass,
            Move::Play { piece, to } => Move::Play {
                piece,
                to: frame.unmap(to),
            },
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play { piece, to } => write!(f, "{piece} to {to}"),
        }
    }
}

/// Why a move or a set-up step cannot be made. These are physical impossibilities, not the
/// movement rules of the bugs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The piece is not in this game's set (a fourth ant, a mosquito without the expansion).
    NotInSet(Piece),
    /// A piece placed by the side not to move.
    NotYours {
        /// The piece.
        piece: Piece,
        /// The side to move.
        to_move: Colour,
    },
    /// The destination is off the bounded board.
    OffField(Hex),
    /// The destination is an obstructed cell.
    Obstructed(Hex),
    /// A placement onto a piece: new pieces go on empty cells.
    PlacedOnHive {
        /// The piece.
        piece: Piece,
        /// The occupied destination.
        cell: Hex,
    },
    /// A piece that cannot climb moved onto another.
    CannotClimb {
        /// The piece.
        piece: Piece,
        /// The occupied destination.
        cell: Hex,
    },
    /// The piece has another on top of it.
    Covered(Piece),
    /// The destination is where the piece already is.
    Stays(Piece),
    /// The stack would be higher than any the piece set allows.
    TooHigh(Hex),
    /// Set-up only: the piece is already on the board.
    AlreadyPlaced(Piece),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::NotInSet(p) => write!(f, "{p} is not in this game's piece set"),
            MoveError::NotYours { piece, to_move } => {
                write!(f, "{piece} cannot be placed: it is {to_move}'s turn")
            }
            MoveError::OffField(h) => write!(f, "{h} is off the board"),
            MoveError::Obstructed(h) => write!(f, "{h} is obstructed"),
            MoveError::PlacedOnHive { piece, cell } => write!(
                f,
                "{piece} cannot be placed on {cell}: it is occupied (pieces enter on empty cells)"
            ),
            MoveError::CannotClimb { piece, cell } => write!(
                f,
                "{piece} cannot move onto {cell}: it is occupied and only beetles and mosquitoes climb"
            ),
            MoveError::Covered(p) => write!(f, "{p} cannot move: another piece is on top of it"),
            MoveError::Stays(p) => write!(f, "{p} is already there"),
            MoveError::TooHigh(h) => write!(f, "the stack on {h} would be too high"),
            MoveError::AlreadyPlaced(p) => write!(f, "{p} is already on the board"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The pieces on one cell, bottom first.
#[derive(Clone, Debug)]
struct Stack {
    cell: Hex,
    pieces: ArrayVec<Piece, MAX_HEIGHT>,
}

/// A move as played, with what undoing it needs.
#[derive(Clone, Copy, Debug)]
struct Played {
    mv: Move,
    from: Option<Hex>,
}

/// The position without instance numbers: what two positions must share to be equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The side to move.
    pub to_move: Colour,
    /// Obstructed cells, in reading order.
    pub obstructed: Vec<Hex>,
    /// Occupied cells in reading order, each with its pieces bottom first.
    pub stacks: Vec<(Hex, Vec<(Colour, Bug)>)>,
}

impl Layout {
    /// The same layout moved so that its first occupied cell is the origin (how positions on
    /// the open plane compare, Hive having no fixed board).
    pub fn normalized(&self) -> Layout {
        let anchor = self.stacks.first().map_or(Hex::ORIGIN, |s| s.0);
        Layout {
            to_move: self.to_move,
            obstructed: self.obstructed.iter().map(|&h| h - anchor).collect(),
            stacks: self
                .stacks
                .iter()
                .map(|(h, s)| (*h - anchor, s.clone()))
                .collect(),
        }
    }
}

/// A Hive position with its keys kept up to date move by move.
///
/// ```
/// use rookery::hive::{Bug, Colour, Expansions, Hex, Hive, Move, Piece};
/// let mut hive = Hive::uhp(Expansions::default());
/// let spider = Piece::new(Colour::White, Bug::Spider, 1);
/// hive.play(Move::Play { piece: spider, to: Hex::ORIGIN }).unwrap();
/// assert_eq!(hive.key(), hive.key_from_scratch());
/// assert_eq!(hive.to_move(), Colour::Black);
/// hive.undo();
/// assert_eq!(hive.key(), Hive::uhp(Expansions::default()).key());
/// ```
#[derive(Clone, Debug)]
pub struct Hive {
    keys: Arc<HiveKeys>,
    set: PieceSet,
    stacks: Vec<Stack>,
    to_move: Colour,
    history: Vec<Played>,
    key: DualKey,
    symmetric: Option<(SymmetricKey, SymmetricKey)>,
}

impl Hive {
    /// The empty field, white to move.
    pub fn new(set: PieceSet, field: Field) -> Hive {
        let keys = HiveKeys::for_field(field);
        let symmetric = keys
            .symmetric
            .as_ref()
            .map(|s| (s.main.empty(), s.check.empty()));
        let mut hive = Hive {
            keys,
            set,
            stacks: Vec::new(),
            to_move: Colour::White,
            history: Vec::new(),
            key: DualKey::default(),
            symmetric,
        };
        for h in field.obstructed() {
            let cell = sc2020_index(h).expect("obstructed cells are on the board");
            hive.toggle(hive.keys.obstruction_feature(cell));
        }
        hive
    }

    /// A UHP game on the open plane.
    pub fn uhp(expansions: Expansions) -> Hive {
        Hive::new(PieceSet::Uhp(expansions), Field::Open)
    }

    /// A Software Challenge 2020 game with these cells obstructed; `None` if one is off the
    /// board.
    pub fn sc2020(obstructed: &[Hex]) -> Option<Hive> {
        Some(Hive::new(PieceSet::Sc2020, Field::sc2020(obstructed)?))
    }

    /// The pieces in play.
    pub fn piece_set(&self) -> PieceSet {
        self.set
    }

    /// The field.
    pub fn field(&self) -> Field {
        self.keys.field
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Moves played since the position was set up, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// Whether no piece is on the board.
    pub fn is_empty(&self) -> bool {
        self.stacks.is_empty()
    }

    /// The pieces on a cell, bottom first.
    pub fn stack(&self, h: Hex) -> &[Piece] {
        self.stack_index(h).map_or(&[], |i| &self.stacks[i].pieces)
    }

    /// Occupied cells with their pieces, bottom first, in no particular order.
    pub fn stacks(&self) -> impl Iterator<Item = (Hex, &[Piece])> {
        self.stacks.iter().map(|s| (s.cell, &s.pieces[..]))
    }

    /// Where a piece stands: its cell and height (0 on the ground); `None` in reserve.
    pub fn locate(&self, piece: Piece) -> Option<(Hex, usize)> {
        self.stacks.iter().find_map(|s| {
            s.pieces
                .iter()
                .position(|&p| p == piece)
                .map(|height| (s.cell, height))
        })
    }

    /// The pieces of a colour not yet on the board.
    pub fn reserve(&self, colour: Colour) -> impl Iterator<Item = Piece> + '_ {
        self.set
            .pieces()
            .filter(move |p| p.colour == colour && self.locate(*p).is_none())
    }

    fn stack_index(&self, h: Hex) -> Option<usize> {
        self.stacks.iter().position(|s| s.cell == h)
    }

    #[inline]
    fn toggle(&mut self, feature: usize) {
        self.keys.dual.toggle(&mut self.key, feature);
        if let (Some((main, check)), Some(tables)) = (&mut self.symmetric, &self.keys.symmetric) {
            tables.main.toggle(main, feature);
            tables.check.toggle(check, feature);
        }
    }

    fn toggle_piece(&mut self, piece: Piece, height: usize, cell: Hex) {
        let cell = self
            .field()
            .key_cell(cell)
            .expect("pieces stand on the field");
        self.toggle(self.keys.piece_feature(piece, height, cell));
    }

    /// Puts a piece on top of a cell.
    fn push(&mut self, piece: Piece, to: Hex) {
        let i = match self.stack_index(to) {
            Some(i) => i,
            None => {
                self.stacks.push(Stack {
                    cell: to,
                    pieces: ArrayVec::new(),
                });
                self.stacks.len() - 1
            }
        };
        let height = self.stacks[i].pieces.len();
        self.stacks[i].pieces.push(piece);
        self.toggle_piece(piece, height, to);
    }

    /// Takes the top piece off a cell.
    fn pop(&mut self, from: Hex) -> Piece {
        let i = self.stack_index(from).expect("a piece stands there");
        let piece = self.stacks[i].pieces.pop().expect("stacks are never empty");
        let height = self.stacks[i].pieces.len();
        if height == 0 {
            self.stacks.swap_remove(i);
        }
        self.toggle_piece(piece, height, from);
        piece
    }

    fn check_destination(&self, piece: Piece, to: Hex) -> Result<usize, MoveError> {
        if !self.field().contains(to) {
            return Err(MoveError::OffField(to));
        }
        if self.field().is_obstructed(to) {
            return Err(MoveError::Obstructed(to));
        }
        let height = self.stack(to).len();
        if height >= MAX_HEIGHT {
            return Err(MoveError::TooHigh(to));
        }
        if height > 0 && !piece.bug.climbs() {
            return Err(MoveError::CannotClimb { piece, cell: to });
        }
        Ok(height)
    }

    /// Checks that a move is physically possible here (not that the bug may make it): the
    /// piece exists; a placement is the mover's own and goes to an empty cell; a moving
    /// piece is on top of its stack, goes somewhere else, and climbs only if it is a beetle
    /// or a mosquito; the destination is on the field and not obstructed. Returns where the
    /// piece comes from (`None` for a placement).
    pub fn check(&self, mv: Move) -> Result<Option<Hex>, MoveError> {
        let Move::Play { piece, to } = mv else {
            return Ok(None);
        };
        if !self.set.contains(piece) {
            return Err(MoveError::NotInSet(piece));
        }
        match self.locate(piece) {
            None => {
                if piece.colour != self.to_move {
                    return Err(MoveError::NotYours {
                        piece,
                        to_move: self.to_move,
                    });
                }
                if !self.stack(to).is_empty() {
                    return Err(MoveError::PlacedOnHive { piece, cell: to });
                }
                self.check_destination(piece, to)?;
                Ok(None)
            }
            Some((from, height)) => {
                if height + 1 != self.stack(from).len() {
                    return Err(MoveError::Covered(piece));
                }
                if from == to {
                    return Err(MoveError::Stays(piece));
                }
                self.check_destination(piece, to)?;
                Ok(Some(from))
            }
        }
    }

    /// Plays a move (see [`Hive::check`] for what is refused) and passes the turn.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let from = self.check(mv)?;
        if let Move::Play { piece, to } = mv {
            if let Some(from) = from {
                self.pop(from);
            }
            self.push(piece, to);
        }
        self.toggle(self.keys.side_feature());
        self.to_move = self.to_move.other();
        self.history.push(Played { mv, from });
        Ok(())
    }

    /// Takes back the last move; false when no move was played.
    pub fn undo(&mut self) -> bool {
        let Some(Played { mv, from }) = self.history.pop() else {
            return false;
        };
        self.to_move = self.to_move.other();
        self.toggle(self.keys.side_feature());
        if let Move::Play { to, .. } = mv {
            let piece = self.pop(to);
            if let Some(from) = from {
                self.push(piece, from);
            }
        }
        true
    }

    /// Set-up: puts a piece from the reserve on top of a cell, whatever its colour, without
    /// passing the turn (the move history is not changed).
    pub fn put(&mut self, piece: Piece, to: Hex) -> Result<(), MoveError> {
        if !self.set.contains(piece) {
            return Err(MoveError::NotInSet(piece));
        }
        if self.locate(piece).is_some() {
            return Err(MoveError::AlreadyPlaced(piece));
        }
        self.check_destination(piece, to)?;
        self.push(piece, to);
        Ok(())
    }

    /// Set-up: sets the side to move.
    pub fn set_to_move(&mut self, colour: Colour) {
        if colour != self.to_move {
            self.toggle(self.keys.side_feature());
            self.to_move = colour;
        }
    }

    /// The main and check keys.
    pub fn key(&self) -> DualKey {
        self.key
    }

    /// Both keys computed from scratch (to check the incremental ones).
    pub fn key_from_scratch(&self) -> DualKey {
        self.key_in(Frame::IDENTITY)
            .expect("the position is on its own field")
    }

    /// The keys, from scratch, of this position seen through a frame (pieces and obstructed
    /// cells moved by it, same side to move); `None` if a cell leaves a bounded field.
    pub fn key_in(&self, frame: Frame) -> Option<DualKey> {
        let keys = &self.keys;
        let field = keys.field;
        let mut key = DualKey::default();
        for stack in &self.stacks {
            let cell = field.key_cell(frame.map(stack.cell))?;
            for (height, &piece) in stack.pieces.iter().enumerate() {
                keys.dual
                    .toggle(&mut key, keys.piece_feature(piece, height, cell));
            }
        }
        for h in field.obstructed() {
            let cell = field.key_cell(frame.map(h))?;
            keys.dual.toggle(&mut key, keys.obstruction_feature(cell));
        }
        if self.to_move == Colour::Black {
            keys.dual.toggle(&mut key, keys.side_feature());
        }
        Some(key)
    }

    /// The frames the canonical key is taken over: the field's symmetries, each followed on
    /// the open plane by the translation that brings the first occupied cell (in reading
    /// order) to the origin.
    pub fn frames(&self) -> impl Iterator<Item = Frame> + '_ {
        let transforms = match &self.keys.symmetric {
            Some(s) => s.transforms.clone(),
            None => Transform::all().collect(),
        };
        let bounded = self.field().is_bounded();
        transforms.into_iter().map(move |transform| {
            let offset = if bounded {
                Hex::ORIGIN
            } else {
                self.stacks
                    .iter()
                    .map(|s| transform.apply(s.cell))
                    .min()
                    .unwrap_or(Hex::ORIGIN)
            };
            Frame { transform, offset }
        })
    }

    /// The canonical keys (the least main key over [`Hive::frames`], with the check key in
    /// the same frame) and that frame: the position seen through it,
    /// [`Hive::transformed`], has these keys, and moves map with [`Move::into_frame`] and
    /// back with [`Move::out_of_frame`]. On the bounded board the keys of every symmetry are
    /// kept move by move; on the open plane they are computed here (translation makes the
    /// frame depend on the whole position). A minimum is biased towards small values: give
    /// a table [`DualKey::canonical_table_key`], not `table_key`.
    pub fn canonical(&self) -> (DualKey, Frame) {
        match (&self.symmetric, &self.keys.symmetric) {
            (Some((main, check)), Some(tables)) => {
                let (main, g) = main.canonical();
                let frame = Frame {
                    transform: tables.transforms[g],
                    offset: Hex::ORIGIN,
                };
                (
                    DualKey {
                        main,
                        check: check.under(g),
                    },
                    frame,
                )
            }
            _ => self.canonical_from_scratch(),
        }
    }

    /// The canonical keys and frame computed from scratch, frame by frame.
    pub fn canonical_from_scratch(&self) -> (DualKey, Frame) {
        let mut best: Option<(DualKey, Frame)> = None;
        for frame in self.frames() {
            let key = self.key_in(frame).expect("symmetries keep the field");
            if best.is_none_or(|(b, _)| key.main < b.main) {
                best = Some((key, frame));
            }
        }
        best.expect("the identity is always a frame")
    }

    /// The position seen through a frame (pieces and obstructed cells moved, same side to
    /// move, no move history); `None` if a cell leaves a bounded field.
    pub fn transformed(&self, frame: Frame) -> Option<Hive> {
        let mut out = Hive::new(self.set, self.field().mapped(frame)?);
        for stack in &self.stacks {
            let to = frame.map(stack.cell);
            for &piece in &stack.pieces {
                out.put(piece, to).ok()?;
            }
        }
        out.set_to_move(self.to_move);
        Some(out)
    }

    /// The position without instance numbers.
    pub fn layout(&self) -> Layout {
        let mut stacks: Vec<_> = self
            .stacks
            .iter()
            .map(|s| (s.cell, s.pieces.iter().map(|p| (p.colour, p.bug)).collect()))
            .collect();
        stacks.sort();
        Layout {
            to_move: self.to_move,
            obstructed: self.field().obstructed(),
            stacks,
        }
    }

    /// Whether the occupied cells form one group (the one-hive rule); true when empty.
    pub fn is_connected(&self) -> bool {
        let occupied = CellSet::of(self.stacks.iter().map(|s| s.cell));
        self.connected_without(&occupied, None)
    }

    /// Connectivity of the occupied cells, `without` one of them.
    fn connected_without(&self, occupied: &CellSet, without: Option<Hex>) -> bool {
        let mut cells = self
            .stacks
            .iter()
            .map(|s| s.cell)
            .filter(|&c| Some(c) != without);
        let Some(first) = cells.next() else {
            return true;
        };
        let total = 1 + cells.count();
        let mut seen = occupied.empty_like();
        seen.insert(first);
        let mut queue: ArrayVec<Hex, 64> = ArrayVec::new();
        queue.push(first);
        let mut next = 0;
        while next < queue.len() {
            let at = queue[next];
            next += 1;
            for n in at.neighbours() {
                if Some(n) != without && occupied.contains(n) && seen.insert(n) {
                    queue.push(n);
                }
            }
        }
        queue.len() == total
    }

    /// Physically sensible moves for the side to move, for tests, benchmarks and random
    /// positions (not the bugs' movement rules): the lowest-numbered reserve piece of each
    /// bug onto any empty cell next to the hive (the origin, or any free cell of a bounded
    /// board, when it is empty); each own piece on top of a stack, if lifting it keeps the
    /// rest together, onto any empty cell next to the rest, and a climber also onto any
    /// other stack. A pass when there is nothing else.
    pub fn sensible_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let field = self.field();
        let free = |h: Hex| field.contains(h) && !field.is_obstructed(h);
        let occupied = CellSet::of(self.stacks.iter().map(|s| s.cell));
        // Empty cells next to the hive, each with its number of occupied neighbours.
        let mut entry: Vec<(Hex, u8)> = Vec::new();
        if self.stacks.is_empty() {
            match field {
                Field::Open => entry.push((Hex::ORIGIN, 0)),
                Field::Sc2020 { .. } => entry.extend(
                    (0..SC2020_CELLS)
                        .map(sc2020_cell)
                        .filter(|&h| free(h))
                        .map(|h| (h, 0)),
                ),
            }
        } else {
            let mut listed = occupied.empty_like();
            for stack in &self.stacks {
                for n in stack.cell.neighbours() {
                    if !occupied.contains(n) && free(n) && listed.insert(n) {
                        let count = n
                            .neighbours()
                            .iter()
                            .filter(|&&m| occupied.contains(m))
                            .count();
                        entry.push((n, count as u8));
                    }
                }
            }
        }
        let mut on_board = [[0u8; 8]; 2];
        for piece in self.stacks.iter().flat_map(|s| &s.pieces) {
            on_board[piece.colour as usize][piece.bug as usize] |= 1 << piece.number;
        }
        for bug in Bug::ALL {
            let placed = on_board[self.to_move as usize][bug as usize];
            if let Some(number) = (1..=self.set.count(bug)).find(|n| placed >> n & 1 == 0) {
                let piece = Piece::new(self.to_move, bug, number);
                out.extend(entry.iter().map(|&(to, _)| Move::Play { piece, to }));
            }
        }
        for stack in &self.stacks {
            let piece = *stack.pieces.last().expect("stacks are never empty");
            if piece.colour != self.to_move {
                continue;
            }
            let from = stack.cell;
            if stack.pieces.len() == 1 {
                if !self.connected_without(&occupied, Some(from)) {
                    continue;
                }
                // Cells whose only occupied neighbour is the lifted piece are off the hive.
                let touches = |h: Hex| u8::from(h.distance(from) == 1);
                out.extend(
                    entry
                        .iter()
                        .filter(|&&(h, count)| count > touches(h))
                        .map(|&(to, _)| Move::Play { piece, to }),
                );
            } else {
                out.extend(entry.iter().map(|&(to, _)| Move::Play { piece, to }));
            }
            if piece.bug.climbs() {
                out.extend(
                    self.stacks
                        .iter()
                        .filter(|s| s.cell != from && s.pieces.len() < MAX_HEIGHT)
                        .map(|s| Move::Play { piece, to: s.cell }),
                );
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }
}

/// A set of cells around the pieces: one bit per cell of their bounding box grown by one
/// (so it holds their neighbours too), and a list for any cell outside it or for pieces
/// spread too far for a bitmap.
struct CellSet {
    min: Hex,
    width: i32,
    height: i32,
    bits: Vec<u64>,
    others: Vec<Hex>,
}

impl CellSet {
    /// Largest bounding box kept as a bitmap; scattered set-ups use the list.
    const MAX_AREA: i64 = 1 << 16;

    /// The set holding `cells`.
    fn of(cells: impl Iterator<Item = Hex> + Clone) -> CellSet {
        let (mut min, mut max) = (Hex::new(i32::MAX, i32::MAX), Hex::new(i32::MIN, i32::MIN));
        for c in cells.clone() {
            min = Hex::new(min.q.min(c.q), min.r.min(c.r));
            max = Hex::new(max.q.max(c.q), max.r.max(c.r));
        }
        let (width, height) = if min.q > max.q {
            (0, 0)
        } else {
            (
                i64::from(max.q) - i64::from(min.q) + 3,
                i64::from(max.r) - i64::from(min.r) + 3,
            )
        };
        let bitmap = width * height <= Self::MAX_AREA;
        let mut set = CellSet {
            min: Hex::new(min.q.saturating_sub(1), min.r.saturating_sub(1)),
            width: if bitmap { width as i32 } else { 0 },
            height: if bitmap { height as i32 } else { 0 },
            bits: Vec::new(),
            others: Vec::new(),
        };
        set.bits = vec![0; (set.width * set.height) as usize / 64 + 1];
        for c in cells {
            set.insert(c);
        }
        set
    }

    /// An empty set over the same box.
    fn empty_like(&self) -> CellSet {
        CellSet {
            min: self.min,
            width: self.width,
            height: self.height,
            bits: vec![0; self.bits.len()],
            others: Vec::new(),
        }
    }

    fn bit(&self, h: Hex) -> Option<usize> {
        let (q, r) = (
            i64::from(h.q) - i64::from(self.min.q),
            i64::from(h.r) - i64::from(self.min.r),
        );
        ((0..i64::from(self.width)).contains(&q) && (0..i64::from(self.height)).contains(&r))
            .then(|| (r * i64::from(self.width) + q) as usize)
    }

    fn contains(&self, h: Hex) -> bool {
        match self.bit(h) {
            Some(i) => self.bits[i / 64] >> (i % 64) & 1 == 1,
            None => self.others.contains(&h),
        }
    }

    /// Adds a cell; false if it was there.
    fn insert(&mut self, h: Hex) -> bool {
        match self.bit(h) {
            Some(i) => {
                let was = self.bits[i / 64] >> (i % 64) & 1 == 1;
                self.bits[i / 64] |= 1 << (i % 64);
                !was
            }
            None if self.others.contains(&h) => false,
            None => {
                self.others.push(h);
                true
            }
        }
    }
}

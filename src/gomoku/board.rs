//! The gomoku board with incremental keys.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::hashing::{DualKey, DualKeyTable, Key, SymmetricKey, SymmetricKeyTable, SymmetryGroup};

/// Seed of the gomoku key tables ("gomoku" in ASCII).
const SEED: u64 = 0x676f_6d6f_6b75;

/// Smallest and largest board side.
pub const MIN_SIDE: usize = 5;
/// Largest board side (Gomocup boards go up to 32).
pub const MAX_SIDE: usize = 32;

/// A stone colour; black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// Moves first.
    Black = 0,
    /// Moves second.
    White = 1,
}

impl Stone {
    /// The other colour.
    pub fn other(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// Board width and height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: usize,
    height: usize,
}

impl Geometry {
    /// A `width` x `height` board, each side from 5 to 32.
    pub fn new(width: usize, height: usize) -> Option<Geometry> {
        let ok = |n| (MIN_SIDE..=MAX_SIDE).contains(&n);
        (ok(width) && ok(height)).then_some(Geometry { width, height })
    }

    /// Board width.
    pub fn width(self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The cell index of `(x, y)`, if on the board.
    pub fn cell(self, x: usize, y: usize) -> Option<usize> {
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }

    /// The coordinates of a cell.
    pub fn coords(self, cell: usize) -> (usize, usize) {
        (cell % self.width, cell / self.width)
    }

    /// Number of key features: two colours per cell, and the side to move.
    pub fn features(self) -> usize {
        2 * self.cells() + 1
    }

    /// The board's symmetries as cell maps: the 8 of the square (rotations and reflections),
    /// or the 4 a rectangle keeps (identity, half turn, two mirrors). Element 0 is the identity.
    pub fn cell_symmetries(self) -> Vec<Vec<usize>> {
        let (w, h) = (self.width, self.height);
        let count = if w == h { 8 } else { 4 };
        (0..count)
            .map(|t| {
                (0..self.cells())
                    .map(|cell| {
                        let (x, y) = self.coords(cell);
                        let (tx, ty) = match t {
                            0 => (x, y),
                            1 => (w - 1 - x, h - 1 - y),
                            2 => (w - 1 - x, y),
                            3 => (x, h - 1 - y),
                            // Square boards only: the diagonal mirrors and quarter turns.
                            4 => (y, x),
                            5 => (w - 1 - y, w - 1 - x),
                            6 => (w - 1 - y, x),
                            _ => (y, w - 1 - x),
                        };
                        ty * w + tx
                    })
                    .collect()
            })
            .collect()
    }

    /// The symmetry group acting on key features.
    fn feature_group(self) -> SymmetryGroup {
        let images = self
            .cell_symmetries()
            .into_iter()
            .map(|cells| {
                let mut features: Vec<usize> =
                    cells.iter().flat_map(|&c| [2 * c, 2 * c + 1]).collect();
                features.push(2 * self.cells()); // the side to move stays put
                features
            })
            .collect();
        SymmetryGroup::new(images)
            .expect("board symmetries are permutations with the identity first")
    }
}

/// The key tables of one board geometry.
#[derive(Debug)]
pub struct GomokuKeys {
    geometry: Geometry,
    dual: DualKeyTable,
    main_symmetric: SymmetricKeyTable,
    check_symmetric: SymmetricKeyTable,
}

impl GomokuKeys {
    /// The tables for `geometry`, built once per geometry and shared.
    pub fn for_geometry(geometry: Geometry) -> Arc<GomokuKeys> {
        static CACHE: OnceLock<Mutex<HashMap<Geometry, Arc<GomokuKeys>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry(geometry).or_insert_with(|| {
            let dual = DualKeyTable::seeded(geometry.features(), SEED);
            let group = geometry.feature_group();
            Arc::new(GomokuKeys {
                geometry,
                main_symmetric: SymmetricKeyTable::new(dual.main(), group.clone()),
                check_symmetric: SymmetricKeyTable::new(dual.check(), group),
                dual,
            })
        }))
    }

    /// The main and check key tables.
    pub fn dual(&self) -> &DualKeyTable {
        &self.dual
    }

    /// The symmetry group on features.
    pub fn group(&self) -> &SymmetryGroup {
        self.main_symmetric.group()
    }
}

/// A gomoku position with its keys kept up to date move by move.
#[derive(Clone, Debug)]
pub struct Gomoku {
    keys: Arc<GomokuKeys>,
    cells: Vec<Option<Stone>>,
    to_move: Stone,
    moves: Vec<usize>,
    key: DualKey,
    main_symmetric: SymmetricKey,
    check_symmetric: SymmetricKey,
}

/// A move on an occupied cell or off the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub String);

impl Gomoku {
    /// The empty board, black to move.
    pub fn new(geometry: Geometry) -> Gomoku {
        let keys = GomokuKeys::for_geometry(geometry);
        Gomoku {
            cells: vec![None; geometry.cells()],
            to_move: Stone::Black,
            moves: Vec::new(),
            key: DualKey::default(),
            main_symmetric: keys.main_symmetric.empty(),
            check_symmetric: keys.check_symmetric.empty(),
            keys,
        }
    }

    /// The board geometry.
    pub fn geometry(&self) -> Geometry {
        self.keys.geometry
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Stone {
        self.to_move
    }

    /// The stone on a cell.
    pub fn stone(&self, cell: usize) -> Option<Stone> {
        self.cells.get(cell).copied().flatten()
    }

    /// Cells played, in order.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    fn toggle(&mut self, feature: usize) {
        self.keys.dual.toggle(&mut self.key, feature);
        self.keys
            .main_symmetric
            .toggle(&mut self.main_symmetric, feature);
        self.keys
            .check_symmetric
            .toggle(&mut self.check_symmetric, feature);
    }

    fn side_feature(&self) -> usize {
        2 * self.geometry().cells()
    }

    /// Places a stone of the side to move on `cell` and passes the turn.
    pub fn place(&mut self, cell: usize) -> Result<(), IllegalMove> {
        match self.cells.get(cell) {
            None => return Err(IllegalMove(format!("cell {cell} is off the board"))),
            Some(Some(_)) => {
                let (x, y) = self.geometry().coords(cell);
                return Err(IllegalMove(format!("{x},{y} is occupied")));
            }
            Some(None) => {}
        }
        self.cells[cell] = Some(self.to_move);
        self.toggle(2 * cell + self.to_move as usize);
        self.toggle(self.side_feature());
        self.to_move = self.to_move.other();
        self.moves.push(cell);
        Ok(())
    }

    /// Takes back the last stone placed; false when the board is empty.
    pub fn take_back(&mut self) -> bool {
        let Some(cell) = self.moves.pop() else {
            return false;
        };
        // The stone says whose it was (`set_to_move` may have changed the turn since).
        let stone = self.cells[cell].expect("a placed stone stays until taken back");
        self.toggle(2 * cell + stone as usize);
        self.cells[cell] = None;
        // Its owner is to move again.
        self.set_to_move(stone);
        true
    }

    /// Sets a cell directly (for board set-up); the side to move is left alone.
    pub fn set(&mut self, cell: usize, stone: Stone) -> Result<(), IllegalMove> {
        if self.stone(cell).is_some() || cell >= self.cells.len() {
            return Err(IllegalMove(format!(
                "cell {cell} is taken or off the board"
            )));
        }
        self.cells[cell] = Some(stone);
        self.toggle(2 * cell + stone as usize);
        Ok(())
    }

    /// Sets the side to move.
    pub fn set_to_move(&mut self, stone: Stone) {
        if stone != self.to_move {
            self.toggle(self.side_feature());
            self.to_move = stone;
        }
    }

    /// The main and check keys.
    pub fn key(&self) -> DualKey {
        self.key
    }

    /// Both keys computed from scratch (for checking the incremental ones).
    pub fn key_from_scratch(&self) -> DualKey {
        let mut key = DualKey::default();
        for (cell, stone) in self.cells.iter().enumerate() {
            if let Some(stone) = stone {
                self.keys.dual.toggle(&mut key, 2 * cell + *stone as usize);
            }
        }
        if self.to_move == Stone::White {
            self.keys.dual.toggle(&mut key, self.side_feature());
        }
        key
    }

    /// The canonical keys (least main key over the symmetries, with the check key under the
    /// same transform) and the transform `g` that produced them: cell `c` of this position
    /// is cell `transform_cell(g, c)` of the canonical one.
    pub fn canonical(&self) -> (DualKey, usize) {
        let (main, g) = self.main_symmetric.canonical();
        let check = self.check_symmetric.under(g);
        (DualKey { main, check }, g)
    }

    /// The key of this position under transform `g`.
    pub fn key_under(&self, g: usize) -> Key {
        self.main_symmetric.under(g)
    }

    /// Number of symmetries the board has (8 square, 4 rectangular).
    pub fn symmetries(&self) -> usize {
        self.keys.group().len()
    }

    /// Where transform `g` takes `cell`.
    pub fn transform_cell(&self, g: usize, cell: usize) -> usize {
        self.keys.group().image(g, 2 * cell) / 2
    }

    /// The cell that transform `g` takes to `cell` (back from the canonical frame).
    pub fn untransform_cell(&self, g: usize, cell: usize) -> usize {
        self.keys.group().preimage(g, 2 * cell) / 2
    }

    /// This position with transform `g` applied to every stone (same side to move).
    pub fn transformed(&self, g: usize) -> Gomoku {
        let mut out = Gomoku::new(self.geometry());
        for (cell, stone) in self.cells.iter().enumerate() {
            if let Some(stone) = stone {
                out.set(self.transform_cell(g, cell), *stone)
                    .expect("a permutation never lands two stones on one cell");
            }
        }
        out.set_to_move(self.to_move);
        out
    }
}

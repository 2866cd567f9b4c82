//! Playing strength for people: `UCI_LimitStrength` with `UCI_Elo`, or `Skill Level`.
//!
//! A limited search is weakened in two ways, both read off one calibration table by Elo:
//!
//! - a node budget per move, which shortens its sight;
//! - a chance of playing a worse move from the best few root lines, weighted by how much
//!   each gives away, and never one that gives away more than the level's margin.
//!
//! The margin keeps the weaker moves human: the strongest levels drop at most a fraction of
//! a pawn, the weakest at most three pawns (less than a knight), so no level leaves a piece
//! hanging on purpose, and none plays into a mate its search saw or misses a mate in one.
//! The table's Elo figures are measured on the scale of the reference engines' public CCRL
//! ratings by the games in `docs/strength.md`, where every figure has its command. A `Skill Level` below 20 plays
//! at the Elo [`skill_level_elo`] gives it, on the same table.

use rand::{Rng, RngExt};

use super::limits::Limits;
use super::score::{MATE, MATE_BOUND};

/// Weakest level offered.
pub const ELO_MIN: i64 = LEVELS[0].elo;
/// Strongest level offered (below the unlimited engine).
pub const ELO_MAX: i64 = LEVELS[LEVELS.len() - 1].elo;
/// Level at start.
pub const ELO_DEFAULT: i64 = ELO_MIN;

/// Weakest `Skill Level`.
pub const SKILL_MIN: i64 = 0;
/// Full-strength `Skill Level`, the one at start: no limit.
pub const SKILL_MAX: i64 = 20;

/// The Elo that `Skill Level` `level` plays at, or `None` at full strength ([`SKILL_MAX`]).
/// Levels 0 to 19 spread evenly over the `UCI_Elo` range, rounded to the nearest Elo:
/// level 0 is [`ELO_MIN`], level 19 [`ELO_MAX`]; a level out of range is clamped.
///
/// ```
/// use rookery::engine::strength::{ELO_MAX, ELO_MIN, skill_level_elo};
/// assert_eq!(skill_level_elo(0), Some(ELO_MIN));
/// assert_eq!(skill_level_elo(10), Some(1589));
/// assert_eq!(skill_level_elo(19), Some(ELO_MAX));
/// assert_eq!(skill_level_elo(20), None);
/// ```
pub fn skill_level_elo(level: i64) -> Option<i64> {
    if level >= SKILL_MAX {
        return None;
    }
    let steps = SKILL_MAX - 1 - SKILL_MIN;
    let step = level.max(SKILL_MIN) - SKILL_MIN;
    Some(ELO_MIN + (2 * (ELO_MAX - ELO_MIN) * step + steps) / (2 * steps))
}

/// One calibrated level: what a search at this Elo may spend and give away.
struct Level {
    elo: i64,
    /// Node budget per move and root line.
    nodes_per_line: u64,
    /// Root lines searched: the best and the alternatives it may play.
    lines: usize,
    /// Most centipawns a chosen move may lose against the best line.
    max_loss: i32,
    /// Centipawns of loss that cut a move's chance by a factor of e.
    temperature: i32,
}

/// The calibration, weakest first. Between two rows nodes interpolate geometrically, the
/// margins linearly, and the line count is the weaker row's.
///
/// Each row's Elo is what its setting measured (rounded to 10): gauntlets at 5+0.05 against
/// the reference engines for the strongest rows, and games against the stronger rows for
/// those weaker than every reference, all rated by one fit (`docs/strength.md`,
/// "Calibration"). From 2070 up a level plays its best line; below, it searches two to five
/// lines and may play a weaker one.
const LEVELS: [Level; 10] = [
    Level {
        elo: 500,
        nodes_per_line: 50,
        lines: 5,
        max_loss: 300,
        temperature: 180,
    },
    Level {
        elo: 640,
        nodes_per_line: 150,
        lines: 4,
        max_loss: 250,
        temperature: 130,
    },
    Level {
        elo: 900,
        nodes_per_line: 540,
        lines: 4,
        max_loss: 200,
        temperature: 90,
    },
    Level {
        elo: 1190,
        nodes_per_line: 1_273,
        lines: 4,
        max_loss: 160,
        temperature: 70,
    },
    Level {
        elo: 1500,
        nodes_per_line: 3_000,
        lines: 3,
        max_loss: 120,
        temperature: 50,
    },
    Level {
        elo: 1770,
        nodes_per_line: 5_745,
        lines: 3,
        max_loss: 85,
        temperature: 35,
    },
    Level {
        elo: 1950,
        nodes_per_line: 11_000,
        lines: 2,
        max_loss: 50,
        temperature: 20,
    },
    Level {
        elo: 2070,
        nodes_per_line: 22_000,
        lines: 1,
        max_loss: 0,
        temperature: 1,
    },
    Level {
        elo: 2310,
        nodes_per_line: 43_000,
        lines: 1,
        max_loss: 0,
        temperature: 1,
    },
    Level {
        elo: 2570,
        nodes_per_line: 84_000,
        lines: 1,
        max_loss: 0,
        temperature: 1,
    },
];

/// How a search at a limited level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLimit {
    /// Node budget per move, over all its lines.
    pub nodes: u64,
    /// Root lines searched: the best and the alternatives it may play.
    pub lines: usize,
    /// Most centipawns a chosen move may lose against the best line.
    pub max_loss: i32,
    /// Centipawns of loss that cut a move's chance by a factor of e.
    pub temperature: i32,
}

impl StrengthLimit {
    /// The level for `elo`, clamped to the offered range.
    ///
    /// ```
    /// use rookery::engine::strength::StrengthLimit;
    /// let weak = StrengthLimit::for_elo(1500);
    /// let strong = StrengthLimit::for_elo(2400);
    /// assert!(weak.nodes < strong.nodes);
    /// assert!(weak.max_loss > strong.max_loss);
    /// ```
    pub fn for_elo(elo: i64) -> StrengthLimit {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let upper = LEVELS
            .iter()
            .position(|level| level.elo >= elo)
            .unwrap_or(LEVELS.len() - 1)
            .max(1);
        let (low, high) = (&LEVELS[upper - 1], &LEVELS[upper]);
        let t = (elo - low.elo) as f64 / (high.elo - low.elo) as f64;
        let linear = |a: i32, b: i32| (f64::from(a) + t * f64::from(b - a)).round() as i32;
        let (low_nodes, high_nodes) = (low.nodes_per_line as f64, high.nodes_per_line as f64);
        let per_line = (low_nodes.ln() + t * (high_nodes.ln() - low_nodes.ln())).exp();
        let lines = if elo == high.elo {
            high.lines
        } else {
            low.lines
        };
        StrengthLimit {
            nodes: (per_line * lines as f64).round() as u64,
            lines,
            max_loss: linear(low.max_loss, high.max_loss),
            temperature: linear(low.temperature, high.temperature).max(1),
        }
    }

    /// `asked` with this level's node budget: the smaller of the budget and the node limit
    /// asked for, the rest as asked.
    ///
    /// ```
    /// use rookery::engine::Limits;
    /// use rookery::engine::strength::StrengthLimit;
    /// let level = StrengthLimit::for_elo(1500);
    /// let asked = Limits { depth: Some(9), ..Limits::default() };
    /// let limits = level.limits(&asked);
    /// assert_eq!(limits.nodes, Some(level.nodes));
    /// assert_eq!(limits.depth, Some(9));
    /// assert!(level.budget_binds(&asked));
    /// let few = Limits { nodes: Some(10), ..Limits::default() };
    /// assert_eq!(level.limits(&few).nodes, Some(10));
    /// assert!(!level.budget_binds(&few));
    /// ```
    pub fn limits(&self, asked: &Limits) -> Limits {
        Limits {
            nodes: Some(asked.nodes.map_or(self.nodes, |n| n.min(self.nodes))),
            ..asked.clone()
        }
    }

    /// Whether this level's node budget is tighter than the node limit of `asked`: then a
    /// search that stops at the budget stopped for the level, not for the client.
    pub fn budget_binds(&self, asked: &Limits) -> bool {
        asked.nodes.is_none_or(|n| n > self.nodes)
    }

    /// Which of `scores` to play: indices into root lines sorted best first, each the
    /// exact score of its line (`None` for a line that is only a bound). The best line is
    /// always a candidate; another is one when it loses at most `max_loss` against it, is
    /// not itself a mate against us, and the best is no mate in one.
    pub fn choose<R: Rng + ?Sized>(&self, scores: &[Option<i32>], rng: &mut R) -> usize {
        let Some(Some(best)) = scores.first().copied() else {
            return 0;
        };
        if best >= MATE - 1 {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .map(|score| match *score {
                Some(s) if s > -MATE_BOUND && best - s <= self.max_loss => {
                    (-f64::from(best - s) / f64::from(self.temperature)).exp()
                }
                _ => 0.0,
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut ticket = rng.random::<f64>() * total;
        for (i, weight) in weights.iter().enumerate() {
            if ticket < *weight {
                return i;
            }
            ticket -= weight;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    #[test]
    fn levels_rise_with_elo_and_meet_the_table_at_its_rows() {
        for pair in LEVELS.windows(2) {
            assert!(pair[0].elo < pair[1].elo);
            assert!(pair[0].nodes_per_line < pair[1].nodes_per_line);
            assert!(pair[0].max_loss >= pair[1].max_loss);
        }
        for level in &LEVELS {
            let limit = StrengthLimit::for_elo(level.elo);
            assert_eq!(limit.nodes, level.nodes_per_line * level.lines as u64);
            assert_eq!(limit.lines, level.lines);
            assert_eq!(limit.max_loss, level.max_loss);
        }
        let mut last = StrengthLimit::for_elo(ELO_MIN);
        for elo in ELO_MIN + 1..=ELO_MAX {
            let limit = StrengthLimit::for_elo(elo);
            let per_line = |l: StrengthLimit| l.nodes / l.lines as u64;
            assert!(per_line(limit) >= per_line(last), "nodes fall at {elo}");
            assert!(limit.max_loss <= last.max_loss, "margin grows at {elo}");
            last = limit;
        }
        assert_eq!(StrengthLimit::for_elo(0), StrengthLimit::for_elo(ELO_MIN));
        assert_eq!(
            StrengthLimit::for_elo(9999),
            StrengthLimit::for_elo(ELO_MAX)
        );
    }

    #[test]
    fn skill_levels_rise_evenly_from_the_weakest_elo_to_the_strongest() {
        let elos: Vec<i64> = (SKILL_MIN..SKILL_MAX)
            .map(|level| skill_level_elo(level).expect("a level below the top is limited"))
            .collect();
        assert_eq!(elos.first(), Some(&ELO_MIN));
        assert_eq!(elos.last(), Some(&ELO_MAX));
        let step = (ELO_MAX - ELO_MIN) as f64 / (SKILL_MAX - 1 - SKILL_MIN) as f64;
        for pair in elos.windows(2) {
            let rise = pair[1] - pair[0];
            assert!((rise as f64 - step).abs() <= 1.0, "{pair:?} rise by {rise}");
        }
        assert_eq!(skill_level_elo(SKILL_MAX), None);
        assert_eq!(skill_level_elo(SKILL_MAX + 1), None);
        assert_eq!(skill_level_elo(SKILL_MIN - 1), Some(ELO_MIN));
    }

    #[test]
    fn choices_stay_inside_the_margin_and_follow_the_weights() {
        let limit = StrengthLimit {
            nodes: 0,
            lines: 5,
            max_loss: 150,
            temperature: 60,
        };
        let scores = [Some(50), Some(20), Some(-40), Some(-300), None];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = [0u32; 5];
        for _ in 0..20_000 {
            counts[limit.choose(&scores, &mut rng)] += 1;
        }
        // -300 loses 350 > 150 and the bound has no exact score: never played.
        assert_eq!(counts[3], 0);
        assert_eq!(counts[4], 0);
        // Chances fall with the loss: e^0 : e^-0.5 : e^-1.5.
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0);
        let ratio = f64::from(counts[1]) / f64::from(counts[0]);
        assert!((ratio - (-0.5f64).exp()).abs() < 0.05, "ratio {ratio}");
    }

    #[test]
    fn mates_are_neither_missed_in_one_nor_walked_into() {
        let limit = StrengthLimit::for_elo(ELO_MIN);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..1000 {
            // A mate in one is played even though the slower mate is inside the margin.
            assert_eq!(limit.choose(&[Some(MATE - 1), Some(MATE - 5)], &mut rng), 0);
            // Already mated: a quicker mate is inside the margin, and still never chosen.
            assert_eq!(
                limit.choose(&[Some(-MATE + 20), Some(-MATE + 4)], &mut rng),
                0
            );
        }
    }

    #[test]
    fn the_strongest_level_never_deviates_from_a_better_move() {
        let limit = StrengthLimit::for_elo(ELO_MAX);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..1000 {
            assert_eq!(limit.choose(&[Some(10), Some(9)], &mut rng), 0);
        }
    }
}

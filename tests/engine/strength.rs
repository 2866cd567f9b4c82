//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`) through the search itself: the node
//! budget holds, a weaker move is played only inside the level's margin and is the move of
//! the last reported line, mates in one are never missed, and the weakening is real.
//! `Skill Level` through the facade: 20 is the full engine, lower levels search as the
//! `UCI_Elo` they map to, and `UCI_LimitStrength` with `UCI_Elo` overrides it.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::lines::Lines;
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::{Line, Reporter, SearchOptions, SearchResult, Signals, search};
use rookery::engine::strength::{ELO_MAX, ELO_MIN, SKILL_MAX, StrengthLimit};
use rookery::engine::tt::ChessTable;
use rookery::engine::{Engine, Settings};

/// Middlegame positions from the opening book's kind (balanced, move 9).
const POSITIONS: [&str; 8] = [
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "rn1qk2r/pb1pbppp/1p2pn2/8/Q1P5/5NP1/PP2PPBP/RNB2RK1 w kq - 2 9",
    "r2qkb1r/pppn2pp/3p1nb1/3Pp1B1/2P1p3/2N3N1/PP3PPP/R2QKB1R w KQkq - 8 9",
    "r1b2rk1/pppn1pp1/3ppq1p/8/1b1PP3/2N5/PPPQ1PPP/1K1R1BNR w - - 4 9",
    "r1bqkb1r/pp2pppp/2n2n2/3p4/N2P4/5N2/PP1BPPPP/R2QKB1R w KQkq - 8 9",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2np1n2/2p5/4P3/1NN5/PPP1BPPP/R1BQ1RK1 w - - 2 9",
    "rnbq1rk1/1p3pbp/2pp1np1/p3p3/2P5/2NP1NP1/PP1BPPBP/R2Q1RK1 w - - 0 9",
];

fn clock() -> Limits {
    Limits {
        time: shakmaty::ByColor {
            white: Some(std::time::Duration::from_secs(60)),
            black: Some(std::time::Duration::from_secs(60)),
        },
        ..Limits::default()
    }
}

/// Searches `fen` at `elo` with `seed`; the move played and every line reported.
fn play(fen: &str, elo: i64, seed: u64) -> (shakmaty::Move, u64, Vec<Line>) {
    let pos = Position::from_fen(fen, false).unwrap();
    let table = ChessTable::new(1).unwrap();
    let limit = StrengthLimit::for_elo(elo);
    // Every line the level searches is shown, so the test sees the alternatives.
    let options = SearchOptions {
        multi_pv: limit.lines,
        strength: Some(limit),
        strength_seed: seed,
        ..SearchOptions::default()
    };
    let lines = Lines::default();
    // The level's node budget is the caller's to apply, as the engine does.
    let result = search(
        &pos,
        &limit.limits(&clock()),
        &options,
        &table,
        &Signals::default(),
        &lines,
    );
    (result.best.unwrap(), result.nodes, lines.into_lines())
}

#[test]
fn weaker_moves_stay_inside_the_margin_and_are_the_last_line_reported() {
    let mut deviations = 0;
    for elo in [ELO_MIN, 1800, 2200] {
        let limit = StrengthLimit::for_elo(elo);
        for (i, fen) in POSITIONS.iter().enumerate() {
            let (best, nodes, lines) = play(fen, elo, i as u64);
            // The budget holds to within one look at it (every 32 nodes) and the
            // first iteration, which always completes.
            let first_depth: u64 = lines
                .iter()
                .filter(|l| l.depth == 1)
                .map(|l| l.nodes)
                .max()
                .unwrap_or(0);
            assert!(
                nodes <= limit.nodes.max(first_depth) + 64,
                "{nodes} nodes at {elo} (budget {})",
                limit.nodes
            );
            let last = lines.iter().rev().find(|l| l.multipv == 1).unwrap();
            assert_eq!(last.pv[0], best, "bestmove is not the last line's move");
            // A weaker choice repeats an alternative line (slot 2 or later) of the last
            // completed iteration as slot 1, its score too; it must lose at most the margin
            // against that iteration's best. (The best move of a stopped, deeper iteration
            // is the search's own best, reported with its new score.)
            let alternative = lines.iter().find(|l| {
                l.multipv > 1
                    && l.depth == last.depth
                    && l.pv == last.pv
                    && l.score == last.score
                    && l.bound.is_none()
            });
            if let Some(alternative) = alternative {
                deviations += 1;
                let top = lines
                    .iter()
                    .find(|l| l.multipv == 1 && l.depth == alternative.depth)
                    .unwrap();
                assert!(
                    alternative.score >= top.score - limit.max_loss,
                    "{fen} at {elo}: played a line of {} against {}",
                    alternative.score,
                    top.score
                );
            }
        }
    }
    assert!(deviations > 0, "no level ever played a weaker move");
}

#[test]
fn the_strongest_level_plays_its_best_line() {
    for (i, fen) in POSITIONS.iter().enumerate() {
        let (best, _, lines) = play(fen, ELO_MAX, i as u64);
        let last = lines.iter().rev().find(|l| l.multipv == 1).unwrap();
        assert_eq!(last.pv[0], best);
        // One line only: no alternative slots are reported or searched.
        assert!(lines.iter().all(|l| l.multipv == 1));
    }
}

#[test]
fn mate_in_one_is_never_missed() {
    // Back-rank mate: Re8#.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1";
    for seed in 0..20 {
        let (best, _, _) = play(fen, ELO_MIN, seed);
        assert_eq!(best.to(), shakmaty::Square::E8, "seed {seed}");
    }
}

#[test]
fn uci_elo_is_a_listed_option_with_its_range() {
    let settings = Settings::default();
    assert!(!settings.limit_strength);
    assert_eq!(settings.elo, ELO_MIN);
    let option = rookery::engine::OPTIONS
        .iter()
        .find(|o| o.name == "UCI_Elo")
        .unwrap();
    assert_eq!(
        option.kind,
        rookery::engine::OptionKind::Spin {
            default: ELO_MIN,
            min: ELO_MIN,
            max: ELO_MAX
        }
    );
}

/// What a search did: the move it played, its nodes, and every line it reported (all but
/// its time, which varies).
#[derive(Debug, Default, PartialEq, Eq)]
struct Searched {
    best: String,
    nodes: u64,
    lines: Vec<String>,
}

impl Searched {
    /// Whether two limited searches searched alike: the same nodes and the same lines,
    /// but for a last one that either may add, each level's own random choice of move (a
    /// choice of the best move adds none, so one search may have a line more).
    fn alike(&self, other: &Searched) -> bool {
        let shorter = self.lines.len().min(other.lines.len());
        let compared = if self.lines.len() == other.lines.len() {
            shorter.saturating_sub(1)
        } else {
            shorter
        };
        self.nodes == other.nodes
            && shorter > 0
            && self.lines.len().abs_diff(other.lines.len()) <= 1
            && self.lines[..compared] == other.lines[..compared]
    }
}

/// Keeps what a search run through the facade did.
#[derive(Default)]
struct Record(Mutex<Searched>);

impl Reporter for Record {
    fn line(&self, line: &Line) {
        let text = format!(
            "depth {} multipv {} score {} {:?} nodes {} pv {:?}",
            line.depth, line.multipv, line.score, line.bound, line.nodes, line.pv
        );
        self.0.lock().unwrap().lines.push(text);
    }

    fn finished(&self, result: &SearchResult) {
        let mut searched = self.0.lock().unwrap();
        searched.best = result.best.unwrap().to_string();
        searched.nodes = result.nodes;
    }
}

/// A fresh engine with `options` set in turn searches `fen` under `limits`.
fn search_with(options: &[(&str, &str)], fen: &str, limits: &Limits) -> Searched {
    let mut engine = Engine::with_hash(4).unwrap();
    for (name, value) in options {
        engine.set_option(name, value).unwrap();
    }
    engine.set_position(Position::from_fen(fen, false).unwrap());
    let record = Arc::new(Record::default());
    engine.go(limits.clone(), record.clone()).unwrap();
    engine.wait();
    std::mem::take(&mut *record.0.lock().unwrap())
}

/// `go depth N`.
fn depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// `go movetime 20000`: far more than any level's budget takes.
fn movetime() -> Limits {
    Limits {
        movetime: Some(Duration::from_secs(20)),
        ..Limits::default()
    }
}

#[test]
fn skill_level_20_searches_as_the_default_engine() {
    for fen in &POSITIONS[..3] {
        // The search with no strength limit at all, as the engine's defaults call it.
        let record = Record::default();
        let result = search(
            &Position::from_fen(fen, false).unwrap(),
            &depth(14),
            &SearchOptions::default(),
            &ChessTable::new(4).unwrap(),
            &Signals::default(),
            &record,
        );
        record.finished(&result);
        let unlimited = record.0.into_inner().unwrap();
        // Beyond the strongest level's budget: a limit would cut it short.
        assert!(
            unlimited.nodes > StrengthLimit::for_elo(ELO_MAX).nodes,
            "{fen}"
        );
        assert_eq!(search_with(&[], fen, &depth(14)), unlimited, "{fen}");
        // Down and back up: the top level lifts the limit again.
        let top = SKILL_MAX.to_string();
        let options = [("Skill Level", "0"), ("Skill Level", top.as_str())];
        assert_eq!(search_with(&options, fen, &depth(14)), unlimited, "{fen}");
    }
}

#[test]
fn skill_levels_search_as_the_uci_elo_they_map_to() {
    for (level, elo) in [("0", ELO_MIN), ("10", 1589), ("19", ELO_MAX)] {
        let elo_text = elo.to_string();
        let by_elo = [
            ("UCI_LimitStrength", "true"),
            ("UCI_Elo", elo_text.as_str()),
        ];
        for fen in &POSITIONS[..4] {
            for limits in [movetime(), depth(30)] {
                let by_skill = search_with(&[("Skill Level", level)], fen, &limits);
                let by_elo = search_with(&by_elo, fen, &limits);
                assert!(
                    by_skill.alike(&by_elo),
                    "Skill Level {level} at {fen}: {by_skill:#?} against {by_elo:#?}"
                );
                // The budget, to within one look at it (every 1,024 nodes at the largest
                // budgets) and the first iteration, which always completes.
                assert!(
                    by_skill.nodes <= StrengthLimit::for_elo(elo).nodes + 2_048,
                    "{} nodes at Skill Level {level}",
                    by_skill.nodes
                );
            }
        }
    }
}

#[test]
fn uci_limit_strength_with_uci_elo_overrides_skill_level() {
    let fen = POSITIONS[0];
    let elo_max = ELO_MAX.to_string();
    let strongest = [("UCI_LimitStrength", "true"), ("UCI_Elo", elo_max.as_str())];
    let both = [
        ("Skill Level", "0"),
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", elo_max.as_str()),
    ];
    let by_elo = search_with(&strongest, fen, &movetime());
    let by_both = search_with(&both, fen, &movetime());
    let by_skill = search_with(&[("Skill Level", "0")], fen, &movetime());
    assert!(by_both.alike(&by_elo), "{by_both:#?} against {by_elo:#?}");
    assert!(
        by_skill.nodes < by_both.nodes,
        "Skill Level 0 searched {} nodes, UCI_Elo {ELO_MAX} {}",
        by_skill.nodes,
        by_both.nodes
    );
    // Turned off, UCI_LimitStrength leaves the strength to Skill Level again.
    let off = [
        ("Skill Level", "0"),
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", elo_max.as_str()),
        ("UCI_LimitStrength", "false"),
    ];
    let by_skill_again = search_with(&off, fen, &movetime());
    assert!(by_skill_again.alike(&by_skill), "{by_skill_again:#?}");
}

#[test]
fn skill_level_is_a_listed_option_with_its_range() {
    assert_eq!(Settings::default().skill_level, SKILL_MAX);
    let option = rookery::engine::OPTIONS
        .iter()
        .find(|o| o.name == "Skill Level")
        .unwrap();
    assert_eq!(
        option.kind,
        rookery::engine::OptionKind::Spin {
            default: SKILL_MAX,
            min: 0,
            max: SKILL_MAX
        }
    );
}

//! The one table of engine options. Each entry gives the option's name, its kind with the
//! default and range, where its value is kept in [`Settings`], and, when setting it does
//! more than keep a value, the [`Effect`] the engine carries out. The UCI `uci` listing
//! prints this table, `setoption` reads values through it, and tests and fuzzers take
//! names from it.
//!
//! Adding an option is one entry in [`OPTIONS`], with the [`Settings`] field it writes (its
//! default comes from the entry) or the [`Effect`] the engine matches on, if new. An option
//! the search reads is also carried into
//! [`SearchOptions`](super::search::SearchOptions), which is built from the settings.

use super::strength::{ELO_DEFAULT, ELO_MAX, ELO_MIN, SKILL_MAX, SKILL_MIN, skill_level_elo};

/// How an option is set, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off.
    Check {
        /// Value at start.
        default: bool,
    },
    /// A whole number in a range.
    Spin {
        /// Value at start.
        default: i64,
        /// Least value accepted.
        min: i64,
        /// Greatest value accepted.
        max: i64,
    },
    /// An action without a value.
    Button,
    /// Free text (`<empty>` stands for the empty string).
    String {
        /// Value at start.
        default: &'static str,
    },
}

/// A value parsed for its option's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check option's value.
    Check(bool),
    /// A spin option's value, inside its range.
    Spin(i64),
    /// A button was pressed.
    Press,
    /// A string option's value.
    Text(String),
}

impl OptionValue {
    fn check(&self) -> bool {
        matches!(self, OptionValue::Check(true))
    }

    fn spin(&self) -> i64 {
        match self {
            OptionValue::Spin(n) => *n,
            _ => 0,
        }
    }

    fn text(&self) -> &str {
        match self {
            OptionValue::Text(text) => text,
            _ => "",
        }
    }
}

/// Why an option was not set. The message names the option as the caller spelled it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// A search is running; options change only between searches.
    Busy(String),
    /// The value does not fit the option's kind or range.
    Invalid(String),
    /// The value was valid but could not be applied; the old value stays.
    Refused(String),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option: {name}"),
            OptionError::Busy(name) => write!(f, "option {name} refused: a search is running"),
            OptionError::Invalid(text) | OptionError::Refused(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for OptionError {}

impl OptionKind {
    /// The default as a value (buttons have none).
    pub fn default_value(self) -> Option<OptionValue> {
        match self {
            OptionKind::Check { default } => Some(OptionValue::Check(default)),
            OptionKind::Spin { default, .. } => Some(OptionValue::Spin(default)),
            OptionKind::Button => None,
            OptionKind::String { default } => Some(OptionValue::Text(default.to_string())),
        }
    }

    /// Reads `value` for an option of this kind that the caller called `name`.
    pub fn parse(self, name: &str, value: &str) -> Result<OptionValue, OptionError> {
        match self {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(OptionError::Invalid(format!(
                    "option {name}: value must be true or false, got '{value}'"
                ))),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<u64>() {
                Ok(v) if (min as u64..=max as u64).contains(&v) => Ok(OptionValue::Spin(v as i64)),
                _ => Err(OptionError::Invalid(format!(
                    "option {name}: value must be a number from {min} to {max}, got '{value}'"
                ))),
            },
            OptionKind::Button => Ok(OptionValue::Press),
            OptionKind::String { .. } => Ok(OptionValue::Text(if value == "<empty>" {
                String::new()
            } else {
                value.to_string()
            })),
        }
    }
}

/// Declares [`Settings`], one field per value an option keeps, and the blank settings that
/// [`Settings::default`] folds the option table's defaults into: no default is written
/// outside [`OPTIONS`].
macro_rules! settings {
    ($($(#[doc = $doc:literal])* $field:ident: $kind:ty,)*) => {
        /// Every option's current value.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Settings {
            $($(#[doc = $doc])* pub $field: $kind,)*
        }

        impl Settings {
            /// Every field at its type's default, before the options' defaults are folded in.
            fn blank() -> Settings {
                Settings {
                    $($field: Default::default(),)*
                }
            }
        }
    };
}

settings! {
    /// File that debug logs are appended to; empty for none.
    log_file: String,
    /// Search threads.
    threads: usize,
    /// Transposition table size in MiB.
    hash_mib: usize,
    /// Whether the GUI may send `go ponder`.
    ponder: bool,
    /// Principal variations reported.
    multi_pv: usize,
    /// Milliseconds kept back per move for GUI and network delays.
    move_overhead_ms: u64,
    /// Chess960 castling notation in and out.
    chess960: bool,
    /// Whether book moves are played from [`Settings::book_file`].
    own_book: bool,
    /// The Polyglot book; empty for none.
    book_file: String,
    /// A weighted random book move instead of the heaviest.
    book_variety: bool,
    /// Seed of the random book choice; 0 seeds from the clock.
    book_seed: u64,
    /// Tablebase directories, separated by `:`; empty for none.
    syzygy_path: String,
    /// How the search probes the tablebases.
    syzygy: TablebaseProbing,
    /// Reported lines carry the expected win, draw and loss in permille.
    show_wdl: bool,
    /// Play at the strength of [`Settings::elo`] instead of full strength.
    limit_strength: bool,
    /// The Elo to play at when the strength is limited.
    elo: i64,
    /// `Skill Level`: below [`SKILL_MAX`], play at the Elo it maps to (unless
    /// [`Settings::limit_strength`] is on, when [`Settings::elo`] holds).
    skill_level: i64,
    /// Evaluate with the network (else with the hand-written evaluation).
    use_nnue: bool,
    /// The network file; [`DEFAULT_EVAL_FILE`] or empty for the net built in.
    eval_file: String,
}

/// How the search probes the tablebases (`SyzygyProbeDepth`, `SyzygyProbeLimit`,
/// `Syzygy50MoveRule`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TablebaseProbing {
    /// Probed inside the search only with at least this much depth left.
    pub depth: i32,
    /// Probed only with at most this many pieces on the board.
    pub pieces: usize,
    /// Whether wins and losses beyond the fifty-move rule count as draws.
    pub fifty_move_rule: bool,
}

/// The `EvalFile` value that names the net built into the binary.
pub const DEFAULT_EVAL_FILE: &str = "<default>";

/// The name of the option that loads a net file.
pub const EVAL_FILE_OPTION: &str = "EvalFile";

impl Default for Settings {
    /// Every option at the default its entry in [`OPTIONS`] declares.
    fn default() -> Settings {
        let mut settings = Settings::blank();
        for option in OPTIONS {
            if let Some(value) = option.kind.default_value() {
                (option.store)(&mut settings, &value);
            }
        }
        settings
    }
}

impl Settings {
    /// The Elo searches play at, or `None` at full strength: [`Settings::elo`] while
    /// [`Settings::limit_strength`] is on (it takes precedence, as in Stockfish), else the
    /// Elo of a `Skill Level` below [`SKILL_MAX`].
    pub fn limited_elo(&self) -> Option<i64> {
        if self.limit_strength {
            Some(self.elo)
        } else {
            skill_level_elo(self.skill_level)
        }
    }

    /// Whether searches evaluate with the network: `Use NNUE`, except at a limited strength,
    /// whose Elo levels were measured with the hand-written evaluation.
    pub fn evaluates_with_network(&self) -> bool {
        self.use_nnue && self.limited_elo().is_none()
    }

    /// Whether `EvalFile` names the net built into the binary (empty or [`DEFAULT_EVAL_FILE`]).
    pub fn uses_built_in_net(&self) -> bool {
        self.eval_file.is_empty() || self.eval_file == DEFAULT_EVAL_FILE
    }
}

/// What setting an option does to the engine beyond keeping its value; the engine carries
/// it out after the value is stored, and restores the old settings when it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Opens (or closes) the debug log file.
    OpenLogFile,
    /// Gives the table its new size.
    ResizeHash,
    /// Empties the table.
    ClearHash,
    /// Puts the position's castling notation in line with `UCI_Chess960`.
    SyncCastlingMode,
    /// Opens the opening book.
    OpenBook,
    /// Reseeds the random book choice.
    SeedBookChoice,
    /// Loads the endgame tablebases.
    OpenTablebases,
    /// Loads the network file.
    OpenEvalFile,
}

/// One engine option.
pub struct EngineOption {
    /// The name, as `uci` lists it (matched without regard to case).
    pub name: &'static str,
    /// Kind, default and range.
    pub kind: OptionKind,
    /// Keeps a value in the settings.
    store: fn(&mut Settings, &OptionValue),
    /// What setting it does beyond keeping the value.
    effect: Option<Effect>,
}

impl EngineOption {
    /// Keeps `value` in `settings`.
    pub(super) fn store(&self, settings: &mut Settings, value: &OptionValue) {
        (self.store)(settings, value);
    }

    /// The effect of setting the option beyond keeping its value, if any.
    pub fn effect(&self) -> Option<Effect> {
        self.effect
    }
}

/// A button keeps no value.
fn keep_nothing(_: &mut Settings, _: &OptionValue) {}

/// The options, in the order `uci` lists them.
pub static OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Debug Log File",
        kind: OptionKind::String { default: "" },
        store: |s, v| s.log_file = v.text().to_string(),
        effect: Some(Effect::OpenLogFile),
    },
    EngineOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        store: |s, v| s.threads = v.spin() as usize,
        effect: None,
    },
    EngineOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
        },
        store: |s, v| s.hash_mib = v.spin() as usize,
        effect: Some(Effect::ResizeHash),
    },
    EngineOption {
        name: "Clear Hash",
        kind: OptionKind::Button,
        store: keep_nothing,
        effect: Some(Effect::ClearHash),
    },
    EngineOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.ponder = v.check(),
        effect: None,
    },
    EngineOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        store: |s, v| s.multi_pv = v.spin() as usize,
        effect: None,
    },
    EngineOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
        store: |s, v| s.move_overhead_ms = v.spin() as u64,
        effect: None,
    },
    EngineOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.chess960 = v.check(),
        effect: Some(Effect::SyncCastlingMode),
    },
    EngineOption {
        name: "OwnBook",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.own_book = v.check(),
        effect: None,
    },
    EngineOption {
        name: "BookFile",
        kind: OptionKind::String { default: "" },
        store: |s, v| s.book_file = v.text().to_string(),
        effect: Some(Effect::OpenBook),
    },
    EngineOption {
        name: "BookVariety",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.book_variety = v.check(),
        effect: None,
    },
    EngineOption {
        name: "BookSeed",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            // GUIs read a spin's limits as 32-bit integers: Cute Chess takes a bound that
            // does not fit as 0, others drop the option.
            max: i32::MAX as i64,
        },
        store: |s, v| s.book_seed = v.spin() as u64,
        effect: Some(Effect::SeedBookChoice),
    },
    EngineOption {
        name: "SyzygyPath",
        kind: OptionKind::String { default: "" },
        store: |s, v| s.syzygy_path = v.text().to_string(),
        effect: Some(Effect::OpenTablebases),
    },
    EngineOption {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        store: |s, v| s.syzygy.depth = v.spin() as i32,
        effect: None,
    },
    EngineOption {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        store: |s, v| s.syzygy.pieces = v.spin() as usize,
        effect: None,
    },
    EngineOption {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true },
        store: |s, v| s.syzygy.fifty_move_rule = v.check(),
        effect: None,
    },
    EngineOption {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.show_wdl = v.check(),
        effect: None,
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
        store: |s, v| s.limit_strength = v.check(),
        effect: None,
    },
    EngineOption {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: ELO_DEFAULT,
            min: ELO_MIN,
            max: ELO_MAX,
        },
        store: |s, v| s.elo = v.spin(),
        effect: None,
    },
    EngineOption {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: SKILL_MAX,
            min: SKILL_MIN,
            max: SKILL_MAX,
        },
        store: |s, v| s.skill_level = v.spin(),
        effect: None,
    },
    EngineOption {
        name: "Use NNUE",
        kind: OptionKind::Check { default: true },
        store: |s, v| s.use_nnue = v.check(),
        // The table's static evaluations come from the other evaluation.
        effect: Some(Effect::ClearHash),
    },
    EngineOption {
        name: EVAL_FILE_OPTION,
        kind: OptionKind::String {
            default: DEFAULT_EVAL_FILE,
        },
        store: |s, v| s.eval_file = v.text().to_string(),
        effect: Some(Effect::OpenEvalFile),
    },
];

/// The option called `name`, ignoring case.
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fit_their_ranges_which_fit_32_bits_and_names_are_unique() {
        for (i, option) in OPTIONS.iter().enumerate() {
            if let OptionKind::Spin { default, min, max } = option.kind {
                assert!(min <= default && default <= max, "{}", option.name);
                let fits = |v: i64| i32::try_from(v).is_ok();
                assert!(
                    fits(min) && fits(max),
                    "{}: a GUI's 32-bit spin",
                    option.name
                );
            }
            assert!(
                OPTIONS[..i]
                    .iter()
                    .all(|o| !o.name.eq_ignore_ascii_case(option.name)),
                "{} twice",
                option.name
            );
        }
        let settings = Settings::default();
        assert_eq!((settings.threads, settings.hash_mib), (1, 16));
        assert_eq!((settings.multi_pv, settings.move_overhead_ms), (1, 10));
    }

    #[test]
    fn the_default_settings_are_the_table_defaults_folded_into_blank_settings() {
        let defaults = Settings::default();
        assert_ne!(defaults, Settings::blank());
        // Storing any option's default changes nothing more.
        for option in OPTIONS {
            let mut settings = defaults.clone();
            if let Some(value) = option.kind.default_value() {
                option.store(&mut settings, &value);
            }
            assert_eq!(settings, defaults, "{}", option.name);
        }
        assert_eq!(
            defaults.syzygy,
            TablebaseProbing {
                depth: 1,
                pieces: 7,
                fifty_move_rule: true
            }
        );
        assert!(defaults.use_nnue);
        assert_eq!(defaults.eval_file, DEFAULT_EVAL_FILE);
    }

    #[test]
    fn the_tablebase_options_fill_one_probing_value() {
        let mut settings = Settings::default();
        for (name, value) in [
            ("SyzygyProbeDepth", "5"),
            ("SyzygyProbeLimit", "4"),
            ("Syzygy50MoveRule", "false"),
        ] {
            let option = find(name).unwrap();
            option.store(&mut settings, &option.kind.parse(name, value).unwrap());
        }
        let probing = TablebaseProbing {
            depth: 5,
            pieces: 4,
            fifty_move_rule: false,
        };
        assert_eq!(settings.syzygy, probing);
    }
}

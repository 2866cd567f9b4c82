//! How this binary was built: the commit, the compiler, the target, and the instruction-set
//! features the build may assume (what `-C target-cpu` or `-C target-feature` switched on).

/// The first line of `rustc --version` for the compiler that built the crate (`unknown`
/// when the build script could not run it).
pub const RUSTC_VERSION: &str = env!("ROOKERY_RUSTC_VERSION");

/// The git commit the binary was built from, with `-modified` when its source files
/// differed from that commit (`unknown` when built outside a git checkout).
pub const GIT_COMMIT: &str = env!("ROOKERY_GIT_COMMIT");

/// The target architecture, as Rust names it (`x86_64`, `aarch64`, ...).
pub const ARCH: &str = std::env::consts::ARCH;

/// The target operating system, as Rust names it (`linux`, `macos`, `windows`, ...).
pub const OS: &str = std::env::consts::OS;

/// Whether the build has debug assertions on (a debug build) or off (a release build).
pub const DEBUG_ASSERTIONS: bool = cfg!(debug_assertions);

/// The instruction-set features that matter to the engine's speed, each with whether the
/// compiler was allowed to use it everywhere. Always false on targets without them.
pub const TARGET_FEATURES: [(&str, bool); 7] = [
    ("sse2", cfg!(target_feature = "sse2")),
    ("ssse3", cfg!(target_feature = "ssse3")),
    ("sse4.1", cfg!(target_feature = "sse4.1")),
    ("popcnt", cfg!(target_feature = "popcnt")),
    ("avx2", cfg!(target_feature = "avx2")),
    ("bmi2", cfg!(target_feature = "bmi2")),
    ("avx512f", cfg!(target_feature = "avx512f")),
];

/// The version the build names itself by: `X.Y.Z` for a release build (the commit tagged
/// `vX.Y.Z`, unmodified) or a build without git, otherwise `X.Y.Z-dev-` and the first 8
/// digits of the commit, with `-modified` when the source differed from it.
pub const VERSION_NAME: &str = env!("ROOKERY_VERSION_NAME");

/// The engine's name as the UCI `id name` gives it: `Rookery` and [`VERSION_NAME`].
pub const ENGINE_NAME: &str = concat!("Rookery ", env!("ROOKERY_VERSION_NAME"));

/// What `rookery --version` prints: the engine's name and the whole commit.
pub fn version_text() -> String {
    format!("{ENGINE_NAME} (commit {GIT_COMMIT})")
}

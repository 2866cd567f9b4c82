//! The name a build of this checkout must give itself, worked out from git directly (not
//! from the build script), so that the tests of `--version` and `id name` compare the
//! binary with the repository.

use std::process::Command;

/// What a git command prints, when git runs here and succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The commit the checkout holds (`git rev-parse HEAD`), with `-modified` when the files
/// that make the binary differ from it; `None` without git.
pub fn commit() -> Option<String> {
    let head = git(&["rev-parse", "HEAD"])?.trim().to_string();
    let status = git(&[
        "status",
        "--porcelain",
        "--",
        "src",
        "nets",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
    ])?;
    Some(if status.trim().is_empty() {
        head
    } else {
        format!("{head}-modified")
    })
}

/// The engine's expected name: `Rookery X.Y.Z` at a clean checkout of the tag `vX.Y.Z` or
/// without git, `Rookery X.Y.Z-dev-` and the commit's first 8 digits otherwise (and
/// `-modified` for a tree that differs from it).
pub fn engine_name() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let Some(commit) = commit() else {
        return format!("Rookery {version}");
    };
    let modified = commit.ends_with("-modified");
    let tagged = git(&["tag", "--points-at", "HEAD"])
        .is_some_and(|tags| tags.lines().any(|tag| tag == format!("v{version}")));
    if tagged && !modified {
        format!("Rookery {version}")
    } else {
        let suffix = if modified { "-modified" } else { "" };
        format!("Rookery {version}-dev-{}{suffix}", &commit[..8])
    }
}

/// What `rookery --version` must print: the name, then the whole commit.
pub fn version_line() -> String {
    let commit = commit().unwrap_or_else(|| "unknown".to_string());
    format!("{} (commit {commit})", engine_name())
}

//! Records the version of the compiler that builds the crate, for the UCI `compiler`
//! command, and the git commit it is built from, for `rookery --version`, the UCI `id name`
//! and the manifest of `rookery datagen`. What cannot be asked (no compiler version, no git,
//! not a git checkout, as in a source tarball) is left `unknown`; the build never fails here.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first line a command prints, if it runs and succeeds.
fn first_line(program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Option<String> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(|line| line.trim().to_string()))
        .filter(|line| !line.is_empty())
}

/// The commit checked out, with `-modified` when the files that make the binary differ from
/// it; `None` outside a git checkout.
fn git_commit() -> Option<String> {
    let commit = first_line("git", &["rev-parse", "HEAD"])?;
    let status = Command::new("git")
        .args(["status", "--porcelain", "--"])
        .args(BUILD_INPUTS)
        .output()
        .ok()
        .filter(|out| out.status.success())?;
    let modified = !status.stdout.is_empty();
    Some(if modified {
        format!("{commit}-modified")
    } else {
        commit
    })
}

/// Whether the commit checked out carries the release tag of this version (`v` and the
/// package version), which makes the build a release build.
fn tagged_as_release(version: &str) -> bool {
    let tag = format!("v{version}");
    Command::new("git")
        .args(["tag", "--points-at", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .is_some_and(|tags| tags.lines().any(|line| line.trim() == tag))
}

/// The version the build names itself by: the package version for a release build (its tag
/// checked out, unmodified) and for a build without git; otherwise the package version,
/// `-dev-`, the first 8 digits of the commit and `-modified` when the files differ from it.
fn version_name(version: &str, commit: Option<&str>) -> String {
    match commit {
        None => version.to_string(),
        Some(commit) if !commit.ends_with("-modified") && tagged_as_release(version) => {
            version.to_string()
        }
        Some(commit) => {
            let short: String = commit.chars().take(8).collect();
            let modified = if commit.ends_with("-modified") {
                "-modified"
            } else {
                ""
            };
            format!("{version}-dev-{short}{modified}")
        }
    }
}

/// The paths whose content makes the binary.
const BUILD_INPUTS: [&str; 5] = ["src", "nets", "Cargo.toml", "Cargo.lock", "build.rs"];

/// Asks cargo to run this script again when the commit or the binary's files change: the
/// checkout's `HEAD`, the branch it names, and the packed references.
fn rerun_when_the_commit_changes() {
    for input in BUILD_INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    let git_path = |args: &[&str]| first_line("git", args).map(PathBuf::from);
    let (Some(git_dir), Some(common_dir)) = (
        git_path(&["rev-parse", "--git-dir"]),
        git_path(&["rev-parse", "--git-common-dir"]),
    ) else {
        return;
    };
    let mut watched = vec![
        git_dir.join("HEAD"),
        common_dir.join("packed-refs"),
        common_dir.join("refs/tags"),
    ];
    if let Some(branch) = first_line("git", &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common_dir.join(branch));
    }
    // A path that does not exist would make cargo run the script on every build.
    for path in watched.iter().filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

fn main() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = first_line(rustc, &["--version"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=ROOKERY_RUSTC_VERSION={version}");
    let commit = git_commit();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let name = version_name(&version, commit.as_deref());
    println!("cargo:rustc-env=ROOKERY_VERSION_NAME={name}");
    let commit = commit.unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=ROOKERY_GIT_COMMIT={commit}");
    rerun_when_the_commit_changes();
    println!("cargo:rerun-if-env-changed=RUSTC");
}

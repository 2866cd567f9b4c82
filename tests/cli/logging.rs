//! `RUST_LOG` through the binary: a level turns the engine's logs on, on stderr only.

use std::process::Command;

/// Runs `rookery "go depth 2"` with `RUST_LOG` set to `level` (unset for `None`) and
/// returns its standard output and standard error.
fn search_with_log(level: Option<&str>) -> (String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rookery"));
    command.arg("go depth 2").env_remove("RUST_LOG");
    if let Some(level) = level {
        command.env("RUST_LOG", level);
    }
    let out = command.output().expect("the binary runs");
    assert!(out.status.success());
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn rust_log_turns_the_logs_on_for_stderr_alone() {
    let (quiet_out, quiet_err) = search_with_log(None);
    assert!(quiet_err.is_empty(), "{quiet_err}");
    for level in ["debug", "rookery=debug"] {
        let (out, err) = search_with_log(Some(level));
        assert!(err.contains(" DEBUG "), "{level}: {err}");
        assert!(err.contains("search start"), "{level}: {err}");
        assert!(!out.contains("DEBUG"), "{level}: {out}");
        assert_eq!(
            out.lines().last(),
            quiet_out.lines().last(),
            "{level}: the same search"
        );
    }
    let (_, err) = search_with_log(Some("warn"));
    assert!(!err.contains(" DEBUG "), "{err}");
}

//! How much memory the system could give the engine now: what the facade reads before it
//! resizes the table, so that a `Hash` the machine cannot hold is refused instead of
//! swapping or being killed.

/// Memory the system could give us now, in MiB, if known: Linux's `MemAvailable`, or less
/// when the process's control group (a container) has a memory limit.
pub(super) fn available_memory_mib() -> Option<usize> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib / 1024)
        });
    let read = |path: &str| std::fs::read_to_string(path).ok();
    // cgroup v2, then v1.
    let group = [
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ]
    .iter()
    .find_map(|(limit, usage)| cgroup_room_mib(&read(limit)?, &read(usage)?));
    match (system, group) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What a control group's memory limit leaves beside its usage, in MiB; `None` without a
/// limit (`max`, or v1's "unlimited", a number near `i64::MAX`).
fn cgroup_room_mib(limit: &str, usage: &str) -> Option<usize> {
    let limit: u64 = limit.trim().parse().ok()?;
    let usage: u64 = usage.trim().parse().ok()?;
    (limit < 1 << 60).then(|| (limit.saturating_sub(usage) >> 20) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_group_limit_bounds_the_memory_available() {
        assert_eq!(cgroup_room_mib("1073741824\n", "268435456\n"), Some(768));
        assert_eq!(cgroup_room_mib("max\n", "268435456\n"), None);
        assert_eq!(cgroup_room_mib("9223372036854771712", "1529565184"), None);
        assert_eq!(cgroup_room_mib("1048576", "2097152"), Some(0));
    }
}

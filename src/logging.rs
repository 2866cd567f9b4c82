//! Structured logs through `tracing`: to stderr (level from `RUST_LOG`) or to a file, never
//! to stdout, which belongs to the protocol and the tools' output.

use std::sync::Once;

use tracing_subscriber::EnvFilter;

static INIT: Once = Once::new();

/// Installs the global subscriber once: stderr, filtered by `RUST_LOG` (off when unset).
pub fn init() {
    INIT.call_once(|| {
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("off"));
        // A second global subscriber (a test harness's, say) is not an error worth failing on.
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .try_init();
    });
}

//! A search reporter that keeps every line, for tests that read what a library search
//! reported.

use std::sync::Mutex;

use rookery::engine::search::{Line, Reporter};

/// Keeps every reported line, in order.
#[derive(Default)]
pub struct Lines(Mutex<Vec<Line>>);

impl Lines {
    /// The lines reported so far, in order.
    pub fn into_lines(self) -> Vec<Line> {
        self.0.into_inner().unwrap()
    }
}

impl Reporter for Lines {
    fn line(&self, line: &Line) {
        self.0.lock().unwrap().push(line.clone());
    }
}

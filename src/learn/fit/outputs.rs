//! The files a training run writes, each named by the net's whole path with a suffix: the
//! net `NET`, the checkpoint `NET.ckpt`, a temporary for each (`NET.tmp`, `NET.ckpt.tmp`),
//! and a lock file `NET.lock` that keeps a second run off the same net while the first
//! lives. Since every name keeps the net's whole name, runs on two nets never share a file
//! (`net` and `net.nnue`, `x.a` and `x.b`); a net name ending in one of the suffixes, which
//! would be another run's file, is refused.
//!
//! [`Outputs::claim`] checks them before any work: the net must be named as a file in a
//! directory that exists; each of them must be a regular file or not there yet; none may be
//! a training file or the manifest of the data's directories, nor a file a data directory
//! would read as data; a checkpoint is only overwritten when resuming. Then it takes the
//! lock, and tries the directory with a temporary made and removed.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::input_file;
use crate::learn::data::manifest::MANIFEST_FILE;
use crate::learn::data::reader::{GAME_EXTENSION, RECORD_EXTENSION, data_files};

/// The checkpoint's suffix to the net's name.
const CHECKPOINT_SUFFIX: &str = ".ckpt";
/// The lock file's suffix to the net's name.
const LOCK_SUFFIX: &str = ".lock";
/// The endings a net's name may not have: each would make it a file that the run on
/// another net writes.
const RESERVED_SUFFIXES: [&str; 3] = [CHECKPOINT_SUFFIX, ".tmp", LOCK_SUFFIX];

/// The paths a training run writes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// The net.
    pub net: PathBuf,
    /// The trainer's state after each epoch.
    pub checkpoint: PathBuf,
    /// The net as it is written, renamed to [`Outputs::net`] once whole.
    pub net_temporary: PathBuf,
    /// The checkpoint as it is written, renamed once whole.
    pub checkpoint_temporary: PathBuf,
    /// The file locked while the run lives.
    pub lock: PathBuf,
}

/// The lock on a run's outputs: held until dropped, when the lock file is removed.
#[derive(Debug)]
pub struct OutputLock {
    file: File,
    path: PathBuf,
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still held: a run waiting on this file finds it gone and makes
        // its own (see `Outputs::lock`).
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

impl Outputs {
    /// The files of a run writing its net to `net`.
    ///
    /// ```
    /// use rookery::learn::fit::outputs::Outputs;
    /// use std::path::Path;
    /// let outputs = Outputs::of(Path::new("nets/gen.nnue"));
    /// assert_eq!(outputs.checkpoint, Path::new("nets/gen.nnue.ckpt"));
    /// assert_eq!(outputs.checkpoint_temporary, Path::new("nets/gen.nnue.ckpt.tmp"));
    /// assert_eq!(outputs.net_temporary, Path::new("nets/gen.nnue.tmp"));
    /// assert_eq!(outputs.lock, Path::new("nets/gen.nnue.lock"));
    /// ```
    pub fn of(net: &Path) -> Outputs {
        let beside = |suffix: &str| {
            let mut name = net.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        };
        Outputs {
            net: net.to_path_buf(),
            checkpoint: beside(CHECKPOINT_SUFFIX),
            checkpoint_temporary: beside(".ckpt.tmp"),
            net_temporary: beside(".tmp"),
            lock: beside(LOCK_SUFFIX),
        }
    }

    /// Where a build that named the checkpoint by the net's stem kept it (`net.ckpt` for
    /// `net.nnue`), when that is another path than [`Outputs::checkpoint`].
    pub fn stem_checkpoint(&self) -> Option<PathBuf> {
        let old = self.net.with_extension("ckpt");
        (old != self.checkpoint && old != self.net).then_some(old)
    }

    /// Each path with what it holds, in words.
    fn named(&self) -> [(&Path, &'static str); 5] {
        [
            (&self.net, "the net"),
            (&self.checkpoint, "the checkpoint"),
            (&self.net_temporary, "the net as it is written"),
            (
                &self.checkpoint_temporary,
                "the checkpoint as it is written",
            ),
            (&self.lock, "the run's lock"),
        ]
    }

    /// Checks the outputs against the training data `data` (see the module), locks them,
    /// and tries the directory; the lock is held until the value returned is dropped.
    pub fn claim(&self, data: &[PathBuf], resume: bool) -> Result<OutputLock, String> {
        self.check_net_name()?;
        for (path, what) in self.named() {
            input_file::check_writable(path)
                .map_err(|e| format!("{}: {e}, cannot hold {what}", path.display()))?;
        }
        self.check_clear_of(data)?;
        let lock = self.lock()?;
        if !resume && self.checkpoint.exists() {
            return Err(format!(
                "{}: a checkpoint exists; --resume goes on from it (or remove it to start afresh)",
                self.checkpoint.display()
            ));
        }
        // A resume would start afresh without a word, and overwrite the net at its first
        // epoch, where the checkpoint has the name older builds gave it.
        if let Some(stem) = self.stem_checkpoint()
            && resume
            && !self.checkpoint.exists()
            && stem.exists()
        {
            return Err(format!(
                "{}: no checkpoint, but {} is there, where builds before this one kept the \
                 checkpoint of {}: rename it to {} to resume from it",
                self.checkpoint.display(),
                stem.display(),
                self.net.display(),
                self.checkpoint.display()
            ));
        }
        // A temporary made and removed: a directory that cannot take the files is found
        // before any work.
        for temporary in [&self.net_temporary, &self.checkpoint_temporary] {
            std::fs::write(temporary, b"")
                .and_then(|()| std::fs::remove_file(temporary))
                .map_err(|e| format!("{}: {e}", temporary.display()))?;
        }
        Ok(lock)
    }

    /// Refuses a net path that names no file (empty, `.`, `..`, `/`, a path ending in a
    /// separator, a directory), ends in `.ckpt`, or lies in a directory that does not exist.
    fn check_net_name(&self) -> Result<(), String> {
        let net = &self.net;
        if net.as_os_str().is_empty() {
            return Err("--out is empty: it names the net file to write".into());
        }
        // A path ending in a separator names a directory, whatever is there now.
        let ends_in_separator = net.as_os_str().as_encoded_bytes().last() == Some(&b'/');
        if net.file_name().is_none() || ends_in_separator || net.is_dir() {
            return Err(format!(
                "--out {}: a directory, not a file name; --out names the net file to write",
                net.display()
            ));
        }
        let name = net.as_os_str().as_encoded_bytes();
        if let Some(suffix) = RESERVED_SUFFIXES
            .iter()
            .find(|suffix| name.ends_with(suffix.as_bytes()))
        {
            return Err(format!(
                "{}: the net file cannot end in {suffix}, which names a file a run writes \
                 beside its net (the checkpoint, a temporary, the lock)",
                net.display()
            ));
        }
        let directory = match net.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        if !directory.is_dir() {
            return Err(format!("{}: no such directory", directory.display()));
        }
        Ok(())
    }

    /// Refuses outputs that are a data file of `data`, the manifest of a directory of it,
    /// or a file that one of its directories would give as data.
    fn check_clear_of(&self, data: &[PathBuf]) -> Result<(), String> {
        for path in data {
            let files = data_files(path).map_err(|e| format!("data: {}: {e}", path.display()))?;
            for file in &files {
                if let Some((output, _)) =
                    self.named().into_iter().find(|(o, _)| same_file(o, file))
                {
                    return Err(format!(
                        "{}: writing there would overwrite the training data {}",
                        output.display(),
                        file.display()
                    ));
                }
            }
            let (directory, whole) = if path.is_dir() {
                (path.as_path(), true)
            } else {
                match path.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => (dir, false),
                    _ => (Path::new("."), false),
                }
            };
            let Ok(directory) = directory.canonicalize() else {
                continue;
            };
            for (output, _) in self.named() {
                let Some((parent, name)) = location(output) else {
                    continue;
                };
                if parent != directory {
                    continue;
                }
                if name == MANIFEST_FILE {
                    return Err(format!(
                        "{}: writing there would overwrite the manifest of the training data \
                         in {}",
                        output.display(),
                        directory.display()
                    ));
                }
                let is_data = Path::new(&name)
                    .extension()
                    .is_some_and(|e| e == RECORD_EXTENSION || e == GAME_EXTENSION);
                if whole && is_data {
                    return Err(format!(
                        "{}: the training data directory {} would read this file as data",
                        output.display(),
                        path.display()
                    ));
                }
            }
        }
        Ok(())
    }

    /// Takes the lock file, made when missing; refused while another run holds it.
    fn lock(&self) -> Result<OutputLock, String> {
        let refused = |e: io::Error| format!("{}: {e}", self.lock.display());
        let mut options = OpenOptions::new();
        options.create(true).write(true);
        // The file a run ends by removing may be locked here just before it goes: then
        // the path names another file or none, and the lock is taken again.
        for _ in 0..100 {
            let file = input_file::open_writable(&self.lock, &options).map_err(refused)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(format!(
                        "{}: another train run is writing this net (it holds {}); one run per \
                         net",
                        self.net.display(),
                        self.lock.display()
                    ));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(refused(e)),
            }
            if same_open_file(&file, &self.lock) {
                return Ok(OutputLock {
                    file,
                    path: self.lock.clone(),
                });
            }
        }
        Err(format!(
            "{}: the lock file keeps changing under this run",
            self.lock.display()
        ))
    }
}

/// Where `path` lies: its directory with links resolved, and its name. `None` when the
/// directory cannot be found.
fn location(path: &Path) -> Option<(PathBuf, OsString)> {
    let resolved = path.canonicalize().ok().or_else(|| {
        let parent = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        Some(parent.canonicalize().ok()?.join(path.file_name()?))
    })?;
    Some((
        resolved.parent()?.to_path_buf(),
        resolved.file_name()?.to_owned(),
    ))
}

/// Whether two paths name the same existing file: the same place after links, or (on
/// Unix) the same file under two names.
fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(a), Ok(b)) = (a.canonicalize(), b.canonicalize())
        && a == b
    {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    false
}

/// Whether `path` names the open `file` still.
fn same_open_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

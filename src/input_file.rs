//! Files named by the user, read within bounds: only a regular file is read (a directory, a
//! device such as `/dev/zero`, a pipe or a socket is refused before it is opened), a file
//! larger than its format allows is refused before any of it is read, and memory for a
//! file is asked of the system in one piece that may be refused, so a large file is an
//! error message, never an abort. A file the tools write to is held to the same rule: a
//! regular file or nothing yet, looked at before it is opened (opening a pipe waits for its
//! other end) and once more when open.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Opens the regular file at `path` for reading, with its length. Refused when `path`
/// names anything but a regular file (links are followed), or a file longer than `limit`
/// bytes; `what` names the format in the message (`a net`, `a book`).
pub fn open(path: &Path, limit: u64, what: &str) -> io::Result<(File, u64)> {
    // Looked at before opening: opening a pipe waits for a writer.
    check_regular(&std::fs::metadata(path)?.file_type())?;
    let file = File::open(path)?;
    // And again on the file opened, in case the path changed in between.
    let metadata = file.metadata()?;
    check_regular(&metadata.file_type())?;
    let len = metadata.len();
    if len > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{len} bytes, more than {limit} that {what} may hold"),
        ));
    }
    Ok((file, len))
}

/// Refuses `path` when something is there that is not a regular file (links are
/// followed); nothing there is accepted, since writing makes the file.
pub fn check_writable(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(metadata) => check_regular(&metadata.file_type()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Opens the file at `path` with `options` (which may make it), refused unless it is a
/// regular file, or missing and made: checked before opening and again on the file opened.
pub fn open_writable(path: &Path, options: &OpenOptions) -> io::Result<File> {
    check_writable(path)?;
    let file = options.open(path)?;
    check_regular(&file.metadata()?.file_type())?;
    Ok(file)
}

/// The whole regular file at `path`, at most `limit` bytes (see [`open`]).
pub fn read(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let (file, len) = open(path, limit, what)?;
    let mut bytes = buffer(len)?;
    // A file that grew since it was measured is read only up to the limit.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("more than {limit} bytes, the most that {what} may hold"),
        ));
    }
    Ok(bytes)
}

/// The whole regular file at `path` as UTF-8 text, at most `limit` bytes (see [`open`]).
pub fn read_text(path: &Path, limit: u64, what: &str) -> io::Result<String> {
    String::from_utf8(read(path, limit, what)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not text: {e}")))
}

/// An empty buffer with room for `len` bytes, or an error when the system cannot give it.
pub fn buffer(len: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    usize::try_from(len)
        .ok()
        .and_then(|len| bytes.try_reserve_exact(len).ok())
        .ok_or_else(|| cannot_hold(len))?;
    Ok(bytes)
}

/// The error for a file of `len` bytes that does not fit in the memory the system gives.
pub fn cannot_hold(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::OutOfMemory,
        format!("{len} bytes do not fit in the memory available"),
    )
}

fn check_regular(file_type: &std::fs::FileType) -> io::Result<()> {
    if file_type.is_file() {
        return Ok(());
    }
    let kind = if file_type.is_dir() {
        "a directory"
    } else {
        "a device, pipe or socket"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{kind}, not a regular file"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_long_files_are_refused_before_reading() {
        let dir = std::env::temp_dir().join(format!("rookery-input-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = dir.join("long");
        File::create(&long).unwrap().set_len(1 << 32).unwrap();
        let refused = |path: &Path| read(path, 1 << 20, "a test file").unwrap_err().to_string();
        assert!(refused(Path::new("/dev/zero")).contains("not a regular file"));
        assert!(refused(&dir).contains("a directory"));
        assert!(refused(&long).contains("more than 1048576"));
        let short = dir.join("short");
        std::fs::write(&short, b"12345").unwrap();
        assert_eq!(read(&short, 5, "a test file").unwrap(), b"12345");
        assert!(read(&short, 4, "a test file").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

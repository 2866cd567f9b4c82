//! The net file: formats 2 to 4, read and written.
//!
//! # Format 4 (all little-endian)
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..4 | magic `RKNN` |
//! | 4..8 | format version, 4 |
//! | 8..12 | inputs per king bucket, 768 |
//! | 12..16 | hidden size `H`: a multiple of 16 from 16 to 1024 |
//! | 16..20 | `QA`, activation scale, 255 |
//! | 20..24 | `QB`, output weight scale: 4096 with CReLU, 64 with SCReLU |
//! | 24..28 | centipawns per output unit: 185 as the trainer writes it, 16 to 1024 for a net whose scores were scaled |
//! | 28..32 | activation: 0 CReLU, 1 SCReLU |
//! | 32..36 | output buckets `B`, 1 to 8 |
//! | 36..40 | king mirror: 0 off, 1 on |
//! | 40..44 | king buckets `K`: 1, 4 or 8 |
//! | then | feature weights `i16`, `K x 768 x H`, input-major (king bucket 0's rows first) |
//! | then | feature biases `i16`, `H` |
//! | then | output weights `i16`, `B x 2 x H`: per bucket, the side to move's, then the other side's |
//! | then | output biases `i32`, `B` |
//! | last 8 | FNV-1a 64 checksum of every byte before it |
//!
//! A net is written in the format it was read in; a net made here (the trainer's) in the
//! oldest format that holds its shape: format 3 with one king bucket, so that builds from
//! before king buckets read it, format 4 with more.
//!
//! # Format 3
//!
//! Format 4's first 40 bytes of header, with version 3: one king bucket; then the same
//! blocks (`768 x H` feature weights) and checksum.
//!
//! # Format 2
//!
//! The 28 bytes of format 3's header up to the activation, with version 2, hidden 256,
//! `QB` 4096, scale 185: always 256 hidden, CReLU, one output bucket, no king mirror, one
//! king bucket; then the same blocks (one output bucket) and checksum. A format 2 net is
//! written back in format 2, so its checksum stays the one it was published with.
//!
//! A file is refused when it is cut short or longer than its header says, does not start
//! with the magic, names another version or an architecture this engine does not run (king
//! buckets other than 1, 4 and 8 among them), fails its checksum, or (SCReLU) has an output
//! weight beyond the kernel's bound.

use std::fmt;

use std::io::{self, Read};
use std::path::Path;

use super::architecture::{
    Activation, Architecture, INPUTS, QA, SCALE, SCALE_RANGE, SCRELU_MAX_WEIGHT,
};
use super::network::Network;
use crate::hashing::checksum::fnv1a;

/// The newest file format version, which a net with king buckets is written in.
pub const FORMAT_VERSION: u32 = 4;
/// The magic bytes a net file starts with.
pub const MAGIC: [u8; 4] = *b"RKNN";
/// Bytes of a format 2 header.
pub const HEADER_BYTES_V2: usize = 28;
/// Bytes of a format 3 header.
pub const HEADER_BYTES_V3: usize = 40;
/// Bytes of a format 4 header.
pub const HEADER_BYTES_V4: usize = 44;
/// Bytes of the checksum at the end.
const CHECKSUM_BYTES: usize = 8;

/// Why bytes are not a net this engine can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file is shorter or longer than its header says (or too short for a header).
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes a net of this header has (a header's bytes, when it is cut within it).
        expected: usize,
    },
    /// The file does not start with [`MAGIC`].
    Magic,
    /// A format version other than 2, 3 and 4.
    Version(u32),
    /// The header names a net this engine does not run, said in words.
    Architecture(String),
    /// The checksum does not match the contents.
    Checksum,
    /// A SCReLU output weight beyond [`SCRELU_MAX_WEIGHT`], which the kernel cannot
    /// multiply in `i16`.
    OutputWeight(i16),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Length { found, expected } => {
                write!(f, "{found} bytes, its header needs {expected}")
            }
            NetError::Magic => f.write_str("not a Rookery net (bad magic)"),
            NetError::Version(v) => write!(f, "format version {v}, this engine reads 2 to 4"),
            NetError::Architecture(what) => {
                write!(f, "an architecture this engine does not run: {what}")
            }
            NetError::Checksum => f.write_str("checksum mismatch (a damaged file)"),
            NetError::OutputWeight(w) => write!(
                f,
                "SCReLU output weight {w} beyond +/-{SCRELU_MAX_WEIGHT} (the kernel's bound)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// The header of a net of `arch` in `format`, of `scale` centipawns per output unit.
fn header(arch: &Architecture, format: u32, scale: i32) -> Vec<u8> {
    let mut fields = vec![
        format,
        INPUTS as u32,
        arch.hidden as u32,
        QA as u32,
        arch.activation.qb() as u32,
        scale as u32,
    ];
    if format >= 3 {
        fields.extend([
            arch.activation.code(),
            arch.buckets as u32,
            u32::from(arch.king_mirror),
        ]);
    }
    if format >= 4 {
        fields.push(arch.king_buckets as u32);
    }
    let mut bytes = MAGIC.to_vec();
    for field in fields {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes
}

/// Bytes of a whole file of `arch` after a header of `header` bytes.
fn file_bytes(arch: &Architecture, header: usize) -> usize {
    let h = arch.hidden;
    header + 2 * (arch.inputs() * h + h + arch.buckets * 2 * h) + 4 * arch.buckets + CHECKSUM_BYTES
}

/// What a header says: the net's shape, format and scale, and the header's length.
struct Header {
    arch: Architecture,
    format: u32,
    scale: i32,
    length: usize,
}

/// What a header says, or why it is refused.
fn read_header(bytes: &[u8]) -> Result<Header, NetError> {
    let short = |expected: usize| NetError::Length {
        found: bytes.len(),
        expected,
    };
    if bytes.len() < 8 {
        return Err(short(8));
    }
    let field = |i: usize| u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().expect("4"));
    let version = field(0);
    let length = match version {
        2 => HEADER_BYTES_V2,
        3 => HEADER_BYTES_V3,
        4 => HEADER_BYTES_V4,
        v => return Err(NetError::Version(v)),
    };
    if bytes.len() < length {
        return Err(short(length));
    }
    if version == 2 {
        let arch = Architecture::default();
        if bytes[..length] != header(&arch, 2, SCALE) {
            return Err(NetError::Architecture(format!(
                "format 2 with {} inputs, hidden {}, QA {}, QB {}, scale {}; format 2 means \
                 {INPUTS}, 256, {QA}, 4096, {SCALE}",
                field(1),
                field(2),
                field(3),
                field(4),
                field(5)
            )));
        }
        return Ok(Header {
            arch,
            format: version,
            scale: SCALE,
            length,
        });
    }
    let refuse = |what: String| Err(NetError::Architecture(what));
    if field(1) != INPUTS as u32 {
        return refuse(format!("{} inputs, this engine has {INPUTS}", field(1)));
    }
    let Some(activation) = Activation::from_code(field(6)) else {
        return refuse(format!("activation code {}", field(6)));
    };
    let king_mirror = match field(8) {
        0 => false,
        1 => true,
        other => return refuse(format!("king mirror flag {other}")),
    };
    let arch = Architecture {
        hidden: field(2) as usize,
        activation,
        buckets: field(7) as usize,
        king_mirror,
        king_buckets: if version >= 4 { field(9) as usize } else { 1 },
    };
    arch.check().map_err(NetError::Architecture)?;
    let quantisation = [field(3), field(4)];
    let expected = [QA as u32, activation.qb() as u32];
    if quantisation != expected {
        return refuse(format!(
            "QA {}, QB {} for {}; this engine quantises {} nets with {}, {}",
            quantisation[0],
            quantisation[1],
            activation.name(),
            activation.name(),
            expected[0],
            expected[1]
        ));
    }
    let scale = match i32::try_from(field(5)) {
        Ok(scale) if SCALE_RANGE.contains(&scale) => scale,
        _ => {
            return refuse(format!(
                "scale {} cp per output unit, outside {}..={}",
                field(5),
                SCALE_RANGE.start(),
                SCALE_RANGE.end()
            ));
        }
    };
    Ok(Header {
        arch,
        format: version,
        scale,
        length,
    })
}

impl Network {
    /// The file format [`Network::to_bytes`] writes: the one the net was read in, so that a
    /// file is written back byte for byte; for a net made here, 3 with one king bucket and
    /// 4 with more.
    pub fn format(&self) -> u32 {
        self.format
    }

    /// The net file's bytes, in its [`format`](Network::format).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = header(&self.arch, self.format(), self.scale);
        bytes.reserve(file_bytes(&self.arch, 0));
        let values = self
            .feature_weights
            .iter()
            .chain(self.feature_bias.iter())
            .chain(self.output_weights.iter());
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        for b in self.output_bias.iter() {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a net file of format 2, 3 or 4, refusing anything that is not a whole net this
    /// engine runs.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() >= 4 && bytes[0..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let Header {
            arch,
            format,
            scale,
            length: header,
        } = read_header(bytes)?;
        let expected = file_bytes(&arch, header);
        if bytes.len() != expected {
            return Err(NetError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let (body, tail) = bytes.split_at(expected - CHECKSUM_BYTES);
        if fnv1a(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err(NetError::Checksum);
        }
        let mut net = Network::zeroed(arch);
        net.format = format;
        net.scale = scale;
        let biases_at = body.len() - 4 * arch.buckets;
        let mut values = body[header..biases_at]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        for v in net
            .feature_weights
            .iter_mut()
            .chain(net.feature_bias.iter_mut())
            .chain(net.output_weights.iter_mut())
        {
            *v = values.next().expect("length checked");
        }
        for (b, c) in net
            .output_bias
            .iter_mut()
            .zip(body[biases_at..].chunks_exact(4))
        {
            *b = i32::from_le_bytes(c.try_into().expect("4 bytes"));
        }
        if arch.activation == Activation::SCReLU
            && let Some(&w) = net
                .output_weights
                .iter()
                .find(|w| w.unsigned_abs() > SCRELU_MAX_WEIGHT as u16)
        {
            return Err(NetError::OutputWeight(w));
        }
        Ok(net)
    }

    /// Reads the net file at `path` (see [`Network::from_bytes`]): its header first, which
    /// fixes the file's length, and the rest only when the file has that length. A path
    /// that is not a regular file is refused before it is opened. The message says what is
    /// wrong, not which file.
    pub fn read_file(path: &Path) -> Result<Network, String> {
        let cannot_read = |e: io::Error| format!("cannot read it: {e}");
        let (mut file, len) =
            crate::input_file::open(path, u64::MAX, "a net file").map_err(cannot_read)?;
        let mut bytes = Vec::new();
        (&mut file)
            .take(HEADER_BYTES_V4 as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot_read)?;
        if bytes.len() >= 4 && bytes[0..4] != MAGIC {
            return Err(NetError::Magic.to_string());
        }
        let header = read_header(&bytes).map_err(|e| e.to_string())?;
        let expected = file_bytes(&header.arch, header.length);
        if len != expected as u64 {
            return Err(NetError::Length {
                found: usize::try_from(len).unwrap_or(usize::MAX),
                expected,
            }
            .to_string());
        }
        // No more than the header gives, should the file grow meanwhile.
        file.take((expected - bytes.len()) as u64)
            .read_to_end(&mut bytes)
            .map_err(cannot_read)?;
        Network::from_bytes(&bytes).map_err(|e| e.to_string())
    }

    /// The checksum its file carries.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(
            bytes[bytes.len() - CHECKSUM_BYTES..]
                .try_into()
                .expect("8 bytes"),
        )
    }
}

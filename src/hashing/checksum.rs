//! FNV-1a 64, the checksum that guards the files Rookery writes (nets, training
//! checkpoints) and fingerprints a training run.
//!
//! ```
//! use rookery::hashing::checksum::{FNV_OFFSET, fnv1a, fnv1a_continue};
//! // The published FNV-1a 64 test vector of "a".
//! assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
//! assert_eq!(fnv1a_continue(fnv1a(b"ab"), b"c"), fnv1a(b"abc"));
//! assert_eq!(fnv1a(b""), FNV_OFFSET);
//! ```

/// The FNV-1a starting value.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_continue(FNV_OFFSET, bytes)
}

/// FNV-1a 64 of `bytes` continued from the hash of what came before them.
pub fn fnv1a_continue(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

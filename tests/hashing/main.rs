//! Keys and tables: the chess key against the reference hash, key quality, the key
//! tables and the lock-free table.

#[path = "../common/mod.rs"]
mod common;

mod consistency;
mod keys;
mod quality;
mod table;

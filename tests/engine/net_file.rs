//! The net file: format 3 (one king bucket) and format 4 (king buckets) round trips for
//! every architecture, format 2 (gen3) and format 3 (the built-in net) read and written back
//! unchanged, and every damaged, cut or foreign file refused.

use std::path::Path;

use crate::common::random_net;
use crate::common::uci_client::{Engine, WAIT};
use rookery::engine::eval::nnue::architecture::SCRELU_MAX_WEIGHT;
use rookery::engine::eval::nnue::evaluate_position;
use rookery::engine::eval::nnue::format::{HEADER_BYTES_V2, HEADER_BYTES_V3, HEADER_BYTES_V4};
use rookery::engine::eval::nnue::{
    Activation, Architecture, DEFAULT_NET_BYTES, INPUTS, NetError, Network, default_network,
};
use rookery::hashing::checksum::fnv1a;
use shakmaty::Chess;

/// Every combination of the trainer's flags, at two hidden sizes.
fn architectures() -> Vec<Architecture> {
    [16, 256]
        .into_iter()
        .flat_map(Architecture::every_kind)
        .collect()
}

/// `bytes` with its checksum made right again: a file that only its header can refuse.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let sum = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Positions to compare evaluations on.
fn positions() -> Vec<Chess> {
    [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "2k5/8/8/8/8/8/8/5QK1 b - - 0 1",
    ]
    .iter()
    .map(|fen| {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    })
    .collect()
}

#[test]
fn formats_3_and_4_round_trip_for_every_architecture() {
    for (seed, arch) in architectures().into_iter().enumerate() {
        let net = random_net(arch, seed as u64);
        let bytes = net.to_bytes();
        let (h, b, k) = (arch.hidden, arch.buckets, arch.king_buckets);
        // One king bucket: format 3, which builds from before king buckets read; more:
        // format 4, with the count after the king mirror flag.
        let (format, header) = if k == 1 {
            (3u32, HEADER_BYTES_V3)
        } else {
            (4, HEADER_BYTES_V4)
        };
        assert_eq!(
            bytes.len(),
            header + 2 * (k * INPUTS * h + h + b * 2 * h) + 4 * b + 8,
            "{arch}"
        );
        assert_eq!(&bytes[4..8], &format.to_le_bytes());
        if k > 1 {
            assert_eq!(&bytes[40..44], &(k as u32).to_le_bytes());
        }
        let back = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert_eq!(back.architecture(), &arch);
        assert_eq!(back.format(), format);
        assert_eq!(back.to_bytes(), bytes, "{arch}");
        assert_eq!(back.checksum(), net.checksum());
        for pos in positions() {
            assert_eq!(
                evaluate_position(&back, &pos),
                evaluate_position(&net, &pos),
                "{arch}"
            );
        }
    }
    // The header tells the architectures apart: no two files of them are alike.
    let headers: std::collections::HashSet<Vec<u8>> = architectures()
        .into_iter()
        .map(|arch| Network::zeroed(arch).to_bytes()[..HEADER_BYTES_V4].to_vec())
        .collect();
    assert_eq!(headers.len(), architectures().len());
}

/// `net`'s weights under a format 4 header of one king bucket.
fn in_format_4(net: &Network) -> Vec<u8> {
    let bytes = net.to_bytes();
    assert_eq!(net.format(), 3);
    let mut v4 = bytes[..HEADER_BYTES_V3].to_vec();
    v4[4..8].copy_from_slice(&4u32.to_le_bytes());
    v4.extend_from_slice(&1u32.to_le_bytes());
    v4.extend_from_slice(&bytes[HEADER_BYTES_V3..]);
    resealed(v4)
}

#[test]
fn a_format_4_file_of_one_king_bucket_loads_and_is_written_back_in_format_4() {
    let net = random_net(Architecture::default(), 3);
    let v4 = in_format_4(&net);
    let back = Network::from_bytes(&v4).unwrap();
    assert_eq!(back.format(), 4);
    assert_eq!(back.architecture(), net.architecture());
    assert_eq!(back.to_bytes(), v4);
    assert_eq!(back.feature_weights(), net.feature_weights());
}

#[test]
fn format_4_refuses_king_buckets_it_has_no_layout_for() {
    let arch = Architecture {
        hidden: 16,
        activation: Activation::SCReLU,
        buckets: 8,
        king_mirror: true,
        king_buckets: 4,
    };
    let bytes = random_net(arch, 9).to_bytes();
    assert!(Network::from_bytes(&bytes).is_ok());
    let field = |offset: usize, value: u32| {
        let mut other = bytes.clone();
        other[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        Network::from_bytes(&resealed(other))
    };
    // Counts without a layout.
    for king_buckets in [0, 2, 3, 16, u32::MAX] {
        let refused = field(40, king_buckets);
        assert!(
            matches!(&refused, Err(NetError::Architecture(what)) if what.contains("king buckets")),
            "{king_buckets} king buckets: {refused:?}"
        );
    }
    // King buckets without king mirroring are a shape of their own.
    let unmirrored = field(36, 0).unwrap();
    assert!(!unmirrored.architecture().king_mirror);
    assert_eq!(unmirrored.architecture().king_buckets, 4);
    // One king bucket in a format 4 file of this length: the length is wrong.
    assert!(matches!(field(40, 1), Err(NetError::Length { .. })));
}

#[test]
fn format_3_refusals() {
    let arch = Architecture {
        hidden: 32,
        activation: Activation::SCReLU,
        buckets: 8,
        king_mirror: true,
        king_buckets: 1,
    };
    let bytes = random_net(arch, 7).to_bytes();
    // Cut anywhere, or with a byte after it.
    for cut in [
        0,
        3,
        7,
        8,
        20,
        HEADER_BYTES_V3 - 1,
        HEADER_BYTES_V3,
        1000,
        bytes.len() - 1,
    ] {
        let refused = Network::from_bytes(&bytes[..cut]);
        assert!(
            matches!(refused, Err(NetError::Length { .. })),
            "cut at {cut}: {refused:?}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Length { .. })
    ));
    // Unknown versions.
    for version in [0u32, 1, 5, 0x0100_0003] {
        let mut other = bytes.clone();
        other[4..8].copy_from_slice(&version.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&resealed(other)).unwrap_err(),
            NetError::Version(version)
        );
    }
    // A flipped bit anywhere: in the header, a weight, a bias, the checksum.
    for at in [
        30,
        33,
        37,
        HEADER_BYTES_V3 + 5,
        bytes.len() - 20,
        bytes.len() - 1,
    ] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 1;
        assert!(
            Network::from_bytes(&damaged).is_err(),
            "bit flipped at {at}"
        );
    }
    let mut damaged = bytes.clone();
    damaged[HEADER_BYTES_V3 + 1000] ^= 4;
    assert_eq!(
        Network::from_bytes(&damaged).unwrap_err(),
        NetError::Checksum
    );
    // Headers this engine does not run, each sealed with a right checksum.
    let field = |offset: usize, value: u32| {
        let mut other = bytes.clone();
        other[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        Network::from_bytes(&resealed(other))
    };
    for (offset, value, what) in [
        (8, 769, "inputs"),
        (12, 100, "hidden size"),
        (12, 0, "hidden size"),
        (12, 2048, "hidden size"),
        (16, 256, "QA"),
        (20, 4096, "QB"),
        (24, 0, "scale"),
        (24, 15, "scale"),
        (24, 1025, "scale"),
        (28, 2, "activation"),
        (32, 0, "output buckets"),
        (32, 9, "output buckets"),
        (36, 2, "king mirror"),
    ] {
        let refused = field(offset, value);
        assert!(
            matches!(refused, Err(NetError::Architecture(_))),
            "{what} {value}: {refused:?}"
        );
    }
    // A scale other than the trainer's, within the range, is a net whose scores were scaled.
    assert_eq!(field(24, 400).unwrap().scale(), 400);
    assert_eq!(field(24, 16).unwrap().scale(), 16);
    // Another hidden size, bucket count or activation that the length does not match.
    assert!(matches!(field(12, 48), Err(NetError::Length { .. })));
    assert!(matches!(field(32, 4), Err(NetError::Length { .. })));
    // A SCReLU output weight beyond the kernel's bound.
    let mut net = random_net(arch, 8);
    net.output_weights_mut()[5] = SCRELU_MAX_WEIGHT + 1;
    assert_eq!(
        Network::from_bytes(&net.to_bytes()).unwrap_err(),
        NetError::OutputWeight(SCRELU_MAX_WEIGHT + 1)
    );
    net.output_weights_mut()[5] = -SCRELU_MAX_WEIGHT;
    assert!(Network::from_bytes(&net.to_bytes()).is_ok());
    // Not a net.
    assert_eq!(
        Network::from_bytes(b"\x7fELF rest").unwrap_err(),
        NetError::Magic
    );
}

/// gen3, the built-in net before gen4: the one net in format 2 (`tests/data/gen3.nnue`).
const GEN3_FORMAT_2: &[u8] = include_bytes!("../data/gen3.nnue");

/// gen3's checksum, kept since its file was written.
const GEN3_CHECKSUM: u64 = 0xd448_e24d_0dec_3867;

#[test]
fn format_2_refusals() {
    let bytes = GEN3_FORMAT_2.to_vec();
    assert_eq!(&bytes[4..8], &2u32.to_le_bytes());
    // Cut short, or with bytes after it.
    for cut in [10, HEADER_BYTES_V2 - 1, HEADER_BYTES_V2, bytes.len() - 1] {
        assert!(
            matches!(
                Network::from_bytes(&bytes[..cut]),
                Err(NetError::Length { .. })
            ),
            "cut at {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Length { .. })
    ));
    // Version 1 (QB 64, scale 400) is not read.
    let mut version = bytes.clone();
    version[4] = 1;
    assert_eq!(
        Network::from_bytes(&version).unwrap_err(),
        NetError::Version(1)
    );
    // Format 2 has one architecture: another hidden size in its header is refused.
    let mut hidden = bytes.clone();
    hidden[12..16].copy_from_slice(&128u32.to_le_bytes());
    let refused = Network::from_bytes(&resealed(hidden)).unwrap_err();
    assert!(
        matches!(&refused, NetError::Architecture(what) if what.contains("hidden 128")),
        "{refused:?}"
    );
    // One flipped bit in a weight.
    let mut damaged = bytes.clone();
    damaged[HEADER_BYTES_V2 + 1000] ^= 4;
    assert_eq!(
        Network::from_bytes(&damaged).unwrap_err(),
        NetError::Checksum
    );
    // A damaged file with its checksum recomputed is a valid (other) net: the checksum is
    // what catches damage.
    assert!(Network::from_bytes(&resealed(damaged)).is_ok());
}

/// The checksum of `nets/default.nnue`; a new default net changes it here.
const DEFAULT_NET_CHECKSUM: u64 = 0x40a4_401f_54ba_74f7;

#[test]
fn built_in_net_is_the_committed_file_in_format_3() {
    let net = Network::from_bytes(DEFAULT_NET_BYTES).expect("the built-in net loads");
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    assert_eq!(file, DEFAULT_NET_BYTES);
    assert_eq!(
        net.checksum(),
        DEFAULT_NET_CHECKSUM,
        "{:016x}",
        net.checksum()
    );
    assert_eq!(net.format(), 3);
    let built_in_shape = Architecture {
        hidden: 384,
        activation: Activation::SCReLU,
        ..Architecture::default()
    };
    assert_eq!(net.architecture(), &built_in_shape);
    // Written back byte for byte.
    assert_eq!(net.to_bytes(), file);
}

#[test]
fn gen3_in_format_2_loads_and_is_written_back_as_it_was() {
    let net = Network::from_bytes(GEN3_FORMAT_2).expect("gen3 loads");
    assert_eq!(net.checksum(), GEN3_CHECKSUM, "{:016x}", net.checksum());
    assert_eq!(net.format(), 2);
    assert_eq!(net.architecture(), &Architecture::default());
    assert_eq!(net.to_bytes(), GEN3_FORMAT_2);
}

#[test]
fn gen3_weights_in_format_3_evaluate_as_gen3_in_format_2() {
    let built_in = Network::from_bytes(GEN3_FORMAT_2).unwrap();
    let mut copy = Network::zeroed(Architecture::default());
    copy.feature_weights_mut()
        .copy_from_slice(built_in.feature_weights());
    copy.feature_bias_mut()
        .copy_from_slice(built_in.feature_bias());
    copy.output_weights_mut()
        .copy_from_slice(built_in.output_weights());
    copy.output_bias_mut()
        .copy_from_slice(built_in.output_bias());
    let bytes = copy.to_bytes();
    assert_eq!(&bytes[4..8], &3u32.to_le_bytes());
    // The same weights after another header: 12 bytes more, the same body.
    assert_eq!(bytes.len(), GEN3_FORMAT_2.len() + 12);
    assert_eq!(
        &bytes[HEADER_BYTES_V3..bytes.len() - 8],
        &GEN3_FORMAT_2[HEADER_BYTES_V2..GEN3_FORMAT_2.len() - 8]
    );
    let loaded = Network::from_bytes(&bytes).unwrap();
    for pos in positions() {
        assert_eq!(
            evaluate_position(&loaded, &pos),
            evaluate_position(&built_in, &pos)
        );
    }
}

#[test]
fn a_net_file_is_read_only_to_the_length_its_header_gives() {
    let dir = crate::common::scratch_dir("net-length");
    let path = dir.join("net.nnue");
    let bytes = default_network().to_bytes();
    std::fs::write(&path, &bytes).unwrap();
    let read = Network::read_file(&path).expect("a whole net reads");
    assert_eq!(read.checksum(), default_network().checksum());
    // The same header on 4 GiB (sparse): refused by its length, before the rest is read.
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let refusal = Network::read_file(&path).unwrap_err();
    assert_eq!(
        refusal,
        format!("{} bytes, its header needs {}", 4u64 << 30, bytes.len())
    );
    for path in [Path::new("/dev/zero"), dir.as_path()] {
        let refusal = Network::read_file(path).unwrap_err();
        assert!(refusal.contains("not a regular file"), "{refusal}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_refused_eval_file_leaves_the_loaded_net_evaluating() {
    // gen3 loaded, then a cut file refused: the engine still evaluates with gen3, as its
    // own `eval` shows against the library's evaluation of each net.
    let gen3 = Network::from_bytes(GEN3_FORMAT_2).unwrap();
    let pos: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let with_gen3 = evaluate_position(&gen3, &pos);
    assert_ne!(with_gen3, evaluate_position(&default_network(), &pos));
    let cut =
        crate::common::scratch_file("cut-net.nnue", &GEN3_FORMAT_2[..GEN3_FORMAT_2.len() / 2]);
    let mut e = Engine::start();
    e.send("setoption name Use NNUE value true");
    let evaluation = |e: &mut Engine| {
        e.send("position startpos moves e2e4");
        e.send("eval");
        let lines = e.until(WAIT, |l| l.starts_with("Final evaluation"));
        crate::common::nnue_evaluation(lines.iter().map(String::as_str))
            .unwrap_or_else(|| panic!("no NNUE evaluation in {lines:?}"))
    };
    let gen3_path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gen3.nnue");
    e.send(&format!("setoption name EvalFile value {gen3_path}"));
    assert_eq!(evaluation(&mut e), with_gen3, "gen3 loaded");
    e.send(&format!("setoption name EvalFile value {}", cut.display()));
    assert_eq!(
        evaluation(&mut e),
        with_gen3,
        "after the cut file was refused"
    );
    std::fs::remove_file(&cut).unwrap();
}

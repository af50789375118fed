//! Natural move limit (RULES.md §4): the counting core on hand-made facts, profiles and
//! settings, the constructed sample games of `pgn-samples/claim_*.pgn`, and real records.

mod limit_samples;

use limit_samples::{Want, generate, pgn, read_sample, samples};

#[test]
#[ignore = "writes pgn-samples/claim_*.pgn; run by hand to regenerate"]
fn write_claim_samples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples");
    std::fs::create_dir_all(&dir).unwrap();
    for s in samples() {
        let moves = generate(&s);
        let text = pgn(&s, &moves);
        std::fs::write(dir.join(s.file), &text).unwrap();
        let (_, back) = read_sample(&text);
        assert_eq!(back, moves);
        let plies = |w: Want| -> Vec<usize> {
            s.script
                .iter()
                .enumerate()
                .filter(|(_, x)| **x == w)
                .map(|(i, _)| i + 1)
                .collect()
        };
        println!(
            "{}: {} plies, checks {:?}, chases {:?}",
            s.file,
            moves.len(),
            plies(Want::Check),
            plies(Want::Chase)
        );
    }
}

use xiangqi_arbiter::rules::limit::{
    self, ClaimOptions, ClaimPosition, CountingMode, Ending, LimitError, LimitProfile,
    LimitSettings, NatureKind, PlyFact, Verdict, VoidReason,
};
use xiangqi_arbiter::rules::{Profile, classify_line};
use xiangqi_arbiter::{Color, Position};

fn sample_text(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("pgn-samples")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn sample_natures_are_what_the_construction_says() {
    for s in samples() {
        let (start, moves) = read_sample(&sample_text(s.file));
        assert_eq!(moves.len(), s.script.len(), "{}", s.file);
        let natures = classify_line(&start, &moves, &Profile::cxa());
        let mut pos = start;
        for (i, (&m, n)) in moves.iter().zip(&natures).enumerate() {
            let after = pos.after(m);
            let expected = s.script[i].nature();
            let got = serde_json::to_value(n.kind).unwrap();
            assert_eq!(
                got.as_str().unwrap(),
                expected,
                "{} ply {} {m}: engine {:?}, construction {expected} (position {})",
                s.file,
                i + 1,
                n,
                pos.fen()
            );
            assert_eq!(limit_samples::constructed_nature(&pos, m, &after), expected);
            pos = after;
        }
    }
}

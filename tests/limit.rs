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

//! `xqa adjudicate` end to end: a record read by path, the natural move limit section, --at.

mod common;
use common::xqa;

#[test]
fn natural_limit_section_for_both_claimants() {
    let (code, out, err) = xqa(&[
        "adjudicate",
        "pgn-samples/claim_rapid.pgn",
        "--limit-profile",
        "rapid",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "none");
    let nl = &v["natural_limit"];
    assert_eq!(nl["profile"], "rapid");
    assert_eq!(nl["at_ply"], 102);
    for side in ["red", "black"] {
        assert_eq!(nl[side]["required"], 50, "{side}");
        assert_eq!(nl[side]["valid"], true, "{side}");
        assert_eq!(nl[side]["needed"], 0, "{side}");
    }
    assert_eq!(nl["red"]["void"], 1);
    assert_eq!(nl["red"]["checks"], 9);
}

#[test]
fn natural_limit_at_an_earlier_ply_and_text() {
    let (code, out, _) = xqa(&[
        "adjudicate",
        "pgn-samples/claim_rapid.pgn",
        "--at",
        "10",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["natural_limit"]["at_ply"], 10);
    assert_eq!(v["natural_limit"]["red"]["valid"], false);
    assert_eq!(v["natural_limit"]["red"]["required"], 60);
    let (code, out, _) = xqa(&[
        "adjudicate",
        "pgn-samples/claim_rapid.pgn",
        "--limit-profile",
        "rapid",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("natural move limit (rapid) at ply 102 (move 51)")
            && out.contains("自然限着（快棋）：第51回合（第102步）后："),
        "{out}"
    );
    assert!(out.contains("提和成立"), "{out}");
}

#[test]
fn bad_requests_are_refused_with_the_right_exit_code() {
    // Out-of-range plies and games are usage errors (exit 2) naming the valid range.
    let (code, _, err) = xqa(&["adjudicate", "pgn-samples/claim_rapid.pgn", "--at", "999"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("it takes 0 to 102"), "{err}");
    let (code, _, err) = xqa(&["adjudicate", "pgn-samples/claim_rapid.pgn", "--game", "7"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("game 7: no such game: the file holds 1 game"),
        "{err}"
    );
    let (code, _, _) = xqa(&[
        "adjudicate",
        "pgn-samples/claim_rapid.pgn",
        "--limit-profile",
        "blitz",
    ]);
    assert_eq!(code, 2);
    let (code, _, err) = xqa(&["adjudicate", "/nonexistent/file.pgn"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_tournament_overlay_is_off_unless_asked_for() {
    // Both horses out and back: a drawn cycle within the first 25 moves.
    let args = ["adjudicate", "--moves", "b0c2 b9c7 c2b0 c7b9", "--json"];
    let (code, out, err) = xqa(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "draw");
    let mut with = args.to_vec();
    with.push("--overlay");
    let (code, out, err) = xqa(&with);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "red_must_vary");
    assert!(
        v["cycles"][0]["reason_en"]
            .as_str()
            .unwrap()
            .contains("tournament overlay"),
        "{out}"
    );
}

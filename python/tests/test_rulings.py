"""adjudicate, claim and screen against `xqa adjudicate|claim|screen --json`."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import xiangqi_arbiter as xa
from conftest import (
    REPO,
    SAMPLE_FILES,
    SAMPLES,
    cli_json,
    cli_json_lines,
    error_fields,
    renamed,
    run_cli,
)

# The README's repetition example (a horse chasing a rook back and forth).
CHASE_FEN = "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w"
CHASE_MOVES = "h6i4 i9h9 i4h6 h9i9 h6i4 i9h9 i4h6 h9i9"


def cli_or_error(*args):
    """The CLI's JSON object (a broken record's report has its ``error``), or ("error", the
    error document ``{"schema","code","error"}``, the message) when it refuses the input."""
    r = run_cli(*args, "--json", check_codes=(0, 1, 2))
    doc = json.loads(r.stdout)
    if r.returncode != 0 and "code" in doc:
        assert doc["code"] == r.returncode
        return ("error", doc, r.stderr.strip().removeprefix("xqa: "))
    return doc


def keywords(message):
    """The CLI's message as the package words it: its flags named as keywords (``--at 999`` is
    ``at=999``, ``--game takes 1`` is ``game takes 1``)."""
    return re.sub(
        r"--([a-z-]+)(?: (?!takes\b)(\w+))?",
        lambda m: m.group(1).replace("-", "_") + (f"={m.group(2)}" if m.group(2) else ""),
        message,
    )


def assert_raises_as_cli(want, call):
    """`call` raises the error of the CLI's error document `want` (from cli_or_error), by the
    package's rule: a usage error is a ValueError (a ply past the end of the game: RecordError
    ``no_such_ply``), anything else a RecordError with the CLI's fields."""
    _, doc, message = want
    with pytest.raises(ValueError) as e:
        call()
    if doc["error"]["kind"] == "usage" and "past the end of the game" in message:
        assert isinstance(e.value, xa.RecordError) and e.value.kind == "no_such_ply"
    elif doc["error"]["kind"] == "usage":
        assert not isinstance(e.value, xa.RecordError)
    else:
        assert isinstance(e.value, xa.RecordError)
        assert error_fields(e.value) == {**doc["error"], "message": keywords(doc["error"]["message"])}
    assert str(e.value) == keywords(message)
    assert "--" not in str(e.value)


def games_of(sample: Path) -> int:
    return len(xa.validate(str(sample)))


@pytest.mark.parametrize("rules", ["cxa", "axf"])
def test_adjudicate_equals_cli_on_every_sample(sample, rules):
    for number in range(1, games_of(sample) + 1):
        want = cli_or_error("adjudicate", sample, "--game", number, "--rules", rules)
        if isinstance(want, tuple):
            assert_raises_as_cli(want, lambda: xa.adjudicate(str(sample), game=number, rules=rules))
        else:
            assert xa.adjudicate(str(sample), game=number, rules=rules) == want
            got = xa.adjudicate(sample.read_bytes(), game=number, rules=rules)
            assert renamed(got, "<bytes>", str(sample)) == want


@pytest.mark.parametrize("at", [0, 7, 40])
def test_adjudicate_at_and_limit_profile_equal_cli(at):
    sample = SAMPLES / "claim_rapid.pgn"
    for profile in ("slow", "rapid", "amateur40"):
        want = cli_json("adjudicate", sample, "--at", at, "--limit-profile", profile)
        assert xa.adjudicate(sample, at=at, limit_profile=profile) == want


def test_adjudicate_fen_and_moves_equal_cli():
    want = cli_json("adjudicate", "--fen", CHASE_FEN, "--moves", CHASE_MOVES)
    assert xa.adjudicate(fen=CHASE_FEN, moves=CHASE_MOVES) == want
    assert xa.adjudicate(fen=CHASE_FEN, moves=CHASE_MOVES.split()) == want
    # The same moves in Chinese notation, as a list.
    pos, chinese = xa.Position(CHASE_FEN), []
    for m in CHASE_MOVES.split():
        chinese.append(pos.move_text(m))
        pos.play(m)
    assert xa.adjudicate(fen=CHASE_FEN, moves=chinese) == want
    assert want["cycles"] and want["verdict"] != "none"


def test_adjudicate_from_the_start_equals_cli():
    moves = "1. h2e2 h9g7 2. h0g2 i9h9"
    assert xa.adjudicate(moves=moves) == cli_json("adjudicate", "--moves", moves)
    assert xa.adjudicate() == cli_json("adjudicate", "--moves", "")


def test_adjudicate_settings_equal_cli(tmp_path):
    settings = {"ruling_occurrence": 2}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(settings))
    sample = SAMPLES / "wxf-fullwidth.pgn"
    want = cli_json("adjudicate", sample, "--settings", path)
    assert xa.adjudicate(sample, settings=path) == want
    assert xa.adjudicate(sample, settings=settings) == want


@pytest.mark.parametrize("claimant", ["red", "black"])
@pytest.mark.parametrize("profile", ["slow", "rapid", "amateur40"])
def test_claim_equals_cli_on_every_sample(sample, claimant, profile):
    for number in range(1, games_of(sample) + 1):
        args = ("claim", sample, "--game", number, "--claimant", claimant, "--profile", profile)
        want = cli_or_error(*args)
        if isinstance(want, tuple):
            assert_raises_as_cli(
                want,
                lambda: xa.claim(str(sample), game=number, claimant=claimant, profile=profile),
            )
        else:
            got = xa.claim(str(sample), game=number, claimant=claimant, profile=profile)
            assert got == want


def test_claim_options_equal_cli():
    sample = SAMPLES / "claim_slow_checks_void.pgn"
    cases = [
        ({"at": 80}, ["--at", "80"]),
        ({"limit": 30, "attack_cap": None, "check_cap": 0}, ["--limit", "30", "--attack-cap", "none", "--check-cap", "0"]),
        ({"from_claim": 20}, ["--from-claim", "20"]),
        ({"rules": "axf", "profile": "rapid"}, ["--rules", "axf", "--profile", "rapid"]),
    ]
    for kwargs, flags in cases:
        want = cli_json("claim", sample, "--claimant", "red", *flags)
        assert xa.claim(sample, claimant="red", **kwargs) == want, kwargs


def test_claim_fen_and_moves_equal_cli():
    want = cli_json("claim", "--fen", CHASE_FEN, "--moves", CHASE_MOVES, "--claimant", "black")
    assert xa.claim(fen=CHASE_FEN, moves=CHASE_MOVES, claimant="black") == want


def test_claim_settings_equal_cli(tmp_path):
    settings = {"base": "slow", "moves": 40, "check_cap": 0}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(settings))
    sample = SAMPLES / "claim_amateur40_refused.pgn"
    want = cli_json("claim", sample, "--claimant", "red", "--settings", path)
    assert xa.claim(sample, claimant="red", settings=settings) == want


EVENT = REPO / "events" / "2020-national-individual.json"


@pytest.mark.parametrize("time_control", [None, "rapid"])
def test_adjudicate_event_equals_cli(time_control):
    tc_flags = ["--time-control", time_control] if time_control else []
    event_dict = json.loads(EVENT.read_text(encoding="utf-8"))
    for name in ("claim_rapid.pgn", "wxf-fullwidth.pgn", "claim_slow_checks_void.pgn"):
        sample = SAMPLES / name
        want = cli_json("adjudicate", sample, "--event", EVENT, *tc_flags)
        assert xa.adjudicate(sample, event=EVENT, time_control=time_control) == want
        assert xa.adjudicate(sample, event=str(EVENT), time_control=time_control) == want
        assert xa.adjudicate(sample, event=event_dict, time_control=time_control) == want
    want = cli_json("adjudicate", "--fen", CHASE_FEN, "--moves", CHASE_MOVES, "--event", EVENT, *tc_flags)
    got = xa.adjudicate(fen=CHASE_FEN, moves=CHASE_MOVES, event=EVENT, time_control=time_control)
    assert got == want
    # An explicit limit profile still wins over the event's time control.
    sample = SAMPLES / "claim_rapid.pgn"
    want = cli_json("adjudicate", sample, "--event", EVENT, *tc_flags, "--limit-profile", "amateur40")
    got = xa.adjudicate(sample, event=EVENT, time_control=time_control, limit_profile="amateur40")
    assert got == want


def test_adjudicate_overlay_equals_cli():
    for sample in SAMPLE_FILES:
        for number in range(1, games_of(sample) + 1):
            want = cli_or_error("adjudicate", sample, "--game", number, "--overlay")
            if isinstance(want, tuple):
                assert_raises_as_cli(want, lambda: xa.adjudicate(sample, game=number, overlay=True))
            else:
                assert xa.adjudicate(sample, game=number, overlay=True) == want


@pytest.mark.parametrize("time_control", [None, "rapid"])
@pytest.mark.parametrize("claimant", ["red", "black"])
def test_claim_event_equals_cli(sample, claimant, time_control):
    tc_flags = ["--time-control", time_control] if time_control else []
    for number in range(1, games_of(sample) + 1):
        args = ("claim", sample, "--game", number, "--claimant", claimant, "--event", EVENT, *tc_flags)
        want = cli_or_error(*args)
        kwargs = dict(game=number, claimant=claimant, event=EVENT, time_control=time_control)
        if isinstance(want, tuple):
            assert_raises_as_cli(want, lambda: xa.claim(sample, **kwargs))
        else:
            assert xa.claim(sample, **kwargs) == want


def test_claim_event_with_custom_values_equals_cli():
    sample = SAMPLES / "claim_slow_checks_void.pgn"
    want = cli_json(
        "claim", sample, "--claimant", "red", "--event", EVENT, "--time-control", "rapid",
        "--limit", "30", "--check-cap", "none", "--at", "80",
    )
    got = xa.claim(
        sample, claimant="red", event=EVENT, time_control="rapid", limit=30, check_cap=None, at=80
    )
    assert got == want


def test_claim_rule_settings_equal_cli(tmp_path):
    settings = {"ruling_occurrence": 2}
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(settings))
    sample = SAMPLES / "claim_rapid.pgn"
    want = cli_json("claim", sample, "--claimant", "black", "--rule-settings", path)
    assert xa.claim(sample, claimant="black", rule_settings=path) == want
    assert xa.claim(sample, claimant="black", rule_settings=settings) == want


@pytest.mark.parametrize("time_control", [None, "rapid"])
def test_screen_event_equals_cli(time_control):
    tc_flags = ["--time-control", time_control] if time_control else []
    want = cli_json_lines("screen", "--all", "--event", EVENT, *tc_flags, SAMPLES)
    assert list(xa.screen(SAMPLES, all=True, event=EVENT, time_control=time_control)) == want
    want = cli_json_lines("screen", "--draws", "--overlay", SAMPLES)
    assert list(xa.screen(SAMPLES, draws=True, overlay=True)) == want


def test_bad_event_files(tmp_path):
    # A file that cannot be read is a RecordError of kind io naming it, an event file as a record.
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(moves="h2e2", event=tmp_path / "missing.json")
    assert (e.value.kind, e.value.source) == ("io", str(tmp_path / "missing.json"))
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(tmp_path / "missing.pgn")
    assert (e.value.kind, e.value.source) == ("io", str(tmp_path / "missing.pgn"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run_cli("adjudicate", "--moves", "h2e2", "--event", bad, "--json")
    assert r.returncode == 1
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(moves="h2e2", event=bad)
    assert str(e.value) == r.stderr.strip().removeprefix("xqa: ")
    r = run_cli("adjudicate", "--moves", "h2e2", "--event", EVENT, "--time-control", "bullet", check_codes=(2,))
    with pytest.raises(ValueError) as e:
        xa.adjudicate(moves="h2e2", event=EVENT, time_control="bullet")
    assert str(e.value) == r.stderr.strip().removeprefix("xqa: ")


def test_screen_equals_cli():
    assert list(xa.screen(str(SAMPLES))) == cli_json_lines("screen", SAMPLES)
    assert list(xa.screen(SAMPLES, all=True)) == cli_json_lines("screen", "--all", SAMPLES)
    assert list(xa.screen([SAMPLES], draws=True, rules="axf")) == cli_json_lines(
        "screen", "--draws", "--rules", "axf", SAMPLES
    )
    for profile in ("slow", "rapid", "amateur40"):
        assert list(xa.screen(SAMPLES, limit_profile=profile, threads=1)) == cli_json_lines(
            "screen", "--limit-profile", profile, SAMPLES
        )


def test_screen_every_sample_and_bytes(sample):
    want = cli_json_lines("screen", "--all", sample)
    assert list(xa.screen(sample, all=True)) == want
    # The same record given as bytes: the same reports, named <bytes>.
    from_bytes = json.dumps(list(xa.screen(sample.read_bytes(), all=True)), ensure_ascii=False)
    assert json.loads(from_bytes.replace('"<bytes>', json.dumps(str(sample))[:-1])) == want


def test_screen_finds_the_cycles():
    reports = list(xa.screen(SAMPLES))
    must_vary = [
        c
        for r in reports
        for c in r.get("cycles", [])  # (a file that is no game record has none)
        if c["verdict"] in ("red_must_vary", "black_must_vary")
    ]
    assert must_vary and all(c["moves_chinese"] for c in must_vary)


def test_screen_missing_file_equals_cli():
    missing = SAMPLES / "missing.pgn"
    assert list(xa.screen(missing)) == cli_json_lines("screen", missing, check_codes=(2,))


def test_screen_stops_early():
    it = xa.screen([SAMPLES] * 20, all=True)
    first = next(it)
    while "header" not in first:  # the samples' README is no game record
        assert first["not_a_record"]
        first = next(it)
    assert first["header"]["source"]["game"] == 1
    it.close()
    with pytest.raises(StopIteration):
        next(it)


def test_adjudicate_from_8_threads():
    jobs = [(s, n) for s in SAMPLE_FILES for n in range(1, games_of(s) + 1)]
    jobs = [(s, n) for s, n in jobs if xa.validate(str(s))[n - 1]["ok"]] * 3

    def run(job):
        s, n = job
        return xa.adjudicate(str(s), game=n)

    serial = [run(j) for j in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(run, jobs))
    assert parallel == serial
    assert len(jobs) >= 8 * 3


def test_errors_by_kind_and_location():
    bad = SAMPLES / "illegal-move-chinese.pgn"
    [game] = xa.read_games(bad)
    err = game.error
    assert (err.kind, err.line, err.column, err.ply, err.move_text) == (
        "no_piece", 12, 4, 11, "车一进三")
    assert err.source == str(bad) and err.game == 1
    assert err.suggestions == ["车二进三"]
    # The rulings on the broken record go as far as its legal part, and carry its error.
    for report in (xa.adjudicate(bad), xa.claim(bad, claimant="red")):
        assert report["error"] == error_fields(err)
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(SAMPLES / "sample.xqf", game=3)
    assert e.value.kind == "no_such_game" and e.value.game == 3
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(SAMPLES / "missing.pgn")
    assert e.value.kind == "io"
    with pytest.raises(xa.MoveError) as e:
        xa.adjudicate(moves="h2e2 h9g7 h0g2 h9h0")
    assert (e.value.ply, e.value.move_text) == (4, "h9h0")
    with pytest.raises(xa.MoveError) as e:
        xa.claim(moves=["炮二平五", "马８进７", "车一退一"], claimant="red")
    assert (e.value.ply, e.value.kind, e.value.suggestions[0]) == (3, "illegal_movement", "车一进一")
    with pytest.raises(xa.PositionError) as e:
        xa.adjudicate(fen="9/9/9", moves="")
    assert e.value.kind == "rank_count"


def test_errors_equal_the_cli_messages():
    sample = SAMPLES / "claim_rapid.pgn"
    # A ply past the end is a usage error of the CLI (exit 2): a RecordError no_such_ply,
    # naming the keyword.
    want = cli_or_error("claim", sample, "--claimant", "red", "--at", "999")
    assert want[1]["code"] == 2
    assert_raises_as_cli(want, lambda: xa.claim(sample, claimant="red", at=999))
    # A broken record is ruled on as far as its legal part goes, as the CLI does (exit 1).
    bad = SAMPLES / "illegal-move-chinese.pgn"
    r = run_cli("adjudicate", bad, "--json")
    assert r.returncode == 1
    got = xa.adjudicate(bad)
    assert got == json.loads(r.stdout) and got["error"]["kind"] == "no_piece"


def test_bad_option_values():
    with pytest.raises(ValueError, match="unknown rules"):
        xa.adjudicate(moves="h2e2", rules="fide")
    with pytest.raises(ValueError, match="limit profile"):
        xa.adjudicate(moves="h2e2", limit_profile="blitz")
    with pytest.raises(ValueError, match="not a side"):
        xa.claim(moves="h2e2", claimant="green")
    with pytest.raises(ValueError, match="not both"):
        xa.adjudicate(SAMPLES / "sample.xqf", moves="h2e2")
    with pytest.raises(ValueError, match="unknown rules"):
        xa.screen(SAMPLES, rules="fide")
    with pytest.raises(ValueError, match="threads"):
        xa.screen(SAMPLES, threads=100000)
    # As the CLI: --time-control requires --event, and --profile conflicts with it.
    for call in (
        lambda: xa.adjudicate(moves="h2e2", time_control="rapid"),
        lambda: xa.claim(moves="h2e2", claimant="red", time_control="rapid"),
        lambda: xa.screen(SAMPLES, time_control="rapid"),
    ):
        with pytest.raises(ValueError, match="needs event="):
            call()
    run_cli("adjudicate", "--moves", "h2e2", "--time-control", "rapid", check_codes=(2,))
    with pytest.raises(ValueError, match="cannot be used with event="):
        xa.claim(moves="h2e2", claimant="red", profile="slow", event=EVENT)
    run_cli("claim", "--moves", "h2e2", "--claimant", "red", "--profile", "slow", "--event", EVENT,
            check_codes=(2,))
    # The event names its rules: rules= and settings= with it are refused as the CLI refuses
    # --rules and --settings (the default rules are not "given").
    for call, cli in (
        (lambda: xa.adjudicate(moves="h2e2", rules="axf", event=EVENT),
         ("adjudicate", "--moves", "h2e2", "--rules", "axf", "--event", EVENT)),
        (lambda: xa.claim(moves="h2e2", claimant="red", rules="cxa", event=EVENT),
         ("claim", "--moves", "h2e2", "--claimant", "red", "--rules", "cxa", "--event", EVENT)),
        (lambda: xa.screen(SAMPLES, rules="axf", event=EVENT),
         ("screen", str(SAMPLES), "--rules", "axf", "--event", EVENT)),
        (lambda: xa.adjudicate(moves="h2e2", settings={"name": "x"}, event=EVENT), None),
    ):
        with pytest.raises(ValueError, match="cannot be used with event="):
            call()
        if cli:
            run_cli(*cli, check_codes=(2,))
    assert xa.adjudicate(moves="h2e2", event=EVENT)["event"] is not None


def test_readme_example(capsys, monkeypatch):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Python package") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "must vary" in out and "loop:" in out
    assert "车一进三" in out  # the broken sample's error

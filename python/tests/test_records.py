"""read_games, validate and convert against `xqa validate --json` and `xqa convert`."""

from __future__ import annotations

import pytest

import xiangqi_arbiter as xa
from conftest import SAMPLE_FILES, SAMPLES, cli_json_lines, run_cli


def test_validate_equals_cli_on_every_sample(sample):
    assert xa.validate(str(sample)) == cli_json_lines("validate", sample)


def test_validate_a_directory_equals_cli():
    got = xa.validate(str(SAMPLES))
    assert got == cli_json_lines("validate", SAMPLES)
    # (The directory's README is reported as a line that is not a record, as the CLI does.)
    games = [g for g in got if "not_a_record" not in g]
    assert len(got) - len(games) == 1
    assert len(games) == sum(len(xa.validate(str(p))) for p in SAMPLE_FILES)


def test_validate_takes_pathlike_and_lists(sample):
    want = cli_json_lines("validate", sample, sample)
    assert xa.validate([sample, str(sample)]) == want
    assert xa.validate(sample) == want[: len(want) // 2]


def test_validate_missing_file_equals_cli():
    missing = SAMPLES / "no-such-file.pgn"
    got = xa.validate(str(missing))
    assert got == cli_json_lines("validate", missing, check_codes=(2,))
    assert got[0]["error"]["kind"] == "io"


def with_file(report, name):
    """The report as if its game came from the file `name` (the header and the error name it)."""
    header = {**report["header"], "source": {**report["header"]["source"], "file": name}}
    out = {**report, "header": header}
    if report.get("error"):
        out["error"] = {**report["error"], "file": name}
    return out


def test_validate_bytes_and_text_equal_the_file(sample):
    want = xa.validate(str(sample))
    data = sample.read_bytes()
    got = xa.validate(data)
    for w, g in zip(want, got, strict=True):
        assert g["header"]["source"]["file"] == "<bytes>"
        assert with_file(g, w["header"]["source"]["file"]) == w
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if "\0" in text:
        return
    for w, g in zip(want, xa.validate(text), strict=True):
        assert g["header"]["source"]["file"] == "<string>"
        assert with_file(g, w["header"]["source"]["file"]) == w


def test_games_agree_with_validate(sample):
    reports = xa.validate(str(sample))
    games = list(xa.read_games(str(sample)))
    assert len(games) == len(reports)
    for game, report in zip(games, reports):
        assert game.source == report["header"]["source"]["file"]
        assert game.number == report["header"]["source"]["game"]
        assert game.format == report["format"]
        assert game.notation == report["notation"]
        assert game.plies == report["plies"] == len(game.moves) == len(game.iccs())
        assert game.result == report["header"]["result"]
        assert game.ok == report["ok"] == (game.error is None)
        assert game.report() == report
        if game.error is not None:
            e, want = game.error, report["error"]
            assert isinstance(e, xa.RecordError)
            assert (e.kind, e.message, e.ply, e.move_text, e.suggestions) == (
                want["kind"],
                want["message"],
                want["ply"],
                want["move_text"],
                want["suggestions"],
            )
            assert (e.line, e.column, e.offset) == (want["line"], want["column"], want["offset"])
            assert (e.source, e.game) == (want["file"], want["game"])
            assert e.source == game.source and e.game == game.number
        assert [w.kind for w in game.warnings] == [
            w["kind"] for w in report.get("warnings", [])
        ]


def test_game_moves_in_every_notation_replay(sample):
    for game in xa.read_games(str(sample)):
        lines = [(game.iccs(), None), (game.chinese(), None), (game.wxf(), None)]
        if game.format != "dhtmlxq":  # DhtmlXQ writes moves as four digits of squares
            # The record's own text, read in its notation (WinBoard's SAN numbers ranks 0-9,
            # which a guess cannot tell from pychess.org's 1-10).
            lines.append((game.moves, game.notation))
        for line, notation in lines:
            pos = xa.Position(game.start_fen)
            for m in line:
                pos.play(m, notation)
            assert pos == game.position()
        if game.plies:
            assert game.position(0).fen() == game.start_fen


def test_game_tags_in_record_order():
    game = next(iter(xa.read_games(str(SAMPLES / "annotated-iccs.pgn"))))
    assert list(game.tags)[:3] == ["Game", "Event", "Site"]
    assert game.tags["Red"] == "Red player"
    assert game.result == "1-0"


def test_broken_record_error_location():
    # pgn-samples/README.md: move 11 车一进三 has no chariot on file 一 any more.
    [game] = xa.read_games(str(SAMPLES / "illegal-move-chinese.pgn"))
    e = game.error
    assert (e.kind, e.line, e.column, e.ply, e.move_text) == ("no_piece", 12, 4, 11, "车一进三")
    assert e.suggestions == ["车二进三"]
    assert e.file == e.source == str(SAMPLES / "illegal-move-chinese.pgn")
    assert game.plies == 10  # the moves before the error are kept
    assert "车一进三" in str(e) and ":12:4" in str(e)
    with pytest.raises(xa.RecordError) as raised:
        game.write()
    assert raised.value.kind == "no_piece" and raised.value.line == 12


def test_broken_record_error_repairs_equal_the_cli():
    # The score-sheet repairs of the error, as `xqa validate --json` gives them: 车一进三 was
    # 车二进三, and with it the rest of the game replays.
    [game] = xa.read_games(str(SAMPLES / "illegal-move-chinese.pgn"))
    e = game.error
    [cli] = cli_json_lines("validate", SAMPLES / "illegal-move-chinese.pgn")
    assert e.repairs == cli["error"]["repairs"]
    assert e.repairs_cut_short == cli["error"].get("repairs_cut_short", False)
    best = e.repairs[0]
    assert best["replays_to_end"] is True
    assert best["edits"] == [
        {"op": "replace", "ply": 11, "iccs": "h0h3", "text": "车二进三", "ply2": None}
    ]
    assert e.to_dict()["repairs"] == e.repairs


def test_binary_record_error_has_offset():
    data = (SAMPLES / "sample.xqf").read_bytes()
    [game] = xa.read_games(data[:700])
    assert game.error is not None and game.error.kind == "truncated"
    assert game.error.line is None and game.error.offset is not None


def test_missing_file_raises_io():
    with pytest.raises(xa.RecordError) as e:
        list(xa.read_games(str(SAMPLES / "nope.pgn")))
    assert e.value.kind == "io"
    assert e.value.source == str(SAMPLES / "nope.pgn")


def test_bad_source_type():
    with pytest.raises(TypeError):
        xa.validate(42)


def test_text_source():
    # Record text holds a line break (a str without one is a path).
    [game] = xa.read_games("1. h2e2 h9g7 2. h0g2 i9h9 *\n")
    assert game.chinese() == ["炮二平五", "马８进７", "马二进三", "车９平８"]
    assert game.ok and game.result == "*"
    [bad] = xa.read_games("1. h2e2 h9g7 2. h0g2 h9h0 *\n")
    assert bad.error.ply == 4 and bad.error.move_text == "h9h0"
    assert (bad.error.line, bad.error.column) == (1, 22)


def test_read_games_can_stop_early():
    it = xa.read_games([str(SAMPLES)] * 50)
    first = [next(it) for _ in range(3)]
    assert [g.number for g in first] == [1, 1, 1]
    it.close()
    with pytest.raises(StopIteration):
        next(it)


def _all_valid(sample):
    return all(r["ok"] or r["error"]["kind"] == "no_moves" for r in xa.validate(str(sample)))


@pytest.mark.parametrize("to", ["chinese", "wxf", "iccs"])
def test_convert_equals_cli(sample, to):
    cli = run_cli("convert", "--to", to, sample)
    if _all_valid(sample):
        assert cli.returncode == 0
        assert xa.convert(str(sample), to=to) == cli.stdout
    else:
        assert cli.returncode == 1
        with pytest.raises(xa.RecordError):
            xa.convert(str(sample), to=to)


def test_convert_dhtmlxq_equals_cli(sample):
    cli = run_cli("convert", "--format", "dhtmlxq", sample)
    if _all_valid(sample):
        assert xa.convert(str(sample), format="dhtmlxq") == cli.stdout


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({"to": "san"}, ["--to", "san"]),
        ({"to": "san", "rank_base": "0"}, ["--to", "san", "--rank-base", "0"]),
        ({"to": "san_winboard"}, ["--to", "san_winboard"]),
        ({"format": "wxf"}, ["--format", "wxf"]),
    ],
)
def test_convert_san_and_wxf_equal_cli(sample, kwargs, flags):
    cli = run_cli("convert", *flags, sample)
    if _all_valid(sample):
        assert cli.returncode == 0
        assert xa.convert(str(sample), **kwargs) == cli.stdout
        games = list(xa.read_games(str(sample)))
        assert "".join(g.write(**kwargs) for g in games) == cli.stdout
        again = list(xa.read_games(cli.stdout))
        assert [g.iccs() for g in again] == [g.iccs() for g in games]
    else:
        with pytest.raises(xa.RecordError):
            xa.convert(str(sample), **kwargs)


def test_convert_raises_on_invalid_game():
    with pytest.raises(xa.RecordError) as e:
        xa.convert(str(SAMPLES / "illegal-move-chinese.pgn"))
    assert (e.value.kind, e.value.ply) == ("no_piece", 11)


def test_convert_round_trips(sample):
    if not _all_valid(sample):
        return
    games = list(xa.read_games(str(sample)))
    for to in ("chinese", "wxf", "iccs"):
        again = list(xa.read_games(xa.convert(str(sample), to=to)))
        assert [g.iccs() for g in again] == [g.iccs() for g in games]
        assert [g.result for g in again] == [g.result for g in games]


def test_convert_bad_arguments():
    with pytest.raises(ValueError):
        xa.convert(str(SAMPLES / "sample.xqf"), to="klingon")
    with pytest.raises(ValueError):
        xa.convert(str(SAMPLES / "sample.xqf"), format="epd")
    with pytest.raises(ValueError, match="rank_base"):
        xa.convert(str(SAMPLES / "sample.xqf"), to="san", rank_base="2")
    with pytest.raises(ValueError, match="rank_base"):
        xa.convert(str(SAMPLES / "sample.xqf"), to="iccs", rank_base="0")

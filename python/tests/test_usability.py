"""What a data scientist trips on (issue 23): one test per item, each of which failed on the
package before the fix."""

from __future__ import annotations

import ast
import inspect
import pickle
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import xiangqi_arbiter as xa
from conftest import REPO, SAMPLE_FILES, SAMPLES, cli_json_lines, run_cli


def run_python(code: str, timeout: float, cwd=None) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter of this environment."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


# 1. A mistyped path is read as record text.
def test_a_mistyped_path_is_an_io_error_naming_it(tmp_path):
    for path in ("/data/gamez", str(tmp_path / "gamez"), "games/2024 final"):
        with pytest.raises(xa.RecordError) as e:
            list(xa.read_games(path))
        assert (e.value.kind, e.value.source) == ("io", path)
        assert "no such file" in str(e.value)
        with pytest.raises(xa.RecordError) as e:
            xa.adjudicate(path)
        assert (e.value.kind, e.value.source) == ("io", path)
        [report] = xa.validate(path)
        assert report["error"]["kind"] == "io" and report["error"]["file"] == path
    # Record text holds a line break; bytes are always a record.
    assert [g.iccs() for g in xa.read_games("1. h2e2 h9g7 *\n")] == [["h2e2", "h9g7"]]
    assert [g.iccs() for g in xa.read_games(b"1. h2e2 h9g7 *")] == [["h2e2", "h9g7"]]


# 2. Files that are no game record are yielded as games.
def test_files_that_hold_no_record_are_skipped_and_said():
    cli = cli_json_lines("validate", SAMPLES)
    said = [r for r in cli if "not_a_record" in r]
    games = [r for r in cli if "header" in r]
    assert said and games
    skipped = []
    got = list(xa.read_games(SAMPLES, skipped=skipped))
    assert len(got) == len(games)
    assert [(g.source, g.number) for g in got] == [
        (r["header"]["source"]["file"], r["header"]["source"]["game"]) for r in games
    ]
    assert skipped == said
    assert all(g.source.endswith("README.md") is False for g in got)
    with pytest.raises(TypeError):
        xa.read_games(SAMPLES, skipped="no")


# 3. convert(folder) stops at the README.
def test_convert_a_folder_skips_what_is_no_record(tmp_path):
    for name in ("README.md", "sample.xqf", "claim_rapid.pgn", "annotated.wxf"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    (tmp_path / "manifest.jsonl").write_text('{"file": "sample.xqf"}\n', encoding="utf-8")
    for to in ("iccs", "chinese"):
        cli = run_cli("convert", "--to", to, tmp_path)
        assert cli.returncode == 0 and "not a game record, skipped" in cli.stderr
        assert xa.convert(tmp_path, to=to) == cli.stdout
    # A source named directly that is no record is still an error.
    with pytest.raises(xa.RecordError) as e:
        xa.convert(tmp_path / "README.md")
    assert e.value.kind == "unknown_format"


# 4. ScreenIter.summary is in the .pyi but not in the package; the stub against the objects.
def _stub_classes():
    stub = Path(xa.__file__).with_suffix(".pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def test_the_stub_matches_the_objects_at_run_time():
    checked = 0
    for name, node in _stub_classes().items():
        cls = getattr(xa, name)
        for item in node.body:
            # Attributes (`summary: ...`) and methods, properties included.
            if isinstance(item, ast.AnnAssign):
                attr = item.target.id
                # (The exceptions' fields are set by their __init__.)
                where = cls("x") if issubclass(cls, Exception) else cls
                assert hasattr(where, attr), f"{name}.{attr}"
                checked += 1
            elif isinstance(item, ast.FunctionDef) and item.name not in ("__init__",):
                assert hasattr(cls, item.name), f"{name}.{item.name}"
                checked += 1
                real = getattr(cls, item.name)
                try:
                    sig = inspect.signature(real)
                except (TypeError, ValueError):
                    continue
                want = [a.arg for a in item.args.args + item.args.kwonlyargs]
                # (Slots such as __eq__ have the interpreter's own parameter names.)
                if isinstance(real, property) or item.name.startswith("__") or want[:1] != ["self"]:
                    continue
                got = list(sig.parameters)
                # (Methods of compiled classes may or may not list `self`.)
                assert got in (want, want[1:]), f"{name}.{item.name}: {got} != {want}"
    assert checked > 40
    it = xa.screen(SAMPLES, all=True)
    assert it.summary is None
    reports = list(it)
    summary = it.summary
    games = [r for r in reports if "header" in r]
    assert summary["games"] == len(games)
    assert summary["not_records"] == len(reports) - len(games)
    assert summary["plies"] == sum(r["plies"] for r in games)
    assert summary["incidents"] == sum(len(r["cycles"]) for r in games)


# 5. Ctrl-C is ignored until validate or perft finishes.
@pytest.mark.parametrize(
    "call",
    [
        f"xa.validate([{str(SAMPLES)!r}] * 20000)",
        "xa.Position().perft(8)",
        "xa.Position().perft(8, threads=1)",
        f"list(xa.read_games([{str(SAMPLES)!r}] * 20000))",
        f"list(xa.screen([{str(SAMPLES)!r}] * 20000, all=True))",
    ],
)
def test_ctrl_c_stops_long_calls(call):
    code = f"""
        import _thread, threading, time
        import xiangqi_arbiter as xa
        threading.Timer(0.5, _thread.interrupt_main).start()
        start = time.perf_counter()
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after", time.perf_counter() - start)
    """
    # Without a check for signals these calls run for minutes: killed by the timeout.
    r = run_python(code, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("interrupted after"), r.stdout
    assert float(r.stdout.split()[-1]) < 10


# 6. Negative numbers raise OverflowError without the parameter's name; messages name flags.
@pytest.mark.parametrize(
    "keyword,call",
    [
        ("game", lambda: xa.adjudicate(SAMPLES / "sample.xqf", game=-1)),
        ("game", lambda: xa.adjudicate(SAMPLES / "sample.xqf", game=0)),
        ("at", lambda: xa.adjudicate(SAMPLES / "sample.xqf", at=-5)),
        ("at", lambda: xa.claim(SAMPLES / "sample.xqf", claimant="red", at=-5)),
        ("limit", lambda: xa.claim(SAMPLES / "sample.xqf", claimant="red", limit=-1)),
        ("check_cap", lambda: xa.claim(SAMPLES / "sample.xqf", claimant="red", check_cap=-1)),
        ("from_claim", lambda: xa.claim(SAMPLES / "sample.xqf", claimant="red", from_claim=-2)),
        ("threads", lambda: xa.validate(SAMPLES, threads=-1)),
        ("threads", lambda: xa.screen(SAMPLES, threads=-1)),
        ("threads", lambda: xa.Position().perft(2, threads=-1)),
        ("depth", lambda: xa.Position().perft(-1)),
        ("ply", lambda: next(iter(xa.read_games(SAMPLES / "sample.xqf"))).position(-1)),
        ("game", lambda: xa.adjudicate(SAMPLES / "sample.xqf", game=2**70)),
    ],
)
def test_bad_numbers_are_value_errors_naming_the_keyword(keyword, call):
    with pytest.raises(ValueError) as e:
        call()
    assert not isinstance(e.value, (OverflowError, xa.RecordError))
    assert str(e.value).startswith(f"{keyword}="), str(e.value)


def test_messages_name_keywords_not_flags():
    sample = SAMPLES / "claim_rapid.pgn"
    with pytest.raises(xa.RecordError) as e:
        xa.claim(sample, claimant="red", at=999)
    assert str(e.value).startswith("at=999 is past the end of the game")
    with pytest.raises(xa.RecordError) as e:
        xa.claim(sample, claimant="red", from_claim=999)
    assert str(e.value).startswith("from_claim=999 is past")
    game = next(iter(xa.read_games(sample)))
    with pytest.raises(xa.RecordError) as e:
        game.position(game.plies + 1)
    assert e.value.kind == "no_such_ply" and str(e.value).startswith(f"ply={game.plies + 1} is past")
    with pytest.raises(xa.RecordError) as e:
        xa.adjudicate(sample, game=5)
    assert e.value.kind == "no_such_game" and "(game takes 1)" in str(e.value)
    with pytest.raises(ValueError) as e:
        xa.convert(sample, to="iccs", rank_base="0")
    assert "--" not in str(e.value) and "to=san" in str(e.value)


# 7. Error types differ for the same mistake.
def test_one_rule_for_error_types(tmp_path):
    wrong_names = [
        lambda: xa.claim(moves="h2e2", claimant="red", profile="blitz"),
        lambda: xa.adjudicate(moves="h2e2", limit_profile="zz"),
        lambda: xa.adjudicate(moves="h2e2", rules="zz"),
        lambda: xa.screen(SAMPLES, limit_profile="zz"),
        lambda: xa.convert(SAMPLES / "sample.xqf", to="zz"),
        lambda: xa.Position().legal_moves("zz"),
    ]
    for call in wrong_names:
        with pytest.raises(ValueError) as e:
            call()
        assert not isinstance(e.value, xa.RecordError), e.value
    missing = tmp_path / "missing.json"
    unreadable = [
        lambda: xa.adjudicate(tmp_path / "missing.pgn"),
        lambda: xa.claim(tmp_path / "missing.pgn", claimant="red"),
        lambda: list(xa.read_games(tmp_path / "missing.pgn")),
        lambda: xa.adjudicate(moves="h2e2", event=missing),
        lambda: xa.adjudicate(moves="h2e2", settings=missing),
        lambda: xa.claim(moves="h2e2", claimant="red", settings=missing),
    ]
    for call in unreadable:
        with pytest.raises(xa.RecordError) as e:
            call()
        assert e.value.kind == "io" and e.value.source.startswith(str(tmp_path))


# 8. Game and Position cannot be pickled; Position is not hashable; adjudicate(game).
def test_games_and_positions_pickle_hash_and_rule(tmp_path):
    for sample in SAMPLE_FILES:
        for game in xa.read_games(sample):
            again = pickle.loads(pickle.dumps(game))
            assert type(again) is xa.Game
            for attr in ("source", "number", "format", "notation", "tags", "result",
                         "start_fen", "moves", "plies", "ok"):
                assert getattr(again, attr) == getattr(game, attr), (sample, attr)
            assert again.iccs() == game.iccs() and again.chinese() == game.chinese()
            assert again.report() == game.report()
            assert [w.to_dict() for w in again.warnings] == [w.to_dict() for w in game.warnings]
            if game.ok:
                for to in ("chinese", "wxf"):
                    assert again.write(to) == game.write(to)
                assert again.write(format="dhtmlxq") == game.write(format="dhtmlxq")
            else:
                assert again.error.to_dict() == game.error.to_dict()
            assert again.position() == game.position()
    with pytest.raises(ValueError, match="not a pickled Game"):
        xa._native._game_from_state(b"\x09")
    p = xa.Position()
    p.play("h2e2")
    q = pickle.loads(pickle.dumps(p))
    assert q == p and hash(q) == hash(p) and q.fen() == p.fen()
    assert len({xa.Position(), xa.Position(), p, q}) == 2
    assert {p: 1}[xa.Position(p.fen())] == 1
    # adjudicate and claim take a Game: the ruling on that game of its file.
    sample = max(SAMPLE_FILES, key=lambda p: len(xa.validate(p)))  # the most games
    for number, game in enumerate(xa.read_games(sample), start=1):
        assert xa.adjudicate(game) == xa.adjudicate(sample, game=number)
        assert xa.claim(game, claimant="black") == xa.claim(sample, game=number, claimant="black")
    # A game read from memory, ruled on from its own record.
    [game] = xa.read_games((SAMPLES / "claim_rapid.pgn").read_bytes())
    got = xa.adjudicate(game)
    want = xa.adjudicate((SAMPLES / "claim_rapid.pgn").read_bytes())
    assert got["moves"] == want["moves"] and got["cycles"] == want["cycles"]
    assert got["header"]["source"]["file"] == "<bytes>"


# 9. The package cannot be imported from its own folder.
def test_the_package_imports_from_its_own_folder():
    r = run_python(
        "import xiangqi_arbiter as xa; print(xa.__file__); print(xa.Position().fen())",
        timeout=60,
        cwd=REPO / "python",
    )
    assert r.returncode == 0, r.stderr
    where, fen = r.stdout.splitlines()
    assert Path(where).resolve() == Path(xa.__file__).resolve()
    assert fen.startswith("rnbakabnr/")
    # The source folder next to tests/ holds no package that could shadow the installed one.
    assert not (REPO / "python" / "xiangqi_arbiter").exists()


# 10. list(read_games(...)) takes about 18 KB a game.
def test_games_are_small():
    code = f"""
        import gc
        import xiangqi_arbiter as xa

        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * 4096

        sources = [{str(SAMPLES)!r}] * 200
        sum(1 for _ in xa.read_games(sources))   # warm up the reader's threads and buffers
        gc.collect()
        before = rss()
        games = list(xa.read_games(sources))
        gc.collect()
        plies = sum(g.plies for g in games)
        print(len(games), plies, rss() - before)
    """
    r = run_python(code, timeout=300)
    assert r.returncode == 0, r.stderr
    games, plies, grown = map(int, r.stdout.split())
    assert games >= 200 * 20
    # On the package before the fix: about 150 bytes a ply and 18 KB a real game. Packed: the
    # record's own text of the moves, their places, the tags and two bytes a move.
    assert grown / plies < 60, (grown / games, grown / plies)


# 11. Sharing one iterator between threads raises "Already mutably borrowed".
@pytest.mark.parametrize("kind", ["read_games", "screen"])
def test_one_iterator_shared_by_threads(kind):
    sources = [str(SAMPLES)] * 30
    make = (lambda: xa.read_games(sources)) if kind == "read_games" else (
        lambda: xa.screen(sources, all=True)
    )
    key = (lambda g: (g.source, g.number, g.plies)) if kind == "read_games" else (
        lambda r: repr(sorted(r.items()))
    )
    serial = sorted(map(key, make()))
    shared = make()
    got, errors = [], []

    def consume():
        try:
            for item in shared:
                got.append(key(item))
        except Exception as e:  # noqa: BLE001 - the test reports any
            errors.append(e)

    threads = [threading.Thread(target=consume) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(got) == serial


# 12. bench.py needs the CLI; the README names a machine path; the first pytest run builds.
def test_bench_runs_without_the_cli_and_the_tests_build_nothing(tmp_path, monkeypatch):
    r = subprocess.run(
        [sys.executable, str(REPO / "python" / "bench.py"), "--runs", "1", "--xqa",
         str(tmp_path / "no-xqa"), str(SAMPLES / "sample.xqf")],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "python read_games" in r.stdout and "no CLI" in r.stdout
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "/work/" not in readme
    import conftest

    def no_build(*args, **kwargs):
        raise AssertionError(f"the tests started {args}")

    monkeypatch.setattr(subprocess, "run", no_build)
    with pytest.raises(conftest.MissingCli, match="cargo build --release --bin xqa"):
        conftest.xqa_path({}, tmp_path)
    assert conftest.xqa_path({"XQA": str(conftest.XQA)}, tmp_path) == conftest.XQA


# 13. A JSON-lines file is read as a PGN game, in the CLI too.
def test_json_lines_is_no_game_record(tmp_path):
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(
        '{"file": "xqf/a.XQF", "tags": {"Red": "x"}, "ref_iccs": "h2e2 h9g7"}\n'
        '{"file": "pgn/b.pgn", "plies": 33}\n',
        encoding="utf-8",
    )
    want = [{"schema": 1, "source": str(manifest), "not_a_record": "not a game record in any known format"}]
    assert cli_json_lines("validate", manifest) == want
    assert xa.validate(manifest) == want
    skipped = []
    assert list(xa.read_games(manifest, skipped=skipped)) == [] and skipped == want
    assert list(xa.screen(manifest)) == cli_json_lines("screen", manifest)
    # The same as bytes, and a JSON array.
    assert list(xa.read_games(manifest.read_bytes())) == []
    assert list(xa.read_games(b'[{"file": "a.pgn"}]')) == []
    # PGN that opens with a comment is still PGN.
    [game] = xa.read_games(b"{A game} 1. h2e2 h9g7 *")
    assert game.ok

"""Position against `xqa moves --json` and the known perft values."""

from __future__ import annotations

import copy
import threading
import time

import pytest

import xiangqi_arbiter as xa
from conftest import cli_json

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# A middle game with checks and captures about (from tests/data of the repository: a position
# of the perft suite).
MIDDLE = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
FENS = [START, MIDDLE, "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"]


def test_start():
    p = xa.Position()
    assert p.fen() == START
    assert p.turn == "red"
    assert len(p.legal_moves()) == 44
    assert not p.is_check() and not p.is_checkmate() and not p.is_game_over()
    assert repr(p) == f"Position('{START}')"
    assert "楚河" in str(p)


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("notation", ["iccs", "wxf", "chinese"])
def test_legal_moves_equal_cli(fen, notation):
    want = cli_json("moves", "--fen", fen, "--notation", notation)
    p = xa.Position(fen)
    assert p.fen() == want["fen"]
    assert p.legal_moves(notation) == [m["text"] for m in want["moves"]]
    assert p.legal_moves() == [m["iccs"] for m in want["moves"]]


def test_play_in_every_notation():
    for move in ("h2e2", "H2-E2", "C2.5", "炮二平五"):
        p = xa.Position()
        assert p.play(move) == "h2e2"
        assert p.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
        assert p.turn == "black"
    p = xa.Position()
    assert p.play("C2.5", notation="wxf") == "h2e2"
    assert p.move_text("h9g7") == "马８进７"
    assert p.move_text("马８进７", notation="wxf") == "H8+7"


def test_play_rejects_and_keeps_the_position():
    p = xa.Position()
    with pytest.raises(xa.MoveError) as e:
        p.play("马八平七")
    assert e.value.kind == "illegal_movement"
    assert e.value.move_text == "马八平七"
    assert isinstance(e.value, xa.RecordError) and isinstance(e.value, ValueError)
    assert p.fen() == START
    with pytest.raises(xa.MoveError) as e:
        p.play("e3e5")
    assert e.value.kind == "illegal_movement"
    with pytest.raises(xa.MoveError) as e:
        p.play("hello")
    assert e.value.kind == "syntax"
    with pytest.raises(xa.MoveError) as e:
        p.play("车一退一")
    assert e.value.suggestions[0] == "车一进一"
    with pytest.raises(ValueError):
        p.play("h2e2", notation="morse")


def test_check_mate_and_stalemate():
    p = xa.Position("3akab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")
    assert not p.is_check()
    p.play("a1e1")
    assert p.is_check() and not p.is_checkmate() and not p.is_game_over()
    mate = xa.Position("3k5/9/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert mate.is_check() and mate.is_checkmate() and mate.is_game_over()
    assert mate.legal_moves() == []
    stalemate = xa.Position("4k4/3R1R3/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert not stalemate.is_check() and stalemate.is_stalemate() and stalemate.is_game_over()
    assert not stalemate.is_checkmate()


def test_bad_fen():
    with pytest.raises(xa.PositionError) as e:
        xa.Position("rnbakabnr/9/9")
    assert e.value.kind == "rank_count"
    with pytest.raises(xa.PositionError) as e:
        xa.Position("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert e.value.kind == "kings_facing"
    assert "kings" in e.value.message


def test_copy_and_eq():
    p = xa.Position()
    q = p.copy()
    q.play("h2e2")
    assert p != q and p.fen() == START
    assert copy.deepcopy(q) == q and copy.copy(q) == q
    assert xa.Position(q.fen()) == q


@pytest.mark.parametrize("threads", [0, 1, 2])
def test_perft(threads):
    p = xa.Position()
    assert [p.perft(d, threads=threads) for d in range(4)] == [1, 44, 1920, 79666]


def test_perft_equals_cli():
    want = cli_json("perft", "3", "--fen", MIDDLE)
    assert xa.Position(MIDDLE).perft(3) == want["nodes"]


def test_perft_too_deep():
    with pytest.raises(ValueError):
        xa.Position().perft(99)


def test_perft_releases_the_gil():
    # While a perft runs, another Python thread keeps running.
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    nodes = xa.Position().perft(5, threads=1)
    elapsed = time.perf_counter() - start
    done.set()
    t.join()
    assert nodes == 133312995
    # A thread held off by the GIL would tick about once per switch interval at best; here it
    # runs freely (generous bound: a tenth of the possible ticks).
    assert elapsed < 0.2 or ticks > elapsed / 0.001 / 10

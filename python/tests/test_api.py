"""The package's surface: the .pyi stub matches the module, long calls release the GIL, errors
behave as Python exceptions should."""

from __future__ import annotations

import ast
import inspect
import pickle
import threading
import time
from pathlib import Path

import pytest

import xiangqi_arbiter as xa
from conftest import SAMPLES

STUB = Path(xa.__file__).with_suffix(".pyi")


def _stub_defs():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    return funcs, classes


def test_stub_is_installed_and_names_everything_exported():
    assert STUB.exists() and (STUB.parent / "py.typed").exists()
    funcs, classes = _stub_defs()
    for name in xa.__all__:
        assert name in funcs or name in classes, name
    for name in list(funcs) + list(classes):
        assert hasattr(xa, name), name


def test_stub_signatures_match_the_functions():
    funcs, _ = _stub_defs()
    for name, node in funcs.items():
        stub_params = [a.arg for a in node.args.args + node.args.kwonlyargs]
        real = list(inspect.signature(getattr(xa, name)).parameters)
        assert stub_params == real, name


def test_stub_methods_exist():
    _, classes = _stub_defs()
    for name, node in classes.items():
        cls = getattr(xa, name)
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                assert hasattr(cls, item.name), f"{name}.{item.name}"


def test_everything_has_a_docstring():
    for name in xa.__all__:
        assert (getattr(xa, name).__doc__ or "").strip(), name
    for cls in (xa.Position, xa.Game):
        for attr, value in vars(cls).items():
            if not attr.startswith("_") and callable(value) or isinstance(value, property):
                assert (value.__doc__ or "").strip(), f"{cls.__name__}.{attr}"


def _other_thread_runs_during(call):
    """Whether a pure-Python thread keeps running while `call` runs (the GIL is released)."""
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.01)
    start = time.perf_counter()
    call()
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start < x < end]
    return end - start, len(during)


@pytest.mark.parametrize(
    "name,call",
    [
        ("validate", lambda: xa.validate([SAMPLES] * 150)),
        ("screen", lambda: list(xa.screen([SAMPLES] * 30, all=True))),
        ("perft", lambda: xa.Position().perft(5)),
    ],
)
def test_long_calls_release_the_gil(name, call):
    elapsed, ticks = _other_thread_runs_during(call)
    # With the GIL held, the other thread could not run at all until the call returned.
    assert elapsed < 0.05 or ticks >= 5, (name, elapsed, ticks)


def test_record_error_is_a_value_error_and_pickles():
    [game] = xa.read_games(str(SAMPLES / "illegal-move-chinese.pgn"))
    e = game.error
    assert isinstance(e, ValueError)
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is xa.RecordError and again.to_dict() == e.to_dict()
    assert str(again) == str(e)
    assert "no_piece" in repr(e)
    m = xa.MoveError("x", kind="syntax", ply=3)
    assert pickle.loads(pickle.dumps(m)).ply == 3


def test_game_repr_and_write():
    game = next(iter(xa.read_games(str(SAMPLES / "sample.xqf"))))
    assert "sample.xqf" in repr(game) and "plies" in repr(game)
    pgn = game.write("wxf")
    assert '[Format "WXF"]' in pgn
    [back] = xa.read_games(pgn)
    assert back.iccs() == game.iccs()
    assert game.write(format="dhtmlxq").startswith("[DhtmlXQ]")
    with pytest.raises(ValueError):
        game.write("morse")

"""Past one machine: a folder screened with a Dask bag of files on Dask's local process
scheduler (spawned workers, so that every object crosses a process boundary pickled) gives what
the serial run gives; games themselves travel between the processes too.

The README's example ("Past one machine: Dask and Spark") does the same on a folder."""

from __future__ import annotations

import os

import pytest

import xiangqi_arbiter as xa
from conftest import SAMPLE_FILES, SAMPLES

dask = pytest.importorskip("dask", reason="Dask is installed by .ci/run in the test venv")
import dask.bag as db  # noqa: E402


def screen_file(path):
    return list(xa.screen(str(path), all=True, threads=1))


def games_of(path):
    return list(xa.read_games(str(path)))


def summary(game):
    return (game.source, game.number, game.ok, game.iccs(), game.tags, game.moves)


@pytest.fixture(scope="module")
def spawned():
    with dask.config.set({"multiprocessing.context": "spawn", "num_workers": 2}):
        yield


def test_a_dask_bag_of_files_screens_as_the_serial_run(spawned):
    files = [str(SAMPLES / "README.md"), *map(str, SAMPLE_FILES)]
    bag = db.from_sequence(files, npartitions=4)
    got = bag.map(screen_file).flatten().compute(scheduler="processes")
    assert got == list(xa.screen(files, all=True))
    assert any("not_a_record" in r for r in got) and len(got) > len(files)
    # (In other processes indeed.)
    pids = bag.map(lambda _: os.getpid()).compute(scheduler="processes")
    assert os.getpid() not in pids


def test_games_travel_between_processes(spawned):
    bag = db.from_sequence([str(p) for p in SAMPLE_FILES], npartitions=4)
    # The workers read the games and send them back pickled; they are used here.
    games = bag.map(games_of).flatten().compute(scheduler="processes")
    serial = list(xa.read_games(SAMPLE_FILES))
    assert [summary(g) for g in games] == [summary(g) for g in serial]
    assert [g.report() for g in games] == [g.report() for g in serial]
    # And Game objects go to the workers: each rules on the games it is given.
    valid = [g for g in serial if g.ok]
    rulings = db.from_sequence(valid, npartitions=4).map(xa.adjudicate).compute(scheduler="processes")
    assert rulings == [xa.adjudicate(g) for g in valid]
    positions = db.from_sequence([g.position() for g in valid], npartitions=2).map(
        lambda p: (p, len(p.legal_moves()))
    ).compute(scheduler="processes")
    assert positions == [(g.position(), len(g.position().legal_moves())) for g in valid]

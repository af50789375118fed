"""Damaged records: every call either answers or raises RecordError, never anything else (no
panic crosses into Python, no other exception type)."""

from __future__ import annotations

import random

import pytest

import xiangqi_arbiter as xa
from conftest import SAMPLE_FILES


def damaged(data: bytes, rng: random.Random, count: int):
    """Copies of `data` truncated, with bytes flipped, or with a slice repeated."""
    for i in range(count):
        b = bytearray(data)
        how = i % 3
        if how == 0 and len(b) > 1:
            del b[rng.randrange(1, len(b)) :]
        elif how == 1:
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        else:
            at = rng.randrange(len(b))
            b[at:at] = b[at : at + rng.randint(1, 64)]
        yield bytes(b)


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda p: p.name)
def test_damaged_records_raise_only_record_errors(sample):
    rng = random.Random(sample.name)
    for n, data in enumerate(damaged(sample.read_bytes(), rng, 30)):
        games = list(xa.read_games(data))
        # (Bytes that are no game record are said by validate and skipped by read_games.)
        reports = [r for r in xa.validate(data) if "not_a_record" not in r]
        assert len(games) == len(reports)
        for g, r in zip(games, reports):
            assert g.ok == r["ok"]
            g.iccs(), g.chinese(), g.wxf(), g.tags, g.warnings
            text = g.write("iccs") if g.ok else ""
            # (A PGN holding "[DhtmlXQ" in a tag is read as DhtmlXQ by the format detector.)
            if g.ok and "DhtmlXQ" not in text:
                [again] = xa.read_games(text)
                assert again.iccs() == g.iccs()
        list(xa.screen(data, all=True))
        if n % 5 == 0:
            try:
                xa.adjudicate(data)
                xa.claim(data, claimant="black")
            except xa.RecordError as e:
                assert e.kind and e.message


def test_garbage_text_moves_and_fens():
    rng = random.Random(7)
    alphabet = "abcdefghi0123456789-+.=KAEHRCPkaehrcp车马炮兵卒进退平前后一二三四五六七八九 /"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        for call in (
            lambda: xa.Position(text),
            lambda: xa.Position().play(text),
            lambda: xa.adjudicate(moves=text),
            lambda: xa.validate(text.encode()),
        ):
            try:
                call()
            except xa.RecordError:
                pass

"""`casebook`: a venue's case book, written by a running `xqa serve --db`, read by the package as
`xqa casebook --json` prints it; files that are not venue databases raise OSError and are left
untouched."""

from __future__ import annotations

import json
import subprocess
import urllib.request

import pytest

import xiangqi_arbiter as xa
from conftest import SAMPLES, xqa_path


def _serve(db):
    proc = subprocess.Popen(
        [str(xqa_path()), "serve", "--port", "0", "--db", str(db)],
        stderr=subprocess.PIPE,
        text=True,
    )
    first = proc.stderr.readline()
    port = first.strip().rstrip("/").rsplit(":", 1)[1]
    return proc, f"http://127.0.0.1:{port}"


def test_casebook_equals_the_cli_export(tmp_path):
    db = tmp_path / "event.sqlite"
    proc, url = _serve(db)
    try:
        record = (SAMPLES / "claim_slow_checks_void.pgn").read_bytes()
        query = "kind=claim&claimant=red&round=3&table=12&red=A&black=B&arbiter=%E6%9D%8E"
        req = urllib.request.Request(f"{url}/api/venue/rule?{query}", data=record, method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            entry = json.loads(r.read())["entry"]
        book = xa.casebook(db)
    finally:
        proc.kill()
        proc.wait()
    cli = subprocess.run(
        [str(xqa_path()), "casebook", str(db), "--json"], capture_output=True, check=True
    )
    assert book == json.loads(cli.stdout)
    assert [e["id"] for e in book["entries"]] == [entry["id"]]
    got = book["entries"][0]
    assert got["arbiter"] == "李"
    assert got["round"] == "3" and got["table"] == "12"
    assert got["ruling"]["schema"] == 1
    assert got["sheet"].lstrip().lower().startswith("<!doctype html")


def test_not_a_venue_database_raises_oserror_and_is_untouched(tmp_path):
    notes = tmp_path / "notes.sqlite"
    notes.write_bytes(b"round 3, table 12")
    with pytest.raises(OSError, match="left untouched"):
        xa.casebook(notes)
    assert notes.read_bytes() == b"round 3, table 12"
    with pytest.raises(OSError, match="missing"):
        xa.casebook(tmp_path / "none.sqlite")

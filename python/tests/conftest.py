"""Shared fixtures: the repository's `xqa` binary and its sample records.

Every report the package returns is checked against what the CLI prints with ``--json`` for the
same input, so the tests need the CLI: ``$XQA`` if set, else ``target/release/xqa`` of the
repository. Nothing is built here: when the binary is missing, the run stops at once and says
how to build it (``cargo build --release --bin xqa``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "pgn-samples"
# Every record of pgn-samples/ (the README is not a record).
SAMPLE_FILES = sorted(p for p in SAMPLES.iterdir() if p.is_file() and p.name != "README.md")


class MissingCli(Exception):
    """The ``xqa`` binary the tests compare with is not there."""


def xqa_path(environ=os.environ, repo: Path = REPO) -> Path:
    """The CLI the tests compare with: ``$XQA``, else the repository's release build. Raises
    MissingCli, saying how to build it, when it is not there (nothing is built here: a build
    takes minutes)."""
    exe = Path(environ.get("XQA") or repo / "target" / "release" / "xqa")
    if not exe.is_file():
        raise MissingCli(
            f"the tests compare the package with the CLI, and {exe} is missing: build it with "
            f"`cargo build --release --bin xqa` in {repo} (a few minutes), or set XQA to an xqa binary"
        )
    return exe


try:
    XQA = xqa_path()
except MissingCli as e:
    pytest.exit(str(e), returncode=4)


def run_cli(*args: str, check_codes=(0, 1)) -> subprocess.CompletedProcess:
    """Runs ``xqa`` with the arguments; fails the test on an unexpected exit code."""
    r = subprocess.run(
        [str(XQA), *map(str, args)], capture_output=True, text=True, timeout=600
    )
    assert r.returncode in check_codes, (args, r.returncode, r.stderr)
    return r


def cli_json(*args: str, check_codes=(0, 1)):
    """The one JSON object ``xqa ... --json`` prints."""
    return json.loads(run_cli(*args, "--json", check_codes=check_codes).stdout)


def cli_json_lines(*args: str, check_codes=(0, 1)) -> list:
    """The JSON lines ``xqa ... --json`` prints."""
    out = run_cli(*args, "--json", check_codes=check_codes).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def renamed(obj, old: str, new: str):
    """`obj` (a report) with every string equal to `old` (a source's name: the header's
    ``source.file``, an error object's ``file``) replaced by `new`."""
    if isinstance(obj, dict):
        return {k: renamed(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [renamed(v, old, new) for v in obj]
    return new if obj == old else obj


def error_fields(e) -> dict:
    """A RecordError's fields named as in the report schema's error object."""
    d = e.to_dict()
    d["file"] = d.pop("source")
    return d


@pytest.fixture(params=SAMPLE_FILES, ids=lambda p: p.name)
def sample(request) -> Path:
    """Each record of pgn-samples/ in turn."""
    return request.param

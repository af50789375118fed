"""Type stub of xiangqi_arbiter (the compiled part is xiangqi_arbiter._native)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Literal, Mapping, Optional, Union

__version__: str

PathLike = Union[str, "os.PathLike[str]"]
#: A path (str or os.PathLike; directories are walked), the record as bytes, or record text.
Source = Union[PathLike, bytes, bytearray]
Sources = Union[Source, Iterable[Source]]
Notation = Literal["iccs", "wxf", "chinese", "san", "san_winboard"]
#: The record formats `convert` writes.
Format = Literal["pgn", "dhtmlxq", "wxf"]
Rules = Literal["cxa", "axf"]
Settings = Union[PathLike, Mapping[str, Any]]
#: A list of moves (any notation), or ICCS text "h2e2 h9g7 ..." (move numbers skipped).
Moves = Union[str, Iterable[str]]

class RecordError(ValueError):
    """A record, a move or a position that cannot be read or played; attributes are the fields
    of the engine's error object."""

    kind: str
    message: str
    source: Optional[str]
    game: Optional[int]
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    ply: Optional[int]
    move_text: Optional[str]
    suggestions: list[str]
    def __init__(
        self,
        text: str,
        *,
        kind: str = ...,
        message: Optional[str] = ...,
        source: Optional[str] = ...,
        game: Optional[int] = ...,
        line: Optional[int] = ...,
        column: Optional[int] = ...,
        offset: Optional[int] = ...,
        ply: Optional[int] = ...,
        move_text: Optional[str] = ...,
        suggestions: Optional[list[str]] = ...,
    ) -> None: ...
    @property
    def file(self) -> Optional[str]: ...
    def to_dict(self) -> dict[str, Any]: ...

class MoveError(RecordError):
    """A move given as text that cannot be read or is not legal."""

class PositionError(RecordError):
    """A malformed FEN or an impossible position."""

class Position:
    """A Xiangqi position; ``Position()`` is the standard start."""

    def __init__(self, fen: Optional[str] = None) -> None: ...
    @property
    def turn(self) -> Literal["red", "black"]: ...
    def fen(self) -> str: ...
    def legal_moves(self, notation: Notation = "iccs") -> list[str]: ...
    def play(self, move: str, notation: Optional[Notation] = None) -> str: ...
    def move_text(self, move: str, notation: Notation = "chinese") -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_game_over(self) -> bool: ...
    def perft(self, depth: int, threads: int = 0) -> int: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

class Game:
    """One game of a record."""

    @property
    def source(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def format(self) -> Literal["pgn", "dhtmlxq", "xqf", "cbr", "cbl", "cbf"]: ...
    @property
    def notation(self) -> Optional[Notation]: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def result(self) -> Optional[Literal["1-0", "0-1", "1/2-1/2", "*"]]: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def plies(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    @property
    def error(self) -> Optional[RecordError]: ...
    @property
    def warnings(self) -> list[RecordError]: ...
    def iccs(self) -> list[str]: ...
    def chinese(self) -> list[str]: ...
    def wxf(self) -> list[str]: ...
    def position(self, ply: Optional[int] = None) -> Position: ...
    def write(
        self,
        to: Notation = "chinese",
        format: Format = "pgn",
        rank_base: Optional[Literal["0", "1"]] = None,
    ) -> str: ...
    def report(self) -> dict[str, Any]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

class GameIter(Iterator[Game]):
    def __iter__(self) -> GameIter: ...
    def __next__(self) -> Game: ...
    def close(self) -> None: ...

class ScreenIter(Iterator[dict[str, Any]]):
    #: The run's totals (the summary `xqa screen` prints) once the iterator is exhausted.
    summary: Optional[dict[str, Any]]
    def __iter__(self) -> ScreenIter: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None: ...

def read_games(source: Sources, *, skipped: Optional[list[dict[str, Any]]] = None) -> GameIter: ...
def validate(source: Sources, *, threads: int = 0) -> list[dict[str, Any]]: ...
def convert(
    source: Sources,
    to: Notation = "chinese",
    format: Format = "pgn",
    rank_base: Optional[Literal["0", "1"]] = None,
) -> str: ...
def adjudicate(
    source: Union[Source, Game, None] = None,
    *,
    game: int = 1,
    fen: Optional[str] = None,
    moves: Optional[Moves] = None,
    rules: Rules = "cxa",
    settings: Optional[Settings] = None,
    event: Optional[Settings] = None,
    time_control: Optional[str] = None,
    overlay: bool = False,
    at: Optional[int] = None,
    limit_profile: Optional[str] = None,
) -> dict[str, Any]: ...
def claim(
    source: Optional[Source] = None,
    *,
    claimant: Literal["red", "black"],
    game: int = 1,
    fen: Optional[str] = None,
    moves: Optional[Moves] = None,
    profile: Optional[str] = None,
    settings: Optional[Settings] = None,
    event: Optional[Settings] = None,
    time_control: Optional[str] = None,
    at: Optional[int] = None,
    limit: Optional[int] = None,
    attack_cap: Union[int, None, Literal["none"]] = ...,
    check_cap: Union[int, None, Literal["none"]] = ...,
    from_claim: Optional[int] = None,
    rules: Rules = "cxa",
    rule_settings: Optional[Settings] = None,
) -> dict[str, Any]: ...
def screen(
    sources: Sources,
    *,
    rules: Rules = "cxa",
    threads: int = 0,
    settings: Optional[Settings] = None,
    event: Optional[Settings] = None,
    time_control: Optional[str] = None,
    overlay: bool = False,
    draws: bool = False,
    all: bool = False,
    limit_profile: Optional[str] = None,
) -> ScreenIter: ...
def casebook(path: Union[str, "os.PathLike[str]"]) -> dict[str, Any]: ...

"""xiangqi_arbiter: read recorded Xiangqi (Chinese chess) games, check every move, rule on them.

A thin Python front end over the xiangqi-arbiter engine, the same library layer as the ``xqa``
command line: every report function returns exactly the objects of ``xqa ... --json``.

* :func:`read_games` streams :class:`Game` objects from any record (PGN in ICCS, WXF or Chinese
  notation, DhtmlXQ, XQF, CCBridge CBR/CBL/CBF; UTF-8, GBK or Big5).
* :func:`validate`, :func:`convert`, :func:`adjudicate`, :func:`claim`, :func:`screen` are
  ``xqa validate``, ``convert``, ``adjudicate``, ``claim`` and ``screen``.
* :func:`casebook` reads a venue's case book (``xqa serve --db``), as ``xqa casebook --json``.
* :class:`Position` is a board with its legal moves in any notation, and perft.

A *source* is a path (a ``str`` without a line break, or any ``os.PathLike``; directories are
walked recursively, and the files in them that hold no game record are skipped), the record
itself as ``bytes``, or record text as a ``str`` holding a line break. A path that does not exist
is an error of kind ``"io"`` naming it, never record text.

Errors follow one rule:

* an argument that is wrong whatever the input holds (an unknown name such as ``rules="fide"``
  or ``profile="blitz"``, a negative or too large number, keywords that conflict) raises
  ``ValueError``, whose message names the keyword (``game=-1: must be 1 or more``);
* anything about the input raises :class:`RecordError` (a ``ValueError``; subclasses
  :class:`MoveError` and :class:`PositionError`) with the fields of the engine's error object: a
  record, settings or event file that cannot be read (kind ``"io"``, naming the path), a record,
  move or FEN that cannot be read or played, a game or ply the record does not have (kinds
  ``"no_such_game"``, ``"no_such_ply"``).

Every object pickles (``Game``, ``Position``, the errors), so games and positions travel to
worker processes (multiprocessing, Dask, Spark); the iterators (``GameIter``, ``ScreenIter``)
are streams of a running reader and do not, but one iterator may be shared by threads.
"""

from __future__ import annotations

import json as _json
import os as _os
from collections.abc import Mapping as _Mapping

__all__ = [
    "Game",
    "MoveError",
    "Position",
    "PositionError",
    "RecordError",
    "adjudicate",
    "casebook",
    "claim",
    "convert",
    "read_games",
    "screen",
    "validate",
]


class RecordError(ValueError):
    """A record, a move or a position that cannot be read or played.

    ``str(error)`` is the engine's full message (source, line and column, game, ply, move text,
    reason, suggestions). The attributes are the fields of the engine's error object:

    * ``kind``: the stable machine-readable reason (``"illegal_movement"``, ``"no_piece"``,
      ``"ambiguous"``, ``"record_syntax"``, ``"truncated"``, ``"io"``, ``"no_such_game"``, ...);
    * ``message``: what is wrong, in English;
    * ``source`` (also ``file``): the file name, ``<bytes>`` or ``<string>``, or None;
    * ``game``: the 1-based number of the game in its source, or None;
    * ``line``, ``column``: 1-based position in a text record, or None;
    * ``offset``: byte offset in a binary record, or None;
    * ``ply``: 1-based ply of the offending move, or None;
    * ``move_text``: the offending move as written, or None;
    * ``suggestions``: the legal moves the writer probably meant, in the record's notation;
    * ``repairs``: for a main-line move that cannot be played, the score-sheet repairs that explain
      it, best first, each a dict ``{"edits": [{"op", "ply", "iccs", "text", "ply2"}],
      "replays_to_end", "plies_replayed", "explanation_en", "explanation_zh"}`` as in the JSON
      reports (``op``: ``"replace"``, ``"insert"``, ``"delete"`` or ``"swap"``; plies 1-based as
      written);
    * ``repairs_cut_short``: whether the repair search's budget ended it early.
    """

    def __init__(
        self,
        text: str,
        *,
        kind: str = "error",
        message: str | None = None,
        source: str | None = None,
        game: int | None = None,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
        ply: int | None = None,
        move_text: str | None = None,
        suggestions: list[str] | None = None,
        repairs: list[dict] | None = None,
        repairs_cut_short: bool = False,
    ) -> None:
        super().__init__(text)
        self.kind = kind
        self.message = text if message is None else message
        self.source = source
        self.game = game
        self.line = line
        self.column = column
        self.offset = offset
        self.ply = ply
        self.move_text = move_text
        self.suggestions = list(suggestions or [])
        self.repairs = list(repairs or [])
        self.repairs_cut_short = bool(repairs_cut_short)

    @property
    def file(self) -> str | None:
        """The source the error is in (the same as ``source``)."""
        return self.source

    def to_dict(self) -> dict:
        """The fields as a dict (``None`` for what is not known)."""
        return {
            "kind": self.kind,
            "message": self.message,
            "source": self.source,
            "game": self.game,
            "line": self.line,
            "column": self.column,
            "offset": self.offset,
            "ply": self.ply,
            "move_text": self.move_text,
            "suggestions": list(self.suggestions),
            "repairs": list(self.repairs),
            "repairs_cut_short": self.repairs_cut_short,
        }

    def __reduce__(self):
        return (_rebuild_error, (type(self), str(self), self.to_dict()))

    def __repr__(self) -> str:
        where = ", ".join(
            f"{k}={v!r}"
            for k, v in self.to_dict().items()
            if v not in (None, [])
            and k not in ("kind", "message")
            and not (k == "repairs_cut_short" and v is False)
        )
        return f"{type(self).__name__}(kind={self.kind!r}, message={self.message!r}{', ' if where else ''}{where})"


class MoveError(RecordError):
    """A move given as text (``moves=``, :meth:`Position.play`) that cannot be read or is not legal."""


class PositionError(RecordError):
    """A FEN that is malformed or describes an impossible position (``kind`` says which problem)."""


def _rebuild_error(cls, text, fields):
    return cls(text, **fields)


from . import _native  # noqa: E402

_native._register_errors(RecordError, MoveError, PositionError)

Position = _native.Position
Game = _native.Game
GameIter = _native.GameIter
ScreenIter = _native.ScreenIter
__version__ = _native.__version__


def read_games(source, *, skipped=None):
    """Iterate over the games of ``source`` (or of a list of sources), in order.

    Every format and notation ``xqa validate`` reads is accepted. The games are parsed and
    replayed on the engine's threads, ahead of the loop, with bounded memory. A game whose record
    is broken is yielded with ``game.error`` set (the moves before the error are kept); a source
    that cannot be read at all (a missing file) raises :class:`RecordError` with kind ``"io"``.
    Files that hold no game record (a README, a JSON manifest) are skipped, as the CLI skips
    them; with ``skipped=`` a list, each is appended to it as the object ``xqa validate --json``
    prints for it (``{"schema": 1, "source": ..., "not_a_record": ...}``, or ``"skipped"`` for a
    directory entry that is not a regular file). One iterator may be shared by threads.
    """
    if skipped is not None and not isinstance(skipped, list):
        raise TypeError(f"skipped= takes a list, not {type(skipped).__name__}")
    return _native.read_games(source, skipped)


def _count(name, value, low=0, high=2**32 - 1):
    """A count argument, checked (ValueError naming the keyword when out of range)."""
    return None if value is None else _native._count(name, value, low, high)


def validate(source, *, threads=0):
    """Check every game of ``source`` (or of a list of sources).

    Returns a list with one dict per game, equal to the objects ``xqa validate --json`` prints
    (docs/schema.json): ``schema`` (1), ``header`` (``source`` ``{file, game}``, ``result``,
    ``event``, ``red``, ``black``, ``date``), ``format, notation, ok, plies``, ``error`` (one
    error object, or None when the game is valid) and ``warnings``; a file that holds no game
    record gives ``{"schema", "source", "not_a_record"}``, as in the CLI. Runs without the GIL
    on the engine's threads (``threads=0``: all cores); Ctrl-C stops it.
    """
    return _json.loads(_native.validate_json(source, _count("threads", threads, 0, 1024)))


def convert(source, to="chinese", format="pgn", rank_base=None):
    """Rewrite every game of ``source`` as PGN in notation ``to`` (``"chinese"``, ``"wxf"``,
    ``"iccs"``, ``"san"``; ``rank_base="0"`` numbers SAN ranks 0-9 as WinBoard does, ``"1"``
    1-10 as pychess.org), or as DhtmlXQ or a WXF file with ``format="dhtmlxq"`` or ``"wxf"``,
    keeping tags, comments, variations and the result. Returns the text ``xqa convert`` writes.

    The files of a directory that hold no game record are skipped, as the CLI skips them. An
    invalid game raises its :class:`RecordError` (the CLI reports it and goes on).
    """
    return _native.convert(source, to, format, rank_base)


def _settings(settings, what="settings"):
    """A settings argument: a path to a JSON settings (or event) file, or its content as a dict."""
    if settings is None:
        return None
    if isinstance(settings, _Mapping):
        return (f"<{what}>", _json.dumps(settings))
    path = _os.fspath(settings)
    try:
        with open(path, encoding="utf-8") as f:
            return (path, f.read())
    except OSError as e:
        # As a record that cannot be read (the package's one rule for errors).
        why = "no such file or directory" if isinstance(e, FileNotFoundError) else f"cannot read: {e.strerror or e}"
        raise RecordError(f"{path}: {why} [io]", kind="io", message=why, source=str(path)) from e
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not UTF-8 text: {e}", kind="encoding", source=str(path)) from e


_UNSET = object()


def _event(event, time_control, **named):
    """The event argument (a path or a dict), refusing a time control without an event (as the
    CLI's --time-control requires --event), and the options the event names itself with one
    (``named``: those given, not None), as the CLI and the API refuse them."""
    if event is None and time_control is not None:
        raise ValueError("time_control= needs event= (it names one of the event's time controls)")
    if event is not None:
        for name, value in named.items():
            if value is not None:
                raise ValueError(
                    f"{name}= cannot be used with event=: the event names its rules and its time "
                    "controls' natural move limits (choose time_control=)"
                )
    return _settings(event, "event")


def _cap(name, value):
    """A cap argument: unset (the profile's), None or "none" (no cap), or a number."""
    if value is _UNSET:
        return None
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return (None,)
    return (_count(name, int(value)),)


def adjudicate(
    source=None,
    *,
    game=1,
    fen=None,
    moves=None,
    rules=None,
    settings=None,
    event=None,
    time_control=None,
    overlay=False,
    at=None,
    limit_profile=None,
):
    """Rule on a game: the nature of every move (将 杀 捉 闲 ...), every repetition cycle with
    both sides' patterns and the verdict, and the natural move limit status at ply ``at``.

    The game is game ``game`` (1-based) of ``source`` (a path, bytes or record text), a
    :class:`Game` (from :func:`read_games`: game ``number`` of its file, read again when the file
    is there, else the game's own record), or the
    position ``fen`` (default: the start) with ``moves`` (a list of moves in ICCS, WXF or Chinese,
    or ICCS text ``"h2e2 h9g7 ..."``). ``rules`` is ``"cxa"`` (the default) or ``"axf"``; ``settings`` a rule
    settings file (a path, or the settings as a dict) that wins over ``rules``;
    ``limit_profile`` the natural move limit profile (``"slow"``, ``"rapid"``, ``"amateur40"``;
    default: the event's time control, else ``"slow"``). ``event`` is an event file (the CLI's
    ``--event``, such as ``events/2020-national-individual.json``; a path, or its content as a
    dict): its rules profile, tournament overlay, occurrence counting and natural move limit
    (not with ``rules`` or ``settings``: a ``ValueError``, as the CLI refuses them);
    ``time_control`` names the event's time control
    (``"slow"``, ``"rapid"`` ...; default: the event's default). ``overlay=True`` turns the
    tournament overlay on (a drawn cycle early in a game from the initial array: Red must vary).

    Returns the dict ``xqa adjudicate --json`` prints. Raises :class:`RecordError` for a record
    that cannot be read, :class:`PositionError` for a bad FEN, :class:`MoveError` for a bad move
    (with its ``ply``), ``ValueError`` for an unknown option value.
    """
    return _json.loads(
        _native.adjudicate_json(
            source,
            _count("game", game, 1),
            fen,
            moves,
            "cxa" if rules is None else rules,
            _settings(settings),
            _event(event, time_control, rules=rules, settings=settings),
            time_control,
            overlay,
            _count("at", at),
            limit_profile,
        )
    )


def claim(
    source=None,
    *,
    claimant,
    game=1,
    fen=None,
    moves=None,
    profile=None,
    settings=None,
    event=None,
    time_control=None,
    at=None,
    limit=None,
    attack_cap=_UNSET,
    check_cap=_UNSET,
    from_claim=None,
    rules=None,
    rule_settings=None,
):
    """Judge a natural move limit (自然限着) draw claim by ``claimant`` (``"red"`` or ``"black"``).

    The game is chosen as in :func:`adjudicate`. ``profile`` is the event's rule (``"slow"``
    60/30/10, the default, ``"rapid"`` 50/25/8, ``"armageddon"``, ``"amateur40"``; not with
    ``event``, whose time control gives it); ``settings`` an event
    settings file (a path or a dict) applied over it; ``limit``, ``attack_cap`` and ``check_cap``
    custom values (a cap of ``None`` means no cap); ``at`` the plies played when the claim is made
    (default: the whole game); ``from_claim`` the ply of a claim that counts from the claim;
    ``rules`` the rules the move natures are judged by, ``rule_settings`` a rule settings file
    (a path or a dict) that wins over ``rules``. ``event`` (an event file, as in
    :func:`adjudicate`) gives the rules and the natural move limit of its time control
    ``time_control`` (default: the event's default); ``profile``, ``settings``, ``rules`` and
    ``rule_settings`` are not given with it (a ``ValueError``, as the CLI refuses them);
    ``limit`` and the caps still apply over it, and the report lists them as overrides.

    Returns the dict ``xqa claim --json`` prints.
    """
    event_text = _event(
        event, time_control, profile=profile, settings=settings, rules=rules, rule_settings=rule_settings
    )
    return _json.loads(
        _native.claim_json(
            source,
            claimant,
            _count("game", game, 1),
            fen,
            moves,
            "slow" if profile is None else profile,
            _settings(settings),
            event_text,
            time_control,
            _count("at", at),
            _count("limit", limit),
            _cap("attack_cap", attack_cap),
            _cap("check_cap", check_cap),
            _count("from_claim", from_claim),
            "cxa" if rules is None else rules,
            _settings(rule_settings),
        )
    )


def screen(
    sources,
    *,
    rules=None,
    threads=0,
    settings=None,
    event=None,
    time_control=None,
    overlay=False,
    draws=False,
    all=False,
    limit_profile=None,
):
    """Screen whole databases for rule incidents, like ``xqa screen --json``.

    Every game of ``sources`` (paths, directories, bytes or record text, or a list of them) is
    ruled on like :func:`adjudicate`, in parallel on the engine's threads (``threads=0``: all
    cores), without the GIL. Returns an iterator over the dicts ``xqa screen --json`` prints, in
    input order: the games with a cycle in which a side must vary (``draws=True``: drawn cycles
    too), a move the search could not decide, a natural move limit claim that would be valid
    (with ``limit_profile``), or an error; with ``all=True``, every game. The screening runs
    ahead of the loop with bounded memory; ``close()`` stops it; once the iterator is exhausted,
    its ``summary`` holds the run's totals (the summary ``xqa screen`` prints). ``settings``, ``event`` and
    ``overlay``: as in :func:`adjudicate` (an event also brings its draw-offer rule);
    ``time_control`` (with ``event``) screens for the natural move limit of that time control.
    """
    return _native.screen(
        sources,
        "cxa" if rules is None else rules,
        _count("threads", threads, 0, 1024),
        _settings(settings),
        _event(event, time_control, rules=rules, settings=settings),
        time_control,
        overlay,
        draws,
        all,
        limit_profile,
    )


def casebook(path):
    """The case book of a venue database (``xqa serve --db EVENT.sqlite``), read without changing
    it (also while the server runs): the dict ``xqa casebook --json`` prints, ``{"schema": 1,
    "database", "entries": [...]}``, each entry with its event and time control, round, table,
    players, arbiter, time (UTC), record, ruling (the dict the API answered) and sheet (HTML).
    Raises ``OSError`` naming the file when it is missing, not a venue database, corrupt, or
    written by a newer version (the file is left untouched)."""
    return _json.loads(_native.casebook_json(_os.fspath(path)))

"""xiangqi_arbiter: read recorded Xiangqi (Chinese chess) games, check every move, rule on them.

A thin Python front end over the xiangqi-arbiter engine, the same library layer as the ``xqa``
command line: every report function returns exactly the objects of ``xqa ... --json``.

* :func:`read_games` streams :class:`Game` objects from any record (PGN in ICCS, WXF or Chinese
  notation, DhtmlXQ, XQF, CCBridge CBR/CBL/CBF; UTF-8, GBK or Big5).
* :func:`validate`, :func:`convert`, :func:`adjudicate`, :func:`claim`, :func:`screen` are
  ``xqa validate``, ``convert``, ``adjudicate``, ``claim`` and ``screen``.
* :class:`Position` is a board with its legal moves in any notation, and perft.

A *source* is a path (``str`` naming an existing file or directory, or ending in a record
extension such as ``.pgn``, or any ``os.PathLike``; directories are walked recursively), the
record itself as ``bytes``, or record text as ``str``. Bad input raises :class:`RecordError` (or
its subclasses :class:`MoveError` and :class:`PositionError`), whose attributes are the fields of
the engine's error object.
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
    * ``suggestions``: the legal moves the writer probably meant, in the record's notation.
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
        }

    def __reduce__(self):
        return (_rebuild_error, (type(self), str(self), self.to_dict()))

    def __repr__(self) -> str:
        where = ", ".join(
            f"{k}={v!r}"
            for k, v in self.to_dict().items()
            if v not in (None, []) and k not in ("kind", "message")
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


def read_games(source):
    """Iterate over the games of ``source`` (or of a list of sources), in order.

    Every format and notation ``xqa validate`` reads is accepted. The games are parsed and
    replayed on the engine's threads, ahead of the loop, with bounded memory. A game whose record
    is broken is yielded with ``game.error`` set (the moves before the error are kept); a source
    that cannot be read at all (a missing file) raises :class:`RecordError` with kind ``"io"``.
    """
    return _native.read_games(source)


def validate(source, *, threads=0):
    """Check every game of ``source`` (or of a list of sources).

    Returns a list with one dict per game, equal to the objects ``xqa validate --json`` prints
    (docs/schema.json): ``schema`` (1), ``header`` (``source`` ``{file, game}``, ``result``,
    ``event``, ``red``, ``black``, ``date``), ``format, notation, ok, plies``, ``error`` (one
    error object, or None when the game is valid) and ``warnings``. Runs without the GIL on the
    engine's threads (``threads=0``: all cores).
    """
    return _json.loads(_native.validate_json(source, threads))


def convert(source, to="chinese", format="pgn", rank_base=None):
    """Rewrite every game of ``source`` as PGN in notation ``to`` (``"chinese"``, ``"wxf"``,
    ``"iccs"``, ``"san"``; ``rank_base="0"`` numbers SAN ranks 0-9 as WinBoard does, ``"1"``
    1-10 as pychess.org), or as DhtmlXQ or a WXF file with ``format="dhtmlxq"`` or ``"wxf"``,
    keeping tags, comments, variations and the result. Returns the text ``xqa convert`` writes.

    An invalid game raises its :class:`RecordError` (the CLI reports it and goes on).
    """
    return _native.convert(source, to, format, rank_base)


def _settings(settings, what="settings"):
    """A settings argument: a path to a JSON settings (or event) file, or its content as a dict."""
    if settings is None:
        return None
    if isinstance(settings, _Mapping):
        return (f"<{what}>", _json.dumps(settings))
    path = _os.fspath(settings)
    with open(path, encoding="utf-8") as f:
        return (path, f.read())


_UNSET = object()


def _event(event, time_control):
    """The event argument (a path or a dict), refusing a time control without an event (as the
    CLI's --time-control requires --event)."""
    if event is None and time_control is not None:
        raise ValueError("time_control= needs event= (it names one of the event's time controls)")
    return _settings(event, "event")


def _cap(value):
    """A cap argument: unset (the profile's), None or "none" (no cap), or a number."""
    if value is _UNSET:
        return None
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return (None,)
    return (int(value),)


def adjudicate(
    source=None,
    *,
    game=1,
    fen=None,
    moves=None,
    rules="cxa",
    settings=None,
    event=None,
    time_control=None,
    overlay=False,
    at=None,
    limit_profile=None,
):
    """Rule on a game: the nature of every move (将 杀 捉 闲 ...), every repetition cycle with
    both sides' patterns and the verdict, and the natural move limit status at ply ``at``.

    The game is game ``game`` (1-based) of ``source`` (a path, bytes or record text), or the
    position ``fen`` (default: the start) with ``moves`` (a list of moves in ICCS, WXF or Chinese,
    or ICCS text ``"h2e2 h9g7 ..."``). ``rules`` is ``"cxa"`` or ``"axf"``; ``settings`` a rule
    settings file (a path, or the settings as a dict) that wins over ``rules``;
    ``limit_profile`` the natural move limit profile (``"slow"``, ``"rapid"``, ``"amateur40"``;
    default: the event's time control, else ``"slow"``). ``event`` is an event file (the CLI's
    ``--event``, such as ``events/2020-national-individual.json``; a path, or its content as a
    dict): its rules profile, tournament overlay, occurrence counting and natural move limit
    win over ``rules`` and ``settings``; ``time_control`` names the event's time control
    (``"slow"``, ``"rapid"`` ...; default: the event's default). ``overlay=True`` turns the
    tournament overlay on (a drawn cycle early in a game from the initial array: Red must vary).

    Returns the dict ``xqa adjudicate --json`` prints. Raises :class:`RecordError` for a record
    that cannot be read, :class:`PositionError` for a bad FEN, :class:`MoveError` for a bad move
    (with its ``ply``), ``ValueError`` for an unknown option value.
    """
    return _json.loads(
        _native.adjudicate_json(
            source,
            game,
            fen,
            moves,
            rules,
            _settings(settings),
            _event(event, time_control),
            time_control,
            overlay,
            at,
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
    rules="cxa",
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
    ``time_control`` (default: the event's default), and wins over ``settings``, ``rules`` and
    ``rule_settings``; ``limit`` and the caps still apply over it.

    Returns the dict ``xqa claim --json`` prints.
    """
    if profile is not None and event is not None:
        raise ValueError("profile= cannot be used with event= (use time_control=)")
    return _json.loads(
        _native.claim_json(
            source,
            claimant,
            game,
            fen,
            moves,
            "slow" if profile is None else profile,
            _settings(settings),
            _event(event, time_control),
            time_control,
            at,
            limit,
            _cap(attack_cap),
            _cap(check_cap),
            from_claim,
            rules,
            _settings(rule_settings),
        )
    )


def screen(
    sources,
    *,
    rules="cxa",
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
    ahead of the loop with bounded memory; ``close()`` stops it. ``settings``, ``event`` and
    ``overlay``: as in :func:`adjudicate` (an event also brings its draw-offer rule);
    ``time_control`` (with ``event``) screens for the natural move limit of that time control.
    """
    return _native.screen(
        sources,
        rules,
        threads,
        _settings(settings),
        _event(event, time_control),
        time_control,
        overlay,
        draws,
        all,
        limit_profile,
    )

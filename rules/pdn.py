"""Whole games in PDN (Portable Draughts Notation), in and out.

PDN is PGN for draughts: tag pairs (``[Event "..."]``), then movetext (``1. 11-15 23-19 2. 8-11``)
ending in a result.  As in python-chess's ``pgn`` module and lidraughts' ``format/pdn`` split, the
work is done in three separate steps so each can be tested and reused on its own:

* :func:`parse_pdn` (:mod:`rules.pdn_parse`) turns text into :class:`PdnRecord` values (tags,
  the main line's move texts, the result token) **without a board**, skipping comments,
  variations, NAGs and move numbers.
* :func:`replay` plays one record's moves on a :class:`~rules.game.Game`, so every form
  :func:`rules.notation.parse_move` accepts works (numeric or algebraic squares, short captures
  such as ``22x8`` when only one capture fits).  It keeps the good part: at the first move that
  cannot be played it stops and records an error naming the move number (lidraughts' "Incomplete").
  :func:`read_games` (lenient, every game of a text) and :func:`read_game` (exactly one game, any
  problem raises :class:`PdnError`) are built on the two.
* :func:`write_game` writes a game record.

Decisions the reader makes (and why):

* **Variant.**  A ``variant=`` argument wins.  Otherwise ``[Variant "..."]`` names one of our
  variants (it is how ``dame`` is told apart from ``english``: both are GameType 21), else the first
  number of ``[GameType "..."]`` (``"20"`` or ``"21,B,8,8,N2,0"``) picks the variant with that
  FMJD number, else the game is English draughts, the PDN default.  A Variant tag that contradicts
  the GameType is an error; an unknown Variant tag is ignored when GameType names a variant.
  A game whose variant cannot be determined is returned unplayed, with the error.
* **Start position.**  ``[FEN "..."]`` sets it whenever present; ``[SetUp]`` is not required
  (many files omit it), and an empty FEN value means the standard start.
* **Result.**  The result token after the moves wins over the ``[Result]`` tag (the two disagreeing
  is recorded as an error).  Both scales are understood in every variant: ``1-0``/``2-0`` White won,
  ``0-1``/``0-2`` Black won, ``1/2-1/2``/``1-1`` a draw.  If the moves end the game (no pieces, no
  moves, repetition, a draw count) the game's own outcome stands, and a result saying otherwise is
  an error.  If the moves do not end it, PDN does not say *how* it ended, so the nearest event is
  recorded: a decisive result becomes the loser's resignation, a draw a draw by agreement (offer
  and accept), and ``*`` leaves the game going on.  A game whose replay stopped early is left going
  on: its result belongs to moves that were not read.

The writer always takes ``Result``, ``GameType``, ``Variant``, ``SetUp`` and ``FEN`` from the game
(callers' values for those are replaced), so the tags cannot contradict the moves.  Results are
written White first whoever moved first (``1-0`` White won; international ``2-0``/``1-1``/``0-2``).

The module does no I/O: text or bytes in, text out.  Inputs over :data:`MAX_PDN_BYTES` are refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .fen import FenError, parse_fen
from .game import Game
from .pdn_parse import MAX_PDN_BYTES, PdnRecord, parse_pdn
from .pdn_tags import ROSTER, PdnError, Tags
from .position import Position
from .variants import VARIANTS, Color, Variant, find_variant, variant_for_game_type

__all__ = [
    "MAX_PDN_BYTES",
    "ROSTER",
    "PdnError",
    "PdnReadResult",
    "PdnRecord",
    "Tags",
    "parse_pdn",
    "read_game",
    "read_games",
    "replay",
    "write_game",
]

_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
}
_DEFAULT_VARIANT = VARIANTS["english"]
"""PDN's original target; a file without GameType is English draughts."""
LINE_WIDTH = 79
"""Movetext lines are wrapped to at most this many characters (the PGN export convention)."""


# -- replay (records -> games) --------------------------------------------------------------------


@dataclass
class PdnReadResult:
    """One game read from PDN: the replayed record, the tags as written, and what went wrong."""

    game: Game
    tags: Tags
    errors: list[str] = field(default_factory=list)
    """User-readable problems; empty when the game was read completely and consistently."""
    complete: bool = True
    """Whether every move of the main line was played (False: ``game`` holds the moves before
    the first one that could not be)."""

    @property
    def ok(self) -> bool:
        return not self.errors


_WHITE_WINS = ("1-0", "2-0")
_BLACK_WINS = ("0-1", "0-2")
_DRAWS = ("1/2-1/2", "1-1", "½-½")


def result_meaning(result: str) -> tuple[bool, Color | None]:
    """``(decided, winner)``: ``(False, None)`` for ``*``, ``(True, None)`` for a draw.

    Raises :class:`PdnError` for text that is no result.
    """
    value = result.strip()
    if value in _WHITE_WINS:
        return True, Color.WHITE
    if value in _BLACK_WINS:
        return True, Color.BLACK
    if value in _DRAWS:
        return True, None
    if value in ("*", ""):
        return False, None
    raise PdnError(f"{result!r} is not a result: use 1-0, 0-1, 1/2-1/2 (or 2-0, 0-2, 1-1) or *")


def variant_from_tags(tags: Tags) -> Variant:
    """The variant the tags describe (see the module docstring); :class:`PdnError` if none."""
    named: Variant | None = None
    name = tags.get("Variant", "").strip()
    if name:
        try:
            named = find_variant(name)
        except ValueError:
            named = None
    game_type: int | None = None
    game_type_text = tags.get("GameType", "").strip()
    if game_type_text:
        match = re.match(r"[0-9]+", game_type_text)
        if match is None:
            raise PdnError(f"GameType {game_type_text!r} does not start with a number")
        game_type = int(match.group())
    if named is not None:
        if game_type is not None and named.game_type != game_type:
            raise PdnError(
                f"the Variant tag says {named.key} (GameType {named.game_type}) "
                f"but the GameType tag says {game_type}"
            )
        return named
    if game_type is None:
        if name:
            raise PdnError(
                f"unknown Variant {name!r} and no GameType; variants: {', '.join(VARIANTS)}"
            )
        return _DEFAULT_VARIANT
    try:
        return variant_for_game_type(game_type)
    except ValueError:
        known = ", ".join(
            f"{v.game_type} {v.key}" for v in VARIANTS.values() if v.pdn_variant is None
        )
        raise PdnError(
            f"GameType {game_type} is not a variant played here (known: {known}; "
            'dame is 21 with [Variant "dame"])'
        ) from None


def move_label(ply: int, start: Position) -> str:
    """``12.`` or ``12...``: the PDN number of the ``ply``-th move (from 0) of a game from
    ``start``, counting full moves from the variant's first mover (as :func:`write_game` does)."""
    k = ply + (0 if start.turn is start.variant.first else 1)
    return f"{k // 2 + 1}{'.' if k % 2 == 0 else '...'}"


def replay(record: PdnRecord, variant: Variant | str | None = None) -> PdnReadResult:
    """Play ``record`` on a new :class:`~rules.game.Game` (rules in the module docstring).

    Never raises for bad PDN: problems go to the result's ``errors``.  ``variant`` (a
    :class:`Variant` or a name) overrides what the tags say.
    """
    tags = Tags(record.tags)
    errors = list(record.errors)
    try:
        if variant is None:
            chosen = variant_from_tags(tags)
        elif isinstance(variant, str):
            chosen = find_variant(variant)
        else:
            chosen = variant
    except ValueError as exc:
        errors.append(str(exc))
        return PdnReadResult(Game(_DEFAULT_VARIANT), tags, errors, complete=not record.moves)
    fen = tags.get("FEN", "").strip()
    try:
        start = parse_fen(fen, chosen) if fen else None
    except FenError as exc:
        errors.append(f"the FEN tag is not a {chosen.key} position: {exc}")
        return PdnReadResult(Game(chosen), tags, errors, complete=not record.moves)
    game = Game(chosen, start)

    complete = not record.truncated  # a syntax error stopped the main line: moves are missing
    for ply, text in enumerate(record.moves):
        try:
            game.play(text)
        except ValueError as exc:  # MoveError, GameEndedError: both say why in words
            errors.append(
                f"move {move_label(ply, game.start)} {text}: {exc}; the moves before it are kept"
            )
            complete = False
            break

    apply_result(game, record, tags, errors, complete)
    return PdnReadResult(game, tags, errors, complete)


def apply_result(
    game: Game, record: PdnRecord, tags: Tags, errors: list[str], complete: bool
) -> None:
    """End ``game`` as the record's result says (the module docstring's rules), recording
    disagreements in ``errors``; nothing when the moves were not all read (``complete``)."""
    stated = record.result
    meaning = None if stated is None else result_meaning(stated)  # the tokenizer vetted it
    tag = tags.get("Result")
    if tag is not None:
        try:
            tag_meaning = result_meaning(tag)
        except PdnError as exc:
            errors.append(f"the Result tag: {exc}")
        else:
            if meaning is None:
                stated, meaning = tag, tag_meaning
            elif tag_meaning != meaning:
                errors.append(
                    f"the result {stated} after the moves disagrees with the Result tag {tag}"
                )
    if meaning is None or not complete:
        return
    decided, winner = meaning
    if not decided:
        return
    outcome = game.outcome
    if outcome is not None:
        if outcome.winner is not winner:
            errors.append(
                f"the moves end the game ({outcome.summary(game.variant)}) "
                f"but the result says {stated}"
            )
        return
    conclude(game, winner)


def conclude(game: Game, winner: Color | None) -> None:
    """End a game its moves did not end as a result says PDN ends one: the loser's resignation,
    or a draw by agreement (PDN does not say how; these are the nearest events)."""
    if winner is None:
        game.offer_draw(game.turn)
        game.accept_draw(game.turn.other)
    else:
        game.resign(winner.other)


def read_games(text: str | bytes, variant: Variant | str | None = None) -> list[PdnReadResult]:
    """Every game in ``text``, each read as far as it goes (errors recorded, not raised).

    Raises :class:`PdnError` only for input over :data:`MAX_PDN_BYTES`.
    """
    return [replay(record, variant) for record in parse_pdn(text)]


def read_game(text: str | bytes, variant: Variant | str | None = None) -> PdnReadResult:
    """The one game in ``text``, read completely; :class:`PdnError` on any problem.

    For user uploads where a half-read game would mislead: no game, several games, a syntax
    error, an illegal move or an inconsistent result all raise, with the reasons.
    """
    records = parse_pdn(text)
    if not records:
        raise PdnError('no game found: PDN has tags like [Event "..."] and moves like 1. 11-15')
    if len(records) > 1:
        raise PdnError(f"the text holds {len(records)} games; expected one")
    result = replay(records[0], variant)
    if result.errors:
        raise PdnError("; ".join(result.errors))
    return result


# -- writing --------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _movetext_units(game: Game) -> list[str]:
    """Moves with their numbers (``1. 11-15``, ``23-19``...) and the result: the pieces that
    wrapping keeps whole, so a move number never ends a line."""
    units = []
    for ply, move in enumerate(game.moves):
        label = move_label(ply, game.start)
        if label.endswith("...") and ply > 0:
            units.append(move.pdn())
        else:
            units.append(f"{label} {move.pdn()}")
    units.append(game.result())
    return units


def _wrap(units: list[str], width: int = LINE_WIDTH) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > width:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return lines


def write_game(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The PDN text of ``game``: tag pairs, a blank line, numbered movetext, the result.

    ``tags`` adds or replaces tags (``White``, ``Event``, ``Date``...); the roster tags default to
    ``?`` (``????.??.??`` for Date).  ``Result``, ``GameType``, ``Variant`` and ``SetUp``/``FEN``
    always come from the game.  Raises :class:`PdnError` for an invalid tag name or a value with
    a newline.

    >>> from rules.variants import VARIANTS
    >>> g = Game(VARIANTS["english"]); _ = g.play("11-15"); _ = g.play("23-19")
    >>> write_game(g).splitlines()[-1]
    '1. 11-15 23-19 *'
    """
    variant = game.variant
    out = Tags(_DEFAULTS)
    if tags:
        out.update(tags)
    out["Result"] = game.result()
    out["GameType"] = str(variant.game_type)
    if variant.pdn_variant:
        out["Variant"] = variant.pdn_variant
    else:
        out.pop("Variant", None)
    if game.start != Position.start(variant):
        out["SetUp"] = "1"
        out["FEN"] = game.start.fen()
    else:
        out.pop("SetUp", None)
        out.pop("FEN", None)
    header = [f'[{name} "{_escape(value)}"]' for name, value in out.items()]
    return "\n".join([*header, "", *_wrap(_movetext_units(game))]) + "\n"

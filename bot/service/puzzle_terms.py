"""Puzzles as pure functions of their rows: the position along a solution, whether a move is
the solution's, the rating of an attempt's end, the views the Discord layer shows, and the
checked reading of a puzzle the engine found.

**Families.**  Puzzle ratings are kept per variant *family*, the engine's own grouping of its
learned weights (``short-8``: English and Dame; ``flying-8``: Russian, Brazilian and Pool;
``flying-10``: International; ``flying-12``: Canadian): the tactics of one family (short or
flying kings, the board's size) are the same skills, while a Russian shot says little about an
English one.  The family
is written here from the rules (the service does not import the engine) and
``tests/service/test_service_puzzles.py`` holds it equal to ``engine.learned.family``.

**Scoring.**  An attempt is a rated game between solver and puzzle (Glicko-2,
:mod:`bot.service.ratings`): solved 1, failed 0, and solved after a hint ½ (the hint showed
which piece moves, half of the puzzle).  A solve without a hint extends the streak, a failure
ends it, and a hinted solve leaves it as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.fen import FenError, parse_fen
from rules.move import Move
from rules.notation import MoveError, parse_move
from rules.position import Position
from rules.variants import Variant, find_variant

from ..enums import Side
from ..i18n import Text, _
from ..results import DailyPuzzle, PuzzleStanding, PuzzleView, RatingChange
from ..store import AttemptRow, NewPuzzle, PuzzleRating, PuzzleRatingRow, PuzzleRow
from ..words import variant_title
from .ratings import Rating, idle, update

log = logging.getLogger(__name__)

FAMILY_TITLES: Mapping[str, Text] = {
    "short-8": _("8×8 with short kings (English, Dame)"),
    "flying-8": _("8×8 with flying kings (Russian, Brazilian, Pool, Czech)"),
    "flying-10": _("10×10 (International)"),
    "flying-12": _("12×12 (Canadian)"),
    "short-8-mirrored": _("8×8 with short kings, a1 light (Italian)"),
    "flying-8-mirrored": _("8×8 with flying kings, a1 light (Spanish, Portuguese)"),
    "give-away-flying-10": _("10×10, lose all your pieces to win (Antidraughts)"),
    "first-king-flying-10": _("10×10, the first king wins (Breakthrough)"),
    "stopping-8": _("8×8 with kings that stop just beyond what they take (Thai)"),
    "orthogonal-flying-8": _("8×8, every square, along rows and columns (Turkish)"),
    "eight-way-flying-10": _("10×10, capturing along rows and columns too (Frisian, Frysk!)"),
}
"""Every :func:`family`'s name on leaderboards and standings (a test holds that each variant's
family has one)."""
HINTED_SCORE = 0.5
"""A solve after a hint scores as a draw against the puzzle."""


def family(variant: Variant | str) -> str:
    """The family of ``variant`` whose puzzle rating a puzzle of it moves (its
    :attr:`~rules.variants.Variant.family`, as the engine's weights)."""
    found = find_variant(variant) if isinstance(variant, str) else variant
    return found.family


def family_title(name: str) -> Text:
    return FAMILY_TITLES[name]


def solution_of(puzzle: PuzzleRow) -> tuple[str, ...]:
    return tuple(puzzle.solution.split())


def position_at(puzzle: PuzzleRow, ply: int) -> tuple[Position, Position | None, Move | None]:
    """The position after the solution's first ``ply`` moves, the one before the last of them
    and that move (None, None at the start)."""
    position = parse_fen(puzzle.fen, find_variant(puzzle.variant))
    before: Position | None = None
    last: Move | None = None
    for text in solution_of(puzzle)[:ply]:
        last = parse_move(position, text)
        before, position = position, position.play(last)
    return position, before, last


def same_move(a: Move, b: Move) -> bool:
    """Whether two moves give the same position (a capture may be written by either path)."""
    return (a.from_bit, a.to_bit, a.capture_mask) == (b.from_bit, b.to_bit, b.capture_mask)


def attempt_view(puzzle: PuzzleRow, attempt: AttemptRow) -> PuzzleView:
    """``attempt`` as its board shows it: the position reached, the last move, and, once it
    is over, the whole solution (the hint's square while it is open and hinted)."""
    position, before, last = position_at(puzzle, attempt.ply)
    variant = find_variant(puzzle.variant)
    start = parse_fen(puzzle.fen, variant)
    solution = solution_of(puzzle)
    hint = None
    if attempt.status == "open" and attempt.hinted:
        hint = parse_move(position, solution[attempt.ply]).path[0]
    return PuzzleView(
        attempt_id=attempt.id,
        puzzle_id=puzzle.id,
        variant=puzzle.variant,
        variant_title=variant_title(variant),
        fen=position.fen(),
        start_fen=puzzle.fen,
        ply=attempt.ply,
        solver=Side.of(start.turn),
        move_number=attempt.ply // 2 + 1,
        previous_fen=None if before is None else before.fen(),
        last_move=None if last is None else last.pdn(),
        status=attempt.status,
        hinted=attempt.hinted,
        hint_square=hint,
        solution=() if attempt.status == "open" else solution,
        rating=str(round(puzzle.rating)),
        gain=puzzle.gain,
        source=puzzle.source,
        game_id=puzzle.game_id,
        notation=variant.notation,
    )


def score_of(solved: bool, hinted: bool) -> float:
    if not solved:
        return 0.0
    return HINTED_SCORE if hinted else 1.0


def rater(
    *, guild_id: int, user_id: int, name: str, solved: bool, hinted: bool, now: float
) -> PuzzleRating:
    """The store's :data:`~bot.store.PuzzleRating` for an attempt's end: the solver against the
    puzzle and the puzzle against the solver, one Glicko-2 period each (the solver's idle days
    first, as a player's)."""

    def rate(
        before: PuzzleRatingRow | None, puzzle: PuzzleRow
    ) -> tuple[PuzzleRatingRow, PuzzleRow]:
        score = score_of(solved, hinted)
        mine = Rating()
        if before is not None:
            mine = idle(
                Rating(before.rating, before.deviation, before.volatility),
                now - before.updated_at,
            )
        theirs = Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
        new_mine = update(mine, [(theirs, score)])
        new_theirs = update(theirs, [(mine, 1.0 - score)])
        streak = 0 if before is None else before.streak
        if not solved:
            streak = 0
        elif not hinted:
            streak += 1
        after = PuzzleRatingRow(
            guild_id=guild_id,
            user_id=user_id,
            family=puzzle.family,
            name=name,
            rating=new_mine.rating,
            deviation=new_mine.deviation,
            volatility=new_mine.volatility,
            attempts=(0 if before is None else before.attempts) + 1,
            solved=(0 if before is None else before.solved) + (1 if solved else 0),
            streak=streak,
            best_streak=max(streak, 0 if before is None else before.best_streak),
            updated_at=now,
        )
        rated = replace(
            puzzle,
            rating=new_theirs.rating,
            deviation=new_theirs.deviation,
            volatility=new_theirs.volatility,
        )
        return after, rated

    return rate


def shown_rating(row: PuzzleRatingRow | None) -> str:
    if row is None:
        return Rating().shown()
    return Rating(row.rating, row.deviation, row.volatility).shown()


def rating_change(before: PuzzleRatingRow | None, after: PuzzleRatingRow) -> RatingChange:
    start = Rating().rating if before is None else before.rating
    return RatingChange(
        before=shown_rating(before),
        after=shown_rating(after),
        delta=round(after.rating) - round(start),
        streak=after.streak,
        best_streak=after.best_streak,
    )


def standing(row: PuzzleRatingRow) -> PuzzleStanding:
    return PuzzleStanding(
        user_id=row.user_id,
        name=row.name,
        family=row.family,
        family_title=family_title(row.family),
        rating=shown_rating(row),
        attempts=row.attempts,
        solved=row.solved,
        streak=row.streak,
        best_streak=row.best_streak,
    )


def daily_view(puzzle: PuzzleRow, guild_id: int, channel_id: int, day: str) -> DailyPuzzle:
    variant = find_variant(puzzle.variant)
    return DailyPuzzle(
        guild_id=guild_id,
        channel_id=channel_id,
        day=day,
        puzzle_id=puzzle.id,
        variant=puzzle.variant,
        variant_title=variant_title(variant),
        fen=puzzle.fen,
        solver=Side.of(parse_fen(puzzle.fen, variant).turn),
        rating=str(round(puzzle.rating)),
        notation=variant.notation,
    )


def line_positions(puzzle: NewPuzzle) -> set[str]:
    """The positions along ``puzzle``'s line, as FEN (a puzzle found later that starts at one
    of them is the same combination joined late)."""
    variant = find_variant(puzzle.variant)
    position = parse_fen(puzzle.fen, variant)
    seen = {position.fen()}
    for text in puzzle.solution.split():
        position = position.play(parse_move(position, text))
        seen.add(position.fen())
    return seen


def checked_puzzle(
    data: Mapping[str, object], *, guild_id: int | None, game_id: int | None, now: float
) -> NewPuzzle | None:
    """A puzzle the engine found (``Puzzle.to_dict()``) as a row to store, after ``rules``
    replays its line from its position (the solver to move, every move legal, the solver
    playing the last one); None, with a warning, for one that does not hold."""
    try:
        variant = find_variant(str(data["variant"]))
        fen = str(data["fen"])
        raw = data["solution"]
        assert isinstance(raw, Sequence) and not isinstance(raw, str)
        solution = [str(move) for move in raw]
        position = parse_fen(fen, variant)
        if not solution or len(solution) % 2 == 0:
            raise ValueError("the solver must play the first and the last move")
        for text in solution:
            position = position.play(parse_move(position, text))
        rating = float(str(data.get("rating", 1500)))
        gain = str(data.get("gain", "material"))
        if gain not in ("win", "material"):
            raise ValueError(f"gain {gain!r}")
    except (KeyError, AssertionError, ValueError, FenError, MoveError) as exc:
        log.warning("a puzzle that does not hold was left out (%s): %r", exc, data)
        return None
    return NewPuzzle(
        guild_id=guild_id,
        variant=variant.key,
        family=family(variant),
        fen=parse_fen(fen, variant).fen(),
        solution=" ".join(solution),
        gain=gain,
        rating=rating,
        deviation=Rating().deviation,
        volatility=Rating().volatility,
        source=str(data.get("source", "")),
        game_id=game_id,
        created_at=now,
    )

"""What a finished rated game does to the two players' ladder rows.

The Glicko-2 maths is in :mod:`bot.service.ratings`; this module applies it to the stored rows
(idle days first, then the game), with each player's record and streak.  The store calls the
function built here inside the game's final transaction, so the rules stay in the service while
the read-modify-write stays atomic.
"""

from __future__ import annotations

from functools import partial

from ..enums import GameStatus, Side
from ..store import GameChanges, GameRow, LadderChange, RatedGame, RatingRow
from . import ratings
from .clocks import pool_of


def glicko(row: RatingRow) -> ratings.Rating:
    return ratings.Rating(row.rating, row.deviation, row.volatility)


def shown_rating(row: RatingRow | None, now: float) -> str:
    """A player's rating as standings show it now (``1523``, ``1500?`` while provisional): the
    deviation widened by the time since their last rated game; a newcomer's is ``1500?``."""
    if row is None:
        return ratings.Rating().shown()
    return ratings.idle(glicko(row), now - row.updated_at).shown()


def shown_after(change: LadderChange | None) -> tuple[str | None, str | None]:
    """White's and Black's ratings as a rated game just left them (None, None when unrated)."""
    if change is None:
        return None, None
    return glicko(change.white).shown(), glicko(change.black).shown()


def rated_game(row: GameRow, changes: GameChanges, when: float) -> RatedGame | None:
    """The ladder update of a game that ``changes`` finishes, if the game is rated (between two
    people in a server); None otherwise."""
    if changes.get("status") is not GameStatus.FINISHED or not row.rated or row.guild_id is None:
        return None
    winner = changes.get("winner")
    white_score = 0.5 if winner is None else float(winner is Side.WHITE)
    return RatedGame(
        row.guild_id,
        row.variant,
        row.white_id,
        row.black_id,
        partial(rate, row, white_score, when),
        pool_of(row),
    )


def rate(
    game: GameRow,
    white_score: float,
    when: float,
    white: RatingRow | None,
    black: RatingRow | None,
) -> LadderChange:
    """Both players' rows after ``game``, which White scored ``white_score`` in (1, 0.5 or 0):
    each rating first widened by the idle time since the player's last rated game, then
    updated against the other's, as one Glicko-2 rating period."""
    assert game.guild_id is not None
    before = [
        ratings.Rating() if old is None else ratings.idle(glicko(old), when - old.updated_at)
        for old in (white, black)
    ]
    scores = (white_score, 1 - white_score)
    after = [
        ratings.update(before[0], [(before[1], scores[0])]),
        ratings.update(before[1], [(before[0], scores[1])]),
    ]
    rows = []
    for old, new, score, user_id, name in zip(
        (white, black),
        after,
        scores,
        (game.white_id, game.black_id),
        (game.white_name, game.black_name),
        strict=True,
    ):
        letter = "W" if score == 1 else ("L" if score == 0 else "D")
        wins, draws, losses = (0, 0, 0) if old is None else (old.wins, old.draws, old.losses)
        streak = 1 if old is None or old.streak != letter else old.streak_length + 1
        rows.append(
            RatingRow(
                guild_id=game.guild_id,
                user_id=user_id,
                variant=game.variant,
                rating=new.rating,
                deviation=new.deviation,
                volatility=new.volatility,
                games=(0 if old is None else old.games) + 1,
                updated_at=when,
                name=name or (old.name if old else ""),
                wins=wins + (letter == "W"),
                draws=draws + (letter == "D"),
                losses=losses + (letter == "L"),
                streak=letter,
                streak_length=streak,
                pool=pool_of(game),
            )
        )
    return LadderChange(
        white=rows[0],
        black=rows[1],
        white_change=after[0].rating - before[0].rating,
        black_change=after[1].rating - before[1].rating,
    )

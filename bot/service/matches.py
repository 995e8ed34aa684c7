"""Two-game matches: the second game, and the score.

A match is named by its first game (``match_id`` is that game's id), so it needs no table of its
own; the second game is written in the first one's final transaction (see
:meth:`~bot.service.live.LiveGames.save`), with the same place, variant, time and opening and the
colours swapped.  It keeps the first game's board orientation (one match, one way round) and
shows the ratings the first game left.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.variants import find_variant

from ..enums import GameStatus, Side
from ..i18n import Text, _, verbatim
from ..markdown import shown
from ..results import Player
from ..store import GameRow, LadderChange, NewGame
from .clocks import control_of
from .ladder import shown_after
from .records import new_game_row, play_opening
from .views import points


def second_game_after(first: GameRow, now: float, change: LadderChange | None) -> NewGame:
    """The second game as the first one's final transaction stores it, once that game's
    ``change`` to the ladder is known (see :data:`bot.store.FollowUp`)."""
    white, black = shown_after(change)
    return second_game(first, now, (black, white))  # the colours swap


def second_game(
    first: GameRow, now: float, ratings: tuple[str | None, str | None] = (None, None)
) -> NewGame:
    """The row of a match's second game, ready to store; ``ratings`` are its White's and
    Black's as shown at its start."""
    white = Player(first.black_id, first.black_name)
    black = Player(first.white_id, first.white_name)
    opening = first.opening.split()
    game, moves = play_opening(find_variant(first.variant), opening, white, black, now)
    return new_game_row(
        game,
        moves,
        guild_id=first.guild_id,
        channel_id=first.channel_id,
        white=white,
        black=black,
        move_time=first.move_time,
        opening=opening,
        level=None,
        computer=None,
        match_id=first.id,
        first_of_match=False,
        now=now,
        flip=first.flip,
        ratings=ratings,
        control=control_of(first),
    )


def match_sentence(games: Sequence[GameRow]) -> Text:
    """Where a match stands once one of its ``games`` (first game first) has ended."""
    first = games[0]
    if any(g.status is GameStatus.ABORTED for g in games):
        return _("The match was abandoned.")
    if len(games) == 1 or games[1].status is GameStatus.RUNNING:
        return _("Match game 2 follows, colours swapped.")
    a = Player(first.white_id, first.white_name)
    b = Player(first.black_id, first.black_name)
    scored = {a.id: 0.0, b.id: 0.0}
    for g in games:
        if g.winner is None:
            scored[g.white_id] += 0.5
            scored[g.black_id] += 0.5
        else:
            scored[g.white_id if g.winner is Side.WHITE else g.black_id] += 1
    pa, pb = scored[a.id], scored[b.id]
    score = verbatim(f"{shown(a.name)} {points(pa)}–{points(pb)} {shown(b.name)}")
    if pa == pb:
        return _("Match drawn: {score}.", score=score)
    return _("Match won by {name}: {score}.", name=shown((a if pa > pb else b).name), score=score)

"""Arena tournaments (lidraughts and lichess style): pairing whoever is waiting, and scoring.

**Scoring** (lichess's arena rules, https://lichess.org/tournament/help, which lidraughts
follows): a win is worth 2 points, a draw 1, a loss 0.  Two wins in a row set a player *on
fire*: from then on a win counts 4 and a draw 2, until a game they do not win (a draw still
scores its 2, then the streak is over).  A player who *berserked* (gave up half their clock)
gets 1 point more for a win, provided they made at least 7 moves of their own in it (lichess:
"Berserk only grants an extra point if you play at least 7 moves in the game").  Forfeits score
as the result they record.  Lichess's rule that a series of quick draws stops scoring is not
applied: draughts draws are long, and the bot's draw offers need both players.

**Pairing** (:func:`pair_arena`): the players waiting now, best arena score first (then
rating, then who entered first), each paired with the next one down the list, unless that one
was the opponent of their last game and someone else is waiting; an odd one out keeps
waiting.  Colours: the one who has had White less often gets it; when equal, the one who had
Black last; when still equal, the higher one on the list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .model import Pairing, Result

BERSERK_MIN_MOVES = 7
"""Own moves a berserker must make for the extra point (lichess's rule)."""


@dataclass(frozen=True)
class ArenaScore:
    """One player's arena points so far and whether their next win or draw counts double."""

    points: int
    on_fire: bool
    streak: int
    """Wins in a row up to now."""


def _own_moves(plies: int, white: bool) -> int:
    """Moves made by one side in a game of ``plies`` half-moves (White moves first)."""
    return (plies + 1) // 2 if white else plies // 2


def game_points(points: float, on_fire: bool, berserk: bool, own_moves: int) -> int:
    """The arena points of one game: ``points`` is its result for the player (1, 0.5, 0)."""
    base = {1.0: 2, 0.5: 1}.get(points, 0) * (2 if on_fire else 1)
    bonus = 1 if berserk and points == 1.0 and own_moves >= BERSERK_MIN_MOVES else 0
    return base + bonus


@dataclass(frozen=True)
class GameScore:
    """What one game earned one player in an arena (a line of the standings' picture)."""

    sequence: int
    """The pairing's sequence number (:attr:`Result.round`)."""
    earned: int
    doubled: bool
    """The player was on fire: a win or draw counted double."""
    berserk: bool


def arena_scoring(
    results: Sequence[Result],
) -> tuple[dict[int, list[GameScore]], dict[int, ArenaScore]]:
    """Every player's games in order, each with the arena points it earned (byes earn none: an
    arena has none), and every player's score after them: one reading of the streaks serves
    the standings' cells and their totals."""
    ledger: dict[int, list[GameScore]] = {}
    scores: dict[int, ArenaScore] = {}
    for player, game, score in _scored(results):
        ledger.setdefault(player, []).append(game)
        scores[player] = score
    return ledger, scores


def arena_scores(results: Sequence[Result]) -> dict[int, ArenaScore]:
    """Every player's score after ``results`` (taken in their sequence numbers' order)."""
    return {player: score for player, _, score in _scored(results)}


def _scored(results: Sequence[Result]) -> list[tuple[int, GameScore, ArenaScore]]:
    """Each game's points for each of its players and their score after it, in order."""
    scores: dict[int, ArenaScore] = {}
    scored: list[tuple[int, GameScore, ArenaScore]] = []
    for result in sorted(results, key=lambda r: r.round):
        if result.black is None:
            continue
        for player, points, berserk, white in (
            (result.white, result.white_points, result.white_berserk, True),
            (result.black, result.black_points, result.black_berserk, False),
        ):
            before = scores.get(player, ArenaScore(0, False, 0))
            earned = game_points(points, before.on_fire, berserk, _own_moves(result.moves, white))
            streak = before.streak + 1 if points == 1.0 else 0
            scores[player] = ArenaScore(before.points + earned, streak >= 2, streak)
            game = GameScore(result.round, earned, before.on_fire and points > 0, berserk)
            scored.append((player, game, scores[player]))
    return scored


@dataclass(frozen=True)
class _History:
    whites: int = 0
    blacks: int = 0
    last_colour: str | None = None
    last_opponent: int | None = None


def _histories(results: Sequence[Result]) -> dict[int, _History]:
    histories: dict[int, _History] = {}
    for result in sorted(results, key=lambda r: r.round):
        if result.black is None:
            continue
        for player, opponent, colour in (
            (result.white, result.black, "white"),
            (result.black, result.white, "black"),
        ):
            before = histories.get(player, _History())
            histories[player] = _History(
                before.whites + (colour == "white"),
                before.blacks + (colour == "black"),
                colour,
                opponent,
            )
    return histories


def pair_arena(
    waiting: Sequence[int],
    results: Sequence[Result],
    ratings: Mapping[int, float],
    *,
    first_number: int,
) -> list[Pairing]:
    """Pairings for the players ``waiting`` now (in the order they started waiting).

    ``results`` are the arena's finished games (their ``round`` is the pairing's sequence
    number), ``ratings`` each player's rating; the new pairings are numbered on from
    ``first_number`` (their ``round``), ``board`` 1 for the highest scores.  Deterministic:
    the same arguments give the same pairings."""
    scores = arena_scores(results)
    histories = _histories(results)
    arrival = {player: index for index, player in enumerate(waiting)}
    queue = sorted(
        dict.fromkeys(waiting),
        key=lambda p: (
            -(scores[p].points if p in scores else 0),
            -ratings.get(p, 0.0),
            arrival[p],
        ),
    )
    pairs: list[tuple[int, int]] = []
    while len(queue) >= 2:
        first = queue.pop(0)
        last_opponent = histories.get(first, _History()).last_opponent
        index = next(
            (
                i
                for i, other in enumerate(queue)
                if other != last_opponent
                and histories.get(other, _History()).last_opponent != first
            ),
            0,
        )
        pairs.append(_coloured(first, queue.pop(index), histories))
    return [
        Pairing(first_number + board - 1, board, white, black)
        for board, (white, black) in enumerate(pairs, start=1)
    ]


def _coloured(higher: int, lower: int, histories: Mapping[int, _History]) -> tuple[int, int]:
    mine, theirs = histories.get(higher, _History()), histories.get(lower, _History())
    if mine.whites != theirs.whites:
        return (higher, lower) if mine.whites < theirs.whites else (lower, higher)
    if (mine.last_colour == "black") != (theirs.last_colour == "black"):
        return (higher, lower) if mine.last_colour == "black" else (lower, higher)
    return (higher, lower)

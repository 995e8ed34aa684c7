"""Post-game analysis: the engine's score of every position of a finished game, and what it
makes of each move (pure CPU, no I/O).

The work is cut into one job per position (:func:`evaluate_ply`, run in a worker process by the
bot's background lane, so a live game's reply never waits more than one position) and one cheap
step that reads the scores together (:func:`assemble`).

**Scores** are centimen (a man is 100) from White's side, as lidraughts shows them.  A won or
lost position (a proven win of the search, an endgame-table result, a position where the side to
move has no moves) is *decided*: its score keeps the search's value near
:data:`engine.scores.MATE`, and every reading below treats it as a certain result.

**Judgements.**  A move is judged by how much of the mover's *chances* it gives away, as lichess
does with win percentages: the chance of a score is the logistic curve :func:`chance` (level:
50%; one man up: 3 to 2, 60%; two men up: 69%; three: 77%; five: 88%; decided: 100% or 0%).
A man is an edge in draughts, not a win: many endings a man up are drawn, and the engine's
score counts a tempo, a runaway man or a strong centre in fractions of men too.  A move's loss
is the mover's
chance before it (the engine's best) minus the chance after it, in percentage points.  The
thresholds are stated in men: a move is an *inaccuracy* when it loses as many points as half a
man costs a level position, a *mistake* when it loses as many as one man, a *blunder* when it
loses as many as two men (:data:`THRESHOLDS_MEN`; in points 5.1, 10 and 19.2).  So a man thrown
away in a level position is a mistake, two are a blunder, but a side five men up that loses one
has not spoilt much (its chances barely move), and a move that lets a won position slip to a
draw loses 50 points, a blunder, whatever the number of men.  A move that was the only legal
one is never judged, nor is the engine's own first choice.

**Accuracy** per player is the mean, over the player's moves that had a choice, of each move's
accuracy on lichess's curve (:func:`move_accuracy`: 100 for a move that loses nothing, about 80
for an inaccuracy's 5.1 points, about 64 for a mistake's 10, about 41 for a blunder's 19.2): one
figure from 0 to 100 that grows with play that keeps its chances, where a single blunder in a
long game costs a few points rather than everything.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.game import Game
from rules.outcome import Termination
from rules.variants import Color

from .api import Limits, best_move
from .scores import MATE

SECONDS_PER_POSITION = 0.2
"""Time per position (a position with one legal move gets a tenth): a 120-ply game is
about 25 seconds of one worker."""
NODES_PER_POSITION = 400_000
"""Nodes per position at most (about 0.17 s of one core on the test machine): what a search
costs when the machine is idle, so a quiet machine finishes sooner than the time cap."""
DECIDED = 100_000
"""Scores at or beyond this (either sign) are decided: the search's proven wins and the endgame
tables' results (``CORE_EGDB_WIN``) are far above any evaluation."""
CHANCE_SCALE = 100 / math.log(1.5)
"""Centimen per unit of the logistic curve: one man up is a 3 to 2 chance (60%)."""


class Judgement(StrEnum):
    """How bad a move was; the values are the words stored."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS_MEN: dict[Judgement, float] = {
    Judgement.INACCURACY: 0.5,
    Judgement.MISTAKE: 1.0,
    Judgement.BLUNDER: 2.0,
}
"""A move is judged when it loses at least as much chance as this many men cost a level
position (in the module docstring's words)."""
NAGS: dict[Judgement, str] = {
    Judgement.INACCURACY: "$6",
    Judgement.MISTAKE: "$2",
    Judgement.BLUNDER: "$4",
}
"""PGN's numeric annotation glyphs, which PDN keeps: ?!, ? and ??."""


def chance(score: int) -> float:
    """The chance (0 to 1) of the side a score in centimen is for: a logistic curve of the
    score, 1 or 0 when it is decided."""
    if score >= DECIDED:
        return 1.0
    if score <= -DECIDED:
        return 0.0
    return 1 / (1 + math.exp(-score / CHANCE_SCALE))


def threshold_points(judgement: Judgement) -> float:
    """The loss in percentage points from which a move is ``judgement`` (half a man, one man,
    two men from a level position)."""
    return 100 * (chance(round(THRESHOLDS_MEN[judgement] * 100)) - 0.5)


def judge(points: float) -> Judgement | None:
    """The judgement of a move that lost ``points`` percentage points (None: a good move)."""
    for judgement in (Judgement.BLUNDER, Judgement.MISTAKE, Judgement.INACCURACY):
        if points >= threshold_points(judgement) - 1e-9:  # a threshold's own loss counts
            return judgement
    return None


def move_accuracy(points: float) -> float:
    """Lichess's accuracy of a move that lost ``points`` percentage points, 0 to 100 (its
    constants give 99.9999 for no loss: a move that lost nothing is 100)."""
    if points <= 0:
        return 100.0
    value = 103.1668 * math.exp(-0.04354 * points) - 3.1669
    return min(100.0, max(0.0, value))


# -- one position, in a worker ---------------------------------------------------------------


@dataclass(frozen=True)
class PositionScore:
    """What the engine found in one position: its score from the side to move, its best move
    and line (PDN texts; empty when the game is over there), the depth reached and how many
    legal moves there were."""

    score: int
    line: tuple[str, ...]
    depth: int
    choices: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "line": list(self.line),
            "depth": self.depth,
            "choices": self.choices,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PositionScore:
        return cls(
            int(data["score"]),
            tuple(str(move) for move in data["line"]),
            int(data["depth"]),
            int(data["choices"]),
        )


def game_at(record: Mapping[str, Any], ply: int) -> Game:
    """The game ``record`` (:meth:`rules.Game.to_dict`) as it stood after ``ply`` moves, with
    the repetition and draw counts the rules keep (what happened off the board, a resignation
    or a draw offer, left out)."""
    moves = list(record["moves"])
    if not 0 <= ply <= len(moves):
        raise ValueError(f"the game has no ply {ply}")
    return Game.from_dict(
        {
            "variant": record["variant"],
            "start": record["start"],
            "moves": moves[:ply],
            "draw_offer": None,
            "advantage_count": None,
            "outcome": None,
        }
    )


def evaluate_ply(
    record: dict[str, Any],
    ply: int,
    seconds: float = SECONDS_PER_POSITION,
    nodes: int = NODES_PER_POSITION,
) -> dict[str, Any]:
    """Worker job: the engine's :class:`PositionScore` (as a dict) of the position after ``ply``
    moves of the game ``record``.  A position the rules have ended (no moves, a repetition, a
    count) scores what the rules say, without a search."""
    game = game_at(record, ply)
    if game.is_over:
        outcome = game.outcome
        assert outcome is not None
        won = outcome.winner is game.turn
        score = 0 if outcome.winner is None else MATE if won else -MATE
        return PositionScore(score, (), 0, 0).to_dict()
    found = best_move(game, Limits(movetime=seconds, level=6, nodes=nodes))
    line = tuple(move.pdn() for move in found.pv)
    return PositionScore(found.score, line, len(found.pv), len(game.legal_moves())).to_dict()


# -- the whole game --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlyAnalysis:
    """One move of the game as the engine saw it (scores from White's side, centimen)."""

    ply: int
    """Moves played before this one (0 for the first)."""
    mover: Color
    move: str
    before: int
    """The position's score before the move, with the engine's best move."""
    after: int
    """The score once this move was played."""
    loss: float
    """Percentage points of the mover's chance the move gave away (0 for a forced move or the
    engine's own choice)."""
    judgement: Judgement | None
    better: str | None
    """The engine's move, when the move played is judged."""
    line: tuple[str, ...]
    """The engine's line from the position before the move (starting with ``better``), when
    the move played is judged."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "mover": self.mover.label,
            "move": self.move,
            "before": self.before,
            "after": self.after,
            "loss": round(self.loss, 2),
            "judgement": None if self.judgement is None else self.judgement.value,
            "better": self.better,
            "line": list(self.line),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlyAnalysis:
        judgement = data["judgement"]
        return cls(
            ply=int(data["ply"]),
            mover=Color.WHITE if data["mover"] == "white" else Color.BLACK,
            move=str(data["move"]),
            before=int(data["before"]),
            after=int(data["after"]),
            loss=float(data["loss"]),
            judgement=None if judgement is None else Judgement(judgement),
            better=None if data["better"] is None else str(data["better"]),
            line=tuple(str(move) for move in data["line"]),
        )


@dataclass(frozen=True)
class GameAnalysis:
    """A finished game as the engine read it: the score of every position (``scores``, from
    White's side, one more than the moves), every move judged, and each player's accuracy
    (None for a player who never had a choice)."""

    variant: str
    scores: tuple[int, ...]
    plies: tuple[PlyAnalysis, ...]
    accuracy: Mapping[Color, float | None]
    depth: int
    """The median depth the searches reached (what the analysis is worth)."""

    def judged(self, mover: Color) -> tuple[PlyAnalysis, ...]:
        """``mover``'s judged moves, in order."""
        return tuple(p for p in self.plies if p.mover is mover and p.judgement is not None)

    def count(self, mover: Color, judgement: Judgement) -> int:
        """How many of ``mover``'s moves were ``judgement``."""
        return sum(1 for p in self.plies if p.mover is mover and p.judgement is judgement)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible values (what the store keeps)."""
        return {
            "variant": self.variant,
            "scores": list(self.scores),
            "plies": [p.to_dict() for p in self.plies],
            "accuracy": {
                color.label: None if value is None else round(value, 1)
                for color, value in self.accuracy.items()
            },
            "depth": self.depth,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameAnalysis:
        accuracy = data["accuracy"]
        return cls(
            variant=str(data["variant"]),
            scores=tuple(int(score) for score in data["scores"]),
            plies=tuple(PlyAnalysis.from_dict(p) for p in data["plies"]),
            accuracy={
                Color.WHITE: _maybe_float(accuracy["white"]),
                Color.BLACK: _maybe_float(accuracy["black"]),
            },
            depth=int(data["depth"]),
        )


def _maybe_float(value: Any) -> float | None:
    return None if value is None else float(value)


def white_side(score: int, turn: Color) -> int:
    """A score from the side to move turned to White's side."""
    return score if turn is Color.WHITE else -score


def assemble(record: Mapping[str, Any], found: Sequence[PositionScore]) -> GameAnalysis:
    """The analysis of the game ``record`` from the :class:`PositionScore` of each of its
    positions (``found[i]``: after ``i`` moves; one more than the moves)."""
    game = Game.from_dict(dict(record))
    if len(found) != len(game.moves) + 1:
        raise ValueError(f"{len(found)} positions scored for {len(game.moves)} moves")
    scores = tuple(white_side(found[i].score, game.positions[i].turn) for i in range(len(found)))
    final = _final_score(game)
    if final is not None:
        scores = (*scores[:-1], final)
    plies = []
    for ply, move in enumerate(game.moves):
        mover = game.positions[ply].turn
        here = found[ply]
        sign = 1 if mover is Color.WHITE else -1
        best = here.line[0] if here.line else None
        forced = here.choices <= 1
        loss = 0.0
        if not forced and best != move.pdn():
            loss = max(0.0, 100 * (chance(sign * scores[ply]) - chance(sign * scores[ply + 1])))
        judgement = judge(loss)
        plies.append(
            PlyAnalysis(
                ply=ply,
                mover=mover,
                move=move.pdn(),
                before=scores[ply],
                after=scores[ply + 1],
                loss=loss,
                judgement=judgement,
                better=best if judgement is not None else None,
                line=here.line if judgement is not None else (),
            )
        )
    accuracy: dict[Color, float | None] = {}
    for color in (Color.WHITE, Color.BLACK):
        counted = [
            move_accuracy(p.loss) for p in plies if p.mover is color and found[p.ply].choices > 1
        ]
        accuracy[color] = sum(counted) / len(counted) if counted else None
    depths = sorted(f.depth for f in found if f.choices)
    return GameAnalysis(
        variant=game.variant.key,
        scores=scores,
        plies=tuple(plies),
        accuracy=accuracy,
        depth=depths[len(depths) // 2] if depths else 0,
    )


def _final_score(game: Game) -> int | None:
    """The last position's score from White's side when the rules decided the game on the
    board (no pieces or moves, a repetition, a count): the result, not a search.  A game
    resigned, drawn by agreement or lost on time keeps the engine's view of its last
    position."""
    outcome = game.outcome
    if outcome is None or outcome.termination in (
        Termination.RESIGNATION,
        Termination.AGREEMENT,
        Termination.TIMEOUT,
        Termination.ABORTED,
    ):
        return None
    if outcome.winner is None:
        return 0
    return MATE if outcome.winner is Color.WHITE else -MATE


def assemble_job(record: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """Worker job: :func:`assemble` on plain values (``found``: each position's
    :meth:`PositionScore.to_dict`), its analysis as :meth:`GameAnalysis.to_dict` gives it."""
    return assemble(record, [PositionScore.from_dict(f) for f in found]).to_dict()

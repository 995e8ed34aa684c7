"""Tiebreaks: what separates players on the same points, and which format uses which.

The choice per format (docs/TOURNAMENTS.md says the same for players):

* **Swiss**: Buchholz (the Dutch federation's *weerstandspunten*: the sum of the opponents'
  points), then median Buchholz (without the highest and the lowest of those), then
  Sonneborn-Berger, then head-to-head.
* **Round robin**: Sonneborn-Berger (everyone met everyone, so Buchholz says nothing), then
  head-to-head, then the number of wins.
* **Arena**: the performance rating (lidraughts and lichess rank arenas by points alone; the
  performance rewards the one who scored them against stronger players).

Unplayed rounds (a bye, a forfeit either way, a round not paired) count against FIDE's "virtual
opponent" (tie-break regulations C.07, 2023): an opponent with the player's own final points, so
Buchholz counts their own points for that round and Sonneborn-Berger the round's points times
their own.  The opponents' points are taken as they stand: FIDE's regulations go on to adjust an
opponent's points for the opponent's own unplayed rounds, which this table, like the simpler
rules of club and federation events, does not.  Published tables agree: the 2026 USSA Closed's
Sonneborn-Berger counts a forfeit win so, and the 2026 Arad Open's median Buchholz is ours for
every player whose games and opponents' games were all played (tests/tournaments).

Head-to-head is worked out inside each group of players still tied when its turn comes: the
points each scored against the others of the group, when every two of them met (otherwise it
separates no one: 0 for all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .model import Format, Tiebreak

FORMAT_TIEBREAKS: Mapping[Format, tuple[Tiebreak, ...]] = {
    Format.SWISS: (
        Tiebreak.BUCHHOLZ,
        Tiebreak.MEDIAN_BUCHHOLZ,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.HEAD_TO_HEAD,
    ),
    Format.ROUND_ROBIN: (Tiebreak.SONNEBORN_BERGER, Tiebreak.HEAD_TO_HEAD, Tiebreak.WINS),
    Format.ARENA: (Tiebreak.PERFORMANCE,),
}
"""The tiebreaks of each format, in the order they apply."""


@dataclass(frozen=True)
class Round:
    """One round of one player, as the tiebreaks read it."""

    opponent: int | None
    """Who they met (over the board or by forfeit); None for a bye or an absence."""
    points: float
    """What the round gave them."""
    played: bool
    """A game over the board (not a bye, a forfeit or an absence)."""


@dataclass(frozen=True)
class Record:
    """Everything the tiebreaks need about one player."""

    points: float
    rounds: tuple[Round, ...]
    wins: int
    """Games won over the board."""
    performance: int | None


def _opposition(player: int, records: Mapping[int, Record]) -> list[float]:
    """The points of each round's opponent, the player's own for an unplayed round."""
    own = records[player]
    return [
        records[r.opponent].points if r.played and r.opponent is not None else own.points
        for r in own.rounds
    ]


def buchholz(player: int, records: Mapping[int, Record]) -> float:
    """The sum of the opponents' points (a virtual opponent for each unplayed round)."""
    return sum(_opposition(player, records))


def median_buchholz(player: int, records: Mapping[int, Record]) -> float:
    """Buchholz without the highest and the lowest opponent (all of it under three rounds)."""
    values = sorted(_opposition(player, records))
    return sum(values[1:-1]) if len(values) >= 3 else sum(values)


def sonneborn_berger(player: int, records: Mapping[int, Record]) -> float:
    """Each round's points times its opponent's points: a win counts the opponent's points,
    a draw half of them (a virtual opponent for each unplayed round)."""
    own = records[player]
    return sum(
        r.points * points
        for r, points in zip(own.rounds, _opposition(player, records), strict=True)
    )


def head_to_head(player: int, group: Sequence[int], records: Mapping[int, Record]) -> float:
    """The points ``player`` scored against the rest of ``group``, or 0 unless every two of
    the group met."""
    others = set(group) - {player}
    if not others or not all(_met_all(member, set(group), records) for member in group):
        return 0.0
    return sum(r.points for r in records[player].rounds if r.opponent in others)


def _met_all(player: int, group: set[int], records: Mapping[int, Record]) -> bool:
    met = {r.opponent for r in records[player].rounds}
    return group - {player} <= met


_SINGLE: Mapping[Tiebreak, Callable[[int, Mapping[int, Record]], float]] = {
    Tiebreak.BUCHHOLZ: buchholz,
    Tiebreak.MEDIAN_BUCHHOLZ: median_buchholz,
    Tiebreak.SONNEBORN_BERGER: sonneborn_berger,
    Tiebreak.WINS: lambda player, records: float(records[player].wins),
    Tiebreak.PERFORMANCE: lambda player, records: float(records[player].performance or 0),
}


def tiebreak_values(
    order: Sequence[int], tiebreaks: Sequence[Tiebreak], records: Mapping[int, Record]
) -> dict[int, tuple[float, ...]]:
    """Each player's tiebreak values, in ``tiebreaks``' order.  Head-to-head is computed in
    the groups still tied on points and on the tiebreaks before it; ``order`` (the players by
    pairing number) only makes the result independent of the mapping's order."""
    values: dict[int, tuple[float, ...]] = {player: () for player in order}
    for tiebreak in tiebreaks:
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            groups: dict[tuple[float, ...], list[int]] = {}
            for player in order:
                groups.setdefault((records[player].points, *values[player]), []).append(player)
            for group in groups.values():
                for player in group:
                    values[player] += (head_to_head(player, group, records),)
        else:
            compute = _SINGLE[tiebreak]
            for player in order:
                values[player] += (compute(player, records),)
    return values

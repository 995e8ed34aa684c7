"""Real tournaments as published, for the tournament tests: who played, and every round's
pairings and results, written here in the model's own values (``bot.tournaments.model``) from
the published crosstables and pairing lists.

Players are named by ``1000 + their pairing number`` (ids and pairing numbers differ on
purpose, so a test cannot pass by mixing them up); names are left out (``"#n"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tournaments.model import Entrant, Result


@dataclass(frozen=True)
class Event:
    """One published tournament."""

    source: str
    entrants: list[Entrant]
    rounds: list[list[Result]]
    """Each round's results, in the published board order (byes last)."""


def player(number: int) -> int:
    """The id the tests give pairing number ``number``."""
    return 1000 + number


def _entrants(ratings: list[int]) -> list[Entrant]:
    return [
        Entrant(player(n), f"#{n}", float(rating), n) for n, rating in enumerate(ratings, start=1)
    ]


def _round(number: int, text: str) -> list[Result]:
    """Boards as ``white-black:score`` (score 1, 0, = for a draw, + or - for a forfeit won or
    lost by White) and ``n:bye`` for a round without a game."""
    results = []
    for board in text.split():
        pair, score = board.split(":")
        if score == "bye":
            results.append(Result(number, player(int(pair)), None, 0.0, 0.0))
            continue
        white, black = (player(int(n)) for n in pair.split("-"))
        points = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0}[score]
        results.append(Result(number, white, black, points, 1.0 - points, forfeit=score in "+-"))
    return results


USSA_CLOSED_2026 = Event(
    source=(
        "20260808-10 - USSA Closed 2026, Open (South Africa), 8-10 August 2026: chess-results.com "
        "tournament, pages 'Pairings/Results' and 'Final Ranking crosstable after 9 Rounds' as "
        "saved on 10.08.2026 in github.com/markjonleonard/chess-results, "
        "tests/fixtures/ussa2026_roundrobin_*.html. Byes score 0; tie-breaks published: DE, "
        "wins including forfeits, Sonneborn-Berger (FIDE 2023)."
    ),
    entrants=_entrants([1936, 1746, 1787, 1903, 1725, 1828, 1781, 1651, 1903]),
    rounds=[
        _round(1, "2-9:0 3-8:0 4-7:1 5-6:0 1:bye"),
        _round(2, "7-5:0 8-4:0 9-3:1 1-2:0 6:bye"),
        _round(3, "3-1:0 4-9:= 5-8:1 6-7:1 2:bye"),
        _round(4, "8-6:= 9-5:0 1-4:1 2-3:0 7:bye"),
        _round(5, "4-2:1 5-1:0 6-9:0 7-8:0 3:bye"),
        _round(6, "9-7:1 1-6:= 2-5:1 3-4:0 8:bye"),
        _round(7, "5-3:0 6-2:0 7-1:0 8-9:0 4:bye"),
        _round(8, "1-8:1 2-7:1 3-6:0 4-5:= 9:bye"),
        _round(9, "6-4:1 7-3:0 8-2:- 9-1:0 5:bye"),
    ],
)
"""A nine-player round robin (the ten-player Berger table, number 10 the round off)."""

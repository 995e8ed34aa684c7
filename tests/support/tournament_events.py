"""Real tournaments as published, for the tournament tests: who played, and every round's
pairings and results, written here in the model's own values (``bot.tournaments.model``) from
the published crosstables and pairing lists.

Players are named by ``1000 + their pairing number`` (ids and pairing numbers differ on
purpose, so a test cannot pass by mixing them up); names are left out (``"#n"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.tournaments.model import Entrant, Result


@dataclass(frozen=True)
class Event:
    """One published tournament."""

    source: str
    entrants: list[Entrant]
    rounds: list[list[Result]]
    """Each round's results, in the published board order (byes last)."""
    next_pairings: list[tuple[int, int | None]] = field(default_factory=list)
    """The published pairings (white, black) of the round after ``rounds``."""
    not_paired: list[frozenset[int]] = field(default_factory=list)
    """Per round (``rounds`` and the next), the players not paired in it: withdrawn or absent,
    for that round."""

    def entrants_in(self, number: int) -> list[Entrant]:
        """The entrants as the pairing of round ``number`` saw them: those not paired in it
        marked withdrawn."""
        out = self.not_paired[number - 1] if len(self.not_paired) >= number else frozenset()
        return [replace(e, withdrawn=e.withdrawn or e.id in out) for e in self.entrants]


def player(number: int) -> int:
    """The id the tests give pairing number ``number``."""
    return 1000 + number


def entrants(ratings: list[int], *, joined: dict[int, int] | None = None) -> list[Entrant]:
    joined = joined or {}
    return [
        Entrant(player(n), f"#{n}", float(rating), n, joined_round=joined.get(n, 1))
        for n, rating in enumerate(ratings, start=1)
    ]


def round_results(number: int, text: str, *, bye: float = 0.0) -> list[Result]:
    """Boards as ``white-black:score`` (score 1, 0, = for a draw, + or - for a forfeit won or
    lost by White, -- for both absent), ``n:bye`` for a round without a game (worth ``bye``),
    ``n:half`` for a half-point bye and ``n:out`` for a player not paired (no result)."""
    results = []
    for board in text.split():
        pair, score = board.split(":")
        if score == "out":
            continue
        if score == "half":
            results.append(Result(number, player(int(pair)), None, 0.5, 0.0))
            continue
        if score == "bye":
            results.append(Result(number, player(int(pair)), None, bye, 0.0))
            continue
        white, black = (player(int(n)) for n in pair.split("-"))
        if score == "--":
            results.append(Result(number, white, black, 0.0, 0.0, forfeit=True))
            continue
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
    entrants=entrants([1936, 1746, 1787, 1903, 1725, 1828, 1781, 1651, 1903]),
    rounds=[
        round_results(1, "2-9:0 3-8:0 4-7:1 5-6:0 1:bye"),
        round_results(2, "7-5:0 8-4:0 9-3:1 1-2:0 6:bye"),
        round_results(3, "3-1:0 4-9:= 5-8:1 6-7:1 2:bye"),
        round_results(4, "8-6:= 9-5:0 1-4:1 2-3:0 7:bye"),
        round_results(5, "4-2:1 5-1:0 6-9:0 7-8:0 3:bye"),
        round_results(6, "9-7:1 1-6:= 2-5:1 3-4:0 8:bye"),
        round_results(7, "5-3:0 6-2:0 7-1:0 8-9:0 4:bye"),
        round_results(8, "1-8:1 2-7:1 3-6:0 4-5:= 9:bye"),
        round_results(9, "6-4:1 7-3:0 8-2:- 9-1:0 5:bye"),
    ],
)
"""A nine-player round robin (the ten-player Berger table, number 10 the round off)."""


def numbers(text: str) -> frozenset[int]:
    """Players by pairing number, as ids."""
    return frozenset(player(int(n)) for n in text.split())


def pairings(text: str) -> list[tuple[int, int | None]]:
    """A round's boards as in :func:`round_results`, results left out (``?`` for none yet)."""
    return [(r.white, r.black) for r in round_results(0, text.replace(":?", ":0"))]


JEDDAH_2026 = Event(
    source=(
        "Jeddah Season Chess Championship Qualifiers, 10 August 2026 (Swiss, 7 rounds, paired "
        "with Swiss-Manager): chess-results.com tournament 1473782, pages 'Starting rank', "
        "'Board Pairings Rd.1', 'Rd.2' and 'Starting rank crosstable' as saved on 10.08.2026 in "
        "github.com/markjonleonard/chess-results, tests/fixtures/jeddah2026_*.html.  Round 1: "
        "the top seed drew Black; 21 and 22 lost by forfeit; 31 had the bye (1 point); 32 "
        "entered from round 2."
    ),
    entrants=entrants(
        [2409, 2065, 2059, 2046, 2023, 1859, 1841, 1796, 1794, 1746, 1731, 1716, 1697, 1686]
        + [1674, 1645, 1616, 1612, 1603, 1507]
        + [0] * 11
        + [2127],
        joined={32: 2},
    ),
    rounds=[
        round_results(
            1,
            "16-1:0 2-17:1 18-3:0 4-19:1 20-5:0 6-21:+ 22-7:- 8-23:1 24-9:0 10-25:1 26-11:0 "
            "12-27:1 28-13:0 14-29:1 30-15:0 31:bye",
            bye=1.0,
        )
    ],
    next_pairings=[
        (player(w), player(b))
        for w, b in [
            (1, 10),
            (9, 2),
            (3, 12),
            (11, 4),
            (5, 14),
            (13, 6),
            (15, 7),
            (31, 8),
            (25, 16),
            (17, 24),
            (27, 18),
            (19, 26),
            (29, 20),
            (21, 28),
            (22, 30),
            (23, 32),
        ]
    ],
)
"""A 32-player Swiss: round 1's results and round 2's pairings as published."""

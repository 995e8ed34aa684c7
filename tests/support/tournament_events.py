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


def _entrants(ratings: list[int], *, joined: dict[int, int] | None = None) -> list[Entrant]:
    joined = joined or {}
    return [
        Entrant(player(n), f"#{n}", float(rating), n, joined_round=joined.get(n, 1))
        for n, rating in enumerate(ratings, start=1)
    ]


def _round(number: int, text: str, *, bye: float = 0.0) -> list[Result]:
    """Boards as ``white-black:score`` (score 1, 0, = for a draw, + or - for a forfeit won or
    lost by White), ``n:bye`` for a round without a game (worth ``bye``) and ``n:out`` for a
    player not paired (no result)."""
    results = []
    for board in text.split():
        pair, score = board.split(":")
        if score == "out":
            continue
        if score == "bye":
            results.append(Result(number, player(int(pair)), None, bye, 0.0))
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


def _numbers(text: str) -> frozenset[int]:
    """Players by pairing number, as ids."""
    return frozenset(player(int(n)) for n in text.split())


def _pairings(text: str) -> list[tuple[int, int | None]]:
    """A round's boards as in :func:`_round`, results left out (``?`` for none yet)."""
    return [(r.white, r.black) for r in _round(0, text.replace(":?", ":0"))]


JEDDAH_2026 = Event(
    source=(
        "Jeddah Season Chess Championship Qualifiers, 10 August 2026 (Swiss, 7 rounds, paired "
        "with Swiss-Manager): chess-results.com tournament 1473782, pages 'Starting rank', "
        "'Board Pairings Rd.1', 'Rd.2' and 'Starting rank crosstable' as saved on 10.08.2026 in "
        "github.com/markjonleonard/chess-results, tests/fixtures/jeddah2026_*.html.  Round 1: "
        "the top seed drew Black; 21 and 22 lost by forfeit; 31 had the bye (1 point); 32 "
        "entered from round 2."
    ),
    entrants=_entrants(
        [2409, 2065, 2059, 2046, 2023, 1859, 1841, 1796, 1794, 1746, 1731, 1716, 1697, 1686]
        + [1674, 1645, 1616, 1612, 1603, 1507]
        + [0] * 11
        + [2127],
        joined={32: 2},
    ),
    rounds=[
        _round(
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


BRITISH_2026 = Event(
    source=(
        "2026 British Chess Championships, Championship (Swiss, 9 rounds, 108 players, paired with "
        "Swiss-Manager), 1-9 August 2026: chess-results.com tournament 1452107, page 'Starting "
        "rank crosstable' as saved on 09.08.2026 during round 9 in "
        "github.com/markjonleonard/chess-results, "
        "tests/fixtures/british2026_champ_crosstable_final.html.  Round 1: the top seed drew "
        "Black.  'out': not paired that round (withdrawn or absent, 0 points)."
    ),
    entrants=_entrants(
        [
            2597,
            2595,
            2514,
            2508,
            2494,
            2488,
            2470,
            2459,
            2455,
            2455,
            2447,
            2439,
            2438,
            2429,
            2421,
            2410,
            2399,
            2398,
            2381,
            2377,
            2370,
            2357,
            2345,
            2338,
            2320,
            2320,
            2315,
            2314,
            2313,
            2312,
            2296,
            2296,
            2293,
            2292,
            2285,
            2276,
            2275,
            2273,
            2270,
            2270,
            2266,
            2262,
            2261,
            2261,
            2255,
            2252,
            2252,
            2250,
            2249,
            2244,
            2244,
            2239,
            2235,
            2232,
            2228,
            2225,
            2220,
            2208,
            2206,
            2205,
            2187,
            2185,
            2183,
            2182,
            2180,
            2180,
            2164,
            2160,
            2160,
            2158,
            2153,
            2153,
            2149,
            2148,
            2143,
            2143,
            2132,
            2125,
            2114,
            2110,
            2103,
            2096,
            2092,
            2089,
            2085,
            2085,
            2077,
            2075,
            2073,
            2070,
            2056,
            2043,
            2038,
            2035,
            2012,
            2008,
            2005,
            2003,
            1994,
            1986,
            1977,
            1964,
            1953,
            1933,
            1860,
            1856,
            1681,
            1559,
        ]
    ),
    rounds=[
        _round(
            1,
            "2-55:1 4-57:1 6-59:1 8-61:= 10-63:1 12-65:1 14-67:= 16-70:1 18-72:1 20-74:1 "
            "22-76:1 24-78:= 26-80:= 28-82:1 30-84:1 32-86:0 34-88:= 36-90:1 38-92:1 40-94:= "
            "42-96:1 44-98:0 46-100:1 48-102:1 50-104:1 52-106:1 54-1:0 56-3:0 58-5:0 60-7:= "
            "62-9:0 64-11:0 66-13:0 68-15:0 71-17:= 73-19:0 75-21:= 77-23:0 79-25:0 81-27:0 "
            "83-29:0 85-31:0 87-33:0 89-35:0 91-37:0 93-39:= 95-41:0 97-43:= 99-45:0 101-47:0 "
            "103-49:1 105-51:0 107-53:0 69:out 108:out",
            bye=1.0,
        ),
        _round(
            2,
            "1-29:= 3-30:= 5-35:= 7-71:1 9-36:1 11-38:= 13-42:1 15-46:1 17-60:1 19-48:= "
            "21-93:1 23-50:1 25-52:0 27-103:1 31-2:0 33-4:0 37-6:0 39-97:1 41-10:= 43-75:= "
            "45-12:= 47-16:= 49-83:= 51-18:1 53-20:= 55-85:= 57-87:= 61-14:1 63-91:1 65-95:= "
            "67-8:= 70-99:0 72-101:= 74-105:1 76-107:1 78-26:= 79-32:= 80-24:0 81-44:0 "
            "82-54:0 84-56:0 86-22:0 88-40:0 90-58:0 92-62:0 94-34:0 96-64:= 98-28:1 100-66:1 "
            "102-68:= 104-73:0 106-77:0 108-89:0 59:out 69:out",
            bye=1.0,
        ),
        _round(
            3,
            "2-23:1 4-27:1 6-51:1 8-56:1 10-39:1 12-41:1 16-45:= 18-58:= 20-61:0 22-9:= "
            "24-53:1 26-63:1 28-67:1 29-3:0 30-1:= 32-80:= 34-5:0 35-7:0 36-74:= 38-17:= "
            "40-11:1 42-76:= 44-78:1 46-86:0 47-19:0 48-21:= 50-99:1 52-13:= 54-100:1 60-88:0 "
            "62-25:0 64-94:= 66-92:= 68-96:1 69-104:1 71-102:1 73-31:0 75-33:0 77-37:1 "
            "83-55:0 85-49:= 87-65:= 89-43:1 91-81:1 93-57:0 95-72:0 97-79:1 98-15:0 101-70:0 "
            "103-14:0 105-82:0 106-84:0 107-90:0 59:out 108:out",
            bye=1.0,
        ),
        _round(
            4,
            "1-38:1 3-22:1 5-24:0 6-2:1 7-40:1 9-52:= 11-98:1 13-10:= 14-53:1 15-4:= 17-44:= "
            "19-12:= 21-50:= 23-48:1 25-54:= 27-77:= 31-89:= 33-8:= 35-68:= 37-73:1 39-71:= "
            "41-97:1 43-80:= 45-26:0 49-75:0 51-28:= 55-18:0 56-85:0 57-20:0 58-29:= 61-16:0 "
            "63-87:1 65-91:0 67-94:1 70-103:1 72-34:= 74-42:0 76-36:= 78-32:= 81-95:= 82-46:1 "
            "84-62:1 86-30:0 88-47:1 90-64:1 92-101:1 93-66:1 96-79:0 99-69:= 100-60:0 "
            "102-83:0 104-106:= 107-105:= 59:out 108:out",
            bye=1.0,
        ),
        _round(
            5,
            "2-19:1 3-6:= 4-7:1 8-31:= 10-23:1 12-52:= 16-1:0 18-33:1 20-41:0 22-51:1 24-15:= "
            "26-9:= 28-61:1 29-88:= 30-13:= 32-92:1 34-70:0 36-72:= 38-76:1 40-5:0 42-11:0 "
            "44-14:0 46-73:1 48-86:1 50-17:= 53-78:1 54-21:1 60-99:1 62-95:0 64-100:= "
            "66-102:1 68-90:0 69-93:0 71-35:0 75-37:1 77-25:= 79-43:0 80-55:1 82-39:0 83-57:0 "
            "84-45:0 85-58:= 87-49:0 89-27:0 91-67:0 94-56:= 97-74:0 98-63:= 101-104:= "
            "103-65:0 105-81:0 106-96:0 47:out 59:out 107:bye 108:out",
            bye=1.0,
        ),
        _round(
            6,
            "1-10:1 5-22:= 6-4:= 7-26:1 9-28:1 11-30:1 13-41:1 14-54:1 15-2:0 17-45:1 19-50:= "
            "21-57:= 23-70:1 24-3:0 25-48:1 27-12:0 29-60:= 31-75:= 33-85:1 35-77:= 37-82:1 "
            "39-8:0 43-93:1 49-91:= 51-89:1 52-18:0 53-98:1 55-97:0 56-83:= 58-32:0 61-36:= "
            "63-40:0 65-84:0 67-16:= 72-42:0 73-103:1 74-44:= 76-46:1 78-107:1 80-34:1 "
            "86-68:0 88-38:= 90-20:0 92-64:0 94-66:1 95-71:0 96-69:= 99-79:0 100-81:0 "
            "101-62:= 102-105:1 104-87:0 47:out 59:out 106:bye 108:out",
            bye=1.0,
        ),
        _round(
            7,
            "2-4:= 3-1:1 7-6:= 8-23:1 10-24:= 12-14:1 13-9:1 16-25:1 17-5:0 18-11:= 20-43:1 "
            "22-15:1 26-51:= 28-52:1 30-53:= 32-88:1 34-86:0 38-67:1 40-80:= 41-19:1 42-27:0 "
            "44-61:0 45-71:= 46-96:0 48-74:0 50-31:1 54-33:= 57-76:1 60-90:1 62-102:= 64-91:= "
            "68-29:= 69-95:1 70-37:0 75-35:0 77-36:0 79-94:1 81-49:= 82-65:= 83-73:1 84-39:= "
            "85-63:= 87-55:0 89-58:0 92-106:= 93-72:= 97-78:0 98-56:= 99-101:1 100-107:1 "
            "103-104:1 21:out 47:out 59:out 66:out 105:bye 108:out",
            bye=1.0,
        ),
        _round(
            8,
            "1-8:1 2-3:= 4-12:1 5-18:= 6-13:0 9-32:1 10-22:0 11-7:1 14-28:= 15-40:= 19-67:= "
            "23-53:0 25-57:1 27-50:= 31-68:0 33-60:0 35-16:= 36-54:1 37-80:= 38-20:1 39-75:= "
            "41-24:= 43-77:1 45-79:= 49-93:1 51-17:1 52-84:0 55-89:0 56-97:1 58-88:= 61-26:0 "
            "62-100:- 63-81:= 65-99:= 66-103:= 70-83:1 71-29:= 72-85:0 73-92:0 74-30:= "
            "76-98:0 78-42:0 86-64:1 90-44:0 91-69:1 94-82:= 95-34:0 96-48:0 102-46:0 "
            "105-101:0 106-87:0 21:out 47:out 59:out 104:bye 107:out 108:out",
            bye=1.0,
        ),
    ],
    not_paired=[
        _numbers("69 108"),
        _numbers("59 69"),
        _numbers("59 108"),
        _numbers("59 108"),
        _numbers("47 59 108"),
        _numbers("47 59 108"),
        _numbers("21 47 59 66 108"),
        _numbers("21 47 59 107 108"),
        _numbers("21 47 59 63 72 95 107 108"),
    ],
    next_pairings=_pairings(
        "3-4:? 5-11:? 7-36:? 8-38:? 12-6:? 13-1:? 16-41:? 17-58:? 18-9:? 20-68:? 22-2:? "
        "24-51:? 26-35:? 28-25:? 29-61:= 32-43:? 34-83:? 40-74:? 42-10:? 44-70:? 46-90:? "
        "48-71:? 50-14:? 53-27:? 54-86:? 57-91:? 60-15:? 64-87:? 67-23:? 69-94:? 75-19:? "
        "77-100:? 78-31:? 79-33:? 80-30:? 81-52:? 82-96:? 84-37:? 85-39:? 88-45:? 89-56:? "
        "92-65:? 93-76:? 97-99:? 98-49:? 101-73:? 102-106:? 103-55:= 104-62:+ 105-66:?"
    ),
)
"""A 108-player Swiss: rounds 1-8 as published, round 9's pairings, who was not paired when."""

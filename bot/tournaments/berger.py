"""Round robin by the Berger tables (FIDE Handbook C.05, Annex 1), single or double.

The tables are not stored: they follow from one rule, which reproduces FIDE's published tables
for every even size (the tests hold it to the tables for 4, 6, 8 and 10 players, round by round,
and to a real event).  With ``n`` players (an odd field gets a dummy ``n + 1``, and whoever
meets the dummy has the round off), the players ``1 .. n-1`` stand in a circle that turns by
``n / 2`` places each round; in round ``r`` the circle starts at player
``((r - 1) * n / 2) mod (n - 1) + 1``.  The first player of the circle meets ``n`` (White in odd
rounds, Black in even ones), and the others pair from the outside in: the second against the
last, the third against the second-to-last, and so on, the one nearer the start of the circle
White.  A double round robin plays the same rounds again with the colours swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Entrant, Pairing

BYE = 0
"""The pairing number standing for "no opponent" in :func:`berger_schedule`."""

MIN_PLAYERS = 3
MAX_PLAYERS = 16


def berger_schedule(players: int, *, double: bool = False) -> list[list[tuple[int, int]]]:
    """Every round's pairings as ``(white, black)`` pairing numbers, board 1 first.

    An odd field's round off is ``(player, BYE)`` (0), always the first board of its round, as
    in FIDE's tables where the dummy is the highest number.  ``double`` appends the second
    cycle: the same rounds in the same order, each colour swapped (the bye stays
    ``(player, BYE)``)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a round robin has {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    size = players + players % 2
    half = size // 2
    circle = size - 1
    rounds: list[list[tuple[int, int]]] = []
    for number in range(1, size):
        start = (number - 1) * half % circle
        order = [(start + step) % circle + 1 for step in range(circle)]
        fixed = (order[0], size) if number % 2 else (size, order[0])
        boards = [fixed] + [(order[i], order[circle - i]) for i in range(1, half)]
        rounds.append([_with_bye(pair, size if players % 2 else None) for pair in boards])
    if double:
        rounds += [[_swapped(pair) for pair in boards] for boards in rounds]
    return rounds


def _with_bye(pair: tuple[int, int], dummy: int | None) -> tuple[int, int]:
    white, black = pair
    if dummy is None:
        return pair
    if white == dummy:
        return (black, BYE)
    if black == dummy:
        return (white, BYE)
    return pair


def _swapped(pair: tuple[int, int]) -> tuple[int, int]:
    white, black = pair
    return pair if black == BYE else (black, white)


def round_robin_rounds(players: int, *, double: bool = False) -> int:
    """How many rounds a round robin of ``players`` takes."""
    return (players + players % 2 - 1) * (2 if double else 1)


def pair_round_robin(
    entrants: Sequence[Entrant], round_no: int, *, double: bool = False
) -> list[Pairing]:
    """Round ``round_no``'s pairings, the entrants' pairing numbers (1..n, fixed at the start)
    standing for the table's numbers.

    What the service gets for the players who are not playing: a round off (an odd field's
    dummy) is ``Pairing(white=player, black=None)``, as a Swiss bye is; a game against a
    withdrawn entrant is returned the same way, ``Pairing(white=the one still playing,
    black=None)``, so no game is opened against someone who left; the service records it as it
    records an unplayed round (a forfeit win or a bye, by its rules).  Withdrawn entrants
    themselves are not paired.  Boards are the table's order, the games first and the rounds
    off after them (as published crosstables list them)."""
    numbers = sorted(entrant.number for entrant in entrants)
    if numbers != list(range(1, len(entrants) + 1)):
        raise ValueError("a round robin's pairing numbers are 1..n, fixed at the start")
    schedule = berger_schedule(len(entrants), double=double)
    if not 1 <= round_no <= len(schedule):
        raise ValueError(f"round {round_no} is not in a {len(schedule)}-round robin")
    by_number = {entrant.number: entrant for entrant in entrants}
    games: list[tuple[int, int | None]] = []
    off: list[tuple[int, int | None]] = []
    for white_no, black_no in schedule[round_no - 1]:
        present = [
            by_number[n].id for n in (white_no, black_no) if n != BYE and not by_number[n].withdrawn
        ]
        if len(present) == 2:
            games.append((present[0], present[1]))
        elif present:
            off.append((present[0], None))
    return [
        Pairing(round_no, board, white, black)
        for board, (white, black) in enumerate(games + off, start=1)
    ]

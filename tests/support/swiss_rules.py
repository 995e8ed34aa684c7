"""The Swiss rules read straight from the results, independently of ``bot.tournaments.swiss``:
what the tests and ``bench/pairing.py`` hold each paired round to.  Colours are ``"white"`` and
``"black"``; a forfeit is no game (no colour, no meeting)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.tournaments.model import Result


def colours_of(results: Sequence[Result]) -> dict[int, list[str]]:
    """Each player's colours over the board, in round order."""
    colours: dict[int, list[str]] = {}
    for r in sorted(results, key=lambda r: r.round):
        if r.black is not None and not r.forfeit:
            colours.setdefault(r.white, []).append("white")
            colours.setdefault(r.black, []).append("black")
    return colours


def met(results: Sequence[Result]) -> set[frozenset[int]]:
    """The pairs who played a game."""
    return {frozenset((r.white, r.black)) for r in results if r.black is not None and not r.forfeit}


def colour_ok(history: list[str], colour: str) -> bool:
    """Whether giving ``colour`` next keeps the colour rules: no difference beyond 2, no
    third time in a row."""
    after = [*history, colour]
    return abs(after.count("white") - after.count("black")) <= 2 and after[-3:] != [colour] * 3


def due_absolute(history: list[str]) -> str | None:
    """The colour a player must get for the rules to hold, if only one does."""
    options = [c for c in ("white", "black") if colour_ok(history, c)]
    return options[0] if len(options) == 1 else None


def due(history: list[str]) -> str | None:
    """The colour a player is due: the one they had less, else the one they did not have last."""
    if not history:
        return None
    difference = history.count("white") - history.count("black")
    if difference:
        return "black" if difference > 0 else "white"
    return "black" if history[-1] == "white" else "white"


def unearned(results: Sequence[Result]) -> set[int]:
    """Who has had a bye worth points or won by forfeit: no bye for them while someone else
    can take it."""
    return {r.white for r in results if r.black is None and r.white_points} | {
        r.white if r.white_points else r.black for r in results if r.forfeit and r.black is not None
    }


def quality(games: Iterable[tuple[int, int | None]], results: Sequence[Result]) -> tuple[int, int]:
    """Games across score groups, and games between two players due the same colour."""
    points: Counter[int] = Counter()
    for r in results:
        points[r.white] += r.white_points
        if r.black is not None:
            points[r.black] += r.black_points
    history = colours_of(results)
    paired = [(w, b) for w, b in games if b is not None]
    across = sum(points[w] != points[b] for w, b in paired)
    clashes = sum(
        due(history.get(w, [])) is not None and due(history.get(w, [])) == due(history.get(b, []))
        for w, b in paired
    )
    return across, clashes


def breaches(games: Iterable[tuple[int, int | None]], results: Sequence[Result]) -> list[str]:
    """What a round's games break: a repeat pairing, a colour given against the rules."""
    before, history = met(results), colours_of(results)
    found = []
    for white, black in games:
        if black is None:
            continue
        if frozenset((white, black)) in before:
            found.append(f"{white} and {black} meet again")
        if not colour_ok(history.get(white, []), "white"):
            found.append(f"{white} cannot have White again")
        if not colour_ok(history.get(black, []), "black"):
            found.append(f"{black} cannot have Black again")
    return found

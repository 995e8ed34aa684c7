"""Swiss pairing: a real event's rounds reproduced from its published pairings, the rules each
round must keep (hypothesis, checked against a brute-force search of every pairing of small
fields), and determinism."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.tournament_events import JEDDAH_2026, player

from bot.tournaments.model import Entrant, Pairing, Result
from bot.tournaments.swiss import pair_swiss


def test_a_real_swiss_round_one_and_two_as_published() -> None:
    """The 2026 Jeddah qualifier (support/tournament_events.py cites it): round 1 with the top
    seed drawn Black, 31 players (32 entered late: not paired) and the bye to the lowest;
    round 2 after two forfeits (which spend no colour) with the late entry: every board,
    colour and board number as Swiss-Manager published them."""
    event = JEDDAH_2026
    first = pair_swiss(event.entrants, [], 1, initial_colour="black")
    assert [(p.board, p.white, p.black) for p in first] == [
        (board, r.white, r.black) for board, r in enumerate(event.rounds[0], start=1)
    ]
    second = pair_swiss(event.entrants, event.rounds[0], 2, initial_colour="black")
    assert [(p.white, p.black) for p in second] == event.next_pairings
    assert [p.board for p in second] == list(range(1, 17))
    assert {p.round for p in first} == {1} and {p.round for p in second} == {2}


def test_results_of_the_round_and_later_are_ignored() -> None:
    event = JEDDAH_2026
    later = [Result(2, player(1), player(10), 1.0, 0.0), Result(5, player(2), player(3), 0, 1)]
    assert pair_swiss(event.entrants, [*event.rounds[0], *later], 2, initial_colour="black") == (
        pair_swiss(event.entrants, event.rounds[0], 2, initial_colour="black")
    )


def test_withdrawn_players_are_not_paired_and_their_games_stay() -> None:
    entrants = [Entrant(n, f"p{n}", 2000.0 - n, n) for n in range(1, 6)]
    entrants[0] = Entrant(1, "p1", 1999.0, 1, withdrawn=True)
    results = [Result(1, 1, 3, 1.0, 0.0), Result(1, 4, 2, 0.0, 1.0), Result(1, 5, None, 1.0, 0.0)]
    pairings = pair_swiss(entrants, results, 2)
    assert 1 not in {p.white for p in pairings} | {p.black for p in pairings}
    # 2 (1 point) and 5 (1 point, had the bye) play; 3 and 4 (0) play; no one sits out.
    assert {frozenset((p.white, p.black)) for p in pairings} == {
        frozenset((2, 5)),
        frozenset((3, 4)),
    }


def test_no_bye_twice_nor_after_a_forfeit_win() -> None:
    entrants = [Entrant(n, f"p{n}", 2000.0 - n, n) for n in range(1, 6)]
    results = [
        Result(1, 1, 4, 1.0, 0.0),
        Result(1, 2, 3, 0.0, 1.0, forfeit=True),  # 3 won by forfeit
        Result(1, 5, None, 1.0, 0.0),  # 5 had the bye
    ]
    bye = [p.white for p in pair_swiss(entrants, results, 2) if p.black is None]
    assert bye == [4]  # lowest ranked on 0 points: 4 (2 is higher ranked), not 5 nor 3


def test_bad_initial_colour_is_refused() -> None:
    with pytest.raises(ValueError, match="initial_colour"):
        pair_swiss([], [], 1, initial_colour="red")


# -- properties ---------------------------------------------------------------------------------


def _colours_of(results: Sequence[Result]) -> dict[int, list[str]]:
    colours: dict[int, list[str]] = {}
    for r in sorted(results, key=lambda r: r.round):
        if r.black is not None and not r.forfeit:
            colours.setdefault(r.white, []).append("white")
            colours.setdefault(r.black, []).append("black")
    return colours


def _met(results: Sequence[Result]) -> set[frozenset[int]]:
    return {frozenset((r.white, r.black)) for r in results if r.black is not None and not r.forfeit}


def _colour_ok(history: list[str], colour: str) -> bool:
    """Whether giving ``colour`` next keeps the colour rules: no difference beyond 2, no
    third time in a row."""
    after = [*history, colour]
    return abs(after.count("white") - after.count("black")) <= 2 and after[-3:] != [colour] * 3


def _due_absolute(history: list[str]) -> str | None:
    """The colour a player must get for the rules to hold, if only one does."""
    options = [c for c in ("white", "black") if _colour_ok(history, c)]
    return options[0] if len(options) == 1 else None


def _perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in _perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def _exists_round(active: list[int], results: Sequence[Result], *, colours_too: bool) -> bool:
    """Brute force: some choice of bye (among those who may have it: :func:`_unearned`) and
    pairing with no repeat (and, with ``colours_too``, no two players who must both have the
    same colour)."""
    met, history = _met(results), _colours_of(results)
    eligible = [p for p in active if p not in _unearned(results)] or active
    sitting: Sequence[int | None] = eligible if len(active) % 2 else [None]
    for bye in sitting:
        rest = [p for p in active if p != bye]
        for matching in _perfect_matchings(rest):
            if any(frozenset(pair) in met for pair in matching):
                continue
            if colours_too and any(
                (due := _due_absolute(history.get(a, []))) is not None
                and due == _due_absolute(history.get(b, []))
                for a, b in matching
            ):
                continue
            return True
    return False


def _unearned(results: Sequence[Result]) -> set[int]:
    """Who has had a bye or won by forfeit: no bye for them while someone else can take it."""
    return {r.white for r in results if r.black is None} | {
        r.white if r.white_points else r.black for r in results if r.forfeit and r.black is not None
    }


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], int, int]:
    size = draw(st.integers(min_value=2, max_value=9))
    rounds = draw(st.integers(min_value=1, max_value=min(7, size + 1)))
    late = draw(st.dictionaries(st.integers(1, size), st.integers(2, 3), max_size=2))
    entrants = [
        Entrant(100 + n, f"p{n}", 2000.0 - 10 * n, n, joined_round=late.get(n, 1))
        for n in range(1, size + 1)
    ]
    return entrants, rounds, draw(st.integers(0, 2**32 - 1))


def _play(
    entrants: list[Entrant], rounds: int, seed: int
) -> Iterator[tuple[int, list[Entrant], list[Result], list[Pairing]]]:
    """Plays the event with random results (some forfeits, a withdrawal now and then),
    yielding each round's entrants, prior results and pairings."""
    rng = random.Random(seed)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        if number > 2 and rng.random() < 0.2:
            gone = rng.randrange(len(entrants))
            entrants = [
                Entrant(e.id, e.name, e.rating, e.number, withdrawn=e.withdrawn or i == gone)
                if i == gone
                else e
                for i, e in enumerate(entrants)
            ]
        pairings = pair_swiss(entrants, results, number)
        yield number, entrants, list(results), pairings
        for p in pairings:
            if p.black is None:
                results.append(Result(number, p.white, None, 1.0, 0.0))
                continue
            white = rng.choice([1.0, 0.5, 0.0])
            forfeit = rng.random() < 0.05 and white != 0.5
            results.append(Result(number, p.white, p.black, white, 1.0 - white, forfeit=forfeit))


@settings(max_examples=60)
@given(tournaments())
def test_every_round_keeps_the_rules_when_it_can(
    case: tuple[list[Entrant], int, int],
) -> None:
    entrants, rounds, seed = case
    for number, current, before, pairings in _play(entrants, rounds, seed):
        active = sorted(e.id for e in current if not e.withdrawn and e.joined_round <= number)
        seated = [p.white for p in pairings] + [p.black for p in pairings if p.black is not None]
        # Every active player exactly once, the bye only for an odd field, boards 1..n.
        assert sorted(seated) == active
        assert sum(p.black is None for p in pairings) == len(active) % 2
        assert [p.board for p in pairings] == list(range(1, len(pairings) + 1))
        # Deterministic.
        assert pair_swiss(current, before, number) == pairings
        games = [(p.white, p.black) for p in pairings if p.black is not None]
        met, history = _met(before), _colours_of(before)
        repeats = any(frozenset(g) in met for g in games)
        if repeats:
            assert not _exists_round(active, before, colours_too=False)
        colour_breach = any(
            not _colour_ok(history.get(w, []), "white")
            or not _colour_ok(history.get(b, []), "black")
            for w, b in games
        )
        if colour_breach and not repeats:
            assert not _exists_round(active, before, colours_too=True)
        for p in pairings:
            if p.black is None and p.white in _unearned(before):
                assert set(active) <= _unearned(before)


def test_two_hundred_players_nine_rounds_pair_within_the_rules() -> None:
    """The benchmark's size once (bench/pairing.py times it): every round legal."""
    entrants = [Entrant(n, f"p{n}", 2400.0 - n, n) for n in range(1, 201)]
    for _, _, before, pairings in _play(entrants, 9, 2026):
        met, history = _met(before), _colours_of(before)
        for p in pairings:
            if p.black is not None:
                assert frozenset((p.white, p.black)) not in met
                assert _colour_ok(history.get(p.white, []), "white")
                assert _colour_ok(history.get(p.black, []), "black")

"""Swiss pairing by score groups, after the FIDE Dutch system (Handbook C.04.3), written here.

Why not a library: the package index's ``pairing-core`` (0.4.1, MIT) was tried on a real
event and failed it (docs/TOURNAMENTS.md says how), so the bot pairs with this module, which
reproduces the published rounds of the 2026 Jeddah qualifier (tests/tournaments).

**Who is paired.**  Every entrant not withdrawn whose ``joined_round`` has come.  Their score is
every point of their results so far (byes and forfeits included); their colours and opponents
are those of games played over the board: a forfeit spends no colour and leaves the two free to
meet later (C.04.1).  Ranking: score, then pairing number.

**The bye.**  With an odd number, the lowest-ranked player who has had neither a bye nor a
forfeit win gets the bye (never twice, nor after a forfeit win, while someone else can take
it), provided the others can still all be paired.

**Score groups** are paired from the top.  A group holds its players plus those who floated
down to it; those are paired first, each with the highest resident it can meet.  The rest is
split in halves, S1 and S2, and S1's players take S2's in order, trying other S2 players
(transpositions), then players of S1 (exchanges) when the rules call for it; whoever cannot be
paired floats down, the lowest ranked first.  A pairing of the group is only taken if everyone
below can still be paired (the Dutch system's completion rule).  Among the group's pairings the
one with the most games wins, then the one with fewest colour clashes (both players due the
same colour), then the first in that order: that is Dutch's order of transpositions.

**Absolute rules**, kept while they can be: no one meets the same opponent twice, and no one is
given a colour that puts them three games ahead of the other colour or three times in a row
(two players who must both have the same colour are not paired).  When a round cannot be paired
so, the colour rule gives way first, then the rule against meeting again (an event with more
rounds than it can hold).  Not modelled: the Dutch system's float history and its last-round
leniency for top scorers; very large groups stop searching after a fixed number of steps and
take the best pairing found, which keeps a round of hundreds of players well under a second.

**Colours** within a game (C.04.3 E): both preferences when they differ; else the stronger
preference (absolute, then a colour difference, then alternation); else alternate from the most
recent round the two had different colours; else the higher-ranked player's preference.  Two
players without a game yet: the higher-ranked one gets ``initial_colour`` when their pairing
number is odd, the other colour when it is even (the colour drawn by lot for round 1).

**Boards**: the higher score of the pair first, then the sum of both, then the higher-ranked
player's rank; the bye is the last board.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .model import Entrant, Pairing, Result

WHITE = "white"
BLACK = "black"

NO_REPEATS_NO_COLOUR_CLASH = 0
NO_REPEATS = 1
ANYTHING = 2
_LEVELS = (NO_REPEATS_NO_COLOUR_CLASH, NO_REPEATS, ANYTHING)

_STEPS = 60_000
"""Search steps a round may spend at one level before taking what it has (determinism: steps,
not seconds)."""


@dataclass
class _Player:
    """What the pairing knows of one player before the round."""

    id: int
    number: int
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    opponents: set[int] = field(default_factory=set)
    unearned: bool = False
    """Had a bye or a forfeit win: may not get the bye again while someone else can."""

    @property
    def difference(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    @property
    def due(self) -> tuple[str | None, int]:
        """The colour due and how strongly: 3 absolute, 2 strong, 1 mild, 0 none."""
        if not self.colours:
            return None, 0
        last = self.colours[-1]
        other = BLACK if last == WHITE else WHITE
        if self.difference > 1 or self.difference < -1:
            return (BLACK if self.difference > 0 else WHITE), 3
        if len(self.colours) >= 2 and self.colours[-2] == last:
            return other, 3
        if self.difference:
            return (BLACK if self.difference > 0 else WHITE), 2
        return other, 1


def _players(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int
) -> list[_Player]:
    active = {
        e.id: _Player(e.id, e.number)
        for e in entrants
        if not e.withdrawn and e.joined_round <= round_no
    }
    everyone = {e.id: active.get(e.id) or _Player(e.id, e.number) for e in entrants}
    for result in sorted(results, key=lambda r: r.round):
        if result.round >= round_no:
            continue
        white = everyone.get(result.white)
        black = everyone.get(result.black) if result.black is not None else None
        if white is not None:
            white.score += result.white_points
            white.unearned |= result.black is None or (result.forfeit and result.white_points > 0)
        if black is not None:
            black.score += result.black_points
            black.unearned |= result.forfeit and result.black_points > 0
        if white is not None and black is not None and not result.forfeit:
            white.colours.append(WHITE)
            black.colours.append(BLACK)
            white.opponents.add(black.id)
            black.opponents.add(white.id)
    return sorted(active.values(), key=lambda p: (-p.score, p.number))


class _Budget:
    def __init__(self) -> None:
        self.left = _STEPS

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _allowed(a: _Player, b: _Player, level: int) -> bool:
    if level >= ANYTHING:
        return True
    if b.id in a.opponents:
        return False
    if level >= NO_REPEATS:
        return True
    (colour_a, strength_a), (colour_b, strength_b) = a.due, b.due
    return not (strength_a == 3 and strength_b == 3 and colour_a == colour_b)


def _clash(a: _Player, b: _Player) -> bool:
    return a.due[0] is not None and a.due[0] == b.due[0]


def _matchable(players: Sequence[_Player], level: int, budget: _Budget) -> bool:
    """Whether ``players`` can all be paired at ``level`` (optimistic when the steps run out:
    a group whose remainder then fails is simply searched again)."""

    def search(rest: list[_Player]) -> bool:
        if not rest:
            return True
        if not budget.spend():
            return True
        first, others = rest[0], rest[1:]
        for index, other in enumerate(others):
            if _allowed(first, other, level) and search(others[:index] + others[index + 1 :]):
                return True
        return False

    return len(players) % 2 == 0 and search(list(players))


def _partner_order(
    unpaired: list[_Player], floats_left: int, resident_score: float
) -> list[_Player]:
    """Who the first of ``unpaired`` tries, in the Dutch order."""
    first, rest = unpaired[0], unpaired[1:]
    if first.score > resident_score:
        residents = [p for p in rest if p.score == resident_score]
        return residents + [p for p in rest if p.score != resident_score]
    pairs_left = (len(unpaired) - floats_left) // 2
    s1, s2 = unpaired[1:pairs_left], unpaired[pairs_left:]
    return s2 + s1[::-1]


def _bracket_pairings(
    bracket: list[_Player], floats: int, clashes: int, level: int, budget: _Budget
) -> Iterator[tuple[list[tuple[_Player, _Player]], list[_Player]]]:
    """The pairings of ``bracket`` leaving exactly ``floats`` players unpaired with at most
    ``clashes`` colour clashes, in the Dutch order."""
    resident_score = bracket[-1].score

    def search(
        unpaired: list[_Player], floats_left: int, clashes_left: int
    ) -> Iterator[tuple[list[tuple[_Player, _Player]], list[_Player]]]:
        if not unpaired:
            yield [], []
            return
        if not budget.spend():
            return
        if _clash_bound(unpaired, floats_left) > clashes_left:
            return
        first = unpaired[0]
        for partner in _partner_order(unpaired, floats_left, resident_score):
            if not _allowed(first, partner, level):
                continue
            cost = int(_clash(first, partner))
            if cost > clashes_left:
                continue
            rest = [p for p in unpaired[1:] if p is not partner]
            for pairs, floaters in search(rest, floats_left, clashes_left - cost):
                yield [(first, partner), *pairs], floaters
        if floats_left:
            for pairs, floaters in search(unpaired[1:], floats_left - 1, clashes_left):
                yield pairs, [first, *floaters]

    yield from search(bracket, floats, clashes)


def _clash_bound(unpaired: Sequence[_Player], floats: int) -> int:
    """At least this many clashes remain: more players due one colour than games to give it."""
    games = (len(unpaired) - floats) // 2
    whites = sum(1 for p in unpaired if p.due[0] == WHITE)
    blacks = sum(1 for p in unpaired if p.due[0] == BLACK)
    return max(0, whites - floats - games) + max(0, blacks - floats - games)


def _pair_groups(
    groups: list[list[_Player]], level: int, budget: _Budget
) -> list[tuple[_Player, _Player]] | None:
    """Pair the score groups from the top, each leaving a remainder that can be paired."""

    def solve(index: int, carried: list[_Player]) -> list[tuple[_Player, _Player]] | None:
        if index == len(groups):
            return [] if not carried else None
        bracket = carried + groups[index]
        below = [p for group in groups[index + 1 :] for p in group]
        last = index == len(groups) - 1
        least = len(bracket) % 2
        for floats in [least] if last else range(least, len(bracket) + 1, 2):
            for clashes in range(_clash_bound(bracket, floats), len(bracket) // 2 + 1):
                for pairs, floaters in _bracket_pairings(bracket, floats, clashes, level, budget):
                    if not last and not _matchable(floaters + below, level, budget):
                        continue
                    rest = solve(index + 1, floaters)
                    if rest is not None:
                        return pairs + rest
                    if budget.left < 0:
                        return None
                if budget.left < 0:
                    return None
        return None

    return solve(0, [])


def _groups(players: Sequence[_Player]) -> list[list[_Player]]:
    groups: list[list[_Player]] = []
    for player in players:
        if groups and groups[-1][0].score == player.score:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups


def _opposite(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def _colours(higher: _Player, lower: _Player, initial_colour: str) -> tuple[_Player, _Player]:
    """(white, black) for two players, ``higher`` ranked above ``lower`` (C.04.3 E)."""
    (want_h, strength_h), (want_l, strength_l) = higher.due, lower.due
    if want_h is None and want_l is None:
        gets = initial_colour if higher.number % 2 else _opposite(initial_colour)
    elif want_h is None or want_l is None or want_h != want_l:
        gets = want_h if want_h is not None else _opposite(str(want_l))
    elif strength_h != strength_l:
        gets = want_h if strength_h > strength_l else _opposite(want_h)
    elif strength_h == 3 and abs(higher.difference) != abs(lower.difference):
        wider = abs(higher.difference) > abs(lower.difference)
        gets = want_h if wider else _opposite(want_h)
    else:
        differing = next(
            (
                mine
                for mine, theirs in zip(
                    reversed(higher.colours), reversed(lower.colours), strict=False
                )
                if mine != theirs
            ),
            None,
        )
        gets = _opposite(differing) if differing is not None else want_h
    return (higher, lower) if gets == WHITE else (lower, higher)


def _bye_candidates(players: Sequence[_Player]) -> list[_Player]:
    lowest_first = sorted(players, key=lambda p: (p.score, -p.number))
    eligible = [p for p in lowest_first if not p.unearned]
    return eligible or lowest_first


def pair_swiss(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    *,
    initial_colour: str = WHITE,
) -> list[Pairing]:
    """Round ``round_no``'s pairings from the entrants and every result of the rounds before
    (results of ``round_no`` or later are ignored).  ``initial_colour`` is the colour drawn by
    lot for the top seed in round 1 (C.04.3: the first round's colours alternate down the
    boards from it).  The same arguments give the same pairings."""
    if initial_colour not in (WHITE, BLACK):
        raise ValueError(f"initial_colour is {WHITE!r} or {BLACK!r}, not {initial_colour!r}")
    players = _players(entrants, results, round_no)
    rank = {p.id: index for index, p in enumerate(players)}
    for level in _LEVELS:
        budget = _Budget()
        byes: list[_Player | None] = [*_bye_candidates(players)] if len(players) % 2 else [None]
        for bye in byes:
            rest = [p for p in players if p is not bye]
            if not _matchable(rest, level, budget):
                continue
            pairs = _pair_groups(_groups(rest), level, budget)
            if pairs is not None:
                return _boards(pairs, bye, rank, round_no, initial_colour)
            if budget.left < 0:
                break
    raise AssertionError("pairing at the level that allows anything cannot fail")


def _boards(
    pairs: list[tuple[_Player, _Player]],
    bye: _Player | None,
    rank: dict[int, int],
    round_no: int,
    initial_colour: str,
) -> list[Pairing]:
    ordered = sorted(
        (sorted(pair, key=lambda p: rank[p.id]) for pair in pairs),
        key=lambda pair: (
            -pair[0].score if pair[0].score >= pair[1].score else -pair[1].score,
            -(pair[0].score + pair[1].score),
            rank[pair[0].id],
        ),
    )
    pairings = []
    for board, (higher, lower) in enumerate(ordered, start=1):
        white, black = _colours(higher, lower, initial_colour)
        pairings.append(Pairing(round_no, board, white.id, black.id))
    if bye is not None:
        pairings.append(Pairing(round_no, len(pairings) + 1, bye.id, None))
    return pairings

"""The ACF three-move ballots of English draughts / American checkers.

Why ballots exist: between strong players the free choice of opening ("go as you please") leads to
a few well-analysed lines and a great many draws.  Competition rules therefore impose the opening:
the first three moves (Black, White, Black) are drawn by ballot from an approved list, after which
White plays the fourth move and the game is free.  Because a balloted opening can favour one side,
a match pairs the games: both players play the same ballot, once with each colour.  This both
reduces draws and varies the openings, so preparation of a single pet line is not enough.

The list is the American Checker Federation's: 174 openings numbered as the ACF does, each either
approved for cross-board play (the ones drawn for games here), approved only for correspondence
play (sound but judged too hard for over-the-board play), or barred (it loses by force).  The data
lives in ``rules/data/acf_three_move.tsv``, which names its source.

Only English draughts has ballots: no sound published ballot list was found for International
draughts (or the other variants), so they keep the free opening.

>>> ACF_BALLOTS[7].label
'ACF #8 Edinburgh Single: 9-13 22-18 11-15'
>>> ballot_of(("9-13", "22-18", "10-15")).label
'ACF #7: 9-13 22-18 10-15'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files

CATEGORIES: tuple[str, ...] = ("crossboard", "mail", "barred")
"""Allowed categories: cross-board approved, correspondence (mail) play only, barred."""

_MOVE = re.compile(r"[1-9][0-9]?(?:[-x][1-9][0-9]?)+")
"""A PDN move in numeric notation (``9-13``, ``13x22``); squares are checked by the tests."""


@dataclass(frozen=True)
class Ballot:
    """One opening of the ballot list: its ACF number, its three moves, category and name."""

    number: int
    moves: tuple[str, ...]
    category: str
    name: str

    @property
    def label(self) -> str:
        """How the bot shows the opening: ``ACF #8 Edinburgh Single: 9-13 22-18 11-15``; the
        number identifies it for players who know the list, the moves for those who do not."""
        title = f"ACF #{self.number} {self.name}" if self.name else f"ACF #{self.number}"
        return f"{title}: {' '.join(self.moves)}"


def parse_ballots(text: str) -> tuple[Ballot, ...]:
    """Parse the ballot table (see the data file's header for its format).

    The rows are validated strictly, because a typo in hand-transcribed data would otherwise only
    show up as a wrong opening in a game: numbers must run 1, 2, 3... in order, each row must have
    three moves in PDN form and a known category, and no two rows may share their moves.  Errors
    raise :class:`ValueError` naming the (1-based) line.
    """
    ballots: list[Ballot] = []
    seen: set[tuple[str, ...]] = set()
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        # An empty name may lose its trailing tab to an editor; accept both forms.
        if len(fields) == 3:
            fields.append("")
        if len(fields) != 4:
            raise ValueError(f"line {line_no}: expected 4 tab-separated fields, got {len(fields)}")
        number_text, moves_text, category, name = fields
        expected = len(ballots) + 1
        if not number_text.isdigit() or int(number_text) != expected:
            raise ValueError(
                f"line {line_no}: expected opening number {expected}, got {number_text!r}"
            )
        moves = tuple(moves_text.split())
        if len(moves) != 3 or not all(_MOVE.fullmatch(move) for move in moves):
            raise ValueError(f"line {line_no}: expected three PDN moves, got {moves_text!r}")
        if category not in CATEGORIES:
            raise ValueError(f"line {line_no}: unknown category {category!r}")
        if moves in seen:
            raise ValueError(f"line {line_no}: duplicate opening {moves_text!r}")
        seen.add(moves)
        ballots.append(Ballot(int(number_text), moves, category, name.strip()))
    return tuple(ballots)


def _load() -> tuple[Ballot, ...]:
    """Read the packaged data file (``importlib.resources`` so it also works from a wheel)."""
    resource = files("rules") / "data" / "acf_three_move.tsv"
    return parse_ballots(resource.read_text(encoding="utf-8"))


ACF_BALLOTS: tuple[Ballot, ...] = _load()
"""All 174 ACF openings in ACF order (``ACF_BALLOTS[n - 1].number == n``)."""

CROSSBOARD: tuple[Ballot, ...] = tuple(b for b in ACF_BALLOTS if b.category == "crossboard")
"""The openings approved for over-the-board play: the only ones drawn for games."""

_BY_MOVES: dict[tuple[str, ...], Ballot] = {b.moves: b for b in ACF_BALLOTS}


def draw_ballot(rng: random.Random) -> Ballot:
    """Draw an opening uniformly among the cross-board ones.  The caller passes the generator so
    that a seeded one reproduces the draw (tests, and replaying a match's ballots)."""
    return rng.choice(CROSSBOARD)


def ballot_of(moves: Sequence[str]) -> Ballot | None:
    """The ballot whose moves are exactly ``moves`` (the first three PDN moves of a stored game,
    written as ``Move.pdn`` writes them), to show a game's opening by name; ``None`` if none."""
    return _BY_MOVES.get(tuple(moves))

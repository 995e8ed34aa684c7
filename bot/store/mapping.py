"""How rows cross between a database and the store's row types, for every implementation:
decoding a ``SELECT`` into the dataclasses of :mod:`bot.store.rows` (enums and flags restored),
and the column lists and value tuples built once from the dataclasses' fields.  No driver is
imported here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, TypeVar

from ..enums import ChallengeStatus, ColorChoice, GameStatus, Side, ThreadMode, TournamentStatus
from .rows import (
    AnalysisRow,
    ChallengeRow,
    EventRow,
    GameRow,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsRow,
    RatingRow,
    SettingsRow,
)
from .tournament_rows import PairingRow, TournamentPlayerRow, TournamentRow

Row = TypeVar(
    "Row",
    AnalysisRow,
    ChallengeRow,
    EventRow,
    GameRow,
    MoveRow,
    PrefsRow,
    RatingRow,
    SettingsRow,
    TournamentRow,
    TournamentPlayerRow,
    PairingRow,
)


def enum_of(kind: type[StrEnum]) -> Callable[[str], StrEnum]:
    """The member stored as a word, by a dict lookup (``kind(word)`` goes through the enum
    machinery, several times slower, and rows are decoded on every move); a word that is no
    member still raises ``ValueError``."""
    members: dict[str, StrEnum] = {member.value: member for member in kind}
    return lambda word: members.get(word) or kind(word)


def _on(value: Any) -> bool:
    """A stored flag: only 1 (or true) is on, so a damaged value reads as off (the default)."""
    return bool(value == 1)


def decoder(cls: type[Row], **kinds: Callable[[Any], Any]) -> Callable[[Sequence[Any]], Row]:
    """A function from a ``SELECT`` of ``cls``'s columns (in field order) to a ``cls``, with the
    columns named in ``kinds`` converted (enums from their stored words, flags from 0/1 or
    booleans)."""
    names = [f.name for f in fields(cls)]
    convert = [(names.index(name), kind) for name, kind in kinds.items()]

    def decode(raw: Sequence[Any]) -> Row:
        values = list(raw)
        for index, kind in convert:
            if values[index] is not None:
                values[index] = kind(values[index])
        return cls(*values)

    return decode


DECODE: dict[type[Any], Callable[[Sequence[Any]], Any]] = {
    ChallengeRow: decoder(
        ChallengeRow,
        color=enum_of(ColorChoice),
        status=enum_of(ChallengeStatus),
        thread=bool,
        match_play=bool,
    ),
    GameRow: decoder(
        GameRow,
        status=enum_of(GameStatus),
        winner=enum_of(Side),
        draw_offer=enum_of(Side),
        advantage_side=enum_of(Side),
        takeback_offer=enum_of(Side),
        rated=bool,
        flip=bool,
    ),
    MoveRow: decoder(MoveRow),
    EventRow: decoder(EventRow),
    RatingRow: decoder(RatingRow),
    SettingsRow: decoder(
        SettingsRow,
        threads=enum_of(ThreadMode),
        orientation=str,
        theme=str,
        language=str,
        guild_locale=str,
    ),
    PrefsRow: decoder(PrefsRow, theme=str, notation=str, dm_turn=_on, last_warning=_on, locale=str),
    TournamentRow: decoder(
        TournamentRow,
        status=enum_of(TournamentStatus),
        rated=bool,
        double_round_robin=bool,
        berserk=bool,
    ),
    TournamentPlayerRow: decoder(TournamentPlayerRow, withdrawn=bool, paused=bool),
    AnalysisRow: decoder(AnalysisRow),
    PairingRow: decoder(
        PairingRow, forfeit=bool, white_berserk=bool, black_berserk=bool, reminded=bool
    ),
}
COLUMNS = {cls: ", ".join(f.name for f in fields(cls)) for cls in DECODE}
NEW_MOVE_COLUMNS = ", ".join(f.name for f in fields(NewMove))
MOVE_COLUMNS = f"game_id, {NEW_MOVE_COLUMNS}"
NEW_GAME_FIELDS = tuple(
    f.name for f in fields(NewGame) if f.name not in ("first_of_match", "moves")
)
NEW_CHALLENGE_FIELDS = tuple(f.name for f in fields(NewChallenge))
RATING_FIELDS = tuple(f.name for f in fields(RatingRow))
RATING_COLUMNS = COLUMNS[RatingRow]
NEW_EVENT_FIELDS = tuple(f.name for f in fields(NewEvent))
NEW_EVENT_COLUMNS = ", ".join(NEW_EVENT_FIELDS)


VALUE_GETTERS: dict[type[Any], Callable[[Any], tuple[Any, ...]]] = {
    cls: attrgetter(*(f.name for f in fields(cls)))
    for cls in (NewChallenge, NewMove, RatingRow, NewEvent)
}


def row_values(record: NewChallenge | NewMove | RatingRow | NewEvent) -> tuple[Any, ...]:
    """A record's field values in order, for an ``INSERT`` (``dataclasses.astuple`` deep-copies
    each one, and ``fields()`` is slow enough to show in a move's cost)."""
    return VALUE_GETTERS[type(record)](record)


def select_from(cls: type[Any], table: str) -> str:
    return f"SELECT {COLUMNS[cls]} FROM {table}"

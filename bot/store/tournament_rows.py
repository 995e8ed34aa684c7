"""The rows of a tournament (schema v13) as they cross the storage boundary, and the shape of
one change to a tournament.

A tournament changes only by a *step* (:data:`TournamentStep`): the store locks the
tournament, reads it whole (:class:`TournamentState`), hands it to the service's step, a pure
function, and writes what the step answers (:class:`TournamentWrites`) in the same
transaction, with the outbox entries announcing it.  The same step runs inside a game's final
transaction (:class:`TournamentUpdate`, see :meth:`bot.store.Store.update_game`), so a round's
next pairings are written with the result that completes it, and two games ending at once
pair the next round once: the second step reads what the first wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

from ..enums import TournamentStatus
from .rows import NewEvent


@dataclass(frozen=True)
class NewTournament:
    """A tournament to create (open for entries); its id, status and round come from the
    store."""

    guild_id: int
    channel_id: int
    name: str
    format: str
    """``swiss``, ``round_robin`` or ``arena`` (:class:`bot.tournaments.model.Format`)."""
    variant: str
    move_time: int
    """Seconds per move when there is no clock (correspondence)."""
    clock_base: float | None
    clock_increment: float | None
    rated: bool
    rounds: int | None
    """A Swiss's rounds (a round robin's follow from its players; None for an arena)."""
    double_round_robin: bool
    duration: float | None
    """An arena's length in seconds."""
    starts_at: float | None
    """When the tick starts it (None: a moderator starts it)."""
    min_rating: int | None
    max_rating: int | None
    max_players: int | None
    forfeit_after: float
    """Seconds a player may take over their first move before losing by forfeit."""
    berserk: bool
    bye_points: float
    created_by: int
    created_at: float


@dataclass(frozen=True)
class TournamentRow(NewTournament):
    id: int = 0
    status: TournamentStatus = TournamentStatus.OPEN
    round: int = 0
    """The round being played (0 before the start; an arena counts its pairing waves)."""
    started_at: float | None = None
    ends_at: float | None = None
    """An arena's end."""
    ended_at: float | None = None
    message_id: int | None = None
    """The announcement with the Join / Leave buttons, once posted."""
    version: int = 0


@dataclass(frozen=True)
class TournamentPlayerRow:
    tournament_id: int
    user_id: int
    name: str
    rating: float
    """Their rating in the event's variant and pool when they joined: the seeding."""
    number: int
    """The pairing number (renumbered by rating at the start; late entries after everyone)."""
    joined_at: float
    joined_round: int = 1
    withdrawn: bool = False
    paused: bool = False
    performance: int | None = None
    """The performance rating over the event, kept when it ends."""


@dataclass(frozen=True)
class NewPairing:
    """A pairing to insert; a bye (``black_id`` None) is decided at once."""

    round: int
    board: int
    white_id: int
    black_id: int | None
    created_at: float
    white_points: float | None = None
    black_points: float | None = None
    forfeit: bool = False
    decided_at: float | None = None


@dataclass(frozen=True)
class PairingRow:
    id: int
    tournament_id: int
    round: int
    board: int
    white_id: int
    black_id: int | None
    game_id: int | None
    white_points: float | None
    black_points: float | None
    forfeit: bool
    white_berserk: bool
    black_berserk: bool
    moves: int
    """Plies the game lasted (an arena's berserk bonus needs a few)."""
    reminded: bool
    """The no-show reminder was given."""
    fixed_reason: str | None
    """A moderator's reason for the result they set (shown with it)."""
    fixed_by: int | None
    created_at: float
    decided_at: float | None

    @property
    def decided(self) -> bool:
        return self.white_points is not None


class TournamentChanges(TypedDict, total=False):
    status: TournamentStatus
    round: int
    started_at: float | None
    ends_at: float | None
    ended_at: float | None
    message_id: int | None


class PlayerChanges(TypedDict, total=False):
    number: int
    rating: float
    withdrawn: bool
    paused: bool
    performance: int | None
    joined_round: int


class PairingChanges(TypedDict, total=False):
    white_points: float | None
    black_points: float | None
    forfeit: bool
    white_berserk: bool
    black_berserk: bool
    moves: int
    reminded: bool
    fixed_reason: str | None
    fixed_by: int | None
    decided_at: float | None


@dataclass(frozen=True)
class TournamentState:
    """A tournament read whole inside the transaction that changes it."""

    tournament: TournamentRow
    players: tuple[TournamentPlayerRow, ...]
    """By pairing number."""
    pairings: tuple[PairingRow, ...]
    """In the order they were made (round, board)."""


@dataclass(frozen=True)
class TournamentWrites:
    """What one step changes; an empty one changes nothing (not even the version)."""

    tournament: TournamentChanges = field(default_factory=lambda: TournamentChanges())
    new_players: tuple[TournamentPlayerRow, ...] = ()
    removed_players: tuple[int, ...] = ()
    players: tuple[tuple[int, PlayerChanges], ...] = ()
    """(user id, changes)."""
    pairings: tuple[tuple[int, PairingChanges], ...] = ()
    """(pairing id, changes)."""
    new_pairings: tuple[NewPairing, ...] = ()
    removed_pairings: tuple[int, ...] = ()
    """Pairings that no longer count (an arena's games still running at its end)."""
    events: tuple[NewEvent, ...] = ()
    """Outbox entries announcing the change (their ``tournament_id`` is filled in)."""

    @property
    def empty(self) -> bool:
        return not (
            self.tournament
            or self.new_players
            or self.removed_players
            or self.players
            or self.pairings
            or self.new_pairings
            or self.removed_pairings
            or self.events
        )


TournamentStep = Callable[[TournamentState], TournamentWrites]
"""The service's decision on a tournament as it stands (raising refuses, and nothing is
written)."""


@dataclass(frozen=True)
class TournamentUpdate:
    """A step to run, inside a game's final transaction, on the tournament of the pairing the
    game was played for (nothing when that pairing no longer counts: an arena that ended)."""

    pairing_id: int
    step: TournamentStep

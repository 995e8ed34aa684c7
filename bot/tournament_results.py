"""What the service says about a tournament (the Discord layer's side of it), beside
:mod:`bot.results`, which re-exports every name here: the terms a moderator sets
(:class:`TournamentSpec`) and a tournament as it stands (:class:`TournamentView`), with its
standings as the pure tournament logic computes them (:class:`bot.tournaments.model.Table`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import TournamentStatus
from .i18n import Text
from .time_control import TimeControl
from .tournaments.model import Entrant, Format, Table


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament's terms, as a moderator chooses them (``/tournament create``)."""

    name: str
    format: Format
    variant: str
    move_time: int | None = None
    """Seconds per move (correspondence); None with a clock (or for the server's default)."""
    clock: TimeControl | None = None
    """The Fischer clock of every game."""
    rated: bool = True
    rounds: int | None = None
    """A Swiss's rounds."""
    double: bool = False
    """A round robin played twice, colours swapped."""
    duration: float | None = None
    """An arena's length in seconds."""
    starts_at: float | None = None
    """When the bot starts it (None: a moderator starts it)."""
    min_rating: int | None = None
    max_rating: int | None = None
    max_players: int | None = None
    forfeit_after: float | None = None
    """Seconds a player may take over their first move before losing by forfeit (None: the
    default for the time control)."""
    berserk: bool = False
    """An arena's berserk (with a clock only)."""
    bye_points: float = 1.0
    """A Swiss bye's points (1, or the federation's value, such as ½)."""


@dataclass(frozen=True)
class PairingView:
    """One board of a round (or an arena pairing)."""

    id: int
    round: int
    board: int
    white: Entrant
    black: Entrant | None
    """None: a bye for White."""
    game_id: int | None
    """None until its game is opened."""
    channel_id: int | None
    """The game's thread."""
    result: str | None
    """``1-0``, ``½-½``, ``0-1``; ``+/-`` or ``-/+`` a forfeit; None while undecided."""
    white_points: float | None = None
    black_points: float | None = None
    forfeit: bool = False
    fixed_reason: str | None = None
    """A moderator set the result, for this reason (shown with it)."""
    white_berserk: bool = False
    black_berserk: bool = False


@dataclass(frozen=True)
class TournamentView:
    """A tournament as it stands: its terms, where it is, its players, standings and the
    current round's pairings."""

    id: int
    guild_id: int
    channel_id: int
    """Where it was created: its announcements, pairings and standings go there."""
    name: str
    format: Format
    variant: str
    variant_title: Text
    move_time: int
    clock: TimeControl | None
    rated: bool
    rounds: int | None
    """Rounds planned (a round robin's once it started: from its players; None: an arena)."""
    double: bool
    duration: float | None
    starts_at: float | None
    min_rating: int | None
    max_rating: int | None
    max_players: int | None
    forfeit_after: float
    berserk: bool
    bye_points: float
    status: TournamentStatus
    round: int
    """The round being played (0 before the start)."""
    message_id: int | None
    """The announcement with the Join / Leave buttons."""
    created_by: int
    ends_at: float | None
    """An arena's end."""
    players: tuple[Entrant, ...]
    """Every entrant, by pairing number (withdrawn ones marked)."""
    table: Table
    pairings: tuple[PairingView, ...]
    """The current round's (an arena: the games being played and the last finished ones)."""

    @property
    def open(self) -> bool:
        """Taking entries (a Swiss or an arena takes them while it runs too)."""
        if self.status is TournamentStatus.OPEN:
            return True
        late = self.format in (Format.SWISS, Format.ARENA)
        return late and self.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED)

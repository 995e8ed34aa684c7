"""Plain result objects: what an action changed, the words to show, whom to mention.

The Discord layer turns these into embeds, files and mentions; nothing here knows Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Player:
    """A Discord user as the game knows them: the id, and the display name when they joined."""

    id: int
    name: str


class Action(Enum):
    """What happened."""

    CHALLENGE_CREATED = "challenge_created"
    CHALLENGE_DECLINED = "challenge_declined"
    CHALLENGE_CANCELLED = "challenge_cancelled"
    CHALLENGE_EXPIRED = "challenge_expired"
    GAME_STARTED = "game_started"
    MOVED = "moved"
    DRAW_OFFERED = "draw_offered"
    DRAW_ACCEPTED = "draw_accepted"
    DRAW_DECLINED = "draw_declined"
    RESIGNED = "resigned"
    ABORTED = "aborted"
    REMINDER = "reminder"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class ChallengeView:
    id: int
    guild_id: int | None
    channel_id: int
    challenger: Player
    opponent: Player
    variant: str
    variant_title: str
    color: str
    """The challenger's colour: random, white or black."""
    move_time: int
    """Seconds per move."""
    thread: bool
    level: int | None
    status: str
    game_id: int | None
    expires_at: float
    message_id: int | None = None
    """The message showing the challenge, once the Discord layer has posted it."""


@dataclass(frozen=True)
class MovePlayed:
    ply: int
    pdn: str
    by: Player
    computer: bool


@dataclass(frozen=True)
class GameView:
    """A snapshot of a game for display."""

    id: int
    guild_id: int | None
    channel_id: int
    variant: str
    variant_title: str
    white: Player
    black: Player
    computer_level: int | None
    computer_id: int | None
    """The bot's user id when it plays one side."""
    status: str
    """running, finished or aborted."""
    fen: str
    ply: int
    move_number: int
    turn: str
    """white or black: the side to move."""
    to_move: Player | None
    """The player to move while the game runs."""
    last_move: str | None
    previous_fen: str | None
    """The position before the last move (to draw that move), None before the first."""
    status_line: str
    """``ongoing; 40-move count: 37 left`` or ``1-0 no legal moves`` (see rules.Game)."""
    status_parts: tuple[str, ...]
    draw_offer: str | None
    advantage_left: int | None
    deadline: float | None
    move_time: int
    result: str | None
    termination: str | None
    """The termination in words once the game is over."""
    winner: Player | None

    @property
    def running(self) -> bool:
        return self.status == "running"

    def player(self, color: str) -> Player:
        return self.white if color == "white" else self.black


@dataclass(frozen=True)
class ActionResult:
    """The outcome of one service action or scheduler event."""

    action: Action
    text: str
    """One or two sentences to show everyone in the channel."""
    game: GameView | None = None
    challenge: ChallengeView | None = None
    moves: tuple[MovePlayed, ...] = ()
    """Moves this action played (a player's move and the computer's reply)."""
    post_board: bool = False
    """Whether the board image should be posted with the text."""
    mentions: tuple[int, ...] = ()
    """Users to mention (the player to move, the challenged user...)."""

    @property
    def finished(self) -> bool:
        return self.game is not None and not self.game.running


@dataclass(frozen=True)
class MoveChoice:
    """An autocomplete suggestion: the label to show and the full PDN move as the value."""

    name: str
    value: str

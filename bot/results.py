"""Plain result objects: what an action changed, the words to show, whom to mention.

The Discord layer turns these into embeds, files and mentions; nothing here knows Discord.  Words
meant for people are :class:`~bot.i18n.Text` (shown in the reader's language); data (moves, PDN,
FEN, result codes, ratings as numbers) stays ``str``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Required, TypedDict

from rules.variants import Notation

from .analysis_results import AnalysisView
from .enums import (
    BoardTheme,
    ChallengeStatus,
    ColorChoice,
    GameStatus,
    Orientation,
    Side,
    ThreadMode,
    TimePool,
)
from .errors import ChallengeError
from .i18n import Text, _
from .import_results import ImportListing, ImportStart, ImportView
from .position_results import Hint
from .time_control import (
    CLOCK_BASE_LIMITS,
    CLOCK_INCREMENT_MAX,
    POOL_LIMITS,
    PRESET_CLOCKS,
    TimeControl,
)
from .tournament_results import PairingView, TournamentSpec, TournamentView

__all__ = [
    "CLOCK_BASE_LIMITS",
    "CLOCK_INCREMENT_MAX",
    "POOL_LIMITS",
    "PRESET_CLOCKS",
    "AnalysisView",
    "Hint",
    "ImportListing",
    "ImportStart",
    "ImportView",
    "PairingView",
    "TimeControl",
    "TournamentSpec",
    "TournamentView",
]


@dataclass(frozen=True)
class Player:
    """A Discord user as the game knows them: the id, and the display name when they joined."""

    id: int
    name: str


@dataclass(frozen=True)
class ClockView:
    """A clocked game's clocks as a board shows them."""

    control: TimeControl
    white: float
    """Seconds left to White (to the side to move: at the moment of the view)."""
    black: float
    flag_at: float | None
    """When the side to move's flag falls (None: nobody's clock runs)."""
    low: Side | None = None
    """The side whose running clock is low (:data:`bot.service.clocks.LOW_TIME_FRACTION`)."""

    def left(self, side: Side) -> float:
        return self.white if side is Side.WHITE else self.black


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
    TAKEBACK_OFFERED = "takeback_offered"
    TAKEBACK_ACCEPTED = "takeback_accepted"
    TAKEBACK_DECLINED = "takeback_declined"
    CLOCK_EXTENDED = "clock_extended"
    LAST_WARNING = "last_warning"
    """Shortly before the deadline of the player to move (see
    :func:`bot.service.records.last_warning_lead`)."""
    COMPUTER_AWAY = "computer_away"
    """The computer cannot think for now (its workers cannot start): its game waits."""
    TOURNAMENT_CREATED = "tournament_created"
    TOURNAMENT_JOINED = "tournament_joined"
    """Someone joined or left: the announcement's list of players changes."""
    TOURNAMENT_STARTED = "tournament_started"
    ROUND_PAIRED = "round_paired"
    """A round's pairings (an arena: a wave of them); their games are opened by the Discord
    layer (:meth:`bot.service.tournaments.Tournaments.open_game`)."""
    TOURNAMENT_PAUSED = "tournament_paused"
    TOURNAMENT_RESUMED = "tournament_resumed"
    PLAYER_DROPPED = "player_dropped"
    RESULT_FIXED = "result_fixed"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_CANCELLED = "tournament_cancelled"
    FORFEIT = "forfeit"
    """A tournament game lost by a player who did not make a first move in time."""
    BERSERK = "berserk"
    """An arena player halved their clock for an extra point on a win."""


@dataclass(frozen=True)
class ChallengeView:
    id: int
    guild_id: int | None
    channel_id: int
    challenger: Player
    opponent: Player | None
    """None while an open challenge waits for anyone to accept it."""
    variant: str
    variant_title: Text
    color: ColorChoice
    """The challenger's colour."""
    move_time: int
    """Seconds per move."""
    thread: bool
    level: int | None
    status: ChallengeStatus
    game_id: int | None
    expires_at: float
    message_id: int | None = None
    """The message showing the challenge, once the Discord layer has posted it."""
    opening: str = ""
    """The opening moves the game will start from (a ballot's, say), empty for none."""
    opening_label: str | None = None
    """The ballot in words (``ACF #8 Edinburgh Single: 9-13 22-18 11-15``) when it is one."""
    match: bool = False
    min_rating: int | None = None
    """An open challenge's rating range (inclusive), None where unbounded."""
    max_rating: int | None = None
    clock: TimeControl | None = None
    """The Fischer clock the game will be played on (None: the time per move)."""
    start_fen: str | None = None
    """The position the game will start from (None: the variant's start)."""


@dataclass(frozen=True)
class MovePlayed:
    ply: int
    pdn: str
    by: Player
    computer: bool
    shown: str = ""
    """The move in the variant's notation (``c3-d4`` in Russian), as sentences name it."""


@dataclass(frozen=True)
class GameView:
    """A snapshot of a game for display."""

    id: int
    guild_id: int | None
    channel_id: int
    variant: str
    variant_title: Text
    white: Player
    black: Player
    computer_level: int | None
    computer_id: int | None
    """The bot's user id when it plays one side."""
    status: GameStatus
    fen: str
    ply: int
    move_number: int
    turn: Side
    """The side to move."""
    to_move: Player | None
    """The player to move while the game runs."""
    last_move: str | None
    previous_fen: str | None
    """The position before the last move (to draw that move), None before the first."""
    status_line: Text
    """``ongoing; 40-move count: 37 left`` or ``1-0 no legal moves`` (see rules.Game)."""
    status_parts: tuple[Text, ...]
    draw_offer: Side | None
    advantage_left: int | None
    deadline: float | None
    move_time: int
    result: str | None
    termination: Text | None
    """The termination in words once the game is over."""
    winner: Player | None
    rated: bool = False
    match_id: int | None = None
    """The first game's id when the game belongs to a match."""
    match_game: int | None = None
    """1 or 2 within its match."""
    opening_label: str | None = None
    """The ballot the game started from, in words."""
    takeback_offer: Side | None = None
    """The side whose takeback request is waiting for an answer."""
    notation: Notation = Notation.NUMERIC
    """The variant's convention for writing moves, which every move shown here follows."""
    last_move_shown: str | None = None
    """:attr:`last_move` in :attr:`notation`."""
    recent_moves: str = ""
    """The last few full moves, numbered, in :attr:`notation`: ``11. 11-15 23-19 12. 8-11``
    (empty before the first move)."""
    flip: bool = False
    """Public boards of this game show Black at the bottom (the server's orientation when the
    game started; fixed for the game)."""
    white_rating: str | None = None
    """White's rating when the game started, as standings show it (``1523``, ``1500?``); None
    in unrated games and for the computer."""
    black_rating: str | None = None
    abortable: bool = False
    """Either player may still abort the game: it runs and not both have made a move of their
    own (an opening's moves do not count)."""
    clock: ClockView | None = None
    """The Fischer clocks (None: a game with a time per move, shown by its deadline)."""
    board_message_id: int | None = None
    """The game's last public board message as the store last recorded it (``/board`` asks
    whether it is still in view before posting another)."""
    start_fen: str | None = None
    """The position the game started from when it is not the variant's start (an unrated game
    from a position: ``/challenge position:``)."""
    hints: int = 0
    """How many hints the player took (a game against the computer)."""

    @property
    def hints_offered(self) -> bool:
        """Whether the board offers a hint: a running, unrated game against the computer."""
        return self.running and self.computer_id is not None and not self.rated

    @property
    def running(self) -> bool:
        return self.status == GameStatus.RUNNING

    def player(self, side: Side) -> Player:
        return self.white if side == Side.WHITE else self.black


@dataclass(frozen=True)
class DirectMessage:
    """A private message to one player about a game, for those who asked for them (see
    :class:`UserPrefs`); the Discord layer links it to the game at
    ``https://discord.com/channels/<guild_id or @me>/<channel_id>``."""

    user_id: int
    text: Text
    guild_id: int | None
    channel_id: int
    game_id: int


@dataclass(frozen=True)
class UserPrefs:
    """One user's preferences, the same in every server."""

    user_id: int
    theme: BoardTheme | None = None
    """The theme of the boards shown to this user privately; None: the server's theme."""
    notation: Notation | None = None
    """How moves are shown to this user privately; None: each variant's own convention."""
    dm_turn: bool = False
    """Send a direct message when it becomes this user's turn."""
    last_warning: bool = False
    """Send the last warning before this user's time runs out by direct message too."""


NOT_STORED = {"stored": False}
"""Field metadata: left out when an announcement is kept for later (:mod:`bot.service.events`)."""


@dataclass(frozen=True)
class Publishing:
    """What posting a result needs besides the result, read by the service with the action, so
    the Discord layer need not come back for it: the server's board theme (when a board is
    shown) and the record of a game the result ended."""

    theme: BoardTheme = BoardTheme.WOOD
    record: tuple[str, str] | None = None
    """``(file name, PDN text)`` of the game, when the result shows it ended."""


@dataclass(frozen=True)
class Locales:
    """The Discord locales an interaction came with (its user's, and its server's when it came
    from one), kept for the messages sent later without an interaction."""

    user_id: int
    locale: str | None
    guild_id: int | None
    guild_locale: str | None


@dataclass(frozen=True)
class AnswerBy:
    """What is about to deliver an announcement, kept so it can be looked for after a crash:
    the interaction whose message it is (None: a post in the channel, without one) and the
    channel, the interaction's token when the message is its own (which Discord can be asked
    about directly while the token lives), and since when it may have been sent."""

    interaction_id: int | None
    channel_id: int
    token: str | None
    since: float = 0.0


@dataclass(frozen=True)
class ActionResult:
    """The outcome of one service action or scheduler event."""

    action: Action
    text: Text
    """One or two sentences to show everyone in the channel."""
    game: GameView | None = None
    challenge: ChallengeView | None = None
    moves: tuple[MovePlayed, ...] = ()
    """Moves this action played (a player's move and the computer's reply)."""
    post_board: bool = False
    """Whether the board image should be posted with the text."""
    mentions: tuple[int, ...] = ()
    """Users to mention (the player to move, the challenged user...)."""
    follow_up: ActionResult | None = None
    """Something this action started in turn: a match's second game."""
    event: str | None = None
    """The outbox entry this result announces (written with the change; see
    :mod:`bot.service.events`): the Discord layer marks it delivered once players saw it."""
    tournament: TournamentView | None = None
    """The tournament the action changed, as it stands after it."""
    dms: tuple[DirectMessage, ...] = ()
    """Direct messages that go with the announcement (to players who opted in), delivered
    with it and, like it, again after a crash (the outbox rebuilds them)."""
    publishing: Publishing | None = field(default=None, compare=False, metadata=NOT_STORED)
    """What showing it needs besides itself, read by the service with the action (None: a
    result from the outbox, whose poster reads it afresh)."""

    @property
    def finished(self) -> bool:
        return self.game is not None and not self.game.running


@dataclass(frozen=True)
class MoveChoice:
    """An autocomplete suggestion: the label to show and the full PDN move as the value."""

    name: str
    value: str


@dataclass(frozen=True)
class RatingLine:
    """A player's standing in one server and variant."""

    player: Player
    rating: float
    deviation: float
    games: int
    shown: str
    """``1523`` or ``1500?`` while provisional."""


@dataclass(frozen=True)
class GameSummary:
    """One ended game in a list (``/history``, ``/stats``)."""

    id: int
    variant: str
    variant_title: Text
    white: Player
    black: Player
    result: str | None
    """PDN result, or None for an aborted game."""
    termination: Text
    ended_at: float
    rated: bool
    rating_change: float | None = None
    """For lists about one player: that player's rating change in the game."""
    outcome: str | None = None
    """For lists about one player: W, D or L (None when aborted)."""
    match_game: int | None = None
    pool: TimePool = TimePool.CORRESPONDENCE
    """The time class whose ratings the game moved (or would have)."""


@dataclass(frozen=True)
class Stats:
    player: Player
    variant: str
    variant_title: Text
    rating: RatingLine | None
    """None before the player's first rated game."""
    rank: tuple[int, int] | None
    wins: int
    draws: int
    losses: int
    streak: tuple[str, int] | None
    recent: tuple[GameSummary, ...]
    pool: TimePool = TimePool.CORRESPONDENCE
    """The time class of the rating, record and streak."""


@dataclass(frozen=True)
class Leaderboard:
    variant: str
    variant_title: Text
    top: tuple[RatingLine, ...]
    mine: tuple[int, int] | None
    """The asking user's (rank, players on the ladder), None if unrated."""
    my_line: RatingLine | None
    pool: TimePool = TimePool.CORRESPONDENCE


@dataclass(frozen=True)
class ServerSettings:
    guild_id: int | None
    variant: str
    move_time: int
    threads: ThreadMode
    channels: tuple[int, ...]
    """Channels games may be hosted in (threads of them too); empty: everywhere."""
    orientation: Orientation = Orientation.WHITE
    """Which side new games' public boards show at the bottom."""
    theme: BoardTheme = BoardTheme.WOOD
    """The theme public board images are drawn in."""

    def allows(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a game may be hosted in ``channel_id`` (a thread counts as its parent)."""
        if not self.channels:
            return True
        return channel_id in self.channels or (parent_id is not None and parent_id in self.channels)

    def check_channel(self, channel_id: int, parent_id: int | None = None) -> None:
        """Refuse a channel the server does not host games in, naming the ones it does."""
        if not self.allows(channel_id, parent_id):
            where = ", ".join(f"<#{c}>" for c in self.channels)
            raise ChallengeError(_("games on this server are played in {channels}", channels=where))


MIN_RATING, MAX_RATING = 100, 4000
"""The bounds of an open challenge's rating range (and of its options): below and above any
rating a player reaches in practice."""


class ChallengeTerms(TypedDict, total=False):
    """The keyword arguments of a challenge (defaults: the server's variant and time per move,
    else English and a day; random colour, no thread, no opening, level 3 against the
    computer)."""

    channel_id: Required[int]
    challenger: Required[Player]
    opponent: Required[Player | None]
    """None: an open challenge, which anyone in the channel may accept."""
    min_rating: int | None
    """An open challenge's rating range (inclusive): the accepter's rating in the challenge's
    variant must lie within it."""
    max_rating: int | None
    variant: str | None
    color: ColorChoice | str
    move_time: int | None
    """Seconds per move."""
    clock: TimeControl | None
    """A Fischer clock instead of the time per move (checked: :meth:`TimeControl.checked`)."""
    thread: bool
    opening: Sequence[str]
    """Opening moves to start from (tests and rematches of a balloted game)."""
    ballot: bool
    """Start from a random ACF three-move ballot (English only)."""
    match: bool
    """Two games with the same opening, colours swapped."""
    level: int | None
    thread_id: int | None
    """The thread to start a computer game in, when one is needed."""
    parent_id: int | None
    """The channel the challenge's channel belongs to, when it is a thread (for the server's
    list of game channels)."""
    start_fen: str | None
    """The position the game starts from, a FEN of the challenge's variant with a side to move
    and a move for it (``/challenge position:``, a ply of an imported game); such a game is
    unrated, and its rematch starts there again.  None: the variant's start."""

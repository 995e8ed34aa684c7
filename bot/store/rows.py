"""The values that cross the storage boundary: rows read back, and records to write.

Plain frozen dataclasses (and one ``TypedDict`` for partial game updates), with the closed
vocabularies as :mod:`bot.enums` members, so the service never sees a driver's row type and every
implementation returns exactly the same values.  Field names are column names: an implementation
maps them to its own SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, TypedDict

from ..enums import ChallengeStatus, ColorChoice, GameStatus, Side, ThreadMode


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int | None
    """None for an open challenge (anyone may accept) until it is accepted."""
    opponent_name: str | None
    variant: str
    color: ColorChoice
    move_time: int
    thread: bool
    opening: str
    level: int | None
    status: ChallengeStatus
    game_id: int | None
    created_at: float
    expires_at: float
    updated_at: float
    message_id: int | None
    match_play: bool
    min_rating: int | None = None
    """An open challenge's rating range (inclusive): who may accept it."""
    max_rating: int | None = None
    clock_base: float | None = None
    """The Fischer clock's base time in seconds (None: the time per move)."""
    clock_increment: float | None = None
    start_fen: str | None = None
    """The position the game starts from (None: the variant's start)."""


@dataclass(frozen=True)
class NewChallenge:
    """An open challenge to insert (its id, status and message come from the store)."""

    guild_id: int | None
    channel_id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int | None
    """None: an open challenge, anyone may accept it."""
    opponent_name: str | None
    variant: str
    color: ColorChoice
    move_time: int
    thread: bool
    opening: str
    match_play: bool
    created_at: float
    expires_at: float
    min_rating: int | None = None
    max_rating: int | None = None
    clock_base: float | None = None
    clock_increment: float | None = None
    start_fen: str | None = None
    """The position the game starts from (None: the variant's start)."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    computer_id: int | None
    computer_level: int | None
    variant: str
    start_fen: str
    opening: str
    status: GameStatus
    result: str | None
    termination: str | None
    termination_detail: str
    winner: Side | None
    ply: int
    fen: str
    move_time: int
    deadline: float | None
    remind_at: float | None
    draw_offer: Side | None
    advantage_side: Side | None
    advantage_start_ply: int | None
    version: int
    created_at: float
    updated_at: float
    rated: bool
    white_rating: float | None
    white_rating_change: float | None
    black_rating: float | None
    black_rating_change: float | None
    match_id: int | None
    """The id of the match's first game (a match is named by it), None outside matches."""
    takeback_offer: Side | None
    takeback_refused_ply: int | None
    flip: bool = False
    """Public boards show Black at the bottom (the server's orientation at the game's start)."""
    white_rating_shown: str | None = None
    """White's rating as shown when the game started (``1523``, ``1500?``); None when unrated.
    (``white_rating`` is the rating the game's end left.)"""
    black_rating_shown: str | None = None
    board_message_id: int | None = None
    """The last public board message of the game (read from the store: the in-memory copy of a
    running game does not follow it)."""
    warn_at: float | None = None
    """When the player to move gets the last warning (None: given, or none due)."""
    offer_message_id: int | None = None
    """The public message of the game's pending draw offer, with its Accept / Decline buttons
    (read from the store, as :attr:`board_message_id`); cleared once, when the offer is over
    and the buttons are taken off."""
    clock_base: float | None = None
    """A Fischer clock's base time in seconds, as chosen (None: a time per move)."""
    clock_increment: float | None = None
    white_clock: float | None = None
    """White's seconds left at the start of the current turn (after the last increment)."""
    black_clock: float | None = None
    clock_started: float | None = None
    """When the side to move's time started running (None: no clock runs); its flag falls at
    ``deadline``."""
    pairing_id: int | None = None
    """The tournament pairing the game is played for (None outside tournaments)."""
    hints: int = 0
    """How many hints the player took (a game against the computer)."""


@dataclass(frozen=True)
class NewMove:
    """A move to append to a game's record."""

    ply: int
    pdn: str
    fen_after: str
    user_id: int
    played_at: float


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    pdn: str
    fen_after: str
    user_id: int
    played_at: float


@dataclass(frozen=True)
class NewGame:
    """A running game to insert, with the moves it starts with (an opening, the computer's
    first reply)."""

    guild_id: int | None
    channel_id: int
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    computer_id: int | None
    computer_level: int | None
    variant: str
    start_fen: str
    opening: str
    ply: int
    fen: str
    move_time: int
    deadline: float | None
    remind_at: float | None
    created_at: float
    rated: bool
    match_id: int | None
    """The first game's id for a match's second game; see ``first_of_match``."""
    flip: bool = False
    white_rating_shown: str | None = None
    black_rating_shown: str | None = None
    warn_at: float | None = None
    clock_base: float | None = None
    clock_increment: float | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    clock_started: float | None = None
    first_of_match: bool = False
    """The game opens a new match, which is named by this game's own id once it has one."""
    moves: tuple[NewMove, ...] = ()
    pairing_id: int | None = None
    """The tournament pairing the game is played for."""


class GameChanges(TypedDict, total=False):
    """The columns of a game that change while it is played (each optional)."""

    ply: int
    fen: str
    draw_offer: Side | None
    advantage_side: Side | None
    advantage_start_ply: int | None
    status: GameStatus
    result: str | None
    termination: str | None
    termination_detail: str
    winner: Side | None
    deadline: float | None
    remind_at: float | None
    warn_at: float | None
    updated_at: float
    takeback_offer: Side | None
    takeback_refused_ply: int | None
    white_clock: float | None
    black_clock: float | None
    clock_started: float | None
    hints: int


class TakenBackMove(NamedTuple):
    """A move taken back (a named tuple: ``ply, pdn, when = row`` reads as the record does)."""

    ply: int
    pdn: str
    taken_back_at: float


@dataclass(frozen=True)
class RatingRow:
    guild_id: int
    user_id: int
    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated_at: float
    name: str
    """The player's name in their latest rated game."""
    wins: int
    draws: int
    losses: int
    streak: str | None
    """``W``, ``D`` or ``L``: the latest rated result, repeated ``streak_length`` times in a row."""
    streak_length: int
    pool: str = "correspondence"
    """The time class the rating is for (a :class:`~bot.enums.TimePool` word)."""


@dataclass(frozen=True)
class LadderChange:
    """Both players' rating rows after a rated game, and how far each rating moved."""

    white: RatingRow
    black: RatingRow
    white_change: float
    black_change: float


Rater = Callable[[RatingRow | None, RatingRow | None], LadderChange]
"""Given White's and Black's rating rows as they stand (None before a player's first rated game
in that server and variant), their rows after the game."""

FollowUp = Callable[[LadderChange | None], NewGame]
"""A game to start in the transaction that ends another, built once that game's ladder change
(None when it was unrated) is known: a match's second game shows the ratings the first left."""


@dataclass(frozen=True)
class RatedGame:
    """A finished rated game's effect on the ladder.  The store reads both players' rows inside
    the game's final transaction (so two games ending at once for one player are applied in
    turn), asks ``rate`` for the new rows, writes them, and records the ratings on the game.
    The rating rules themselves stay with the service."""

    guild_id: int
    variant: str
    white_id: int
    black_id: int
    rate: Rater
    pool: str = "correspondence"
    """The time class whose ratings the game moves."""


@dataclass(frozen=True)
class SettingsRow:
    guild_id: int
    variant: str | None
    move_time: int | None
    threads: ThreadMode
    updated_at: float
    orientation: str = "white"
    """A word the service checks (an unknown one reads as the default)."""
    theme: str = ""
    """The board theme's name; empty for the default."""
    language: str = ""
    """The catalog public messages are written in (``de``, ``pt_BR``); empty: the server's
    Discord locale."""
    guild_locale: str = ""
    """The server's Discord locale (``pt-BR``) as the last interaction from it gave it: what
    announcements made without an interaction (timeouts, reminders) go by."""


class SettingsChanges(TypedDict, total=False):
    variant: str
    move_time: int
    threads: ThreadMode
    orientation: str
    theme: str
    language: str
    guild_locale: str


@dataclass(frozen=True)
class PrefsRow:
    """One user's preferences as stored.  The words are checked by the service (an unknown one
    reads as the default), so a damaged row never stops anything."""

    user_id: int
    theme: str
    """A board theme's name; empty: the server's."""
    notation: str
    """``numeric`` or ``algebraic``; empty: each variant's convention."""
    dm_turn: bool
    last_warning: bool
    updated_at: float
    locale: str = ""
    """The user's Discord locale (``de``, ``pt-BR``) as their last interaction gave it: the
    language of direct messages to them."""


@dataclass(frozen=True)
class AnalysisRow:
    """A game's analysis as stored (schema v15): its subject (``game:<id>``, ``import:<id>``),
    the server it belongs to, and the analysis as JSON text (the service reads it)."""

    subject: str
    guild_id: int | None
    variant: str
    analysis: str
    created_at: float


class PrefsChanges(TypedDict, total=False):
    theme: str
    notation: str
    dm_turn: bool
    last_warning: bool
    locale: str


@dataclass(frozen=True)
class NewEvent:
    """An announcement players must see, written in the same transaction as the change it
    announces (the outbox), so a crash can never keep the change and lose the announcement.
    ``game_id`` or ``challenge_id`` left ``None`` by a write that creates the game or challenge
    is filled in by the store with the new id."""

    id: str
    """Unique, chosen by the writer (it doubles as Discord's ``nonce`` for a repeated post)."""
    kind: str
    guild_id: int | None
    channel_id: int
    game_id: int | None
    challenge_id: int | None
    created_at: float
    next_attempt_at: float
    """Until then the action that wrote it is delivering it itself (by its interaction's
    answer), so the background delivery leaves it alone."""
    tournament_id: int | None = None
    """The tournament it announces (filled in by the store when the write creates it)."""


@dataclass(frozen=True)
class EventRow:
    """An outbox entry as stored; ``seq`` orders the announcements of one game."""

    seq: int
    id: str
    kind: str
    guild_id: int | None
    channel_id: int
    game_id: int | None
    challenge_id: int | None
    created_at: float
    payload: str | None
    """The message as first built, kept when the first delivery failed (None until then)."""
    attempts: int
    next_attempt_at: float
    delivered_at: float | None
    answer_token: str | None = None
    """The interaction token of the answer delivering it in the interaction's own message,
    while that answer is in flight (None for a follow-up: only the interaction says which)."""
    answer_at: float | None = None
    """When that answer or follow-up was sent."""
    answer_interaction: int | None = None
    """The interaction whose answer or follow-up is delivering it, while it is in flight."""
    answer_channel: int | None = None
    """The channel that interaction's messages go to."""
    tournament_id: int | None = None
    """The tournament it announces, rebuilt from the tournament's rows after a crash."""


@dataclass(frozen=True)
class EventAnswer:
    """An interaction message about to deliver an announcement (see
    :meth:`Store.event_answering`): the interaction, its channel, the token when the message is
    the interaction's own (which Discord can be asked about while the token lives), and when."""

    interaction_id: int | None
    """None: a post in the channel, without an interaction."""
    channel_id: int
    token: str | None
    at: float

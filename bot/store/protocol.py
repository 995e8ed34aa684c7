"""The storage boundary: every read and write the service needs, as one typed protocol.

The service is written against :class:`Store` only, so a second backend is a second class with
these methods (the same contract tests run against each, see
``tests/store/test_store_contract.py``). What every implementation promises:

- Each write is one transaction: it lands whole or not at all, also when the caller is cancelled
  or the process dies between two statements.
- A game changes only through a write guarded by the version the writer read
  (:class:`~bot.store.errors.StaleVersion` otherwise), so two racing actions, in one process or
  in two, can never both land.
- Refusals are the domain errors of :mod:`bot.store.errors`, never a driver's exception.
- Rows come back as the dataclasses of :mod:`bot.store.rows`, with enum members for statuses
  and colours.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ..enums import ChallengeStatus, TimePool
from .import_rows import ImportRow, NewImport
from .rows import (
    AnalysisRow,
    ChallengeRow,
    EventAnswer,
    EventRow,
    FollowUp,
    GameChanges,
    GameRow,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsChanges,
    PrefsRow,
    RatedGame,
    RatingRow,
    SettingsChanges,
    SettingsRow,
    TakenBackMove,
)
from .shards import EVERY_SHARD, Shards
from .tournament_rows import (
    NewTournament,
    PairingRow,
    TournamentRow,
    TournamentState,
    TournamentStep,
    TournamentUpdate,
    TournamentWrites,
)


class Store(Protocol):
    """A database of challenges, games, moves, ratings and server settings."""

    async def close(self) -> None:
        """Close after the writes in flight; nothing may be called afterwards."""
        ...

    def abandon(self) -> None:
        """Drop the connections at once (a :meth:`close` that ran out of time); nothing may be
        called afterwards."""
        ...

    async def ping(self, seconds: float) -> None:
        """Return once the database has answered a trivial query, or raise
        :class:`~bot.store.errors.StoreUnavailable` after ``seconds`` (the health check)."""
        ...

    async def schema_version(self) -> int:
        """The version of the schema the database is at (after the start-up migrations)."""
        ...

    async def integrity_check(self) -> str:
        """``"ok"``, or what the database's own check found wrong."""
        ...

    async def own_shards(self, shards: Shards) -> Shards:
        """Take (or keep) ownership of ``shards`` for this process and return those it owns now:
        only their servers' background work is this process's (:mod:`bot.store.shards`).  A
        shard has at most one owner at a time, and a process that dies, however abruptly, gives
        its shards up for the next one."""
        ...

    def shards_elsewhere(self, shards: Shards) -> Shards:
        """Of ``shards``, those another process was found holding at the last
        :meth:`own_shards` (all of them once this store is closed: they may be the next
        process's); none when nothing says so.  Their interactions are the other's to answer."""
        ...

    # -- challenges ------------------------------------------------------------------------------

    async def insert_challenge(self, challenge: NewChallenge, event: NewEvent | None = None) -> int:
        """Insert an open challenge (and ``event``) and return its id; :class:`ChallengeOpen` if
        the challenger already has one open in that channel (decided by the database, race-free)."""
        ...

    async def challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    async def open_challenge_of(
        self, challenger_id: int, channel_id: int
    ) -> ChallengeRow | None: ...

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: float,
        event: NewEvent | None = None,
    ) -> bool:
        """Move an open challenge to ``status`` (with ``event``); False, with nothing written, if
        it was no longer open."""
        ...

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember which message shows the challenge."""
        ...

    async def open_challenges_in(self, guild_id: int, now: float) -> list[ChallengeRow]:
        """The server's open challenges that name no opponent (anyone may accept them) and have
        not expired at ``now``, oldest first (at most 100)."""
        ...

    async def expired_challenges(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> list[ChallengeRow]:
        """Open challenges of ``shards``' servers whose time has run out, oldest expiry first."""
        ...

    # -- games -----------------------------------------------------------------------------------

    async def start_game(
        self, game: NewGame, challenge_id: int | None = None, event: NewEvent | None = None
    ) -> int:
        """Insert a running game with its opening moves and, in the same transaction, mark
        ``challenge_id`` accepted, with the game's player who is not its challenger as its
        opponent (who accepted an open challenge); the new game's id.  :class:`ChannelBusy` if
        the channel has a running game, :class:`ChallengeClosed` if the challenge is no longer
        open: of two accepts racing for one challenge exactly one starts a game."""
        ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def running_game_in(self, channel_id: int) -> GameRow | None: ...

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's most recently ended game (finished or aborted)."""
        ...

    async def running_games_in_guild(self, guild_id: int | None) -> list[GameRow]:
        """Running games of one server (``None``: games outside any server), by id."""
        ...

    async def computer_games_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        """Running games of ``shards``' servers against the computer where nobody's clock
        runs: the computer's turn."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]:
        """A game's moves in ply order."""
        ...

    async def update_game(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        move: NewMove | None = None,
        *,
        rated: RatedGame | None = None,
        follow_up: NewGame | FollowUp | None = None,
        event: NewEvent | None = None,
        tournament: TournamentUpdate | None = None,
    ) -> None:
        """Apply ``changes`` (and append ``move``) in one transaction if the game is still at
        ``version``, bumping it; :class:`StaleVersion` with nothing written otherwise.

        A game that ends here lands together with what its end causes, so a crash cannot leave
        half of it: ``rated`` updates both players' ratings (and records them on the game),
        ``follow_up`` starts the next game of a match (given as a function, it is called with
        the ladder change ``rated`` made, or None, to build that game), ``tournament`` runs a
        step on the game's tournament under its lock (its result, and the next round when it
        completes one)."""
        ...

    async def take_back(
        self,
        game_id: int,
        version: int,
        changes: GameChanges,
        ply: int,
        when: float,
        event: NewEvent | None = None,
    ) -> None:
        """Take the game back to ``ply`` moves (with ``changes`` for the game) in one guarded
        transaction, moving the later moves to the taken-back archive; :class:`StaleVersion`
        if the game changed first."""
        ...

    async def taken_back_moves(self, game_id: int) -> list[TakenBackMove]:
        """A game's taken-back moves, in the order they were taken back."""
        ...

    async def due_games(
        self, now: float, *, shards: Shards = EVERY_SHARD
    ) -> tuple[list[GameRow], list[GameRow]]:
        """Running games of ``shards``' servers whose deadline has passed, and those due a
        reminder (half-time, ``remind_at``, or the last warning, ``warn_at``) whose deadline
        has not passed."""
        ...

    async def running_clocks(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        """Running games of ``shards``' servers whose Fischer clock runs (a flag time is set),
        by id: the flag timers armed after a restart, and the clocks a silence stopped."""
        ...

    async def board_posted(self, game_id: int, message_id: int) -> int | None:
        """Remember ``message_id`` as the game's last public board message and return the board
        whose buttons should go: the one it replaces (None for the first, or when the same id is
        reported twice).  Message ids grow with time, so a board posted earlier but reported
        later never replaces a newer one: then ``message_id`` itself is returned.  Leaves the
        game's version alone (a message is no change to the game)."""
        ...

    async def offer_posted(self, game_id: int, message_id: int) -> bool:
        """Remember ``message_id`` as the message of the game's pending draw offer; False (and
        nothing remembered) when no offer is pending any more, so its buttons go at once."""
        ...

    async def offer_over(self, game_id: int) -> int | None:
        """The message of the game's draw offer once the offer is over (no offer pending, or the
        game ended): returned once and forgotten, so its buttons are taken off exactly once;
        None while the offer stands or when no message is remembered."""
        ...

    # -- matches, history, ratings ---------------------------------------------------------------

    async def match_games(self, match_id: int) -> list[GameRow]:
        """The games of a match, first game first."""
        ...

    async def matches_waiting(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        """First games of ``shards``' servers' matches that finished without their second game
        (the second normally starts in the same transaction; this is the safety net)."""
        ...

    async def finished_games(
        self,
        guild_id: int | None,
        *,
        user_id: int | None = None,
        variant: str | None = None,
        limit: int = 10,
    ) -> list[GameRow]:
        """Ended games of a server (finished or aborted), newest first; only ``user_id``'s and
        one variant's when given."""
        ...

    async def rating(
        self, guild_id: int, user_id: int, variant: str, pool: str = TimePool.CORRESPONDENCE
    ) -> RatingRow | None: ...

    async def leaderboard(
        self, guild_id: int, variant: str, limit: int = 10, pool: str = TimePool.CORRESPONDENCE
    ) -> list[RatingRow]:
        """The ladder, best first; ties: more games first, then the lower user id."""
        ...

    async def rank(self, mine: RatingRow) -> tuple[int, int]:
        """``(rank, players on the ladder)`` of a rated player, in :meth:`leaderboard`'s order."""
        ...

    # -- the outbox and what the process keeps between runs -------------------------------------

    async def pending_events(
        self,
        now: float,
        *,
        shards: Shards = EVERY_SHARD,
        game_id: int | None = None,
        limit: int = 100,
    ) -> list[EventRow]:
        """Undelivered announcements due by ``now`` of ``shards``' servers (or of one game,
        wherever it is, when ``game_id`` is given), oldest first."""
        ...

    async def event_answering(self, event_id: str, answer: EventAnswer) -> None:
        """Keep the interaction message about to deliver an undelivered announcement (kept
        until it is delivered or failed), so a later process can look for that message."""
        ...

    async def mark_events(self, delivered: Sequence[tuple[str, float]]) -> None:
        """Mark announcements delivered (``(event id, at)``), in one transaction."""
        ...

    async def event_failed(self, event_id: str, payload: str | None, retry_at: float) -> None:
        """Count a failed delivery and hold the announcement back until ``retry_at``; keep
        ``payload`` (the message as first built) unless one is stored already."""
        ...

    async def prune_events(self, delivered_before: float) -> int:
        """Forget announcements delivered before ``delivered_before``; how many were removed."""
        ...

    async def meta(self, key: str) -> str | None:
        """A value the process kept between runs (None if never set)."""
        ...

    async def set_meta(self, key: str, value: str) -> None: ...

    # -- user preferences ------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> PrefsRow | None:
        """A user's preferences; None if they never set any."""
        ...

    async def save_prefs(self, user_id: int, changes: PrefsChanges, *, when: float) -> None:
        """Change some of a user's preferences (a new row starts from the defaults)."""
        ...

    # -- server settings -------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SettingsRow | None: ...

    async def game_channels(self, guild_id: int) -> list[int]:
        """The channels games may be hosted in, ascending; empty means all of them."""
        ...

    async def save_settings(
        self,
        guild_id: int,
        changes: SettingsChanges,
        *,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        when: float,
    ) -> None:
        """Change a server's settings and its channel list together, in one transaction
        (``all_channels`` clears the list before ``allow`` is added)."""
        ...

    # -- analyses (schema v15) -------------------------------------------------------------------

    async def analysis(self, subject: str) -> AnalysisRow | None:
        """The analysis kept for ``subject`` (``game:<id>``, ``import:<id>``), if any."""
        ...

    async def save_analysis(self, analysis: AnalysisRow) -> bool:
        """Keep an analysis unless its subject has one already (the first one stays); whether
        this one was kept."""
        ...

    # -- tournaments (schema v13) ----------------------------------------------------------------

    async def create_tournament(self, tournament: NewTournament, event: NewEvent) -> int:
        """Store a new tournament, open for entries, with the outbox entry announcing it (its
        ``tournament_id`` filled in); its id."""
        ...

    async def change_tournament(
        self, tournament_id: int, step: TournamentStep
    ) -> TournamentWrites | None:
        """One transaction: lock the tournament (two changes are applied in turn, in every
        process), read it whole, write what ``step`` answers, and return that (None: no such
        tournament).  An exception from ``step`` leaves everything as it was."""
        ...

    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournament_state(self, tournament_id: int) -> TournamentState | None:
        """The tournament whole (outside a transaction: a view, not a basis for a change)."""
        ...

    async def tournaments_in(self, guild_id: int, *, finished: bool) -> list[TournamentRow]:
        """A server's tournaments still open or being played (or, ``finished``, over), newest
        first."""
        ...

    async def live_tournaments(self, *, shards: Shards = EVERY_SHARD) -> list[TournamentRow]:
        """The tournaments open, running or paused in the servers of ``shards``."""
        ...

    async def pairing(self, pairing_id: int) -> PairingRow | None: ...

    async def tournament_games(self, tournament_id: int) -> list[GameRow]:
        """Every game played for the tournament, in the order they were opened."""
        ...

    async def tournament_games_unstarted(self, *, shards: Shards = EVERY_SHARD) -> list[GameRow]:
        """Running tournament games in which a player has not made a first move yet (the
        no-show check)."""
        ...

    async def tournament_announcement_owed(self, tournament_id: int, kind: str) -> bool:
        """Whether an announcement of ``kind`` (an :class:`~bot.results.Action` value) of the
        tournament is still waiting in the outbox (written, not yet delivered whole)."""
        ...

    async def open_tournament_game(
        self, pairing_id: int, game: NewGame, event: NewEvent
    ) -> int | None:
        """Start ``game`` for the pairing (its ``pairing_id`` set) with its announcement, under
        the tournament's lock; None, writing nothing, when the pairing has its game already, is
        decided, or its tournament is not running: exactly one game per pairing, however often
        this is called."""
        ...

    # -- imported games (schema v16) --------------------------------------------------------------

    async def add_imports(self, imports: Sequence[NewImport]) -> list[int]:
        """Keep games a player imported (a file's games listed together, in one transaction);
        their ids, in order."""
        ...

    async def imported(self, import_id: int) -> ImportRow | None:
        """A kept import, or None."""
        ...

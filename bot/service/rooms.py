"""The rooms of the service, built in the one order their dependencies allow (lila's ``Env``:
wiring only).

:class:`~bot.service.facade.GameService` is the face the Discord layer talks to; this module is
where its rooms are made and handed to each other, so the face holds only the methods that
delegate to them, and a new room is added here once, not in the face's constructor.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..results import Player
from ..store import Shards, Store
from .analyses import Analyses
from .analysis_face import AnalysisFace
from .announcing import Announcing
from .challenges import Challenges
from .computer import ComputerPlayer
from .computer_replies import ComputerReplies
from .deadlines import Deadlines
from .downtime import Downtime
from .draws import Draws
from .endings import Endings
from .flags import FlagTimers
from .hints import Hints
from .import_face import ImportFace
from .imports import Imports
from .languages import LanguageBook
from .live import LiveGames
from .notices import Notices
from .outbox import Outbox
from .play import Play
from .prefs import PrefsBook
from .puzzle_daily import DailyPuzzles
from .puzzle_face import PuzzleFace
from .puzzle_mining import Library, Mining, PuzzleSource
from .puzzles import Puzzles
from .queries import Queries
from .readers_face import ReadersFace
from .settings import SettingsBook
from .shards import ShardOwnership
from .standings import Standings
from .starting import Starter
from .takebacks import Takebacks
from .tournament_face import TournamentFace
from .tournament_games import TournamentGames
from .tournaments import Tournaments


@dataclass(frozen=True, slots=True)
class Rooms:
    """Every room of one service, each built on those before it."""

    settings: SettingsBook
    standings: Standings
    prefs: PrefsBook
    languages: LanguageBook
    live: LiveGames
    ownership: ShardOwnership
    replies: ComputerReplies
    challenges: Challenges
    play: Play
    draws: Draws
    takebacks: Takebacks
    hints: Hints
    queries: Queries
    downtime: Downtime
    deadlines: Deadlines
    flags: FlagTimers
    outbox: Outbox
    announcing: Announcing
    tournaments: TournamentFace
    analyses: Analyses
    analysis: AnalysisFace
    imports: ImportFace
    puzzles: PuzzleFace
    readers: ReadersFace


def build_rooms(
    store: Store,
    *,
    bot: Player,
    computer: ComputerPlayer,
    clock: Callable[[], float],
    monotonic: Callable[[], float],
    rng: random.Random,
    shards: Shards,
    challenge_expiry: float,
    challenge_expiry_cap: float,
    puzzle_source: PuzzleSource | None = None,
) -> Rooms:
    """The rooms on ``store`` (the face's constructor documents the options)."""
    settings = SettingsBook(store, clock)
    prefs = PrefsBook(store, clock)
    languages = LanguageBook(store, clock)
    notices = Notices(prefs, computer_id=bot.id, clock=clock)
    live = LiveGames(store, clock)
    ownership = ShardOwnership(store, shards)
    ownership.on_gain(live.forget_all)  # another process may have changed them since
    ownership.on_gain(settings.forget_all)
    starter = Starter(
        store,
        live,
        settings,
        notices,
        bot=bot,
        clock=clock,
        rng=rng,
        wake_computer=lambda game_id: replies.wake(game_id, claim=True),
    )
    endings = Endings(store, starter, notices, computer_id=bot.id)
    replies = ComputerReplies(live, computer, endings, bot)
    queries = Queries(store, live, prefs)
    tournaments = Tournaments(store, live, settings, clock=clock)
    tournament_games = TournamentGames(store, live, starter, settings, tournaments, clock=clock)
    downtime = Downtime(store, live, clock=clock, monotonic=monotonic)
    outbox = Outbox(
        store,
        live,
        endings,
        ownership,
        computer_id=bot.id,
        clock=clock,
        rng=rng,
        tournaments=tournaments,
    )
    deadlines = Deadlines(
        store,
        live,
        replies,
        starter,
        endings,
        downtime,
        notices,
        ownership,
        bot=bot,
        clock=clock,
        tournaments=tournament_games,
    )
    flags = FlagTimers(store, live, deadlines, ownership, clock=clock)
    announcing = Announcing(settings, queries, outbox, languages, flags, clock=clock)
    analyses = Analyses(store, lambda: replies.computer, clock=clock)
    library = Library(store, puzzle_source, clock)
    puzzles = PuzzleFace(
        Puzzles(store, settings, library, clock=clock),
        DailyPuzzles(store, settings, library, clock=clock),
        Mining(store, live, ownership, puzzle_source, lambda: replies.computer, clock),
        ownership,
    )
    return Rooms(
        settings=settings,
        standings=Standings(store, clock),
        prefs=prefs,
        languages=languages,
        live=live,
        ownership=ownership,
        replies=replies,
        challenges=Challenges(
            store,
            settings,
            starter,
            bot=bot,
            clock=clock,
            rng=rng,
            expiry=challenge_expiry,
            expiry_cap=challenge_expiry_cap,
        ),
        play=Play(store, live, replies, endings),
        draws=Draws(live, replies, endings, bot=bot),
        takebacks=Takebacks(live, notices, bot=bot, clock=clock),
        hints=Hints(live, computer),
        queries=queries,
        downtime=downtime,
        deadlines=deadlines,
        flags=flags,
        outbox=outbox,
        announcing=announcing,
        tournaments=TournamentFace(tournaments, tournament_games, announcing),
        analyses=analyses,
        analysis=AnalysisFace(analyses, store, queries, live),
        imports=ImportFace(Imports(store, clock), analyses),
        puzzles=puzzles,
        readers=ReadersFace(prefs, languages),
    )

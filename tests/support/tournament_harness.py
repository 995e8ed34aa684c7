"""What the tournament tests share (``tests/service/test_tournament*.py``): the players, an
event's terms, and playing a round through the service as the Discord layer would (each game
opened in a thread of its own, then decided by real moves and a resignation or an agreed draw).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.results import ActionResult, PairingView, Player, TournamentSpec, TournamentView
from bot.service import GameService
from bot.tournaments.model import Format
from support.service_harness import CHANNEL, GUILD, both_moved

MODERATOR = Player(90, "Mod")
PLAYERS = tuple(Player(100 + n, f"P{n}") for n in range(1, 9))
THREADS = 5000
"""A pairing's game is opened in thread ``THREADS + pairing id``."""

Decide = Callable[[PairingView], float]
"""White's points in a pairing's game: 1, 0.5 or 0."""


def spec(format: Format = Format.SWISS, **terms: Any) -> TournamentSpec:
    """An English event, an hour a move: a Swiss of 3 rounds unless ``terms`` say otherwise."""
    values: dict[str, Any] = {"name": "Club night", "format": format, "variant": "english"}
    if format is Format.SWISS:
        values["rounds"] = 3
    if format is Format.ARENA:
        values["duration"] = 3600.0
    values.update(terms)
    return TournamentSpec(**values)


async def create(service: GameService, format: Format = Format.SWISS, **terms: Any) -> int:
    created = await service.tournaments.create(
        GUILD, CHANNEL, MODERATOR, spec(format, **terms), is_moderator=True
    )
    assert created.tournament is not None
    return created.tournament.id


async def with_players(
    service: GameService, count: int, format: Format = Format.SWISS, **terms: Any
) -> int:
    """A new event with the first ``count`` players joined."""
    tid = await create(service, format, **terms)
    for player in PLAYERS[:count]:
        await service.tournaments.join(tid, player)
    return tid


async def open_games(service: GameService, tid: int) -> list[ActionResult]:
    """Open the game of every pairing shown without one (as the Discord layer does)."""
    view = await service.tournaments.view(tid)
    opened = []
    for p in view.pairings:
        if p.game_id is None and p.result is None and p.black is not None:
            started = await service.tournaments.open_game(p.id, THREADS + p.id)
            assert started is not None
            opened.append(started)
    return opened


async def finish(service: GameService, game_id: int, white_points: float) -> ActionResult:
    """End a game with White scoring ``white_points``, by moves and a resignation or a draw."""
    view = await both_moved(service, await service.game_view(game_id))
    if white_points == 0.5:
        assert view.to_move is not None
        other = view.white if view.to_move.id == view.black.id else view.black
        await service.offer_draw(view.to_move.id, game_id=game_id)
        return await service.accept_draw(other.id, game_id=game_id)
    loser = view.black if white_points == 1 else view.white
    return await service.resign(loser.id, game_id=game_id)


def white_wins(p: PairingView) -> float:
    return 1.0


def higher_seed_wins(p: PairingView) -> float:
    """The lower pairing number wins."""
    assert p.black is not None
    return 1.0 if p.white.number < p.black.number else 0.0


async def play_round(
    service: GameService, tid: int, decide: Decide = higher_seed_wins
) -> TournamentView:
    """Open and play every game of the current round (or arena wave); the view after it."""
    await open_games(service, tid)
    view = await service.tournaments.view(tid)
    for p in view.pairings:
        if p.game_id is not None and p.result is None:
            await finish(service, p.game_id, decide(p))
    return await service.tournaments.view(tid)

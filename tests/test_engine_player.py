"""The engine as the service's computer, through its real worker process: legal moves, and draw
answers judged from the computer's side whoever is to move."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engine_player import EngineComputer
from rules import Color, Game, find_variant, parse_fen


@pytest.fixture
async def computer() -> AsyncIterator[EngineComputer]:
    player = EngineComputer(movetime=0.2)
    try:
        yield player
    finally:
        player.close()


async def test_chooses_a_legal_move_of_the_game(computer: EngineComputer) -> None:
    game = Game(find_variant("international"))
    for text in ("32-28", "19-23", "28x19", "14x23"):
        game.play(text)
    for level in (1, 6):
        move = await computer.choose_move(game, level)
        assert move in game.legal_moves()


def game_from(fen: str, offer_by: Color) -> Game:
    variant = find_variant("english")
    game = Game(variant, parse_fen(fen, variant))
    game.offer_draw(offer_by)
    return game


@pytest.mark.parametrize("to_move", ["W", "B"])
async def test_accepts_a_draw_only_when_worse(computer: EngineComputer, to_move: str) -> None:
    # White (the computer here) has one man against Black's four: it takes the offer...
    losing = game_from(f"{to_move}:W29:B1,2,3,4", Color.BLACK)
    assert await computer.answer_draw(losing, 3) is True
    # ...and with four men against one it declines, whoever is to move when asked.
    winning = game_from(f"{to_move}:W29,30,31,32:B1", Color.BLACK)
    assert await computer.answer_draw(winning, 3) is False

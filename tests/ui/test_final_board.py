"""The last board of a game: its result said once, the strip naming the winner (their disc
beside it), from the service's real results drawn with Pillow and decoded."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageStat
from support.service_harness import ALICE, BOB, start, start_moved

from bot.results import GameView
from bot.service import GameService
from bot.ui.embeds import game_embed
from bot.ui.media import board_request, draw_board


def strip_disc_brightness(view: GameView, winner: str) -> float:
    """The mean brightness of the left end of the status strip (where its disc is) on the
    board of ``view`` drawn with ``winner``'s disc."""
    request = replace(board_request(view), winner=winner)
    image = Image.open(io.BytesIO(draw_board(request).png)).convert("L")
    strip = image.height - image.width
    left_end = image.crop((0, image.width, strip * 2, image.height))
    return float(ImageStat.Stat(left_end).mean[0])


async def test_the_final_board_says_the_result_once_and_names_the_winner(
    service: GameService,
) -> None:
    view = await start_moved(service)  # Bob White, Alice Black
    ended = await service.resign(BOB.id, game_id=view.id)
    assert ended.game is not None and ended.game.winner == ALICE
    assert str(ended.text).startswith("Bob resigned.")
    description = game_embed(ended.game, ended.text, "board.png").description or ""
    assert description.count("0-1") == 1, description  # once: the result line
    assert "**0-1**: Alice wins (White resigned)" in description
    request = board_request(ended.game)
    assert (request.ending, request.winner) == ("Alice wins, 0-1", "black")
    drawn = draw_board(request)
    assert drawn.alt.startswith("Game over: Alice wins, 0-1. ")
    # the strip's disc is the winner's: Black's, darker than White's would be
    assert strip_disc_brightness(ended.game, "black") < strip_disc_brightness(ended.game, "white")


async def test_an_aborted_game_s_board_says_so_in_words(service: GameService) -> None:
    view = await start(service)
    ended = await service.resign(BOB.id, game_id=view.id)  # before both moved: aborted
    assert ended.game is not None
    request = board_request(ended.game)
    assert (request.ending, request.winner) == ("Aborted, no result", "")
    assert "*" not in draw_board(request).alt

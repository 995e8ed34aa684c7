"""A puzzle's private board and the daily post, in process, from the service's real results:
the board drawn from the solver's side at the picker's width (a real PNG, decoded), its alt
text, the menu of the moves as the picker writes them with Hint, the hinted piece's moves
only, the solution and the rating change at the end with Next, the daily post with Solve, all
within Discord's limits, and in the reader's language."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from support.discord_limits import check_components, check_message
from support.service_harness import ALICE, GUILD

from bot.enums import Side
from bot.results import Action
from bot.service import GameService
from bot.service.puzzle_terms import checked_puzzle
from bot.ui.media import BoardRequest, Media
from bot.ui.picker import PICKER_WIDTH
from bot.ui.puzzle_board import daily_message, turn_message
from bot.ui.puzzle_items import PuzzleKit
from bot.ui.replies import Outgoing

BLACK_SHOT = ("B:W17,26,28:B8,9,24", ["9-13", "28x19", "13x22x31"])
"""Black to move, a shot ending in a double jump to the crowning row (checked by the rules
below): the board is drawn with Black at the bottom."""
WHITE_SHOT = ("W:W17,28,32:B8,18,20", ["28-24", "20x27", "32x23x14"])


@pytest.fixture
async def media() -> AsyncIterator[Media]:
    made = Media()
    yield made
    await asyncio.to_thread(made.close)


async def stored(service: GameService, fen: str, line: list[str]) -> None:
    data = {"variant": "english", "fen": fen, "solution": line, "rating": 1234, "source": "t"}
    puzzle = checked_puzzle(data, guild_id=None, game_id=None, now=0.0)
    assert puzzle is not None, "the line must hold"
    await service.store.add_puzzles([puzzle])


def within_limits(out: Outgoing, kind: str = "reply") -> None:
    components = out.view.to_components() if out.view else []
    body = {"content": out.content, "components": components}
    files = [(upload.name, len(upload.data)) for upload in out.files]
    assert check_message(body, kind=kind, files=files) == []
    assert check_components(components) == []


def image_of(out: Outgoing) -> Image.Image:
    (upload,) = out.files
    assert upload.description and len(upload.description) <= 1024  # alt text on every board
    return Image.open(io.BytesIO(upload.data))


async def test_the_board_offers_the_moves_and_hint_then_the_solution(
    service: GameService, media: Media
) -> None:
    await stored(service, *WHITE_SHOT)
    kit = PuzzleKit()
    turn = await service.puzzles.start(GUILD, ALICE, "english")
    out = await turn_message(turn, media, kit, theme="wood", notation="numeric", code="en")
    within_limits(out)
    image = image_of(out)
    assert image.width == PICKER_WIDTH and image.format == "PNG"
    assert out.content is not None and "Puzzle #" in out.content and "White" in out.content
    assert out.files[0].description.startswith(f"Puzzle #{turn.view.puzzle_id}, you play White")
    select, hint = out.view.children if out.view else ()
    attempt = turn.view.attempt_id
    assert select.custom_id == f"puz:{attempt}:0:0:0"
    legal = {"17-13", "17-14", "28-24", "32-27"}
    assert {o.value for o in select.item.options} == legal  # every move: one tap
    assert hint.custom_id == f"puzb:hint:{attempt}:0:0:0"
    # A hint narrows the menu to the hinted piece's moves, drawn as arrows.
    hinted = await service.puzzles.hint(attempt, ALICE, 0)
    out = await turn_message(hinted, media, kit, theme="wood", notation="numeric", code="en")
    within_limits(out, "update")
    (select,) = out.view.children if out.view else ()
    assert {o.value for o in select.item.options} == {"28-24"}
    assert "Arrows show where the piece on 28 can go." in out.files[0].description
    # The forced reply, then the end: the solution drawn, the rating change, Next.
    right = await service.puzzles.move(attempt, ALICE, 0, "28-24")
    out = await turn_message(right, media, kit, theme="wood", notation="numeric", code="en")
    assert out.content is not None and "20x27" in out.content
    (select,) = out.view.children if out.view else ()  # hinted: the next piece's moves only
    assert select.custom_id == f"puz:{attempt}:2:32:0"
    assert {o.value for o in select.item.options} == {"32x23x14"}
    done = await service.puzzles.move(attempt, ALICE, 2, "32x23x14")
    out = await turn_message(done, media, kit, theme="green", notation="numeric", code="en")
    within_limits(out, "update")
    assert out.content is not None and "Solved!" in out.content and "Puzzle rating" in out.content
    assert "Arrows show the solution: 28-24 20x27 32x23x14." in out.files[0].description
    (following,) = out.view.children if out.view else ()
    assert following.custom_id == f"puzb:next:{turn.view.puzzle_id}:0:0:0"
    assert image_of(out).width == PICKER_WIDTH


async def test_a_black_solver_sees_the_board_from_black_and_reads_their_language(
    service: GameService, media: Media
) -> None:
    await stored(service, *BLACK_SHOT)
    turn = await service.puzzles.start(GUILD, ALICE, "english")
    assert turn.view.solver is Side.BLACK
    kit = PuzzleKit()
    english = await turn_message(turn, media, kit, theme="wood", notation="numeric", code="en")
    german = await turn_message(turn, media, kit, theme="wood", notation="numeric", code="de")
    assert german.content is not None and "Finde den besten Zug." in german.content
    assert "Schwarz" in german.content and german.files[0].description.startswith("Rätsel #")
    assert english.content is not None and "you play Black" in english.content
    # Black at the bottom: the bottom-left playable square is Black's home square 1, where
    # White's view has square 32 (the same picture turned by 180 degrees).
    board = image_of(english)
    drawn = await media.board(replace_flip(turn.view.fen))
    upright = Image.open(io.BytesIO(drawn.png))
    assert board.size == upright.size
    assert board.tobytes() != upright.tobytes()


def replace_flip(fen: str) -> BoardRequest:
    """The same position seen from White's side."""
    return BoardRequest("english", fen, None, None, False, 1, "", "wood", (), "numeric",
                        PICKER_WIDTH, "en")  # fmt: skip


async def test_the_daily_post_has_the_board_solve_and_alt_text(
    service: GameService, media: Media
) -> None:
    await stored(service, *WHITE_SHOT)
    await service.puzzles.set_daily(GUILD, 100, ALICE.id, is_moderator=True)
    (posted,) = [r for r in await service.tick() if r.action is Action.DAILY_PUZZLE]
    daily = posted.puzzle
    assert daily is not None
    out = await daily_message(daily, posted.text, media, PuzzleKit(), theme="wood", code="fr")
    within_limits(out, "create")
    assert out.content is not None and "Problème du jour" in out.content
    (solve,) = out.view.children if out.view else ()
    assert solve.custom_id == f"puzb:solve:{daily.puzzle_id}:0:0:0"
    assert out.part == f"daily-{daily.day}"
    assert image_of(out).width == PICKER_WIDTH
    assert out.files[0].description.startswith(f"Le problème du jour du {daily.day}")

"""A game of each new family of variants (issue 32), challenged and played in the running bot:
breakthrough won by the first king, antidraughts won by losing the last piece (the goals),
italian on its mirrored board with its numbers (the layout), spanish numbered from White's
side (the numbering), thai with its eight men and Black to move (its own start), turkish on
all 64 squares along rows and columns (the orthogonal board), frisian, whose men capture
along rows too and whose kings may not move more than three times in a row, and canadian, the
first 12x12 board, played by taps.  Each ends, or goes on, as its rules say, on the public board
and in the PDN."""

from __future__ import annotations

from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    RecordedRequest,
    Users,
    board_alt_text,
    board_text,
    content_of,
    embed_of,
    footer_parts,
    is_ephemeral,
    moves_of,
    png_of,
    select_options,
    status_of,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord

from render.board import layout, square_centre
from rules import find_variant, read_game

pytestmark = pytest.mark.e2e

MESSAGE, UPDATE = 4, 7


async def start(users: Users, variant: str, position: str | None = None) -> RecordedRequest:
    """Alice (White) challenges Bob to ``variant`` (from ``position``), Bob accepts: the board."""
    options: dict[str, Any] = {"opponent": user(BOB), "variant": variant, "color": "white"}
    if position is not None:
        options["position"] = position
    sent = await users.command("challenge", ALICE, GENERAL, **options)
    assert (await sent.callback()).json["type"] == MESSAGE
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    assert (await accepted.callback()).json["type"] == UPDATE
    return await accepted.followup(0)


async def move(users: Users, player: str, text: str) -> RecordedRequest:
    sent = await users.command("move", player, GENERAL, move=text)
    answer = await sent.callback()
    assert answer.json["type"] == MESSAGE and not is_ephemeral(answer), content_of(answer)
    return answer


async def test_breakthrough_is_won_by_the_first_king(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "breakthrough", "W:W7,33:B44,20")
    assert footer_parts(embed_of(board))[1] == "Breakthrough draughts"
    assert to_move_in(board) == ALICE
    final = await move(users, ALICE, "7-1")
    embed = embed_of(final)
    assert status_of(embed) == "**2-0**: Alice wins (crowned first)"
    assert board_text(embed).started == "W:W7,33:B20,44"
    record = read_game(final.files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "96" and record.tags["Result"] == "2-0"
    assert record.game.moves[-1].crowns


async def test_antidraughts_is_won_by_losing_the_last_man(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    await start(users, "antidraughts", "W:W33:B24,19")
    await move(users, ALICE, "33-29")  # offers the man: Bob must take it
    final = await move(users, BOB, "24x33")
    embed = embed_of(final)
    assert status_of(embed) == "**2-0**: Alice wins (no pieces left)"
    record = read_game(final.files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "98" and record.game.result() == "2-0"


async def test_italian_on_its_mirrored_board(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "italian")
    assert footer_parts(embed_of(board))[1] == "Italian draughts"
    # The image: a8 (square 1) holds a black man, and a1 is a light, empty square.
    image = png_of(board).convert("L")
    lay = layout(8, image.width)
    a1_x, a1_y = lay.origin(0, 7, False)
    assert image.getpixel(square_centre(8, image.width, 1, False, mirrored=True)) < 100
    assert image.getpixel((a1_x + lay.square // 2, a1_y + lay.square // 2)) > 190
    # White moves first, in the federation's numbers: 21-17 is b3-a4.
    variant = find_variant("italian")
    assert variant.geometry.names[21] == "b3" and variant.geometry.names[17] == "a4"
    after = await move(users, ALICE, "21-17")
    assert moves_of(embed_of(after)) == "1. 21-17"
    after = await move(users, BOB, "10-14")
    assert moves_of(embed_of(after)) == "1. 21-17 10-14" and to_move_in(after) == ALICE
    # A move from an empty square is refused privately.
    refused = await users.command("move", ALICE, GENERAL, move="21-18")
    assert is_ephemeral(await refused.callback())


async def test_spanish_is_numbered_from_white_s_side(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "spanish")
    assert footer_parts(embed_of(board))[1] == "Spanish draughts"
    # White stands on 1-12 and the board's menu offers its first moves in those numbers.
    assert "White men (12): 1 to 12." in board_alt_text(board)
    offered = [o["value"] for o in select_options(board, "play:1:0")]
    assert offered == ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]
    message = fake.message_of(board)
    assert message is not None
    sent = await users.select("play:1:0", message, ALICE, ["11-15"])
    played = await sent.callback()
    assert "Alice played 11-15." in embed_of(played)["description"]
    after = await move(users, BOB, "c6-d5")  # coordinates work too: c6-d5 is 23-19
    assert moves_of(embed_of(after)) == "1. 11-15 23-19"
    # 15x22 is no move: e6 is taken.  The refusal is private and in the same numbers.
    refused = await users.command("move", ALICE, GENERAL, move="15x22")
    answer = await refused.callback()
    assert is_ephemeral(answer) and "piece on 15 can go to 20" in content_of(answer)
    pdn = await users.command("pdn", BOB, GENERAL)
    record = read_game((await pdn.callback()).files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "24" and record.game.variant is find_variant("spanish")
    assert [m.pdn() for m in record.game.moves] == ["11-15", "23-19"]


async def test_thai_starts_with_eight_men_and_black_to_move(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "thai")
    assert footer_parts(embed_of(board))[1] == "Thai draughts (Makhos)"
    alt = board_alt_text(board)
    assert "White men (8): 1 to 8." in alt and "Black men (8): 25 to 32." in alt
    assert to_move_in(board) == BOB  # Black moves first, as PDN's GameType 31 says
    message = fake.message_of(board)
    assert message is not None
    offered = [o["value"] for o in select_options(message, "play:1:0")]
    assert offered == ["25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"]
    played = await (await users.select("play:1:0", message, BOB, ["27-23"])).callback()
    assert "Bob played 27-23." in embed_of(played)["description"]
    after = await move(users, ALICE, "f2-e3")  # coordinates work too: f2-e3 is 6-10
    assert moves_of(embed_of(after)) == "1. 27-23 6-10"
    pdn = await users.command("pdn", BOB, GENERAL)
    record = read_game((await pdn.callback()).files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "31" and record.game.variant is find_variant("thai")


async def test_turkish_is_played_along_rows_and_columns(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "turkish")
    assert footer_parts(embed_of(board))[1] == "Turkish draughts (Dama)"
    alt = board_alt_text(board)
    assert "White men (16)" in alt and "Black men (16)" in alt
    # The image: b3 (square 42), a light square, holds a white man; d4 (36) is empty.
    image = png_of(board).convert("L")
    assert image.getpixel(square_centre(8, image.width, 42, False, orthogonal=True)) > 190
    assert image.getpixel(square_centre(8, image.width, 36, False, orthogonal=True)) < 190
    # White's first moves are the eight steps straight ahead, offered in coordinates.
    message = fake.message_of(board)
    assert message is not None
    offered = [o["label"] for o in select_options(message, "play:1:0")]
    assert sorted(offered) == sorted(f"{f}3-{f}4" for f in "abcdefgh")
    value = next(o["value"] for o in select_options(message, "play:1:0") if o["label"] == "d3-d4")
    played = await (await users.select("play:1:0", message, ALICE, [value])).callback()
    assert "Alice played d3-d4." in embed_of(played)["description"]
    # A diagonal step is no move in Turkish: refused privately.
    refused = await users.command("move", BOB, GENERAL, move="e6-d5")
    assert is_ephemeral(await refused.callback())
    await move(users, BOB, "d6-d5")
    # Up over d5 and d7 to d8: two men, crowned at the end; the short form names the ends.
    after = await move(users, ALICE, "d4xd8")
    assert moves_of(embed_of(after)) == "1. d3-d4 d6-d5 2. d4xd6xd8"
    pdn = await users.command("pdn", BOB, GENERAL)
    record = read_game((await pdn.callback()).files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "30" and record.game.variant is find_variant("turkish")
    assert [m.pdn() for m in record.game.moves] == ["44-36", "20-28", "36x20x4"]
    assert record.game.moves[-1].crowns


async def test_frisian_captures_along_a_row(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board = await start(users, "frisian")
    assert footer_parts(embed_of(board))[1] == "Frisian draughts"
    assert "White men (20): 31 to 50." in board_alt_text(board)
    await move(users, ALICE, "32-28")
    await move(users, BOB, "18-23")
    offered = await move(users, ALICE, "28-22")
    # Black must capture: down the column over 22 (12x32), diagonally (17x28) or sideways along
    # its row (23x21), each a man.  The menu offers all three; Bob taps the sideways one.
    message = fake.message_of(offered)
    assert message is not None
    values = [o["value"] for o in select_options(message, "play:1:3")]
    assert sorted(values) == ["12x32", "17x28", "23x21"]
    played = await (await users.select("play:1:3", message, BOB, ["23x21"])).callback()
    embed = embed_of(played)
    assert "Bob played 23x21." in embed["description"]
    assert moves_of(embed) == "1. 32-28 18-23 2. 28-22 23x21"
    pdn = await users.command("pdn", ALICE, GENERAL)
    record = read_game((await pdn.callback()).files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "40" and record.game.variant is find_variant("frisian")
    assert [m.pdn() for m in record.game.moves] == ["32-28", "18-23", "28-22", "23x21"]
    assert record.game.moves[-1].captured == (22,)


async def test_a_frisian_king_may_not_move_four_times_in_a_row(
    launch: Any, fake: FakeDiscord
) -> None:
    _, users = await launch()
    await start(users, "frisian", "W:W50,K26:BK4")
    for player, text in (
        (ALICE, "26-21"),
        (BOB, "4-10"),
        (ALICE, "21-26"),
        (BOB, "10-4"),
        (ALICE, "26-21"),
    ):
        await move(users, player, text)
    board = await move(users, BOB, "4-10")
    # White's king has made three moves in a row: the board says so and offers only the man.
    assert status_of(embed_of(board)) == "White's king on 21 has made 3 moves in a row"
    message = fake.message_of(board)
    assert message is not None
    assert [o["value"] for o in select_options(message, "play:1:6")] == ["50-44", "50-45"]
    refused = await users.command("move", ALICE, GENERAL, move="21-26")
    answer = await refused.callback()
    assert is_ephemeral(answer)
    assert content_of(answer).startswith(
        "The king on 21 has made 3 moves in a row and may only capture until another of your "
        "pieces has moved; legal moves: 50-44 or 50-45."
    )
    after = await move(users, ALICE, "50-44")  # another piece: the king is free again
    assert status_of(embed_of(after)) is None
    await move(users, BOB, "10-4")
    await move(users, ALICE, "21-26")


async def tap(
    users: Users, fake: FakeDiscord, board: RecordedRequest, player: str, ply: int, value: str
) -> RecordedRequest:
    """``player`` picks ``value`` in the move menu of ``board`` (game 1 at ``ply``): the new
    public board."""
    message = fake.message_of(board)
    assert message is not None
    assert value in [o["value"] for o in select_options(message, f"play:1:{ply}")]
    played = await (await users.select(f"play:1:{ply}", message, player, [value])).callback()
    assert played.json["type"] == MESSAGE and not is_ephemeral(played), content_of(played)
    return played


async def test_canadian_is_played_by_taps_on_twelve_rows(launch: Any, fake: FakeDiscord) -> None:
    """12x12 with thirty men a side, White first: the picker offers the front row's six men on
    its own (480 px) board, every move is two taps on the public board, and Black's man takes
    two, the second backwards, the only move the board then offers (the most pieces)."""
    _, users = await launch()
    board = await start(users, "canadian")
    embed = embed_of(board)
    assert footer_parts(embed)[1] == "Canadian draughts"
    alt = board_alt_text(board)
    assert "12x12 board" in alt and "White men (30): 43 to 72." in alt
    assert "Black men (30): 1 to 30." in alt
    image = png_of(board).convert("L")
    lay = layout(12, image.width)
    assert lay.margin * 2 + lay.square * 12 == image.width
    assert image.getpixel(square_centre(12, image.width, 72, False)) > 190  # a white man on k1
    assert image.getpixel(square_centre(12, image.width, 1, False)) < 100  # a black man on b12
    assert image.getpixel(square_centre(12, image.width, 40, False)) < 190  # an empty dark square
    # Arrows: the picker, privately, lists the six men of White's front row.
    message = fake.message_of(board)
    assert message is not None
    opened = await users.press("board:move:1", message, ALICE)
    assert is_ephemeral(await opened.callback())
    picker = opened.message()
    (pick,) = [c["custom_id"] for row in picker["components"] for c in row["components"]]
    assert [o["value"] for o in select_options(picker, pick)] == [str(s) for s in range(43, 49)]
    # Two taps a move on the public board.
    board = await tap(users, fake, board, ALICE, 0, "44-37")
    board = await tap(users, fake, board, BOB, 1, "25-31")
    board = await tap(users, fake, board, ALICE, 2, "45-38")
    message = fake.message_of(board)
    assert message is not None
    (only,) = select_options(message, "play:1:3")
    assert (only["value"], only.get("description")) == ("31x44x33", "takes 37, 38")
    board = await tap(users, fake, board, BOB, 3, "31x44x33")
    embed = embed_of(board)
    assert "Bob played 31x44x33." in embed["description"]
    assert moves_of(embed) == "1. 44-37 25-31 2. 45-38 31x44x33"
    assert "White men (28): 43, 46 to 72." in board_alt_text(board)
    pdn = await users.command("pdn", ALICE, GENERAL)
    record = read_game((await pdn.callback()).files["draughts-game-1.pdn"])
    assert record.tags["GameType"] == "27" and record.game.variant is find_variant("canadian")
    assert [m.pdn() for m in record.game.moves] == ["44-37", "25-31", "45-38", "31x44x33"]
    assert record.game.moves[-1].captured == (37, 38)

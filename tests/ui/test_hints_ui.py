"""Play from a position and hints in the Discord layer, in process (issue 30): the Hint button
only on boards of running games against the computer, the hint's picture (the player's side
of the board with the hint's arrow, decoded from the PNG) and its words and alt text, and the
start position and hint count on the board and challenge messages."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image
from test_bot_ui import ALICE, COMPUTER, challenge_view, fields, view_of

from bot.results import Hint
from bot.ui.buttons import Buttons
from bot.ui.embeds import challenge_embed, game_embed
from bot.ui.hints import hint_alt, hint_words
from bot.ui.lobby import lobby_line
from bot.ui.media import board_request, draw_board
from bot.ui.picker import PICKER_WIDTH
from render import square_centre
from rules import Game, find_variant, parse_fen

FEN = "W:W21,22,25:B9,10,K30"


def from_position() -> Game:
    variant = find_variant("english")
    return Game(variant, parse_fen(FEN, variant))


def test_the_hint_button_is_on_boards_of_games_against_the_computer_only() -> None:
    game = from_position()
    computer_game = view_of(game, white=ALICE, black=COMPUTER, computer_id=COMPUTER.id)
    people = view_of(game)
    rated = replace(computer_game, rated=True)  # never made, and never offered a hint
    assert computer_game.hints_offered
    assert not people.hints_offered and not rated.hints_offered
    buttons = Buttons()
    ids = [
        item.custom_id  # type: ignore[attr-defined]
        for item in buttons.game(
            42, running=True, abortable=False, rematch=False, hint=True
        ).children
    ]
    assert ids[-1] == "board:hint:42"
    labels = [
        item.item.label  # type: ignore[attr-defined]
        for item in buttons.game(
            42, running=True, abortable=False, rematch=False, hint=True
        ).children
    ]
    assert labels == ["Arrows", "Move list", "More", "Hint"]


def test_the_hint_picture_shows_the_arrow_from_the_players_side() -> None:
    game = from_position()
    view = view_of(game, white=ALICE, black=COMPUTER, computer_id=COMPUTER.id)
    hint = Hint("22-18", "22-18", (22, 18), 1)
    request = board_request(view, flip=False, arrows=(hint.path,), width=PICKER_WIDTH)
    drawn = draw_board(request)
    image = Image.open(io.BytesIO(drawn.png)).convert("RGB")
    plain = Image.open(io.BytesIO(draw_board(replace(request, arrows=())).png)).convert("RGB")
    assert image.size == plain.size and image.width == PICKER_WIDTH

    def marked(a: int, b: int) -> bool:
        """Whether the picture differs from the one without arrows between squares a and b."""
        (ax, ay), (bx, by) = (square_centre(8, PICKER_WIDTH, s, False) for s in (a, b))
        points = [(round(ax + (bx - ax) * t), round(ay + (by - ay) * t)) for t in (0.3, 0.5)]
        return all(image.getpixel(p) != plain.getpixel(p) for p in points)

    assert marked(22, 18)  # the hint's arrow...
    assert not marked(21, 17) and not marked(25, 22)  # ...and no other
    alt = str(hint_alt(view, hint, drawn.alt))
    assert alt.startswith("Game #42, your move as White, seen from your side.")
    assert alt.endswith("The arrow shows the hint, 22-18.")
    assert str(hint_words(view, hint)) == (
        "Hint for game #42: the computer would play **22-18** (the arrow). 1 hint taken in this "
        "game; the record says so."
    )
    assert "2 hints taken" in str(hint_words(view, replace(hint, hints=2)))


def test_the_board_says_where_the_game_started_and_how_many_hints() -> None:
    game = from_position()
    view = view_of(game, white=ALICE, black=COMPUTER, computer_id=COMPUTER.id)
    assert view.start_fen == FEN
    described = game_embed(view, "", "board.png").description or ""
    assert f"Started from `{FEN}`" in described and "hint" not in described
    helped = game_embed(replace(view, hints=3), "", "board.png").description or ""
    assert "3 hints taken" in helped
    normal = view_of(Game(find_variant("english")))
    assert normal.start_fen is None
    assert "Started from" not in (game_embed(normal, "", "board.png").description or "")


def test_a_challenge_from_a_position_shows_it() -> None:
    challenge = challenge_view(start_fen=FEN)
    assert fields(challenge_embed(challenge))["Start position (unrated)"] == f"`{FEN}`"
    plain = replace(challenge, start_fen=None)
    assert not any("Start" in name for name in fields(challenge_embed(plain)))
    assert "· from a position, unrated ·" in lobby_line(challenge, "en")
    assert "position" not in lobby_line(plain, "en")

"""The Discord layer's pure parts, in process: wording, embeds, allowed mentions, and the images
made in the worker pools (decoded and looked at, not just counted)."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from PIL import Image

from bot.errors import IllegalMoveError, NotFoundError, NotYourTurnError
from bot.results import ChallengeView, GameView, Player
from bot.ui.embeds import challenge_embed, game_embed, result_words, status_words
from bot.ui.flows import user_error
from bot.ui.media import Media, board_request, draw_board, draw_replay
from bot.ui.replies import Outgoing
from bot.ui.texts import MOVE_TIMES, VARIANT_KEYS, duration, rules_summary
from render import square_centre
from rules import Game, find_variant, write_game

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
COMPUTER = Player(99, "DraughtsBot")


def view_of(game: Game, white: Player = BOB, black: Player = ALICE, **changes: object) -> GameView:
    """A GameView of a rules Game, as the service would build it."""
    names = {0: white.name, 1: black.name}
    outcome = game.outcome
    values: dict[str, object] = {
        "id": 42,
        "guild_id": 10,
        "channel_id": 100,
        "variant": game.variant.key,
        "variant_title": game.variant.title,
        "white": white,
        "black": black,
        "computer_level": None,
        "computer_id": None,
        "status": "running" if outcome is None else "finished",
        "fen": game.position.fen(),
        "ply": game.ply,
        "move_number": game.move_number,
        "turn": game.turn.label,
        "to_move": None if outcome else (white if game.turn.label == "white" else black),
        "last_move": game.moves[-1].pdn() if game.moves else None,
        "previous_fen": game.positions[-2].fen() if game.moves else None,
        "status_line": game.status_line(names),  # type: ignore[arg-type]
        "status_parts": tuple(game.status_parts(names)) if outcome is None else (),  # type: ignore[arg-type]
        "draw_offer": None if game.draw_offer is None else game.draw_offer.label,
        "advantage_left": game.advantage_moves_left(),
        "deadline": 1_800_000_000.0 if outcome is None else None,
        "move_time": 3600,
        "result": None if outcome is None else outcome.result(game.variant),
        "termination": None if outcome is None else outcome.words,
        "winner": None,
    }
    values.update(changes)
    return GameView(**values)  # type: ignore[arg-type]


def fields(embed: discord.Embed) -> dict[str, str]:
    return {f.name: f.value for f in embed.fields}  # type: ignore[misc]


# -- wording --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "0 seconds"),
        (1, "1 second"),
        (300, "5 minutes"),
        (3600, "1 hour"),
        (86400, "1 day"),
        (90061, "1 day 1 hour"),
        (7 * 86400, "7 days"),
    ],
)
def test_duration(seconds: int, words: str) -> None:
    assert duration(seconds) == words


def test_move_time_choices_read_as_their_own_duration() -> None:
    assert [duration(seconds) for _, seconds in MOVE_TIMES] == [label for label, _ in MOVE_TIMES]


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_rules_summary_follows_the_variant_data(key: str) -> None:
    variant = find_variant(key)
    title, lines = rules_summary(key)
    text = " ".join(lines)
    assert title == variant.title
    assert f"{variant.size}x{variant.size}" in text
    assert f"{variant.first.label.capitalize()} moves first" in text
    assert ("Kings fly" in text) == variant.flying_kings
    assert ("most pieces" in text) == (variant.capture_choice.value == "majority")
    assert ("backwards" in text) == variant.men_capture_backward
    assert variant.no_progress.description in text
    assert ("declines a draw offer" in text) == (variant.draw_offer_count is not None)


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (NotYourTurnError("it is Bob's turn"), "It is Bob's turn."),
        (
            NotFoundError("there is no game running in this channel"),
            "There is no game running in this channel. Start one with `/challenge`.",
        ),
    ],
)
def test_user_error_is_a_sentence(error: Exception, text: str) -> None:
    assert user_error(error) == text  # type: ignore[arg-type]


def test_illegal_move_error_gets_a_hint() -> None:
    text = user_error(IllegalMoveError("11-14 is not a legal move"))
    assert text.startswith("11-14 is not a legal move.")
    assert "/moves" in text and "/move" in text


# -- embeds ---------------------------------------------------------------------------------


def test_board_embed_shows_players_turn_last_move_status_and_game_id() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    game.offer_draw(game.turn)  # White (Bob) offers
    view = view_of(game)
    embed = game_embed(view, "Alice played 11-15. Bob to move.", "board.png")
    f = fields(embed)
    assert f["\N{MEDIUM WHITE CIRCLE} White"] == "<@2>"
    assert f["\N{MEDIUM BLACK CIRCLE} Black"] == "<@1>"
    assert f["Variant"] == "English draughts / American checkers"
    assert f["Move"] == "1" and f["Last move"] == "`11-15`" and f["To move"] == "<@2>"
    assert "Draw offered by Bob" in f["Status"]
    assert "<t:1800000000:R>" in f["Status"]
    assert embed.footer.text == "Game #42"
    assert embed.image.url == "attachment://board.png"
    assert embed.description == "Alice played 11-15. Bob to move."


def test_status_shows_the_40_move_count_after_a_declined_offer() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    game.offer_draw(game.turn)
    game.decline_draw(game.turn.other)
    view = view_of(game)
    assert "40-move count: 40 left" in status_words(view)


def test_computer_is_named_with_its_level() -> None:
    view = view_of(Game(find_variant("english")), white=COMPUTER, computer_level=4, computer_id=99)
    assert fields(game_embed(view, "", None))["\N{MEDIUM WHITE CIRCLE} White"] == (
        "<@99> (computer, level 4)"
    )


def test_finished_game_shows_the_result_instead_of_the_turn() -> None:
    game = Game(find_variant("international"))
    game.resign(game.turn)
    view = view_of(game, winner=ALICE)
    f = fields(game_embed(view, "Bob resigned.", None))
    assert "To move" not in f and "Status" not in f
    assert f["Result"] == result_words(view)
    assert f["Result"].startswith("**0-2**: Alice wins (")
    aborted = view_of(Game(find_variant("english")), status="aborted", to_move=None)
    assert result_words(aborted) == "Aborted: no result"


def challenge_view(**changes: object) -> ChallengeView:
    values: dict[str, object] = {
        "id": 7,
        "guild_id": 10,
        "channel_id": 100,
        "challenger": ALICE,
        "opponent": BOB,
        "variant": "dame",
        "variant_title": "German Dame (Brettspielnetz rules)",
        "color": "white",
        "move_time": 3600,
        "thread": True,
        "level": None,
        "status": "open",
        "game_id": None,
        "expires_at": 1_800_000_000.0,
    }
    values.update(changes)
    return ChallengeView(**values)  # type: ignore[arg-type]


def test_challenge_embed_open_and_answered() -> None:
    embed = challenge_embed(challenge_view())
    f = fields(embed)
    assert "<@1> challenges <@2>" in (embed.description or "")
    assert f["Colours"] == "Alice plays White"
    assert f["Time per move"] == "1 hour" and f["Where"] == "in a new thread"
    assert f["Expires"] == "<t:1800000000:R>"
    assert embed.footer.text == "Challenge #7"
    accepted = challenge_embed(challenge_view(status="accepted", game_id=3), game_channel=555)
    assert fields(accepted)["Status"] == "Accepted: game #3 in <#555>"
    assert "Expires" not in fields(accepted)
    expired = fields(challenge_embed(challenge_view(status="expired", color="random")))
    assert expired["Status"] == "Expired without an answer"
    assert expired["Colours"] == "random colours"


# -- mentions -------------------------------------------------------------------------------


def test_outgoing_pings_only_the_named_users() -> None:
    out = Outgoing(content="@everyone <@1> hello", mentions=(1,))
    allowed = out.allowed_mentions().to_dict()
    assert allowed["parse"] == []  # no @everyone, no roles, no names typed by users
    assert allowed["users"] == [1]
    kwargs = Outgoing(files=[("a.png", b"x")]).send_kwargs()
    assert [f.filename for f in kwargs["files"]] == ["a.png"]
    # A File is read once: every send makes new ones.
    assert kwargs["files"][0] is not Outgoing(files=[("a.png", b"x")]).send_kwargs()["files"][0]


# -- images ---------------------------------------------------------------------------------


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_board_is_seen_from_the_side_to_move() -> None:
    game = Game(find_variant("english"))
    assert board_request(view_of(game)).flip is True  # Black to move: Black at the bottom
    game.play("11-15")
    assert board_request(view_of(game)).flip is False
    assert board_request(view_of(game), flip=True).flip is True


def test_finished_board_faces_the_human_against_the_computer() -> None:
    game = Game(find_variant("english"))
    game.resign(game.turn)
    assert board_request(view_of(game)).flip is False
    against = view_of(game, white=COMPUTER, computer_id=99, computer_level=3)
    assert board_request(against).flip is True


def test_board_png_highlights_the_last_move() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    request = board_request(view_of(game))
    image = decode(draw_board(request)).convert("RGB")
    assert image.width == 640 and image.height > 640  # the board plus its status strip
    # The square the man left is tinted by the highlight: it differs from the same (empty)
    # square on a board with no last move, drawn from the same side.
    start = Game(find_variant("english"))
    start_view = view_of(start, fen=game.position.fen())
    plain = decode(draw_board(board_request(start_view, flip=request.flip))).convert("RGB")
    assert plain.size == image.size
    x, y = square_centre(8, 640, 11, request.flip)
    assert image.getpixel((x, y)) != plain.getpixel((x, y))
    far = square_centre(8, 640, 1, request.flip)
    assert image.getpixel(far) == plain.getpixel(far)


def test_replay_gif_from_pdn() -> None:
    game = Game(find_variant("english"))
    for move in ("11-15", "22-18", "15x22", "25x18"):
        game.play(move)
    game.resign(game.turn)
    replay = draw_replay(write_game(game, {"White": "Bob", "Black": "Alice"}), flip=False)
    gif = Image.open(io.BytesIO(replay.data))
    assert gif.format == "GIF" and gif.n_frames == 5
    assert replay.note == ""


async def test_media_pools_make_the_same_images_off_the_loop() -> None:
    game = Game(find_variant("russian"))
    game.play("c3-d4")
    view = view_of(game)
    media = Media()
    try:
        png = await media.board(view)
        assert png == draw_board(board_request(view))
        pdn = write_game(game, {"White": "Bob", "Black": "Alice"})
        replay, loop_ok = await asyncio.gather(media.replay(pdn), asyncio.sleep(0, True))
        assert loop_ok and Image.open(io.BytesIO(replay.data)).n_frames == 2
    finally:
        await asyncio.to_thread(media.close)

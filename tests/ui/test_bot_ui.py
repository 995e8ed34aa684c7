"""The Discord layer's pure parts, in process: wording, embeds, allowed mentions, and the images
made in the worker pools (decoded and looked at, not just counted)."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

from bot.config import Settings
from bot.enums import ColorChoice, DrawAction, Opening, ThreadMode
from bot.errors import IllegalMoveError, NotFoundError, NotYourTurnError
from bot.i18n import duration
from bot.results import ChallengeView, GameView, Player
from bot.service import GameService
from bot.service.views import game_view, status_of
from bot.store import GameRow
from bot.ui.arrivals import nonce
from bot.ui.buttons import Buttons, ChallengeAnswer, PlayerAction
from bot.ui.buttons import view_of as buttons_view
from bot.ui.choices import COLOR, DRAW_ACTION, MOVE_TIME, OPENING, THREADS, VARIANT
from bot.ui.client import DraughtsBot, make_bot
from bot.ui.embeds import (
    challenge_embed,
    game_embed,
    game_kind,
    players_line,
    result_words,
    status_words,
    turn_line,
)
from bot.ui.media import Media, board_request, draw_board, draw_replay
from bot.ui.move_options import BoardMenu, Option
from bot.ui.replies import Outgoing, Upload
from bot.ui.rules_texts import rules_summary
from bot.ui.texts import MOVE_TIMES, VARIANT_KEYS
from bot.ui.wording import user_error
from render import square_centre
from rules import Game, Goal, Precedence, find_variant, write_game

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
COMPUTER = Player(99, "DraughtsBot")


def view_of(game: Game, white: Player = BOB, black: Player = ALICE, **changes: object) -> GameView:
    """A GameView of a rules Game, built by the service's own view builder from a stored row of
    game #42 (``changes`` then override fields of the view)."""
    row = GameRow(
        id=42,
        guild_id=10,
        channel_id=100,
        white_id=white.id,
        white_name=white.name,
        black_id=black.id,
        black_name=black.name,
        computer_id=None,
        computer_level=None,
        variant=game.variant.key,
        start_fen=game.start.fen(),
        opening="",
        status=status_of(game),
        result=None,
        termination=None,
        termination_detail="",
        winner=None,
        ply=game.ply,
        fen=game.position.fen(),
        move_time=3600,
        deadline=1_800_000_000.0,
        remind_at=None,
        draw_offer=None,
        advantage_side=None,
        advantage_start_ply=None,
        version=0,
        created_at=0.0,
        updated_at=0.0,
        rated=False,
        white_rating=None,
        white_rating_change=None,
        black_rating=None,
        black_rating_change=None,
        match_id=None,
        takeback_offer=None,
        takeback_refused_ply=None,
    )
    return replace(game_view(row, game), **changes)  # type: ignore[arg-type]


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
    assert str(duration(seconds)) == words


def test_move_time_choices_read_as_their_own_duration() -> None:
    assert [str(duration(seconds)) for _, seconds in MOVE_TIMES] == [
        label for label, _ in MOVE_TIMES
    ]


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_rules_summary_follows_the_variant_data(key: str) -> None:
    variant = find_variant(key)
    title, lines = rules_summary(key)
    text = " ".join(str(line) for line in lines)
    assert str(title) == variant.title
    assert f"{variant.size}x{variant.size}" in text
    assert f"{variant.first.label.capitalize()} moves first" in text
    assert ("Kings fly" in text) == variant.flying_kings
    assert ("most pieces" in text) == (Precedence.MOST_PIECES in variant.capture_precedence)
    assert ("Men capture forwards and backwards" in text) == variant.men_capture_backward
    assert ("rows and columns" in text) == (
        variant.orthogonal or variant.captures_in_eight_directions
    )
    assert ("the most value" in text) == (Precedence.MOST_VALUE in variant.capture_precedence)
    assert ("moves in a row without capturing" in text) == bool(variant.king_move_limit)
    assert ("There is no draw by repetition" in text) == (not variant.repetitions)
    assert ("repetition (the same position" in text) == bool(variant.repetitions)
    assert ("men each, on the back row" in text) == (variant.men_rows == 1)
    rows = (
        f"{variant.men_rows * variant.geometry.half} men each, on the first {variant.men_rows} rows"
    )
    assert (rows in text) == (not variant.orthogonal and variant.men_rows > 1)
    assert ("turn straight back" in text) == (not variant.king_turns_back)
    assert ("there is no move-count draw" in text) == (
        variant.no_progress is None and not variant.endgames
    )
    if variant.no_progress is not None:
        assert variant.no_progress.description in text
    assert ("declines a draw offer" in text) == (variant.draw_offer_count is not None)
    assert ("you win when you cannot move" in text) == (variant.goal is Goal.GIVE_AWAY)
    assert ("crown a man wins" in text) == (variant.goal is Goal.FIRST_KING)


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


def test_board_message_is_compact_players_move_recent_moves_status_and_game_id() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    game.offer_draw(game.turn)  # White (Bob) offers
    view = replace(view_of(game), white_rating="1523", black_rating="1500?", rated=True)
    embed = game_embed(view, "Alice played 11-15.", "board.png")
    assert embed.fields == []  # one short description instead of a table of fields
    lines = (embed.description or "").split("\n")
    assert lines[0] == ("**Bob** (White, 1523) v **Alice** (Black, 1500?)")
    assert lines[1] == "Alice played 11-15."
    assert lines[2] == "`1. 11-15`"
    assert lines[3] == "Draw offered by Bob"
    assert len(lines) == 4
    assert embed.footer.text == "Game #42 · English draughts / American checkers · rated"
    assert embed.image.url == "attachment://board.png"
    # Whose turn, with the one mention and the deadline, is the message's content.
    assert turn_line(view) == "<@2> to move, due <t:1800000000:R>."
    assert "<@" not in (embed.description or "")


def test_no_status_line_when_nothing_is_pending() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    view = view_of(game)
    assert status_words(view) == ""
    assert (embed_lines := (game_embed(view, "h", None).description or "").split("\n"))
    assert embed_lines == [embed_lines[0], "h", "`1. 11-15`"]


def test_status_shows_the_40_move_count_after_a_declined_offer() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    game.offer_draw(game.turn)
    game.decline_draw(game.turn.other)
    view = view_of(game)
    assert "40-move count: 40 left" in status_words(view)


def test_computer_is_named_with_its_level() -> None:
    view = view_of(Game(find_variant("english")), white=COMPUTER, computer_level=4, computer_id=99)
    assert players_line(view).startswith("**DraughtsBot** (White, computer level 4) v")


def test_finished_game_shows_the_result_instead_of_the_turn() -> None:
    game = Game(find_variant("international"))
    game.resign(game.turn)
    view = view_of(game, winner=ALICE)
    embed = game_embed(view, "Bob resigned.", None)
    assert turn_line(view) == ""
    assert (embed.description or "").split("\n")[-1] == result_words(view)
    assert result_words(view).startswith("**0-2**: Alice wins (")
    aborted = view_of(Game(find_variant("english")), status="aborted", to_move=None)
    assert result_words(aborted) == "Aborted: no result"
    assert game_kind(aborted) == "aborted, unrated"


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
    kwargs = Outgoing(files=[Upload("a.png", b"x", "alt")]).send_kwargs()
    assert [(f.filename, f.description) for f in kwargs["files"]] == [("a.png", "alt")]
    # A File is read once: every send makes new ones.
    again = Outgoing(files=[Upload("a.png", b"x")]).send_kwargs()["files"][0]
    assert kwargs["files"][0] is not again and again.description is None


# -- images ---------------------------------------------------------------------------------


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_public_board_keeps_the_game_s_orientation() -> None:
    game = Game(find_variant("english"))
    assert board_request(view_of(game)).flip is False  # White at the bottom, Black to move
    game.play("11-15")
    assert board_request(view_of(game)).flip is False
    assert board_request(view_of(game, flip=True)).flip is True  # the server chose Black
    assert board_request(view_of(game), flip=True).flip is True


def test_board_alt_text_names_the_game_the_turn_and_the_pieces() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    drawn = draw_board(board_request(view_of(game)))
    assert "White to move" in drawn.alt and "11-15" in drawn.alt
    assert "15" in drawn.alt and len(drawn.alt) <= 1024


def test_board_png_highlights_the_last_move() -> None:
    game = Game(find_variant("english"))
    game.play("11-15")
    request = board_request(view_of(game))
    image = decode(draw_board(request).png).convert("RGB")
    assert image.width == 640 and image.height > 640  # the board plus its status strip
    # The square the man left is tinted by the highlight: it differs from the same (empty)
    # square on a board with no last move, drawn from the same side.
    start = Game(find_variant("english"))
    start_view = view_of(start, fen=game.position.fen())
    plain = decode(draw_board(board_request(start_view, flip=request.flip)).png).convert("RGB")
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
        drawn = await media.board(board_request(view))
        assert drawn == draw_board(board_request(view))
        pdn = write_game(game, {"White": "Bob", "Black": "Alice"})
        replay, loop_ok = await asyncio.gather(media.replay(pdn), asyncio.sleep(0, True))
        assert loop_ok and Image.open(io.BytesIO(replay.data)).n_frames == 2
    finally:
        await asyncio.to_thread(media.close)


# -- the slash commands' contract -------------------------------------------------------------

Listed = list[tuple[str, str | int]]
"""A command option's choices: (name shown, value sent)."""

VARIANT_CHOICES: Listed = [
    ("English draughts / American checkers", "english"),
    ("German Dame (Brettspielnetz rules)", "dame"),
    ("American pool checkers", "pool"),
    ("International draughts", "international"),
    ("Canadian draughts", "canadian"),
    ("Brazilian draughts", "brazilian"),
    ("Russian draughts", "russian"),
    ("Italian draughts", "italian"),
    ("Spanish draughts", "spanish"),
    ("Portuguese draughts", "portuguese"),
    ("Czech draughts", "czech"),
    ("Thai draughts (Makhos)", "thai"),
    ("Turkish draughts (Dama)", "turkish"),
    ("Frisian draughts", "frisian"),
    ("Frysk!", "frysk"),
    ("Antidraughts", "antidraughts"),
    ("Breakthrough draughts", "breakthrough"),
]
MOVE_TIME_CHOICES: Listed = [
    ("5 minutes", 300),
    ("15 minutes", 900),
    ("1 hour", 3600),
    ("6 hours", 21600),
    ("12 hours", 43200),
    ("1 day", 86400),
    ("3 days", 259200),
    ("7 days", 604800),
]


def named_as_sent(*words: str) -> Listed:
    return [(word, word) for word in words]


POOL_CHOICES = named_as_sent("bullet", "blitz", "rapid", "classical", "correspondence")

THEME_CHOICES: Listed = [
    ("wood", "wood"),
    ("green", "green"),
    ("contrast (colour-blind safe, high contrast)", "contrast"),
]

CHOICES: dict[tuple[str, str], Listed] = {
    ("challenge", "variant"): VARIANT_CHOICES,
    ("challenge", "color"): named_as_sent("random", "white", "black"),
    ("challenge", "move_time"): MOVE_TIME_CHOICES,
    ("challenge", "opening"): [
        ("none (the usual start)", "none"),
        ("ballot (random ACF three-move opening)", "ballot"),
    ],
    ("draw", "action"): named_as_sent("offer", "accept", "decline"),
    ("rules", "variant"): VARIANT_CHOICES,
    ("stats", "variant"): VARIANT_CHOICES,
    ("stats", "pool"): POOL_CHOICES,
    ("leaderboard", "variant"): VARIANT_CHOICES,
    ("leaderboard", "pool"): POOL_CHOICES,
    ("settings", "variant"): VARIANT_CHOICES,
    ("settings", "move_time"): MOVE_TIME_CHOICES,
    ("settings", "threads"): named_as_sent("optional", "always", "never"),
    ("settings", "orientation"): [
        ("White at the bottom", "white"),
        ("Black at the bottom", "black"),
    ],
    ("settings", "theme"): THEME_CHOICES,
    ("settings", "language"): [
        ("the server's language in Discord", "discord"),
        # Each language by its own name: every catalog in bot/locales is a choice.
        ("English", "en"),
        ("Deutsch", "de"),
        ("Français", "fr"),
        ("Nederlands", "nl"),
        ("Polski", "pl"),
        ("Português (Brasil)", "pt_BR"),
        ("Русский", "ru"),
        ("Українська", "uk"),
    ],
    ("prefs", "theme"): THEME_CHOICES,
    ("tournament create", "format"): [
        ("Swiss", "swiss"),
        ("round robin", "round_robin"),
        ("arena", "arena"),
    ],
    ("tournament create", "variant"): VARIANT_CHOICES,
    ("tournament create", "move_time"): MOVE_TIME_CHOICES,
    ("tournament create", "bye"): [("1 point", "1"), ("½ point", "0.5"), ("no points", "0")],
    ("puzzle solve", "variant"): VARIANT_CHOICES,
    ("puzzle leaderboard", "variant"): VARIANT_CHOICES,
    ("puzzle daily", "variant"): VARIANT_CHOICES,
    ("tournament fix", "result"): [
        ("1-0: White wins", "white"),
        ("½-½: draw", "draw"),
        ("0-1: Black wins", "black"),
        ("0-0: both lose", "neither"),
    ],
    ("prefs", "notation"): [
        ("the variant's own (algebraic in Russian and Brazilian)", "variant"),
        ("numeric (11-15)", "numeric"),
        ("algebraic (c3-d4)", "algebraic"),
    ],
}
"""Every fixed choice, as players see it (name) and as the bot reads it (value)."""

TOURNAMENT = "tournament integer 1..9007199254740991 autocomplete"

OPTIONS = {
    "challenge": [
        "opponent user",
        "variant string",
        "color string",
        "move_time integer",
        "thread boolean",
        "opening string",
        "match boolean",
        "level integer 1..6",
        "clock string 1..20 autocomplete",
        "min_rating integer 100..4000",
        "max_rating integer 100..4000",
        "position string 1..400",
    ],
    "lobby": [],
    "move": ["move string required 1..100 autocomplete"],
    "board": ["flip boolean", "text boolean"],
    "moves": [],
    "draw": ["action string required"],
    "resign": [],
    "takeback": [],
    "abort": [],
    "pdn": ["game integer 1..9007199254740991"],
    "games": [],
    "rules": ["variant string required"],
    "help": [],
    "stats": ["user user", "variant string", "pool string"],
    "leaderboard": ["variant string", "pool string"],
    "history": ["user user", "tournaments boolean"],
    "replay": ["game integer 1..9007199254740991"],
    "settings": [
        "variant string",
        "move_time integer",
        "threads string",
        "allow_channel channel text,announcement",
        "disallow_channel channel text,announcement",
        "all_channels boolean",
        "orientation string",
        "theme string",
        "language string",
    ],
    "prefs": ["theme string", "notation string", "dm_turn boolean", "last_warning boolean"],
    "tournament": [
        "create subcommand",
        "standings subcommand",
        "list subcommand",
        "start subcommand",
        "pause subcommand",
        "resume subcommand",
        "cancel subcommand",
        "drop subcommand",
        "fix subcommand",
    ],
    "tournament create": [
        "format string required",
        "name string 1..80",
        "variant string",
        "move_time integer",
        "clock string 1..20 autocomplete",
        "rated boolean",
        "rounds integer 1..30",
        "double boolean",
        "duration integer 5..10080",
        "start string 1..40 autocomplete",
        "min_rating integer 100..4000",
        "max_rating integer 100..4000",
        "max_players integer 2..1000",
        "forfeit_wait integer 1..10080",
        "berserk boolean",
        "bye string",
    ],
    "tournament standings": [TOURNAMENT],
    "tournament list": [],
    "tournament start": [TOURNAMENT],
    "tournament pause": [TOURNAMENT],
    "tournament resume": [TOURNAMENT],
    "tournament cancel": [TOURNAMENT],
    "tournament drop": ["user user required", TOURNAMENT],
    "tournament fix": [
        "pairing integer required 1..9007199254740991 autocomplete",
        "result string required",
        "reason string required 3..200",
        TOURNAMENT,
    ],
    "analyse": ["game integer 1..9007199254740991"],
    "import": ["file attachment", "text string 1..6000", "game integer 1..1000"],
    "puzzle": [
        "solve subcommand",
        "rating subcommand",
        "leaderboard subcommand",
        "daily subcommand",
    ],
    "puzzle solve": ["variant string"],
    "puzzle rating": [],
    "puzzle leaderboard": ["variant string"],
    "puzzle daily": ["channel channel text,announcement", "off boolean", "variant string"],
}
"""Each command's options in order: name, type, and what Discord enforces (a group's
subcommands under ``group subcommand``)."""

TYPE_NAMES = {
    1: "subcommand",
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    11: "attachment",
}
CHANNEL_NAMES = {0: "text", 5: "announcement"}


def option_words(option: dict[str, Any]) -> str:
    words = [option["name"], TYPE_NAMES[option["type"]]]
    if option.get("required"):
        words.append("required")
    low = option.get("min_value", option.get("min_length"))
    high = option.get("max_value", option.get("max_length"))
    if low is not None or high is not None:
        words.append(f"{low}..{high}")
    if option.get("autocomplete"):
        words.append("autocomplete")
    if "channel_types" in option:
        words.append(",".join(CHANNEL_NAMES[t] for t in option["channel_types"]))
    return " ".join(words)


async def synced_payload(service: GameService) -> list[dict[str, Any]]:
    """The commands as ``CommandTree.sync`` sends them, built as the client builds them."""
    bot = DraughtsBot(Settings())
    try:
        await bot.add_commands(service)
        return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await asyncio.to_thread(bot.media.close)


async def test_slash_commands_keep_their_names_options_and_choices(
    service: GameService,
) -> None:
    payload = await synced_payload(service)
    assert [c["name"] for c in payload] == [name for name in OPTIONS if " " not in name]
    checked = []
    for command in payload:
        commands = [(command["name"], command)] + [
            (f"{command['name']} {sub['name']}", sub)
            for sub in command.get("options", [])
            if sub["type"] == 1
        ]
        for name, declared in commands:
            checked.append(name)
            options = declared.get("options", [])
            assert [option_words(o) for o in options] == OPTIONS[name], name
            for option in options:
                listed = [(c["name"], c["value"]) for c in option.get("choices", [])]
                assert listed == CHOICES.get((name, option["name"]), []), (name, option["name"])
    assert checked == list(OPTIONS)
    for command in payload:
        name = command["name"]
        everywhere = name in ("rules", "help", "prefs")
        assert command["contexts"] == (None if everywhere else [0]), name
        assert command["dm_permission"] is everywhere, name
    permissions = {c["name"]: c["default_member_permissions"] for c in payload}
    assert permissions == {c["name"]: None for c in payload} | {"settings": 1 << 5}


async def test_choices_hand_the_command_the_domain_value() -> None:
    interaction: Any = None  # the choices read nothing of it
    assert await COLOR.transform(interaction, "white") is ColorChoice.WHITE
    assert await OPENING.transform(interaction, "ballot") is Opening.BALLOT
    assert await DRAW_ACTION.transform(interaction, "decline") is DrawAction.DECLINE
    assert await THREADS.transform(interaction, "never") is ThreadMode.NEVER
    assert await MOVE_TIME.transform(interaction, 3600) == 3600
    assert await VARIANT.transform(interaction, "russian") == "russian"
    with pytest.raises(discord.app_commands.TransformerError):
        await DRAW_ACTION.transform(interaction, "propose")


class AnswerLog:
    """Both answer protocols of the buttons, writing down each press."""

    def __init__(self) -> None:
        self.presses: list[tuple[object, ...]] = []

    async def answer_challenge(self, i: object, answer: ChallengeAnswer, challenge_id: int) -> None:
        self.presses.append(("challenge", answer, challenge_id))

    async def answer_rematch(self, i: object, game_id: int) -> None:
        self.presses.append(("rematch", game_id))

    async def answer_draw(self, i: object, accept: bool, game_id: int) -> None:
        self.presses.append(("draw", accept, game_id))

    async def answer_takeback(self, i: object, accept: bool, game_id: int, ply: int) -> None:
        self.presses.append(("takeback", accept, game_id, ply))

    async def confirm_resign(self, i: object, game_id: int) -> None:
        self.presses.append(("resign", game_id))

    async def open_picker(self, i: object, game_id: int) -> None:
        self.presses.append(("move", game_id))

    async def show_moves(self, i: object, game_id: int) -> None:
        self.presses.append(("moves", game_id))

    async def abort_game(self, i: object, game_id: int) -> None:
        self.presses.append(("abort", game_id))

    async def board_picked(self, i: object, game_id: int, ply: int, value: str) -> None:
        self.presses.append(("play", game_id, ply, value))

    async def more(self, i: object, game_id: int) -> None:
        self.presses.append(("more", game_id))

    async def act(self, i: object, action: PlayerAction, game_id: int) -> None:
        self.presses.append(("act", action, game_id))

    async def analyse_game(self, i: object, game_id: int) -> None:
        self.presses.append(("analyse", game_id))

    async def give_hint(self, i: object, game_id: int) -> None:
        self.presses.append(("hint", game_id))


async def test_buttons_keep_their_ids_and_reach_the_answers_registered() -> None:
    buttons = Buttons()
    answers = AnswerLog()
    registered = buttons.answered_by(
        challenges=answers,
        offers=answers,
        board=answers,
        actions=answers,
        analyses=answers,
        hints=answers,
    )
    menu = BoardMenu(3, [Option("11-15", "11-15")], moves=True)
    views = [
        buttons.challenge(17),
        buttons.draw(5),
        buttons.takeback(5, 12),
        buttons.resign(5),
        buttons.game(5, running=False, abortable=False, rematch=True, analyse=True),
        buttons.game(6, running=True, abortable=True, rematch=False),
        buttons.game(7, running=True, abortable=False, rematch=False),
        buttons.game(8, running=True, abortable=False, rematch=False, menu=menu),
        buttons.game(4, running=True, abortable=True, rematch=False, menu=menu, hint=True),
        buttons.game(3, running=False, abortable=False, rematch=True, hint=True),
        buttons_view(*buttons.action_buttons(9, list(PlayerAction))),
    ]
    items = [item for view in views for item in view.children]
    ids = [item.custom_id for item in items]  # type: ignore[attr-defined]
    assert ids == [
        "challenge:accept:17",
        "challenge:decline:17",
        "challenge:cancel:17",
        "draw:accept:5",
        "draw:decline:5",
        "takeback:accept:5:12",
        "takeback:decline:5:12",
        "resign:5",
        "board:moves:5",
        "rematch:5",
        "analyse:5",
        "board:move:6",
        "board:moves:6",
        "board:more:6",
        "board:abort:6",
        "board:move:7",
        "board:moves:7",
        "board:more:7",
        "play:8:3",
        "board:move:8",
        "board:moves:8",
        "board:more:8",
        "play:4:3",
        "board:move:4",
        "board:moves:4",
        "board:more:4",
        "board:abort:4",
        "board:hint:4",
        "board:moves:3",
        "rematch:3",
        "act:draw:9",
        "act:takeback:9",
        "act:resign:9",
    ]
    # The fullest board (the menu, Arrows, Move list, More, Abort and Hint): the menu on a row
    # of its own, the five buttons on one row below it, as Discord allows and a phone shows.
    fullest = buttons.game(4, running=True, abortable=True, rematch=False, menu=menu, hint=True)
    assert [len(row["components"]) for row in fullest.to_components()] == [1, 5]
    # discord.py registers the class of every item it posts: it must be the registered one.
    assert all(type(item) in registered for item in items)
    assert all(view.timeout is None for view in views)
    # A press on an old message: the class rebuilds the item from the id alone.
    for custom_id in ids:
        (cls,) = [c for c in registered if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        item = await cls.from_custom_id(None, None, match)  # type: ignore[arg-type]
        picked: Any = SimpleNamespace(data={"values": ["11-15"]})  # what a select sends
        await item.callback(picked)
    assert answers.presses == [
        ("challenge", ChallengeAnswer.ACCEPT, 17),
        ("challenge", ChallengeAnswer.DECLINE, 17),
        ("challenge", ChallengeAnswer.CANCEL, 17),
        ("draw", True, 5),
        ("draw", False, 5),
        ("takeback", True, 5, 12),
        ("takeback", False, 5, 12),
        ("resign", 5),
        ("moves", 5),
        ("rematch", 5),
        ("analyse", 5),
        ("move", 6),
        ("moves", 6),
        ("more", 6),
        ("abort", 6),
        ("move", 7),
        ("moves", 7),
        ("more", 7),
        ("play", 8, 3, "11-15"),
        ("move", 8),
        ("moves", 8),
        ("more", 8),
        ("play", 4, 3, "11-15"),
        ("move", 4),
        ("moves", 4),
        ("more", 4),
        ("abort", 4),
        ("hint", 4),
        ("moves", 3),
        ("rematch", 3),
        ("act", PlayerAction.DRAW, 9),
        ("act", PlayerAction.TAKEBACK, 9),
        ("act", PlayerAction.RESIGN, 9),
    ]


def test_a_repost_of_a_message_has_its_nonce_and_other_messages_do_not() -> None:
    """Discord shows a message once per nonce (``enforce_nonce``): a part of an announcement
    posted again must reuse its nonce, and no two parts (a game's end, its replay, a match's
    next game) or two announcements may share one."""
    event, other = "A" * 22, "B" * 22
    parts = ["board-7", "replay-7", "board-8", "#0", "#1"]
    nonces = {nonce(e, p) for e in (event, other) for p in parts}
    assert len(nonces) == 2 * len(parts)
    assert nonce(event, "board-8") == nonce(event, "board-8")
    assert all(1 <= len(n) <= 25 for n in nonces)


# -- shards --------------------------------------------------------------------------------------


async def test_the_client_is_sharded_only_when_a_shard_count_is_set() -> None:
    plain = make_bot(Settings())
    sharded = make_bot(Settings(shard_count=4, shard_ids=(2, 3)))
    every = make_bot(Settings(shard_count=2))
    try:
        assert type(plain) is DraughtsBot
        assert isinstance(sharded, discord.AutoShardedClient)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
        assert (every.shard_count, every.shard_ids) == (2, [0, 1])
    finally:
        for bot in (plain, sharded, every):
            await asyncio.to_thread(bot.media.close)


async def test_an_event_after_the_close_is_dropped_not_a_traceback() -> None:
    """discord.py's wait before ``on_ready`` outlives ``close()``: its ``ready`` arriving after
    the close (a stop within 2 s of connecting) must not reach the closed client's lost loop."""
    bot = make_bot(Settings())
    heard: list[str] = []

    async def on_ready() -> None:
        heard.append("ready")

    bot.add_listener(on_ready)
    try:
        await bot.close()
        bot.dispatch("ready")  # raised AttributeError ('_MissingSentinel' has no create_task)
        await asyncio.sleep(0)
        assert heard == []
    finally:
        await asyncio.to_thread(bot.media.close)


async def test_players_are_heard_only_while_every_shard_of_the_process_is_connected() -> None:
    """One shard down is its servers' players unheard: the scheduler pauses (and the silence is
    given back to their clocks) until every shard of the process is up again."""
    bot = make_bot(Settings(shard_count=4, shard_ids=(2, 3)))

    async def gateway(event: str, shard: int) -> None:
        """What discord.py does on that shard's event: call the listeners added for it."""
        for listener in bot.extra_events[f"on_{event}"]:
            await listener(shard)

    try:
        bot._listen_to_gateway()
        assert not bot.gateway_up
        await gateway("shard_ready", 2)
        assert not bot.gateway_up  # shard 3 still connecting
        await gateway("shard_ready", 3)
        assert bot.gateway_up
        await gateway("shard_disconnect", 3)
        assert not bot.gateway_up and bot.shards_up == {2}
        await gateway("shard_resumed", 3)
        assert bot.gateway_up
    finally:
        await asyncio.to_thread(bot.media.close)

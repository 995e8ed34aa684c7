"""Every message the Discord layer builds fits Discord's documented limits, at the limits.

:func:`problems` is an independent statement of Discord's limits (content 2000, embed title 256,
description 4096, 25 fields, field name 256 and value 1024, footer 2048, author 256, 6000 across
a message's embeds, 10 embeds, button labels 80, select options 100, custom ids 1-100 and unique,
5 rows of 5, autocomplete 25 choices of 1-100), counted in UTF-16 units (the larger of the two
counts Discord might use), so it does not lean on :mod:`bot.ui.limits`.  Every builder is run
through it at the extremes the issue names (32-character display names, the service's 64,
19-digit ids up to 2**63-1, a 500-ply game, 60+ legal moves, 25 games) and with hypothesis over
names full of Markdown and odd Unicode.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.enums import ChallengeStatus, ColorChoice, GameStatus, Side, ThreadMode
from bot.markdown import ELLIPSIS, NAME_LIMIT, shown
from bot.results import (
    ChallengeView,
    GameSummary,
    GameView,
    Leaderboard,
    MoveChoice,
    Player,
    RatingLine,
    Stats,
)
from bot.service.settings import ServerSettings
from bot.ui.buttons import Buttons
from bot.ui.embeds import MAX_LISTED_GAMES, challenge_embed, game_embed, games_embed
from bot.ui.info import help_embed, rules_embed
from bot.ui.limits import autocomplete, fit, fit_embed, label, listing
from bot.ui.replies import Outgoing
from bot.ui.social_embeds import history_embed, leaderboard_embed, settings_embed, stats_embed
from bot.ui.texts import VARIANT_KEYS, moves_text
from rules import find_variant, legal_moves, parse_fen

BIG_ID = 2**63 - 1
SNOWFLAKE = 1100000000000000101
NAME_32 = "W" * 32
NAME_64 = "M" * 64
"""The service keeps names up to 64 characters (``bot.service.views.MAX_NAME_LENGTH``)."""
LONG_MOVE = "x".join(str(s) for s in (46, 37, 28, 19, 10, 4, 15, 24, 33, 42, 31, 22, 13, 2, 8))
"""A 15-landing capture path: longer than any real one, so it bounds them."""
MANY_MOVES_FEN = "W:WK44,K21,K1,K46,K45,K2,K17,K31,K25,K15:BK47"
"""International: ten white kings on an open board, 86 legal moves."""

ODD_NAMES = [
    "[claim nitro](https://evil.example/x)",
    "@everyone",
    "# heading",
    "**" * 16,
    "`" * 32,
    "\\" * 32,
    "e\u0301" * 16,
    "\u202eevil\u202c",
    "\u200b" * 32,
    "\U0001f44d\U0001f3fd" * 16,
    "\U0001f1eb\U0001f1f7" * 16,
    "\u05e9\u05dc\u05d5\u05dd " * 6,
    "<@1100000000000000101>",
]

# -- the checker ------------------------------------------------------------------------------


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _text(where: str, value: Any, high: int, low: int = 0) -> list[str]:
    if value is None:
        return [f"{where}: missing"] if low else []
    if not isinstance(value, str):
        return [f"{where}: not a string"]
    if not low <= units(value) <= high:
        return [f"{where}: {units(value)} characters, allowed {low}-{high}"]
    return []


def embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    found = [] if len(embeds) <= 10 else [f"{len(embeds)} embeds, allowed 10"]
    total = 0
    for n, e in enumerate(embeds):
        found += _text(f"embed {n} title", e.get("title"), 256)
        found += _text(f"embed {n} description", e.get("description"), 4096)
        found += _text(f"embed {n} footer", e.get("footer", {}).get("text"), 2048)
        found += _text(f"embed {n} author", e.get("author", {}).get("name"), 256)
        fields = e.get("fields", [])
        if len(fields) > 25:
            found.append(f"embed {n}: {len(fields)} fields, allowed 25")
        for i, f in enumerate(fields):
            found += _text(f"embed {n} field {i} name", f.get("name"), 256, 1)
            found += _text(f"embed {n} field {i} value", f.get("value"), 1024, 1)
            total += units(f.get("name") or "") + units(f.get("value") or "")
        for text in (
            e.get("title"),
            e.get("description"),
            e.get("footer", {}).get("text"),
            e.get("author", {}).get("name"),
        ):
            total += units(text or "")
    if total > 6000:
        found.append(f"embeds: {total} characters in all, allowed 6000")
    return found


def component_problems(rows: list[dict[str, Any]]) -> list[str]:
    found = [] if len(rows) <= 5 else [f"{len(rows)} rows, allowed 5"]
    ids: list[str] = []
    for r, row in enumerate(rows):
        items = row.get("components", [])
        if not 1 <= len(items) <= 5:
            found.append(f"row {r}: {len(items)} components, allowed 1-5")
        for c, item in enumerate(items):
            where = f"row {r} item {c}"
            if "custom_id" in item:
                ids.append(item["custom_id"])
                found += _text(f"{where} custom_id", item["custom_id"], 100, 1)
            if item.get("type") == 2:
                found += _text(f"{where} label", item.get("label"), 80)
            for o, option in enumerate(item.get("options", [])):
                found += _text(f"{where} option {o} label", option.get("label"), 100, 1)
                found += _text(f"{where} option {o} value", option.get("value"), 100, 1)
                found += _text(f"{where} option {o} description", option.get("description"), 100)
            if len(item.get("options", [])) > 25:
                found.append(f"{where}: more than 25 options")
    if len(ids) != len(set(ids)):
        found.append("custom ids repeat")
    return found


def problems(
    content: str | None = None,
    embeds: list[discord.Embed] | tuple[discord.Embed, ...] = (),
    view: discord.ui.View | None = None,
) -> list[str]:
    """Everything in one message Discord would refuse (empty: it would be accepted)."""
    found = _text("content", content, 2000)
    found += embed_problems([e.to_dict() for e in embeds])  # type: ignore[misc]
    if view is not None:
        found += component_problems(view.to_components())
    return found


def choice_problems(choices: list[Any]) -> list[str]:
    found = [] if len(choices) <= 25 else [f"{len(choices)} choices, allowed 25"]
    for n, c in enumerate(choices):
        found += _text(f"choice {n} name", c.name, 100, 1)
        found += _text(f"choice {n} value", c.value, 100, 1)
    return found


def test_the_checker_refuses_one_past_each_limit() -> None:
    assert problems("x" * 2000) == []
    assert problems("x" * 2001)
    assert problems("\U0001f44d" * 1001)  # 2002 UTF-16 units
    assert problems(embeds=[discord.Embed(title="t" * 256, description="d" * 4096)]) == []
    assert problems(embeds=[discord.Embed(title="t" * 257)])
    assert problems(embeds=[discord.Embed(description="d" * 4097)])
    over = discord.Embed(description="d" * 4096)
    for _ in range(2):
        over.add_field(name="n" * 256, value="v" * 1024)
    assert problems(embeds=[over])  # 6656 in all
    assert problems(embeds=[discord.Embed().add_field(name="n", value="")])
    assert problems(embeds=[discord.Embed()] * 11)
    many = discord.Embed()
    for _ in range(26):
        many.add_field(name="n", value="v")
    assert problems(embeds=[many])
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="l" * 81, custom_id="a"))
    assert problems(view=view)
    assert choice_problems([discord.app_commands.Choice(name="n" * 101, value="v")])


# -- views at the limits ----------------------------------------------------------------------


def player(uid: int = BIG_ID, name: str = NAME_32) -> Player:
    return Player(uid, name)


def game_view(
    white: Player | None = None,
    black: Player | None = None,
    *,
    running: bool = True,
    gid: int = BIG_ID,
) -> GameView:
    """A game of 500 plies between two players at the limits, with everything on the status
    line at once (an offer, a count, a takeback request, a deadline, a ballot, a match)."""
    white = white or player(BIG_ID, NAME_32)
    black = black or player(BIG_ID - 1, NAME_32)
    return GameView(
        id=gid,
        guild_id=BIG_ID,
        channel_id=BIG_ID,
        variant="international",
        variant_title=find_variant("international").title,
        white=white,
        black=black,
        computer_level=None,
        computer_id=None,
        status=GameStatus.RUNNING if running else GameStatus.FINISHED,
        fen="W:W1:B50",
        ply=500,
        move_number=251,
        turn=Side.WHITE,
        to_move=white if running else None,
        last_move=LONG_MOVE,
        previous_fen=None,
        status_line="",
        status_parts=(
            f"Draw offered by {shown(white.name)}",  # the service's words, escaped there
            "40-move count: 37 left",
            "25-move rule: 3 left",
            "position repeated (2 of 3)",
        )
        if running
        else (),
        draw_offer=Side.WHITE if running else None,
        advantage_left=37,
        deadline=32503680000.0 if running else None,
        move_time=7 * 86400,
        result=None if running else "2-0",
        termination=None if running else "Black ran out of time",
        winner=None if running else white,
        rated=True,
        match_id=gid,
        match_game=2,
        opening_label="ACF #155 Switcher-Bristol Cross: 11-15 21-17 15-19 (a long label)",
        takeback_offer=Side.BLACK if running else None,
    )


def challenge_view(
    status: ChallengeStatus, challenger: Player | None = None, opponent: Player | None = None
) -> ChallengeView:
    return ChallengeView(
        id=BIG_ID,
        guild_id=BIG_ID,
        channel_id=BIG_ID,
        challenger=challenger or player(BIG_ID, NAME_32),
        opponent=opponent or player(BIG_ID - 1, NAME_32),
        variant="english",
        variant_title=find_variant("english").title,
        color=ColorChoice.WHITE,
        move_time=7 * 86400,
        thread=True,
        level=None,
        status=status,
        game_id=BIG_ID,
        expires_at=32503680000.0,
        message_id=BIG_ID,
        opening="11-15 21-17 15-19",
        opening_label="ACF #155 Switcher-Bristol Cross: 11-15 21-17 15-19",
        match=True,
    )


def summary(n: int, white: Player, black: Player) -> GameSummary:
    return GameSummary(
        id=BIG_ID - n,
        variant="international",
        variant_title=find_variant("international").title,
        white=white,
        black=black,
        result="1/2-1/2",
        termination="40-move rule: no decisive advantage shown",
        ended_at=32503680000.0,
        rated=True,
        rating_change=-123.4,
        outcome="D",
        match_game=2,
    )


def stats_of(who: Player, games: int = 25) -> Stats:
    rival = player(BIG_ID - 7, NAME_64)
    line = RatingLine(who, 3999.9, 350.0, 10**9, "4000?")
    return Stats(
        player=who,
        variant="international",
        variant_title=find_variant("international").title,
        rating=line,
        rank=(10**9, 10**9),
        wins=10**9,
        draws=10**9,
        losses=10**9,
        streak=("L", 10**9),
        recent=tuple(summary(n, who, rival) for n in range(games)),
    )


def leaderboard_of(who: Player, size: int = 25) -> Leaderboard:
    top = tuple(
        RatingLine(player(BIG_ID - n, NAME_64), 3999.9, 350.0, 10**9, "4000?") for n in range(size)
    )
    return Leaderboard(
        variant="international",
        variant_title=find_variant("international").title,
        top=top,
        mine=(10**9, 10**9),
        my_line=RatingLine(who, 3999.9, 350.0, 10**9, "4000?"),
    )


def every_message(names: tuple[str, str]) -> list[tuple[str, list[str]]]:
    """Each builder's output for players called ``names``, with its problems."""
    a, b = player(BIG_ID, names[0]), player(SNOWFLAKE, names[1])
    running, finished = game_view(a, b), game_view(a, b, running=False)
    headline = " ".join([f"{names[0]} played {LONG_MOVE}."] * 200)  # a service text gone wild
    out: list[tuple[str, list[str]]] = [
        ("board", problems(embeds=[game_embed(running, headline, "game.png")])),
        ("finished board", problems(embeds=[game_embed(finished, headline, None)])),
        ("/games", problems(embeds=[games_embed([running] * 25)])),
        ("/stats", problems(embeds=[stats_embed(stats_of(a), "en")])),
        ("/leaderboard", problems(embeds=[leaderboard_embed(leaderboard_of(a), "en")])),
        (
            "/history",
            problems(
                embeds=[history_embed(tuple(summary(n, a, b) for n in range(25)), a.name, "en")]
            ),
        ),
        ("/moves", problems(moves_text(running, [LONG_MOVE] * 86, "en"))),
        ("content", problems(Outgoing(content=headline).send_kwargs().get("content"))),
    ]
    for status in ChallengeStatus:
        out.append(
            (
                f"challenge {status}",
                problems(embeds=[challenge_embed(challenge_view(status, a, b), BIG_ID)]),
            )
        )
    return out


# -- the builders at the extremes -------------------------------------------------------------


def test_every_builder_fits_with_the_longest_names_and_ids() -> None:
    for names in [(NAME_32, NAME_32), (NAME_64, NAME_64), *((n, n) for n in ODD_NAMES)]:
        for what, found in every_message(names):
            assert found == [], (what, names, found)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.tuples(
        st.text(
            alphabet=st.sampled_from("*_~|`[]()<>#-+@!:/\\ \n\u0301\u200b\u200d\u202e\U0001f44d")
            | st.characters(codec="utf-8"),
            max_size=80,
        ),
        st.text(max_size=80),
    )
)
def test_every_builder_fits_whatever_the_names(names: tuple[str, str]) -> None:
    for what, found in every_message(names):
        assert found == [], (what, found)


def test_games_lists_what_fits_and_counts_the_rest() -> None:
    views = [
        game_view(player(BIG_ID - n, NAME_64), player(n + 1, NAME_64), gid=BIG_ID - n)
        for n in range(25)
    ]
    embed = games_embed(views)
    assert problems(embeds=[embed]) == []
    assert embed.title == "Running games (25)"
    lines = (embed.description or "").split("\n")
    listed = [line for line in lines if line.startswith("**#")]
    assert 0 < len(listed) <= MAX_LISTED_GAMES
    assert lines[-1] == f"{ELLIPSIS} and {25 - len(listed)} more."
    for line, view in zip(listed, views, strict=False):  # whole lines, in order
        assert line.startswith(f"**#{view.id}** ") and line.endswith(")")


def test_games_lists_a_short_list_whole() -> None:
    views = [game_view(gid=n) for n in range(1, 4)]
    embed = games_embed(views)
    assert (embed.description or "").count("\n") == 2
    assert "more" not in (embed.description or "")


def test_moves_lists_whole_moves_and_counts_the_rest() -> None:
    variant = find_variant("international")
    legal = sorted(m.pdn() for m in legal_moves(parse_fen(MANY_MOVES_FEN, variant)))
    assert len(legal) >= 60
    view = replace(game_view(player(BIG_ID, NAME_64)), variant=variant.key)
    text = moves_text(view, legal, "en")
    assert problems(text) == []
    assert set(re.findall(r"`([^`]+)`", text)) == set(legal)  # short moves: every one fits
    long_moves = [f"{LONG_MOVE}x{n}" for n in range(60)]
    text = moves_text(view, long_moves, "en")
    assert problems(text) == []
    listed = re.findall(r"`([^`]+)`", text)
    assert listed == long_moves[: len(listed)] and 0 < len(listed) < 60
    assert text.endswith(f"{ELLIPSIS} and {60 - len(listed)} more")
    assert "has 60 legal moves (capturing is compulsory): " in text


def test_stats_keeps_whole_recent_games() -> None:
    who = player(BIG_ID, NAME_32)
    embed = stats_embed(stats_of(who, games=25), "en")
    assert problems(embeds=[embed]) == []
    recent = {f.name: f.value for f in embed.fields}["Recent games"] or ""
    lines = recent.split("\n")
    assert lines[-1].startswith(f"{ELLIPSIS} and ") and len(lines) > 1
    assert all(line.startswith("**#") and line.endswith(">") for line in lines[:-1])


def test_settings_lists_many_channels() -> None:
    channels = tuple(BIG_ID - n for n in range(200))
    embed = settings_embed(
        ServerSettings(BIG_ID, "english", 86400, ThreadMode.ALWAYS, channels), True, "en"
    )
    assert problems(embeds=[embed]) == []
    value = {f.name: f.value for f in embed.fields}["Game channels"] or ""
    assert re.fullmatch(r"(<#\d{19}>, )+and \d+ more", value)


def test_rules_and_help_fit() -> None:
    for key in VARIANT_KEYS:
        assert problems(embeds=[rules_embed(key, "en")]) == []
    assert problems(embeds=[help_embed("en")]) == []


def test_buttons_fit_with_the_largest_ids() -> None:
    buttons = Buttons()
    for view in (
        buttons.challenge(BIG_ID),
        buttons.draw(BIG_ID),
        buttons.takeback(BIG_ID, 999_999),
        buttons.resign(BIG_ID),
        buttons.game(BIG_ID, running=True, abortable=True, rematch=False),
        buttons.game(BIG_ID, running=False, abortable=False, rematch=True),
    ):
        assert problems(view=view) == []


def test_autocomplete_fits_and_keeps_values_whole() -> None:
    choices = [
        MoveChoice(f"{LONG_MOVE[:9]} ({LONG_MOVE}x{n})" * 2, f"{LONG_MOVE}x{n}") for n in range(60)
    ]
    offered = autocomplete(choices)
    assert choice_problems(offered) == []
    assert len(offered) == 25
    assert [c.value for c in offered] == [c.value for c in choices[:25]]
    assert all(c.name.endswith(ELLIPSIS) for c in offered)
    assert autocomplete([MoveChoice("too long", "1x" * 60), MoveChoice("", "11-15")]) == [
        discord.app_commands.Choice(name="11-15", value="11-15")
    ]


# -- the helpers ------------------------------------------------------------------------------


def test_listing_counts_what_it_leaves_out_within_the_limit() -> None:
    lines = [f"line {n}" for n in range(100)]
    text = listing(lines, 60)
    assert units(text) <= 60
    assert text.endswith(f"{ELLIPSIS} and {100 - text.count(chr(10))} more.")
    assert listing(lines[:3], 60) == "line 0\nline 1\nline 2"
    assert listing([], 60) == ""
    assert listing(lines, 60, most=2) == f"line 0\nline 1\n{ELLIPSIS} and 98 more."


@settings(max_examples=200)
@given(st.lists(st.text(max_size=30), max_size=40), st.integers(min_value=20, max_value=300))
def test_listing_always_fits(lines: list[str], limit: int) -> None:
    text = listing(lines, limit)
    assert units(text) <= limit
    if units("\n".join(lines)) <= limit:
        assert text == "\n".join(lines)


def test_fit_cuts_between_pieces_and_closes_what_it_was_inside() -> None:
    assert fit("short", 10) == "short"
    assert fit("**bold words here** and more", 15) == f"**bold words{ELLIPSIS}**"
    assert fit("**bold words here** and more", 14) == f"**bold{ELLIPSIS}**"  # at a space
    text = "see <@1100000000000000101> and <t:1700000000:R> now"
    for limit in range(2, len(text)):
        cut = fit(text, limit)
        assert units(cut) <= limit
        assert cut.count("<") == cut.count(">"), cut
    escaped = "\\*\\*\\*\\*\\*\\*"
    for limit in range(2, len(escaped)):
        assert not fit(escaped, limit).removesuffix(ELLIPSIS).endswith("\\") or fit(
            escaped, limit
        ).removesuffix(ELLIPSIS).endswith("\\\\")


PIECES = st.sampled_from(
    [
        "word",
        " ",
        "**",
        "||",
        "`11-15`",
        "<@1100000000000000101>",
        "<t:1:R>",
        "\\*",
        "\\\\",
        "é",
        "\U0001f44d\U0001f3fd",
    ]
)


@settings(max_examples=300)
@given(st.lists(PIECES, max_size=60), st.integers(min_value=1, max_value=120))
def test_fit_never_cuts_inside_markdown(pieces: list[str], limit: int) -> None:
    text = "".join(pieces)
    cut = fit(text, limit)
    assert units(cut) <= limit
    if units(text) <= limit:
        assert cut == text
        return
    body, _, closers = cut.partition(ELLIPSIS)
    assert text.startswith(body)
    assert set(re.findall(r"\*\*|\|\|", closers)) <= {"**", "||"}
    cut_at = len(body)
    at = 0
    for piece in pieces:  # only words may be cut inside, between their letters
        assert not (at < cut_at < at + len(piece)) or piece == "word", (piece, cut)
        at += len(piece)
    opened = body + closers
    assert opened.count("**") % 2 == 0 and opened.count("||") % 2 == 0


def test_fit_embed_keeps_an_embed_within_every_limit() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for n in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000 if n else "")
    embed.set_footer(text="f" * 3000)
    embed.set_author(name="a" * 300)
    assert problems(embeds=[fit_embed(embed)]) == []


def test_label_is_one_plain_line() -> None:
    assert label("a\nb  c") == "a b c"
    assert label("x" * 100) == "x" * 79 + ELLIPSIS
    assert label("[x](y)") == "[x](y)"  # plain text: no escapes to show


def test_names_are_cut_before_they_are_escaped() -> None:
    embed = game_embed(game_view(player(1, "*" * 40), player(2, "ok")), "h", None)
    players = (embed.description or "").split("\n")[0]
    assert players.startswith("**" + "\\*" * (NAME_LIMIT - 1) + ELLIPSIS + "** (White) v ")

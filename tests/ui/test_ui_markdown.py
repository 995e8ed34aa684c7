"""Names are shown as typed and can never become Markdown: no link, heading, list, quote,
subtext, spoiler, code, emphasis, mention or mass mention comes from a player's name.

:func:`support.markdown_marks.live_marks` reads a text the way Discord's Markdown would, without
trusting :mod:`bot.markdown`: every mark Discord would act on (an unescaped special character, a
construct at the start of a line, a ``scheme://`` it would link, ``@everyone``).  A builder is
safe when the marks of its output with hostile names are exactly the marks with harmless names:
the bot's own bold, mentions, timestamps and code spans, and nothing from the names.
"""

from __future__ import annotations

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.markdown_marks import PUNCTUATION, live_marks, unescape
from test_ui_limits import BIG_ID, challenge_view, game_view, player, stats_of, summary, units

from bot.enums import ChallengeStatus
from bot.markdown import ELLIPSIS, NAME_LIMIT, SHOWN_MAX, clusters, one_line, plain, shown
from bot.ui.embeds import challenge_embed, game_embed, games_embed, result_words, status_words
from bot.ui.social_embeds import history_embed, stats_embed
from bot.ui.texts import moves_text

HOSTILE = [
    "[claim nitro](https://evil.example/x)",
    "[claim",
    "](https://evil.example)",
    "https://evil.example/x",
    "<https://evil.example>",
    "# Heading",
    "### small",
    "-# subtext",
    "- item",
    "* item",
    "1. first",
    "> quote",
    ">>> quote",
    "||spoiler||",
    "`code`",
    "```block```",
    "**bold**",
    "__under__",
    "~~strike~~",
    "*it*",
    "_it_",
    "<@1100000000000000101>",
    "<@&1100000000000000101>",
    "<#1100000000000000101>",
    "<t:0:R>",
    "</help:1100000000000000101>",
    "<:emoji:1100000000000000101>",
    "@everyone",
    "@here",
    "trailing\\",
    "a\n# line",
    "\u202e]k(nil)[",
]


def embed_texts(embed: discord.Embed) -> list[str]:
    """Every part of an embed Discord renders as Markdown."""
    texts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        texts += [f.name or "", f.value or ""]
    return texts


def outputs(a: str, b: str) -> dict[str, list[str]]:
    """What each builder that shows names makes for players named ``a`` and ``b``."""
    white, black = player(BIG_ID, a), player(7, b)
    running, finished = game_view(white, black), game_view(white, black, running=False)
    games = (summary(1, white, black), summary(2, black, white))
    return {
        "board": embed_texts(game_embed(running, "Bob played 11-15.", None)),
        "finished": embed_texts(game_embed(finished, "Game over.", None)),
        "status": [status_words(running)],
        "result": [result_words(finished)],
        "games": embed_texts(games_embed([running, running])),
        "stats": embed_texts(stats_embed(stats_of(white, games=2), "en")),
        "history": embed_texts(history_embed(games, a, "en")),
        "moves": [moves_text(running, ["11-15", "12x19"], "en")],
        **{
            f"challenge {s}": embed_texts(challenge_embed(challenge_view(s, white, black)))
            for s in ChallengeStatus
        },
    }


def _benign(name: str) -> str:
    return "Plain Name"


def test_the_reader_sees_what_discord_would_act_on() -> None:
    assert live_marks("[x](https://e.x)") == ["[", "]", "url"]
    assert live_marks("\\[x\\](https\\://e.x)") == []
    assert live_marks("# h") == ["line:#"]
    assert live_marks("a\n> q") == ["line:>", ">"]
    assert live_marks("\\# h") == []
    assert live_marks("@everyone") == ["@ever"]
    assert live_marks("\\\\*") == ["*"]  # an escaped backslash escapes nothing after it


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_add_no_markdown_to_any_builder(hostile: str) -> None:
    benign = outputs("Plain Name", "Other Name")
    for pair in ((hostile, "Other Name"), ("Plain Name", hostile), (hostile, hostile)):
        for what, texts in outputs(*pair).items():
            assert [live_marks(t) for t in texts] == [live_marks(t) for t in benign[what]], (
                what,
                texts,
            )


def test_a_link_split_over_two_names_stays_text() -> None:
    embed = game_embed(
        game_view(player(1, "[claim nitro"), player(2, "](https://evil.example)")), "h", None
    )
    players = (embed.description or "").split("\n")[0]
    assert "**\\[claim nitro** (White) v **\\](https\\://evil.example)** (Black)" in players
    assert "[claim nitro** (White) v **](https://evil.example)** (Black)" in unescape(players)
    # discord.py's own escaping leaves both halves alone, so the bot would write a link:
    joined = f"{discord.utils.escape_markdown('[claim nitro')} v "
    joined += discord.utils.escape_markdown("](https://evil.example)")
    assert joined == "[claim nitro v ](https://evil.example)"


def test_an_escaped_name_cannot_leave_the_bold_around_it() -> None:
    for name in ("a**b", "**", "x\\", "*", "\\*"):
        text = f"**{shown(name)}** wins"
        assert live_marks(text) == ["*", "*", "*", "*"]
        assert unescape(text) == f"**{name}** wins"


def test_mass_mentions_are_broken_and_mentions_are_text() -> None:
    assert "@everyone" not in shown("@everyone")
    assert "@here" not in shown("hi @HERE")
    assert shown("<@1100000000000000101>") == "\\<@1100000000000000101\\>"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Alice", "Alice"),
        ("# Heading", "\\# Heading"),
        ("-# subtext", "\\-# subtext"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("1. first", "1\\. first"),
        ("> quote", "\\> quote"),
        ("||spoiler||", "\\|\\|spoiler\\|\\|"),
        ("`code`", "\\`code\\`"),
        ("a_b", "a\\_b"),
        ("http://x.y", "http\\://x.y"),
        ("O'Brien-Smith 2.0", "O'Brien-Smith 2.0"),
        ("line\nbreak", "line break"),
        ("\u202eright", "right"),
        ("   ", "?"),
    ],
)
def test_shown_escapes_only_what_would_render(name: str, expected: str) -> None:
    assert shown(name) == expected


def test_long_names_end_in_an_ellipsis_on_whole_characters() -> None:
    assert shown("x" * 40) == "x" * (NAME_LIMIT - 1) + ELLIPSIS
    assert shown("*" * 40) == "\\*" * (NAME_LIMIT - 1) + ELLIPSIS
    accents = "e\u0301" * 20
    assert plain(accents).removesuffix(ELLIPSIS) == "e\u0301" * 15
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 8  # joined emoji, 5 code points each
    cut = plain(family).removesuffix(ELLIPSIS)
    assert cut == "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 6
    flags = "\U0001f1eb\U0001f1f7" * 20
    assert len(plain(flags).removesuffix(ELLIPSIS)) % 2 == 0


ODD = st.text(
    alphabet=st.sampled_from(
        PUNCTUATION + " \n\tab1\u0301\u200b\u200d\u202e\u2067\U0001f44d\U0001f3fd"
    )
    | st.characters(codec="utf-8"),
    max_size=80,
)


@settings(max_examples=500)
@given(ODD)
def test_shown_reads_as_typed_and_makes_no_markdown(name: str) -> None:
    text = shown(name)
    assert live_marks(text) == []
    assert live_marks(f"**{text}** and `code`") == ["*", "*", "*", "*", "`", "`"]
    assert units(text) <= SHOWN_MAX
    assert "\n" not in text
    readable = unescape(text).replace("\u200b", "")
    expected = plain(name).replace("\u200b", "")
    assert readable == expected
    assert plain(name) == "?" or one_line(name).startswith(plain(name).removesuffix(ELLIPSIS))
    assert len(plain(name)) <= NAME_LIMIT


@settings(max_examples=200)
@given(ODD)
def test_clusters_rebuild_the_text(text: str) -> None:
    assert "".join(clusters(text)) == text

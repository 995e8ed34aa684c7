"""The words of /help, /rules, /stats, /leaderboard, /history, /settings and /prefs come from the
catalogs: every sentence is a catalog message (never English glued together or shown verbatim),
a language without a catalog reads the English, and a catalog that translates everything leaves
no English word behind in what the builders make."""

from __future__ import annotations

import discord
import pytest
from support.pseudo_language import PSEUDO, use_pseudo_language
from test_ui_limits import BIG_ID, leaderboard_of, player, stats_of, summary

from bot.enums import BoardTheme, ColorChoice, Orientation, ThreadMode
from bot.i18n import Kind, Text, render
from bot.results import UserPrefs
from bot.service.settings import ServerSettings
from bot.ui.info import help_embed, rules_embed
from bot.ui.prefs import NOTATION_WORDS, prefs_embed
from bot.ui.rules_texts import DRAW_CLAUSES, draw_clause, notation_note, rules_summary
from bot.ui.social_embeds import (
    THREAD_WORDS,
    history_embed,
    leaderboard_embed,
    settings_embed,
    stats_embed,
    summary_line,
)
from bot.ui.texts import VARIANT_KEYS, color_word, help_paragraphs, theme_word
from rules import find_variant
from rules.variants import VARIANTS, Notation

MISSING = "zz"
"""A language with no catalog at all."""


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    use_pseudo_language(monkeypatch)


def catalog_only(text: Text) -> bool:
    """Made of catalog messages only: a message (its arguments may be names or moves), or
    messages joined or listed."""
    if text.kind is Kind.MESSAGE:
        return bool(text.msgid)
    if text.kind in (Kind.SEQUENCE, Kind.LIST):
        return bool(text.parts) and all(catalog_only(part) for part in text.parts)
    return False


def marked(words: str | None) -> bool:
    """Every piece of ``words`` came through the pseudo catalog."""
    assert words
    return words.startswith("⟦") and words.endswith("⟧")


def embed_words(embed: discord.Embed) -> list[str]:
    """The title, field names and footer: words only, never data."""
    out = [embed.title or ""]
    out += [field.name or "" for field in embed.fields]
    if embed.footer.text:
        out.append(embed.footer.text)
    return out


# -- /rules and /help ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_every_bullet_of_the_rules_is_a_catalog_message(key: str) -> None:
    title, lines = rules_summary(key)
    assert catalog_only(title)
    variant = VARIANTS[key]
    # One sentence more each on removal, on capturing along rows and columns, on a king's moves
    # in a row.
    extra = (
        variant.captures_removed_at_once,
        variant.captures_in_eight_directions,
        bool(variant.king_move_limit),
    )
    assert len(lines) == 7 + sum(extra)
    for line in lines:
        assert catalog_only(line), line
    assert catalog_only(notation_note(key))


def test_every_draw_rule_of_every_variant_is_worded() -> None:
    explained = {"16-move endgame rule", "5-move endgame rule"}
    reworded = {  # frisian's endgames, said by who is left
        "two kings against one king not won in 7 moves": (
            "with two kings against one king, after 7 moves each"
        ),
        "one king each not won in 2 moves": "with one king each, after 2 moves each",
    }
    for variant in VARIANTS.values():
        for rule in (variant.no_progress, *variant.endgames):
            if rule is None:
                continue
            assert rule in DRAW_CLAUSES, (variant.key, rule.description)
            clause = draw_clause(rule)
            if rule.moves == 0:  # drawn as soon as the ending arises: no count to word
                assert clause.plural is None and str(clause).startswith("as soon as "), rule
                continue
            assert clause.kind is Kind.MESSAGE and clause.plural is not None
            assert clause.arguments["count"] == rule.moves
            if rule.description in explained:
                assert str(clause).startswith(f"the {rule.description}: ")
            elif rule.description in reworded:
                assert str(clause) == reworded[rule.description]
            else:
                assert str(clause) == f"after {rule.description}"


def test_the_rules_read_as_before_in_english() -> None:
    _, lines = rules_summary("international")
    assert str(lines[0]) == (
        "10x10 board, played on the 50 dark squares; 20 men each, on the first 4 rows. White "
        "moves first."
    )
    assert str(lines[-1]) == (
        "Drawn by agreement, by threefold repetition (the same position with the same player to "
        "move), after 25 moves each with only king moves; the 16-move endgame rule: when one side "
        "has three kings, two kings and a man, or a king and two men against a lone king, the game "
        "is drawn unless it is won within 16 moves each; the 5-move endgame rule: with two kings, "
        "a king and a man, or one king against a lone king, the game is drawn after 5 moves each."
    )
    _, lines = rules_summary("canadian")
    assert str(lines[0]) == (
        "12x12 board, played on the 72 dark squares; 30 men each, on the first 5 rows. White "
        "moves first."
    )
    _, lines = rules_summary("english")
    assert str(lines[0]).endswith("12 men each, on the first 3 rows. Black moves first.")
    assert str(lines[-1]).endswith(
        "after 40 moves each without a man move or capture. A player who declines a draw offer "
        "has 40 moves to show a decisive advantage, or the game is drawn."
    )


def test_help_is_one_catalog_message_per_paragraph() -> None:
    paragraphs = help_paragraphs()
    # 28: challenges, tapping, clocks; 29: tournaments; 30: analysis, /import, puzzles, a position
    assert len(paragraphs) == 14
    assert all(p.kind is Kind.MESSAGE and not p.args for p in paragraphs)
    embed = help_embed("en")
    assert embed.title == "How to play"
    assert (embed.description or "").startswith("**Start a game**: `/challenge opponent:@friend")
    assert (embed.description or "").count("\n") == 13
    assert "**Tournaments**: " in (embed.description or "")
    assert "**Learn from a game**: press Analyse" in (embed.description or "")
    assert "**Import a game**: `/import`" in (embed.description or "")
    assert "**Puzzles**: `/puzzle solve`" in (embed.description or "")
    assert "**From a position**: `/challenge position:" in (embed.description or "")


def test_help_tells_how_to_play_by_tapping_and_names_the_boards_buttons() -> None:
    """/help once never mentioned the Move button: it describes the board's move menu and
    names each of the board's buttons as they are labelled."""
    text = help_embed("en").description or ""
    assert "**Play by tapping**" in text and "move menu" in text
    for label in ("Arrows", "Move list", "More"):
        assert label in text
    for action in ("draw", "takeback", "resign", "abort"):
        assert action in text


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_a_language_without_a_catalog_reads_english(key: str) -> None:
    assert rules_embed(key, MISSING).to_dict() == rules_embed(key, "en").to_dict()
    assert help_embed(MISSING).to_dict() == help_embed("en").to_dict()


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_rules_and_help_leave_no_english_behind(key: str, pseudo: None) -> None:
    embed = rules_embed(key, PSEUDO)
    assert all(marked(words) for words in embed_words(embed))
    bullets = (embed.description or "").split("\n")
    assert len(bullets) == len(rules_summary(key)[1])  # one per sentence
    assert all(marked(b.removeprefix("• ")) for b in bullets)
    help_text = help_embed(PSEUDO)
    assert marked(help_text.title)
    assert all(marked(p) for p in (help_text.description or "").split("\n"))


# -- /stats, /leaderboard, /history, /settings, /prefs --------------------------------------------


def test_stats_leaderboard_and_history_leave_no_english_behind(pseudo: None) -> None:
    who = player(BIG_ID, "Alice")
    stats = stats_embed(stats_of(who, games=2), PSEUDO)
    assert all(marked(words) for words in embed_words(stats))
    assert marked(stats.description)
    values = {field.name: field.value for field in stats.fields}
    assert values["⟦Rating⟧"] == "⟦**4000?** (provisional)⟧"
    assert marked(values["⟦Rank⟧"])
    board = leaderboard_embed(leaderboard_of(who, size=3), PSEUDO)
    assert all(marked(words) for words in embed_words(board))
    assert all(line.endswith("⟧") for line in (board.description or "").split("\n"))
    history = history_embed((summary(1, who, who),), "Alice", PSEUDO)
    assert all(marked(words) for words in embed_words(history))
    line = summary_line(summary(1, who, who), PSEUDO, about_player=True)
    assert "⟦{white} v {black}⟧" not in line  # filled in, not shown raw
    assert "⟦rated ({change})⟧" not in line
    assert "⟦<@" in line and "⟦rated (-123)⟧" in line and "⟦match game 2⟧" in line


def test_empty_lists_leave_no_english_behind(pseudo: None) -> None:
    who = player(BIG_ID, "Alice")
    empty = leaderboard_embed(leaderboard_of(who, size=0), PSEUDO)
    assert marked(empty.description)
    assert marked(history_embed((), None, PSEUDO).description)


@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("threads", list(ThreadMode))
def test_settings_leave_no_english_behind(
    orientation: Orientation, threads: ThreadMode, pseudo: None
) -> None:
    settings = ServerSettings(10, "dame", 86400, threads, (), orientation, BoardTheme.CONTRAST)
    embed = settings_embed(settings, True, PSEUDO)
    assert all(marked(words) for words in embed_words(embed))
    values = [field.value for field in embed.fields]
    assert [marked(v) for v in values] == [True, False, True, True, True, True]
    assert values[1] == "1 day"  # a length of time is Babel's, not the catalogs'
    english = settings_embed(settings, True, "en")
    assert [f.value for f in english.fields][-2:] == [
        f"{orientation.value.capitalize()} at the bottom, contrast theme",
        "the server's language in Discord",
    ]
    # A chosen language is named in its own words, the same for every reader.
    chosen = settings_embed(settings, True, PSEUDO, "de")
    assert chosen.fields[-1].value == "Deutsch"


@pytest.mark.parametrize(
    "prefs",
    [
        UserPrefs(1),
        UserPrefs(1, BoardTheme.GREEN, Notation.ALGEBRAIC, True, True),
        UserPrefs(1, BoardTheme.WOOD, Notation.NUMERIC, False, True),
    ],
)
def test_prefs_leave_no_english_behind(prefs: UserPrefs, pseudo: None) -> None:
    embed = prefs_embed(prefs, False, PSEUDO)
    assert all(marked(words) for words in embed_words(embed))
    assert all(marked(field.value) for field in embed.fields)
    assert prefs_embed(prefs, True, MISSING).to_dict() == prefs_embed(prefs, True, "en").to_dict()


def test_shown_labels_are_catalog_messages() -> None:
    assert all(theme_word(theme).kind is Kind.MESSAGE for theme in BoardTheme)
    assert [str(theme_word(theme)) for theme in BoardTheme] == [t.value for t in BoardTheme]
    assert all(text.kind is Kind.MESSAGE for text in NOTATION_WORDS.values())
    assert set(THREAD_WORDS) == set(ThreadMode)
    assert [str(color_word(c)) for c in ColorChoice] == ["random colours", "White", "Black"]
    assert render(color_word(ColorChoice.WHITE), MISSING) == "White"
    assert str(rules_summary("russian")[0]) == find_variant("russian").title
